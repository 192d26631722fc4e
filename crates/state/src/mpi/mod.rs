//! MPI in the engine: which MPI calls are enabled in a state, what executing
//! them does, potential deadlock, and the MPI checks at termination.
//!
//! Point-to-point messages live in the state's message buffer (ordered by
//! sender, receiver, issue order, so the first match from a sender is the one
//! MPI's non-overtaking rule delivers). A standard send always buffers; the
//! zero-buffer behaviour the MPI standard also allows is covered by
//! [`potentially_deadlocked`]: a state where no process could move if no pending
//! send were buffered is a potential deadlock. A receive is enabled once a
//! matching message is buffered, once per possible sender for `MPI_ANY_SOURCE`.
//! `MPI_Sendrecv` runs in two steps (its send, then its receive), as MPI says it
//! behaves: like a nonblocking send and a receive completed together.
//! Collectives on `MPI_COMM_WORLD` are one synchronous step of all processes,
//! enabled when every process has reached a collective call; calls that do not
//! agree (kind, root, op, count, datatype) are a `collective-mismatch`.

use std::sync::Arc;

use tass_dynamic::api::{Handle, Message, Step as PStep, Value};
use tass_model::api::{
    Callee, Expr as MExpr, ExprKind, LibraryConstant as LC, LibraryFunction as LF, LocationId,
    Model, Span, Statement, TransitionId,
};
use tass_semantics::api::{
    Certainty, Change, Decision, EngineError, Environment, Evaluator, Oracle, Property, Violation,
};
use tass_symbolic::api::{Expr, ExprFactory, Type};

use crate::engine::Step;
use crate::env::{Layout, ProcEnv};
use crate::state::{State, Status};

mod buffer;
mod collective;

use buffer::{
    check_rank, concrete, datatype, holds, read_buffer, scalar_of, type_name, write_buffer,
};
use collective::{collective, is_collective};

/// The MPI part of a process's state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct MpiProc {
    /// 0 before `MPI_Init`, 1 between `MPI_Init` and `MPI_Finalize`, 2 after.
    pub phase: u8,
    /// The send half of the `MPI_Sendrecv` the process is at is done.
    pub sendrecv_sent: bool,
    /// The last value `MPI_Wtime` returned (the next one is not smaller).
    pub wtime: Option<Expr>,
}

/// The MPI call a process is about to make.
pub(crate) struct Call<'m> {
    lf: LF,
    args: &'m [MExpr],
    lhs: Option<&'m MExpr>,
    tid: TransitionId,
    target: LocationId,
    span: &'m Span,
}

pub(crate) fn current_call<'m>(model: &'m Model, state: &State, p: usize) -> Option<Call<'m>> {
    let ps = state.inner.procs.get(p)?;
    if ps.status != Status::Running {
        return None;
    }
    let fr = ps.stack.last()?;
    let body = model.function(fr.function).body.as_ref()?;
    body.outgoing(fr.location)
        .find_map(|(tid, t, target)| match &t.statement {
            Statement::Call {
                lhs,
                callee: Callee::Library(lf),
                args,
            } if lf.is_mpi() => Some(Call {
                lf: *lf,
                args,
                lhs: lhs.as_ref(),
                tid,
                target,
                span: &t.span,
            }),
            _ => None,
        })
}

/// True if `e` mentions a shared output variable (a step writing through it is
/// visible to the other processes).
fn mentions_output(model: &Model, e: &MExpr) -> bool {
    let mut found = false;
    e.visit(&mut |x| {
        if let ExprKind::Var(v) = &x.kind {
            if model.var(*v).scope == tass_model::api::VarScope::Output {
                found = true;
            }
        }
    });
    found
}

fn is_standard_send(lf: LF) -> bool {
    matches!(lf, LF::MpiSend | LF::MpiSsend | LF::MpiBsend | LF::MpiRsend)
}

/// The functions this module implements; any other MPI call is an error naming it.
fn is_implemented(lf: LF) -> bool {
    is_collective(lf)
        || is_standard_send(lf)
        || matches!(
            lf,
            LF::MpiInit
                | LF::MpiFinalize
                | LF::MpiCommRank
                | LF::MpiCommSize
                | LF::MpiRecv
                | LF::MpiSendrecv
                | LF::MpiGetCount
                | LF::MpiAbort
                | LF::MpiWtime
        )
}

