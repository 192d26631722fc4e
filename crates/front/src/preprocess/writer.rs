//! The output text, built so that every line maps back to one source line.
//!
//! A token is written on the output line of its own source line: when the source
//! moves on to a later line of the same file the writer adds (blank) lines, and a
//! token is padded to its source column when the line has room, so an unexpanded
//! line comes out exactly where it was. Tokens from a macro expansion carry the
//! position of the macro name.

use super::lex::{Kind, Pos, Token};

#[derive(Debug, Default)]
pub(crate) struct Writer {
    pub text: String,
    /// (file id, line) per output line.
    pub origins: Vec<(u32, u32)>,
    open: bool,
    file: u32,
    line: u32,
    /// Characters on the current output line.
    col: u32,
    /// Last token written on the current line (to keep tokens apart that would
    /// otherwise lex as one).
    last: Option<(Kind, char)>,
    /// Where the last token written ended in the source, if it was written
    /// verbatim (tokens adjacent in the source may stay adjacent).
    last_end: Option<Pos>,
}

impl Writer {
    fn start_line(&mut self, file: u32, line: u32) {
        if self.open {
            self.text.push('\n');
        }
        self.open = true;
        self.origins.push((file, line));
        self.file = file;
        self.line = line;
        self.col = 0;
        self.last = None;
        self.last_end = None;
    }

    /// Moves to the output line for source line `line` of `file` (adding blank
    /// lines for skipped source lines of the same file).
    pub fn sync(&mut self, file: u32, line: u32) {
        if !self.open || self.file != file || line < self.line {
            self.start_line(file, line);
        } else {
            while self.line < line {
                let next = self.line + 1;
                self.start_line(file, next);
            }
        }
    }

    /// Starts a fresh output line for (`file`, `line`) unless the current line is
    /// that one and still empty.
    pub fn fresh_line(&mut self, file: u32, line: u32) {
        self.sync(file, line);
        if self.col > 0 {
            self.start_line(file, line);
        }
    }

    /// Writes `t`; with `on_line`, forces it onto the current output line, which
    /// stands for source line `on_line` (used for pragma lines with continuations).
    pub fn emit(&mut self, t: &Token, on_line: Option<u32>) {
        let Pos { file, line, col } = t.pos;
        let line = match on_line {
            Some(l) => {
                if !self.open {
                    self.start_line(file, l);
                }
                if line == l && file == self.file {
                    l
                } else {
                    // Continuation line: never pad, just keep tokens apart.
                    self.write_text(t, u32::MAX);
                    return;
                }
            }
            None => {
                self.sync(file, line);
                line
            }
        };
        debug_assert_eq!(line, self.line);
        self.write_text(t, col);
    }

    fn write_text(&mut self, t: &Token, col: u32) {
        let target = col.saturating_sub(1);
        if col != u32::MAX && self.col < target {
            let pad = (target - self.col) as usize;
            for _ in 0..pad {
                self.text.push(' ');
            }
            self.col = target;
        } else if self.col > 0
            && (t.space || (!self.adjacent_in_source(t) && needs_separator(self.last, t)))
        {
            self.text.push(' ');
            self.col += 1;
        }
        self.text.push_str(&t.text);
        self.col += t.text.chars().count() as u32;
        self.last = t.text.chars().last().map(|c| (t.kind, c));
        self.last_end = (!t.expanded).then(|| Pos {
            col: t.pos.col + t.text.chars().count() as u32,
            ..t.pos
        });
    }

    fn adjacent_in_source(&self, t: &Token) -> bool {
        !t.expanded && self.last_end == Some(t.pos)
    }

    /// Closes the text: every line ends with a newline.
    pub fn finish(mut self) -> (String, Vec<(u32, u32)>) {
        if self.open {
            self.text.push('\n');
        }
        (self.text, self.origins)
    }
}

/// Whether writing `t` right after the previous token would change how the
/// text lexes (e.g. `-` then `-x` from a macro must not become `--x`).
pub(crate) fn needs_separator(last: Option<(Kind, char)>, t: &Token) -> bool {
    let Some((kind, prev)) = last else {
        return false;
    };
    let Some(next) = t.text.chars().next() else {
        return false;
    };
    let word = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    match kind {
        Kind::Ident | Kind::Number => {
            word(next)
                || next == '.'
                || (kind == Kind::Ident && (next == '"' || next == '\''))
                || (kind == Kind::Number && matches!(next, '+' | '-'))
        }
        Kind::Punct | Kind::Other => {
            if prev == '.' && next.is_ascii_digit() {
                return true;
            }
            if t.kind != Kind::Punct && t.kind != Kind::Other {
                return false;
            }
            let pair: String = [prev, next].iter().collect();
            matches!(
                pair.as_str(),
                "->" | "++"
                    | "--"
                    | "<<"
                    | ">>"
                    | "<="
                    | ">="
                    | "=="
                    | "!="
                    | "&&"
                    | "||"
                    | "*="
                    | "/="
                    | "%="
                    | "+="
                    | "-="
                    | "&="
                    | "^="
                    | "|="
                    | "##"
                    | ".."
                    | "//"
                    | "/*"
                    | "<:"
                    | ":>"
                    | "<%"
                    | "%>"
                    | "%:"
            )
        }
        _ => false,
    }
}
