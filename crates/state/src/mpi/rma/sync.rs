//! The collective window calls: `MPI_Win_create`, `MPI_Win_fence`,
//! `MPI_Win_free`. Each is one step of all members of the window's
//! communicator, owned by its first member, enabled once every member is at
//! the same call on the same window.

use std::sync::Arc;

use tass_dynamic::api::{undefined_data, ElemType, Handle, Pointer, Root, Step as PStep, Value};
use tass_model::api::mpi::{ArgRole, RmaOp};
use tass_model::api::{LibraryConstant as LC, LibraryFunction as LF, Span, Type as MType};
use tass_semantics::api::{Change, EngineError, Environment, Property, Violation};
use tass_symbolic::api::Type;

use super::passive::EARLY_UPDATES;
use super::window::{Epoch, MemoryOwner, WinMemory, Window};
use crate::mpi::buffer::{self, concrete};
use crate::mpi::comm;
use crate::mpi::context::{
    current_call, write_through, Call, HandlePassed, Mpi, MpiCall, ProcessCall, NO_MESSAGE,
};
use crate::mpi::process::MpiPhase;
use crate::state::State;
use crate::step::Step;

/// What a collective window call names: the communicator, and the window
/// (`None` for `MPI_Win_create`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct Names {
    pub comm: u32,
    pub window: Option<u32>,
}

/// The RMA operation of an MPI call, if it is one.
pub(crate) fn rma_op(call: &Call<'_>) -> Option<RmaOp> {
    match call.lf.mpi()?.kind {
        tass_model::api::mpi::MpiKind::Rma(op) => Some(op),
        _ => None,
    }
}

/// The window a handle value names, if it is a live one.
pub(super) fn live_window(state: &State, v: &Value) -> Option<u32> {
    match v {
        Value::Handle(Handle::Win(k)) => state
            .inner
            .windows
            .get(*k as usize)
            .and_then(|w| w.as_ref())
            .map(|_| *k),
        _ => None,
    }
}

/// What an RMA call of one process names: the window, and the caller's
/// rank in the window's communicator.
#[derive(Clone, Copy)]
pub(super) struct Caller {
    pub window: u32,
    pub rank: u32,
}

impl MpiCall<'_, '_, '_> {
    /// The window argument of the RMA call, checked, with the size of the
    /// window's communicator (`None` after reporting an invalid window).
    pub(super) fn checked_window(&mut self) -> Result<Option<(u32, usize)>, EngineError> {
        let (ev, env, call) = self.parts();
        let wv = ev.eval(&*env, call.arg(ArgRole::Win))?;
        let Some(window) = live_window(env.state, &wv) else {
            let name = call.lf.c_name();
            let message = format!("{name} on an invalid window (never created, or freed)");
            ev.fail(&*env, Property::InvalidPointer, message, call.span);
            return Ok(None);
        };
        let comm = env.state.inner.windows[window as usize]
            .as_ref()
            .map_or(0, |w| w.comm);
        Ok(Some((window, comm::comm_size(env.state, comm))))
    }

    /// Target rank argument `e` of the RMA call on a window of `n`
    /// processes, checked: the rank, or `None` for `MPI_PROC_NULL` (nothing
    /// to do) and after reporting an invalid one.
    pub(super) fn checked_target(
        &mut self,
        e: &tass_model::api::Expr,
        n: usize,
    ) -> Result<Option<u32>, EngineError> {
        let (ev, env, call) = self.parts();
        let rank = ev.eval_int(&*env, e)?;
        buffer::check_rank(ev, &*env, rank, false, "target", call.span, n);
        let rank = concrete(ev, rank, "target rank", call.span)?;
        Ok((0..n as i64).contains(&rank).then_some(rank as u32))
    }
}

