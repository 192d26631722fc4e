//! The RMA operations: `MPI_Put`, `MPI_Get`, `MPI_Accumulate` issue an
//! operation into the window's epoch (with the checks MPI asks at the call);
//! the closing synchronisation performs them.

use crate::mpi::buffer::{Elements, Reader};
use std::sync::Arc;

use tass_dynamic::api::{Handle, Value};
use tass_model::api::mpi::{ArgRole, RmaOp};
use tass_model::api::{LibraryConstant as LC, LibraryFunction as LF};
use tass_semantics::api::{Change, EngineError, Property, Violation};
use tass_symbolic::api::{Expr, ExprFactory, Type};

use super::sync::rma_op;
use super::window::{datatype_size, Epoch, OpKind, OriginHold, PendingOp, Window};
use crate::mpi::buffer::{self, concrete, write_buffer, BufArg};
use crate::mpi::context::{Call, Mpi, MpiCall, ProcessCall};
use crate::mpi::request::{self, RequestKind};
use crate::state::State;

/// A pending operation's kind, origin data, origin buffer and compare value
/// and buffer (see [`PendingOp`]).
type Half = (OpKind, Option<Expr>, Value, Option<(Expr, Value)>);

/// The arguments of an RMA operation, read and checked at the call.
struct Issued {
    window: u32,
    target: u32,
    count: i64,
    dtype: LC,
    ty: Type,
    target_disp: i64,
}

