//! MPI collective operations on a communicator: a blocking one is one
//! synchronous step of all members once each has reached a blocking
//! collective call on it; calls that do not agree (kind, root, op, datatype,
//! counts) are a `collective-mismatch`.
//!
//! The members are those of `MPI_COMM_WORLD` or of a communicator made by
//! `MPI_Comm_dup` / `MPI_Comm_split` (collectives themselves, as is
//! `MPI_Comm_free`); ranks, roots and blocks are in the communicator's rank
//! order. `MPI_MAXLOC` / `MPI_MINLOC` work on the pair datatypes
//! `MPI_DOUBLE_INT` and `MPI_2INT` (arrays of `{value, index}` structs, or a
//! flat `int` array for `MPI_2INT`); on a tie the smaller index wins. Counts
//! may be symbolic for the basic datatypes; a split color or key and the
//! counts of pair transfers must be determined (else: unsupported); a root
//! that depends on the inputs splits the path (one value per path, see
//! `per_root` in `envelope.rs`).
//!
//! Data moves in comm-rank order: every contribution is read before anything is
//! written (MPI forbids overlapping send and receive buffers without
//! `MPI_IN_PLACE`). Reductions over the reals are exact, so their order does not
//! matter; they fold the contributions in rank order.
//!
//! Counts: the count a process sends must equal the count its receiver posted
//! for it (MPI requires equal type signatures). A process sending *more* than
//! its receiver posted is a `buffer-overflow` (as for a point-to-point message
//! longer than the receive); sending *fewer* is a `collective-mismatch`.
//!
//! Nonblocking collectives (`MPI_Ibcast`, ...) do not synchronise: a member's
//! call *posts* its part ([`post`]) and returns. The arguments significant at
//! it are evaluated and its send data is read at the post (a [`Posted`] kept in
//! its request); the elements of its receive buffers the operation writes
//! read as undefined from then until the wait, so reading a result early is
//! reported ([`Held`]: the whole objects holding the buffers when those
//! elements are not known). Once every
//! member of the communicator has posted the operation, the last post
//! performs it ([`match_posts`]): the calls must agree as for the blocking
//! forms, and each member's request then holds the final contents of its
//! receive buffers, which `MPI_Wait`/`MPI_Test` write. Collectives on one
//! communicator, blocking or not, must be called in the same order by all
//! members: a blocking call whose counterpart at another member is a pending
//! nonblocking one is a `collective-mismatch`. A wait on a collective some
//! member has not posted blocks (deadlock reports name it). MPI forbids
//! changing a send buffer before the operation completes: the send data is
//! compared with what was posted when the operation is performed and at the
//! wait (`invalid-pointer`; a change undone before both, send data with a
//! symbolic count, and send and receive buffers in one array are not
//! checked). Pair datatypes (`MPI_DOUBLE_INT`, `MPI_2INT`) work in both
//! forms; the nonblocking ones write them at the wait, as the others.

mod args;
mod blocking;
mod data;
mod kind;
mod members;
mod nonblocking;
pub(super) mod pending;
mod reduce_local;
mod transfer;
mod user_reduce;

pub(super) use kind::{is_collective, is_nonblocking, is_persistent_init};
pub(super) use nonblocking::{has_post, pending_posts};
pub(crate) use user_reduce::{push_due_fold, DueFold, ScratchBlocks};