/// Shared context of the engine the functions here need.
pub(crate) struct Ctx<'a> {
    pub model: &'a Model,
    pub f: &'a ExprFactory,
    pub layout: &'a Layout,
}

impl Ctx<'_> {
    fn env<'s>(&'s self, state: &'s mut State, proc: usize) -> ProcEnv<'s> {
        ProcEnv {
            state,
            proc,
            model: self.model,
            factory: self.f,
            layout: self.layout,
        }
    }

    /// The concrete integer value of `e` for process `p` (no checks), if it has one.
    fn peek_int(
        &self,
        oracle: &mut Oracle,
        state: &mut State,
        p: usize,
        e: &MExpr,
    ) -> Result<Option<i64>, EngineError> {
        let env = self.env(state, p);
        let mut ev = Evaluator::new(self.f, oracle, p, false);
        let v = ev.eval_int(&env, e)?;
        Ok(self
            .f
            .as_concrete_int(v)
            .and_then(|k| i64::try_from(k).ok()))
    }
}

pub(crate) const ANY: i64 = -1;
pub(crate) const PROC_NULL: i64 = -2;

fn tag_matches(wanted: i64, tag: &Expr, f: &ExprFactory) -> bool {
    wanted == ANY || f.as_concrete_int(*tag).and_then(|t| i64::try_from(t).ok()) == Some(wanted)
}

/// Index of the first buffered message from `source` to `dest` whose tag matches.
fn first_match(
    messages: &[Message],
    f: &ExprFactory,
    source: u32,
    dest: u32,
    tag: i64,
) -> Option<usize> {
    messages.iter().position(|m| {
        m.source == source && m.dest == dest && m.comm == 0 && tag_matches(tag, &m.tag, f)
    })
}

/// The argument positions of the rank (destination or source) and the tag of
/// the point-to-point operation a process at `call` performs next, and whether
/// it is a receive.
fn p2p_args(call: &Call<'_>, sendrecv_sent: bool) -> Option<(usize, usize, bool)> {
    match call.lf {
        lf if is_standard_send(lf) => Some((3, 4, false)),
        LF::MpiSendrecv if !sendrecv_sent => Some((3, 4, false)),
        LF::MpiSendrecv => Some((8, 9, true)),
        LF::MpiRecv => Some((3, 4, true)),
        _ => None,
    }
}

/// The value of rank expression `r` under path condition `pc` when it is
/// determined: concrete, or provably one of the ranks or special values.
fn resolve_rank(f: &ExprFactory, oracle: &mut Oracle, pc: Expr, r: Expr, n: usize) -> Option<i64> {
    if let Some(k) = f.as_concrete_int(r) {
        return i64::try_from(k).ok();
    }
    (-2..n as i64).find(|&v| matches!(oracle.valid(f, pc, f.eq(r, f.int(v))), Decision::Holds))
}

/// The value of integer argument `e` of process `p` (no checks).
fn peek(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &mut State,
    p: usize,
    e: &MExpr,
) -> Result<Expr, EngineError> {
    let env = ctx.env(state, p);
    let mut ev = Evaluator::new(ctx.f, oracle, p, false);
    ev.eval_int(&env, e)
}

/// The receive (source, tag) a process at `call` waits for, if it is at one and
/// both are determined.
fn pending_receive(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &mut State,
    p: usize,
    call: &Call<'_>,
) -> Result<Option<(i64, i64)>, EngineError> {
    let Some((src, tag, true)) = p2p_args(call, state.inner.procs[p].mpi.sendrecv_sent) else {
        return Ok(None);
    };
    let n = state.inner.procs.len();
    let pc = state.inner.pc;
    let s = peek(ctx, oracle, state, p, &call.args[src])?;
    let t = peek(ctx, oracle, state, p, &call.args[tag])?;
    let s = resolve_rank(ctx.f, oracle, pc, s, n);
    let t = ctx.f.as_concrete_int(t).and_then(|t| i64::try_from(t).ok());
    Ok(s.zip(t))
}