impl ProcessCall<'_> {
    /// Executes `MPI_Put`, `MPI_Get` or `MPI_Accumulate` (a step of its
    /// process alone): checks it and adds it to the window's epoch.
    pub(crate) fn rma_operation(mut self) -> Result<(Vec<Violation>, Vec<Change>), EngineError> {
        let issued = self.checked(|c| c.issue_args())?;
        let hold = self.request_of()?;
        if let Some(issued) = issued {
            self.add_operation((issued, hold))?;
        }
        self.finish()
    }

    /// The function the process is in (`main` when it has returned).
    fn function(&self) -> tass_model::api::FunctionId {
        self.state.inner.procs[self.p]
            .stack
            .last()
            .map(|fr| fr.function)
            .unwrap_or(self.mpi.ctx.model.main)
    }

    /// Adds the checked operation `issued` (whose origin buffer `hold`
    /// holds) to its window's epoch, or reports why it may not be.
    fn add_operation(&mut self, (issued, hold): (Issued, OriginHold)) -> Result<(), EngineError> {
        let (p, call) = (self.p, self.call);
        let Some(w) = self.state.inner.windows[issued.window as usize].clone() else {
            return Ok(());
        };
        let name = call.lf.c_name();
        let origin_rank = crate::mpi::comm::rank_in(self.state, w.comm, p as u32).map(|r| r as u32);
        let under_start = w
            .starts
            .iter()
            .any(|st| Some(st.origin) == origin_rank && st.targets.contains(&issued.target));
        let under_lock = !under_start
            && w.locks
                .iter()
                .any(|l| Some(l.origin) == origin_rank && l.target == issued.target);
        let locked = w
            .locks
            .iter()
            .any(|l| Some(l.origin) == origin_rank && l.target == issued.target);
        if hold != OriginHold::Epoch && !locked {
            let message = format!(
                "{name} outside a passive-target epoch: process {p} holds no lock \
                 (MPI_Win_lock or MPI_Win_lock_all) on the target, and MPI allows \
                 request-based operations only there"
            );
            return self.fail(Property::Epoch, message);
        }
        if w.epoch == Epoch::Closed && !under_lock && !under_start {
            let message = format!(
                "{name} outside an access epoch: no MPI_Win_fence has opened one on this window, \
                 process {p} holds no lock (MPI_Win_lock) on the target, and no MPI_Win_start \
                 of process {p} names the target"
            );
            return self.fail(Property::Epoch, message);
        }
        let memory = &w.memory[issued.target as usize];
        let size = datatype_size(issued.dtype).unwrap_or(1);
        let first_byte = issued.target_disp * memory.disp_unit;
        let end_byte = first_byte + issued.count * size;
        let inside = first_byte >= 0 && end_byte <= memory.size;
        if !inside {
            let target = issued.target;
            let window_size = memory.size;
            let message = format!(
                "{name} outside the target window: bytes {first_byte}..{end_byte} of the \
                 {window_size} bytes process {target} exposes"
            );
            return self.fail(Property::OutOfBounds, message);
        }
        if first_byte % size != 0 {
            return Err(EngineError::unsupported(
                format!("{name} at a target displacement that is not a whole number of elements"),
                call.span,
            ));
        }
        let halves = self.halves(&issued)?;
        let function = self.function();
        for (kind, data, buffer, compare) in halves {
            let op = PendingOp {
                origin: p as u32,
                target: issued.target,
                kind,
                first_byte,
                end_byte,
                count: issued.count,
                ty: issued.ty.clone(),
                data,
                buffer,
                at: (function, call.tid),
                under_lock,
                under_start,
                compare,
                hold,
                performed: false,
            };
            let found =
                (self.mpi).check_recorded_accesses(self.state, p, &op, &w.local, call.span)?;
            self.violations.extend(found);
            // Conflicting operations on the same memory in one epoch race,
            // also two of one origin: MPI orders only accumulates (MPI 4.1
            // 12.7, rule 2: a location an update has started on must not be
            // accessed by another RMA operation until the update completes).
            // Operations performed at their origin's MPI_Win_complete still
            // belong to their target's open exposure epoch (`exposed`).
            let rget = hold != OriginHold::Epoch && kind == OpKind::Get;
            if let Some(other) = w
                .ops
                .iter()
                .chain(&w.exposed)
                .find(|o| o.overlaps(&op) && o.kind.conflicts_with(op.kind))
            {
                let line = self.mpi.line_of(other.at);
                let message = format!(
                    "{name} of process {p} and {} of process {} (line {line}) access the same \
                     window memory of process {} in one epoch, and at least one writes it{}",
                    self.mpi.op_name(other),
                    other.origin,
                    op.target,
                    if other.origin == op.origin {
                        " (MPI does not order them: no flush or unlock lies between)"
                    } else {
                        ""
                    }
                );
                self.fail(Property::RmaRace, message)?;
            }
            // MPI_Rget: its data arrives by the wait of its request, which
            // may come before the epoch closes. Reading the target now is
            // one moment MPI allows, and no other can differ: the target
            // memory may not change while the get is pending (an rma-race
            // or a local-concurrency, reported in any order), nor the
            // origin read its buffer before the wait.
            // MPI_Rget_accumulate stays pending: an accumulate of the same
            // operation by another origin does not conflict with it, so a
            // later moment can differ; the wait or test of its request, or
            // its origin's flush or unlock, performs it, with the other
            // origins' updates MPI may have applied first
            // (`request_ops.rs`, `passive.rs`).
            let performed = rget;
            if performed {
                let violations = &mut self.violations;
                self.mpi.perform_op(self.state, &w, &op, violations)?;
            }
            let s = self.state.inner_mut();
            if let Some(w) = Arc::make_mut(&mut s.windows)[issued.window as usize].as_mut() {
                w.ops.push(PendingOp { performed, ..op });
            }
        }
        Ok(())
    }

    /// For `MPI_Rput`, `MPI_Rget`, `MPI_Raccumulate` and
    /// `MPI_Rget_accumulate`, makes the request (it can complete at
    /// once: its wait completes the operation at the origin) and writes it
    /// to the request argument; which holds the origin buffer.
    fn request_of(&mut self) -> Result<OriginHold, EngineError> {
        let call = self.call;
        if !matches!(
            call.lf,
            LF::MpiRput | LF::MpiRget | LF::MpiRaccumulate | LF::MpiRgetAccumulate
        ) {
            return Ok(OriginHold::Epoch);
        }
        let function = self.function();
        let handle = self.checked(|c| {
            let h = request::add_request(c.env, RequestKind::Rma, (function, call.tid));
            c.write_request(call.arg(ArgRole::Request), h)?;
            Ok(h)
        })?;
        Ok(OriginHold::Request(handle))
    }

    /// The pending operations a call issues, in the order they are
    /// performed: one for a put, get or accumulate; for an atomic its read
    /// half, then its write half (none for `MPI_NO_OP`). Each with its origin
    /// data, origin buffer and compare value and buffer.
    fn halves(&mut self, issued: &Issued) -> Result<Vec<Half>, EngineError> {
        let call = self.call;
        let (op, lf) = match rma_op(call) {
            Some(RmaOp::Put) => (None, OpKind::Put),
            Some(RmaOp::Get) => (None, OpKind::Get),
            Some(RmaOp::FetchAndOp | RmaOp::GetAccumulate) => {
                let c = self.reduce_op()?;
                (Some(c), OpKind::AtomicRead(c, call.lf))
            }
            Some(RmaOp::CompareAndSwap) => {
                let c = LC::MpiReplace;
                (Some(c), OpKind::AtomicRead(c, call.lf))
            }
            _ => (None, OpKind::Accumulate(self.reduce_op()?)),
        };
        let Some(c) = op.filter(|_| matches!(lf, OpKind::AtomicRead(..))) else {
            let (data, buffer) = self.checked(|c| c.origin_side(lf, issued))?;
            return Ok(vec![(lf, data, buffer, None)]);
        };
        self.as_process(|ev, env| {
            let f = ev.factory();
            let (n, zero) = (f.int(issued.count), f.int(0));
            let result = call.arg(ArgRole::RecvBuffer);
            // Reading checks that the buffer holds the element.
            Reader::new(ev, &*env, call.span)
                .read_buffer(Elements::new(result, n, zero), &issued.ty)?;
            let read = (lf, None, ev.eval(&*env, result)?, None);
            if c == LC::MpiNoOp {
                return Ok(vec![read]); // MPI ignores the origin buffer
            }
            let origin = call.arg(ArgRole::SendBuffer);
            let data = Reader::new(ev, &*env, call.span)
                .read_buffer(Elements::new(origin, n, zero), &issued.ty)?;
            let compare = match call
                .lf
                .mpi()
                .and_then(|d| d.position(ArgRole::CompareBuffer))
            {
                Some(k) => {
                    let arg = &call.args[k];
                    let value = Reader::new(ev, &*env, call.span)
                        .read_buffer(Elements::new(arg, n, zero), &issued.ty)?;
                    let Some(value) = value else {
                        return Ok(Vec::new()); // reported
                    };
                    Some((value, ev.eval(&*env, arg)?))
                }
                None => None,
            };
            let write = (
                OpKind::AtomicWrite(c, call.lf),
                data,
                ev.eval(&*env, origin)?,
                compare,
            );
            Ok(vec![read, write])
        })
    }

    /// The operation of `MPI_Accumulate`, `MPI_Fetch_and_op` or
    /// `MPI_Get_accumulate` (the atomics also take `MPI_NO_OP`).
    fn reduce_op(&mut self) -> Result<LC, EngineError> {
        let call = self.call;
        let takes_no_op = matches!(rma_op(call), Some(RmaOp::FetchAndOp | RmaOp::GetAccumulate));
        let v = self.peek_value(call.arg(ArgRole::Op))?;
        match v {
            Value::Handle(Handle::Constant(
                c @ (LC::MpiSum | LC::MpiProd | LC::MpiMin | LC::MpiMax | LC::MpiReplace),
            )) => Ok(c),
            Value::Handle(Handle::Constant(LC::MpiNoOp)) if takes_no_op => Ok(LC::MpiNoOp),
            other => Err(EngineError::unsupported(
                format!("{} with operation {other:?}", call.lf.c_name()),
                call.span,
            )),
        }
    }
}

