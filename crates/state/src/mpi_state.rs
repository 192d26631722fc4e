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

use smallvec::SmallVec;
use tass_dynamic::api::{undefined_data, Handle, Message, Pointer, Root, Step as PStep, Value};
use tass_model::api::{
    Callee, Expr as MExpr, ExprKind, LibraryConstant as LC, LibraryFunction as LF, LocationId,
    Model, Span, Statement, TransitionId, Type as MType,
};
use tass_semantics::api::{
    scalar_type, Certainty, Change, Decision, EngineError, Environment, Evaluator, Oracle,
    Property, Violation,
};
use tass_symbolic::api::{BitOp, Expr, ExprFactory, Type};

use crate::engine::Step;
use crate::env::{Layout, ProcEnv};
use crate::state::{State, Status};

/// Concrete element counts up to this size are transferred element by element.
const CONCRETE_LIMIT: i64 = 4096;

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
struct Call<'m> {
    lf: LF,
    args: &'m [MExpr],
    lhs: Option<&'m MExpr>,
    tid: TransitionId,
    target: LocationId,
    span: &'m Span,
}

fn current_call<'m>(model: &'m Model, state: &State, p: usize) -> Option<Call<'m>> {
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

fn is_collective(lf: LF) -> bool {
    matches!(
        lf,
        LF::MpiBarrier
            | LF::MpiBcast
            | LF::MpiReduce
            | LF::MpiAllreduce
            | LF::MpiGather
            | LF::MpiScatter
            | LF::MpiAllgather
    )
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

const ANY: i64 = -1;
const PROC_NULL: i64 = -2;

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
fn write_success(
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

fn check_comm(
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

/// The symbolic element type of an MPI datatype.
fn datatype(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    e: &MExpr,
    span: &Span,
) -> Result<(LC, Type), EngineError> {
    let v = ev.eval(env, e)?;
    let Value::Handle(Handle::Constant(c)) = v else {
        return Err(EngineError::unsupported(
            format!("MPI datatype {v:?}"),
            span,
        ));
    };
    let ty = match c {
        LC::MpiInt | LC::MpiLong | LC::MpiUnsigned | LC::MpiLongLong => Type::Int,
        LC::MpiFloat | LC::MpiDouble => Type::Real,
        LC::MpiChar | LC::MpiByte => Type::Char,
        other => {
            return Err(EngineError::unsupported(
                format!("MPI datatype {}", other.c_name()),
                span,
            ))
        }
    };
    Ok((c, ty))
}

/// Checks a rank argument: in `0..n`, or one of the special values allowed.
fn check_rank(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    rank: Expr,
    allow_any: bool,
    what: &str,
    span: &Span,
) {
    let f = ev.factory();
    let n = env.nprocs() as i64;
    let mut claim = f.and(f.le(f.int(0), rank), f.lt(rank, f.int(n)));
    if what != "root" {
        claim = f.or(claim, f.eq(rank, f.int(PROC_NULL)));
    }
    if allow_any {
        claim = f.or(claim, f.eq(rank, f.int(ANY)));
    }
    ev.check(
        env,
        claim,
        Property::MpiRank,
        || {
            format!(
                "{what} rank {} is not a process of MPI_COMM_WORLD (0..{})",
                f.pretty(rank),
                n - 1
            )
        },
        span,
    );
}

fn concrete(ev: &Evaluator<'_>, e: Expr, what: &str, span: &Span) -> Result<i64, EngineError> {
    ev.factory()
        .as_concrete_int(e)
        .and_then(|k| i64::try_from(k).ok())
        .ok_or_else(|| EngineError::unsupported(format!("MPI call with a symbolic {what}"), span))
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

fn type_name(t: &Type) -> &'static str {
    match t {
        Type::Int => "integer",
        Type::Real => "floating",
        Type::Char => "char",
        Type::Bool => "boolean",
        _ => "compound",
    }
}

/// The scalar type at the bottom of (nested) array type `t`.
fn scalar_of(t: &Type) -> Type {
    match t {
        Type::Array(e, _) => scalar_of(e),
        other => other.clone(),
    }
}

/// Number of scalars in one element of array type `t` (1 for scalar elements).
fn inner_size(f: &ExprFactory, t: &Type) -> Option<Expr> {
    match t {
        Type::Array(e, _) => match &**e {
            Type::Array(_, Some(x)) => Some(f.mul(*x, inner_size(f, e)?)),
            Type::Array(_, None) => None,
            _ => Some(f.int(1)),
        },
        _ => Some(f.int(1)),
    }
}

/// Element `k` (flat, row-major) of (nested) data array `a`.
fn flat_read(f: &ExprFactory, a: Expr, k: Expr) -> Expr {
    let t = f.type_of(a);
    match (&t, inner_size(f, &t)) {
        (Type::Array(e, _), Some(s)) if matches!(&**e, Type::Array(..)) => {
            let row = f.array_read(a, f.int_div(k, s));
            flat_read(f, row, f.int_mod(k, s))
        }
        _ => f.array_read(a, k),
    }
}

/// The path (inside an array of type `t`) of flat element `k`.
fn flat_path(f: &ExprFactory, t: &Type, k: Expr, path: &mut SmallVec<[PStep; 2]>) {
    match (t, inner_size(f, t)) {
        (Type::Array(e, _), Some(s)) if matches!(&**e, Type::Array(..)) => {
            path.push(PStep::Index(f.int_div(k, s)));
            flat_path(f, e, f.int_mod(k, s), path);
        }
        _ => path.push(PStep::Index(k)),
    }
}

fn holds(ev: &mut Evaluator<'_>, env: &dyn Environment, claim: Expr) -> bool {
    let f = ev.factory();
    if let Some(b) = f.as_bool(claim) {
        return b;
    }
    let pc = ev.current_pc(env);
    matches!(ev.oracle().valid(f, pc, claim), Decision::Holds)
}

/// Where an MPI buffer argument points.
enum Buffer {
    /// Invalid pointer (reported; the path is dead) or null with count 0.
    Nothing,
    /// Element `start` of the data array at `prefix` of `root`.
    Array {
        root: Root,
        prefix: SmallVec<[PStep; 2]>,
        start: Expr,
        array: Expr,
    },
    /// A single scalar object.
    Scalar {
        place: (Root, SmallVec<[PStep; 2]>),
        value: Value,
        ty: Option<Type>,
    },
}

fn locate(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    arg: &MExpr,
    count: Expr,
    span: &Span,
) -> Result<Buffer, EngineError> {
    let f = ev.factory();
    let model = env.model();
    let nonneg = f.le(f.int(0), count);
    ev.check(
        env,
        nonneg,
        Property::MpiCount,
        || format!("negative count {} in an MPI call", f.pretty(count)),
        span,
    );
    let ptr = ev.eval(env, arg)?;
    if let Value::Pointer(Pointer::Null) = ptr {
        let zero = f.eq(count, f.int(0));
        ev.check(
            env,
            zero,
            Property::MpiCount,
            || {
                format!(
                    "count {} is positive but the buffer `{}` is NULL",
                    f.pretty(count),
                    tass_model::api::render_expr(model, arg)
                )
            },
            span,
        );
        return Ok(Buffer::Nothing);
    }
    let (root, mut path) = ev.deref_place(env, ptr, true, span, &|| {
        tass_model::api::render_expr(model, arg)
    })?;
    if matches!(
        root,
        Root::Heap {
            proc: u32::MAX,
            object: u32::MAX
        }
    ) {
        return Ok(Buffer::Nothing);
    }
    if let Some(PStep::Index(i)) = path.last().copied() {
        let prefix: SmallVec<[PStep; 2]> = path[..path.len() - 1].iter().copied().collect();
        if let Value::Data(a) = ev.read_place(env, &(root, prefix.clone())) {
            if matches!(f.type_of(a), Type::Array(..)) {
                return Ok(Buffer::Array {
                    root,
                    prefix,
                    start: i,
                    array: a,
                });
            }
        }
    }
    let value = ev.read_place(env, &(root, path.clone()));
    if let Value::Data(a) = &value {
        if matches!(f.type_of(*a), Type::Array(..)) {
            return Ok(Buffer::Array {
                root,
                prefix: path,
                start: f.int(0),
                array: *a,
            });
        }
    }
    let ty = pointee(arg).and_then(|t| scalar_type(&t));
    path.shrink_to_fit();
    Ok(Buffer::Scalar {
        place: (root, path),
        value,
        ty,
    })
}

/// The pointee type of a buffer argument, looking through pointer casts.
fn pointee(e: &MExpr) -> Option<MType> {
    let mut e = e;
    loop {
        if let ExprKind::Cast(inner) = &e.kind {
            if matches!(inner.ty, MType::Pointer(_)) {
                e = inner;
                continue;
            }
        }
        return match &e.ty {
            MType::Pointer(t) if **t != MType::Void => Some((**t).clone()),
            _ => None,
        };
    }
}

/// Bounds check: flat elements `off .. off+count` lie inside the array.
fn check_bounds(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    array: Expr,
    off: Expr,
    count: Expr,
    span: &Span,
) -> Option<Expr> {
    let f = ev.factory();
    let t = f.type_of(array);
    let total = f.mul(f.array_extent(array)?, inner_size(f, &t)?);
    let end = f.add(off, count);
    let claim = f.and(f.le(f.int(0), off), f.le(end, total));
    ev.check(
        env,
        claim,
        Property::OutOfBounds,
        || {
            format!(
                "MPI buffer overrun: elements {}..{} of a buffer of {}",
                f.pretty(off),
                f.pretty(end),
                f.pretty(total)
            )
        },
        span,
    );
    Some(total)
}

/// Reads `count` elements at flat offset `offset` of buffer `arg`: an array of
/// `count` scalars, or the whole (nested) array when the buffer is one. `None`
/// when nothing can be read (the path died).
fn read_buffer(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    arg: &MExpr,
    count: Expr,
    offset: Expr,
    ty: &Type,
    span: &Span,
) -> Result<Option<Expr>, EngineError> {
    let f = ev.factory();
    match locate(ev, env, arg, count, span)? {
        Buffer::Nothing => Ok(Some(
            f.array_literal(Type::array(ty.clone(), Some(f.int(0))), &[]),
        )),
        Buffer::Array { start, array, .. } => {
            let t = f.type_of(array);
            let s = inner_size(f, &t).ok_or_else(|| {
                EngineError::unsupported("MPI buffer of arrays with unknown extent", span)
            })?;
            let off = f.add(f.mul(start, s), offset);
            let total = check_bounds(ev, env, array, off, count, span);
            let scalar = scalar_of(&t);
            if f.as_concrete_int(off) == Some(0.into())
                && total.is_some_and(|total| holds(ev, env, f.eq(total, count)))
            {
                return Ok(Some(array));
            }
            let out_ty = Type::array(scalar.clone(), Some(count));
            if let Some(k) = f
                .as_concrete_int(count)
                .and_then(|k| i64::try_from(k).ok())
                .filter(|&k| (0..=CONCRETE_LIMIT).contains(&k))
            {
                let els: Vec<Expr> = (0..k)
                    .map(|j| flat_read(f, array, f.add(off, f.int(j))))
                    .collect();
                return Ok(Some(f.array_literal(out_ty, &els)));
            }
            let j = f.symbol("__tass_mpi_j", Type::Int);
            let body = flat_read(f, array, f.add(off, j));
            Ok(Some(f.array_lambda(out_ty, j, body)))
        }
        Buffer::Scalar { value, ty: sty, .. } => {
            let one = f.le(f.add(offset, count), f.int(1));
            ev.check(
                env,
                one,
                Property::OutOfBounds,
                || {
                    format!(
                        "MPI buffer overrun: count {} on a single object",
                        f.pretty(count)
                    )
                },
                span,
            );
            let x = match value {
                Value::Data(x) => x,
                Value::Undefined => undefined_data(f, sty.unwrap_or_else(|| ty.clone())),
                other => {
                    return Err(EngineError::unsupported(
                        format!("MPI buffer holding {other:?}"),
                        span,
                    ))
                }
            };
            let scalar = f.type_of(x);
            if f.as_concrete_int(count) == Some(0.into()) {
                return Ok(Some(f.array_literal(Type::array(scalar, Some(count)), &[])));
            }
            Ok(Some(
                f.array_literal(Type::array(scalar, Some(count)), &[x]),
            ))
        }
    }
}

fn coerce(f: &ExprFactory, x: Expr, ty: &Type) -> Expr {
    if f.type_of(x) == *ty {
        x
    } else {
        f.cast(x, ty)
    }
}

/// Writes the `n` elements of `data` at flat offset `offset` of buffer `arg`
/// (`capacity` elements were posted).
#[allow(clippy::too_many_arguments)]
fn write_buffer(
    ev: &mut Evaluator<'_>,
    env: &mut dyn Environment,
    arg: &MExpr,
    capacity: Expr,
    offset: Expr,
    data: Expr,
    n: Expr,
    span: &Span,
) -> Result<(), EngineError> {
    let f = ev.factory();
    match locate(ev, &*env, arg, capacity, span)? {
        Buffer::Nothing => Ok(()),
        Buffer::Array {
            root,
            prefix,
            start,
            array,
        } => {
            let t = f.type_of(array);
            let s = inner_size(f, &t).ok_or_else(|| {
                EngineError::unsupported("MPI buffer of arrays with unknown extent", span)
            })?;
            let scalar = scalar_of(&t);
            let off = f.add(f.mul(start, s), offset);
            // The posted buffer (`capacity` elements from its start) must fit.
            let base = f.mul(start, s);
            let total = check_bounds(ev, &*env, array, base, capacity, span);
            let whole = f.as_concrete_int(off) == Some(0.into())
                && total.is_some_and(|total| holds(ev, &*env, f.eq(total, n)));
            if whole && f.type_of(data) == t {
                return ev.write_place(env, &(root, prefix), Value::Data(data), span);
            }
            if let Some(k) = f
                .as_concrete_int(n)
                .and_then(|k| i64::try_from(k).ok())
                .filter(|&k| (0..=CONCRETE_LIMIT).contains(&k))
            {
                let mut new = array;
                for j in 0..k {
                    let x = coerce(f, flat_read(f, data, f.int(j)), &scalar);
                    let mut path = SmallVec::<[PStep; 2]>::new();
                    flat_path(f, &t, f.add(off, f.int(j)), &mut path);
                    let mut v = Value::Data(new);
                    tass_dynamic::api::write_at(f, &mut v, &path, Value::Data(x)).map_err(|e| {
                        EngineError::invalid(format!("MPI receive: {e}"), Some(span))
                    })?;
                    if let Value::Data(x) = v {
                        new = x;
                    }
                }
                return ev.write_place(env, &(root, prefix), Value::Data(new), span);
            }
            if !matches!(&t, Type::Array(e, _) if !matches!(&**e, Type::Array(..))) {
                return Err(EngineError::unsupported(
                    "MPI transfer of a symbolic number of elements into part of a multi-dimensional array",
                    span,
                ));
            }
            let j = f.symbol("__tass_mpi_j", Type::Int);
            let inside = f.and(f.le(off, j), f.lt(j, f.add(off, n)));
            let x = coerce(f, flat_read(f, data, f.sub(j, off)), &scalar);
            let body = if whole {
                x
            } else {
                f.ite(inside, x, f.array_read(array, j))
            };
            let new = f.array_lambda(t, j, body);
            ev.write_place(env, &(root, prefix), Value::Data(new), span)
        }
        Buffer::Scalar { place, ty, .. } => {
            if f.as_concrete_int(n) == Some(0.into()) {
                return Ok(());
            }
            let fits = f.le(f.add(offset, n), f.int(1));
            ev.check(
                &*env,
                fits,
                Property::OutOfBounds,
                || {
                    format!(
                        "MPI buffer overrun: {} elements into a single object",
                        f.pretty(n)
                    )
                },
                span,
            );
            let mut x = flat_read(f, data, f.int(0));
            if let Some(ty) = ty {
                x = coerce(f, x, &ty);
            }
            ev.write_place(env, &place, Value::Data(x), span)
        }
    }
}

/// The reduction operations.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Op {
    Sum,
    Prod,
    Min,
    Max,
    Land,
    Lor,
    Band,
    Bor,
}

fn op_of(v: &Value, span: &Span) -> Result<Op, EngineError> {
    Ok(match v {
        Value::Handle(Handle::Constant(c)) => match c {
            LC::MpiSum => Op::Sum,
            LC::MpiProd => Op::Prod,
            LC::MpiMin => Op::Min,
            LC::MpiMax => Op::Max,
            LC::MpiLand => Op::Land,
            LC::MpiLor => Op::Lor,
            LC::MpiBand => Op::Band,
            LC::MpiBor => Op::Bor,
            other => {
                return Err(EngineError::unsupported(
                    format!("reduction operation {}", other.c_name()),
                    span,
                ))
            }
        },
        other => {
            return Err(EngineError::unsupported(
                format!("reduction operation {other:?}"),
                span,
            ))
        }
    })
}

fn combine(f: &ExprFactory, op: Op, a: Expr, b: Expr) -> Expr {
    let ty = f.type_of(a);
    let truth = |x: Expr| match f.type_of(x) {
        Type::Bool => x,
        t => f.ne(x, f.zero(&t)),
    };
    let as_ty = |c: Expr| match &ty {
        Type::Bool => c,
        t => f.ite(c, f.one(t), f.zero(t)),
    };
    match op {
        Op::Sum => f.add(a, b),
        Op::Prod => f.mul(a, b),
        Op::Min => f.ite(f.le(a, b), a, b),
        Op::Max => f.ite(f.le(a, b), b, a),
        Op::Land => as_ty(f.and(truth(a), truth(b))),
        Op::Lor => as_ty(f.or(truth(a), truth(b))),
        Op::Band => f.bitwise(BitOp::And, a, b),
        Op::Bor => f.bitwise(BitOp::Or, a, b),
    }
}

/// The elementwise reduction of arrays of one type (nested arrays element by
/// element; arrays of different shapes through their flat elements).
fn reduce_arrays(f: &ExprFactory, op: Op, xs: &[Expr], count: Expr, depth: u32) -> Expr {
    let t = f.type_of(xs[0]);
    let same = xs.iter().all(|&x| f.type_of(x) == t);
    let (t, xs): (Type, Vec<Expr>) = if same {
        (t, xs.to_vec())
    } else {
        let scalar = scalar_of(&t);
        let j = f.symbol("__tass_mpi_f", Type::Int);
        let ft = Type::array(scalar, Some(count));
        let flat = xs
            .iter()
            .map(|&x| f.array_lambda(ft.clone(), j, flat_read(f, x, j)))
            .collect();
        (ft, flat)
    };
    let Type::Array(elem, ext) = &t else {
        return xs
            .iter()
            .skip(1)
            .fold(xs[0], |acc, &x| combine(f, op, acc, x));
    };
    let at = |i: Expr| -> Vec<Expr> { xs.iter().map(|&x| f.array_read(x, i)).collect() };
    let fold = |els: Vec<Expr>| -> Expr {
        if matches!(&**elem, Type::Array(..)) {
            reduce_arrays(f, op, &els, count, depth + 1)
        } else {
            els.iter()
                .skip(1)
                .fold(els[0], |acc, &x| combine(f, op, acc, x))
        }
    };
    if let Some(k) = ext
        .and_then(|e| f.as_concrete_int(e))
        .and_then(|k| i64::try_from(k).ok())
        .filter(|&k| (0..=CONCRETE_LIMIT).contains(&k))
    {
        let els: Vec<Expr> = (0..k).map(|i| fold(at(f.int(i)))).collect();
        return f.array_literal(t.clone(), &els);
    }
    let i = f.symbol(&format!("__tass_mpi_r{depth}"), Type::Int);
    let body = fold(at(i));
    f.array_lambda(t.clone(), i, body)
}

/// One process's part of a collective: its call and evaluated arguments.
struct Part<'m> {
    call: Call<'m>,
    count: Expr,
    ty: Type,
    dtype: LC,
    root: Option<Expr>,
    op: Option<Op>,
}

/// A collective call: every process is at one (checked by [`push_steps`]).
fn collective(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &mut State,
) -> Result<(Vec<Violation>, Vec<Change>), EngineError> {
    let f = ctx.f;
    let n = state.inner.procs.len();
    let mut violations = Vec::new();
    let mut parts: Vec<Part<'_>> = Vec::with_capacity(n);
    // Evaluate every process's arguments and check that the calls agree.
    let mut dead = false;
    for p in 0..n {
        let call = current_call(ctx.model, state, p)
            .ok_or_else(|| EngineError::invalid("collective step without a call", None))?;
        let mut env = ctx.env(state, p);
        let mut ev = Evaluator::new(f, oracle, p, true);
        let a = call.args;
        let (count, dt, root, op, comm) = match call.lf {
            LF::MpiBarrier => (None, None, None, None, 0),
            LF::MpiBcast => (Some(1), Some(2), Some(3), None, 4),
            LF::MpiReduce => (Some(2), Some(3), Some(5), Some(4), 6),
            LF::MpiAllreduce => (Some(2), Some(3), None, Some(4), 5),
            LF::MpiGather | LF::MpiScatter => (Some(1), Some(2), Some(6), None, 7),
            LF::MpiAllgather => (Some(1), Some(2), None, None, 6),
            other => {
                return Err(EngineError::unsupported(
                    format!("not yet supported: {}", other.c_name()),
                    call.span,
                ))
            }
        };
        check_comm(&mut ev, &env, &a[comm], call.span)?;
        let count = match count {
            Some(k) => ev.eval_int(&env, &a[k])?,
            None => f.int(0),
        };
        let (dtype, ty) = match dt {
            Some(k) => datatype(&mut ev, &env, &a[k], call.span)?,
            None => (LC::MpiInt, Type::Int),
        };
        let root = match root {
            Some(k) => {
                let r = ev.eval_int(&env, &a[k])?;
                check_rank(&mut ev, &env, r, false, "root", call.span);
                Some(r)
            }
            None => None,
        };
        let op = match op {
            Some(k) => Some(op_of(&ev.eval(&env, &a[k])?, call.span)?),
            None => None,
        };
        if let Some(first) = parts.first() {
            let mut problem = None;
            if first.call.lf != call.lf {
                problem = Some(format!(
                    "process {p} calls {} while process 0 calls {}",
                    call.lf.c_name(),
                    first.call.lf.c_name()
                ));
            } else if first.dtype != dtype {
                problem = Some(format!(
                    "process {p} uses datatype {} while process 0 uses {}",
                    dtype.c_name(),
                    first.dtype.c_name()
                ));
            } else if first.op != op {
                problem = Some(format!(
                    "process {p} uses a different reduction operation than process 0 ({op:?} vs {:?})",
                    first.op
                ));
            }
            if let Some(msg) = problem {
                ev.fail(&env, Property::CollectiveMismatch, msg, call.span);
                dead = true;
            } else {
                if let (Some(r0), Some(r)) = (first.root, root) {
                    let same = f.eq(r0, r);
                    ev.check(
                        &env,
                        same,
                        Property::CollectiveMismatch,
                        || {
                            format!(
                                "process {p} gives root {} to {} while process 0 gives {}",
                                f.pretty(r),
                                call.lf.c_name(),
                                f.pretty(r0)
                            )
                        },
                        call.span,
                    );
                }
                let c0 = first.count;
                if !matches!(call.lf, LF::MpiBarrier) {
                    let same = f.eq(c0, count);
                    ev.check(
                        &env,
                        same,
                        Property::CollectiveMismatch,
                        || {
                            format!(
                                "process {p} gives count {} to {} while process 0 gives {}",
                                f.pretty(count),
                                call.lf.c_name(),
                                f.pretty(c0)
                            )
                        },
                        call.span,
                    );
                }
            }
        }
        let pc = ev.current_pc(&env);
        env.set_path_condition(pc);
        violations.extend(ev.violations);
        parts.push(Part {
            call,
            count,
            ty,
            dtype,
            root,
            op,
        });
    }
    if dead {
        return Ok((violations, Vec::new()));
    }
    let lf = parts[0].call.lf;
    let root = match parts[0].root {
        Some(r) => {
            let Some(r) = f.as_concrete_int(r).and_then(|r| usize::try_from(r).ok()) else {
                return Err(EngineError::unsupported(
                    format!("{} with a symbolic root", lf.c_name()),
                    parts[0].call.span,
                ));
            };
            if r >= n {
                return Ok((violations, Vec::new())); // reported; the path is dead
            }
            Some(r)
        }
        None => None,
    };
    // Read the contributions.
    let mut data: Vec<Option<Expr>> = vec![None; n];
    for (p, part) in parts.iter().enumerate() {
        let read = match lf {
            LF::MpiBcast => root == Some(p),
            LF::MpiScatter => false,
            LF::MpiBarrier => false,
            _ => true,
        };
        if !read {
            continue;
        }
        let env = ctx.env(state, p);
        let mut ev = Evaluator::new(f, oracle, p, true);
        data[p] = read_buffer(
            &mut ev,
            &env,
            &part.call.args[0],
            part.count,
            f.int(0),
            &part.ty,
            part.call.span,
        )?;
        let pc = ev.current_pc(&env);
        let mut env = env;
        env.set_path_condition(pc);
        violations.extend(ev.violations);
    }
    if let (LF::MpiScatter, Some(r)) = (lf, root) {
        let rp = &parts[r];
        for (p, slot) in data.iter_mut().enumerate() {
            let env = ctx.env(state, r);
            let mut ev = Evaluator::new(f, oracle, r, true);
            let off = f.mul(rp.count, f.int(p as i64));
            *slot = read_buffer(
                &mut ev,
                &env,
                &rp.call.args[0],
                rp.count,
                off,
                &rp.ty,
                rp.call.span,
            )?;
            let pc = ev.current_pc(&env);
            let mut env = env;
            env.set_path_condition(pc);
            violations.extend(ev.violations);
        }
    }
    // Deliver.
    for p in 0..n {
        let part = &parts[p];
        let a = part.call.args;
        let span = part.call.span;
        let mut env = ctx.env(state, p);
        let mut ev = Evaluator::new(f, oracle, p, true);
        match lf {
            LF::MpiBarrier => {}
            LF::MpiBcast if root != Some(p) => {
                if let Some(d) = root.and_then(|r| data[r]) {
                    write_buffer(
                        &mut ev,
                        &mut env,
                        &a[0],
                        part.count,
                        f.int(0),
                        d,
                        part.count,
                        span,
                    )?;
                }
            }
            LF::MpiReduce | LF::MpiAllreduce if lf == LF::MpiAllreduce || root == Some(p) => {
                let xs: Vec<Expr> = data.iter().flatten().copied().collect();
                if xs.len() == n {
                    let op = part.op.unwrap_or(Op::Sum);
                    let r = reduce_arrays(f, op, &xs, part.count, 0);
                    write_buffer(
                        &mut ev,
                        &mut env,
                        &a[1],
                        part.count,
                        f.int(0),
                        r,
                        part.count,
                        span,
                    )?;
                }
            }
            LF::MpiGather | LF::MpiAllgather if lf == LF::MpiAllgather || root == Some(p) => {
                let rcount = ev.eval_int(&env, &a[4])?;
                let total = f.mul(rcount, f.int(n as i64));
                for (q, d) in data.iter().enumerate() {
                    if let Some(d) = d {
                        let off = f.mul(rcount, f.int(q as i64));
                        let fits = f.le(parts[q].count, rcount);
                        ev.check(&env, fits, Property::BufferOverflow, || format!("process {q} contributes {} elements, more than the {} received from each process", f.pretty(parts[q].count), f.pretty(rcount)), span);
                        write_buffer(
                            &mut ev,
                            &mut env,
                            &a[3],
                            total,
                            off,
                            *d,
                            parts[q].count,
                            span,
                        )?;
                    }
                }
            }
            LF::MpiScatter => {
                if let (Some(d), Some(r)) = (data[p], root) {
                    let rcount = ev.eval_int(&env, &a[4])?;
                    write_buffer(
                        &mut ev,
                        &mut env,
                        &a[3],
                        rcount,
                        f.int(0),
                        d,
                        parts[r].count,
                        span,
                    )?;
                }
            }
            _ => {}
        }
        write_success(&mut ev, &mut env, &part.call)?;
        env.set_location(part.call.target);
        let pc = ev.current_pc(&env);
        env.set_path_condition(pc);
        violations.extend(ev.violations);
    }
    Ok((violations, Vec::new()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_elements_of_nested_arrays_are_row_major() {
        let f = ExprFactory::new();
        let row = Type::array(Type::Int, Some(f.int(3)));
        let rows: Vec<Expr> = (0..2)
            .map(|r| {
                f.array_literal(
                    row.clone(),
                    &[f.int(10 * r), f.int(10 * r + 1), f.int(10 * r + 2)],
                )
            })
            .collect();
        let a = f.array_literal(Type::array(row.clone(), Some(f.int(2))), &rows);
        let t = f.type_of(a);
        assert_eq!(inner_size(&f, &t), Some(f.int(3)));
        assert_eq!(scalar_of(&t), Type::Int);
        assert_eq!(flat_read(&f, a, f.int(4)), f.int(11));
        let mut path = SmallVec::new();
        flat_path(&f, &t, f.int(5), &mut path);
        assert_eq!(
            path.as_slice(),
            &[PStep::Index(f.int(1)), PStep::Index(f.int(2))]
        );
    }

    #[test]
    fn reductions_combine_elementwise() {
        let f = ExprFactory::new();
        let ty = Type::array(Type::Int, Some(f.int(2)));
        let a = f.array_literal(ty.clone(), &[f.int(1), f.int(5)]);
        let b = f.array_literal(ty, &[f.int(4), f.int(2)]);
        let sum = reduce_arrays(&f, Op::Sum, &[a, b], f.int(2), 0);
        assert_eq!(f.array_read(sum, f.int(0)), f.int(5));
        assert_eq!(f.array_read(sum, f.int(1)), f.int(7));
        let max = reduce_arrays(&f, Op::Max, &[a, b], f.int(2), 0);
        assert_eq!(f.array_read(max, f.int(0)), f.int(4));
        assert_eq!(f.array_read(max, f.int(1)), f.int(5));
        assert_eq!(combine(&f, Op::Land, f.int(3), f.int(0)), f.int(0));
        assert_eq!(combine(&f, Op::Lor, f.int(3), f.int(0)), f.int(1));
    }

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
