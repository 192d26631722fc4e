//! Source spans: where a model element came from.

use std::fmt;
use std::sync::Arc;

/// A range of source text: file, start and end line and column (all 1-based,
/// end inclusive of the last character's column as tree-sitter reports it).
///
/// The file name is shared (`Arc<str>`) so cloning a span is cheap.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Span {
    /// The file as the user named it (or `<mpi.h>` etc. for built-in headers).
    pub file: Arc<str>,
    /// First line (1-based).
    pub start_line: u32,
    /// First column (1-based).
    pub start_column: u32,
    /// Last line (1-based).
    pub end_line: u32,
    /// Column just after the last character (1-based).
    pub end_column: u32,
}

impl Span {
    /// A span for elements that have no source (e.g. synthesized statements).
    pub fn synthetic() -> Span {
        Span {
            file: Arc::from("<tass>"),
            start_line: 0,
            start_column: 0,
            end_line: 0,
            end_column: 0,
        }
    }

    /// A span covering a single point.
    pub fn point(file: Arc<str>, line: u32, column: u32) -> Span {
        Span {
            file,
            start_line: line,
            start_column: column,
            end_line: line,
            end_column: column,
        }
    }
}

impl fmt::Display for Span {
    /// `file:line:column` of the start.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.start_line, self.start_column)
    }
}
