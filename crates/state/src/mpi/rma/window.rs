//! The RMA part of the system state: the windows, their epochs and the RMA
//! operations issued in the current epoch and not performed yet.

use tass_dynamic::api::Value;
use tass_model::api::{FunctionId, LibraryConstant as LC, LibraryFunction as LF, TransitionId};
use tass_symbolic::api::{Expr, Type};

/// A window of one-sided communication (`MPI_Win_create`): one piece of
/// memory per member of its communicator. `Handle::Win(k)` names
/// `SystemState::windows[k]` (`None` once freed).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Window {
    /// The communicator of the window (its members are the window's ranks).
    pub comm: u32,
    /// The creating call (function and transition of the owner's call), for
    /// the report of a window never freed.
    pub created_at: (FunctionId, TransitionId),
    /// The memory each member exposes, by rank in `comm`.
    pub memory: Vec<WinMemory>,
    /// Whether an access epoch is open.
    pub epoch: Epoch,
    /// The RMA operations of the current epoch, in issue order. They are
    /// performed at the epoch's closing synchronisation (see `mod.rs` for why
    /// that is all MPI allows to be observed).
    pub ops: Vec<PendingOp>,
    /// The accesses members made to their own window memory in the current
    /// epoch (`local.rs`).
    pub local: Vec<LocalAccess>,
    /// The passive-target locks held, sorted (`passive.rs`).
    pub locks: Vec<Lock>,
    /// The first lock taken while a fence had opened an epoch (origin's world
    /// rank and the call): if another fence closes that epoch, the lock's
    /// passive-target epoch lay inside the active-target one (`sync.rs`).
    pub locked_in_fence: Option<(u32, (FunctionId, TransitionId))>,
    /// The open exposure epochs of generalized active target
    /// (`MPI_Win_post` .. `MPI_Win_wait`, `pscw.rs`), by target.
    pub posts: Vec<Post>,
    /// The open access epochs (`MPI_Win_start` .. `MPI_Win_complete`), by
    /// origin.
    pub starts: Vec<Start>,
    /// Operations its origin's `MPI_Win_complete` performed while their
    /// target's exposure epoch is still open: the target may not touch their
    /// memory, nor another origin's operation race with them, until its
    /// `MPI_Win_wait` (no origin buffer: the origin is done with them).
    pub exposed: Vec<PendingOp>,
}

/// An exposure epoch opened by `MPI_Win_post` (ranks in the window's
/// communicator).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Post {
    pub target: u32,
    /// The origins of the post's group, sorted.
    pub origins: Vec<u32>,
    /// The origins whose `MPI_Win_complete` closed their access to it, sorted.
    pub completed: Vec<u32>,
}

/// An access epoch opened by `MPI_Win_start` (ranks in the window's
/// communicator).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Start {
    pub origin: u32,
    /// The targets of the start's group, sorted.
    pub targets: Vec<u32>,
}

/// A lock of origin `origin` on target `target` (ranks in the window's
/// communicator).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) struct Lock {
    pub origin: u32,
    pub target: u32,
    pub kind: LockKind,
}

/// `MPI_LOCK_SHARED` or `MPI_LOCK_EXCLUSIVE`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum LockKind {
    Shared,
    Exclusive,
}

impl Window {
    /// Operations `indices` (in `ops`) with the earlier operations of the
    /// same origin on overlapping memory not performed yet, which MPI
    /// performs before them (it orders one origin's accumulates to one
    /// location, MPI 4.1 12.7; a put or get among them would have been an
    /// `rma-race`), sorted: the order to perform them in.
    pub fn with_earlier_of_origin(&self, mut indices: Vec<usize>) -> Vec<usize> {
        loop {
            let mut added = false;
            for j in indices.clone() {
                let later = &self.ops[j];
                for (i, o) in self.ops[..j].iter().enumerate() {
                    let before = !o.performed && o.origin == later.origin && o.overlaps(later);
                    if before && !indices.contains(&i) {
                        indices.push(i);
                        added = true;
                    }
                }
            }
            if !added {
                indices.sort_unstable();
                indices.dedup();
                return indices;
            }
        }
    }
}

/// An access of a member to its own window memory in the current epoch.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct LocalAccess {
    /// The member's rank in the window's communicator.
    pub rank: u32,
    /// The element (relative to the window's base) it touched; `None`: the
    /// whole memory.
    pub at: Option<Expr>,
    pub access: super::local::Access,
    /// Whether `at` is the access itself or a library call's reach.
    pub reach: super::local::Reach,
    /// The source line, for messages.
    pub line: u32,
}

