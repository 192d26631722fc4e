//! Collective loop invariants over several processes
//! (`#pragma TASS collective invariant ID EXPR` with `-n > 1`, or on a loop
//! that communicates): the *aligned* form of loop-invariant symbolic
//! execution.
//!
//! Every process's arrival at the head of an invariant loop (its entry, or
//! the return after an iteration: `LoopArrival`) is recorded in a loop record
//! of the state, [`LoopSync`]; an arrived process waits there until every
//! process has arrived at the same loop the same way. Then, with all
//! processes at the head:
//!
//! - entry: the invariant is checked on the composite of the processes'
//!   states (`PROC[e].x`, `PROC[e]@f.x` read process `e`), every process's
//!   write set gets fresh values, the invariant is assumed, and so is that
//!   every process's loop condition has the same value (where that can fail,
//!   a process may leave the loop while another enters it: an `invariant`
//!   violation). The state now stands for the head at *every* iteration.
//! - return: the invariant is checked again (preservation) and the path ends
//!   (the back edge is cut, as in the one-process form).
//!
//! At both, the MPI state that crosses the loop head must be empty: no
//! message in flight, no request, no call half done, no collective assertion
//! snapshot, no window. Otherwise the run is refused (exit 2): an iteration's
//! communication that is not complete when every process is back at the head
//! is not covered by fresh values and the invariant.
//!
//! Why aligning the processes is sound: waiting at the head only removes
//! schedules. Programs whose outcome depends on the schedule (a receive from
//! `MPI_ANY_SOURCE`, tests, probes, `MPI_Waitany`) are refused
//! (`reject_schedule_dependence`), so every process's local history is the
//! same in every schedule: the k-th arrivals composed here are those of every
//! real run. A schedule that real runs have but the alignment blocks (one
//! process must run an iteration ahead, the paper's `stagger`, or a process
//! never reaches the loop) shows as a state where no process can move while
//! some wait at the head: the run is refused there ([`Engine::stuck_at_loop`]),
//! never reported as a deadlock and never passed. (If a process that has not
//! arrived has ended, that is an `invariant` violation instead.)
//!
//! [`Engine::stuck_at_loop`]: crate::api::Engine::stuck_at_loop

use std::sync::Arc;

use tass_model::api::mpi::MPI_ANY_SOURCE;
use tass_model::api::{
    render_expr, Callee, CollectiveKind, FunctionId, LoopArrival, LoopInvariant, Model, Span,
    Statement, Transition, TransitionId,
};
use tass_semantics::api::{
    evaluate_guard, havoc_write_set, EngineError, Environment, Evaluator, Havoc, Oracle, Property,
    Violation, LOOP_SYMBOL_PREFIX,
};
use tass_symbolic::api::{Expr, ExprFactory, Type};

use crate::mpi::Ctx;
use crate::snapshot::{composite_env, AfterStep, SnapshotCtx};
use crate::state::{State, Status};

/// An incomplete loop record: which processes have arrived at the head of
/// loop `id` (the transition each arrived by), entering or returning.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct LoopSync {
    id: String,
    arrival: LoopArrival,
    arrived: Vec<Option<(FunctionId, TransitionId)>>,
}

/// The loop invariant statement of a transition.
pub(crate) fn invariant_at(
    model: &Model,
    function: FunctionId,
    transition: TransitionId,
) -> Option<&LoopInvariant> {
    let body = model.function(function).body.as_ref()?;
    match &body.transition(transition).statement {
        Statement::LoopInvariant(inv) => Some(inv),
        _ => None,
    }
}

/// True if the engine aligns processes at loop heads for `model` with
/// `nprocs` processes: several processes and a loop invariant, or a loop
/// invariant on a loop that communicates.
pub(crate) fn aligns_loops(model: &Model, nprocs: usize) -> bool {
    model.functions.iter().any(|f| {
        f.body.as_ref().is_some_and(|b| {
            b.graph.edge_weights().any(|t| match &t.statement {
                Statement::LoopInvariant(inv) => {
                    nprocs > 1 || inv.communication.is_some() || inv.kind == CollectiveKind::Joint
                }
                _ => false,
            })
        })
    })
}

