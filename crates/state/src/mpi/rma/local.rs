//! Local loads and stores that conflict with RMA (`local-concurrency`).
//!
//! While an epoch is open, a process may not touch the target memory of an
//! operation of the epoch in its window (a put or accumulate: not at all; a
//! get: not write it), nor the origin buffer of its own pending operation (a
//! put or accumulate: not write it; a get: not at all). The check does not
//! depend on the order the search interleaves processes in: every access a
//! member makes to its own window memory during the epoch is recorded in the
//! window, checked against the operations already issued, and each operation
//! is checked at issue against the accesses recorded before it.
//!
//! The accesses of a statement are the lvalues its guard and statement read or
//! write (`a[i]`, `*p`, `x`, `s.f`), except those a `&&`, `||` or `?:` skips
//! on the path (an operand before them with a known value); memory a library
//! function reaches through a pointer argument (`memcpy`) is not seen.

use std::sync::Arc;

use tass_dynamic::api::{Pointer, Step as PStep, Value};
use tass_model::api::{Callee, Expr as MExpr, ExprKind, LibraryFunction as LF, Span, Statement};
use tass_semantics::api::{Certainty, EngineError, Evaluator, Place, Property, Violation};
use tass_symbolic::api::{Expr, ExprFactory};

use super::window::{Epoch, LocalAccess, OpKind, OriginHold, PendingOp};
use crate::mpi::context::Mpi;
use crate::state::State;
use crate::step::Step;

/// How an lvalue is used.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Access {
    Read,
    Write,
}

/// How much of an object an access is known to touch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Reach {
    /// The lvalue the statement names.
    Exact,
    /// What a library or MPI function reaches through a pointer argument:
    /// taken to be the whole object, since tass does not follow the
    /// function's own accesses (an `MPI_Get` into `&a[2]` touches `a[2]`
    /// only). A conflict found through it is an over-approximation, so it is
    /// reported as *possible*, never provable.
    WholeObject,
    /// The lvalue the statement names, behind a `&&`, `||` or `?:` operand
    /// whose value depends on the inputs: C may skip it, so a conflict
    /// through it is *possible*, never provable.
    MaybeSkipped,
}

