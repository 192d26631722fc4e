//! Passive-target synchronisation: `MPI_Win_lock`/`MPI_Win_unlock` (and
//! their `_all` forms) open and close an access epoch of one origin on one
//! target (all targets); `MPI_Win_flush(_all)` completes the origin's
//! operations of the epoch without closing it.
//!
//! A lock is acquired when the call is made: a process waits in
//! `MPI_Win_lock` while another holds a lock on that target that excludes
//! its own (MPI allows an implementation to wait there, so a program that
//! needs the lock to be granted later can deadlock). An operation under a
//! lock is performed when the origin's unlock or flush completes it. The
//! target takes no part, so it may touch its window memory at any moment of
//! the epoch: while another process holds a lock on it, its local steps are
//! not local for the reduction (`exposed_to_locks`), so every order of its
//! accesses and the origin's calls is explored, and an access while an
//! operation is pending is a `local-concurrency` (`local.rs`).

use std::sync::Arc;

use tass_model::api::mpi::{ArgRole, RmaOp, MPI_LOCK_EXCLUSIVE, MPI_LOCK_SHARED};
use tass_model::api::LibraryFunction as LF;
use tass_semantics::api::{Change, EngineError, Property, Violation};

use super::sync::{rma_op, Caller};
use super::window::{Lock, LockKind, OpKind, PendingOp, Window};
use crate::mpi::buffer::concrete;
use crate::mpi::comm;
use crate::mpi::context::{Call, Mpi, ProcessCall};
use crate::state::State;
use crate::step::Step;

/// True if process `p` is a member of a live window: in a program that locks
/// windows, another process may lock it and access its window memory at any
/// moment, so its steps are not local (the search must try them in every
/// order with the other processes' lock, operation and unlock calls).
pub(crate) fn exposed_to_locks(state: &State, p: usize) -> bool {
    state
        .inner
        .windows
        .iter()
        .flatten()
        .any(|w| comm::rank_in(state, w.comm, p as u32).is_some())
}

/// True if the model calls `MPI_Win_lock` or `MPI_Win_lock_all`.
pub(crate) fn model_locks_windows(model: &tass_model::api::Model) -> bool {
    use tass_model::api::{Callee, Statement};
    model.functions.iter().any(|f| {
        f.body.as_ref().is_some_and(|b| {
            b.graph.edge_weights().any(|t| {
                matches!(
                    t.statement,
                    Statement::Call {
                        callee: Callee::Library(LF::MpiWinLock | LF::MpiWinLockAll),
                        ..
                    }
                )
            })
        })
    })
}

/// At most this many pending updates of other origins are considered for
/// early application at one unlock or flush (2^n step choices at most).
pub(super) const MAX_EARLY_CANDIDATES: u32 = 6;

/// The operations a synchronisation call is about to perform: those of
/// origin `origin_world` (world rank) pending in window `window` that
/// `mine` selects by index in the window's operations and by value (under
/// its lock and to its targets for an unlock or flush, of its access epoch
/// for `MPI_Win_complete`, held by the requests a wait or test completes,
/// `request_ops.rs`).
pub(super) struct Performing<'a> {
    pub window: u32,
    pub origin_world: u32,
    pub mine: Box<Selects<'a>>,
}

/// Whether the operation at this index of a window's operations is selected.
pub(super) type Selects<'a> = dyn Fn(usize, &PendingOp) -> bool + 'a;

impl<'a> Performing<'a> {
    /// An unlock's or flush's: the origin's operations under its lock to
    /// the call's targets.
    fn passive(state: &State, args: &'a PassiveArgs) -> Self {
        let mine = |_, o: &PendingOp| o.under_lock && args.targets.contains(&o.target);
        Performing::of_rank(state, args.window, args.origin, Box::new(mine))
    }

    /// The operations `mine` selects of the origin of rank `origin` in
    /// window `window`'s communicator.
    pub(super) fn of_rank(state: &State, window: u32, origin: u32, mine: Box<Selects<'a>>) -> Self {
        let comm = state.inner.windows[window as usize]
            .as_ref()
            .map_or(0, |w| w.comm);
        Performing {
            window,
            origin_world: comm::to_world(state, comm, origin as usize).unwrap_or(u32::MAX),
            mine,
        }
    }
}

