//! Why a command could not run. Each `Display` is the message without the
//! leading `error: `; [`RunError::report_text`] gives the line the user reads.

use std::fmt;
use std::path::PathBuf;

use tass_front::api::Diagnostics;
use tass_verify::api::SignatureMismatch;

/// Why `verify` or `compare` stopped before the search (exit status 2).
#[derive(Debug)]
pub(crate) enum RunError {
    /// A command-line value tass cannot use.
    Argument(ArgumentError),
    /// The front end refused a program (each diagnostic carries its position).
    Front(Diagnostics),
    /// `compare`: the programs' inputs or outputs differ.
    Signatures(SignatureMismatch),
    /// A program file could not be read.
    Unreadable {
        path: PathBuf,
        source: std::io::Error,
    },
    /// A C++ file (by its extension) or C++ syntax (the front end failed and a
    /// line, `line` counted from 1, looks like C++).
    CPlusPlus {
        path: PathBuf,
        line: Option<usize>,
        construct: String,
    },
    /// `--trace FILE` cannot be written (found before the search).
    Trace(TraceWriteError),
}

impl RunError {
    /// What is printed (and put in the JSON report): the front end's diagnostics
    /// as they are (`file:line:column: error: ...`), anything else after `error: `.
    pub(crate) fn report_text(&self) -> String {
        match self {
            RunError::Front(diagnostics) => diagnostics.to_string(),
            RunError::Unreadable { path, source } => {
                format!("{}: error: cannot read the file: {source}", path.display())
            }
            RunError::CPlusPlus { path, line, .. } => {
                let at = line.map(|l| format!(":{l}:1")).unwrap_or_default();
                format!("{}{at}: error: {self}", path.display())
            }
            other => format!("error: {other}"),
        }
    }
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Argument(e) => write!(f, "{e}"),
            RunError::Front(e) => write!(f, "{e}"),
            RunError::Signatures(e) => write!(f, "{e}"),
            RunError::Unreadable { path, source } => {
                write!(f, "cannot read {}: {source}", path.display())
            }
            RunError::CPlusPlus { construct, .. } => write!(
                f,
                "C++ is not supported ({construct}): tass verifies C and C/MPI programs"
            ),
            RunError::Trace(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for RunError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RunError::Argument(e) => Some(e),
            RunError::Front(e) => Some(e),
            RunError::Signatures(e) => Some(e),
            RunError::Unreadable { source, .. } => Some(source),
            RunError::CPlusPlus { .. } => None,
            RunError::Trace(e) => Some(e),
        }
    }
}

impl From<ArgumentError> for RunError {
    fn from(e: ArgumentError) -> RunError {
        RunError::Argument(e)
    }
}

impl From<Diagnostics> for RunError {
    fn from(e: Diagnostics) -> RunError {
        RunError::Front(e)
    }
}

impl From<SignatureMismatch> for RunError {
    fn from(e: SignatureMismatch) -> RunError {
        RunError::Signatures(e)
    }
}

/// A command-line value that parses but cannot be used.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum ArgumentError {
    /// `-i BINDING` without `=`.
    InputNotNameValue { binding: String },
    /// `-i =3` or `-i N=`.
    InputMissingPart { binding: String },
    /// The same input fixed twice (`-i B=1 -i B=4`).
    InputTwice {
        name: String,
        first: String,
        second: String,
    },
    /// `--timeout` not a positive number of seconds.
    Timeout(f64),
    /// `--max-memory 0`.
    MemoryLimitZero,
    /// `--max-memory` on a system without `/proc/self/status`.
    MemoryUnmeasurable,
    /// `-n 0` and the like (`option` is the option's name).
    NoProcesses { option: &'static str },
    /// `compare` given both `--spec`/`--impl` and positional files (`extra`).
    ProgramsTwice { extra: Vec<PathBuf> },
    /// `compare --impl` without `--spec`.
    ImplWithoutSpec,
    /// `compare --spec` without `--impl`.
    SpecWithoutImpl,
    /// `compare` given this many positional files instead of two.
    ProgramCount(usize),
    /// `--shard` not `K/N` with `0 <= K < N`.
    Shard(String),
    /// `--jobs 0`.
    JobsZero,
    /// `--max-lag 0`.
    MaxLagZero,
}

impl fmt::Display for ArgumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ArgumentError::InputNotNameValue { binding } => write!(
                f,
                "`--input {binding}` is not of the form NAME=VALUE (e.g. -i N=10)"
            ),
            ArgumentError::InputMissingPart { binding } => write!(
                f,
                "`--input {binding}` needs a name and a value (e.g. -i N=10)"
            ),
            ArgumentError::InputTwice {
                name,
                first,
                second,
            } => write!(
                f,
                "input `{name}` is fixed twice (`-i {name}={first}` and `-i {name}={second}`): \
                 give it one value"
            ),
            ArgumentError::Timeout(t) => {
                write!(f, "--timeout {t}: give a positive number of seconds")
            }
            ArgumentError::MemoryLimitZero => {
                write!(f, "--max-memory 0: give a positive number of megabytes")
            }
            ArgumentError::MemoryUnmeasurable => write!(
                f,
                "--max-memory needs the resident memory from /proc/self/status (Linux); \
                 leave it out on this system"
            ),
            ArgumentError::NoProcesses { option } => write!(f, "{option} must be at least 1"),
            ArgumentError::ProgramsTwice { extra } => write!(
                f,
                "give the programs either as --spec FILE... --impl FILE... or as \
                 SPEC.c IMPL.c, not both (extra: {})",
                show_paths(extra)
            ),
            ArgumentError::ImplWithoutSpec => write!(
                f,
                "--impl given without --spec: name the specification's \
                        files with --spec FILE..."
            ),
            ArgumentError::SpecWithoutImpl => write!(
                f,
                "--spec given without --impl: name the implementation's \
                        files with --impl FILE..."
            ),
            ArgumentError::ProgramCount(n) => write!(
                f,
                "tass compare needs two programs: `tass compare SPEC.c IMPL.c` or \
                 `tass compare --spec FILE... --impl FILE...` (got {n} file{})",
                if *n == 1 { "" } else { "s" }
            ),
            ArgumentError::Shard(text) => write!(
                f,
                "--shard {text}: give K/N, the part K (from 0) of N parts, \
                 with 0 <= K < N (e.g. --shard 0/8)"
            ),
            ArgumentError::JobsZero => write!(f, "--jobs must be at least 1"),
            ArgumentError::MaxLagZero => write!(
                f,
                "--max-lag must be at least 1 (the loop records one process may be ahead of \
                 another; default max(8, 2n + 4))"
            ),
        }
    }
}

impl std::error::Error for ArgumentError {}

/// `--trace FILE` could not be written.
#[derive(Debug)]
pub(crate) struct TraceWriteError {
    pub(crate) path: PathBuf,
    pub(crate) source: std::io::Error,
}

impl fmt::Display for TraceWriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "cannot write the trace to {}: {}",
            self.path.display(),
            self.source
        )
    }
}

impl std::error::Error for TraceWriteError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

fn show_paths(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}