impl Reach {
    /// `v` as sure as an access of this reach makes it.
    fn qualify(self, mut v: Violation) -> Violation {
        if matches!(self, Reach::WholeObject | Reach::MaybeSkipped) {
            v.certainty = Certainty::Possible;
            v.witness = None;
        }
        v
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Use {
    Access(Access),
    /// Only the address is taken (`&x`, an array decaying to a pointer).
    Address,
}

/// An lvalue a transition touches: how, and when C evaluates it (`when`: the
/// operands of the `&&`, `||` and `?:` it sits behind, `(c, true)` if it is
/// evaluated only when `c` is nonzero, `(c, false)` only when `c` is zero).
pub(crate) struct Touched<'e> {
    pub expr: &'e MExpr,
    pub access: Access,
    pub when: Vec<(&'e MExpr, bool)>,
}

/// The lvalues `e` reads or writes, with how (`mode` is how `e` itself is
/// used) and under which short-circuit conditions (`when`).
fn lvalues<'e>(e: &'e MExpr, mode: Use, when: &[(&'e MExpr, bool)], out: &mut Vec<Touched<'e>>) {
    use ExprKind as K;
    let record = |out: &mut Vec<Touched<'e>>| {
        if let Use::Access(access) = mode {
            out.push(Touched {
                expr: e,
                access,
                when: when.to_vec(),
            });
        }
    };
    let read = Use::Access(Access::Read);
    let behind = |c: &'e MExpr, nonzero: bool| {
        let mut w = when.to_vec();
        w.push((c, nonzero));
        w
    };
    match &e.kind {
        K::Var(_) => record(out),
        K::Index(a, i) => {
            record(out);
            lvalues(a, Use::Address, when, out);
            lvalues(i, read, when, out);
        }
        K::Deref(p) => {
            record(out);
            lvalues(p, read, when, out);
        }
        K::Field(s, _) => {
            record(out);
            lvalues(s, Use::Address, when, out);
        }
        K::AddressOf(a) | K::Decay(a) => lvalues(a, Use::Address, when, out),
        K::Unary(_, a) | K::Cast(a) => lvalues(a, read, when, out),
        K::Binary(_, a, b) => {
            lvalues(a, read, when, out);
            lvalues(b, read, when, out);
        }
        // C evaluates the right operand of `&&` only when the left one is
        // nonzero, of `||` only when it is zero, and one arm of `?:`.
        K::LogicalAnd(a, b) => {
            lvalues(a, read, when, out);
            lvalues(b, read, &behind(a, true), out);
        }
        K::LogicalOr(a, b) => {
            lvalues(a, read, when, out);
            lvalues(b, read, &behind(a, false), out);
        }
        K::Conditional(a, b, c) => {
            lvalues(a, read, when, out);
            lvalues(b, read, &behind(a, true), out);
            lvalues(c, read, &behind(a, false), out);
        }
        K::MathCall(_, args) | K::AbstractCall(_, args) => {
            for a in args {
                lvalues(a, read, when, out);
            }
        }
        _ => {}
    }
}

/// The lvalues a transition (guard and statement) reads or writes, with
/// when C evaluates them.
pub(crate) fn transition_touches<'e>(guard: &'e MExpr, st: &'e Statement) -> Vec<Touched<'e>> {
    let read = Use::Access(Access::Read);
    let write = Use::Access(Access::Write);
    let mut out = Vec::new();
    lvalues(guard, read, &[], &mut out);
    match st {
        Statement::Assign { lhs, rhs } => {
            lvalues(lhs, write, &[], &mut out);
            lvalues(rhs, read, &[], &mut out);
        }
        Statement::Assert { condition, .. }
        | Statement::Assume { condition }
        | Statement::CollectiveAssert { condition, .. } => lvalues(condition, read, &[], &mut out),
        Statement::Call { lhs, args, .. } => {
            if let Some(lhs) = lhs {
                lvalues(lhs, write, &[], &mut out);
            }
            for a in args {
                lvalues(a, read, &[], &mut out);
            }
        }
        Statement::Return { value: Some(v) } => lvalues(v, read, &[], &mut out),
        Statement::Allocate { lhs, count, .. } => {
            lvalues(lhs, write, &[], &mut out);
            lvalues(count, read, &[], &mut out);
        }
        Statement::Free { pointer } => lvalues(pointer, read, &[], &mut out),
        _ => {}
    }
    out
}

/// Where a place lies relative to a region starting at pointer `base`:
/// `None` if it cannot be inside; else the element index relative to `base`
/// (`None` inside: the access covers the whole object).
fn offset_in(base: &Value, place: &Place, f: &ExprFactory) -> Option<Option<Expr>> {
    let Value::Pointer(Pointer::To { root, path }) = base else {
        // A byte view or an odd pointer: any access to its root may overlap.
        let root = match base {
            Value::Pointer(Pointer::Bytes { root, .. }) => *root,
            _ => return None,
        };
        return (root == place.0).then_some(None);
    };
    if *root != place.0 {
        return None;
    }
    let (prefix, start) = match path.last() {
        Some(PStep::Index(s)) => (&path[..path.len() - 1], Some(*s)),
        _ => (&path[..], None),
    };
    let steps = &place.1;
    for (k, step) in prefix.iter().enumerate() {
        match (step, steps.get(k)) {
            (_, None) => return Some(None), // the access covers the region
            (PStep::Field(a), Some(PStep::Field(b))) if a != b => return None,
            _ => {}
        }
    }
    match (start, steps.get(prefix.len())) {
        (Some(s), Some(PStep::Index(i))) => Some(Some(f.sub(*i, s))),
        _ => Some(None),
    }
}

/// The claim that index `at` (`None`: the whole object) lies outside
/// elements `lo .. hi`.
fn outside(f: &ExprFactory, at: Option<Expr>, lo: i64, hi: i64) -> Expr {
    match at {
        None => f.ff(),
        Some(i) => f.or(f.lt(i, f.int(lo)), f.le(f.int(hi), i)),
    }
}

/// How library function `lf` uses its pointer argument `k`: read for a
/// `const` MPI parameter, else (any other library function) possibly written.
pub(crate) fn library_access(lf: LF, k: usize) -> Access {
    match lf.mpi().and_then(|d| d.params.get(k)) {
        Some(param) if param.c_type.starts_with("const ") => Access::Read,
        _ => Access::Write,
    }
}

/// Where an operation is in its life, for the accesses that can conflict
/// with it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OpStage {
    /// Issued, not completed: its origin buffer and target memory are busy.
    Pending,
    /// Completed by its origin's `MPI_Win_complete`, its target's exposure
    /// epoch still open: its target memory is busy.
    DoneAtOrigin,
}