/// The ways other origins' pending updates may already have been applied
/// when `sync` performs its operations, as indices into [`early_orders`]
/// (each a non-empty sequence of [`early_candidates`]; "none" is the plain
/// step). MPI may apply an update at any moment after its issue, so when a
/// synchronisation performs an operation whose outcome depends on the order
/// (a fetching atomic, or `MPI_REPLACE`) on memory another origin's
/// non-conflicting update is pending on, both orders are possible, also
/// when the program lets that origin reach its own synchronisation only
/// later; and the updates applied first may have been applied in any order
/// among themselves, except that one origin's updates of one location are
/// applied in issue order (MPI 4.1 12.7): each sequence takes a prefix of
/// each origin's candidates.
pub(super) fn early_update_choices(
    state: &State,
    sync: &Performing<'_>,
    call: &Call<'_>,
) -> Result<Vec<u32>, EngineError> {
    let candidates = early_candidates(state, sync);
    if candidates.len() > MAX_EARLY_CANDIDATES as usize {
        return Err(EngineError::unsupported(
            format!(
                "{}: {} pending updates of other processes could already have been applied to \
                 the memory this call's operations fetch or replace; tass explores at most \
                 {MAX_EARLY_CANDIDATES}",
                call.lf.c_name(),
                candidates.len()
            ),
            call.span,
        ));
    }
    let Some(w) = state.inner.windows[sync.window as usize].as_ref() else {
        return Ok(Vec::new());
    };
    Ok((0..early_orders(w, &candidates).len() as u32).collect())
}

/// The orders in which the candidate units `candidates` ([`early_candidates`]
/// of window `w`) may have been applied before a synchronisation: every
/// non-empty sequence that takes each origin's units in issue order, a prefix
/// of them, and that does not put a unit right after a later-issued one it
/// commutes with (the other order of the two gives the same state and is
/// listed). At most 1,957 for 6 candidates (fewer than `1 << EARLY_CHOICE_BITS`).
pub(super) fn early_orders(w: &Window, candidates: &[(u32, Vec<usize>)]) -> Vec<Vec<usize>> {
    let commute = |u: usize, v: usize| {
        !candidates[u].1.iter().any(|&a| {
            candidates[v]
                .1
                .iter()
                .any(|&b| order_matters(&w.ops[a], &w.ops[b]))
        })
    };
    fn extend(
        sequence: &mut Vec<usize>,
        candidates: &[(u32, Vec<usize>)],
        commute: &dyn Fn(usize, usize) -> bool,
        orders: &mut Vec<Vec<usize>>,
    ) {
        if !sequence.is_empty() {
            orders.push(sequence.clone());
        }
        for c in 0..candidates.len() {
            let used = |u: usize| sequence.contains(&u);
            let origin_waits = (0..c).any(|e| candidates[e].0 == candidates[c].0 && !used(e));
            let after_commuting_later = sequence.last().is_some_and(|&l| l > c && commute(l, c));
            if used(c) || origin_waits || after_commuting_later {
                continue;
            }
            sequence.push(c);
            extend(sequence, candidates, commute, orders);
            sequence.pop();
        }
    }
    let mut orders = Vec::new();
    extend(&mut Vec::new(), candidates, &commute, &mut orders);
    orders
}

/// True if pending operations `a` and `b` touch common memory without
/// racing (accumulates of one operation) and their order changes what is
/// fetched or left behind.
fn order_matters(a: &PendingOp, b: &PendingOp) -> bool {
    a.overlaps(b) && !a.kind.conflicts_with(b.kind) && a.kind.order_matters(b.kind)
}

/// The order of other origins' updates to apply first that `step` chose
/// (an index into [`early_orders`], [`early_update_choices`]), if any.
pub(super) fn early_order(step: &Step) -> Option<u32> {
    step.choice
        .filter(|c| (EARLY_UPDATES..EARLY_UPDATES + (1 << EARLY_CHOICE_BITS)).contains(c))
        .map(|c| c - EARLY_UPDATES)
}

/// `Step::choice` of an unlock or flush that first applies the other
/// origins' pending updates in order `choice - EARLY_UPDATES`
/// ([`early_order`]).
pub(crate) const EARLY_UPDATES: u32 = 1 << 20;