impl Mpi<'_> {
    /// The source line of call `at`.
    pub(super) fn line_of(
        &self,
        (function, tid): (tass_model::api::FunctionId, tass_model::api::TransitionId),
    ) -> u32 {
        self.ctx
            .model
            .function(function)
            .body
            .as_ref()
            .map_or(0, |b| b.transition(tid).span.start_line)
    }

    /// Performs the operations of window `k` that `which` selects, in issue
    /// order, and removes them.
    pub(super) fn perform_where(
        &mut self,
        state: &mut State,
        k: u32,
        violations: &mut Vec<Violation>,
        which: &dyn Fn(&PendingOp) -> bool,
    ) -> Result<(), EngineError> {
        let Some(w) = state.inner.windows[k as usize].clone() else {
            return Ok(());
        };
        for op in w.ops.iter().filter(|o| which(o) && !o.performed) {
            self.perform_op(state, &w, op, violations)?;
        }
        let s = state.inner_mut();
        if let Some(w) = Arc::make_mut(&mut s.windows)[k as usize].as_mut() {
            w.ops.retain(|o| !which(o));
        }
        Ok(())
    }

    /// Performs operation `op` of window `w`.
    pub(super) fn perform_op(
        &mut self,
        state: &mut State,
        w: &Window,
        op: &PendingOp,
        violations: &mut Vec<Violation>,
    ) -> Result<(), EngineError> {
        {
            let Some(target) = crate::mpi::comm::to_world(state, w.comm, op.target as usize) else {
                return Ok(());
            };
            let memory = &w.memory[op.target as usize];
            let size = (op.end_byte - op.first_byte) / op.count.max(1);
            let offset = op.first_byte / size.max(1);
            let span = self.span_of_op(op.at);
            let f = self.ctx.f;
            let n = f.int(op.count);
            let at = buffer::Window {
                capacity: f.int(offset + op.count),
                offset: f.int(offset),
            };
            let base = BufArg::Stored(&memory.base, Some(&op.ty));
            match op.kind {
                OpKind::Put => {
                    let data = op.data.expect("a put carries its data");
                    self.as_process(state, target as usize, violations, |ev, env| {
                        write_buffer(ev, env, base, at, data, n, &span)
                    })?;
                }
                OpKind::Accumulate(c) | OpKind::AtomicWrite(c, _) => {
                    let Some(data) = op.data else { return Ok(()) };
                    self.as_process(state, target as usize, violations, |ev, env| {
                        let old = Reader::new(ev, &*env, &span)
                            .read_buffer(Elements::new(base, n, at.offset), &op.ty)?;
                        let Some(old) = old else { return Ok(()) };
                        let f = ev.factory();
                        let mut new = combine(f, c, old, data, op.count, &op.ty);
                        if let Some((compare, _)) = &op.compare {
                            // MPI_Compare_and_swap: replaced only if equal.
                            let equal = (0..op.count).fold(f.tt(), |acc, j| {
                                let a = buffer::flat_read(f, old, f.int(j));
                                let b = buffer::flat_read(f, *compare, f.int(j));
                                f.and(acc, f.eq(a, buffer::coerce(f, b, &op.ty)))
                            });
                            new = f.ite(equal, new, old);
                        }
                        write_buffer(ev, env, base, at, new, n, &span)
                    })?;
                }
                OpKind::Get | OpKind::AtomicRead(..) => {
                    let got = self.as_process(state, target as usize, violations, |ev, env| {
                        Reader::new(ev, &*env, &span)
                            .read_buffer(Elements::new(base, n, at.offset), &op.ty)
                    })?;
                    let Some(got) = got else { return Ok(()) };
                    let dest = &op.buffer;
                    let into = buffer::Window {
                        capacity: n,
                        offset: f.int(0),
                    };
                    let dest_arg = BufArg::Stored(dest, Some(&op.ty));
                    self.as_process(state, op.origin as usize, violations, |ev, env| {
                        write_buffer(ev, env, dest_arg, into, got, n, &span)
                    })?;
                }
            }
        }
        Ok(())
    }

    fn span_of_op(
        &self,
        (function, tid): (tass_model::api::FunctionId, tass_model::api::TransitionId),
    ) -> tass_model::api::Span {
        let func = self.ctx.model.function(function);
        func.body
            .as_ref()
            .map_or_else(|| func.span.clone(), |b| b.transition(tid).span.clone())
    }
}

