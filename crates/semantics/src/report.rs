//! What a step can report: violations (with certainty) and engine errors.

use std::fmt;

use tass_model::api::Span;

/// A property tass checks: DESIGN.md's list of IDs, the one list every crate
/// uses. [`Property::id`] gives the stable identifier used in reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Property {
    /// `assertion`: a C `assert` or `#pragma TASS assert` can fail.
    Assertion,
    /// `out-of-bounds`: an array index or pointer offset outside its object.
    OutOfBounds,
    /// `invalid-pointer`: dereference of a null, dangling, freed, uninitialised or
    /// out-of-object pointer, a bad `free`, an invalid MPI handle, and (by choice,
    /// since the ID list is fixed) the read of an uninitialised variable.
    InvalidPointer,
    /// `division-by-zero`: `/` or `%` by zero.
    DivisionByZero,
    /// `memory-leak`: heap objects not freed at termination, MPI requests never
    /// completed or freed.
    MemoryLeak,
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
    /// `not-equivalent` (compare): an output of the implementation can differ.
    NotEquivalent,
    /// `collective-assertion`
    CollectiveAssertion,
    /// `invariant`
    Invariant,
    /// `signed-overflow` (only with `--signed-overflow`): a signed integer
    /// operation whose result lies outside its type (undefined behaviour in C).
    SignedOverflow,
    /// `shift-count`: a shift whose count is negative or at least the width of
    /// the (promoted) left operand (undefined behaviour in C, for every type).
    ShiftCount,
    /// `overlapping-copy`: `memcpy`, `strcpy` or `strncpy` whose source and
    /// destination share bytes (undefined behaviour in C; `memmove` may overlap).
    OverlappingCopy,
    /// `mpi-tag`: a message tag outside `0..=MPI_TAG_UB` (other than
    /// `MPI_ANY_TAG` on a receive or probe).
    MpiTag,
    /// `assumption-vacuous` (a warning, not a violation): an assumption or input
    /// constraint makes the path condition unsatisfiable.
    AssumptionVacuous,
    /// `unsupported`: a construct tass cannot model.
    Unsupported,
    /// `resource-leak`: an MPI object the program made (communicator, group,
    /// user operator, datatype, window, persistent request, ...) not freed when
    /// the process terminates.
    ResourceLeak,
    /// `local-concurrency`: a local access conflicting with a pending MPI
    /// operation (nonblocking or one-sided) on the same memory, or the buffers
    /// of one call overlapping.
    LocalConcurrency,
    /// `epoch`: an RMA call outside an access epoch, or an epoch never closed.
    Epoch,
    /// `rma-race`: conflicting RMA accesses to the same window memory in one
    /// epoch from different processes.
    RmaRace,
    /// `ltl`: a run violates a `#pragma TASS ltl` formula (a lasso: a stem
    /// and a cycle repeated forever).
    Ltl,
}

impl Property {
    /// Every property, in DESIGN.md's order.
    pub const ALL: [Property; 27] = [
        Property::Assertion,
        Property::OutOfBounds,
        Property::InvalidPointer,
        Property::DivisionByZero,
        Property::MemoryLeak,
        Property::MpiInitFinalize,
        Property::Deadlock,
        Property::MpiCount,
        Property::MpiRank,
        Property::MpiType,
        Property::UnreceivedMessage,
        Property::BufferOverflow,
        Property::CollectiveMismatch,
        Property::NotEquivalent,
        Property::CollectiveAssertion,
        Property::Invariant,
        Property::SignedOverflow,
        Property::ShiftCount,
        Property::OverlappingCopy,
        Property::MpiTag,
        Property::AssumptionVacuous,
        Property::Unsupported,
        Property::ResourceLeak,
        Property::LocalConcurrency,
        Property::Epoch,
        Property::RmaRace,
        Property::Ltl,
    ];