/// The bits of `Step::choice` above [`EARLY_UPDATES`] that name an order
/// of early updates (a wait's choice keeps `MPI_Waitany`'s index above them).
pub(super) const EARLY_CHOICE_BITS: u32 = 11;

/// The other origins' pending (not yet applied) accumulate-family
/// operations whose order against an operation `sync` performs, or against
/// another such operation, can change what is fetched or left behind: same
/// target memory, not racing (the same accumulate operation), and one of
/// them fetching or replacing. Each is a unit of (origin, indices in the
/// window's operations): an atomic's read and write halves go together. In
/// issue order.
pub(super) fn early_candidates(state: &State, sync: &Performing<'_>) -> Vec<(u32, Vec<usize>)> {
    let Some(w) = state.inner.windows[sync.window as usize].as_ref() else {
        return Vec::new();
    };
    let origin_world = sync.origin_world;
    let mine: Vec<usize> = (0..w.ops.len())
        .filter(|&i| {
            let o = &w.ops[i];
            o.origin == origin_world && !o.performed && (sync.mine)(i, o)
        })
        .collect();
    let mut units: Vec<(u32, Vec<usize>)> = Vec::new();
    for (i, y) in w.ops.iter().enumerate() {
        if y.origin == origin_world || y.performed || y.kind.accumulating().is_none() {
            continue;
        }
        // The write half of an atomic joins its read half (the operation
        // before it, of the same call).
        let joins_read_half = matches!(y.kind, OpKind::AtomicWrite(..))
            && i > 0
            && w.ops[i - 1].origin == y.origin
            && w.ops[i - 1].at == y.at
            && matches!(w.ops[i - 1].kind, OpKind::AtomicRead(..));
        match units.last_mut() {
            Some(unit) if joins_read_half && unit.1.last() == Some(&(i - 1)) => unit.1.push(i),
            _ => units.push((y.origin, vec![i])),
        }
    }
    // Those whose order matters against `mine`, then against those taken.
    let mut taken = vec![false; units.len()];
    let mut relevant: Vec<usize> = mine;
    loop {
        let before = relevant.len();
        for (u, unit) in units.iter().enumerate() {
            let matters = unit.1.iter().any(|&y| {
                relevant
                    .iter()
                    .any(|&x| order_matters(&w.ops[x], &w.ops[y]))
            });
            if !taken[u] && matters {
                taken[u] = true;
                relevant.extend(&unit.1);
            }
        }
        if relevant.len() == before {
            break;
        }
    }
    units
        .into_iter()
        .zip(taken)
        .filter_map(|(unit, taken)| taken.then_some(unit))
        .collect()
}

/// What a lock, unlock or flush call names: window, origin rank, the
/// targets, and the lock kind asked for.
struct PassiveArgs {
    window: u32,
    origin: u32,
    targets: Vec<u32>,
    kind: LockKind,
}