impl ProcessCall<'_> {
    /// The window and the process's rank in its communicator (no checks;
    /// `None` for an invalid window or a process outside its communicator,
    /// which executing reports).
    pub(super) fn peek_caller(&mut self) -> Result<Option<Caller>, EngineError> {
        let v = self.peek_value(self.call.arg(ArgRole::Win))?;
        let Some(window) = live_window(self.state, &v) else {
            return Ok(None);
        };
        let comm = self.state.inner.windows[window as usize]
            .as_ref()
            .map_or(0, |w| w.comm);
        Ok(
            comm::rank_in(self.state, comm, self.p as u32).map(|r| Caller {
                window,
                rank: r as u32,
            }),
        )
    }

    /// The window handle argument of the call (through the pointer for
    /// `MPI_Win_free`), without checks.
    fn peek_window(&mut self) -> Result<Option<u32>, EngineError> {
        let passed = if rma_op(self.call) == Some(RmaOp::Free) {
            HandlePassed::ByAddress("window")
        } else {
            HandlePassed::ByValue
        };
        let v = self.peek_handle(self.call.arg(ArgRole::Win), passed)?;
        Ok(v.and_then(|v| live_window(self.state, &v)))
    }

    /// What the collective window call names (`None`: an invalid
    /// communicator or window, which executing reports).
    fn peek_names(&mut self) -> Result<Option<Names>, EngineError> {
        if rma_op(self.call) == Some(RmaOp::Create) {
            let comm = self.peek_comm(self.call.arg(ArgRole::Comm))?;
            return Ok(comm.map(|comm| Names { comm, window: None }));
        }
        let Some(k) = self.peek_window()? else {
            return Ok(None);
        };
        let comm = self.state.inner.windows[k as usize]
            .as_ref()
            .map(|w| w.comm);
        Ok(comm.map(|comm| Names {
            comm,
            window: Some(k),
        }))
    }

    /// The steps of the RMA call, `base` being the plain one: an operation
    /// is a step of its process alone; a collective window call is one step
    /// of all members, owned by the first, once all are at the same call on
    /// the same window.
    pub(crate) fn rma_steps(&mut self, base: Step) -> Result<Vec<Step>, EngineError> {
        let op = rma_op(self.call);
        if op == Some(RmaOp::Lock) {
            return Ok(self.lock_available()?.then_some(base).into_iter().collect());
        }
        if matches!(op, Some(RmaOp::Start | RmaOp::Wait)) {
            return Ok(self.pscw_available()?.then_some(base).into_iter().collect());
        }
        // Other origins' pending updates that MPI may already have applied
        // when a synchronisation performs this origin's operations: one step
        // per way (`passive.rs`), then the plain one.
        let early = match op {
            Some(RmaOp::Unlock | RmaOp::Flush) => Some(self.passive_early_choices()?),
            Some(RmaOp::Complete) => Some(self.complete_early_choices()?),
            _ => None,
        };
        if let Some(orders) = early {
            let mut steps: Vec<Step> = orders
                .into_iter()
                .map(|order| Step {
                    choice: Some(EARLY_UPDATES + order),
                    ..base.clone()
                })
                .collect();
            steps.push(base);
            return Ok(steps);
        }
        if op == Some(RmaOp::Test) {
            // MPI_Win_test: flag 1 (the epoch closes) once every origin has
            // completed; flag 0 whenever the process has posted, also then
            // (the completions may not have reached it yet).
            let mut steps = Vec::new();
            if self.has_posted()? {
                // Not marked commuting, as every RMA step (the reduction
                // treats the window calls as dependent on all others).
                steps.push(Step {
                    choice: Some(NO_MESSAGE),
                    ..base.clone()
                });
            }
            if self.pscw_available()? {
                steps.push(base);
            }
            return Ok(steps);
        }
        if !op.is_some_and(RmaOp::is_collective) {
            return Ok(vec![base]);
        }
        let Some(names) = self.peek_names()? else {
            return Ok(vec![base]); // executing it reports the invalid handle
        };
        let members = comm::members(self.state, names.comm);
        if members.first() != Some(&(self.p as u32)) {
            return Ok(Vec::new());
        }
        for &q in &members {
            let q = q as usize;
            let Some(c) =
                current_call(self.mpi.ctx.model, self.state, q).filter(|c| c.lf == self.call.lf)
            else {
                return Ok(Vec::new());
            };
            if self.state.inner.procs[q].mpi.phase != MpiPhase::Initialized
                || self.mpi.at(self.state, q, &c).peek_names()? != Some(names)
            {
                return Ok(Vec::new());
            }
        }
        Ok(vec![base])
    }

    /// Reports the invalid communicator or window of a window call.
    fn report_invalid_handle(&mut self) -> Result<(), EngineError> {
        let what = if rma_op(self.call) == Some(RmaOp::Create) {
            "communicator"
        } else {
            "window (never created, or freed)"
        };
        let message = format!("{} called with an invalid {what}", self.call.lf.c_name());
        self.fail(Property::InvalidPointer, message)
    }

    /// Executes the collective window call (`MPI_Win_create`,
    /// `MPI_Win_fence`, `MPI_Win_free`) of the call's process, the owner of
    /// the step: the calls of every member of the communicator run together.
    pub(crate) fn rma_collective(mut self) -> Result<(Vec<Violation>, Vec<Change>), EngineError> {
        let Some(names) = self.peek_names()? else {
            self.report_invalid_handle()?;
            return Ok((self.violations, Vec::new()));
        };
        let (mpi, state, call) = (&mut self.mpi, &mut *self.state, self.call);
        // Peeking at the names checks nothing (`peek_with`): no violations yet.
        let mut violations = Vec::new();
        let members: Vec<usize> = comm::members(state, names.comm)
            .into_iter()
            .map(|w| w as usize)
            .collect();
        let calls: Vec<Call<'_>> = members
            .iter()
            .filter_map(|&q| current_call(mpi.ctx.model, state, q))
            .collect();
        if calls.len() != members.len() {
            return Err(EngineError::invalid(
                "window call without its members",
                None,
            ));
        }
        let run = WindowRun {
            mpi,
            state,
            members: &members,
            calls: &calls,
            violations: &mut violations,
        };
        match (rma_op(call), names.window) {
            (Some(RmaOp::Create), _) => run.create_window(names.comm)?,
            (Some(RmaOp::Fence), Some(k)) => {
                let first = (members[0], call.span);
                run.mpi.fence(run.state, k, first, run.violations)?
            }
            (Some(RmaOp::Free), Some(k)) => run.free_window(k)?,
            _ => return Err(EngineError::invalid("not a collective window call", None)),
        }
        for (&q, c) in members.iter().zip(&calls) {
            mpi.as_process(state, q, &mut violations, |ev, env| {
                MpiCall::new(ev, env, c).return_success()
            })?;
        }
        Ok((violations, Vec::new()))
    }
}

