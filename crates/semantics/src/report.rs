//! What a step can report: violations (with certainty) and engine errors.

use std::fmt;

use tass_model::api::Span;

/// A property tass checks. [`Property::id`] gives the stable identifier of
/// DESIGN.md used in reports (`--format json`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Property {
    /// `assertion`: a C `assert` or `#pragma TASS assert` can fail.
    Assertion,
    /// `out-of-bounds`: an array index or pointer offset outside its object.
    OutOfBounds,
    /// `invalid-pointer`: dereference of a null, dangling, freed, uninitialised or
    /// out-of-object pointer, a bad `free`, and (by choice, since the ID list is
    /// fixed) the read of an uninitialised variable.
    InvalidPointer,
    /// `division-by-zero`: `/` or `%` by zero.
    DivisionByZero,
    /// `memory-leak`: heap objects not freed at termination.
    MemoryLeak,
    /// `assumption-vacuous` (a warning, not a violation): an assumption or input
    /// constraint makes the path condition unsatisfiable.
    AssumptionVacuous,
    /// `mpi-init-finalize`
    MpiInitFinalize,
    /// `deadlock`
    Deadlock,
    /// `mpi-count`
    MpiCount,
    /// `mpi-rank`
    MpiRank,
    /// `mpi-type`
    MpiType,
    /// `unreceived-message`
    UnreceivedMessage,
    /// `buffer-overflow`
    BufferOverflow,
    /// `collective-mismatch`
    CollectiveMismatch,
    /// `collective-assertion`
    CollectiveAssertion,
    /// `invariant`
    Invariant,
}

impl Property {
    /// The identifier used in reports (DESIGN.md's list).
    pub fn id(self) -> &'static str {
        match self {
            Property::Assertion => "assertion",
            Property::OutOfBounds => "out-of-bounds",
            Property::InvalidPointer => "invalid-pointer",
            Property::DivisionByZero => "division-by-zero",
            Property::MemoryLeak => "memory-leak",
            Property::AssumptionVacuous => "assumption-vacuous",
            Property::MpiInitFinalize => "mpi-init-finalize",
            Property::Deadlock => "deadlock",
            Property::MpiCount => "mpi-count",
            Property::MpiRank => "mpi-rank",
            Property::MpiType => "mpi-type",
            Property::UnreceivedMessage => "unreceived-message",
            Property::BufferOverflow => "buffer-overflow",
            Property::CollectiveMismatch => "collective-mismatch",
            Property::CollectiveAssertion => "collective-assertion",
            Property::Invariant => "invariant",
        }
    }

    /// True for properties reported as warnings only (`assumption-vacuous`).
    pub fn is_warning(self) -> bool {
        matches!(self, Property::AssumptionVacuous)
    }
}

impl fmt::Display for Property {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// How sure a violation is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Certainty {
    /// The prover showed the bad case is satisfiable under the path condition.
    Provable,
    /// The prover could not rule the bad case out.
    Possible,
}

impl Certainty {
    /// `provable` / `possible`.
    pub fn id(self) -> &'static str {
        match self {
            Certainty::Provable => "provable",
            Certainty::Possible => "possible",
        }
    }
}

/// A property violation found while executing a step (or at termination).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// Which property.
    pub property: Property,
    /// Provable or possible.
    pub certainty: Certainty,
    /// What went wrong, in words, naming the source construct.
    pub message: String,
    /// Where.
    pub span: Span,
    /// The process (rank) that executed the step.
    pub process: usize,
    /// Values of symbolic constants (inputs) that drive the program into the
    /// violation, from the prover's model, when it gave one.
    pub witness: Option<Vec<(String, String)>>,
    /// The claim that can fail, pretty-printed (e.g. `0 <= i && i < N`).
    pub claim: String,
}

/// An error that stops the exploration: the model uses something the engine does
/// not support, or an internal inconsistency. Verify maps it to exit status 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EngineError {
    /// A construct the engine cannot execute (yet).
    Unsupported {
        /// What it is (e.g. `MPI_Send`, `symbolic index into an array of pointers`).
        construct: String,
        /// Where it is.
        span: Span,
    },
    /// The model or configuration is inconsistent (a bug or a bad `-i` option).
    Invalid {
        /// What is wrong.
        message: String,
        /// Where, if known.
        span: Option<Span>,
    },
}

impl EngineError {
    /// An [`EngineError::Unsupported`].
    pub fn unsupported(construct: impl Into<String>, span: &Span) -> EngineError {
        EngineError::Unsupported {
            construct: construct.into(),
            span: span.clone(),
        }
    }

    /// An [`EngineError::Invalid`] at `span`.
    pub fn invalid(message: impl Into<String>, span: Option<&Span>) -> EngineError {
        EngineError::Invalid {
            message: message.into(),
            span: span.cloned(),
        }
    }
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Unsupported { construct, span } => write!(
                f,
                "{span}: not supported by the tass engine: {construct}; \
                 rewrite this part of the program or leave it out of the verified model"
            ),
            EngineError::Invalid {
                message,
                span: Some(span),
            } => write!(f, "{span}: {message}"),
            EngineError::Invalid {
                message,
                span: None,
            } => f.write_str(message),
        }
    }
}

impl std::error::Error for EngineError {}