impl ProcessCall<'_> {
    /// The arguments of the passive-target call, without checks (`None`: an
    /// invalid window or rank, which executing reports).
    fn peek_passive(&mut self) -> Result<Option<PassiveArgs>, EngineError> {
        let Some(Caller {
            window,
            rank: origin,
        }) = self.peek_caller()?
        else {
            return Ok(None);
        };
        let comm = self.state.inner.windows[window as usize]
            .as_ref()
            .map_or(0, |w| w.comm);
        let n = comm::comm_size(self.state, comm) as u32;
        let f = self.mpi.ctx.f;
        let targets = match self.call.arg_if(ArgRole::TargetRank) {
            Some(e) => {
                let r = self.peek(e)?;
                match crate::mpi::context::concrete_i64(f, r) {
                    Some(r) if (0..i64::from(n)).contains(&r) => vec![r as u32],
                    _ => return Ok(None),
                }
            }
            None => (0..n).collect(),
        };
        let kind = match self.call.arg_if(ArgRole::LockType) {
            Some(e) => {
                let t = self.peek(e)?;
                match crate::mpi::context::concrete_i64(f, t) {
                    Some(MPI_LOCK_EXCLUSIVE) => LockKind::Exclusive,
                    Some(MPI_LOCK_SHARED) => LockKind::Shared,
                    _ => return Ok(None),
                }
            }
            None => LockKind::Shared,
        };
        Ok(Some(PassiveArgs {
            window,
            origin,
            targets,
            kind,
        }))
    }

    /// [`early_update_choices`] for the process's unlock or flush call.
    pub(super) fn passive_early_choices(&mut self) -> Result<Vec<u32>, EngineError> {
        let Some(args) = self.peek_passive()? else {
            return Ok(Vec::new());
        };
        let sync = Performing::passive(self.state, &args);
        early_update_choices(self.state, &sync, self.call)
    }

    /// Whether the process at its lock call can take its lock now (an
    /// invalid call can: executing reports it).
    pub(super) fn lock_available(&mut self) -> Result<bool, EngineError> {
        let Some(args) = self.peek_passive()? else {
            return Ok(true);
        };
        let Some(w) = self.state.inner.windows[args.window as usize].as_ref() else {
            return Ok(true);
        };
        Ok(args.targets.iter().all(|&t| {
            w.locks.iter().all(|l| {
                l.target != t
                    || l.origin == args.origin // locking twice: executing reports it
                    || (l.kind == LockKind::Shared && args.kind == LockKind::Shared)
            })
        }))
    }

    /// Executes `MPI_Win_lock(_all)`, `MPI_Win_unlock(_all)` or
    /// `MPI_Win_flush(_all)` (`step` of its process).
    pub(crate) fn passive_call(
        mut self,
        step: &Step,
    ) -> Result<(Vec<Violation>, Vec<Change>), EngineError> {
        let (p, call) = (self.p, self.call);
        let name = call.lf.c_name();
        if let Some(args) = self.checked_passive()? {
            let w = self.state.inner.windows[args.window as usize].clone();
            let Some(w) = w else {
                unreachable!("a live window")
            };
            let held: Vec<u32> = args
                .targets
                .iter()
                .copied()
                .filter(|&t| {
                    w.locks
                        .iter()
                        .any(|l| l.origin == args.origin && l.target == t)
                })
                .collect();
            let op = rma_op(call);
            let problem = match op {
                Some(RmaOp::Lock) if !held.is_empty() => Some(format!(
                    "{name}: process {p} already holds a lock on process {} of this window \
                     (an epoch opened twice)",
                    held[0]
                )),
                Some(RmaOp::Unlock | RmaOp::Flush) if held.len() != args.targets.len() => {
                    Some(format!(
                        "{name} without a passive-target epoch: process {p} holds no lock \
                         (MPI_Win_lock{}) on the target",
                        if call.lf == LF::MpiWinUnlockAll || call.lf == LF::MpiWinFlushAll {
                            "_all"
                        } else {
                            ""
                        }
                    ))
                }
                _ => None,
            };
            if let Some(message) = problem {
                self.fail(Property::Epoch, message)?;
            } else {
                if op == Some(RmaOp::Lock) {
                    note_lock_in_fence(self.state, args.window, p, call);
                }
                let early = early_order(step);
                let violations = &mut self.violations;
                self.mpi
                    .passive_effect(self.state, &args, op, early, violations)?;
            }
        }
        self.finish()
    }

    /// The arguments of the passive-target call, checked (window, rank,
    /// lock type); `None` after a reported violation.
    fn checked_passive(&mut self) -> Result<Option<PassiveArgs>, EngineError> {
        let call = self.call;
        let name = call.lf.c_name();
        let ok = self.checked(|checked| {
            let Some((_, n)) = checked.checked_window()? else {
                return Ok(false);
            };
            if let Some(e) = call.arg_if(ArgRole::TargetRank) {
                if checked.checked_target(e, n)?.is_none() {
                    return Ok(false); // MPI_PROC_NULL: nothing to lock
                }
            }
            if let Some(e) = call.arg_if(ArgRole::LockType) {
                let (ev, env, _) = checked.parts();
                let t = ev.eval_int(&*env, e)?;
                let f = ev.factory();
                let claim = f.or(
                    f.eq(t, f.int(MPI_LOCK_EXCLUSIVE)),
                    f.eq(t, f.int(MPI_LOCK_SHARED)),
                );
                ev.check(
                    &*env,
                    claim,
                    Property::Epoch,
                    || format!("{name} with a lock type other than MPI_LOCK_EXCLUSIVE or MPI_LOCK_SHARED"),
                    call.span,
                );
                concrete(ev, t, "lock type", call.span)?;
            }
            Ok(true)
        })?;
        if !ok {
            return Ok(None);
        }
        self.peek_passive()
    }
}

