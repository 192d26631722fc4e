//! A small, strict reader for the S-expressions SMT solvers print.
//!
//! Solver output is untrusted: the reader never panics, bounds the amount of text it
//! buffers, and reports anything that is not a well-formed S-expression as an error.

use std::fmt;
use std::io::Read;

/// An S-expression as printed by a solver.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Sexp {
    /// A symbol, numeral, decimal or keyword (`|quoted|` symbols keep their bars).
    Atom(String),
    /// A string literal, without its quotes (`""` unescaped to `"`).
    Str(String),
    /// A parenthesized list.
    List(Vec<Sexp>),
}

impl Sexp {
    /// The atom's text, if this is an atom.
    pub fn atom(&self) -> Option<&str> {
        match self {
            Sexp::Atom(a) => Some(a),
            _ => None,
        }
    }
}

impl fmt::Display for Sexp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Sexp::Atom(a) => f.write_str(a),
            Sexp::Str(s) => write!(f, "\"{}\"", s.replace('"', "\"\"")),
            Sexp::List(items) => {
                f.write_str("(")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str(")")
            }
        }
    }
}

/// Why reading an S-expression failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SexpError {
    /// The input ended before a complete S-expression.
    Eof,
    /// The input is not a well-formed S-expression.
    Malformed(String),
    /// Reading failed (the solver's pipe broke).
    Io(String),
    /// The solver printed more than the reader is willing to buffer.
    TooLong,
}

impl fmt::Display for SexpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SexpError::Eof => f.write_str("the solver closed its output (it exited or crashed)"),
            SexpError::Malformed(m) => write!(f, "malformed solver output: {m}"),
            SexpError::Io(m) => write!(f, "reading the solver's output failed: {m}"),
            SexpError::TooLong => f.write_str("the solver printed an unreasonably long answer"),
        }
    }
}

/// The most text one answer may occupy (a model of a large query stays far below).
const MAX_ANSWER_BYTES: usize = 64 << 20;

/// Reads S-expressions one at a time from a byte stream, keeping unread bytes.
#[derive(Default)]
pub struct SexpReader {
    buf: Vec<u8>,
}

impl SexpReader {
    /// A reader with an empty buffer.
    pub fn new() -> Self {
        SexpReader { buf: Vec::new() }
    }

    /// Reads one raw line (without its newline); used for the wrapper's PID line.
    pub fn read_line(&mut self, input: &mut dyn Read) -> Result<String, SexpError> {
        loop {
            if let Some(pos) = self.buf.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.buf.drain(..=pos).collect();
                return Ok(String::from_utf8_lossy(&line[..line.len() - 1]).into_owned());
            }
            self.fill(input)?;
        }
    }

    /// Reads the next complete S-expression, blocking until one is available.
    pub fn read(&mut self, input: &mut dyn Read) -> Result<Sexp, SexpError> {
        loop {
            match parse_prefix(&self.buf)? {
                Some((sexp, used)) => {
                    self.buf.drain(..used);
                    return Ok(sexp);
                }
                None => self.fill(input)?,
            }
        }
    }

    fn fill(&mut self, input: &mut dyn Read) -> Result<(), SexpError> {
        if self.buf.len() > MAX_ANSWER_BYTES {
            return Err(SexpError::TooLong);
        }
        let mut chunk = [0u8; 8192];
        loop {
            match input.read(&mut chunk) {
                Ok(0) => return Err(SexpError::Eof),
                Ok(n) => {
                    self.buf.extend_from_slice(&chunk[..n]);
                    return Ok(());
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(SexpError::Io(e.to_string())),
            }
        }
    }
}

/// Parses all S-expressions of a text (tests).
#[cfg(test)]
pub fn parse_all(text: &str) -> Result<Vec<Sexp>, SexpError> {
    let mut out = Vec::new();
    let mut rest = text.as_bytes();
    loop {
        let skip = skip_blank(rest, 0);
        if skip == rest.len() {
            return Ok(out);
        }
        match parse_prefix(rest)? {
            Some((sexp, used)) => {
                out.push(sexp);
                rest = &rest[used..];
            }
            None => {
                // An incomplete expression, or an atom that runs to the end of the text.
                match parse_prefix(&[rest, b" "].concat())? {
                    Some((sexp, _)) => {
                        out.push(sexp);
                        return Ok(out);
                    }
                    None => return Err(SexpError::Eof),
                }
            }
        }
    }
}

