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
//! `MPI_Ssend` and `MPI_Sendrecv(_replace)` take several steps ([`CallStage`]):
//! the message is posted first (probes see it), then the receive half of a
//! send-receive takes its message, and the call returns once its send has
//! completed (`MPI_Ssend`: received; a send-receive's standard send: received,
//! or buffered, which the zero-buffer test counts as needing a buffer). So a
//! send-receive behaves as MPI says: like a nonblocking send and a receive
//! completed together.
//! Blocking collectives are one synchronous step of all members of the
//! communicator, enabled when every member has reached a blocking collective
//! call on it; calls that do not agree (kind, root, op, count, datatype) are a
//! `collective-mismatch`. A nonblocking collective is a step of its process
//! alone that posts its part; the operation completes when all have posted it
//! (`collective.rs`).

use std::sync::Arc;

use tass_dynamic::api::{Handle, Message, Step as PStep, Value};
use tass_model::api::mpi::{rank_values, Blocking, MpiKind, Rank, MPI_ANY_SOURCE, MPI_ANY_TAG};
use tass_model::api::{
    Callee, Expr as MExpr, FunctionId, LibraryFunction as LF, LocationId, Model, Span, Statement,
    TransitionId,
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
mod comm;
mod request;

use buffer::{check_rank, concrete, holds, read_buffer, P2pType};
use collective::is_collective;
pub(crate) use comm::check_comm;
use request::RequestKind;
pub(crate) use request::{push_progress_steps, Request};

/// The MPI part of a process's state.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct MpiProc {
    /// Where the process is in its MPI lifetime.
    pub phase: MpiPhase,
    /// How far the process is in the blocking call it is at, for the calls
    /// that take several steps (`MPI_Ssend`, `MPI_Sendrecv(_replace)`).
    pub stage: CallStage,
    /// The last value `MPI_Wtime` returned (the next one is not smaller).
    pub wtime: Option<Expr>,
    /// The requests of nonblocking operations not completed yet, in the order
    /// they were posted.
    pub requests: Vec<Request>,
}

/// Where a process is in its MPI lifetime: MPI calls other than `MPI_Wtime`
/// are allowed only between `MPI_Init` and `MPI_Finalize`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) enum MpiPhase {
    /// `MPI_Init` not called yet.
    #[default]
    BeforeInit,
    /// Between `MPI_Init` and `MPI_Finalize`.
    Initialized,
    /// `MPI_Finalize` called.
    Finalized,
}

/// How far a process is in a blocking call made of several steps. The send
/// of `MPI_Ssend` and the send half of `MPI_Sendrecv(_replace)` post their
/// message first, as a nonblocking send would, naming a request of the
/// process that the program never sees; the call returns once that request
/// completes: for `MPI_Ssend` when the message has been received, for a
/// send-receive (a standard send) also by buffering, which the zero-buffer
/// deadlock test counts as needing a buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) enum CallStage {
    /// Nothing done yet.
    #[default]
    Start,
    /// The message is posted under request `request`: an `MPI_Ssend` waits
    /// for it to be received, a send-receive for its receive half.
    Sent { request: u32 },
    /// The receive half of a send-receive is done; it waits for its send.
    Received { request: u32 },
}

