//! The C preprocessor, built in (no external `cpp`).
//!
//! [`preprocess`] turns a C source file into one text in which macros are
//! expanded, conditionals resolved and includes inlined, plus a map from every
//! output line back to its source file and line. TASS pragmas survive as
//! `#pragma TASS ...` lines (one line each, macros expanded after the keywords),
//! except `#pragma TASS input ...` followed by an object-like `#define NAME ...`:
//! that pair becomes an [`InputMacro`] and `NAME` stays an identifier everywhere.
//!
//! Layout: `lex` (phases 1-3: splices, comments, tokens), `macros` (definitions
//! and hide-set expansion), `expr` (`#if` arithmetic), `writer` (the output text
//! and its line map), `engine` (files, conditionals, directives).
//!
//! Columns: an output line holds the tokens of its source line at their source
//! columns whenever nothing before them on the line grew by expansion, so
//! `line_origins` plus the output column are usually the exact source position.
//! `#line` changes `__LINE__` / `__FILE__` only; `line_origins` stay physical.

mod engine;
mod expr;
mod lex;
mod macros;
#[cfg(test)]
mod tests;
mod writer;

use std::fmt;
use std::path::{Path, PathBuf};

/// The pseudo-folder in which the built-in headers appear in [`LineOrigin`]s:
/// `<stdio.h>` from `builtin_header` has the file `<builtin>/stdio.h`.
pub(crate) const BUILTIN_DIR: &str = "<builtin>";

/// The pseudo-file of errors in `defines` (`-D` options).
pub(crate) const COMMAND_LINE: &str = "<command line>";

/// Includes nested deeper than this are an error (a file including itself).
pub(crate) const MAX_INCLUDE_DEPTH: usize = 200;

#[derive(Debug, Clone)]
pub(crate) struct PreprocessOptions {
    /// Folders searched for `#include "..."` (after the including file's folder)
    /// and `#include <...>` (after the built-in headers), in order.
    pub include_dirs: Vec<PathBuf>,
    /// `-D NAME[=VALUE]`: `(NAME, None)` defines NAME as `1`. NAME may be `F(x)`.
    pub defines: Vec<(String, Option<String>)>,
    /// The text of a built-in header (`"mpi.h"` -> its source), if there is one.
    pub builtin_header: fn(&str) -> Option<&'static str>,
}

#[derive(Debug, Clone)]
pub(crate) struct Preprocessed {
    /// The preprocessed text; every line ends with `\n`.
    pub text: String,
    /// Exactly one per line of `text` (`text.lines()`).
    pub line_origins: Vec<LineOrigin>,
    /// `#pragma TASS input` + `#define NAME` pairs, in source order.
    pub input_macros: Vec<InputMacro>,
    /// Names (as written between `<>` or `""`) of the built-in headers included,
    /// each once, in order of first inclusion.
    pub included_builtin_headers: Vec<String>,
    /// `#warning`s, macro redefinitions, ignored `#define`s of TASS inputs.
    // Not shown to the user yet: the driver may print them (they are `Display`).
    #[allow(dead_code)]
    pub warnings: Vec<PreprocessWarning>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct LineOrigin {
    pub file: PathBuf,
    pub line: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct InputMacro {
    pub name: String,
    /// Everything after `#pragma TASS input`, trimmed, with macros expanded (other
    /// input names are left alone), e.g. `{0 < N && N <= 10} int`.
    pub pragma_text: String,
    /// Where the pragma is.
    pub file: PathBuf,
    pub line: u32,
}

/// How serious a message of the preprocessor is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Severity {
    Error,
    Warning,
}

/// A message of the preprocessor at a position of a source file: an error
/// (which ends preprocessing) or a warning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct PreprocessMessage {
    pub severity: Severity,
    pub file: PathBuf,
    pub line: u32,
    pub column: u32,
    pub message: String,
}

/// The error that ends preprocessing.
pub(crate) type PreprocessError = PreprocessMessage;
/// A warning of the preprocessor.
pub(crate) type PreprocessWarning = PreprocessMessage;

impl fmt::Display for PreprocessMessage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let severity = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(
            f,
            "{}:{}:{}: {severity}: {}",
            self.file.display(),
            self.line,
            self.column,
            self.message
        )
    }
}

impl std::error::Error for PreprocessMessage {}

/// Preprocesses `source`, the text of `main_file` (which is not read from disk;
/// its folder is where `#include "..."` looks first).
pub(crate) fn preprocess(
    main_file: &Path,
    source: &str,
    opts: &PreprocessOptions,
) -> Result<Preprocessed, PreprocessError> {
    engine::run(main_file, source, opts)
}