fn skip_blank(b: &[u8], mut i: usize) -> usize {
    loop {
        while i < b.len() && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i < b.len() && b[i] == b';' {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else {
            return i;
        }
    }
}

fn is_atom_byte(c: u8) -> bool {
    !(c.is_ascii_whitespace() || c == b'(' || c == b')' || c == b'"' || c == b';' || c == b'|')
}

/// Parses one S-expression at the start of `b`; `Ok(None)` if more input is needed.
/// An atom is complete only once a delimiter follows it (the solver may still be writing).
fn parse_prefix(b: &[u8]) -> Result<Option<(Sexp, usize)>, SexpError> {
    let mut stack: Vec<Vec<Sexp>> = Vec::new();
    let mut i = skip_blank(b, 0);
    loop {
        if i >= b.len() {
            return Ok(None);
        }
        let item = match b[i] {
            b'(' => {
                stack.push(Vec::new());
                i += 1;
                i = skip_blank(b, i);
                continue;
            }
            b')' => {
                let Some(items) = stack.pop() else {
                    return Err(SexpError::Malformed("unbalanced `)`".into()));
                };
                i += 1;
                Sexp::List(items)
            }
            b'"' => {
                let mut s = Vec::new();
                let mut j = i + 1;
                loop {
                    if j >= b.len() {
                        return Ok(None);
                    }
                    if b[j] == b'"' {
                        if j + 1 >= b.len() {
                            return Ok(None);
                        }
                        if b[j + 1] == b'"' {
                            s.push(b'"');
                            j += 2;
                            continue;
                        }
                        break;
                    }
                    s.push(b[j]);
                    j += 1;
                }
                i = j + 1;
                Sexp::Str(String::from_utf8_lossy(&s).into_owned())
            }
            b'|' => {
                let Some(len) = b[i + 1..].iter().position(|&c| c == b'|') else {
                    return Ok(None);
                };
                let text = String::from_utf8_lossy(&b[i..i + len + 2]).into_owned();
                i += len + 2;
                Sexp::Atom(text)
            }
            _ => {
                let start = i;
                while i < b.len() && is_atom_byte(b[i]) {
                    i += 1;
                }
                if i >= b.len() {
                    return Ok(None);
                }
                if start == i {
                    return Err(SexpError::Malformed(format!(
                        "unexpected byte 0x{:02x}",
                        b[start]
                    )));
                }
                let text = std::str::from_utf8(&b[start..i])
                    .map_err(|_| SexpError::Malformed("invalid UTF-8".into()))?;
                Sexp::Atom(text.to_string())
            }
        };
        match stack.last_mut() {
            Some(top) => {
                top.push(item);
                i = skip_blank(b, i);
            }
            None => return Ok(Some((item, i))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(text: &str) -> Sexp {
        let all = parse_all(text).expect("parses");
        assert_eq!(all.len(), 1, "{all:?}");
        all.into_iter().next().expect("one")
    }

    #[test]
    fn atoms_lists_strings() {
        assert_eq!(one("sat"), Sexp::Atom("sat".into()));
        assert_eq!(
            one("((x (- 3)) (|a b| 1.5))").to_string(),
            "((x (- 3)) (|a b| 1.5))"
        );
        assert_eq!(
            one("(error \"say \"\"hi\"\"\")").to_string(),
            "(error \"say \"\"hi\"\"\")"
        );
        assert_eq!(one("; comment\n  unsat ; more").atom(), Some("unsat"));
    }

    #[test]
    fn incomplete_input_waits() {
        assert_eq!(parse_prefix(b"(a (b c)"), Ok(None));
        assert_eq!(parse_prefix(b"unsa"), Ok(None));
        assert_eq!(parse_prefix(b"\"open"), Ok(None));
        assert!(matches!(parse_prefix(b"unsat\n"), Ok(Some((Sexp::Atom(a), 5))) if a == "unsat"));
    }

    #[test]
    fn malformed_input_is_an_error() {
        assert!(matches!(parse_prefix(b") x"), Err(SexpError::Malformed(_))));
        assert!(matches!(
            parse_prefix(b"\xff\xfe garbage\n"),
            Err(SexpError::Malformed(_))
        ));
    }

    #[test]
    fn reader_reads_one_at_a_time() {
        let mut input: &[u8] = b"4242\nsat\n((x 1))\n";
        let mut r = SexpReader::new();
        assert_eq!(r.read_line(&mut input).expect("line"), "4242");
        assert_eq!(r.read(&mut input).expect("sat").atom(), Some("sat"));
        assert_eq!(r.read(&mut input).expect("model").to_string(), "((x 1))");
        assert_eq!(r.read(&mut input), Err(SexpError::Eof));
    }
}
