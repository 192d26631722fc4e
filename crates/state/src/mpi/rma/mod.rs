//! One-sided communication (RMA): windows, their epochs, and `MPI_Put`,
//! `MPI_Get`, `MPI_Accumulate` synchronised by `MPI_Win_fence`.
//!
//! The windows live in the system state (`SystemState::windows`, hashed and
//! compared with it, so the search sees two states that differ in a pending
//! operation as different). An operation is checked when it is called (window,
//! epoch, target rank, counts, datatypes, target bytes inside the target's
//! window) and recorded in its window's epoch with the data a put or accumulate
//! sends; the closing `MPI_Win_fence`, one step of all members, performs the
//! epoch's operations and opens the next epoch.
//!
//! MPI lets an operation complete at any point up to the closing
//! synchronisation. Performing all of them at the fence shows every outcome
//! MPI allows as long as no one could tell the difference: the origin buffer
//! of a put is not written, nor that of a get read or written, before the
//! fence, and no other access touches the target memory in the epoch. Two
//! operations of different processes on overlapping target memory where one
//! writes (and they are not accumulates with the same operation) are an
//! `rma-race`, reported when the second is issued, in whichever order the
//! search issues them.
//!
//! Passive target (`MPI_Win_lock`/`unlock`, `_all`, `MPI_Win_flush`): see
//! `passive.rs`. Generalized active target (`MPI_Win_post`/`start`/
//! `complete`/`wait`) and `MPI_Win_sync`: see `pscw.rs`.
//!
//! Files: `window.rs` (the state: windows, epochs, pending operations),
//! `sync.rs` (the collective window calls: create, fence, free, and when
//! they are enabled), `ops.rs` (issuing and performing the operations),
//! `request_ops.rs` (the wait or test that performs an `MPI_Rget_accumulate`).

pub(crate) mod local;
mod ops;
mod passive;
mod pscw;
mod request_ops;
mod sync;
mod window;

pub(crate) use passive::{exposed_to_locks, model_locks_windows};
pub(crate) use request_ops::{split_wait_choice, wait_choice};
pub(crate) use sync::{open_pscw_epoch, rma_op};
pub(crate) use window::{datatype_size, window_values, window_values_mut, Window};