impl Mpi<'_> {
    /// Reports `message` as an `epoch` violation of process `p` at `span`.
    pub(super) fn fail_epoch(
        &mut self,
        state: &mut State,
        p: usize,
        message: String,
        span: &Span,
        violations: &mut Vec<Violation>,
    ) -> Result<(), EngineError> {
        self.as_process(state, p, violations, |ev, env| {
            ev.fail(&*env, Property::Epoch, message, span);
            Ok(())
        })
    }

    /// `MPI_Win_fence`: performs the epoch's operations and opens the next
    /// epoch. A lock taken since the previous fence put a passive-target
    /// epoch inside this active-target one (MPI: the epochs of a window at a
    /// process are disjoint, and a window may not be locked while exposed):
    /// an `epoch` violation, reported at this closing fence (a fence followed
    /// by no other fence opens no epoch, so locks after the last one are
    /// fine). `owner` is the call's owning member and span.
    fn fence(
        &mut self,
        state: &mut State,
        k: u32,
        owner: (usize, &tass_model::api::Span),
        violations: &mut Vec<Violation>,
    ) -> Result<(), EngineError> {
        let locked = state.inner.windows[k as usize]
            .as_ref()
            .and_then(|w| w.locked_in_fence);
        if let Some((origin, at)) = locked {
            let line = self.line_of(at);
            let (p, span) = owner;
            let message = format!(
                "MPI_Win_fence closes an active-target epoch in which process {origin} \
                 locked the window (line {line}): a passive-target epoch inside a fence \
                 epoch (end the fence epoch first, with MPI_MODE_NOSUCCEED or no fence \
                 after the locks)"
            );
            self.fail_epoch(state, p, message, span, violations)?;
        }
        // All the operations of the epoch, in issue order (their order does
        // not matter: conflicting ones were reported at issue); it empties.
        self.perform_where(state, k, violations, &|_| true)?;
        let s = state.inner_mut();
        let windows = Arc::make_mut(&mut s.windows);
        if let Some(w) = windows[k as usize].as_mut() {
            w.epoch = Epoch::Fence;
            w.local.clear();
            w.locked_in_fence = None;
        }
        Ok(())
    }
}