/// True if process `p` waits at a loop head for the others.
pub(crate) fn is_waiting(state: &State, p: usize) -> bool {
    state
        .inner
        .snapshots
        .loop_sync
        .as_ref()
        .is_some_and(|s| s.arrived.get(p).is_some_and(Option::is_some))
}

/// The `invariant` violation of process `p` of `state`, which has ended
/// while others wait for it at an invariant loop's head (it never arrives);
/// `message` says so.
pub(crate) fn ended_without_arriving(
    ctx: Ctx,
    oracle: &mut Oracle,
    (state, p): (&mut State, usize),
    span: &Span,
    message: impl FnOnce() -> String,
) -> Option<Violation> {
    let env = ctx.env(state, p);
    let mut ev = Evaluator::checking(ctx.f, oracle, p);
    ev.check(&env, ctx.f.ff(), Property::Invariant, message, span);
    ev.violations.pop()
}

/// How a process arrives at a loop head, in messages.
pub(crate) fn arrival_name(a: LoopArrival) -> &'static str {
    match a {
        LoopArrival::Entry => "entry",
        LoopArrival::Return => "return after an iteration",
    }
}

/// What a state where no process can move while some wait at a loop head
/// means (`None` if none waits): a violation when a process that did not
/// arrive has ended (it never arrives: the processes reach the loop head a
/// different number of times in every run, since their histories do not
/// depend on the schedule), else a refusal (the alignment of the
/// processes' iterations left out the runs where one is ahead).
pub(crate) fn stuck_outcome(
    ctx: Ctx,
    oracle: &mut Oracle,
    state: &mut State,
) -> Option<Result<Violation, EngineError>> {
    let sync = state.inner.snapshots.loop_sync.clone()?;
    let (function, transition) = sync.arrived.iter().flatten().next().copied()?;
    let inv = invariant_at(ctx.model, function, transition)?;
    let waiting: Vec<String> = (0..sync.arrived.len())
        .filter(|&p| sync.arrived[p].is_some())
        .map(|p| p.to_string())
        .collect();
    let ended: Vec<usize> = (0..sync.arrived.len())
        .filter(|&p| sync.arrived[p].is_none())
        .filter(|&p| matches!(state.inner.procs[p].status, Status::Terminated { .. }))
        .collect();
    if let Some(&p) = ended.first() {
        let message = || {
            format!(
                "collective loop invariant `{}`: process(es) {} arrive at the loop head ({}) but \
                 process {p} has ended without arriving: every process must take part in the \
                 loop and leave it on the same iteration",
                inv.id,
                waiting.join(", "),
                arrival_name(sync.arrival)
            )
        };
        return ended_without_arriving(ctx, oracle, (state, p), &inv.span, message).map(Ok);
    }
    let others: Vec<String> = (0..sync.arrived.len())
        .filter(|&p| sync.arrived[p].is_none())
        .map(|p| format!("process {p} cannot get there"))
        .collect();
    Some(Err(EngineError::unsupported(
        format!(
            "collective loop invariant `{}`: process(es) {} wait at the loop head ({}) but {}. \
             Either a process does not take part in the loop or leaves it on another iteration, \
             or the loop's communication needs a process to run an iteration ahead of another \
             (a message sent in one iteration is received in another); tass aligns the processes' \
             iterations at the loop head and cannot summarise that: bound the loop instead",
            inv.id,
            waiting.join(", "),
            arrival_name(sync.arrival),
            others.join(", ")
        ),
        &inv.span,
    )))
}