/// Adds to `steps` the steps of the MPI call `base` (enabled by its guard): none
/// while a receive has no matching message or a collective waits for the other
/// processes, one per possible sender for a wildcard receive, else `base`.
pub(crate) fn push_steps(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    scratch: &mut State,
    base: Step,
    steps: &mut Vec<Step>,
) -> Result<(), EngineError> {
    let p = base.process;
    let Some(call) = current_call(ctx.model, scratch, p).filter(|c| c.tid == base.transition)
    else {
        steps.push(base);
        return Ok(());
    };
    if !is_implemented(call.lf) || scratch.inner.procs[p].mpi.phase != 1 {
        // Executing it reports the error or the init/finalize violation.
        steps.push(base);
        return Ok(());
    }
    if is_collective(call.lf) {
        // One step for all processes, owned by rank 0, once all have arrived.
        if p != 0 {
            return Ok(());
        }
        let n = scratch.inner.procs.len();
        let all = (0..n).all(|q| {
            current_call(ctx.model, scratch, q).is_some_and(|c| is_collective(c.lf))
                && scratch.inner.procs[q].mpi.phase == 1
        });
        if all {
            steps.push(base);
        }
        return Ok(());
    }
    let sent = scratch.inner.procs[p].mpi.sendrecv_sent;
    let Some((rank_arg, tag_arg, is_receive)) = p2p_args(&call, sent) else {
        let own_state_only = matches!(
            call.lf,
            LF::MpiInit | LF::MpiFinalize | LF::MpiCommRank | LF::MpiCommSize | LF::MpiGetCount
        ) && !call.args.iter().any(|a| mentions_output(ctx.model, a));
        steps.push(Step {
            commutes: own_state_only,
            ..base
        });
        return Ok(());
    };
    let f = ctx.f;
    let n = scratch.inner.procs.len();
    let pc = scratch.inner.pc;
    let rank = peek(ctx, oracle, scratch, p, &call.args[rank_arg])?;
    // A rank that depends on the inputs: one step per value it can take (and one
    // for "none of the valid ones", which reports the bad rank).
    let cases: Vec<(Option<Expr>, Option<i64>)> = match resolve_rank(f, oracle, pc, rank, n) {
        Some(v) => vec![(None, Some(v))],
        None => {
            let mut cases = Vec::new();
            let mut others = f.tt();
            for v in -2..n as i64 {
                let g = f.eq(rank, f.int(v));
                others = f.and(others, f.not(g));
                if !oracle.is_unsat(f, f.and(pc, g)) {
                    cases.push((Some(g), Some(v)));
                }
            }
            if !oracle.is_unsat(f, f.and(pc, others)) {
                cases.push((Some(others), None));
            }
            cases
        }
    };
    for (guard, value) in cases {
        let step = match guard {
            None => base.clone(),
            Some(g) => Step {
                guard: f.and(base.guard, g),
                guard_known_true: false,
                ..base.clone()
            },
        };
        let source = match value {
            Some(v) if is_receive && (v == ANY || (0..n as i64).contains(&v)) => v,
            _ => {
                // a send, MPI_PROC_NULL (completes at once) or a bad rank (reported)
                let mut step = step;
                {
                    match value {
                        Some(PROC_NULL) => step.commutes = true,
                        Some(d) if !is_receive && (0..n as i64).contains(&d) => {
                            step.commutes = true;
                            if is_standard_send(call.lf) {
                                let tag = peek(ctx, oracle, scratch, p, &call.args[tag_arg])?;
                                let tag =
                                    f.as_concrete_int(tag).and_then(|t| i64::try_from(t).ok());
                                let waiting = match current_call(ctx.model, scratch, d as usize) {
                                    Some(rcall) => {
                                        pending_receive(ctx, oracle, scratch, d as usize, &rcall)?
                                            .is_some_and(|(s, t)| {
                                                (s == ANY || s == p as i64)
                                                    && (t == ANY || Some(t) == tag)
                                            })
                                    }
                                    None => false,
                                };
                                step.buffered_send = !waiting;
                            }
                        }
                        _ => {}
                    }
                }
                steps.push(step);
                continue;
            }
        };
        let commutes = source != ANY;
        let tag = peek(ctx, oracle, scratch, p, &call.args[tag_arg])?;
        let Some(tag) = f.as_concrete_int(tag).and_then(|t| i64::try_from(t).ok()) else {
            return Err(EngineError::unsupported(
                "MPI receive with a tag that depends on the inputs",
                call.span,
            ));
        };
        let sources: Vec<u32> = if source == ANY {
            (0..n as u32).collect()
        } else {
            vec![source as u32]
        };
        for s in sources {
            if first_match(&scratch.inner.messages, f, s, p as u32, tag).is_some() {
                steps.push(Step {
                    choice: Some(s),
                    commutes,
                    ..step.clone()
                });
            }
        }
    }
    Ok(())
}

