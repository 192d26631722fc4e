//! The public interface of `tass-verify`.
//!
//! - [`verify`] / [`compare`]: run `tass verify` / `tass compare` on models and
//!   return a [`Report`].
//! - [`check_signatures`]: the input/output signature check of `compare`.
//!   Its error, [`SignatureMismatch`], lists the mismatches; [`UnknownChoice`] is
//!   the error of parsing an option word that names no choice (`--deadlock`, `--por`).
//! - [`Options`] with [`DeadlockMode`], [`ProverChoice`], [`Arith`],
//!   [`SignedOverflow`]: the knobs.
//! - [`Report`], [`Verdict`], [`ViolationReport`], [`Property`], [`Certainty`],
//!   [`TraceStep`], [`Change`], [`Witness`], [`OutputDifference`],
//!   [`SnapshotReport`], [`SnapshotPosition`], [`Stats`]: the result, with its
//!   text / JSON / SARIF renderings and exit code.

pub use crate::error::{SignatureMismatch, UnknownChoice};
pub use crate::options::{
    DeadlockMode, FairnessMode, MatchMode, Options, Progress, Reduction, Shard, ShardReport,
    UrgentChoice,
};
pub use crate::real::{compare, verify};
pub use crate::report::{
    peak_memory_mb, Certainty, Change, Colour, LoopRuns, OutputDifference, Property, Report,
    SnapshotPosition, SnapshotReport, Stats, TextStyle, TraceStep, Verdict, ViolationReport,
    Witness,
};
pub use crate::signature::check_signatures;
pub use tass_prove::api::ProverChoice;
/// The process's resident memory in bytes where the system tells it (for
/// `--max-memory`).
pub use tass_search::api::resident_bytes;
pub use tass_state::api::Arith;
pub use tass_state::api::SignedOverflow;
