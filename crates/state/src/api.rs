//! The public interface of `tass-state`.
//!
//! - [`Engine`]: owns the model, factory, prover ([`Oracle`]) and canonic store;
//!   gives the initial [`State`], the enabled [`Step`]s, executes a step
//!   ([`StepOutcome`]), checks final states, canonicalizes states, and reads
//!   outputs, path conditions and statistics.
//! - [`State`]: a system state; cheap to clone, `Eq + Hash` (canonic states
//!   compare by identity first), `Send + Sync`.
//! - Re-exported from the layers below for convenience: [`Violation`], [`Property`],
//!   [`Certainty`], [`EngineError`], [`Change`], [`Oracle`], [`Value`].

pub use crate::call_marks::{CallPhase, MpiCallMark};
pub use crate::engine::{
    Arith, ControlData, Engine, EngineConfig, EngineStats, FixedValue, ProcessStatus, Step,
    StepInfo, StepOutcome,
};
pub use crate::key::StateKey;
pub use crate::mpi::PollOutcome;
pub use crate::snapshot::JointPoint;
pub use crate::state::State;
pub use crate::symmetry::{InputSymmetry, Representative};
pub use crate::worker_taint::WorkerSymmetry;
pub use tass_dynamic::api::Value;
pub use tass_semantics::api::{
    Certainty, Change, EngineError, Oracle, OracleStats, Property, SignedOverflow, Violation,
};