/// True if `state` is a potential deadlock: some process has not terminated and
/// no process could move if no pending standard send were buffered (a send
/// moves only when its destination waits in a matching receive). `steps` are
/// the state's enabled steps (with buffering).
pub(crate) fn potentially_deadlocked(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &State,
    steps: &[Step],
) -> Result<bool, EngineError> {
    let mut scratch = state.clone();
    let n = state.inner.procs.len();
    for step in steps {
        let p = step.process;
        let Some(call) = current_call(ctx.model, state, p).filter(|c| c.tid == step.transition)
        else {
            return Ok(false); // a step that is not an MPI call
        };
        if !is_standard_send(call.lf) {
            return Ok(false);
        }
        let dest = peek(ctx, oracle, &mut scratch, p, &call.args[3])?;
        let dest = resolve_rank(
            ctx.f,
            oracle,
            ctx.f.and(state.inner.pc, step.guard),
            dest,
            n,
        );
        let (Some(dest), Some(tag)) = (dest, ctx.peek_int(oracle, &mut scratch, p, &call.args[4])?)
        else {
            return Ok(false);
        };
        if dest == PROC_NULL
            || dest < 0
            || dest as usize >= n
            || scratch.inner.procs[p].mpi.phase != 1
        {
            return Ok(false);
        }
        let d = dest as usize;
        if let Some(rcall) = current_call(ctx.model, state, d) {
            if let Some((s, t)) = pending_receive(ctx, oracle, &mut scratch, d, &rcall)? {
                if (s == ANY || s == p as i64) && (t == ANY || t == tag) {
                    return Ok(false);
                }
            }
        }
    }
    Ok(state
        .inner
        .procs
        .iter()
        .any(|ps| ps.status == Status::Running))
}

/// What the processes that have not terminated wait for, one phrase each (for
/// deadlock reports).
pub(crate) fn blocked_calls(model: &Model, state: &State) -> Vec<(usize, String)> {
    (0..state.inner.procs.len())
        .filter_map(|p| {
            let call = current_call(model, state, p)?;
            let text = model
                .function(state.inner.procs[p].stack.last()?.function)
                .body
                .as_ref()
                .map(|b| b.transition(call.tid).source_text.clone())
                .unwrap_or_default();
            Some((p, format!("{} ({text})", call.lf.c_name())))
        })
        .collect()
}

/// The MPI checks at a final state: processes that initialised MPI and ended
/// without `MPI_Finalize`; messages never received.
pub(crate) fn termination_checks(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &State,
) -> Vec<Violation> {
    let f = ctx.f;
    let mut out = Vec::new();
    let (certainty, witness) = match oracle.valid(f, state.inner.pc, f.ff()) {
        Decision::Holds => return out,
        Decision::Fails { witness } => (Certainty::Provable, witness),
        Decision::Unknown => (Certainty::Possible, None),
    };
    let span_of = |p: usize| -> Span {
        match &state.inner.procs[p].status {
            Status::Terminated {
                at: Some((func, loc)),
                ..
            } => ctx
                .model
                .function(*func)
                .body
                .as_ref()
                .map(|b| b.location(*loc).span.clone())
                .unwrap_or_else(|| ctx.model.function(*func).span.clone()),
            _ => ctx.model.function(ctx.model.main).span.clone(),
        }
    };
    for (p, ps) in state.inner.procs.iter().enumerate() {
        if ps.mpi.phase == 1 {
            out.push(Violation {
                property: Property::MpiInitFinalize,
                certainty,
                message: format!("process {p} terminates without calling MPI_Finalize"),
                span: span_of(p),
                process: p,
                witness: witness.clone(),
                claim: "every process that calls MPI_Init calls MPI_Finalize".into(),
            });
        }
    }
    if let Some(m) = state.inner.messages.first() {
        let list: Vec<String> = state
            .inner
            .messages
            .iter()
            .map(|m| format!("{} -> {} (tag {})", m.source, m.dest, f.pretty(m.tag)))
            .collect();
        out.push(Violation {
            property: Property::UnreceivedMessage,
            certainty,
            message: format!(
                "{} message(s) sent but never received: {}",
                list.len(),
                list.join(", ")
            ),
            span: span_of(m.dest as usize),
            process: m.dest as usize,
            witness,
            claim: "every message sent is received".into(),
        });
    }
    out
}

