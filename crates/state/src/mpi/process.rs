//! The MPI part of a process's state: its phase, how far it is in a call of
//! several steps, and its pending requests.

use tass_model::api::LibraryFunction as LF;
use tass_symbolic::api::Expr;

use super::request::Request;

/// The MPI part of a process's state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct MpiProc {
    /// Where the process is in its MPI lifetime.
    pub phase: MpiPhase,
    /// How far the process is in the blocking call it is at, for the calls
    /// that take several steps (`MPI_Ssend`, `MPI_Sendrecv(_replace)`).
    pub stage: CallStage,
    /// The last value `MPI_Wtime` returned (the next one is not smaller).
    pub wtime: Option<Expr>,
    /// The thread level `MPI_Init_thread` gave (`None`: `MPI_Init`'s,
    /// `MPI_THREAD_SINGLE`).
    pub thread_level: Option<Expr>,
    /// The requests of nonblocking operations not completed yet, in the order
    /// they were posted.
    pub requests: Vec<Request>,
    /// The process's groups: entry `k - 1` is `Handle::Group(k)` (`None`
    /// once freed; numbers are not reused).
    pub groups: Vec<Option<super::group::Group>>,
    /// The process's user operators: entry `k - 1` is `Handle::Op(k)`.
    pub ops: Vec<Option<super::user_op::UserOp>>,
    /// The buffer attached for `MPI_Bsend`, if any.
    pub attached: Option<super::bsend::Attached>,
    /// The derived datatypes the process built, by handle number (freed ones
    /// stay, marked, so a later use is caught).
    pub datatypes: Vec<super::datatypes::DerivedType>,
    /// The heap blocks of running calls of user operators' functions in
    /// reductions, innermost last (freed as their frames return).
    pub scratch: Vec<super::collective::ScratchBlocks>,
    /// How many persistent collectives the process initialised on each
    /// communicator: (communicator, count), for the order check at the match.
    pub collective_inits: Vec<(u32, u32)>,
    /// The unknown address of each object `MPI_Get_address` was asked about
    /// (its root without the process; `address.rs`), in the order asked.
    pub addresses: Vec<super::address::KnownAddress>,
    /// How many unknown addresses the process has made (it names the next).
    pub addresses_made: u32,
}

/// Where a process is in its MPI lifetime: MPI calls other than `MPI_Wtime`
/// are allowed only between `MPI_Init` and `MPI_Finalize`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) enum MpiPhase {
    /// `MPI_Init` not called yet.
    #[default]
    BeforeInit,
    /// Between `MPI_Init` and `MPI_Finalize`.
    Initialized,
    /// `MPI_Finalize` called.
    Finalized,
}

/// How far a process is in a blocking call made of several steps. The send
/// of `MPI_Ssend` and the send half of `MPI_Sendrecv(_replace)` post their
/// message first, as a nonblocking send would, naming a request of the
/// process that the program never sees; the call returns once that request
/// completes: for `MPI_Ssend` when the message has been received, for a
/// send-receive (a standard send) also by buffering, which the zero-buffer
/// deadlock test counts as needing a buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) enum CallStage {
    /// Nothing done yet.
    #[default]
    Start,
    /// The message is posted under request `request`: an `MPI_Ssend` waits
    /// for it to be received, a send-receive for its receive half.
    Sent { request: u32 },
    /// The receive half of a send-receive is done; it waits for its send.
    Received { request: u32 },
}

/// The request of the send a process at `lf` in `stage` waits for before
/// the call returns, if that is all it still has to do.
pub(super) fn completion_stage(lf: LF, stage: CallStage) -> Option<u32> {
    match (lf, stage) {
        (LF::MpiSsend, CallStage::Sent { request }) => Some(request),
        (LF::MpiSendrecv | LF::MpiSendrecvReplace, CallStage::Received { request }) => {
            Some(request)
        }
        _ => None,
    }
}
