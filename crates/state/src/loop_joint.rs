//! Joint loop invariants in `tass compare`
//! (`#pragma TASS joint invariant ID EXPR`, `spec.x` naming the
//! specification's variables): the specification's and the implementation's
//! invariant loops run as one composed system, and at each arrival at a loop
//! head the joint invariant relates the two programs' states.
//!
//! `compare` explores the specification first and the implementation second,
//! so the composed system is built from the two searches:
//!
//! - The specification (`JointSide::Specification`) treats its joint
//!   invariant loops as collective ones of its own (its expression, which
//!   cannot name `spec.x`, is checked, its write set gets fresh values
//!   `__tass_loop_spec_e*`, its expression is assumed, the back edge is cut)
//!   and marks every arrival in its joint snapshots ([`LoopMark`]): the path
//!   condition and values there, and on entry also the values after the fresh
//!   values and the loop condition (entering the body). The paths cut at a
//!   return are kept by the engine ([`cut_path`]) besides the completed ones.
//! - The implementation (`JointSide::Implementation`), when every process has
//!   arrived (`crate::loop_sync`), takes the occurrence k of its arrival and
//!   finds the specification's points that can be its partner: the k-th
//!   point of each specification path whose earlier points are the same
//!   loops and assertions in the same order and whose condition there is
//!   compatible with the implementation's. A compatible point of another kind
//!   (another loop, an assertion, the specification ended) is an `invariant`
//!   violation (the programs' loops are out of step). On entry the
//!   implementation's expression is checked against each partner's values
//!   (the base case), the write sets get fresh values, and the path goes on
//!   under the disjunction, over the partners, of "the specification's
//!   condition after its fresh values, the invariant on both programs' fresh
//!   values, and equal loop conditions" (that the loop conditions agree is
//!   checked first: otherwise one program can leave the loop while the other
//!   enters it). On return the expression is checked against each partner
//!   (preservation) and the path ends.
//!
//! Why this is the composed system's LISE: the composed state at the k-th
//! arrival is a pair of the specification's and the implementation's states,
//! under the conjunction of the two path conditions. The specification's
//! paths from its entry state stand for every iteration of its loop (its
//! fresh values are arbitrary but for its own expression), and the
//! implementation assumes the joint expression over both sides' fresh values
//! and the specification's path condition, so the pairs of paths explored
//! from the entry are exactly the composed system's iterations from an
//! arbitrary state satisfying the whole invariant (both expressions). The
//! checks at the returns are the induction step, the entry checks the base
//! case, and the exits (both loop conditions false together) lead to the
//! ends of the paths, whose outputs `compare` pairs as usual. The
//! specification's own expression must be inductive on its own (it cannot
//! lean on the implementation's): stricter than the composed invariant, never
//! weaker. Symbols made up here make every violation found under them
//! possible, never provable (`leans_on_loop_values`).

use std::sync::Arc;

use tass_model::api::{render_expr, LoopArrival, LoopInvariant, Model, Statement};
use tass_model::api::{FunctionId, TransitionId};
use tass_semantics::api::{
    evaluate_guard, EngineError, Environment, Evaluator, Oracle, Property, Violation,
};
use tass_symbolic::api::Expr;

use crate::loop_sync::{
    agree_on_guards, arrival_name, check_claims, enter_loop, havoc_all, Moment,
};
use crate::snapshot::{
    composite_env, composite_env_with_spec, joint_id, joint_points, AfterStep, JointPoint,
    JointSide, LoopMark, Snapshot, SnapshotCtx,
};
use crate::state::State;

/// The transition each process arrived at the loop head by.
type Arrived = [Option<(FunctionId, TransitionId)>];

/// A complete loop record of a joint invariant loop (every process
/// arrived): the transition each arrived by and the invariants' statements,
/// process by process.
pub(crate) struct JointRecord<'r> {
    pub arrived: &'r Arrived,
    pub invariants: &'r [&'r LoopInvariant],
}