impl AfterStep<'_, '_> {
    /// If the step was the arrival at an invariant loop's head (several
    /// processes): records it and, when every process has arrived, acts on
    /// the record.
    pub(crate) fn record_aligned_arrival(&mut self) -> Result<Vec<Violation>, EngineError> {
        let (ctx, oracle, state, process) =
            (self.ctx, &mut *self.oracle, &mut *self.state, self.process);
        let (function, transition) = self.at;
        let nprocs = state.inner.procs.len();
        let Some(inv) = invariant_at(ctx.model, function, transition) else {
            return Ok(Vec::new());
        };
        if nprocs < 2 && inv.communication.is_none() && inv.kind != CollectiveKind::Joint {
            // one process, no communication: the classic form (`tass-semantics`)
            return Ok(Vec::new());
        }
        let mut sync = match state.inner.snapshots.loop_sync.as_deref() {
            Some(s) => s.clone(),
            None => LoopSync {
                id: inv.id.clone(),
                arrival: inv.arrival,
                arrived: vec![None; nprocs],
            },
        };
        if sync.id != inv.id || sync.arrival != inv.arrival {
            return Ok(self.end_out_of_order(inv, &met_waiting(&sync)));
        }
        sync.arrived[process] = Some((function, transition));
        if sync.arrived.iter().any(Option::is_none) {
            state.inner_mut().snapshots.loop_sync = Some(Arc::new(sync));
            return Ok(Vec::new());
        }
        state.inner_mut().snapshots.loop_sync = None;
        let invariants: Vec<&LoopInvariant> = sync
            .arrived
            .iter()
            .flatten()
            .filter_map(|&(f, t)| invariant_at(ctx.model, f, t))
            .collect();
        require_quiescent(state, inv)?;
        if inv.kind == CollectiveKind::Joint {
            let record = crate::loop_joint::JointRecord {
                arrived: &sync.arrived,
                invariants: &invariants,
            };
            return self.complete_joint(&record);
        }
        let mut violations = Vec::new();
        match inv.arrival {
            LoopArrival::Entry => {
                enter_loop(ctx, oracle, state, (&invariants, "e"), &mut violations)?;
            }
            LoopArrival::Return => {
                check_claims(
                    ctx,
                    oracle,
                    state,
                    &invariants,
                    Moment::Return,
                    &mut violations,
                )?;
                // The back edge is cut: this arbitrary iteration stands for all.
                state.inner_mut().pc = ctx.f.ff();
            }
        }
        Ok(violations)
    }
}

/// Where a process that arrived at a loop head while others wait at
/// another one (or at the same one the other way) met them, for
/// [`AfterStep::end_out_of_order`]: the loops are met in different orders,
/// or a process left a loop on an iteration where another went on.
fn met_waiting(sync: &LoopSync) -> String {
    let waiting: Vec<String> = (0..sync.arrived.len())
        .filter(|&p| sync.arrived[p].is_some())
        .map(|p| p.to_string())
        .collect();
    format!(
        "while process(es) {} wait at the loop head of `{}` ({})",
        waiting.join(", "),
        sync.id,
        arrival_name(sync.arrival)
    )
}

impl AfterStep<'_, '_> {
    /// Reports that the process arrived at the head of `inv`'s loop out of
    /// order with the others (`met` says where they are) and ends the path:
    /// the report both the joint record (`loop_sync`) and the lagged one
    /// (`loop_lag`) make.
    pub(crate) fn end_out_of_order(&mut self, inv: &LoopInvariant, met: &str) -> Vec<Violation> {
        let (ctx, oracle, state, process) =
            (self.ctx, &mut *self.oracle, &mut *self.state, self.process);
        let env = composite_env(ctx, state, process);
        let mut ev = Evaluator::checking(ctx.f, oracle, process);
        ev.check(
            &env,
            ctx.f.ff(),
            Property::Invariant,
            || {
                format!(
                "collective loop invariant `{}`: process {process} arrives at its loop head ({}) \
                 {met}: the processes meet the invariant loops in different orders, or one leaves \
                 a loop on an iteration where another goes on",
                inv.id,
                arrival_name(inv.arrival),
            )
            },
            &inv.span,
        );
        let violations = std::mem::take(&mut ev.violations);
        state.inner_mut().pc = ctx.f.ff();
        violations
    }
}