/// The request of the send a process at `lf` in `stage` waits for before
/// the call returns, if that is all it still has to do.
fn completion_stage(lf: LF, stage: CallStage) -> Option<u32> {
    match (lf, stage) {
        (LF::MpiSsend, CallStage::Sent { request }) => Some(request),
        (LF::MpiSendrecv | LF::MpiSendrecvReplace, CallStage::Received { request }) => {
            Some(request)
        }
        _ => None,
    }
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

fn is_standard_send(lf: LF) -> bool {
    matches!(lf, LF::MpiSend | LF::MpiSsend | LF::MpiBsend | LF::MpiRsend)
}

fn is_nonblocking_send(lf: LF) -> bool {
    matches!(lf, LF::MpiIsend | LF::MpiIssend)
}

/// The functions this module implements; any other MPI call is an error naming it.
fn is_implemented(lf: LF) -> bool {
    is_collective(lf)
        || is_standard_send(lf)
        || is_nonblocking_send(lf)
        || matches!(
            lf,
            LF::MpiInit
                | LF::MpiFinalize
                | LF::MpiCommRank
                | LF::MpiCommSize
                | LF::MpiRecv
                | LF::MpiIrecv
                | LF::MpiSendrecv
                | LF::MpiSendrecvReplace
                | LF::MpiProbe
                | LF::MpiIprobe
                | LF::MpiWait
                | LF::MpiWaitall
                | LF::MpiWaitany
                | LF::MpiTest
                | LF::MpiTestall
                | LF::MpiRequestFree
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
}

/// `MPI_ANY_SOURCE`, which is also `MPI_ANY_TAG`'s value: a source or a tag
/// that matches any.
pub(crate) const ANY: i64 = MPI_ANY_SOURCE;
const _: () = assert!(MPI_ANY_SOURCE == MPI_ANY_TAG);
pub(crate) use tass_model::api::mpi::MPI_PROC_NULL as PROC_NULL;
/// `Step::choice` of an `MPI_Iprobe` that finds no message.
const NO_MESSAGE: u32 = u32::MAX;
/// `Step::choice` of a step that only splits the path on the value of a rank
/// or tag argument that depends on the inputs (`Step::guard` fixes it); the
/// call itself runs at the process's next step, on each path.
pub(crate) const ENVELOPE_CASE: u32 = u32::MAX - 1;

fn tag_matches(wanted: i64, tag: &Expr, f: &ExprFactory) -> bool {
    wanted == ANY || f.as_concrete_int(*tag).and_then(|t| i64::try_from(t).ok()) == Some(wanted)
}

/// Index of the first buffered message from `source` to `dest` on `comm` whose
/// tag matches.
fn first_match(
    messages: &[Message],
    f: &ExprFactory,
    source: u32,
    dest: u32,
    tag: i64,
    comm: u32,
) -> Option<usize> {
    messages.iter().position(|m| {
        m.source == source && m.dest == dest && m.comm == comm && tag_matches(tag, &m.tag, f)
    })
}

/// The first message from `source` a blocking receive (or probe) of process
/// `p` may take: not one an earlier posted `MPI_Irecv` of `p` also matches.
fn blocking_match(
    state: &State,
    f: &ExprFactory,
    source: u32,
    p: usize,
    tag: i64,
    comm: u32,
) -> Option<usize> {
    let k = first_match(&state.inner.messages, f, source, p as u32, tag, comm)?;
    let pending = state.inner.procs[p].mpi.requests.len();
    (!request::claimed(state, f, p, &state.inner.messages[k], pending)).then_some(k)
}

/// What a point-to-point call does next.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum P2p {
    /// Sends (blocking or not).
    Send,
    /// A blocking receive: needs a message.
    Recv,
    /// `MPI_Irecv`: posts a receive.
    Post,
    /// `MPI_Probe`: needs a message, does not take it.
    Probe,
    /// `MPI_Iprobe`: looks for a message.
    Iprobe,
}

/// The argument positions of the rank (destination or source), the tag and
/// the communicator of the point-to-point operation a process at `call`
/// performs next, and what it does.
fn p2p_args(call: &Call<'_>, stage: CallStage) -> Option<(usize, usize, usize, P2p)> {
    let d = call.lf.mpi()?;
    let blocks = d.blocking == Blocking::Blocks;
    let (envelope, what) = match (d.kind, stage) {
        // An `MPI_Ssend` past its start waits for its message to be received.
        (MpiKind::Send, CallStage::Start) => (d.send_envelope()?, P2p::Send),
        (MpiKind::Send, _) if call.lf == LF::MpiSsend => return None,
        (MpiKind::Send, _) => (d.send_envelope()?, P2p::Send),
        (MpiKind::SendReceive, CallStage::Start) => (d.send_envelope()?, P2p::Send),
        (MpiKind::SendReceive, CallStage::Sent { .. }) => (d.receive_envelope()?, P2p::Recv),
        (MpiKind::SendReceive, CallStage::Received { .. }) => return None,
        (MpiKind::Receive, _) if blocks => (d.receive_envelope()?, P2p::Recv),
        (MpiKind::Receive, _) => (d.receive_envelope()?, P2p::Post),
        (MpiKind::Probe, _) if blocks => (d.receive_envelope()?, P2p::Probe),
        (MpiKind::Probe, _) => (d.receive_envelope()?, P2p::Iprobe),
        _ => return None,
    };
    Some((envelope.rank, envelope.tag, envelope.comm, what))
}

/// The value of rank expression `r` under path condition `pc` when it is
/// determined: concrete, or provably one of the ranks or special values.
fn resolve_rank(f: &ExprFactory, oracle: &mut Oracle, pc: Expr, r: Expr, n: usize) -> Option<i64> {
    if let Some(k) = f.as_concrete_int(r) {
        return i64::try_from(k).ok(); // a bad one is reported by the call
    }
    // A model of the path condition names the only value worth proving; asking
    // about every rank costs one query per process.
    if let Some(v) = resolve_int(f, oracle, pc, r) {
        return rank_values(n).contains(&v).then_some(v);
    }
    rank_values(n).find(|&v| matches!(oracle.valid(f, pc, f.eq(r, f.int(v))), Decision::Holds))
}

/// The values a rank (or root) argument can take under `pc`, each with the guard
/// that selects it: `(None, Some(v))` when `pc` fixes it to `v`; otherwise one
/// `(Some(rank == v), Some(v))` per feasible `v` in `rank_values(n)` (`MPI_PROC_NULL` up to `n - 1`) and `(Some(guard),
/// None)` for "none of those" (executing that step reports the bad rank).
fn rank_cases(
    f: &ExprFactory,
    oracle: &mut Oracle,
    pc: Expr,
    rank: Expr,
    n: usize,
) -> Vec<(Option<Expr>, Option<i64>)> {
    if let Some(v) = resolve_rank(f, oracle, pc, rank, n) {
        return vec![(None, Some(v))];
    }
    let mut cases = Vec::new();
    let mut others = f.tt();
    for v in rank_values(n) {
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

/// `base` once per value the root of collective call `call` of process `p`
/// can take (a root that depends on the inputs splits the path; the step
/// with a guard fixing it executes with that root).
fn per_root(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    scratch: &mut State,
    p: usize,
    call: &Call<'_>,
    n: usize,
    base: Step,
) -> Result<Vec<Step>, EngineError> {
    let f = ctx.f;
    let Some(root) = collective::peek_root(ctx, oracle, scratch, p, call)? else {
        return Ok(vec![base]);
    };
    let pc = scratch.inner.pc;
    Ok(rank_cases(f, oracle, pc, root, n)
        .into_iter()
        .map(|(guard, _)| with_case(f, &base, guard))
        .collect())
}

/// At most this many values of a tag that depends on the inputs are explored
/// (one path each); a tag that can take more is not supported.
const TAG_CASES: usize = 64;

/// The values a tag argument can take under `pc`, each with the guard that
/// selects it (`None` when `pc` fixes it); `None` if there are more than
/// [`TAG_CASES`] or the prover cannot list them. Matching a message needs the
/// tag's value, so a tag that depends on the inputs splits the path.
fn tag_cases(
    f: &ExprFactory,
    oracle: &mut Oracle,
    pc: Expr,
    tag: Expr,
) -> Option<Vec<(Option<Expr>, i64)>> {
    if let Some(v) = resolve_int(f, oracle, pc, tag) {
        return Some(vec![(None, v)]);
    }
    let mut cases = Vec::new();
    let mut rest = pc;
    while !oracle.is_unsat(f, rest) {
        if cases.len() == TAG_CASES {
            return None;
        }
        let v = i64::try_from(oracle.candidate_value(f, rest, tag)?).ok()?;
        let g = f.eq(tag, f.int(v));
        cases.push((Some(g), v));
        rest = f.and(rest, f.not(g));
    }
    Some(cases)
}

/// The value of tag `tag` on this path, which the step's guard fixes when the
/// tag depends on the inputs ([`tag_cases`]).
fn tag_value(ev: &mut Evaluator<'_>, pc: Expr, tag: Expr, span: &Span) -> Result<i64, EngineError> {
    let f = ev.factory();
    resolve_int(f, ev.oracle(), pc, tag).ok_or_else(|| {
        EngineError::unsupported(
            format!(
                "MPI call with a tag that depends on the inputs and can take more than \
                 {TAG_CASES} values ({}); bound it with an input constraint",
                f.pretty(tag)
            ),
            span,
        )
    })
}

/// The value `pc` fixes integer `e` to, if it does and the prover shows it (the
/// value of a model of `pc` is the only one worth proving).
fn resolve_int(f: &ExprFactory, oracle: &mut Oracle, pc: Expr, e: Expr) -> Option<i64> {
    if let Some(k) = f.as_concrete_int(e) {
        return i64::try_from(k).ok();
    }
    let v = i64::try_from(oracle.candidate_value(f, pc, e)?).ok()?;
    matches!(oracle.valid(f, pc, f.eq(e, f.int(v))), Decision::Holds).then_some(v)
}

/// `base`, restricted to the case `guard` of [`rank_cases`] (if any).
fn with_case(f: &ExprFactory, base: &Step, guard: Option<Expr>) -> Step {
    match guard {
        None => base.clone(),
        Some(g) => Step {
            guard: f.and(base.guard, g),
            guard_known_true: false,
            ..base.clone()
        },
    }
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

/// The value of argument `e` of process `p` (no checks).
fn peek_value(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &mut State,
    p: usize,
    e: &MExpr,
) -> Result<Value, EngineError> {
    let env = ctx.env(state, p);
    let mut ev = Evaluator::new(ctx.f, oracle, p, false);
    ev.eval(&env, e)
}

/// The communicator argument `e` of process `p` names (no checks).
fn peek_comm(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &mut State,
    p: usize,
    e: &MExpr,
) -> Result<Option<u32>, EngineError> {
    let v = peek_value(ctx, oracle, state, p, e)?;
    Ok(comm::comm_of_value(state, &v))
}

fn concrete_i64(f: &ExprFactory, e: Expr) -> Option<i64> {
    f.as_concrete_int(e).and_then(|t| i64::try_from(t).ok())
}

/// The receive a process at `call` waits in: (world rank of the source or
/// `ANY`, tag, communicator), if it is at one and all three are determined.
fn pending_receive(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &mut State,
    p: usize,
    call: &Call<'_>,
) -> Result<Option<(i64, i64, u32)>, EngineError> {
    // A blocking probe waits as a receive does (it sees a send's envelope
    // before any data moves, so a zero-buffer send can proceed).
    let Some((src, tag, comm, P2p::Recv | P2p::Probe)) =
        p2p_args(call, state.inner.procs[p].mpi.stage)
    else {
        return Ok(None);
    };
    let Some(comm) = peek_comm(ctx, oracle, state, p, &call.args[comm])? else {
        return Ok(None);
    };
    let pc = state.inner.pc;
    let s = peek(ctx, oracle, state, p, &call.args[src])?;
    let t = peek(ctx, oracle, state, p, &call.args[tag])?;
    let size = comm::comm_size(state, comm);
    let s = match resolve_rank(ctx.f, oracle, pc, s, size) {
        Some(ANY) => Some(ANY),
        Some(r) if r >= 0 => comm::to_world(state, comm, r as usize).map(i64::from),
        _ => None,
    };
    let t = resolve_int(ctx.f, oracle, pc, t);
    Ok(s.zip(t).map(|(s, t)| (s, t, comm)))
}

/// True if process `d` waits for a message from world rank `p` with `tag` on
/// `comm`: in a blocking receive, or with a posted `MPI_Irecv`.
fn receiver_waits(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &mut State,
    d: usize,
    p: usize,
    tag: Option<i64>,
    comm: u32,
) -> Result<bool, EngineError> {
    if request::posted_receive_matches(state, ctx.f, d, p as u32, tag, comm) {
        return Ok(true);
    }
    let Some(rcall) = current_call(ctx.model, state, d) else {
        return Ok(false);
    };
    let Some((s, t, c)) = pending_receive(ctx, oracle, state, d, &rcall)? else {
        return Ok(false);
    };
    if !((s == ANY || s == p as i64) && (t == ANY || Some(t) == tag) && c == comm) {
        return Ok(false);
    }
    // A receive that can already take another message may not be left for
    // this one: only a receive with nothing to take waits for it.
    let sources = if s == ANY {
        comm::members(state, c)
    } else {
        vec![s as u32]
    };
    Ok(!sources
        .into_iter()
        .any(|src| blocking_match(state, ctx.f, src, d, t, c).is_some()))
}

/// The request handle values a wait/test call at `call` of process `p` looks
/// at (no checks): `None` if they cannot be read (executing the call reports it).
fn peek_requests(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &mut State,
    p: usize,
    call: &Call<'_>,
) -> Option<Vec<Value>> {
    let env = ctx.env(state, p);
    let mut ev = Evaluator::new(ctx.f, oracle, p, false);
    let (array, count) = match call.lf {
        LF::MpiWait | LF::MpiTest => (&call.args[0], 1),
        _ => {
            let n = ev.eval_int(&env, &call.args[0]).ok()?;
            let n = usize::try_from(concrete_i64(ctx.f, n)?).ok()?;
            (&call.args[1], n)
        }
    };
    let ptr = ev.eval(&env, array).ok()?;
    let places = request::request_places(&mut ev, &env, ptr, count, call.span).ok()?;
    if !ev.violations.is_empty() {
        return None;
    }
    Some(places.iter().map(|pl| ev.read_place(&env, pl)).collect())
}

/// Adds to `steps` the steps of the MPI call `base` (enabled by its guard): none
/// while a receive has no matching message, a wait has an unfinished receive
/// or a collective waits for the other processes; one per possible sender for
/// a wildcard receive; else `base`.
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
    if !is_implemented(call.lf) || scratch.inner.procs[p].mpi.phase != MpiPhase::Initialized {
        // Executing it reports the error or the init/finalize violation.
        steps.push(base);
        return Ok(());
    }
    if is_collective(call.lf) {
        let Some(comm) = collective::peek_collective_comm(ctx, oracle, scratch, p, &call)? else {
            steps.push(base); // an invalid communicator: executing it reports it
            return Ok(());
        };
        let n = comm::comm_size(scratch, comm);
        if collective::is_nonblocking(call.lf) {
            // A nonblocking collective posts this process's part: never blocks.
            steps.extend(per_root(ctx, oracle, scratch, p, &call, n, base)?);
            return Ok(());
        }
        // One step for all members, owned by the first, once all have arrived.
        if collective::has_post(scratch, p, comm) {
            // Its earlier nonblocking collectives on `comm` come first.
            return Ok(());
        }
        let members = comm::members(scratch, comm);
        if members
            .iter()
            .any(|&q| collective::has_post(scratch, q as usize, comm))
        {
            // Another member's next collective there is a nonblocking one it
            // posted: this call does not match it (executing reports it).
            steps.push(base);
            return Ok(());
        }
        if members.first() != Some(&(p as u32)) {
            return Ok(());
        }
        for &q in &members {
            let q = q as usize;
            let Some(c) = current_call(ctx.model, scratch, q)
                .filter(|c| is_collective(c.lf) && !collective::is_nonblocking(c.lf))
            else {
                return Ok(());
            };
            if scratch.inner.procs[q].mpi.phase != MpiPhase::Initialized
                || collective::peek_collective_comm(ctx, oracle, scratch, q, &c)? != Some(comm)
            {
                return Ok(());
            }
        }
        // The first member's root is the one the others must agree with.
        steps.extend(per_root(ctx, oracle, scratch, p, &call, n, base)?);
        return Ok(());
    }
    if matches!(
        call.lf,
        LF::MpiWait | LF::MpiWaitall | LF::MpiWaitany | LF::MpiTest | LF::MpiTestall
    ) {
        // Completions depend only on the process's own requests (its progress
        // steps match them), so these steps commute with the other processes'.
        let Some(values) = peek_requests(ctx, oracle, scratch, p, &call) else {
            steps.push(base);
            return Ok(());
        };
        let states: Vec<request::Completion> = values
            .iter()
            .map(|v| request::completion(scratch, p, v))
            .collect();
        let by_buffering = states.iter().any(|c| {
            matches!(
                c,
                request::Completion::Ready {
                    by_buffering: true,
                    ..
                }
            )
        });
        let pending = states
            .iter()
            .any(|c| matches!(c, request::Completion::Pending));
        match call.lf {
            LF::MpiWait | LF::MpiWaitall if pending => {}
            LF::MpiWaitany => {
                let ready: Vec<usize> = (0..states.len())
                    .filter(|&k| {
                        matches!(
                            states[k],
                            request::Completion::Ready { .. } | request::Completion::Invalid(_)
                        )
                    })
                    .collect();
                if ready.is_empty() && !pending {
                    steps.push(Step {
                        commutes: true,
                        ..base
                    }); // all null: MPI_UNDEFINED
                }
                for k in ready {
                    steps.push(Step {
                        choice: Some(k as u32),
                        commutes: true,
                        buffered_send: matches!(
                            states[k],
                            request::Completion::Ready {
                                by_buffering: true,
                                ..
                            }
                        ),
                        ..base.clone()
                    });
                }
            }
            _ => steps.push(Step {
                commutes: true,
                buffered_send: by_buffering,
                ..base
            }),
        }
        return Ok(());
    }
    let stage = scratch.inner.procs[p].mpi.stage;
    if let Some(request) = completion_stage(call.lf, stage) {
        // The call returns once its send completes; as for a wait, that
        // depends only on the process's own request.
        let handle = Value::Handle(Handle::Request(request));
        match request::completion(scratch, p, &handle) {
            request::Completion::Pending => {}
            request::Completion::Ready { by_buffering, .. } => steps.push(Step {
                commutes: true,
                buffered_send: by_buffering,
                ..base
            }),
            _ => steps.push(base), // executing it reports the lost request
        }
        return Ok(());
    }
    let Some((rank_arg, tag_arg, comm_arg, kind)) = p2p_args(&call, stage) else {
        let own_state_only = matches!(
            call.lf,
            LF::MpiInit
                | LF::MpiFinalize
                | LF::MpiCommRank
                | LF::MpiCommSize
                | LF::MpiGetCount
                | LF::MpiRequestFree
        );
        steps.push(Step {
            commutes: own_state_only,
            ..base
        });
        return Ok(());
    };
    let f = ctx.f;
    let Some(comm) = peek_comm(ctx, oracle, scratch, p, &call.args[comm_arg])? else {
        steps.push(base); // an invalid communicator: executing it reports it
        return Ok(());
    };
    let n = comm::comm_size(scratch, comm);
    let pc = scratch.inner.pc;
    let tag = peek(ctx, oracle, scratch, p, &call.args[tag_arg])?;
    let Some(tags) = tag_cases(f, oracle, pc, tag) else {
        // Too many values to split on: executing it reports that.
        steps.push(base);
        return Ok(());
    };
    let rank = peek(ctx, oracle, scratch, p, &call.args[rank_arg])?;
    let mut cases = Vec::new();
    for (tag_guard, tag) in tags {
        let pc = tag_guard.map_or(pc, |g| f.and(pc, g));
        for (rank_guard, rank) in rank_cases(f, oracle, pc, rank, n) {
            let guard = match (tag_guard, rank_guard) {
                (Some(a), Some(b)) => Some(f.and(a, b)),
                (a, b) => a.or(b),
            };
            cases.push((guard, rank, tag));
        }
    }
    if let [(guard, rank, tag)] = cases[..] {
        // One case: the call runs under it.
        let step = with_case(f, &base, guard);
        return p2p_steps(
            ctx,
            oracle,
            scratch,
            &call,
            step,
            (kind, comm, n),
            (rank, tag),
            steps,
        );
    }
    // The rank or tag depends on the inputs: split the path first, one step per
    // value, and let the call run on each path where its envelope is known.
    // (Matching and the deadlock test see one value per path; steps for
    // different values at one state would let one path's match hide another
    // path's deadlock.)
    for (guard, _, _) in cases {
        let Some(guard) = guard else { continue };
        steps.push(Step {
            guard,
            guard_known_true: false,
            choice: Some(ENVELOPE_CASE),
            commutes: false,
            ..base.clone()
        });
    }
    Ok(())
}

/// The steps of point-to-point call `call` (`step`) whose rank argument is
/// `value` (`None`: not a rank of the communicator, which executing reports)
/// and whose tag is `tag`: for a blocking receive or probe one per sender with
/// a matching message, else `step` itself.
#[allow(clippy::too_many_arguments)]
fn p2p_steps(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    scratch: &mut State,
    call: &Call<'_>,
    step: Step,
    (kind, comm, n): (P2p, u32, usize),
    (value, tag): (Option<i64>, i64),
    steps: &mut Vec<Step>,
) -> Result<(), EngineError> {
    let f = ctx.f;
    let p = step.process;
    let blocking = matches!(kind, P2p::Recv | P2p::Probe | P2p::Iprobe);
    let source = match value {
        Some(v) if blocking && (v == ANY || (0..n as i64).contains(&v)) => v,
        _ => {
            // a send, a posted receive, MPI_PROC_NULL (completes at once) or
            // a bad rank (reported)
            let mut step = step;
            match value {
                Some(PROC_NULL) => step.commutes = true,
                Some(_) if kind == P2p::Post => step.commutes = true,
                Some(d) if kind == P2p::Send && (0..n as i64).contains(&d) => {
                    step.commutes = true;
                    if is_standard_send(call.lf) {
                        let tag = Some(tag);
                        let waiting = match comm::to_world(scratch, comm, d as usize) {
                            Some(dw) => {
                                receiver_waits(ctx, oracle, scratch, dw as usize, p, tag, comm)?
                            }
                            None => false,
                        };
                        // MPI_Bsend uses the buffer the program attached, not
                        // MPI's: it always completes locally. MPI_Ssend posts
                        // its message here and waits for the receive at its
                        // next step (`CallStage`).
                        step.buffered_send =
                            !waiting && !matches!(call.lf, LF::MpiBsend | LF::MpiSsend);
                    }
                }
                _ => {}
            }
            steps.push(step);
            return Ok(());
        }
    };
    let commutes = source != ANY && kind != P2p::Iprobe;
    let sources: Vec<u32> = if source == ANY {
        comm::members(scratch, comm)
    } else {
        comm::to_world(scratch, comm, source as usize)
            .into_iter()
            .collect()
    };
    if kind == P2p::Iprobe {
        // MPI may report "no message" even when one was sent (it may still
        // be in transit), so that outcome is always possible.
        steps.push(Step {
            choice: Some(NO_MESSAGE),
            ..step.clone()
        });
    }
    for s in sources {
        if blocking_match(scratch, f, s, p, tag, comm).is_some() {
            steps.push(Step {
                choice: Some(s),
                commutes,
                ..step.clone()
            });
        }
    }
    Ok(())
}

/// Whether step `step` of a wait call completes only by buffering (an
/// `MPI_Isend` whose message nobody has received yet).
fn wait_needs_buffering(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &mut State,
    step: &Step,
    call: &Call<'_>,
) -> bool {
    let p = step.process;
    let Some(values) = peek_requests(ctx, oracle, state, p, call) else {
        return false;
    };
    let buffered = |v: &Value| {
        matches!(
            request::completion(state, p, v),
            request::Completion::Ready {
                by_buffering: true,
                ..
            }
        )
    };
    match (call.lf, step.choice) {
        (LF::MpiWaitany, Some(k)) => values.get(k as usize).is_some_and(buffered),
        (LF::MpiWait | LF::MpiWaitall, _) => values.iter().any(buffered),
        _ => false,
    }
}

/// What a poll (`MPI_Test`, `MPI_Testall`, `MPI_Iprobe`) finds, for the
/// livelock check (`tass-verify`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PollOutcome {
    /// Nothing: the flag comes back 0 and nothing changes but the flag.
    Nothing,
    /// A test whose requests complete only by buffering an `MPI_Isend` (with
    /// zero buffering it would find nothing).
    OnlyByBuffering,
    /// A completion or a message.
    Something,
}

/// What the poll `step` finds (`None`: `step` is no poll).
pub(crate) fn poll_outcome(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &State,
    step: &Step,
) -> Option<PollOutcome> {
    if step.request.is_some() || step.choice == Some(ENVELOPE_CASE) {
        return None;
    }
    let call = current_call(ctx.model, state, step.process).filter(|c| c.tid == step.transition)?;
    if !matches!(call.lf, LF::MpiTest | LF::MpiTestall | LF::MpiIprobe) {
        return None;
    }
    if step.choice == Some(NO_MESSAGE) {
        return Some(PollOutcome::Nothing);
    }
    if call.lf == LF::MpiIprobe {
        return Some(PollOutcome::Something);
    }
    let mut scratch = state.clone();
    let Some(values) = peek_requests(ctx, oracle, &mut scratch, step.process, &call) else {
        return Some(PollOutcome::Something); // executing it reports the error
    };
    let states: Vec<request::Completion> = values
        .iter()
        .map(|v| request::completion(state, step.process, v))
        .collect();
    let outcome = if states
        .iter()
        .any(|c| matches!(c, request::Completion::Pending))
    {
        PollOutcome::Nothing
    } else if states.iter().any(|c| {
        matches!(
            c,
            request::Completion::Ready {
                by_buffering: true,
                ..
            }
        )
    }) {
        PollOutcome::OnlyByBuffering
    } else {
        PollOutcome::Something
    };
    Some(outcome)
}

/// The step of test `step` that finds nothing: what it does under zero
/// buffering when its requests complete only by buffering.
pub(crate) fn failed_poll(step: &Step) -> Step {
    Step {
        choice: Some(NO_MESSAGE),
        buffered_send: false,
        ..step.clone()
    }
}

/// True if `state` is a potential deadlock: some process has not terminated and
/// no process could move if no pending standard send were buffered (a send
/// moves only when its destination waits in a matching receive; a wait for an
/// `MPI_Isend` only once its message was received). `steps` are the state's
/// enabled steps (with buffering).
pub(crate) fn potentially_deadlocked(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &State,
    steps: &[Step],
) -> Result<bool, EngineError> {
    let mut scratch = state.clone();
    for step in steps {
        let p = step.process;
        if step.request.is_some() {
            return Ok(false); // a posted receive takes a message
        }
        if step.choice == Some(ENVELOPE_CASE) {
            return Ok(false); // the path splits first
        }
        let Some(call) = current_call(ctx.model, state, p).filter(|c| c.tid == step.transition)
        else {
            return Ok(false); // a step that is not an MPI call
        };
        if matches!(call.lf, LF::MpiWait | LF::MpiWaitall | LF::MpiWaitany) {
            if wait_needs_buffering(ctx, oracle, &mut scratch, step, &call) {
                continue;
            }
            return Ok(false);
        }
        // The return of an MPI_Ssend or MPI_Sendrecv(_replace) whose message
        // was posted: it needs a buffer while nobody has received it (never
        // enabled then for MPI_Ssend). Posting the message is a move: the
        // posted send half of a send-receive proceeds together with its
        // receive half (so a ring of them cannot deadlock).
        let stage = state.inner.procs[p].mpi.stage;
        if completion_stage(call.lf, stage).is_some() {
            if step.buffered_send {
                continue;
            }
            return Ok(false);
        }
        let is_blocking_send = matches!(call.lf, LF::MpiSend | LF::MpiRsend);
        if !is_blocking_send || scratch.inner.procs[p].mpi.phase != MpiPhase::Initialized {
            return Ok(false);
        }
        let Some((d, tag, comm)) = send_envelope(ctx, oracle, &mut scratch, step, &call, stage)?
        else {
            return Ok(false); // MPI_PROC_NULL, a bad rank, or not known: not counted
        };
        if receiver_waits(ctx, oracle, &mut scratch, d, p, Some(tag), comm)? {
            return Ok(false);
        }
    }
    Ok(state
        .inner
        .procs
        .iter()
        .any(|ps| ps.status == Status::Running))
}

/// The world rank of the destination, the tag and the communicator of the
/// send (or send half) `call` that `step` makes, when all three are known:
/// `None` for `MPI_PROC_NULL`, a bad rank or values that are not concrete.
fn send_envelope(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    scratch: &mut State,
    step: &Step,
    call: &Call<'_>,
    stage: CallStage,
) -> Result<Option<(usize, i64, u32)>, EngineError> {
    let Some((dest, comm)) = send_destination_rank(ctx, oracle, scratch, step, call, stage)? else {
        return Ok(None);
    };
    let Some((_, tag_arg, _, _)) = p2p_args(call, stage) else {
        return Ok(None);
    };
    let tag = peek(ctx, oracle, scratch, step.process, &call.args[tag_arg])?;
    // A tag that depends on the inputs is fixed by the step's guard.
    let pc = ctx.f.and(scratch.inner.pc, step.guard);
    let Some(tag) = resolve_int(ctx.f, oracle, pc, tag) else {
        return Ok(None);
    };
    let Rank::Process(dest) = dest else {
        return Ok(None);
    };
    let d = comm::to_world(scratch, comm, dest as usize);
    Ok(d.map(|d| (d as usize, tag, comm)))
}

/// The destination rank (in its communicator) and the communicator of the
/// send (or send half) `call` that `step` makes, when the path condition and
/// the step's guard fix them to a rank or `MPI_PROC_NULL`.
fn send_destination_rank(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    scratch: &mut State,
    step: &Step,
    call: &Call<'_>,
    stage: CallStage,
) -> Result<Option<(Rank, u32)>, EngineError> {
    let p = step.process;
    let Some((rank_arg, _, comm_arg, P2p::Send)) = p2p_args(call, stage) else {
        return Ok(None);
    };
    let Some(comm) = peek_comm(ctx, oracle, scratch, p, &call.args[comm_arg])? else {
        return Ok(None);
    };
    let n = comm::comm_size(scratch, comm);
    let dest = peek(ctx, oracle, scratch, p, &call.args[rank_arg])?;
    let pc = ctx.f.and(scratch.inner.pc, step.guard);
    let dest = resolve_rank(ctx.f, oracle, pc, dest, n).and_then(|d| Rank::from_int(d, n));
    Ok(dest.map(|d| (d, comm)))
}

/// The MPI call `step` makes, for a step of a process's next statement (not
/// a progress step, not a synchronous pair).
fn call_of<'m>(ctx: &Ctx<'m>, state: &State, step: &Step) -> Option<Call<'m>> {
    if step.request.is_some() || step.delivered_to.is_some() {
        return None;
    }
    current_call(ctx.model, state, step.process).filter(|c| c.tid == step.transition)
}

