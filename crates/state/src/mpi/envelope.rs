//! The envelope of a point-to-point call: where its rank, tag and
//! communicator are, their values under the path condition, and the path
//! splits when they depend on the inputs.

use tass_model::api::mpi::{rank_values, Blocking, MpiKind};
use tass_model::api::{LibraryFunction as LF, Span};
use tass_semantics::api::{Decision, EngineError, Evaluator, Oracle};
use tass_symbolic::api::{Expr, ExprFactory};

use super::context::{first_match, resolve_int, Call, ProcessCall};
use super::process::CallStage;
use super::request;
use crate::state::State;
use crate::step::Step;

/// What a point-to-point call does next.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum P2p {
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
pub(super) fn p2p_args(call: &Call<'_>, stage: CallStage) -> Option<(usize, usize, usize, P2p)> {
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
pub(super) fn resolve_rank(
    f: &ExprFactory,
    oracle: &mut Oracle,
    pc: Expr,
    r: Expr,
    n: usize,
) -> Option<i64> {
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
pub(super) fn rank_cases(
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

impl ProcessCall<'_> {
    /// `base` once per value the root of the process's collective call can
    /// take in a communicator of `n` processes (a root that depends on the
    /// inputs splits the path; the step with a guard fixing it executes
    /// with that root).
    pub(super) fn per_root(&mut self, n: usize, base: Step) -> Result<Vec<Step>, EngineError> {
        let f = self.mpi.ctx.f;
        let Some(root) = self.peek_root()? else {
            return Ok(vec![base]);
        };
        let pc = self.state.inner.pc;
        Ok(rank_cases(f, self.mpi.oracle, pc, root, n)
            .into_iter()
            .map(|(guard, _)| with_case(f, &base, guard))
            .collect())
    }
}

/// At most this many values of a tag that depends on the inputs are explored
/// (one path each); a tag that can take more is not supported.
pub(super) const TAG_CASES: usize = 64;

/// The values a tag argument can take under `pc`, each with the guard that
/// selects it (`None` when `pc` fixes it); `None` if there are more than
/// [`TAG_CASES`] or the prover cannot list them. Matching a message needs the
/// tag's value, so a tag that depends on the inputs splits the path.
pub(super) fn tag_cases(
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
pub(super) fn tag_value(
    ev: &mut Evaluator<'_>,
    pc: Expr,
    tag: Expr,
    span: &Span,
) -> Result<i64, EngineError> {
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

/// `base`, restricted to the case `guard` of [`rank_cases`] (if any).
pub(super) fn with_case(f: &ExprFactory, base: &Step, guard: Option<Expr>) -> Step {
    match guard {
        None => base.clone(),
        Some(g) => Step {
            guard: f.and(base.guard, g),
            guard_known_true: false,
            ..base.clone()
        },
    }
}

/// The first message from `source` a blocking receive (or probe) of process
/// `p` may take: not one an earlier posted `MPI_Irecv` of `p` also matches.
pub(super) fn blocking_match(
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
