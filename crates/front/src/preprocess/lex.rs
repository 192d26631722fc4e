//! Translation phases 1-3: line splicing, comments, preprocessing tokens.
//!
//! A file is tokenized once, up front. Every token carries the physical line and
//! column (1-based, counted in characters) of its first character, so that output
//! lines and error messages point back at the source as the user wrote it.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};
use std::rc::Rc;

/// Where a token came from: file id (index into the engine's file table), line, column.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Pos {
    pub file: u32,
    pub line: u32,
    pub col: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Ident,
    /// A preprocessing number (`12`, `0x1fUL`, `1.5e+3`, `.5`).
    Number,
    /// A character constant, with any prefix (`'a'`, `L'\n'`).
    Char,
    /// A string literal, with any prefix.
    Str,
    Punct,
    /// `<name>` right after `#include`.
    HeaderName,
    /// A `'` or `"` with no closing quote on its line (the rest of the line).
    Unterminated,
    /// Any other single character (`@`, a non-ASCII letter, ...).
    Other,
    /// `##` inside a macro body: the paste operator (a `##` coming from an
    /// argument stays `Punct` and does not paste).
    Paste,
    /// The empty token standing for an empty argument next to `##`.
    Placemarker,
    /// The end of a logical line (never inside a comment or after a splice).
    Newline,
    Eof,
}

/// Names of macros that must not be expanded again at this token ("blue paint").
pub(crate) type HideSet = Option<Rc<Vec<Rc<str>>>>;

#[derive(Debug, Clone)]
pub(crate) struct Token {
    pub kind: Kind,
    pub text: Rc<str>,
    pub pos: Pos,
    /// Whitespace or a comment came before this token on its logical line.
    pub space: bool,
    /// First token of its logical line (so a `#` here starts a directive).
    pub bol: bool,
    pub hide: HideSet,
    /// Produced by a macro expansion (its position is the macro name's).
    pub expanded: bool,
}

impl Token {
    pub fn new(kind: Kind, text: &str, pos: Pos) -> Token {
        Token {
            kind,
            text: Rc::from(text),
            pos,
            space: false,
            bol: false,
            hide: None,
            expanded: false,
        }
    }

    pub fn is_punct(&self, p: &str) -> bool {
        self.kind == Kind::Punct && &*self.text == p
    }

    pub fn is_ident(&self, name: &str) -> bool {
        self.kind == Kind::Ident && &*self.text == name
    }

    pub fn is_hidden(&self, name: &str) -> bool {
        self.hide
            .as_ref()
            .is_some_and(|h| h.iter().any(|n| &**n == name))
    }
}

/// A lexing failure: where and what.
#[derive(Debug, Clone)]
pub(crate) struct LexError {
    pub line: u32,
    pub col: u32,
    pub message: String,
}

/// FNV-1a: a fast hash for the short identifier keys of the lexer's and the
/// macro table's maps (inputs are the user's own files; no DoS concern).
#[derive(Debug, Default, Clone, Copy)]
pub(crate) struct Fnv(u64);

impl Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for &b in bytes {
            h ^= u64::from(b);
            h = h.wrapping_mul(0x0100_0000_01b3);
        }
        self.0 = h;
    }
}

pub(crate) type FastMap<K, V> = HashMap<K, V, BuildHasherDefault<Fnv>>;
pub(crate) type FastSet<K> = HashSet<K, BuildHasherDefault<Fnv>>;

/// Phases 1-2 on the fly: a position in the source that steps over
/// backslash-newline splices (a backslash, blanks, then a newline splices too, as
/// GCC does) and reads `\r\n` and a lone `\r` as `\n`.
#[derive(Clone, Copy)]
struct Cursor<'a> {
    s: &'a str,
    i: usize,
    line: u32,
    col: u32,
    /// Splices stepped over so far (a token containing one needs its text rebuilt).
    splices: u32,
}

impl Cursor<'_> {
    #[inline]
    fn skip_splices(&mut self) {
        let b = self.s.as_bytes();
        while self.i < b.len() && b[self.i] == b'\\' {
            let mut j = self.i + 1;
            while j < b.len() && (b[j] == b' ' || b[j] == b'\t') {
                j += 1;
            }
            let newline_len = match (b.get(j), b.get(j + 1)) {
                (Some(b'\r'), Some(b'\n')) => 2,
                (Some(b'\n'), _) | (Some(b'\r'), _) => 1,
                _ => return,
            };
            self.i = j + newline_len;
            self.line += 1;
            self.col = 1;
            self.splices += 1;
        }
    }

    /// The current character (`\n` for any line end), `None` at the end.
    #[inline]
    fn peek(&mut self) -> Option<char> {
        self.skip_splices();
        let b = *self.s.as_bytes().get(self.i)?;
        Some(match b {
            b'\r' => '\n',
            b if b < 0x80 => char::from(b),
            _ => self.s[self.i..].chars().next().unwrap_or('\u{fffd}'),
        })
    }

    /// The character after the current one.
    #[inline]
    fn peek2(&self) -> Option<char> {
        let mut c = *self;
        c.bump();
        c.peek()
    }

    /// Moves past the current character.
    #[inline]
    fn bump(&mut self) {
        self.skip_splices();
        let b = self.s.as_bytes();
        let Some(&x) = b.get(self.i) else { return };
        match x {
            b'\n' => {
                self.i += 1;
                self.line += 1;
                self.col = 1;
            }
            b'\r' => {
                self.i += if b.get(self.i + 1) == Some(&b'\n') {
                    2
                } else {
                    1
                };
                self.line += 1;
                self.col = 1;
            }
            x if x < 0x80 => {
                self.i += 1;
                self.col += 1;
            }
            _ => {
                self.i += self.s[self.i..].chars().next().map_or(1, char::len_utf8);
                self.col += 1;
            }
        }
    }
}

