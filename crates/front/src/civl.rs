//! The CIVL-C annotation subset, rewritten into tass's own annotations so code
//! annotated for CIVL runs unchanged.
//!
//! Runs on the preprocessed text, before parsing:
//! - `$input` / `$output` before a file-scope declaration become
//!   `#pragma TASS input` / `#pragma TASS output` lines;
//! - a file-scope `$assume(e);` joins the constraint of the last `$input`
//!   before it (the first `$input` when none is before it): a constraint may
//!   mention every input, but the bound of an input is best found in its own;
//! - `$assume(e);` in a body becomes `#pragma TASS assume e`;
//! - `$assert(e, ...);` becomes C's `assert(e)` (the message arguments are
//!   dropped), or `#pragma TASS assert e` when `e` has a quantifier;
//! - `$forall (T i | c) p` / `$forall (T i : lo .. hi) p` (and `$exists`)
//!   become `forall {T i | c} p` / `forall {T i | lo <= i && i <= hi} p`.
//!
//! Every other `$` word of CIVL-C (`$choose_int`, `$when`, `$spawn`, ...) is
//! refused by name. An inserted pragma gets a line of its own with the origin
//! of the line it came from; the rest of that line keeps its columns.

use crate::preprocess::{LineOrigin, PreprocessError, Preprocessed, Severity};

/// The CIVL-C words tass maps to its own annotations.
const SUPPORTED: &str = "$input, $output, $assume, $assert, $forall, $exists";

#[derive(Clone, Copy, PartialEq, Eq)]
enum TokKind {
    Word,
    Literal,
    Punct(u8),
}

#[derive(Clone, Copy)]
struct Tok {
    start: usize,
    end: usize,
    kind: TokKind,
}

/// Rewrites the CIVL-C annotations of `pre` in place (nothing to do when the
/// text has no `$`).
pub(crate) fn rewrite(pre: &mut Preprocessed) -> Result<(), PreprocessError> {
    if !pre.text.contains('$') {
        return Ok(());
    }
    let mut rw = Rewriter::new(&pre.text, &pre.line_origins);
    rw.walk()?;
    let (text, origins) = rw.finish();
    pre.text = text;
    pre.line_origins = origins;
    Ok(())
}

struct Rewriter<'a> {
    text: &'a str,
    origins: &'a [LineOrigin],
    line_starts: Vec<usize>,
    toks: Vec<Tok>,
    /// Byte ranges to blank (newlines kept).
    blanks: Vec<(usize, usize)>,
    /// `$assert` words to turn into `assert ` (same width).
    asserts: Vec<usize>,
    /// Pragma lines to insert before a byte offset: (offset, text after `TASS`).
    inserts: Vec<(usize, String)>,
    /// Index in `inserts` of the last `$input`'s pragma so far.
    last_input: Option<usize>,
    /// File-scope `$assume` expressions: (index in `inserts` of the `$input`
    /// they constrain, or `None` before the first `$input`; expression).
    global_assumes: Vec<(Option<usize>, String)>,
    first_global_assume: Option<usize>,
}