/// True if no epoch of window `w` is open and no operation is pending: local
/// accesses cannot conflict with it.
fn quiet(w: &super::window::Window) -> bool {
    w.epoch == Epoch::Closed && w.ops.is_empty() && w.posts.is_empty() && w.exposed.is_empty()
}

/// Whether an access conflicts with an operation at the target.
fn conflicts_at_target(kind: OpKind, access: Access) -> bool {
    !kind.reads_target_only() || access == Access::Write
}

/// Whether an access conflicts with the origin buffer of an operation.
fn conflicts_at_origin(kind: OpKind, access: Access) -> bool {
    kind.reads_target_only() || access == Access::Write
}

impl Mpi<'_> {
    /// Checks the window accesses of local step `step` against the pending
    /// RMA operations, and records the accesses to the process's own window
    /// memory in every open epoch.
    pub(crate) fn local_window_accesses(
        &mut self,
        state: &mut State,
        step: &Step,
    ) -> Result<Vec<Violation>, EngineError> {
        let p = step.process;
        let mut violations = Vec::new();
        if state.inner.windows.iter().flatten().all(quiet) {
            return Ok(violations);
        }
        let Some(body) = self.ctx.model.function(step.function).body.as_ref() else {
            return Ok(violations);
        };
        let t = body.transition(step.transition);
        // A declaration executed again gives its variable a fresh value: a
        // write (the variable's lifetime ended in between).
        let declared = match &t.statement {
            Statement::Declare { var } => Some(MExpr::new(
                ExprKind::Var(*var),
                self.ctx.model.var(*var).ty.clone(),
                t.span.clone(),
            )),
            _ => None,
        };
        let accesses = transition_touches(&t.guard, &t.statement);
        let mut places = Vec::new();
        {
            let env = self.ctx.env(state, p);
            let f = self.ctx.f;
            let mut ev = Evaluator::without_checks(f, self.oracle, p);
            for touch in accesses {
                // Short-circuit: an lvalue C skips on this path is no access.
                let mut reach = Reach::Exact;
                let mut skipped = false;
                for &(c, nonzero) in &touch.when {
                    let operand = ev.eval_bool(&env, c).ok().and_then(|v| f.as_bool(v));
                    match operand {
                        Some(v) => skipped |= v != nonzero,
                        None => reach = Reach::MaybeSkipped,
                    }
                }
                if skipped {
                    continue;
                }
                if let Ok(place) = ev.eval_place(&env, touch.expr, true) {
                    places.push((place, touch.access, reach));
                }
            }
            if let Some(e) = &declared {
                if let Ok(place) = ev.eval_place(&env, e, true) {
                    places.push((place, Access::Write, Reach::Exact));
                }
            }
        }
        // Memory a library or MPI function reaches through a pointer
        // argument: the whole object from that element on (tass does not
        // follow the function's own accesses), read for a `const` parameter.
        if let Statement::Call {
            callee: Callee::Library(lf),
            args,
            ..
        } = &t.statement
        {
            let env = self.ctx.env(state, p);
            let mut ev = Evaluator::without_checks(self.ctx.f, self.oracle, p);
            for (k, a) in args.iter().enumerate() {
                if !matches!(a.ty, tass_model::api::Type::Pointer(_)) {
                    continue;
                }
                let Ok(v) = ev.eval(&env, a) else { continue };
                let Value::Pointer(Pointer::To { root, path }) = v else {
                    continue;
                };
                let mut path = path.clone();
                if matches!(path.last(), Some(PStep::Index(_))) {
                    path.pop();
                }
                places.push(((root, path), library_access(*lf, k), Reach::WholeObject));
            }
        }
        if places.is_empty() {
            return Ok(violations);
        }
        let line = t.span.start_line;
        for k in 0..state.inner.windows.len() {
            let Some(w) = state.inner.windows[k].clone() else {
                continue;
            };
            if quiet(&w) {
                continue;
            }
            let rank = crate::mpi::comm::rank_in(state, w.comm, p as u32);
            let mut record = Vec::new();
            for (place, access, reach) in &places {
                let pending = w.ops.iter().map(|op| (op, OpStage::Pending));
                let exposed = w.exposed.iter().map(|op| (op, OpStage::DoneAtOrigin));
                for op in pending.chain(exposed) {
                    let found =
                        self.check_against_op(state, (p, rank), op, (place, *access), &t.span)?;
                    violations.extend(found.into_iter().map(|v| reach.qualify(v)));
                }
                // Accesses are recorded in fence epochs and in the
                // process's exposure epochs (`pscw.rs`) only: a passive
                // target's accesses are interleaved with the operations
                // instead (`passive.rs`).
                let Some(r) = rank.filter(|&r| {
                    w.epoch == Epoch::Fence || w.posts.iter().any(|post| post.target == r as u32)
                }) else {
                    continue;
                };
                let f = self.ctx.f;
                if let Some(at) = offset_in(&w.memory[r].base, place, f) {
                    record.push(LocalAccess {
                        rank: r as u32,
                        at,
                        access: *access,
                        reach: *reach,
                        line,
                    });
                }
            }
            if !record.is_empty() {
                let s = state.inner_mut();
                if let Some(w) = Arc::make_mut(&mut s.windows)[k].as_mut() {
                    for a in record {
                        if !w.local.contains(&a) {
                            w.local.push(a);
                        }
                    }
                }
            }
        }
        Ok(violations)
    }

    /// Checks `claim` (the access of process `p` at `span` misses the
    /// operation's memory) as a `local-concurrency` property, with `message`.
    fn check_local_concurrency(
        &mut self,
        state: &mut State,
        p: usize,
        claim: Expr,
        message: String,
        span: &Span,
        violations: &mut Vec<Violation>,
    ) -> Result<(), EngineError> {
        self.as_process(state, p, violations, |ev, env| {
            ev.check(&*env, claim, Property::LocalConcurrency, || message, span);
            Ok(())
        })
    }

    /// The violation of one access of process `p` (rank `rank` in the
    /// window) against operation `op`, if they can conflict (for an
    /// operation done at its origin, only at its target).
    fn check_against_op(
        &mut self,
        state: &mut State,
        (p, rank): (usize, Option<usize>),
        (op, stage): (&PendingOp, OpStage),
        (place, access): (&Place, Access),
        span: &Span,
    ) -> Result<Vec<Violation>, EngineError> {
        let f = self.ctx.f;
        let line = self.line_of(op.at);
        let mut violations = Vec::new();
        let w_base = state
            .inner
            .windows
            .iter()
            .flatten()
            .find(|w| w.ops.contains(op) || w.exposed.contains(op))
            .map(|w| w.memory[op.target as usize].base.clone());
        let verb = if access == Access::Write {
            "writes"
        } else {
            "reads"
        };
        if rank == Some(op.target as usize) && conflicts_at_target(op.kind, access) {
            if let Some(at) = w_base.and_then(|b| offset_in(&b, place, f)) {
                let (lo, hi) = op.elements();
                let claim = outside(f, at, lo, hi);
                let message = format!(
                    "process {p} {verb} its window memory that {} of process {} (line {line}) \
                     accesses in the same epoch{}",
                    self.op_name(op),
                    op.origin,
                    match stage {
                        OpStage::Pending => "",
                        OpStage::DoneAtOrigin => " (its exposure epoch is open until MPI_Win_wait)",
                    }
                );
                self.check_local_concurrency(state, p, claim, message, span, &mut violations)?;
            }
        }
        if stage == OpStage::DoneAtOrigin {
            return Ok(violations);
        }
        let compare = op.compare.as_ref().map(|(_, b)| b);
        if let Some(at) = compare
            .filter(|_| op.origin as usize == p && access == Access::Write)
            .and_then(|b| offset_in(b, place, f))
        {
            let claim = outside(f, at, 0, op.count);
            let message = format!(
                "process {p} writes the compare buffer of its {} (line {line}) before the \
                 epoch's synchronisation completes it",
                op.kind.name()
            );
            self.check_local_concurrency(state, p, claim, message, span, &mut violations)?;
        }
        let held = op.hold != OriginHold::Released;
        if op.origin as usize == p && held && conflicts_at_origin(op.kind, access) {
            if let Some(at) = offset_in(&op.buffer, place, f) {
                let claim = outside(f, at, 0, op.count);
                let name = self.op_name(op);
                let until = match op.hold {
                    OriginHold::Request(_) => {
                        "the wait or test of its request (or the epoch's synchronisation)"
                    }
                    _ => "the epoch's synchronisation",
                };
                let message = format!(
                    "process {p} {verb} the origin buffer of its {name} (line {line}) before \
                     {until} completes it"
                );
                self.check_local_concurrency(state, p, claim, message, span, &mut violations)?;
            }
        }
        Ok(violations)
    }

    /// The MPI function that issued `op`, for messages (`MPI_Rget` for a
    /// get it issued).
    pub(super) fn op_name(&self, op: &PendingOp) -> &'static str {
        let body = self.ctx.model.function(op.at.0).body.as_ref();
        match body.map(|b| &b.transition(op.at.1).statement) {
            Some(Statement::Call {
                callee:
                    Callee::Library(
                        lf @ (LF::MpiRput
                        | LF::MpiRget
                        | LF::MpiRaccumulate
                        | LF::MpiRgetAccumulate),
                    ),
                ..
            }) => lf.c_name(),
            _ => op.kind.name(),
        }
    }

    /// Checks a new operation against the accesses its target recorded in
    /// the epoch before it was issued.
    pub(super) fn check_recorded_accesses(
        &mut self,
        state: &mut State,
        p: usize,
        op: &PendingOp,
        recorded: &[LocalAccess],
        span: &Span,
    ) -> Result<Vec<Violation>, EngineError> {
        let f = self.ctx.f;
        let (lo, hi) = op.elements();
        let mut violations = Vec::new();
        for a in recorded {
            if a.rank != op.target || !conflicts_at_target(op.kind, a.access) {
                continue;
            }
            let claim = outside(f, a.at, lo, hi);
            let verb = if a.access == Access::Write {
                "writes"
            } else {
                "reads"
            };
            let message = format!(
                "{} of process {p} accesses window memory that its target {verb} locally \
                 (line {}) in the same epoch",
                self.op_name(op),
                a.line
            );
            let mut found = Vec::new();
            self.check_local_concurrency(state, p, claim, message, span, &mut found)?;
            violations.extend(found.into_iter().map(|v| a.reach.qualify(v)));
        }
        Ok(violations)
    }
}