/// See `Engine::send_destination`.
pub(crate) fn send_destination(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &State,
    step: &Step,
) -> Result<Option<Rank>, EngineError> {
    let p = step.process;
    let Some(call) = call_of(ctx, state, step) else {
        return Ok(None);
    };
    let mut scratch = state.clone();
    let stage = state.inner.procs[p].mpi.stage;
    let Some((dest, comm)) = send_destination_rank(ctx, oracle, &mut scratch, step, &call, stage)?
    else {
        return Ok(None);
    };
    Ok(match dest {
        Rank::ProcNull => Some(Rank::ProcNull),
        Rank::Process(d) => comm::to_world(&scratch, comm, d as usize).map(Rank::Process),
        Rank::Any => None, // not a destination: the send reports it
    })
}

/// See `Engine::waiting_receiver`.
pub(crate) fn waiting_receiver(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &State,
    step: &Step,
) -> Result<Option<usize>, EngineError> {
    let p = step.process;
    let Some(call) = call_of(ctx, state, step) else {
        return Ok(None);
    };
    if !matches!(call.lf, LF::MpiSend | LF::MpiRsend)
        || state.inner.procs[p].mpi.phase != MpiPhase::Initialized
    {
        return Ok(None);
    }
    let mut scratch = state.clone();
    let Some((d, tag, comm)) =
        send_envelope(ctx, oracle, &mut scratch, step, &call, CallStage::Start)?
    else {
        return Ok(None);
    };
    if d == p || pending_receives(state, d) {
        return Ok(None);
    }
    if current_call(ctx.model, state, d).map(|c| c.lf) != Some(LF::MpiRecv) {
        return Ok(None);
    }
    Ok(receiver_waits(ctx, oracle, &mut scratch, d, p, Some(tag), comm)?.then_some(d))
}