impl MpiCall<'_, '_, '_> {
    /// `MPI_Win_allocate`'s memory: a heap block of `size` bytes of the type
    /// `baseptr` points to a pointer to, whose address is written through
    /// `baseptr`.
    fn allocate(&mut self, size: i64) -> Result<Value, EngineError> {
        let (ev, env, call) = self.parts();
        let f = ev.factory();
        let arg = call.arg(ArgRole::WinBase);
        let elem = match &arg.ty {
            MType::Pointer(p) => match &**p {
                MType::Pointer(e)
                    if matches!(&**e, MType::Int(_) | MType::Real(_) | MType::Char) =>
                {
                    (**e).clone()
                }
                _ => MType::Void,
            },
            _ => MType::Void,
        };
        let elem_size = tass_dynamic::api::size_of(env.model(), &elem)
            .and_then(|s| i64::try_from(s).ok())
            .filter(|_| elem != MType::Void)
            .ok_or_else(|| {
                EngineError::unsupported(
                    "MPI_Win_allocate whose base pointer is not the address of an `int *`, \
                     `double *`, `char *` or another pointer to a basic type",
                    call.span,
                )
            })?;
        let n = size / elem_size;
        let Some(et) = ev.data_type(&*env, &elem, call.span)? else {
            return Err(EngineError::unsupported(
                "MPI_Win_allocate of non-data elements",
                call.span,
            ));
        };
        let value = Value::Data(undefined_data(f, Type::array(et, Some(f.int(n)))));
        let root = env.allocate(value, f.int(n), ElemType::of(&elem));
        let base = Value::Pointer(Pointer::to(root, [PStep::Index(f.int(0))]));
        write_through(ev, env, arg, base.clone(), "base pointer", call.span)?;
        Ok(base)
    }

    /// `*win = handle` for the window argument of `MPI_Win_create`/`MPI_Win_free`.
    fn write_window(&mut self, handle: Value) -> Result<(), EngineError> {
        let (ev, env, call) = self.parts();
        write_through(ev, env, call.arg(ArgRole::Win), handle, "window", call.span)
    }
}

/// What generalized-active-target epoch of window `w` is still open, if one
/// is: an access epoch never completed, or an exposure epoch never waited for.
pub(crate) fn open_pscw_epoch(w: &Window) -> Option<String> {
    if let Some(st) = w.starts.first() {
        return Some(format!(
            "rank {} has an access epoch (MPI_Win_start) never closed by MPI_Win_complete",
            st.origin
        ));
    }
    w.posts.first().map(|post| {
        format!(
            "rank {} has an exposure epoch (MPI_Win_post) never closed by MPI_Win_wait",
            post.target
        )
    })
}

/// One collective window call (`MPI_Win_create`, `MPI_Win_free`) of the
/// members of a communicator, each at its call in `calls`: the receiver of
/// the operations that run it, so that the five are named once.
struct WindowRun<'r, 'a> {
    mpi: &'r mut Mpi<'a>,
    state: &'r mut State,
    members: &'r [usize],
    calls: &'r [Call<'r>],
    violations: &'r mut Vec<Violation>,
}