impl AfterStep<'_, '_> {
    /// Acts on the complete loop record `record` of a joint invariant loop.
    pub(crate) fn complete_joint(
        &mut self,
        record: &JointRecord,
    ) -> Result<Vec<Violation>, EngineError> {
        match self.ctx.side {
            JointSide::Specification => self.specification_side(record),
            JointSide::Implementation => self.implementation_side(record),
        }
    }

    /// The specification's side: a collective invariant of its own, with
    /// every arrival marked in the joint snapshots.
    fn specification_side(&mut self, record: &JointRecord) -> Result<Vec<Violation>, EngineError> {
        let (ctx, oracle, state) = (self.ctx, &mut *self.oracle, &mut *self.state);
        let (arrived, invariants) = (record.arrived, record.invariants);
        let inv = invariants[0];
        let mut violations = Vec::new();
        match inv.arrival {
            LoopArrival::Entry => {
                let (before, pc) =
                    enter_loop(ctx, oracle, state, (invariants, "spec_e"), &mut violations)?;
                let guard = entering_guard(ctx, oracle, state, 0, inv)?;
                let after = Some((Arc::clone(&state.inner.procs[0]), state.inner.pc, guard));
                let mark = LoopMark {
                    arrival: LoopArrival::Entry,
                    pc,
                    after,
                };
                push_marks(state, arrived, &before, &mark);
            }
            LoopArrival::Return => {
                check_claims(
                    ctx,
                    oracle,
                    state,
                    invariants,
                    Moment::Return,
                    &mut violations,
                )?;
                let now: Vec<_> = state.inner.procs.iter().map(Arc::clone).collect();
                let mark = LoopMark {
                    arrival: LoopArrival::Return,
                    pc: state.inner.pc,
                    after: None,
                };
                push_marks(state, arrived, &now, &mark);
                // The back edge is cut; the engine keeps the path ([`cut_path`]).
                state.inner_mut().pc = ctx.f.ff();
            }
        }
        Ok(violations)
    }
}

/// Appends a joint snapshot of each process (its state `procs[q]`) marked
/// `mark`.
fn push_marks(state: &mut State, arrived: &Arrived, procs: &[Arc<ProcState>], mark: &LoopMark) {
    let step = state.inner.snapshots.steps;
    let nprocs = procs.len();
    let joint = Arc::make_mut(&mut state.inner_mut().snapshots.joint);
    joint.resize(nprocs, Vec::new());
    for (q, list) in joint.iter_mut().enumerate() {
        if let Some(at) = arrived.get(q).copied().flatten() {
            list.push(Snapshot::of_loop(
                Arc::clone(&procs[q]),
                at,
                step,
                mark.clone(),
            ));
        }
    }
}

use crate::state::ProcState;

/// The specification's side, after a step: the path just cut at the return
/// to a joint invariant loop's head (its condition there and its joint
/// points), if that step cut one.
pub(crate) fn cut_path(ctx: &SnapshotCtx, state: &State) -> Option<(Expr, Vec<JointPoint>)> {
    if ctx.side != JointSide::Specification || ctx.f.as_bool(state.inner.pc) != Some(false) {
        return None;
    }
    let last = state.inner.snapshots.joint.first()?.last()?;
    if last.loop_arrival() != Some(LoopArrival::Return) {
        return None;
    }
    let points = joint_points(ctx, state);
    let pc = points.last()?.mark.as_ref()?.pc;
    Some((pc, points))
}

/// The key a joint point is matched by: its ID and which loop arrival it is.
type PointKey<'a> = (Option<&'a str>, Option<LoopArrival>);

fn point_key(p: &JointPoint) -> PointKey<'_> {
    (Some(p.id.as_str()), p.loop_arrival())
}