/// The memory a member exposes in a window.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct WinMemory {
    /// Pointer to the first byte of the memory (`Value::Pointer`).
    pub base: Value,
    /// The size in bytes (`MPI_Aint size`).
    pub size: i64,
    /// The displacement unit in bytes.
    pub disp_unit: i64,
    /// Who owns the memory: the program (`MPI_Win_create`), or MPI
    /// (`MPI_Win_allocate`: `MPI_Win_free` frees it).
    pub owner: MemoryOwner,
}

/// Who owns a window's memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum MemoryOwner {
    Program,
    Mpi,
}

/// The synchronisation state of a window.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Epoch {
    /// No access epoch: RMA operations are erroneous (after `MPI_Win_create`,
    /// before the first `MPI_Win_fence`).
    Closed,
    /// An access and exposure epoch opened by `MPI_Win_fence` on every member.
    Fence,
}

/// What an RMA operation does at its target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum OpKind {
    /// `MPI_Put`: writes the origin's data.
    Put,
    /// `MPI_Get`: reads the target's data into the origin buffer.
    Get,
    /// `MPI_Accumulate` with this operation (`MPI_SUM`, ..., `MPI_REPLACE`).
    Accumulate(LC),
    /// The read half of an atomic (`MPI_Fetch_and_op` with this operation,
    /// `MPI_Compare_and_swap` as `MPI_REPLACE`): the target's element into
    /// the result buffer, before the write half of the same call.
    AtomicRead(LC, LF),
    /// The write half of an atomic: the target's element combined with the
    /// origin's (for `MPI_Compare_and_swap`, replaced if it equals the
    /// compare value, [`PendingOp::compare`]).
    AtomicWrite(LC, LF),
}

impl OpKind {
    /// The operation of an accumulate-family operation.
    pub fn accumulating(self) -> Option<LC> {
        match self {
            OpKind::Accumulate(c) | OpKind::AtomicRead(c, _) | OpKind::AtomicWrite(c, _) => Some(c),
            OpKind::Put | OpKind::Get => None,
        }
    }

    /// True if two non-conflicting operations on one location can give
    /// different results in the two orders: one of them fetches the target
    /// (its read half), or they replace it (`MPI_REPLACE`, compare-and-swap);
    /// the other built-in operations are commutative and associative.
    pub fn order_matters(self, other: OpKind) -> bool {
        let fetches = |k: OpKind| matches!(k, OpKind::AtomicRead(..));
        let replaces = |k: OpKind| {
            k.accumulating() == Some(LC::MpiReplace)
                || matches!(k, OpKind::AtomicWrite(_, LF::MpiCompareAndSwap))
        };
        fetches(self) || fetches(other) || replaces(self) || replaces(other)
    }

    /// True for the operations that only read the target (and write the
    /// origin's buffer).
    pub fn reads_target_only(self) -> bool {
        matches!(self, OpKind::Get | OpKind::AtomicRead(..))
    }

    /// Two operations on overlapping target memory in one epoch conflict
    /// unless both only read, or both are of the accumulate family
    /// (`MPI_Accumulate`, `MPI_Fetch_and_op`, `MPI_Compare_and_swap`) with
    /// the same operation or `MPI_NO_OP` (MPI's rule: they are element-wise
    /// atomic).
    pub fn conflicts_with(self, other: OpKind) -> bool {
        if self.reads_target_only() && other.reads_target_only() {
            return false;
        }
        match (self.accumulating(), other.accumulating()) {
            (Some(a), Some(b)) => a != b && a != LC::MpiNoOp && b != LC::MpiNoOp,
            _ => true,
        }
    }

    /// The MPI function, for messages.
    pub fn name(self) -> &'static str {
        match self {
            OpKind::Put => "MPI_Put",
            OpKind::Get => "MPI_Get",
            OpKind::Accumulate(_) => "MPI_Accumulate",
            OpKind::AtomicRead(_, lf) | OpKind::AtomicWrite(_, lf) => lf.c_name(),
        }
    }
}