/// Whether `step`, a post of a nonblocking point-to-point call by process `p`
/// (`MPI_Irecv`, or `MPI_Isend`/`MPI_Issend` from a buffer no pending receive
/// of `p` writes), commutes with the progress of `p`'s pending receives: the
/// steps other processes' sends can enable while `p` is here. A post only adds
/// a request (receives posted earlier still match first) or reads its send
/// buffer; so `p` is settled for it even while its receives wait for their
/// messages (a halo exchange: receives posted, then sends). `false` when in
/// doubt.
pub(crate) fn post_commutes_with_receives(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &mut State,
    step: &Step,
) -> bool {
    let p = step.process;
    if let Some(handle) = step.request {
        return progress_commutes_with_receives(ctx.f, oracle, state, step, handle);
    }
    if step.choice.is_some() || step.delivered_to.is_some() {
        return false;
    }
    let Some(call) = current_call(ctx.model, state, p).filter(|c| c.tid == step.transition) else {
        return false;
    };
    match call.lf {
        LF::MpiIrecv => true,
        LF::MpiIsend | LF::MpiIssend => {
            let f = ctx.f;
            let pc = f.and(state.inner.pc, step.guard);
            let (sent, count, ty) = {
                let env = ctx.env(state, p);
                let mut ev = Evaluator::new(f, oracle, p, false);
                let Ok(sent) = ev.eval(&env, &call.args[0]) else {
                    return false;
                };
                let Ok(count) = ev.eval_int(&env, &call.args[1]) else {
                    return false;
                };
                let Ok(P2pType::Basic(_, ty)) =
                    buffer::p2p_datatype(&mut ev, &env, &call.args[2], call.span)
                else {
                    return false;
                };
                (sent, count, ty)
            };
            state.inner.procs[p]
                .mpi
                .requests
                .iter()
                .all(|r| match &r.kind {
                    RequestKind::Recv(pr) => {
                        pr.pair.is_none()
                            && pr.ty == ty
                            && disjoint(f, oracle, pc, (&sent, count), (&pr.buffer, pr.capacity))
                    }
                    _ => true,
                })
        }
        _ => false,
    }
}

