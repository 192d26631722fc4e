//! MPI in the engine: which MPI calls are enabled in a state, what executing
//! them does, potential deadlock, and the MPI checks at termination.
//!
//! Point-to-point messages live in the state's message buffer (ordered by
//! sender, receiver, issue order, so the first match from a sender is the one
//! MPI's non-overtaking rule delivers). A standard send always buffers; the
//! zero-buffer behaviour the MPI standard also allows is covered by
//! [`potentially_deadlocked`]: a state where no process could move if no pending
//! send were buffered is a potential deadlock. A receive is enabled once a
//! matching message is buffered, once per possible sender for `MPI_ANY_SOURCE`.
//! `MPI_Ssend` and `MPI_Sendrecv(_replace)` take several steps ([`CallStage`]):
//! the message is posted first (probes see it), then the receive half of a
//! send-receive takes its message, and the call returns once its send has
//! completed (`MPI_Ssend`: received; a send-receive's standard send: received,
//! or buffered, which the zero-buffer test counts as needing a buffer). So a
//! send-receive behaves as MPI says: like a nonblocking send and a receive
//! completed together.
//! Blocking collectives are one synchronous step of all members of the
//! communicator, enabled when every member has reached a blocking collective
//! call on it; calls that do not agree (kind, root, op, count, datatype) are a
//! `collective-mismatch`. A nonblocking collective is a step of its process
//! alone that posts its part; the operation completes when all have posted it
//! (`collective/`).

//!
//! The files (no import cycles between them; every operation that asks the
//! prover is a method of [`Mpi`], the engine context and its oracle):
//! - `process.rs`: the MPI part of a process's state ([`MpiProc`]: phase,
//!   call stage, requests);
//! - `context.rs`: the engine context ([`Ctx`]), the call a process is at,
//!   the special rank and tag values, reading and writing scalar arguments;
//! - `comm.rs`: communicators; `buffer.rs`: user buffers and their checks;
//! - `collective/`: collective operations (blocking and nonblocking);
//! - `request.rs`: nonblocking point-to-point requests, progress, waits, tests;
//! - `tag.rs`: tag checks; `signature.rs`: type-signature matching;
//!   `datatypes.rs`: derived datatypes;
//! - `envelope.rs`: rank, tag and communicator of a point-to-point call, and
//!   the path splits when they depend on the inputs;
//! - `enabled.rs`: the MPI steps a process has; `p2p.rs`: sends, receives,
//!   probes; `execute.rs`: executing an MPI step;
//! - `group.rs`: groups, and the local calls of groups, topologies,
//!   operators and attached buffers dispatched; `topology.rs`: Cartesian
//!   grids; `user_op.rs`: user operators; `bsend.rs`: the buffer attached
//!   for `MPI_Bsend` and its accounting;
//! - `rma/`: one-sided communication (windows, epochs, put/get/accumulate);
//! - `commute.rs` and `deadlock.rs`: what the search asks (commutation,
//!   settled processes, potential deadlock, polls, blocked calls,
//!   termination checks).

mod address;
mod bsend;
mod buffer;
mod collective;
mod comm;
mod commute;
mod context;
mod datatypes;
mod deadlock;
mod deliver;
mod enabled;
mod envelope;
mod execute;
mod group;
mod local;
mod p2p;
mod persistent;
mod process;
mod receive_buffer;
mod request;
mod rma;
mod signature;
mod struct_type;
mod tag;
mod topology;
mod user_op;

pub(crate) use address::forget_frames;
pub(crate) use comm::Communicator;
pub(crate) use commute::{pending_receives, settled};
pub(crate) use context::{Ctx, Mpi, ENVELOPE_CASE};
pub use deadlock::PollOutcome;
pub(crate) use deadlock::{blocked_calls, failed_poll};
pub(crate) use process::{CallStage, MpiProc};
pub(crate) use request::push_progress_steps;
pub(crate) use rma::{
    exposed_to_locks, model_locks_windows, window_values, window_values_mut, Window,
};