impl MpiCall<'_, '_, '_> {
    /// Reads and checks the window, target rank, counts, datatypes and target
    /// displacement of the RMA operation (`None`: nothing to do, a null target,
    /// or a violation reported).
    fn issue_args(&mut self) -> Result<Option<Issued>, EngineError> {
        let call = self.call;
        let name = call.lf.c_name();
        let Some((window, n)) = self.checked_window()? else {
            return Ok(None);
        };
        let Some(rank) = self.checked_target(call.arg(ArgRole::TargetRank), n)? else {
            return Ok(None);
        };
        let (ev, env, _) = self.parts();
        if matches!(
            rma_op(call),
            Some(RmaOp::FetchAndOp | RmaOp::CompareAndSwap)
        ) {
            // One element of one datatype, at the target displacement.
            let (dtype, ty) = buffer::datatype(ev, &*env, call.arg(ArgRole::Datatype), call.span)?;
            if !usable_datatype(dtype, call)? {
                return Ok(None);
            }
            let disp = ev.eval_int(&*env, call.arg(ArgRole::TargetDisp))?;
            let target_disp = concrete(ev, disp, "target displacement", call.span)?;
            return Ok(Some(Issued {
                window,
                target: rank,
                count: 1,
                dtype,
                ty,
                target_disp,
            }));
        }
        // The buffers whose count and datatype must match the target's: the
        // origin's, and for MPI_Get_accumulate the result's too (its origin is
        // ignored with MPI_NO_OP).
        let no_op = match call.arg_if(ArgRole::Op) {
            Some(op) => ev.eval(&*env, op)? == Value::Handle(Handle::Constant(LC::MpiNoOp)),
            None => false,
        };
        let sides: &[(ArgRole, ArgRole, &str)] = match rma_op(call) {
            Some(RmaOp::Get) => &[(ArgRole::RecvCount, ArgRole::RecvType, "origin")],
            Some(RmaOp::GetAccumulate) if no_op => {
                &[(ArgRole::RecvCount, ArgRole::RecvType, "result")]
            }
            Some(RmaOp::GetAccumulate) => &[
                (ArgRole::RecvCount, ArgRole::RecvType, "result"),
                (ArgRole::SendCount, ArgRole::SendType, "origin"),
            ],
            _ => &[(ArgRole::SendCount, ArgRole::SendType, "origin")],
        };
        let (tdt, ty) = buffer::datatype(ev, &*env, call.arg(ArgRole::TargetType), call.span)?;
        let odt = tdt;
        for &(_, type_role, _) in sides {
            let (dt, _) = buffer::datatype(ev, &*env, call.arg(type_role), call.span)?;
            if null_datatype(dt) {
                return Ok(None);
            }
        }
        if !usable_datatype(tdt, call)? {
            return Ok(None);
        }
        let f = ev.factory();
        let tcount = ev.eval_int(&*env, call.arg(ArgRole::TargetCount))?;
        for &(count_role, type_role, side) in sides {
            let (dt, _) = buffer::datatype(ev, &*env, call.arg(type_role), call.span)?;
            if dt != tdt {
                let message = format!(
                    "{name} with {side} datatype {} and target datatype {}",
                    dt.c_name(),
                    tdt.c_name()
                );
                ev.fail(&*env, Property::MpiType, message, call.span);
                return Ok(None);
            }
            let c = ev.eval_int(&*env, call.arg(count_role))?;
            let same = f.and(f.eq(c, tcount), f.le(f.int(0), c));
            ev.check(
                &*env,
                same,
                Property::MpiCount,
                || {
                    format!(
                        "{name} with {side} count {} and target count {}",
                        f.pretty(c),
                        f.pretty(tcount)
                    )
                },
                call.span,
            );
        }
        let count = concrete(ev, tcount, "count", call.span)?;
        let disp = ev.eval_int(&*env, call.arg(ArgRole::TargetDisp))?;
        let target_disp = concrete(ev, disp, "target displacement", call.span)?;
        Ok(Some(Issued {
            window,
            target: rank,
            count,
            dtype: odt,
            ty,
            target_disp,
        }))
    }

    /// The origin side of an operation: the data a put or accumulate sends (read
    /// now), or the buffer a get fills (its bounds checked now).
    fn origin_side(
        &mut self,
        kind: OpKind,
        issued: &Issued,
    ) -> Result<(Option<Expr>, Value), EngineError> {
        let (ev, env, call) = self.parts();
        let f = ev.factory();
        let n = f.int(issued.count);
        let zero = f.int(0);
        let arg = call.arg(if kind == OpKind::Get {
            ArgRole::RecvBuffer
        } else {
            ArgRole::SendBuffer
        });
        // Reading checks that the buffer holds `count` elements.
        let data = Reader::new(ev, &*env, call.span)
            .read_buffer(Elements::new(arg, n, zero), &issued.ty)?;
        let buffer = ev.eval(&*env, arg)?;
        Ok(((kind != OpKind::Get).then_some(data).flatten(), buffer))
    }
}