/// What executing an MPI step produced: violations and changed variables.
type MpiOutcome = Result<(Vec<Violation>, Vec<Change>), EngineError>;

/// Executes `step` if it is an MPI call (`None` otherwise): the violations and
/// changes of the step.
pub(crate) fn execute(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &mut State,
    step: &Step,
) -> Option<MpiOutcome> {
    let call = current_call(ctx.model, state, step.process).filter(|c| c.tid == step.transition)?;
    Some(execute_call(ctx, oracle, state, step, &call))
}

fn execute_call(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &mut State,
    step: &Step,
    call: &Call<'_>,
) -> Result<(Vec<Violation>, Vec<Change>), EngineError> {
    let f = ctx.f;
    let p = step.process;
    if !is_implemented(call.lf) {
        return Err(EngineError::unsupported(
            format!("not yet supported: {}", call.lf.c_name()),
            call.span,
        ));
    }
    let phase = state.inner.procs[p].mpi.phase;
    if is_collective(call.lf) && phase == 1 {
        return collective(ctx, oracle, state);
    }
    let mut env = ctx.env(state, p);
    let mut ev = Evaluator::new(f, oracle, p, true);
    if !step.guard_known_true {
        ev.assumed.push(step.guard);
    }
    let name = call.lf.c_name();
    let mut moved = true;
    match (call.lf, phase) {
        (LF::MpiInit, 0) => set_mpi(&mut env, |m| m.phase = 1),
        (LF::MpiInit, _) => ev.fail(
            &env,
            Property::MpiInitFinalize,
            "MPI_Init called a second time".into(),
            call.span,
        ),
        (LF::MpiWtime, _) => {
            let t = f.fresh_symbol("MPI_Wtime", Type::Real);
            let last = env.state.inner.procs[p].mpi.wtime;
            ev.assumed
                .push(f.le(last.unwrap_or_else(|| f.zero(&Type::Real)), t));
            set_mpi(&mut env, |m| m.wtime = Some(t));
            if let Some(lhs) = call.lhs {
                let place = ev.eval_place(&env, lhs, false)?;
                ev.write_place(&mut env, &place, Value::Data(t), call.span)?;
            }
            let pc = ev.current_pc(&env);
            env.set_location(call.target);
            env.set_path_condition(pc);
            return Ok((ev.violations, Vec::new()));
        }
        (_, 0) => ev.fail(
            &env,
            Property::MpiInitFinalize,
            format!("{name} called before MPI_Init"),
            call.span,
        ),
        (_, 2) => ev.fail(
            &env,
            Property::MpiInitFinalize,
            format!("{name} called after MPI_Finalize"),
            call.span,
        ),
        (LF::MpiFinalize, _) => set_mpi(&mut env, |m| m.phase = 2),
        (LF::MpiAbort, _) => {
            check_comm(&mut ev, &env, &call.args[0], call.span)?;
            ev.fail(
                &env,
                Property::Assertion,
                "MPI_Abort is called: the program aborts".into(),
                call.span,
            );
            let pc = ev.current_pc(&env);
            env.set_location(call.target);
            env.terminate(None);
            env.set_path_condition(pc);
            return Ok((ev.violations, Vec::new()));
        }
        (LF::MpiCommRank | LF::MpiCommSize, _) => {
            check_comm(&mut ev, &env, &call.args[0], call.span)?;
            let value = if call.lf == LF::MpiCommRank {
                p
            } else {
                env.nprocs()
            };
            let ptr = ev.eval(&env, &call.args[1])?;
            let place = ev.deref_place(&env, ptr, false, call.span, &|| name.to_string())?;
            ev.write_place(
                &mut env,
                &place,
                Value::Data(f.int(value as i64)),
                call.span,
            )?;
        }
        (LF::MpiGetCount, _) => {
            let st = ev.eval(&env, &call.args[0])?;
            let (root, mut path) =
                ev.deref_place(&env, st, false, call.span, &|| "status".into())?;
            path.push(PStep::Field(3));
            let count = ev.read_place(&env, &(root, path));
            let count = match count {
                Value::Data(c) => c,
                _ => f.fresh_symbol("undef", Type::Int),
            };
            let ptr = ev.eval(&env, &call.args[2])?;
            let place = ev.deref_place(&env, ptr, false, call.span, &|| "count".into())?;
            ev.write_place(&mut env, &place, Value::Data(count), call.span)?;
        }
        (lf, _) if is_standard_send(lf) => {
            send(&mut ev, &mut env, &call.args[0..6], call.span)?;
        }
        (LF::MpiSendrecv, _) => {
            if env.state.inner.procs[p].mpi.sendrecv_sent {
                let mut a: Vec<MExpr> = call.args[5..10].to_vec();
                a.push(call.args[10].clone());
                a.push(call.args[11].clone());
                receive(&mut ev, &mut env, &a, step.choice, call.span)?;
                set_mpi(&mut env, |m| m.sendrecv_sent = false);
            } else {
                let mut a: Vec<MExpr> = call.args[0..5].to_vec();
                a.push(call.args[10].clone());
                send(&mut ev, &mut env, &a, call.span)?;
                set_mpi(&mut env, |m| m.sendrecv_sent = true);
                moved = false;
            }
        }
        (LF::MpiRecv, _) => {
            receive(&mut ev, &mut env, &call.args[0..7], step.choice, call.span)?;
        }
        (lf, _) => {
            return Err(EngineError::unsupported(
                format!("not yet supported: {}", lf.c_name()),
                call.span,
            ))
        }
    }
    if moved {
        write_success(&mut ev, &mut env, call)?;
        env.set_location(call.target);
    }
    let pc = ev.current_pc(&env);
    env.set_path_condition(pc);
    Ok((ev.violations, Vec::new()))
}