/// Number of lines of a source text, as an editor counts them.
pub(crate) fn line_count(src: &str) -> u32 {
    let b = src.as_bytes();
    let ends = (0..b.len())
        .filter(|&i| b[i] == b'\n' || (b[i] == b'\r' && b.get(i + 1) != Some(&b'\n')))
        .count();
    let extra = usize::from(!src.is_empty() && !matches!(b.last(), Some(b'\n' | b'\r')));
    u32::try_from(ends + extra).unwrap_or(u32::MAX)
}

const PUNCT1: &str = "[](){}.&*+-~!/%<>^|?:;=,#";

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '$'
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

/// Phase 3: the preprocessing tokens of `src`, with `Newline` tokens at the ends of
/// logical lines (one is added if the text does not end with a newline) and a
/// final `Eof`.
pub(crate) fn tokenize(src: &str, file: u32) -> Result<Vec<Token>, LexError> {
    let mut cur = Cursor {
        s: src,
        i: if src.starts_with('\u{feff}') { 3 } else { 0 },
        line: 1,
        col: 1,
        splices: 0,
    };
    let mut toks: Vec<Token> = Vec::with_capacity(src.len() / 3 + 2);
    let mut bol = true;
    let mut space = false;
    // Index in `toks` of the `#` starting the current line, if the line is a directive.
    let mut directive_start: Option<usize> = None;
    // Identifiers and punctuators repeat a lot: share one allocation per spelling.
    let mut interned: FastMap<&str, Rc<str>> = FastMap::default();
    while let Some(c) = cur.peek() {
        let pos = Pos {
            file,
            line: cur.line,
            col: cur.col,
        };
        if c == '\n' {
            let mut t = Token::new(Kind::Newline, "\n", pos);
            t.bol = bol;
            toks.push(t);
            bol = true;
            space = false;
            directive_start = None;
            cur.bump();
            continue;
        }
        if c == ' ' || c == '\t' || c == '\u{b}' || c == '\u{c}' {
            space = true;
            cur.bump();
            continue;
        }
        if c == '/' && cur.peek2() == Some('*') {
            skip_block_comment(&mut cur, pos)?;
            space = true;
            continue;
        }
        if c == '/' && cur.peek2() == Some('/') {
            while cur.peek().is_some_and(|c| c != '\n') {
                cur.bump();
            }
            space = true;
            continue;
        }
        let start = cur.i;
        let splices = cur.splices;
        let kind;
        let in_include = directive_start.is_some_and(|d| {
            toks.len() == d + 2
                && matches!(&*toks[d + 1].text, "include" | "include_next" | "import")
        });
        if c == '<' && in_include && src[start..].lines().next().is_some_and(|l| l.contains('>')) {
            while cur.peek().is_some_and(|c| c != '>') {
                cur.bump();
            }
            cur.bump();
            kind = Kind::HeaderName;
        } else if is_ident_start(c) {
            kind = lex_identifier(&mut cur);
        } else if c.is_ascii_digit()
            || (c == '.' && cur.peek2().is_some_and(|d| d.is_ascii_digit()))
        {
            lex_number(&mut cur);
            kind = Kind::Number;
        } else if c == '"' || c == '\'' {
            kind = lex_quoted(&mut cur);
        } else {
            kind = lex_punctuator(&mut cur, c);
        }
        let raw = &src[start..cur.i];
        let text: Rc<str> = if cur.splices != splices {
            Rc::from(unsplice(raw).as_str())
        } else if matches!(kind, Kind::Ident | Kind::Punct) {
            Rc::clone(interned.entry(raw).or_insert_with(|| Rc::from(raw)))
        } else {
            Rc::from(raw)
        };
        let t = Token {
            kind,
            text,
            pos,
            space,
            bol,
            hide: None,
            expanded: false,
        };
        if bol && t.is_punct("#") {
            directive_start = Some(toks.len());
        }
        toks.push(t);
        bol = false;
        space = false;
    }
    if !matches!(toks.last(), Some(t) if t.kind == Kind::Newline) && cur.i > 0 {
        let mut t = Token::new(
            Kind::Newline,
            "\n",
            Pos {
                file,
                line: cur.line,
                col: cur.col,
            },
        );
        t.bol = bol;
        toks.push(t);
    }
    let last_line = toks.last().map_or(1, |t| t.pos.line);
    let mut eof = Token::new(
        Kind::Eof,
        "",
        Pos {
            file,
            line: last_line,
            col: 1,
        },
    );
    eof.bol = true;
    toks.push(eof);
    Ok(toks)
}