impl AfterStep<'_, '_> {
    /// The implementation's side: the arrival checked against, and assumed
    /// with, the specification's partner points.
    fn implementation_side(&mut self, record: &JointRecord) -> Result<Vec<Violation>, EngineError> {
        let (ctx, oracle, state) = (self.ctx, &mut *self.oracle, &mut *self.state);
        let (arrived, invariants) = (record.arrived, record.invariants);
        let inv = invariants[0];
        let f = ctx.f;
        let history: Vec<PointKey> = state
            .inner
            .snapshots
            .joint
            .first()
            .map(|list| {
                list.iter()
                    .map(|s| (joint_id(ctx, s), s.loop_arrival()))
                    .collect()
            })
            .unwrap_or_default();
        let k = history.len();
        let pc_i = state.inner.pc;
        let mut partners: Vec<&JointPoint> = Vec::new();
        // This arrival's key after the history: a specification path is a
        // partner if its points so far have exactly these keys; one that can meet
        // this path but differs at some point (now or before: an assertion one
        // program reaches and the other does not) is out of step.
        let current: PointKey = (Some(inv.id.as_str()), Some(inv.arrival));
        for (pc_s, points) in ctx.spec_paths {
            let differs_at = (0..=k).find(|&d| {
                let want = if d < k { history[d] } else { current };
                points.get(d).map(point_key) != Some(want)
            });
            let at = points.get(differs_at.unwrap_or(k));
            let pc_at = at.and_then(|p| p.mark.as_ref()).map_or(*pc_s, |m| m.pc);
            if oracle.is_unsat(f, f.and(pc_i, pc_at)) {
                continue;
            }
            match (differs_at, at) {
                (None, Some(p)) => {
                    if !partners.contains(&p) {
                        partners.push(p);
                    }
                }
                (d, _) => {
                    let d = d.unwrap_or(k);
                    let what = match at {
                        Some(p) => format!(
                            "the specification reaches `{}` (line {}{})",
                            p.id,
                            p.line,
                            match p.loop_arrival() {
                                Some(a) => format!(", {}", arrival_name(a)),
                                None => String::new(),
                            }
                        ),
                        None => "the specification reaches no further joint point".to_string(),
                    };
                    let message = format!(
                    "joint loop invariant `{}`: the implementation arrives at the loop head ({}) \
                     as joint point {}, but at joint point {} {what} where the implementation \
                     reached {}: the two programs' invariant loops are out of step",
                    inv.id,
                    arrival_name(inv.arrival),
                    k + 1,
                    d + 1,
                    match (if d < k { history[d] } else { current }).0 {
                        Some(id) => format!("`{id}`"),
                        None => "another point".to_string(),
                    }
                );
                    let violations =
                        fail_under(ctx, oracle, state, f.and(pc_i, pc_at), inv, message);
                    state.inner_mut().pc = f.ff();
                    return Ok(violations);
                }
            }
        }
        if partners.is_empty() {
            // No path of the specification meets this one (it ended in a
            // violation, which is reported, or cannot run with these inputs).
            state.inner_mut().pc = f.ff();
            return Ok(Vec::new());
        }
        let mut violations = Vec::new();
        let asked_before = oracle.prover_questions();
        for p in &partners {
            let pc_s = p.mark.as_ref().map_or(pc_i, |m| m.pc);
            check_against(
                ctx,
                oracle,
                state,
                (invariants, p),
                (f.and(pc_i, pc_s), inv.arrival),
                &mut violations,
            )?;
        }
        oracle.count_invariant_check(oracle.prover_questions() - asked_before);
        match inv.arrival {
            LoopArrival::Entry => {
                let now: Vec<_> = state.inner.procs.iter().map(Arc::clone).collect();
                let mark = LoopMark {
                    arrival: LoopArrival::Entry,
                    pc: pc_i,
                    after: None,
                };
                push_marks(state, arrived, &now, &mark);
                havoc_all(ctx, state, invariants, "e")?;
                assume_with_partners(ctx, oracle, state, invariants, &partners, &mut violations)?;
                agree_on_guards(ctx, oracle, state, inv, &mut violations)?;
            }
            LoopArrival::Return => state.inner_mut().pc = f.ff(),
        }
        Ok(violations)
    }
}