    /// The identifier used in reports (DESIGN.md's list).
    pub fn id(self) -> &'static str {
        match self {
            Property::Assertion => "assertion",
            Property::OutOfBounds => "out-of-bounds",
            Property::InvalidPointer => "invalid-pointer",
            Property::DivisionByZero => "division-by-zero",
            Property::MemoryLeak => "memory-leak",
            Property::MpiInitFinalize => "mpi-init-finalize",
            Property::Deadlock => "deadlock",
            Property::MpiCount => "mpi-count",
            Property::MpiRank => "mpi-rank",
            Property::MpiType => "mpi-type",
            Property::UnreceivedMessage => "unreceived-message",
            Property::BufferOverflow => "buffer-overflow",
            Property::CollectiveMismatch => "collective-mismatch",
            Property::NotEquivalent => "not-equivalent",
            Property::CollectiveAssertion => "collective-assertion",
            Property::Invariant => "invariant",
            Property::SignedOverflow => "signed-overflow",
            Property::ShiftCount => "shift-count",
            Property::OverlappingCopy => "overlapping-copy",
            Property::MpiTag => "mpi-tag",
            Property::AssumptionVacuous => "assumption-vacuous",
            Property::Unsupported => "unsupported",
            Property::ResourceLeak => "resource-leak",
            Property::LocalConcurrency => "local-concurrency",
            Property::Epoch => "epoch",
            Property::RmaRace => "rma-race",
            Property::Ltl => "ltl",
        }
    }

    /// The property with this ID.
    pub fn from_id(id: &str) -> Option<Property> {
        Property::ALL.into_iter().find(|p| p.id() == id)
    }

    /// A one-line description (SARIF rule text, `--help`).
    pub fn description(self) -> &'static str {
        match self {
            Property::Assertion => "an assertion can fail",
            Property::OutOfBounds => "an array index or pointer offset can be out of bounds",
            Property::InvalidPointer => {
                "a pointer can be null, dangling, freed, out of its object or uninitialised"
            }
            Property::DivisionByZero => "a divisor (of / or %) can be zero",
            Property::MemoryLeak => "heap memory or an MPI request can be left unfreed",
            Property::MpiInitFinalize => "MPI can be used outside MPI_Init..MPI_Finalize",
            Property::Deadlock => "the processes can deadlock",
            Property::MpiCount => "an MPI count can be negative or invalid",
            Property::MpiRank => "an MPI rank can be invalid",
            Property::MpiType => "MPI datatypes can mismatch",
            Property::UnreceivedMessage => "a message can remain unreceived at termination",
            Property::BufferOverflow => {
                "a message can be longer than the receive buffer (or the room left in the buffer attached for MPI_Bsend)"
            }
            Property::CollectiveMismatch => "collective operations can mismatch",
            Property::NotEquivalent => "the implementation can compute different outputs",
            Property::CollectiveAssertion => "a collective assertion can fail",
            Property::Invariant => "a loop invariant can fail",
            Property::SignedOverflow => "a signed integer operation can overflow its type",
            Property::ShiftCount => "a shift count can be negative or not less than the width",
            Property::OverlappingCopy => {
                "the source and destination of a memcpy, strcpy or strncpy can overlap"
            }
            Property::MpiTag => "an MPI tag can be invalid",
            Property::AssumptionVacuous => "an assumption makes every path vacuous",
            Property::Unsupported => "an unsupported construct was met",
            Property::ResourceLeak => "an MPI object can be left unfreed",
            Property::LocalConcurrency => {
                "a local access can conflict with a pending MPI operation on the same memory"
            }
            Property::Epoch => "an RMA call can be made outside an epoch, or an epoch left open",
            Property::RmaRace => "RMA accesses to the same window memory can conflict in one epoch",
            Property::Ltl => "a run can violate a temporal (ltl) formula",
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
    /// For a collective or joint assertion: which occurrence failed and where
    /// each process's snapshot was taken (the report's structured fields;
    /// the message names the assertion but leaves the positions to these).
    pub snapshots: Option<Box<SnapshotReport>>,
}

/// The snapshots a collective (or joint) assertion violation is about.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnapshotReport {
    /// The assertion ID (for an arrival out of order: the arriving process's).
    pub assertion: String,
    /// The occurrence number: the k-th arrival of every process.
    pub occurrence: u64,
    /// One snapshot per process of that occurrence, in rank order (for
    /// snapshots left unmatched at termination: the snapshots left, of the
    /// process that has them).
    pub processes: Vec<SnapshotPosition>,
    /// A joint assertion's specification snapshot (its step counts the
    /// specification's own path).
    pub specification: Option<SnapshotPosition>,
    /// A joint assertion checked during the implementation's search: which
    /// of the specification's paths (their index in the list the engine was
    /// given) it was checked against, so that the report's path condition is
    /// both programs' and not the implementation's alone.
    pub specification_path: Option<usize>,
}

/// Where one snapshot was taken.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SnapshotPosition {
    /// The process that took it.
    pub process: usize,
    /// The ID of the assertion it was taken at.
    pub assertion: String,
    /// The file and line of that assertion (the file is empty for a joint
    /// assertion's specification snapshot, which is in the specification).
    pub file: String,
    pub line: u32,
    /// The step of the path that took it (1 is the first step; the engine
    /// counts every step, the report renumbers them as its trace shows them).
    pub step: u64,
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