/// `old op data`, element by element, for `count` elements of type `ty`.
fn combine(f: &ExprFactory, op: LC, old: Expr, data: Expr, count: i64, ty: &Type) -> Expr {
    let els: Vec<Expr> = (0..count)
        .map(|j| {
            let a = buffer::flat_read(f, old, f.int(j));
            let b = buffer::coerce(f, buffer::flat_read(f, data, f.int(j)), ty);
            match op {
                LC::MpiSum => f.add(a, b),
                LC::MpiProd => f.mul(a, b),
                LC::MpiMin => f.ite(f.le(a, b), a, b),
                LC::MpiMax => f.ite(f.le(b, a), a, b),
                LC::MpiNoOp => a,
                _ => b, // MPI_REPLACE
            }
        })
        .collect();
    f.array_literal(Type::array(ty.clone(), Some(f.int(count))), &els)
}

/// True for `MPI_DATATYPE_NULL` (also what a freed derived datatype's handle
/// becomes), which `buffer::datatype` reported (`mpi-type`): the path is dead.
/// Whether the RMA call `call` can move data of datatype `dtype`: `false`
/// for `MPI_DATATYPE_NULL` (nothing to do), an error for a datatype tass
/// has no size for.
fn usable_datatype(dtype: LC, call: &Call<'_>) -> Result<bool, EngineError> {
    if null_datatype(dtype) {
        return Ok(false);
    }
    if datatype_size(dtype).is_none() {
        return Err(EngineError::unsupported(
            format!("{} with datatype {}", call.lf.c_name(), dtype.c_name()),
            call.span,
        ));
    }
    Ok(true)
}

fn null_datatype(dtype: LC) -> bool {
    dtype == LC::MpiDatatypeNull
}