/// Whether the progress step `step` of `p`'s posted receive `handle` (from one
/// source) commutes with the progress of `p`'s other pending receives: its
/// buffer is disjoint from theirs. Receives posted earlier match first, so the
/// messages each takes do not depend on the order of these steps.
fn progress_commutes_with_receives(
    f: &ExprFactory,
    oracle: &mut Oracle,
    state: &State,
    step: &Step,
    handle: u32,
) -> bool {
    let p = step.process;
    if request::completed_by_others(state, p) {
        // A wait or test of `p` may see another process complete a request.
        return false;
    }
    let requests = &state.inner.procs[p].mpi.requests;
    let Some(RequestKind::Recv(mine)) = requests
        .iter()
        .find(|r| r.handle == handle)
        .map(|r| &r.kind)
    else {
        return false;
    };
    if mine.source == ANY || mine.pair.is_some() {
        return false;
    }
    let pc = f.and(state.inner.pc, step.guard);
    requests.iter().all(|r| match &r.kind {
        _ if r.handle == handle => true,
        RequestKind::Recv(other) => {
            other.pair.is_none()
                && other.ty == mine.ty
                && disjoint(
                    f,
                    oracle,
                    pc,
                    (&mine.buffer, mine.capacity),
                    (&other.buffer, other.capacity),
                )
        }
        _ => true,
    })
}