/// Refuses the run if some MPI state crosses the loop head.
pub(crate) fn require_quiescent(state: &State, inv: &LoopInvariant) -> Result<(), EngineError> {
    let s = &state.inner;
    let what = if let Some(m) = s.messages.first() {
        Some(format!(
            "a message from process {} to process {} is still in flight",
            m.source, m.dest
        ))
    } else if let Some(p) = s.procs.iter().position(|p| !p.mpi.requests.is_empty()) {
        Some(format!("process {p} has a request not completed"))
    } else if s.snapshots.queue_len_any() {
        Some("a collective assertion is waiting for other processes".to_string())
    } else if s.windows.iter().any(Option::is_some) {
        Some("a window of one-sided communication exists".to_string())
    } else {
        None
    };
    match what {
        None => Ok(()),
        Some(what) => Err(EngineError::unsupported(
            format!(
                "collective loop invariant `{}`: when every process is at the loop head, {what}; \
                 tass summarises a loop only when each iteration's communication is complete by \
                 the time all processes are back at its head (the fresh values and the invariant \
                 do not cover MPI state that crosses the head): bound the loop instead",
                inv.id
            ),
            &inv.span,
        )),
    }
}

/// How a violation names the invariant: a joint one here is the
/// specification's own part (the implementation's are checked in
/// `crate::loop_joint`).
fn kind_name(inv: &LoopInvariant) -> &'static str {
    match inv.kind {
        CollectiveKind::Joint => "joint loop invariant (the specification's own part)",
        CollectiveKind::Collective => "collective loop invariant",
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Moment {
    /// Before the first iteration: checked.
    Entry,
    /// After the fresh values: assumed.
    Assumed,
    /// After an iteration: checked (preservation).
    Return,
}

/// Evaluates every process's invariant on the composite state and checks
/// (or, after the fresh values, assumes) their conjunction; the path goes on
/// assuming it.
pub(crate) fn check_claims(
    ctx: &SnapshotCtx,
    oracle: &mut Oracle,
    state: &mut State,
    invariants: &[&LoopInvariant],
    moment: Moment,
    violations: &mut Vec<Violation>,
) -> Result<(), EngineError> {
    let asked_before = oracle.prover_questions();
    let mut claims = Vec::new();
    let mut pc = state.inner.pc;
    for (q, inv) in invariants.iter().enumerate() {
        let env = composite_env(ctx, state, q);
        let mut ev = Evaluator::checking(ctx.f, oracle, q);
        let c = ev.eval_bool(&env, &inv.condition)?;
        violations.append(&mut ev.violations);
        pc = ev.assumed.drain(..).fold(pc, |pc, a| ctx.f.and(pc, a));
        claims.push(c);
    }
    let all = ctx.f.and_all(claims.iter().copied());
    if moment == Moment::Assumed {
        state.inner_mut().pc = ctx.f.and(pc, all);
        return Ok(());
    }
    state.inner_mut().pc = pc;
    let proved = ctx.f.as_bool(all) == Some(true)
        || oracle.valid(ctx.f, pc, all) == tass_semantics::api::Decision::Holds;
    if !proved {
        for (q, (inv, c)) in invariants.iter().zip(claims).enumerate() {
            let text = render_expr(ctx.model, &inv.condition);
            let env = composite_env(ctx, state, q);
            let mut ev = Evaluator::checking(ctx.f, oracle, q);
            ev.check(
                &env,
                c,
                Property::Invariant,
                || match moment {
                    Moment::Return => format!(
                        "{} `{}` is not preserved for process {q}: `{text}` \
                         can be false when every process comes back to the loop head after an \
                         iteration that began where it held for all (and every loop condition \
                         was true)",
                        kind_name(inv),
                        inv.id
                    ),
                    _ => format!(
                        "{} `{}` does not hold on entry to the loop for \
                         process {q}: `{text}` can be false when every process first reaches it",
                        kind_name(inv),
                        inv.id
                    ),
                },
                &inv.span,
            );
            violations.append(&mut ev.violations);
            let pc = ev
                .assumed
                .drain(..)
                .fold(state.inner.pc, |pc, a| ctx.f.and(pc, a));
            state.inner_mut().pc = ctx.f.and(pc, c);
        }
    } else {
        state.inner_mut().pc = ctx.f.and(pc, all);
    }
    oracle.count_invariant_check(oracle.prover_questions() - asked_before);
    Ok(())
}

/// Gives every process's write set fresh values, named
/// `__tass_loop_{side}{entry}_p{q}_{k}` (`side` keeps the two programs of
/// `tass compare` apart).
/// The entry of an invariant loop with every process arrived (aligned and
/// joint records): the invariant is checked on entry, the write sets get
/// fresh values (named with `prefix`), the invariant is assumed of them and
/// the loop conditions must agree. Returns the processes and the path
/// condition just before the fresh values (the joint records keep them).
pub(crate) fn enter_loop(
    ctx: &SnapshotCtx,
    oracle: &mut Oracle,
    state: &mut State,
    (invariants, prefix): (&[&LoopInvariant], &str),
    violations: &mut Vec<Violation>,
) -> Result<(Vec<Arc<crate::state::ProcState>>, Expr), EngineError> {
    check_claims(ctx, oracle, state, invariants, Moment::Entry, violations)?;
    let before: Vec<_> = state.inner.procs.iter().map(Arc::clone).collect();
    let pc = state.inner.pc;
    havoc_all(ctx, state, invariants, prefix)?;
    check_claims(ctx, oracle, state, invariants, Moment::Assumed, violations)?;
    agree_on_guards(ctx, oracle, state, invariants[0], violations)?;
    Ok((before, pc))
}

pub(crate) fn havoc_all(
    ctx: &SnapshotCtx,
    state: &mut State,
    invariants: &[&LoopInvariant],
    side: &str,
) -> Result<(), EngineError> {
    let entry = {
        let snapshots = &mut state.inner_mut().snapshots;
        snapshots.loop_entries += 1;
        snapshots.loop_entries
    };
    let mut pc = state.inner.pc;
    for (q, inv) in invariants.iter().enumerate() {
        let mut env = ctx.env(state, q);
        let mut changes = Vec::new();
        // Named after the arrival (the how-many-th entry on this path, the
        // process, the value's place in the write set): every interleaving
        // that reaches this entry gives the same names, so the states after
        // it are equal and the search merges them (the paper's `canonic`).
        // Within a path the names are new: the count only grows.
        let mut k = 0usize;
        let mut fresh = |f: &ExprFactory, ty: Type| {
            k += 1;
            f.symbol(&format!("{LOOP_SYMBOL_PREFIX}_{side}{entry}_p{q}_{k}"), ty)
        };
        let havoc = Havoc {
            inv,
            span: &inv.span,
            fresh: &mut fresh,
        };
        for a in havoc_write_set(ctx.model, ctx.f, &mut env, havoc, &mut changes)? {
            pc = ctx.f.and(pc, a);
        }
    }
    state.inner_mut().pc = pc;
    Ok(())
}

/// Every process at the same loop head takes the same branch: the loop
/// conditions, evaluated on the fresh values, agree (checked, then assumed).
/// Processes at different heads (loops in different functions sharing an
/// ID) are not compared here: one that leaves while another goes on arrives
/// out of order or leaves the others waiting, which is reported then.
pub(crate) fn agree_on_guards(
    ctx: &SnapshotCtx,
    oracle: &mut Oracle,
    state: &mut State,
    inv: &LoopInvariant,
    violations: &mut Vec<Violation>,
) -> Result<(), EngineError> {
    let heads: Vec<_> = state
        .inner
        .procs
        .iter()
        .map(|p| p.stack.last().map(|fr| (fr.function, fr.location)))
        .collect();
    let Some(Some((function, head))) = heads.first().copied() else {
        return Ok(());
    };
    if heads.iter().any(|h| *h != Some((function, head))) {
        return Ok(());
    }
    let Some(body) = ctx.model.function(function).body.as_ref() else {
        return Ok(());
    };
    let Some((tid, _, _)) = body.outgoing(head).next() else {
        return Ok(());
    };
    if body.outgoing(head).count() < 2 {
        return Ok(());
    }
    let mut guards = Vec::new();
    for q in 0..heads.len() {
        let env = ctx.env(state, q);
        guards.push(evaluate_guard(ctx.model, ctx.f, oracle, &env, tid)?);
    }
    let asked_before = oracle.prover_questions();
    let f = ctx.f;
    for q in 1..guards.len() {
        let same = f.eq(guards[0], guards[q]);
        let env = composite_env(ctx, state, q);
        let mut ev = Evaluator::checking(f, oracle, q);
        ev.check(
            &env,
            same,
            Property::Invariant,
            || {
                format!(
                    "collective loop invariant `{}`: process {q} can leave the loop while \
                     process 0 enters it (or the other way round) on the same iteration: the \
                     invariant does not make the processes' loop conditions agree (if they \
                     do in every run, say that the processes are at the same iteration, \
                     e.g. `i == PROC[0]@main.i`)",
                    inv.id
                )
            },
            &inv.span,
        );
        violations.append(&mut ev.violations);
        let pc = state.inner.pc;
        state.inner_mut().pc = f.and(pc, same);
    }
    oracle.count_invariant_check(oracle.prover_questions() - asked_before);
    Ok(())
}

/// Refuses the run (the processes are aligned at invariant loops) if the
/// enabled transition `t` of process `p` is an MPI call whose outcome depends
/// on the schedule: a receive or probe whose source can be `MPI_ANY_SOURCE`,
/// a test, `MPI_Iprobe`, `MPI_Waitany`/`MPI_Waitsome`.
pub(crate) fn reject_schedule_dependence(
    ctx: &Ctx,
    oracle: &mut Oracle,
    state: &mut State,
    p: usize,
    t: &Transition,
) -> Result<(), EngineError> {
    let Statement::Call {
        callee: Callee::Library(lf),
        args,
        ..
    } = &t.statement
    else {
        return Ok(());
    };
    let name = lf.c_name();
    if schedule_dependent_call(name) {
        return Err(schedule_dependence_error(&format!("`{name}`"), &t.span));
    }
    let source = match name {
        "MPI_Recv" | "MPI_Irecv" | "MPI_Recv_init" => 3,
        "MPI_Probe" | "MPI_Mprobe" => 0,
        "MPI_Sendrecv" => 8,
        "MPI_Sendrecv_replace" => 5,
        _ => return Ok(()),
    };
    let Some(arg) = args.get(source) else {
        return Ok(());
    };
    let f = ctx.f;
    let env = ctx.env(state, p);
    let pc = env.path_condition();
    let mut ev = Evaluator::without_checks(f, oracle, p);
    // An argument that cannot be evaluated is reported when the call runs.
    let Ok(value) = ev.eval_int(&env, arg) else {
        return Ok(());
    };
    let any = f.eq(value, f.int(i128::from(MPI_ANY_SOURCE)));
    let may_be_any = match f.as_bool(any) {
        Some(b) => b,
        None => !oracle.is_unsat(f, f.and(pc, any)),
    };
    if may_be_any {
        return Err(schedule_dependence_error(
            &format!("`{name}` from `MPI_ANY_SOURCE`"),
            &t.span,
        ));
    }
    Ok(())
}

/// The calls [`reject_schedule_dependence`] refuses whatever their arguments.
fn schedule_dependent_call(name: &str) -> bool {
    matches!(
        name,
        "MPI_Test"
            | "MPI_Testall"
            | "MPI_Testany"
            | "MPI_Testsome"
            | "MPI_Waitany"
            | "MPI_Waitsome"
            | "MPI_Iprobe"
            | "MPI_Improbe"
            | "MPI_Win_lock"
            | "MPI_Win_lock_all"
    )
}

/// The refusal for a schedule-dependent step while collective loop
/// invariants align the processes.
fn schedule_dependence_error(what: &str, span: &Span) -> EngineError {
    EngineError::unsupported(
        format!(
            "{what} in a program with a collective loop invariant: its outcome depends on how far \
             the other processes have run, and tass's collective loop invariants align the \
             processes' iterations, which would leave out the runs where one process is ahead \
             (the paper's `race`); bound the loop instead"
        ),
        span,
    )
}
