//! The errors `tass-verify` gives its callers. Each `Display` is the message a
//! user reads, without the leading `error: ` the caller prints before it (the
//! report of a run that could not start carries the whole line).

use std::fmt;

use tass_prove::api::SolverError;
use tass_state::api::EngineError;

/// Why a `verify` or `compare` run could not start. The entry points turn it
/// into a report with verdict `error` (exit status 2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum SetupError {
    /// The chosen prover is missing or does not answer.
    Prover(SolverError),
    /// A `-i NAME=VALUE` value tass cannot read.
    Input(InputError),
    /// The engine refused the model or the configuration.
    Engine(EngineError),
    /// `compare`: the two programs' inputs or outputs differ.
    Signatures(SignatureMismatch),
}

impl SetupError {
    /// The error of the step that failed (each variant wraps one): its
    /// message is this error's message.
    fn cause(&self) -> &(dyn std::error::Error + 'static) {
        match self {
            SetupError::Prover(e) => e,
            SetupError::Input(e) => e,
            SetupError::Engine(e) => e,
            SetupError::Signatures(e) => e,
        }
    }
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.cause())
    }
}

impl std::error::Error for SetupError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(self.cause())
    }
}

/// A `-i NAME=VALUE` value that is not a number tass can read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct InputError {
    /// The input's name.
    pub(crate) name: String,
    /// The value as the user wrote it.
    pub(crate) text: String,
    /// What is wrong with it.
    pub(crate) kind: InputErrorKind,
}

/// What is wrong with a `-i` value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum InputErrorKind {
    /// A fraction whose numerator or denominator is not an integer, or whose
    /// denominator is 0.
    NotANumber,
    /// Not a number, fraction or truth value; the reason is the value parser's.
    Unreadable(String),
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let InputError { name, text, kind } = self;
        match kind {
            InputErrorKind::NotANumber => write!(
                f,
                "-i {name}={text}: `{text}` is not a number (expected e.g. 10, -3, 2.5, 1/3)"
            ),
            InputErrorKind::Unreadable(reason) => write!(f, "-i {name}: {reason}"),
        }
    }
}

impl std::error::Error for InputError {}

/// The inputs and outputs of a specification and an implementation do not match
/// (name and type); `tass compare` cannot pair them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignatureMismatch {
    /// One line per mismatch, e.g. "input `N` is integer in the specification but
    /// real in the implementation".
    pub problems: Vec<String>,
}

impl fmt::Display for SignatureMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the programs' signatures differ:\n  {}\nnote: tass compare matches \
             inputs and outputs by name and type; declare the same `#pragma TASS input` \
             and `#pragma TASS output` variables in both programs",
            self.problems.join("\n  ")
        )
    }
}

impl std::error::Error for SignatureMismatch {}

/// A command-line word that names none of an option's choices
/// (`--deadlock sometimes`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownChoice {
    /// What the option chooses, e.g. "deadlock mode".
    pub what: &'static str,
    /// The word given.
    pub found: String,
    /// The words accepted, e.g. `["potential", "absolute", "none"]`.
    pub expected: Vec<&'static str>,
}

impl fmt::Display for UnknownChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let UnknownChoice {
            what,
            found,
            expected,
        } = self;
        // "a, b or c"
        let listed = match expected.split_last() {
            Some((last, [])) => last.to_string(),
            Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
            None => String::new(),
        };
        write!(f, "unknown {what} `{found}`: expected {listed}")
    }
}

impl std::error::Error for UnknownChoice {}
