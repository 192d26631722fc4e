//! Diagnostics: `file:line:column: error: message`, the source line and a caret.

use std::collections::HashMap;
use std::fmt;
use std::path::{Path, PathBuf};

use tass_model::api::{source_snippet, SnippetColour};

use crate::headers::builtin_header;

/// One error in the input program.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file as named on the command line or in `#include`
    /// (`<builtin>/mpi.h` for built-in headers).
    pub file: PathBuf,
    /// 1-based line.
    pub line: u32,
    /// 1-based column.
    pub column: u32,
    /// What is wrong (and, where it helps, what to do).
    pub message: String,
    /// The source line, if it could be read.
    pub source_line: Option<String>,
}

impl Diagnostic {
    /// The first line of the display: `file:line:column: error: message`.
    pub fn headline(&self) -> String {
        format!(
            "{}:{}:{}: error: {}",
            self.file.display(),
            self.line,
            self.column,
            self.message
        )
    }
}

impl fmt::Display for Diagnostic {
    /// `file:line:column: error: message`, then the source line and a caret
    /// under the column (the shared renderer of `tass_model::api::source_snippet`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.headline())?;
        if let Some(src) = &self.source_line {
            let snippet = source_snippet(src, self.line, self.column, SnippetColour::Plain);
            write!(f, "\n{snippet}")?;
        }
        Ok(())
    }
}

/// All errors found (the front end stops after the first failing phase;
/// syntax errors are all reported, up to a limit).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostics(pub Vec<Diagnostic>);

impl Diagnostics {
    /// The first diagnostic.
    pub fn first(&self) -> Option<&Diagnostic> {
        self.0.first()
    }
}

impl fmt::Display for Diagnostics {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, d) in self.0.iter().enumerate() {
            if i > 0 {
                writeln!(f)?;
            }
            write!(f, "{d}")?;
        }
        Ok(())
    }
}

impl std::error::Error for Diagnostics {}

/// Source texts by file, to show the offending line.
#[derive(Default)]
pub(crate) struct Sources {
    texts: HashMap<PathBuf, Option<String>>,
}

impl Sources {
    pub(crate) fn add(&mut self, file: &Path, text: &str) {
        self.texts
            .insert(file.to_path_buf(), Some(text.to_string()));
    }

    pub(crate) fn line(&mut self, file: &Path, line: u32) -> Option<String> {
        let text = self.texts.entry(file.to_path_buf()).or_insert_with(|| {
            let s = file.to_string_lossy();
            if let Some(name) = s.strip_prefix("<builtin>/") {
                builtin_header(name).map(str::to_string)
            } else {
                std::fs::read_to_string(file).ok()
            }
        });
        let text = text.as_ref()?;
        text.lines()
            .nth((line.max(1) - 1) as usize)
            .map(|l| l.trim_end().to_string())
    }

    pub(crate) fn diagnostic(
        &mut self,
        file: &Path,
        line: u32,
        column: u32,
        message: String,
    ) -> Diagnostic {
        Diagnostic {
            file: file.to_path_buf(),
            line,
            column,
            source_line: self.line(file, line),
            message,
        }
    }
}