impl WindowRun<'_, '_> {
    /// `MPI_Win_create`: reads each member's base, size and displacement
    /// unit, makes the window and writes its handle through `win`.
    fn create_window(self, comm: u32) -> Result<(), EngineError> {
        let mut memory = Vec::new();
        for (&q, c) in self.members.iter().zip(self.calls) {
            let m = self
                .mpi
                .as_process(self.state, q, self.violations, |ev, env| {
                    let size = ev.eval_int(&*env, c.arg(ArgRole::WinSize))?;
                    let size = concrete(ev, size, "window size", c.span)?;
                    let unit = ev.eval_int(&*env, c.arg(ArgRole::DispUnit))?;
                    let unit = concrete(ev, unit, "displacement unit", c.span)?;
                    let f = ev.factory();
                    let ok = f.bool((size >= 0) && (unit > 0));
                    ev.check(
                        &*env,
                        ok,
                        Property::MpiCount,
                        || format!("MPI_Win_create with size {size} and displacement unit {unit}"),
                        c.span,
                    );
                    let (base, owner) = if c.lf == LF::MpiWinAllocate {
                        (MpiCall::new(ev, env, c).allocate(size)?, MemoryOwner::Mpi)
                    } else {
                        let base = ev.eval(&*env, c.arg(ArgRole::WinBase))?;
                        if size > 0 && matches!(base, Value::Pointer(Pointer::Null)) {
                            let message = format!(
                                "MPI_Win_create exposes {size} bytes at a NULL base (only a \
                             window of size 0 may have no memory)"
                            );
                            ev.fail(&*env, Property::InvalidPointer, message, c.span);
                        }
                        (base, MemoryOwner::Program)
                    };
                    Ok(WinMemory {
                        base,
                        size,
                        disp_unit: unit,
                        owner,
                    })
                })?;
            memory.push(m);
        }
        let owner_call = &self.calls[0];
        let window = Window {
            comm,
            created_at: (
                self.state.inner.procs[self.members[0]]
                    .stack
                    .last()
                    .map(|fr| fr.function)
                    .unwrap_or(self.mpi.ctx.model.main),
                owner_call.tid,
            ),
            memory,
            epoch: Epoch::Closed,
            ops: Vec::new(),
            local: Vec::new(),
            locks: Vec::new(),
            locked_in_fence: None,
            posts: Vec::new(),
            starts: Vec::new(),
            exposed: Vec::new(),
        };
        let s = self.state.inner_mut();
        let mut windows = (*s.windows).clone();
        windows.push(Some(window));
        let k = (windows.len() - 1) as u32;
        s.windows = Arc::new(windows);
        for (&q, c) in self.members.iter().zip(self.calls) {
            self.mpi
                .as_process(self.state, q, self.violations, |ev, env| {
                    MpiCall::new(ev, env, c).write_window(Value::Handle(Handle::Win(k)))
                })?;
        }
        Ok(())
    }

    /// `MPI_Win_free`: an epoch with operations not completed by a
    /// synchronisation is an `epoch` violation; the handles become
    /// `MPI_WIN_NULL`.
    fn free_window(self, k: u32) -> Result<(), EngineError> {
        let pending = self.state.inner.windows[k as usize]
            .as_ref()
            .map(|w| {
                w.ops
                    .iter()
                    .map(|op| (op.origin, op.kind))
                    .collect::<Vec<_>>()
            })
            .unwrap_or_default();
        if let Some(message) = self.state.inner.windows[k as usize]
            .as_ref()
            .and_then(open_pscw_epoch)
        {
            let span = self.calls[0].span;
            self.mpi
                .as_process(self.state, self.members[0], self.violations, |ev, env| {
                    ev.fail(
                        &*env,
                        Property::Epoch,
                        format!("MPI_Win_free while {message}"),
                        span,
                    );
                    Ok(())
                })?;
        }
        let locked = self.state.inner.windows[k as usize]
            .as_ref()
            .and_then(|w| w.locks.first().copied());
        if let Some(l) = locked {
            let span = self.calls[0].span;
            let message = format!(
                "MPI_Win_free while rank {} still holds a lock on rank {} (a passive-target \
                 epoch never closed by MPI_Win_unlock)",
                l.origin, l.target
            );
            self.mpi
                .fail_epoch(self.state, self.members[0], message, span, self.violations)?;
        }
        if let Some(&(origin, kind)) = pending.first() {
            let span = self.calls[0].span;
            let message = format!(
                "MPI_Win_free while the epoch is still open: {} of process {origin} (and \
                 {} more) not completed by a synchronisation (MPI_Win_fence)",
                kind.name(),
                pending.len() - 1
            );
            self.mpi
                .fail_epoch(self.state, self.members[0], message, span, self.violations)?;
        }
        let memory = self.state.inner.windows[k as usize]
            .as_ref()
            .map(|w| w.memory.clone())
            .unwrap_or_default();
        for (&q, m) in self.members.iter().zip(&memory) {
            if let (MemoryOwner::Mpi, Value::Pointer(p)) = (m.owner, &m.base) {
                if let Some(Root::Heap { object, .. }) = p.root() {
                    self.mpi.ctx.env(self.state, q).free(object);
                }
            }
        }
        let s = self.state.inner_mut();
        Arc::make_mut(&mut s.windows)[k as usize] = None;
        for (&q, c) in self.members.iter().zip(self.calls) {
            self.mpi
                .as_process(self.state, q, self.violations, |ev, env| {
                    let null = Value::Handle(Handle::Constant(LC::MpiWinNull));
                    MpiCall::new(ev, env, c).write_window(null)
                })?;
        }
        Ok(())
    }
}