fn set_mpi(env: &mut ProcEnv<'_>, change: impl FnOnce(&mut MpiProc)) {
    let p = env.proc;
    let s = env.state.inner_mut();
    change(&mut Arc::make_mut(&mut s.procs[p]).mpi);
}

/// `lhs = MPI_SUCCESS` when the call's result is used.
pub(crate) fn write_success(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    call: &Call<'_>,
) -> Result<(), EngineError> {
    if let Some(lhs) = call.lhs {
        let place = ev.eval_place(&*env, lhs, false)?;
        let zero = Value::Data(ev.factory().int(0));
        ev.write_place(env, &place, zero, call.span)?;
    }
    Ok(())
}

pub(crate) fn check_comm(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    e: &MExpr,
    span: &Span,
) -> Result<(), EngineError> {
    match ev.eval(env, e)? {
        Value::Handle(Handle::Constant(LC::MpiCommWorld)) => Ok(()),
        other => Err(EngineError::unsupported(
            format!("communicator {other:?} (only MPI_COMM_WORLD is supported)"),
            span,
        )),
    }
}

/// `MPI_Send(buf, count, datatype, dest, tag, comm)`: buffers the message.
fn send(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    args: &[MExpr],
    span: &Span,
) -> Result<(), EngineError> {
    let f = ev.factory();
    let count = ev.eval_int(&*env, &args[1])?;
    let (_, ty) = datatype(ev, &*env, &args[2], span)?;
    let dest = ev.eval_int(&*env, &args[3])?;
    let tag = ev.eval_int(&*env, &args[4])?;
    check_comm(ev, &*env, &args[5], span)?;
    check_rank(ev, &*env, dest, false, "destination", span);
    let data = read_buffer(ev, &*env, &args[0], count, f.int(0), &ty, span)?;
    let n = env.nprocs();
    let pc = ev.current_pc(&*env);
    let Some(dest) = resolve_rank(f, ev.oracle(), pc, dest, n) else {
        if holds(ev, &*env, f.ff()) {
            return Ok(()); // the path is dead (a bad rank was reported)
        }
        return Err(EngineError::unsupported(
            "MPI send to a rank that depends on the inputs",
            span,
        ));
    };
    if dest < 0 || dest as usize >= env.nprocs() {
        return Ok(()); // MPI_PROC_NULL, or a bad rank already reported
    }
    let tag = concrete(ev, tag, "tag", span)?;
    let Some(data) = data else { return Ok(()) };
    env.enqueue(Message {
        source: env.proc as u32,
        dest: dest as u32,
        tag: f.int(tag),
        comm: 0,
        data: Value::Data(data),
        count,
    });
    Ok(())
}