/// After the implementation's fresh values: checks, for each partner, that
/// the loop conditions agree where the invariant holds, and assumes the
/// disjunction over the partners of their condition, the invariant and the
/// agreement.
fn assume_with_partners(
    ctx: &SnapshotCtx,
    oracle: &mut Oracle,
    state: &mut State,
    invariants: &[&LoopInvariant],
    partners: &[&JointPoint],
    violations: &mut Vec<Violation>,
) -> Result<(), EngineError> {
    let f = ctx.f;
    let inv = invariants[0];
    let pc_h = state.inner.pc;
    let guard_i = entering_guard(ctx, oracle, state, 0, inv)?;
    let asked_before = oracle.prover_questions();
    let mut disjuncts = Vec::new();
    for p in partners {
        let Some((values, pc_after, guard_s)) = p.mark.as_ref().and_then(|m| m.after.as_ref())
        else {
            continue;
        };
        let after = JointPoint {
            id: p.id.clone(),
            line: p.line,
            step: p.step,
            values: values.clone(),
            mark: None,
        };
        let mut claim = f.tt();
        let mut assumed = *pc_after;
        for (q, inv_q) in invariants.iter().enumerate() {
            let env = composite_env_with_spec(ctx, state, q, &after);
            let mut ev = Evaluator::without_checks(f, oracle, q);
            let c = ev.eval_bool(&env, &inv_q.condition)?;
            assumed = ev.assumed.drain(..).fold(assumed, |a, x| f.and(a, x));
            claim = f.and(claim, c);
        }
        let holds = f.and(assumed, claim);
        let same = f.eq(guard_i, *guard_s);
        let message = format!(
            "joint loop invariant `{}`: the implementation can leave the loop while the \
             specification enters it (or the other way round) on the same iteration: the \
             invariant does not make the two loop conditions agree (relate the loop counters, \
             e.g. `i == spec.i`)",
            inv.id
        );
        violations.extend(check_under(
            ctx,
            oracle,
            state,
            (f.and(pc_h, holds), same),
            inv,
            message,
        ));
        disjuncts.push(f.and(holds, same));
    }
    oracle.count_invariant_check(oracle.prover_questions() - asked_before);
    state.inner_mut().pc = f.and(pc_h, f.or_all(disjuncts));
    Ok(())
}

/// Checks every implementation process's expression with `spec.x` read in
/// `point`, under `pc` (the arrival's entry or return decides the message).
fn check_against(
    ctx: &SnapshotCtx,
    oracle: &mut Oracle,
    state: &mut State,
    (invariants, point): (&[&LoopInvariant], &JointPoint),
    (pc, arrival): (Expr, LoopArrival),
    violations: &mut Vec<Violation>,
) -> Result<(), EngineError> {
    let f = ctx.f;
    let saved = state.inner.pc;
    state.inner_mut().pc = pc;
    for (q, inv) in invariants.iter().enumerate() {
        let text = render_expr(ctx.model, &inv.condition);
        let mut env = composite_env_with_spec(ctx, state, q, point);
        let mut ev = Evaluator::checking(f, oracle, q);
        let c = ev.eval_bool(&env, &inv.condition)?;
        let pc = ev.assumed.drain(..).fold(pc, |a, x| f.and(a, x));
        env.set_path_condition(pc);
        let line = point.line;
        ev.check(
            &env,
            c,
            Property::Invariant,
            || match arrival {
                LoopArrival::Entry => format!(
                    "joint loop invariant `{}` does not hold on entry to the loop for \
                     implementation process {q}: `{text}` can be false when both programs first \
                     reach their loops (the specification's at line {line})",
                    inv.id
                ),
                LoopArrival::Return => format!(
                    "joint loop invariant `{}` is not preserved for implementation process {q}: \
                     `{text}` can be false when both programs come back to their loop heads \
                     after an iteration that began where it held (and both loop conditions \
                     were true; the specification's loop at line {line})",
                    inv.id
                ),
            },
            &inv.span,
        );
        violations.append(&mut ev.violations);
    }
    state.inner_mut().pc = saved;
    Ok(())
}

/// An `invariant` violation at `inv` under `pc` (none if `pc` cannot hold).
fn fail_under(
    ctx: &SnapshotCtx,
    oracle: &mut Oracle,
    state: &mut State,
    pc: Expr,
    inv: &LoopInvariant,
    message: String,
) -> Vec<Violation> {
    check_under(ctx, oracle, state, (pc, ctx.f.ff()), inv, message)
}