/// An RMA operation issued in the current epoch.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PendingOp {
    /// The issuing process (world rank).
    pub origin: u32,
    /// The target (rank in the window's communicator).
    pub target: u32,
    pub kind: OpKind,
    /// The target bytes `first_byte .. end_byte` of the target's window memory.
    pub first_byte: i64,
    pub end_byte: i64,
    /// The number of elements moved and their scalar type.
    pub count: i64,
    pub ty: Type,
    /// Put and accumulate: the origin's elements, read when the call was made
    /// (the origin may not change them before the epoch closes).
    pub data: Option<Expr>,
    /// The origin buffer (where a get's elements go).
    pub buffer: Value,
    /// The call (function, transition), for messages.
    pub at: (FunctionId, TransitionId),
    /// Issued under the origin's lock on the target: the origin's unlock or
    /// flush performs it (else the closing fence).
    pub under_lock: bool,
    /// Issued in an access epoch of `MPI_Win_start`: the origin's
    /// `MPI_Win_complete` performs it.
    pub under_start: bool,
    /// `MPI_Compare_and_swap`'s write half: the compare value, read at the
    /// call, and the compare buffer (which the origin may not write before
    /// the operation completes).
    pub compare: Option<(Expr, Value)>,
    /// Until when the origin buffer belongs to the operation.
    pub hold: OriginHold,
    /// Already performed: an `MPI_Rget` when issued (see `ops.rs`), an
    /// `MPI_Rget_accumulate` by the wait of its request (`request_ops.rs`),
    /// another origin's update applied early (`passive.rs`); the closing
    /// synchronisation only ends it.
    pub performed: bool,
}

/// Until when an operation owns its origin buffer (the origin may not
/// write it, nor read a get's).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum OriginHold {
    /// Until the synchronisation that completes the operation.
    Epoch,
    /// `MPI_Rput`, `MPI_Rget`, `MPI_Raccumulate`, `MPI_Rget_accumulate`:
    /// until the wait or test that completes request
    /// `handle` of the origin, or the synchronisation, whichever comes first.
    Request(u32),
    /// Its request completed: the origin buffer is free (the operation still
    /// belongs to its epoch at the target).
    Released,
}

impl PendingOp {
    /// The target elements (of the operation's type, from the window's base).
    pub fn elements(&self) -> (i64, i64) {
        let size = if self.count > 0 {
            (self.end_byte - self.first_byte) / self.count
        } else {
            1
        };
        let first = self.first_byte / size.max(1);
        (first, first + self.count)
    }

    /// True if the two operations touch a common target byte.
    pub fn overlaps(&self, other: &PendingOp) -> bool {
        self.target == other.target
            && self.first_byte < other.end_byte
            && other.first_byte < self.end_byte
    }
}

/// Completes request `handle` of process `p` (world rank) at the origin:
/// the origin buffers of its operations are free (`MPI_Rput`: the operation
/// stays in its epoch at the target), and an `MPI_Rget`, whose data has
/// arrived, is over, as a flush would have ended it.
pub(super) fn settle_request(state: &mut crate::state::State, p: usize, handle: u32) {
    let held = |op: &PendingOp| op.origin as usize == p && op.hold == OriginHold::Request(handle);
    if !state
        .inner
        .windows
        .iter()
        .flatten()
        .any(|w| w.ops.iter().any(held))
    {
        return;
    }
    let s = state.inner_mut();
    for w in std::sync::Arc::make_mut(&mut s.windows)
        .iter_mut()
        .flatten()
    {
        // A performed get is over; a performed MPI_Rget_accumulate still
        // belongs to its epoch at the target (MPI: its request's completion
        // does not complete it there).
        w.ops
            .retain(|op| !(held(op) && op.performed && op.kind == OpKind::Get));
        for op in w.ops.iter_mut().filter(|op| held(op)) {
            op.hold = OriginHold::Released;
        }
    }
}

/// Every pointer value the windows hold (for heap renumbering).
pub(crate) fn window_values(windows: &[Option<Window>]) -> impl Iterator<Item = &Value> {
    windows.iter().flatten().flat_map(|w| {
        w.memory
            .iter()
            .map(|m| &m.base)
            .chain(w.ops.iter().map(|op| &op.buffer))
            .chain(
                w.ops
                    .iter()
                    .filter_map(|op| op.compare.as_ref().map(|c| &c.1)),
            )
    })
}

/// [`window_values`], mutably.
pub(crate) fn window_values_mut(windows: &mut [Option<Window>]) -> Vec<&mut Value> {
    let mut out = Vec::new();
    for w in windows.iter_mut().flatten() {
        for m in w.memory.iter_mut() {
            out.push(&mut m.base);
        }
        for op in w.ops.iter_mut() {
            out.push(&mut op.buffer);
            if let Some((_, b)) = op.compare.as_mut() {
                out.push(b);
            }
        }
    }
    out
}

/// The size in bytes of an element of a basic datatype (as `mpicc` on the
/// machines tass targets lays them out).
pub(crate) fn datatype_size(dtype: LC) -> Option<i64> {
    Some(match dtype {
        LC::MpiChar | LC::MpiByte => 1,
        LC::MpiInt | LC::MpiUnsigned | LC::MpiFloat => 4,
        LC::MpiLong | LC::MpiLongLong | LC::MpiDouble => 8,
        _ => return None,
    })
}