/// `MPI_Recv(buf, count, datatype, source, tag, comm, status)` taking the first
/// matching message from `choice`.
fn receive(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    args: &[MExpr],
    choice: Option<u32>,
    span: &Span,
) -> Result<(), EngineError> {
    let f = ev.factory();
    let capacity = ev.eval_int(&*env, &args[1])?;
    let (_, ty) = datatype(ev, &*env, &args[2], span)?;
    let source = ev.eval_int(&*env, &args[3])?;
    let tag = ev.eval_int(&*env, &args[4])?;
    check_comm(ev, &*env, &args[5], span)?;
    check_rank(ev, &*env, source, true, "source", span);
    let zero_count = f.le(f.int(0), capacity);
    ev.check(
        &*env,
        zero_count,
        Property::MpiCount,
        || format!("negative count {} in MPI_Recv", f.pretty(capacity)),
        span,
    );
    let (msg_source, msg_tag, count) = match choice {
        None => (f.int(PROC_NULL), f.int(ANY), f.int(0)),
        Some(s) => {
            let tag = concrete(ev, tag, "tag", span)?;
            let me = env.proc as u32;
            let Some(k) = first_match(env.messages(), f, s, me, tag) else {
                return Err(EngineError::invalid(
                    "receive step without a matching message",
                    Some(span),
                ));
            };
            let Some(msg) = env.dequeue(k) else {
                return Err(EngineError::invalid("message vanished", Some(span)));
            };
            let Value::Data(data) = msg.data else {
                return Err(EngineError::invalid("message without data", Some(span)));
            };
            let sent_ty = scalar_of(&f.type_of(data));
            if sent_ty != ty {
                ev.fail(
                    &*env,
                    Property::MpiType,
                    format!(
                        "message of {} elements received as {} (datatype of the receive)",
                        type_name(&sent_ty),
                        type_name(&ty)
                    ),
                    span,
                );
            }
            let fits = f.le(msg.count, capacity);
            ev.check(
                &*env,
                fits,
                Property::BufferOverflow,
                || {
                    format!(
                        "message of {} elements overflows the receive buffer of {} elements",
                        f.pretty(msg.count),
                        f.pretty(capacity)
                    )
                },
                span,
            );
            write_buffer(ev, env, &args[0], capacity, f.int(0), data, msg.count, span)?;
            (f.int(s as i64), msg.tag, msg.count)
        }
    };
    let status = ev.eval(&*env, &args[6])?;
    if let Value::Pointer(_) = status {
        let (root, path) = ev.deref_place(&*env, status, false, span, &|| "status".into())?;
        for (k, v) in [(0u32, msg_source), (1, msg_tag), (2, f.int(0)), (3, count)] {
            let mut p = path.clone();
            p.push(PStep::Field(k));
            ev.write_place(env, &(root, p), Value::Data(v), span)?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn receives_take_the_first_matching_message_of_a_sender() {
        let f = ExprFactory::new();
        let msg = |source, dest, tag: i64, x: i64| Message {
            source,
            dest,
            tag: f.int(tag),
            comm: 0,
            data: Value::Data(f.int(x)),
            count: f.int(1),
        };
        let buffer = vec![
            msg(0, 1, 7, 1),
            msg(0, 1, 3, 2),
            msg(0, 1, 3, 3),
            msg(2, 1, 3, 4),
        ];
        assert_eq!(first_match(&buffer, &f, 0, 1, 3), Some(1));
        assert_eq!(first_match(&buffer, &f, 0, 1, ANY), Some(0));
        assert_eq!(first_match(&buffer, &f, 2, 1, 3), Some(3));
        assert_eq!(first_match(&buffer, &f, 2, 1, 7), None);
        assert_eq!(first_match(&buffer, &f, 1, 0, ANY), None);
    }
}