impl Mpi<'_> {
    /// Applies the other origins' pending updates in the order that step
    /// choice `order` ([`early_update_choices`]) says they were applied before
    /// `sync` performs its operations, each after its origin's earlier
    /// pending operations on the same memory (MPI orders one origin's
    /// accumulates; they need not be candidates themselves); they stay in
    /// their epoch (marked performed) until their origin's synchronisation.
    pub(super) fn apply_early_updates(
        &mut self,
        state: &mut State,
        sync: &Performing<'_>,
        order: u32,
        violations: &mut Vec<Violation>,
    ) -> Result<(), EngineError> {
        let candidates = early_candidates(state, sync);
        let k = sync.window as usize;
        let Some(w) = state.inner.windows[k].clone() else {
            return Ok(());
        };
        let orders = early_orders(&w, &candidates);
        let Some(sequence) = orders.get(order as usize) else {
            return Err(EngineError::invalid(
                "an order of early RMA updates that the state does not have",
                None,
            ));
        };
        let mut done: Vec<usize> = Vec::new();
        for &u in sequence {
            for index in w.with_earlier_of_origin(candidates[u].1.clone()) {
                if !done.contains(&index) {
                    self.perform_op(state, &w, &w.ops[index], violations)?;
                    done.push(index);
                }
            }
        }
        let s = state.inner_mut();
        if let Some(w) = Arc::make_mut(&mut s.windows)[k].as_mut() {
            for &index in &done {
                w.ops[index].performed = true;
            }
        }
        Ok(())
    }

    /// Takes the locks, or performs the origin's operations under them (and
    /// releases them for an unlock).
    fn passive_effect(
        &mut self,
        state: &mut State,
        args: &PassiveArgs,
        op: Option<RmaOp>,
        early: Option<u32>,
        violations: &mut Vec<Violation>,
    ) -> Result<(), EngineError> {
        let k = args.window as usize;
        if op == Some(RmaOp::Lock) {
            let s = state.inner_mut();
            if let Some(w) = Arc::make_mut(&mut s.windows)[k].as_mut() {
                for &t in &args.targets {
                    w.locks.push(Lock {
                        origin: args.origin,
                        target: t,
                        kind: args.kind,
                    });
                }
                w.locks.sort();
            }
            return Ok(());
        }
        let origin_world = {
            let comm = state.inner.windows[k].as_ref().map_or(0, |w| w.comm);
            comm::to_world(state, comm, args.origin as usize).unwrap_or(u32::MAX)
        };
        if let Some(order) = early {
            let sync = Performing::passive(state, args);
            self.apply_early_updates(state, &sync, order, violations)?;
        }
        let targets = args.targets.clone();
        self.perform_where(state, args.window, violations, &|o| {
            o.under_lock && o.origin == origin_world && targets.contains(&o.target)
        })?;
        if op == Some(RmaOp::Unlock) {
            let s = state.inner_mut();
            if let Some(w) = Arc::make_mut(&mut s.windows)[k].as_mut() {
                w.locks
                    .retain(|l| !(l.origin == args.origin && args.targets.contains(&l.target)));
            }
        }
        Ok(())
    }
}

/// Records the first lock taken on window `k` while a fence had opened an
/// epoch on it (see `Window::locked_in_fence`).
fn note_lock_in_fence(state: &mut State, k: u32, p: usize, call: &Call<'_>) {
    let function = state.inner.procs[p].stack.last().map(|fr| fr.function);
    let s = state.inner_mut();
    if let (Some(w), Some(function)) =
        (Arc::make_mut(&mut s.windows)[k as usize].as_mut(), function)
    {
        if w.epoch == super::window::Epoch::Fence && w.locked_in_fence.is_none() {
            w.locked_in_fence = Some((p as u32, (function, call.tid)));
        }
    }
}