/// Checks `claim` under `pc` as an `invariant` claim at `inv`.
fn check_under(
    ctx: &SnapshotCtx,
    oracle: &mut Oracle,
    state: &mut State,
    (pc, claim): (Expr, Expr),
    inv: &LoopInvariant,
    message: String,
) -> Vec<Violation> {
    let saved = state.inner.pc;
    state.inner_mut().pc = pc;
    let env = composite_env(ctx, state, 0);
    let mut ev = Evaluator::checking(ctx.f, oracle, 0);
    ev.check(&env, claim, Property::Invariant, || message, &inv.span);
    let violations = std::mem::take(&mut ev.violations);
    state.inner_mut().pc = saved;
    violations
}

/// The implementation's side, at a final state: a path of the
/// specification that comes back to a joint invariant loop's head (a cut
/// path) and can meet this completed one is an iteration the implementation
/// did not make (it left the loop's body by `break`, `return` or `exit`, or
/// has no such loop): the loops are out of step.
pub(crate) fn unpaired_iterations(
    ctx: &SnapshotCtx,
    oracle: &mut Oracle,
    state: &State,
) -> Vec<Violation> {
    if ctx.side != JointSide::Implementation {
        return Vec::new();
    }
    let f = ctx.f;
    let pc_i = state.inner.pc;
    for (pc_s, points) in ctx.spec_paths {
        let Some(last) = points.last() else { continue };
        if last.loop_arrival() != Some(LoopArrival::Return) {
            continue;
        }
        let pc = f.and(pc_i, *pc_s);
        if oracle.is_unsat(f, pc) {
            continue;
        }
        let Some(inv) = joint_loop_named(ctx.model, &last.id) else {
            continue;
        };
        let message = format!(
            "joint loop invariant `{}`: the specification comes back to its loop head after an \
             iteration (line {}, joint point {}) where the implementation does not: it leaves \
             the loop's body another way (break, return, exit) or has no such iteration, so the \
             two programs' invariant loops are out of step",
            last.id,
            last.line,
            points.len()
        );
        let mut scratch = state.clone();
        return fail_under(ctx, oracle, &mut scratch, pc, inv, message);
    }
    Vec::new()
}

/// A joint invariant of the model with ID `id` (its entry's statement).
fn joint_loop_named<'m>(model: &'m Model, id: &str) -> Option<&'m LoopInvariant> {
    model.functions.iter().find_map(|func| {
        func.body
            .as_ref()?
            .graph
            .edge_weights()
            .find_map(|t| match &t.statement {
                Statement::LoopInvariant(inv) if inv.id == id => Some(inv),
                _ => None,
            })
    })
}

/// The condition under which process `q`, at the head of `inv`'s loop,
/// enters the body: the guard of the head's branch from which the loop's
/// return to the head can be reached (without passing the head).
fn entering_guard(
    ctx: &SnapshotCtx,
    oracle: &mut Oracle,
    state: &mut State,
    q: usize,
    inv: &LoopInvariant,
) -> Result<Expr, EngineError> {
    let refuse = || {
        EngineError::unsupported(
            format!(
                "joint loop invariant `{}`: tass cannot tell which branch of the loop head enters \
                 the loop (a joint invariant loop needs a loop condition, and a body that can come \
                 back to the head)",
                inv.id
            ),
            &inv.span,
        )
    };
    let Some(frame) = state.inner.procs[q].stack.last() else {
        return Err(refuse());
    };
    let (function, head) = (frame.function, frame.location);
    let entering: Vec<TransitionId> = ctx
        .model
        .function(function)
        .body
        .as_ref()
        .map(|body| {
            body.outgoing(head)
                .filter(|&(_, _, target)| body.reaches_loop_return((head, target), inv))
                .map(|(tid, _, _)| tid)
                .collect()
        })
        .unwrap_or_default();
    let [tid] = entering[..] else {
        return Err(refuse());
    };
    let env = ctx.env(state, q);
    evaluate_guard(ctx.model, ctx.f, oracle, &env, tid)
}