/// Whether the buffers of `a.1` and `b.1` elements at pointers `a.0` and `b.0`
/// (of one element type) surely do not overlap under `pc`: different objects,
/// different fields, or index ranges at the end of one path that do not meet.
fn disjoint(
    f: &ExprFactory,
    oracle: &mut Oracle,
    pc: Expr,
    a: (&Value, Expr),
    b: (&Value, Expr),
) -> bool {
    use tass_dynamic::api::Pointer;
    let (
        Value::Pointer(Pointer::To { root: ra, path: xa }),
        Value::Pointer(Pointer::To { root: rb, path: xb }),
    ) = (a.0, b.0)
    else {
        return false;
    };
    if ra != rb {
        return true;
    }
    let Some(last) = xa.len().checked_sub(1) else {
        return false;
    };
    if xb.len() != xa.len() {
        return false;
    }
    for (sa, sb) in xa[..last].iter().zip(&xb[..last]) {
        match (sa, sb) {
            (PStep::Field(x), PStep::Field(y)) if x != y => return true,
            (PStep::Field(_), PStep::Field(_)) => {}
            (PStep::Index(i), PStep::Index(j)) if i == j => {}
            _ => return false,
        }
    }
    let (PStep::Index(i), PStep::Index(j)) = (xa[last], xb[last]) else {
        return false;
    };
    // Element ranges [i, i + a.1) and [j, j + b.1) (a buffer may run on into
    // the next rows of the same array, which keeps them in this order).
    let apart = f.or(f.le(f.add(i, a.1), j), f.le(f.add(j, b.1), i));
    f.as_bool(apart) == Some(true) || matches!(oracle.valid(f, pc, apart), Decision::Holds)
}

/// Whether no other process can enable a new step of process `p` where it is,
/// nor disable one (`Step::settled`, for partial-order reduction):
/// `statement_enabled` says whether `p`'s next statement has an enabled step.
pub(crate) fn settled(
    model: &Model,
    f: &ExprFactory,
    state: &State,
    p: usize,
    statement_enabled: bool,
) -> bool {
    if !request::receives_settled(state, f, p) {
        return false;
    }
    let waits = current_call(model, state, p).is_some_and(|c| {
        matches!(
            c.lf,
            LF::MpiWait | LF::MpiWaitall | LF::MpiWaitany | LF::MpiTest | LF::MpiTestall
        )
    });
    if waits {
        // Its outcome must depend only on this process's own requests.
        return !request::completed_by_others(state, p);
    }
    statement_enabled
}