/// Skips a `/* ... */` comment that starts at the cursor (at `pos`).
fn skip_block_comment(cur: &mut Cursor<'_>, pos: Pos) -> Result<(), LexError> {
    cur.bump();
    cur.bump();
    loop {
        match cur.peek() {
            None => {
                return Err(LexError {
                    line: pos.line,
                    col: pos.col,
                    message: "unterminated comment: this `/*` has no closing `*/`".into(),
                })
            }
            Some('*') if cur.peek2() == Some('/') => {
                cur.bump();
                cur.bump();
                return Ok(());
            }
            Some(_) => cur.bump(),
        }
    }
}

/// An identifier, or a character or string literal with an encoding prefix
/// (`L'x'`, `u8"..."`, written without a splice between prefix and quote).
fn lex_identifier(cur: &mut Cursor<'_>) -> Kind {
    let (start, splices) = (cur.i, cur.splices);
    while cur.peek().is_some_and(is_ident_char) {
        cur.bump();
    }
    let quote = cur.peek();
    let prefix = &cur.s[start..cur.i];
    if matches!(quote, Some('"' | '\''))
        && cur.splices == splices
        && matches!(prefix, "L" | "u" | "U" | "u8")
    {
        lex_quoted(cur)
    } else {
        Kind::Ident
    }
}

/// A preprocessing number: digits, letters, `.`, and signs after an exponent.
fn lex_number(cur: &mut Cursor<'_>) {
    while let Some(d) = cur.peek() {
        if matches!(d, 'e' | 'E' | 'p' | 'P') && matches!(cur.peek2(), Some('+' | '-')) {
            cur.bump();
            cur.bump();
        } else if is_ident_char(d) || d == '.' {
            cur.bump();
        } else {
            break;
        }
    }
}

/// The longest punctuator starting with `c` (or a lone other character).
fn lex_punctuator(cur: &mut Cursor<'_>, c: char) -> Kind {
    let mut ahead = *cur;
    ahead.bump();
    let c1 = ahead.peek().unwrap_or('\0');
    ahead.bump();
    let c2 = ahead.peek().unwrap_or('\0');
    let len = punct_len(c, c1, c2);
    for _ in 0..len {
        cur.bump();
    }
    if len > 1 || PUNCT1.contains(c) {
        Kind::Punct
    } else {
        Kind::Other
    }
}

/// `raw` without its backslash-newline splices.
fn unsplice(raw: &str) -> String {
    let mut c = Cursor {
        s: raw,
        i: 0,
        line: 1,
        col: 1,
        splices: 0,
    };
    let mut out = String::with_capacity(raw.len());
    while let Some(ch) = c.peek() {
        out.push(ch);
        c.bump();
    }
    out
}

/// Length of the longest punctuator starting with `c c1 c2`.
fn punct_len(c: char, c1: char, c2: char) -> usize {
    match (c, c1) {
        ('<', '<') | ('>', '>') if c2 == '=' => 3,
        ('.', '.') if c2 == '.' => 3,
        ('-', '>' | '-' | '=')
        | ('+', '+' | '=')
        | ('<', '<' | '=')
        | ('>', '>' | '=')
        | ('=' | '!' | '*' | '/' | '%' | '^', '=')
        | ('&', '&' | '=')
        | ('|', '|' | '=')
        | ('#', '#') => 2,
        _ => 1,
    }
}

/// Lexes a string or character literal starting at the quote under the cursor;
/// an unclosed one takes the rest of the line and is `Unterminated`.
fn lex_quoted(cur: &mut Cursor<'_>) -> Kind {
    let Some(quote) = cur.peek() else {
        return Kind::Unterminated;
    };
    cur.bump();
    loop {
        match cur.peek() {
            None | Some('\n') => return Kind::Unterminated,
            Some('\\') => {
                cur.bump();
                if cur.peek().is_some_and(|c| c != '\n') {
                    cur.bump();
                }
            }
            Some(c) => {
                cur.bump();
                if c == quote {
                    return if quote == '"' { Kind::Str } else { Kind::Char };
                }
            }
        }
    }
}

/// Lexes `s` as exactly one token (used by `##`); `None` if it is not one token.
pub(crate) fn single_token(s: &str, pos: Pos) -> Option<Token> {
    let toks = tokenize(s, pos.file).ok()?;
    // One token, then the added Newline, then Eof; no leading whitespace.
    if toks.len() != 3 || toks[0].space || !matches!(toks[1].kind, Kind::Newline) {
        return None;
    }
    let mut t = toks.into_iter().next()?;
    if matches!(
        t.kind,
        Kind::Newline | Kind::Unterminated | Kind::HeaderName
    ) {
        return None;
    }
    t.pos = pos;
    t.bol = false;
    Some(t)
}
