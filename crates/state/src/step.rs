//! A step of one process (what the engine executes) and what executing it gives.

use tass_model::api::{FunctionId, Span, TransitionId};
use tass_semantics::api::{Change, Violation};
use tass_symbolic::api::Expr;

use crate::state::State;

/// One enabled transition of one process: what [`crate::api::Engine::execute`] takes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Step {
    /// The process (rank) taking the step.
    pub process: usize,
    /// The function whose body holds the transition.
    pub function: FunctionId,
    /// The transition (edge of the function's body).
    pub transition: TransitionId,
    /// The guard's value; conjoined to the path condition unless `guard_known_true`.
    pub guard: Expr,
    /// The guard follows from the path condition (no branching here).
    pub guard_known_true: bool,
    /// The step touches only its process's own state (no communication); for POR.
    pub local: bool,
    /// MPI: the sender a (wildcard) receive takes its message from.
    pub choice: Option<u32>,
    /// MPI: the step commutes with every step of the other processes and no
    /// other process can disable it (for partial-order reduction).
    pub commutes: bool,
    /// MPI: a standard send whose destination does not wait in a matching
    /// receive, or a wait (or the return of an `MPI_Sendrecv`) for a send
    /// whose message nobody has received yet: it completes only by
    /// buffering (POR must not prefer it when potential deadlocks are
    /// checked).
    pub buffered_send: bool,
    /// MPI: this step completes the pending receive request with this handle
    /// number of `process` (posted by `MPI_Irecv` at `transition`) with the
    /// first matching message from `choice`; it is not the process's next
    /// statement but progress MPI makes in the background.
    pub request: Option<u32>,
    /// MPI, for partial-order reduction (the same for every step of a
    /// process): no step of another process can enable a new step of this
    /// process where it is, nor disable one. Its pending `MPI_Irecv`s each
    /// have a fixed source and a message to take already (only this process
    /// takes it), and its next statement is enabled, or is a wait/test that
    /// only this process's own progress steps can complete (no pending
    /// nonblocking collective or `MPI_Issend` another process completes).
    /// While the process's next statement is enabled, a post (`MPI_Irecv`,
    /// or `MPI_Isend`/`MPI_Issend` from a buffer no pending receive writes)
    /// and a progress step into a buffer no other pending receive writes (no
    /// request of the process waiting for another process) are settled even
    /// while receives wait for their messages: they commute with those
    /// receives' progress (`mpi::post_commutes_with_receives`).
    pub settled: bool,
    /// MPI, for partial-order reduction under `--deadlock potential`: this
    /// standard send and the receive of process `d` that waits for it run as
    /// one *synchronous transition* (the paper's send–receive pair): the
    /// message goes straight into `d`'s receive. Set only by the reduction
    /// (`Engine::waiting_receiver` names `d`); the engine never enables it.
    pub delivered_to: Option<usize>,
}

/// Where a step comes from in the source, for traces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StepInfo {
    /// The statement's span.
    pub span: Span,
    /// The statement's source text (one line).
    pub source_text: String,
    /// The function's name.
    pub function: String,
}

/// The result of [`crate::api::Engine::execute`].
#[derive(Clone, Debug)]
pub struct StepOutcome {
    /// The new state (not canonical: call [`crate::api::Engine::canonicalize`] before saving it).
    pub state: State,
    /// Violations found by the step, and `assumption-vacuous` warnings
    /// ([`crate::api::Property::is_warning`]).
    pub violations: Vec<Violation>,
    /// Variables the step changed, for traces.
    pub changes: Vec<Change>,
    /// The MPI calls the step is part of (which process's, which phase), for
    /// traces: filled when the changes are.
    pub mpi_calls: Vec<crate::call_marks::MpiCallMark>,
}