/// True if process `p` has posted receives not matched yet.
pub(crate) fn pending_receives(state: &State, p: usize) -> bool {
    state.inner.procs[p]
        .mpi
        .requests
        .iter()
        .any(|r| matches!(r.kind, RequestKind::Recv(_)))
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
            let mut phrase = format!("{} ({text})", call.lf.c_name());
            if matches!(
                call.lf,
                LF::MpiWait | LF::MpiWaitall | LF::MpiWaitany | LF::MpiTest | LF::MpiTestall
            ) {
                let pending = collective::pending_posts(model, state, p);
                if !pending.is_empty() {
                    phrase.push(' ');
                    phrase.push_str(&pending.join(" and "));
                }
            }
            Some((p, phrase))
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
        if ps.mpi.phase == MpiPhase::Initialized {
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
            witness: witness.clone(),
            claim: "every message sent is received".into(),
        });
    }
    for (p, (func, tid)) in request::leaked(state) {
        let (span, text) = match ctx.model.function(func).body.as_ref() {
            Some(b) => (
                b.transition(tid).span.clone(),
                b.transition(tid).source_text.clone(),
            ),
            None => (span_of(p), String::new()),
        };
        out.push(Violation {
            property: Property::MemoryLeak,
            certainty,
            message: format!(
                "request leak: the request of `{text}` of process {p} is never completed \
                 (MPI_Wait/MPI_Test) nor freed (MPI_Request_free)"
            ),
            span,
            process: p,
            witness: witness.clone(),
            claim: "every request is completed or freed".into(),
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
    if step.request.is_some() {
        return Some(request::execute_progress(ctx, oracle, state, step));
    }
    if step.choice == Some(ENVELOPE_CASE) {
        // Only the path splits; the call runs at the next step.
        let s = state.inner_mut();
        s.pc = ctx.f.and(s.pc, step.guard);
        return Some(Ok((Vec::new(), Vec::new())));
    }
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
    if is_collective(call.lf) && phase == MpiPhase::Initialized {
        if !step.guard_known_true {
            // The step for one value of a root that depends on the inputs
            // (`per_root`): the collective runs under it.
            let s = state.inner_mut();
            s.pc = f.and(s.pc, step.guard);
        }
        if collective::is_nonblocking(call.lf) {
            return collective::post(ctx, oracle, state, p, call);
        }
        return collective::collective_for(ctx, oracle, state, p);
    }
    let mut env = ctx.env(state, p);
    let mut ev = Evaluator::new(f, oracle, p, true);
    if !step.guard_known_true {
        ev.assumed.push(step.guard);
    }
    let name = call.lf.c_name();
    let mut moved = true;
    match (call.lf, phase) {
        (LF::MpiInit, MpiPhase::BeforeInit) => {
            set_mpi(&mut env, |m| m.phase = MpiPhase::Initialized)
        }
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
        (_, MpiPhase::BeforeInit) => ev.fail(
            &env,
            Property::MpiInitFinalize,
            format!("{name} called before MPI_Init"),
            call.span,
        ),
        (_, MpiPhase::Finalized) => ev.fail(
            &env,
            Property::MpiInitFinalize,
            format!("{name} called after MPI_Finalize"),
            call.span,
        ),
        (LF::MpiFinalize, _) => set_mpi(&mut env, |m| m.phase = MpiPhase::Finalized),
        (LF::MpiAbort, _) => {
            check_comm(&mut ev, &env, &call.args[0], call.span)?;
            ev.fail_claiming(
                &env,
                Property::Assertion,
                "MPI_Abort is called: the program aborts".into(),
                "MPI_Abort is not called",
                call.span,
            );
            let pc = ev.current_pc(&env);
            // terminates at the call's own location: later reports point at it
            env.terminate(None);
            env.set_path_condition(pc);
            return Ok((ev.violations, Vec::new()));
        }
        (LF::MpiCommRank | LF::MpiCommSize, _) => {
            let Some(comm) = check_comm(&mut ev, &env, &call.args[0], call.span)? else {
                return Ok((ev.violations, Vec::new()));
            };
            let value = if call.lf == LF::MpiCommRank {
                comm::rank_in(env.state, comm, p as u32).unwrap_or(0)
            } else {
                comm::comm_size(env.state, comm)
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
        (LF::MpiSsend | LF::MpiSendrecv | LF::MpiSendrecvReplace, _) => {
            moved = staged_call(&mut ev, &mut env, call, step)?;
        }
        (lf, _) if is_standard_send(lf) => {
            send(&mut ev, &mut env, &call.args[0..6], call.span, None)?;
        }
        (lf, _) if is_nonblocking_send(lf) => {
            let origin = (step.function, call.tid);
            let synchronous = call.lf == LF::MpiIssend;
            let h = request::add_request(&mut env, RequestKind::Send { synchronous }, origin);
            send(&mut ev, &mut env, &call.args[0..6], call.span, Some(h))?;
            write_request(&mut ev, &mut env, &call.args[6], h, call.span)?;
        }
        (LF::MpiIrecv, _) => post_receive(&mut ev, &mut env, call, step.function)?,
        (LF::MpiRecv, _) => {
            receive(&mut ev, &mut env, &call.args[0..7], step.choice, call.span)?;
        }
        (LF::MpiProbe | LF::MpiIprobe, _) => probe(&mut ev, &mut env, call, step.choice)?,
        (LF::MpiWait | LF::MpiTest, _) => {
            let ptr = ev.eval(&env, &call.args[0])?;
            let place = ev.deref_place(&env, ptr, false, call.span, &|| "request".into())?;
            let v = ev.read_place(&env, &place);
            let (flag, status) = if call.lf == LF::MpiTest {
                (Some(&call.args[1]), &call.args[2])
            } else {
                (None, &call.args[1])
            };
            let status = ev.eval(&env, status)?;
            // `NO_MESSAGE`: the test as zero-buffer MPI runs it (`failed_poll`).
            let pending = step.choice == Some(NO_MESSAGE)
                || matches!(
                    request::completion(env.state, p, &v),
                    request::Completion::Pending
                );
            if !pending {
                request::complete(&mut ev, &mut env, &place, &v, status, name, call.span)?;
            }
            if let Some(flag) = flag {
                write_int_through(&mut ev, &mut env, flag, i64::from(!pending), call.span)?;
            }
        }
        (LF::MpiWaitall | LF::MpiTestall | LF::MpiWaitany, _) => {
            let count = ev.eval_int(&env, &call.args[0])?;
            let count = concrete(&ev, count, "request count", call.span)?;
            let Ok(count) = usize::try_from(count) else {
                ev.fail(
                    &env,
                    Property::MpiCount,
                    format!("negative count {count} in {name}"),
                    call.span,
                );
                return Ok((ev.violations, Vec::new()));
            };
            let ptr = ev.eval(&env, &call.args[1])?;
            let places = request::request_places(&mut ev, &env, ptr, count, call.span)?;
            let values: Vec<Value> = places.iter().map(|pl| ev.read_place(&env, pl)).collect();
            let pending = step.choice == Some(NO_MESSAGE)
                || values.iter().any(|v| {
                    matches!(
                        request::completion(env.state, p, v),
                        request::Completion::Pending
                    )
                });
            match call.lf {
                LF::MpiWaitany => {
                    let status = ev.eval(&env, &call.args[3])?;
                    let index = match step.choice {
                        Some(k) => {
                            let k = k as usize;
                            request::complete(
                                &mut ev, &mut env, &places[k], &values[k], status, name, call.span,
                            )?;
                            k as i64
                        }
                        None => {
                            request::write_status(
                                &mut ev,
                                &mut env,
                                status,
                                request::empty_status(f),
                                call.span,
                            )?;
                            -32766 // MPI_UNDEFINED
                        }
                    };
                    write_int_through(&mut ev, &mut env, &call.args[2], index, call.span)?;
                }
                _ => {
                    let statuses = if call.lf == LF::MpiTestall {
                        &call.args[3]
                    } else {
                        &call.args[2]
                    };
                    let statuses = ev.eval(&env, statuses)?;
                    if !pending {
                        for k in 0..count {
                            let st = request::status_at(&mut ev, &env, &statuses, k, call.span)?;
                            request::complete(
                                &mut ev, &mut env, &places[k], &values[k], st, name, call.span,
                            )?;
                        }
                    }
                    if call.lf == LF::MpiTestall {
                        let flag = i64::from(!pending);
                        write_int_through(&mut ev, &mut env, &call.args[2], flag, call.span)?;
                    }
                }
            }
        }
        (LF::MpiRequestFree, _) => {
            let ptr = ev.eval(&env, &call.args[0])?;
            let place = ev.deref_place(&env, ptr, false, call.span, &|| "request".into())?;
            let v = ev.read_place(&env, &place);
            request::free_request(&mut ev, &mut env, &place, &v, call.span)?;
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

/// One step of `MPI_Ssend` or `MPI_Sendrecv(_replace)` (see [`CallStage`]):
/// posts the message, takes the receive half's message, or returns once the
/// send has completed. True if the call returned.
fn staged_call(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    call: &Call<'_>,
    step: &Step,
) -> Result<bool, EngineError> {
    let a = call.args;
    // (buf, count, datatype, dest, tag, comm) of the send, (buf, count,
    // datatype, source, tag, comm, status) of the receive half.
    let (sends, receives): (Vec<&MExpr>, Vec<&MExpr>) = match call.lf {
        LF::MpiSsend => (a[0..6].iter().collect(), Vec::new()),
        LF::MpiSendrecv => (
            [&a[0], &a[1], &a[2], &a[3], &a[4], &a[10]].into(),
            [&a[5], &a[6], &a[7], &a[8], &a[9], &a[10], &a[11]].into(),
        ),
        _ => (
            [&a[0], &a[1], &a[2], &a[3], &a[4], &a[7]].into(),
            [&a[0], &a[1], &a[2], &a[5], &a[6], &a[7], &a[8]].into(),
        ),
    };
    let p = env.proc;
    match env.state.inner.procs[p].mpi.stage {
        CallStage::Start => {
            let origin = (step.function, call.tid);
            let synchronous = call.lf == LF::MpiSsend;
            let request = request::add_request(env, RequestKind::Send { synchronous }, origin);
            let sends: Vec<MExpr> = sends.into_iter().cloned().collect();
            send(ev, env, &sends, call.span, Some(request))?;
            set_mpi(env, |m| m.stage = CallStage::Sent { request });
            Ok(false)
        }
        CallStage::Sent { request } if !receives.is_empty() => {
            let receives: Vec<MExpr> = receives.into_iter().cloned().collect();
            receive(ev, env, &receives, step.choice, call.span)?;
            set_mpi(env, |m| m.stage = CallStage::Received { request });
            Ok(false)
        }
        CallStage::Sent { request } | CallStage::Received { request } => {
            let requests = &env.state.inner.procs[p].mpi.requests;
            let index = requests
                .iter()
                .position(|r| r.handle == request)
                .ok_or_else(|| {
                    EngineError::invalid("the request of a blocking send vanished", Some(call.span))
                })?;
            request::remove_request(env, index);
            set_mpi(env, |m| m.stage = CallStage::Start);
            Ok(true)
        }
    }
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

/// `MPI_Send(buf, count, datatype, dest, tag, comm)`: buffers the message
/// (naming `request` for `MPI_Isend`).
fn send(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    args: &[MExpr],
    span: &Span,
    request: Option<u32>,
) -> Result<(), EngineError> {
    let f = ev.factory();
    let count = ev.eval_int(&*env, &args[1])?;
    let dtype = buffer::p2p_datatype(ev, &*env, &args[2], span)?;
    let dest = ev.eval_int(&*env, &args[3])?;
    let tag = ev.eval_int(&*env, &args[4])?;
    let Some(comm) = check_comm(ev, &*env, &args[5], span)? else {
        return Ok(());
    };
    let size = comm::comm_size(env.state, comm);
    check_rank(ev, &*env, dest, false, "destination", span, size);
    let data = match dtype {
        P2pType::Basic(_, ty) => {
            read_buffer(ev, &*env, &args[0], count, f.int(0), &ty, span)?.map(Value::Data)
        }
        P2pType::Pair(c) => buffer::read_pairs(ev, &*env, &args[0], count, f.int(0), c, span)?
            .map(|pairs| buffer::pair_message(f, c, &pairs)),
    };
    let pc = ev.current_pc(&*env);
    let Some(dest) = resolve_rank(f, ev.oracle(), pc, dest, size) else {
        if holds(ev, &*env, f.ff()) {
            return Ok(()); // the path is dead (a bad rank was reported)
        }
        return Err(EngineError::unsupported(
            "MPI send to a rank that depends on the inputs",
            span,
        ));
    };
    let Some(dest) = usize::try_from(dest)
        .ok()
        .and_then(|d| comm::to_world(env.state, comm, d))
    else {
        return Ok(()); // MPI_PROC_NULL, or a bad rank already reported
    };
    let tag = tag_value(ev, ev.current_pc(&*env), tag, span)?;
    let Some(data) = data else { return Ok(()) };
    env.enqueue(Message {
        source: env.proc as u32,
        dest,
        tag: f.int(tag),
        comm,
        data,
        count,
        request,
    });
    Ok(())
}

/// `MPI_Recv(buf, count, datatype, source, tag, comm, status)` taking the first
/// matching message from world rank `choice` (`None`: `MPI_PROC_NULL`).
fn receive(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    args: &[MExpr],
    choice: Option<u32>,
    span: &Span,
) -> Result<(), EngineError> {
    let f = ev.factory();
    let capacity = ev.eval_int(&*env, &args[1])?;
    let dtype = buffer::p2p_datatype(ev, &*env, &args[2], span)?;
    let source = ev.eval_int(&*env, &args[3])?;
    let tag = ev.eval_int(&*env, &args[4])?;
    let Some(comm) = check_comm(ev, &*env, &args[5], span)? else {
        return Ok(());
    };
    let size = comm::comm_size(env.state, comm);
    check_rank(ev, &*env, source, true, "source", span, size);
    let zero_count = f.le(f.int(0), capacity);
    ev.check(
        &*env,
        zero_count,
        Property::MpiCount,
        || format!("negative count {} in MPI_Recv", f.pretty(capacity)),
        span,
    );
    let status = match choice {
        None => request::proc_null_status(f),
        Some(s) => {
            let tag = tag_value(ev, ev.current_pc(&*env), tag, span)?;
            let Some(k) = blocking_match(env.state, f, s, env.proc, tag, comm) else {
                return Err(EngineError::invalid(
                    "receive step without a matching message",
                    Some(span),
                ));
            };
            let Some(msg) = env.dequeue(k) else {
                return Err(EngineError::invalid("message vanished", Some(span)));
            };
            match dtype {
                P2pType::Basic(_, ty) => {
                    request::deliver(ev, env, &msg, (&args[0]).into(), capacity, &ty, span)?
                }
                P2pType::Pair(c) => {
                    request::deliver_pairs(ev, env, &msg, (&args[0]).into(), capacity, c, span)?
                }
            }
            let rank = comm::rank_in(env.state, comm, s).unwrap_or(s as usize);
            (f.int(rank as i64), msg.tag, msg.count)
        }
    };
    let st = ev.eval(&*env, &args[6])?;
    request::write_status(ev, env, st, status, span)
}

/// `MPI_Irecv(buf, count, datatype, source, tag, comm, request)`: posts the
/// receive (a progress step completes it later).
fn post_receive(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    call: &Call<'_>,
    function: FunctionId,
) -> Result<(), EngineError> {
    let f = ev.factory();
    let (a, span) = (call.args, call.span);
    let capacity = ev.eval_int(&*env, &a[1])?;
    let (ty, pair) = match buffer::p2p_datatype(ev, &*env, &a[2], span)? {
        P2pType::Basic(_, ty) => (ty, None),
        P2pType::Pair(c) => (Type::Int, Some(c)),
    };
    let source = ev.eval_int(&*env, &a[3])?;
    let tag = ev.eval_int(&*env, &a[4])?;
    let Some(comm) = check_comm(ev, &*env, &a[5], span)? else {
        return Ok(());
    };
    let size = comm::comm_size(env.state, comm);
    check_rank(ev, &*env, source, true, "source", span, size);
    let nonneg = f.le(f.int(0), capacity);
    ev.check(
        &*env,
        nonneg,
        Property::MpiCount,
        || format!("negative count {} in MPI_Irecv", f.pretty(capacity)),
        span,
    );
    let pc = ev.current_pc(&*env);
    let source = match resolve_rank(f, ev.oracle(), pc, source, size) {
        Some(ANY) => Some(ANY),
        Some(PROC_NULL) => None,
        Some(r) => match usize::try_from(r)
            .ok()
            .and_then(|r| comm::to_world(env.state, comm, r))
        {
            Some(w) => Some(i64::from(w)),
            None => return Ok(()), // a bad rank, reported
        },
        None if holds(ev, &*env, f.ff()) => return Ok(()),
        None => {
            return Err(EngineError::unsupported(
                "MPI_Irecv from a rank that depends on the inputs",
                span,
            ))
        }
    };
    let origin = (function, call.tid);
    let kind = match source {
        None => {
            let (source, tag, count) = request::proc_null_status(f);
            RequestKind::Done { source, tag, count }
        }
        Some(source) => {
            let tag = tag_value(ev, ev.current_pc(&*env), tag, span)?;
            let buffer = ev.eval(&*env, &a[0])?;
            let pointee = buffer::BufArg::Expr(&a[0]).scalar_pointee();
            RequestKind::Recv(request::PostedRecv {
                buffer,
                pointee,
                capacity,
                ty,
                pair,
                source,
                tag,
                comm,
            })
        }
    };
    let h = request::add_request(env, kind, origin);
    write_request(ev, env, &a[6], h, span)
}

/// `MPI_Probe(source, tag, comm, status)` and `MPI_Iprobe(source, tag, comm,
/// flag, status)`: the status of the message from world rank `choice` a
/// receive would take, without taking it.
fn probe(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    call: &Call<'_>,
    choice: Option<u32>,
) -> Result<(), EngineError> {
    let f = ev.factory();
    let (a, span) = (call.args, call.span);
    let source = ev.eval_int(&*env, &a[0])?;
    let tag = ev.eval_int(&*env, &a[1])?;
    let Some(comm) = check_comm(ev, &*env, &a[2], span)? else {
        return Ok(());
    };
    let size = comm::comm_size(env.state, comm);
    check_rank(ev, &*env, source, true, "source", span, size);
    let status_arg = if call.lf == LF::MpiIprobe {
        &a[4]
    } else {
        &a[3]
    };
    let found = match choice {
        Some(NO_MESSAGE) => None,
        None => Some(request::proc_null_status(f)),
        Some(s) => {
            let tag = tag_value(ev, ev.current_pc(&*env), tag, span)?;
            let Some(k) = blocking_match(env.state, f, s, env.proc, tag, comm) else {
                return Err(EngineError::invalid(
                    "probe step without a matching message",
                    Some(span),
                ));
            };
            let m = &env.state.inner.messages[k];
            let rank = comm::rank_in(env.state, comm, s).unwrap_or(s as usize);
            Some((f.int(rank as i64), m.tag, m.count))
        }
    };
    if call.lf == LF::MpiIprobe {
        write_int_through(ev, env, &a[3], i64::from(found.is_some()), span)?;
    }
    if let Some(status) = found {
        let st = ev.eval(&*env, status_arg)?;
        request::write_status(ev, env, st, status, span)?;
    }
    Ok(())
}

/// `*ptr = Handle::Request(h)` for the request argument `ptr` of a call.
fn write_request(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    ptr: &MExpr,
    h: u32,
    span: &Span,
) -> Result<(), EngineError> {
    let v = ev.eval(&*env, ptr)?;
    let place = ev.deref_place(&*env, v, false, span, &|| "request".into())?;
    ev.write_place(env, &place, Value::Handle(Handle::Request(h)), span)
}

/// `*ptr = value` for an `int *` output argument of a call.
fn write_int_through(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    ptr: &MExpr,
    value: i64,
    span: &Span,
) -> Result<(), EngineError> {
    let f = ev.factory();
    let v = ev.eval(&*env, ptr)?;
    let place = ev.deref_place(&*env, v, false, span, &|| "flag".into())?;
    ev.write_place(env, &place, Value::Data(f.int(value)), span)
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
            request: None,
        };
        let buffer = vec![
            msg(0, 1, 7, 1),
            msg(0, 1, 3, 2),
            msg(0, 1, 3, 3),
            msg(2, 1, 3, 4),
        ];
        assert_eq!(first_match(&buffer, &f, 0, 1, 3, 0), Some(1));
        assert_eq!(first_match(&buffer, &f, 0, 1, ANY, 0), Some(0));
        assert_eq!(first_match(&buffer, &f, 2, 1, 3, 0), Some(3));
        assert_eq!(first_match(&buffer, &f, 2, 1, 7, 0), None);
        assert_eq!(first_match(&buffer, &f, 1, 0, ANY, 0), None);
        // a duplicate communicator is a separate context
        assert_eq!(first_match(&buffer, &f, 0, 1, ANY, 1), None);
    }
}