impl<'a> Rewriter<'a> {
    fn new(text: &'a str, origins: &'a [LineOrigin]) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Rewriter {
            text,
            origins,
            line_starts,
            toks: lex(text),
            blanks: Vec::new(),
            asserts: Vec::new(),
            inserts: Vec::new(),
            last_input: None,
            global_assumes: Vec::new(),
            first_global_assume: None,
        }
    }

    fn tok_text(&self, i: usize) -> &'a str {
        &self.text[self.toks[i].start..self.toks[i].end]
    }

    fn is_punct(&self, i: usize, c: u8) -> bool {
        self.toks
            .get(i)
            .is_some_and(|t| t.kind == TokKind::Punct(c))
    }

    fn error<T>(&self, offset: usize, message: impl Into<String>) -> Result<T, PreprocessError> {
        let row = self.line_starts.partition_point(|s| *s <= offset) - 1;
        let origin = self.origins.get(row).or(self.origins.last());
        Err(PreprocessError {
            severity: Severity::Error,
            file: origin.map(|o| o.file.clone()).unwrap_or_default(),
            line: origin.map_or(0, |o| o.line),
            column: (offset - self.line_starts[row]) as u32 + 1,
            message: message.into(),
        })
    }

    fn walk(&mut self) -> Result<(), PreprocessError> {
        let mut depth = 0i32;
        let mut i = 0;
        while i < self.toks.len() {
            let t = self.toks[i];
            match t.kind {
                TokKind::Punct(b'{') => depth += 1,
                TokKind::Punct(b'}') => depth -= 1,
                TokKind::Word if self.tok_text(i).starts_with('$') => {
                    i = self.annotation(i, depth)?;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        if let Some(at) = self.first_global_assume {
            let Some(first_input) = self.inserts.iter().position(|(_, p)| p == "input") else {
                return self.error(
                    at,
                    "a file-scope `$assume` constrains the inputs, but this file declares no `$input`",
                );
            };
            let mut constraints: Vec<Vec<String>> = vec![Vec::new(); self.inserts.len()];
            for (input, e) in &self.global_assumes {
                constraints[input.unwrap_or(first_input)].push(format!("({e})"));
            }
            for (k, parts) in constraints.iter().enumerate() {
                if !parts.is_empty() {
                    self.inserts[k].1 = format!("input {{{}}}", parts.join(" && "));
                }
            }
        }
        Ok(())
    }

    /// Handles the `$` word at token `i`; returns the index to continue at.
    fn annotation(&mut self, i: usize, depth: i32) -> Result<usize, PreprocessError> {
        let word = self.tok_text(i);
        let at = self.toks[i].start;
        match word {
            "$input" | "$output" => {
                if depth != 0 {
                    return self.error(
                        at,
                        format!("`{word}` is allowed only before a file-scope declaration"),
                    );
                }
                self.check_declaration(i, word)?;
                self.blanks.push((at, self.toks[i].end));
                if word == "$input" {
                    self.last_input = Some(self.inserts.len());
                }
                self.inserts.push((at, word[1..].to_string()));
                Ok(i + 1)
            }
            "$assume" | "$assert" => self.assume_or_assert(i, depth),
            "$forall" | "$exists" => self.error(
                at,
                format!("`{word}` is allowed only inside `$assert(...)` or `$assume(...)`"),
            ),
            _ => self.error(
                at,
                format!(
                    "CIVL-C `{word}` is not supported by tass (of CIVL-C, tass accepts {SUPPORTED}); \
                     rewrite this part in plain C"
                ),
            ),
        }
    }

    /// A `$input`/`$output` declaration: one variable, no initializer.
    fn check_declaration(&self, i: usize, word: &str) -> Result<(), PreprocessError> {
        let mut nesting = 0i32;
        for k in i + 1..self.toks.len() {
            match self.toks[k].kind {
                TokKind::Punct(b'(' | b'[' | b'{') => nesting += 1,
                TokKind::Punct(b')' | b']' | b'}') => nesting -= 1,
                TokKind::Punct(b';') if nesting == 0 => return Ok(()),
                TokKind::Punct(b'=') if nesting == 0 && word == "$input" => {
                    return self.error(
                        self.toks[k].start,
                        "a tass input takes every value its type and constraints allow: remove \
                         the initializer of this `$input` (fix a value with `-i NAME=VALUE`)",
                    )
                }
                TokKind::Punct(b',') if nesting == 0 => {
                    return self.error(
                        self.toks[k].start,
                        format!("declare one variable per `{word}` declaration"),
                    )
                }
                _ => {}
            }
        }
        self.error(
            self.toks[i].start,
            format!("`{word}` without a declaration"),
        )
    }

    /// `$assume(e);` or `$assert(e, ...);` at token `i`.
    fn assume_or_assert(&mut self, i: usize, depth: i32) -> Result<usize, PreprocessError> {
        let word = self.tok_text(i);
        let at = self.toks[i].start;
        if !self.is_punct(i + 1, b'(') {
            return self.error(at, format!("`{word}` must be called: `{word}(condition);`"));
        }
        let close = self.matching(i + 1)?;
        if !self.is_punct(close + 1, b';') {
            return self.error(
                self.toks[close].end,
                format!("`{word}(...)` must be a statement of its own, ended by `;`"),
            );
        }
        let arg_end = (i + 2..close)
            .find(|k| self.is_punct(*k, b',') && self.nesting_between(i + 2, *k) == 0)
            .unwrap_or(close);
        if arg_end == i + 2 {
            return self.error(at, format!("`{word}` needs a condition"));
        }
        let expr = self.convert(i + 2, arg_end)?;
        if depth == 0 {
            if word == "$assert" {
                return self.error(at, "`$assert` is allowed only in a function body");
            }
            self.first_global_assume.get_or_insert(at);
            self.global_assumes.push((self.last_input, expr));
            self.blanks.push((at, self.toks[close + 1].end));
            return Ok(close + 2);
        }
        let statement_start =
            i == 0 || matches!(self.toks[i - 1].kind, TokKind::Punct(b';' | b'{' | b'}'));
        if !statement_start {
            return self.error(
                at,
                format!(
                    "`{word}` here is not a statement of a block (e.g. the body of an `if` or a \
                     loop without braces): put it between `{{` and `}}`"
                ),
            );
        }
        let quantified =
            (i + 2..arg_end).any(|k| matches!(self.tok_text(k), "$forall" | "$exists"));
        if word == "$assert" && !quantified {
            self.asserts.push(at);
            self.blanks
                .push((self.toks[arg_end].start, self.toks[close].start));
        } else {
            self.inserts.push((at, format!("{} {expr}", &word[1..])));
            self.blanks.push((at, self.toks[close].end));
        }
        Ok(close + 1)
    }

    /// How many brackets open at `from` are still open before `to`.
    fn nesting_between(&self, from: usize, to: usize) -> i32 {
        (from..to)
            .map(|k| match self.toks[k].kind {
                TokKind::Punct(b'(' | b'[' | b'{') => 1,
                TokKind::Punct(b')' | b']' | b'}') => -1,
                _ => 0,
            })
            .sum()
    }

    /// The index of the `)` closing the `(` at `open`.
    fn matching(&self, open: usize) -> Result<usize, PreprocessError> {
        let mut nesting = 0i32;
        for k in open..self.toks.len() {
            match self.toks[k].kind {
                TokKind::Punct(b'(' | b'[' | b'{') => nesting += 1,
                TokKind::Punct(b')' | b']' | b'}') => {
                    nesting -= 1;
                    if nesting == 0 {
                        return Ok(k);
                    }
                }
                _ => {}
            }
        }
        self.error(self.toks[open].start, "this `(` is never closed")
    }

    /// The tokens `from..to` as one line of pragma expression, with CIVL's
    /// quantifiers in tass's syntax.
    fn convert(&self, from: usize, to: usize) -> Result<String, PreprocessError> {
        let mut out = String::new();
        let mut k = from;
        while k < to {
            if k > from && self.toks[k].start > self.toks[k - 1].end {
                out.push(' ');
            }
            let word = self.tok_text(k);
            if matches!(word, "$forall" | "$exists") {
                k = self.quantifier(k, to, &mut out)?;
                continue;
            }
            if word.starts_with('$') {
                return self.error(
                    self.toks[k].start,
                    format!("CIVL-C `{word}` is not supported by tass (of CIVL-C, tass accepts {SUPPORTED})"),
                );
            }
            out.push_str(word);
            k += 1;
        }
        Ok(out)
    }

    /// `$forall (BINDER [| COND | : LO .. HI])` at `k`; appends tass's form of
    /// the head to `out` and returns the index after the `)`.
    fn quantifier(&self, k: usize, to: usize, out: &mut String) -> Result<usize, PreprocessError> {
        let word = self.tok_text(k);
        let at = self.toks[k].start;
        if !self.is_punct(k + 1, b'(') {
            return self.error(
                at,
                format!("`{word}` must be followed by `(TYPE NAME | CONDITION)`"),
            );
        }
        let close = self.matching(k + 1)?;
        if close >= to {
            return self.error(at, format!("this `{word}` is not closed"));
        }
        let head = k + 2;
        let lone_bar = |j: usize| {
            self.is_punct(j, b'|')
                && !(self.is_punct(j + 1, b'|') && self.toks[j + 1].start == self.toks[j].end)
                && !(self.is_punct(j - 1, b'|') && self.toks[j - 1].end == self.toks[j].start)
        };
        let sep = (head..close).find(|j| {
            self.nesting_between(head, *j) == 0 && (lone_bar(*j) || self.is_punct(*j, b':'))
        });
        let binder_end = sep.unwrap_or(close);
        if binder_end < head + 2 {
            return self.error(
                at,
                format!("`{word}` needs a typed variable: `{word} (int i | ...)`"),
            );
        }
        let binder = &self.text[self.toks[head].start..self.toks[binder_end - 1].end];
        let var = self.tok_text(binder_end - 1);
        out.push_str(&word[1..]);
        out.push_str(" {");
        out.push_str(binder);
        match sep {
            Some(j) if self.is_punct(j, b':') => {
                let dots = (j + 1..close).find(|d| {
                    self.is_punct(*d, b'.')
                        && self.is_punct(d + 1, b'.')
                        && self.nesting_between(j + 1, *d) == 0
                });
                let Some(d) = dots else {
                    return self.error(
                        self.toks[j].start,
                        "a quantifier's domain must be a range `LO .. HI`",
                    );
                };
                let lo = self.convert(j + 1, d)?;
                let hi = self.convert(d + 2, close)?;
                out.push_str(&format!(" | ({lo}) <= {var} && {var} <= ({hi})"));
            }
            Some(j) => {
                out.push_str(" | ");
                out.push_str(&self.convert(j + 1, close)?);
            }
            None => {}
        }
        out.push('}');
        Ok(close + 1)
    }

    /// The new text and its line origins.
    fn finish(mut self) -> (String, Vec<LineOrigin>) {
        let mut bytes = self.text.as_bytes().to_vec();
        for (from, to) in &self.blanks {
            for b in &mut bytes[*from..*to] {
                if *b != b'\n' {
                    *b = b' ';
                }
            }
        }
        for at in &self.asserts {
            bytes[*at..*at + 7].copy_from_slice(b"assert ");
        }
        let body = String::from_utf8(bytes)
            .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
        self.inserts.sort_by_key(|(at, _)| *at);
        let mut text = String::with_capacity(body.len() + 64 * self.inserts.len());
        let mut origins = Vec::with_capacity(self.origins.len() + self.inserts.len());
        let mut inserts = self.inserts.iter().peekable();
        for (row, line) in body.split_inclusive('\n').enumerate() {
            let origin = &self.origins[row.min(self.origins.len() - 1)];
            let start = self.line_starts[row];
            let mut done = 0;
            while let Some((at, pragma)) = inserts.next_if(|(at, _)| *at < start + line.len()) {
                let col = at - start;
                text.push_str(&line[done..col]);
                text.push('\n');
                text.push_str(&format!("#pragma TASS {pragma}\n"));
                text.push_str(&" ".repeat(col));
                origins.push(origin.clone());
                origins.push(origin.clone());
                done = col;
            }
            text.push_str(&line[done..]);
            origins.push(origin.clone());
        }
        (text, origins)
    }
}

/// Words, literals and single punctuation bytes of `text`.
fn lex(text: &str) -> Vec<Tok> {
    let b = text.as_bytes();
    let word_start = |c: u8| c.is_ascii_alphabetic() || c == b'_' || c == b'$';
    let word_char = |c: u8| c.is_ascii_alphanumeric() || c == b'_' || c == b'$';
    let mut toks = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        let start = i;
        let kind = if c.is_ascii_whitespace() {
            i += 1;
            continue;
        } else if word_start(c) {
            while i < b.len() && word_char(b[i]) {
                i += 1;
            }
            TokKind::Word
        } else if c.is_ascii_digit() {
            // a number; `0..n` is `0`, `.`, `.`, `n`
            while i < b.len() && (word_char(b[i]) || (b[i] == b'.' && b.get(i + 1) != Some(&b'.')))
            {
                i += 1;
            }
            TokKind::Word
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c && b[i] != b'\n' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
            TokKind::Literal
        } else {
            // one byte (a non-ASCII character's bytes each stand alone)
            i += 1;
            while i < b.len() && !text.is_char_boundary(i) {
                i += 1;
            }
            TokKind::Punct(c)
        };
        toks.push(Tok {
            start,
            end: i,
            kind,
        });
    }
    toks
}
