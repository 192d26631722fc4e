//! Collective assertions (`#pragma TASS collective assert ID EXPR`): the
//! snapshot queues of the system state and the check made when every process
//! has a snapshot queued (the "Collective assertions" paper, Sec. 3, the
//! extended transition system ATS).
//!
//! A process that executes the pragma appends a snapshot of its own state to
//! its queue: a reference to the immutable process state (an `Arc`, the
//! paper's flyweight), never a copy. When every queue holds a snapshot, the
//! heads are taken off, put together into one composite state (the messages
//! in flight are not part of it) and every process's asserted expression is
//! evaluated there, `PROC[e].x` reading process `e`'s snapshot. The k-th
//! snapshots must come from assertions of the same ID; termination with
//! snapshots left over is a violation too. Nothing here blocks a process:
//! the assertions add no synchronisation.

use std::collections::VecDeque;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use tass_dynamic::api::{Root, Value};
use tass_model::api::{
    render_expr, CollectiveKind, FunctionId, LoopArrival, LoopInvariant, Model, Span, Statement,
    TransitionId, VarId, VarScope,
};
use tass_semantics::api::{
    leans_on_loop_values, Certainty, Decision, EngineError, Environment, Evaluator, Oracle,
    Property, RemoteVar, SnapshotPosition, SnapshotReport, Violation,
};
use tass_symbolic::api::{Expr, ExprFactory};

use crate::env::{Layout, ProcEnv};
use crate::state::{proc_hash, ProcState, State, Status};

/// One snapshot: the state of its process right after the pragma, and which
/// pragma took it.
#[derive(Clone, Debug)]
pub(crate) struct Snapshot {
    proc: Arc<ProcState>,
    function: FunctionId,
    transition: TransitionId,
    /// The step of the path that took it (1 is the first step), for reports.
    /// Not part of the state's identity: two paths that reach the same queues
    /// in different numbers of steps reach the same state.
    step: u64,
    /// `proc_hash(proc)`, computed once (the process state never changes).
    hash: u64,
    /// `tass compare`: set when the snapshot marks an arrival at a joint
    /// invariant loop's head (`crate::loop_joint`).
    mark: Option<Arc<LoopMark>>,
}

/// What an arrival at a joint invariant loop's head adds to its joint
/// snapshot (`crate::loop_joint`): the arrival, the path condition there
/// (before the fresh values, or before the cut) and, on the
/// specification's entries, the process after the fresh values, the path
/// condition then and the loop condition (entering the body) there.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct LoopMark {
    pub arrival: LoopArrival,
    pub pc: Expr,
    pub after: Option<(Arc<ProcState>, Expr, Expr)>,
}

impl Hash for LoopMark {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.arrival.hash(state);
        self.pc.hash(state);
        if let Some((proc, pc, guard)) = &self.after {
            proc_hash(proc).hash(state);
            pc.hash(state);
            guard.hash(state);
        }
    }
}

impl Snapshot {
    /// A joint snapshot of `proc` at a joint invariant loop's arrival.
    pub(crate) fn of_loop(
        proc: Arc<ProcState>,
        (function, transition): (FunctionId, TransitionId),
        step: u64,
        mark: LoopMark,
    ) -> Snapshot {
        Snapshot {
            hash: proc_hash(&proc),
            proc,
            function,
            transition,
            step,
            mark: Some(Arc::new(mark)),
        }
    }

    /// The arrival this snapshot marks, if it is a joint invariant loop's.
    pub(crate) fn loop_arrival(&self) -> Option<LoopArrival> {
        self.mark.as_ref().map(|m| m.arrival)
    }
}

impl Snapshot {
    /// Process `process`'s current state, taken at the pragma of `transition`.
    fn take(
        state: &State,
        process: usize,
        (function, transition): (FunctionId, TransitionId),
    ) -> Snapshot {
        let proc = Arc::clone(&state.inner.procs[process]);
        Snapshot {
            hash: proc_hash(&proc),
            proc,
            function,
            transition,
            step: state.inner.snapshots.steps,
            mark: None,
        }
    }
}

impl PartialEq for Snapshot {
    fn eq(&self, other: &Self) -> bool {
        self.function == other.function
            && self.transition == other.transition
            && self.hash == other.hash
            && (Arc::ptr_eq(&self.proc, &other.proc) || self.proc == other.proc)
            && self.mark == other.mark
    }
}
impl Eq for Snapshot {}

impl Hash for Snapshot {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // The fields `eq` compares but the process's state, whose hash is `hash`.
        let identity = (&self.hash, &self.function, self.transition.index());
        (identity, &self.mark).hash(state);
    }
}

/// The snapshot queues of a system state, one per process.
///
/// The queues are part of the state's identity (equality and hash); the
/// counters of matched occurrences and of steps are only for reports (a
/// report's trace is replayed from the start, which counts them along its own
/// path).
#[derive(Clone, Debug, Default)]
pub(crate) struct Snapshots {
    /// Empty when every queue is empty (so such states compare equal
    /// whatever happened before).
    queues: Arc<Vec<VecDeque<Snapshot>>>,
    /// `tass compare`: every joint-assertion snapshot of each process, in
    /// order (checked against the other program's when both have ended).
    pub(crate) joint: Arc<Vec<Vec<Snapshot>>>,
    /// The record of the processes waiting at an invariant loop's head for
    /// the others (`crate::loop_sync`), if any.
    pub(crate) loop_sync: Option<Arc<crate::loop_sync::LoopSync>>,
    /// How many collective loop entries this path has completed (names the
    /// fresh values of the next one: `crate::loop_sync`).
    pub(crate) loop_entries: u32,
    /// The lagged loop records of the path (`crate::loop_lag`), if any.
    pub(crate) loop_lag: Option<Arc<crate::loop_lag::LoopLag>>,
    /// Occurrences matched so far on this path.
    matched: u64,
    /// Steps taken so far on this path.
    pub(crate) steps: u64,
}

impl PartialEq for Snapshots {
    fn eq(&self, other: &Self) -> bool {
        (Arc::ptr_eq(&self.queues, &other.queues) || self.queues == other.queues)
            && (Arc::ptr_eq(&self.joint, &other.joint) || self.joint == other.joint)
            && self.loop_sync == other.loop_sync
            && self.loop_entries == other.loop_entries
            && self.loop_lag == other.loop_lag
    }
}
impl Eq for Snapshots {}

impl Hash for Snapshots {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // The fields `eq` compares (not the counters).
        let loops = (&self.loop_sync, &self.loop_entries, &self.loop_lag);
        (&self.queues, &self.joint, loops).hash(state);
    }
}

impl Snapshots {
    /// True when no process has a snapshot queued or recorded (set-based
    /// matching leaves states with snapshots to syntactic matching).
    pub(crate) fn is_empty(&self) -> bool {
        self.queues.iter().all(|q| q.is_empty())
            && self.joint.iter().all(|j| j.is_empty())
            // lagged loop records hold values (snapshots, relations)
            && self.loop_lag.is_none()
    }

    /// The number of snapshots process `p` has queued.
    pub(crate) fn queue_len(&self, p: usize) -> usize {
        self.queues.get(p).map_or(0, VecDeque::len)
    }

    /// True if some process has a snapshot queued.
    pub(crate) fn queue_len_any(&self) -> bool {
        self.queues.iter().any(|q| !q.is_empty())
    }
}

/// True if `model` has a collective or joint assertion (the engine then
/// counts steps).
pub(crate) fn model_has_collective(model: &Model) -> bool {
    model.functions.iter().any(|f| {
        f.body.as_ref().is_some_and(|b| {
            b.graph
                .edge_weights()
                .any(|t| matches!(t.statement, Statement::CollectiveAssert { .. }))
        })
    })
}

/// `state` with one more step counted (for the step numbers of snapshots).
pub(crate) fn count_step(mut state: State) -> State {
    state.inner_mut().snapshots.steps += 1;
    state
}

/// Values of the inputs that lead to a violation, when the prover gave them.
type Witness = Option<Vec<(String, String)>>;

/// What the snapshot code needs of the engine.
pub(crate) struct SnapshotCtx<'a> {
    pub model: &'a Model,
    pub f: &'a ExprFactory,
    pub layout: &'a Layout,
    /// `tass compare`: joint assertions take snapshots (else they are ignored).
    pub joint: JointSnapshots,
    /// `tass compare`, the implementation's side: the specification's paths
    /// (path condition and joint snapshots), to check each occurrence as soon
    /// as every process has reached it.
    pub spec_paths: &'a [(Expr, Vec<JointPoint>)],
    /// `tass compare`: which of the two programs this engine runs (joint
    /// invariant loops act differently on each side: `crate::loop_joint`).
    pub side: JointSide,
    /// Lagged loop records: the most incomplete records (`--max-lag`);
    /// `None`: the default of `crate::loop_lag`.
    pub max_lag: Option<usize>,
}

impl<'a> SnapshotCtx<'a> {
    /// The environment of process `proc` in `state`, for the evaluator.
    pub(crate) fn env<'s>(&self, state: &'s mut State, proc: usize) -> ProcEnv<'s>
    where
        'a: 's,
    {
        let ctx = crate::mpi::Ctx {
            model: self.model,
            f: self.f,
            layout: self.layout,
        };
        ctx.env(state, proc)
    }
}

/// Which program of `tass compare` an engine runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum JointSide {
    #[default]
    Specification,
    Implementation,
}

/// Whether joint assertions take snapshots (`tass compare`) or are ignored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum JointSnapshots {
    #[default]
    Ignored,
    Recorded,
}

/// The ID and condition of the collective assertion at a transition.
fn assertion_at(
    model: &Model,
    function: FunctionId,
    transition: TransitionId,
) -> Option<(&str, &tass_model::api::Expr, &Span)> {
    pragma_at(model, function, transition, CollectiveKind::Collective)
}

/// The ID and condition of the `kind` assertion at a transition.
fn pragma_at(
    model: &Model,
    function: FunctionId,
    transition: TransitionId,
    kind: CollectiveKind,
) -> Option<(&str, &tass_model::api::Expr, &Span)> {
    let t = model
        .function(function)
        .body
        .as_ref()?
        .transition(transition);
    match &t.statement {
        Statement::CollectiveAssert {
            id,
            kind: k,
            condition,
        } if *k == kind => Some((id.as_str(), condition, &t.span)),
        _ => None,
    }
}

impl SnapshotCtx<'_> {
    fn id_of(&self, s: &Snapshot) -> &str {
        assertion_at(self.model, s.function, s.transition).map_or("?", |(id, _, _)| id)
    }

    fn span_of(&self, s: &Snapshot) -> Span {
        assertion_at(self.model, s.function, s.transition).map_or_else(
            || self.model.function(s.function).span.clone(),
            |a| a.2.clone(),
        )
    }

    /// `line L` of a snapshot (its step is in the report's structured
    /// positions, `SnapshotReport`, which the report renumbers).
    fn line_of(&self, s: &Snapshot) -> String {
        format!("line {}", self.span_of(s).start_line)
    }

    /// Where process `process` took snapshot `s` (a collective assertion's).
    fn position(&self, process: usize, s: &Snapshot) -> SnapshotPosition {
        let span = self.span_of(s);
        SnapshotPosition {
            process,
            assertion: self.id_of(s).to_string(),
            file: span.file.to_string(),
            line: span.start_line,
            step: s.step,
        }
    }

    /// Where process `process` took joint snapshot `s`.
    fn joint_position(&self, process: usize, s: &Snapshot) -> SnapshotPosition {
        let span = self.joint_span(s);
        SnapshotPosition {
            process,
            assertion: joint_id(self, s).unwrap_or("?").to_string(),
            file: span.file.to_string(),
            line: span.start_line,
            step: s.step,
        }
    }

    /// Certainty and witness of a violation that holds on every input of
    /// the path; `None` if the path is infeasible.
    pub(crate) fn path_violation(
        &self,
        oracle: &mut Oracle,
        pc: Expr,
    ) -> Option<(Certainty, Witness)> {
        match oracle.valid(self.f, pc, self.f.ff()) {
            Decision::Holds => None,
            Decision::Fails { witness } if !leans_on_loop_values(self.f, &[pc]) => {
                Some((Certainty::Provable, witness))
            }
            Decision::Fails { witness } => Some((Certainty::Possible, witness)),
            Decision::Unknown => Some((Certainty::Possible, None)),
        }
    }
}

/// One step of a process, for the checks that run after it: the snapshot
/// code's context and prover, the state after the step, the process and the
/// transition (of a function) it executed. The receiver of
/// [`AfterStep::check_assertions`] and the loop records' arrivals
/// (`crate::loop_lag`, `crate::loop_sync`), which all start from it.
pub(crate) struct AfterStep<'c, 'a> {
    pub ctx: &'c SnapshotCtx<'a>,
    pub oracle: &'c mut Oracle,
    pub state: &'c mut State,
    pub process: usize,
    pub at: (FunctionId, TransitionId),
}

impl AfterStep<'_, '_> {
    /// If the step executed a collective assertion: appends the snapshot,
    /// reports an out-of-order arrival, and checks the assertion when every
    /// process has a snapshot queued.
    pub(crate) fn check_assertions(&mut self) -> Result<Vec<Violation>, EngineError> {
        let (ctx, oracle, state, process) =
            (self.ctx, &mut *self.oracle, &mut *self.state, self.process);
        let (function, transition) = self.at;
        if ctx.joint == JointSnapshots::Recorded
            && pragma_at(ctx.model, function, transition, CollectiveKind::Joint).is_some()
        {
            let snapshot = Snapshot::take(state, process, (function, transition));
            let nprocs = state.inner.procs.len();
            let joint = Arc::make_mut(&mut state.inner_mut().snapshots.joint);
            joint.resize(nprocs, Vec::new());
            joint[process].push(snapshot);
            let k = joint[process].len();
            if joint.iter().all(|list| list.len() >= k) {
                // Occurrence k is complete: check it now against every
                // specification path this one can meet (the counts and the IDs
                // are checked when the paths are paired at the end).
                let heads: Vec<Snapshot> = joint.iter().map(|list| list[k - 1].clone()).collect();
                return Ok(check_joint_now(ctx, oracle, state, &heads, k)?
                    .into_iter()
                    .collect());
            }
            return Ok(Vec::new());
        }
        let Some((id, _, span)) = assertion_at(ctx.model, function, transition) else {
            return Ok(Vec::new());
        };
        let nprocs = state.inner.procs.len();
        let snapshot = Snapshot::take(state, process, (function, transition));
        let mut violations = Vec::new();
        let pc = state.inner.pc;
        let inner = state.inner_mut();
        let queues = Arc::make_mut(&mut inner.snapshots.queues);
        if queues.is_empty() {
            queues.resize(nprocs, VecDeque::new());
        }
        // The k-th snapshots of all processes must come from the same assertion:
        // compare with every other process's snapshot at the same position.
        let position = queues[process].len();
        let others: Vec<String> = (0..nprocs)
            .filter(|&q| q != process)
            .filter_map(|q| queues[q].get(position).map(|s| (q, s)))
            .filter(|(_, s)| ctx.id_of(s) != id)
            .map(|(q, s)| {
                format!(
                    "process {q} reached `{}` ({})",
                    ctx.id_of(s),
                    ctx.line_of(s)
                )
            })
            .collect();
        let occurrence = inner.snapshots.matched + position as u64 + 1;
        if !others.is_empty() {
            if let Some((certainty, witness)) = ctx.path_violation(oracle, pc) {
                let processes = (0..nprocs)
                    .filter_map(|q| match q == process {
                        true => Some(ctx.position(q, &snapshot)),
                        false => queues[q].get(position).map(|s| ctx.position(q, s)),
                    })
                    .collect();
                violations.push(Violation {
                    property: Property::CollectiveAssertion,
                    certainty,
                    message: format!(
                    "collective assertions reached in different orders: at occurrence {occurrence} \
                     process {process} reached `{id}` ({}) but {}",
                    ctx.line_of(&snapshot),
                    others.join(", ")
                ),
                    span: span.clone(),
                    process,
                    witness,
                    claim: format!(
                    "every process reaches the same collective assertion at occurrence {occurrence}"
                ),
                    snapshots: Some(Box::new(SnapshotReport {
                        assertion: id.to_string(),
                        occurrence,
                        processes,
                        specification: None,
                        specification_path: None,
                    })),
                });
            }
        }
        queues[process].push_back(snapshot);
        if queues.iter().any(VecDeque::is_empty) {
            return Ok(violations);
        }
        let heads: Vec<Snapshot> = queues.iter_mut().filter_map(VecDeque::pop_front).collect();
        if queues.iter().all(VecDeque::is_empty) {
            inner.snapshots.queues = Arc::default();
        }
        inner.snapshots.matched += 1;
        let occurrence = inner.snapshots.matched;
        if heads.iter().all(|s| ctx.id_of(s) == id) {
            let check = CompositeCheck {
                ctx,
                state,
                heads: &heads,
                occurrence,
            };
            let pc = check.run(oracle, &mut violations)?;
            if pc != state.inner.pc {
                state.inner_mut().pc = pc;
            }
        }
        Ok(violations)
    }
}

/// The most `PROC[e]` ranks one check splits the path on (each split is over
/// at most the number of processes).
const MAX_RANK_SPLITS: usize = 4;

/// One composite check: the state the snapshots `heads` were matched in, and
/// which occurrence of the assertion they are.
#[derive(Clone, Copy)]
struct CompositeCheck<'c, 'm> {
    ctx: &'c SnapshotCtx<'m>,
    state: &'c State,
    heads: &'c [Snapshot],
    occurrence: u64,
}

/// Why a composite check stopped: the error, and the undecided `PROC[e]`
/// rank (with the condition it was read under) when that was the cause.
struct CompositeError {
    error: EngineError,
    rank: Option<tass_semantics::api::UndecidedRank>,
}

impl CompositeCheck<'_, '_> {
    /// Evaluates every process's asserted expression in the composite state of
    /// `heads`; returns the path condition with the claims assumed (the path goes
    /// on as if they held, as after a failed `assert`).
    ///
    /// A `PROC[e]` whose rank `e` the path condition leaves open (a neighbour
    /// computed from a symbolic problem size) splits the check: it is made under
    /// `pc && e == r` for every rank `r` the path allows, and the path goes on
    /// under the disjunction of what each case assumed. A rank outside
    /// `0..NPROCS` the path allows stays an error.
    fn run(
        &self,
        oracle: &mut Oracle,
        violations: &mut Vec<Violation>,
    ) -> Result<Expr, EngineError> {
        self.split(oracle, self.state.inner.pc, violations, 0)
    }

    fn split(
        &self,
        oracle: &mut Oracle,
        pc: Expr,
        violations: &mut Vec<Violation>,
        splits: usize,
    ) -> Result<Expr, EngineError> {
        let ctx = self.ctx;
        let heads = self.heads;
        let found = violations.len();
        let (error, rank, read_under) = match self.under(oracle, pc, violations) {
            Ok(pc) => return Ok(pc),
            Err(CompositeError { error, rank: None }) => return Err(error),
            Err(CompositeError {
                error,
                rank: Some(open),
            }) => (error, open.rank, open.read_under),
        };
        violations.truncate(found);
        let f = ctx.f;
        let nprocs = heads.len() as i64;
        // The rank must name a process wherever it is read (`read_under`: the path
        // condition and the enclosing `&&`, `||`, `?:` conditions, as in
        // `N < 2 || PROC[N - 2].x == ...`).
        let in_range = f.and(f.le(f.int(0), rank), f.lt(rank, f.int(nprocs)));
        if splits >= MAX_RANK_SPLITS || !oracle.is_unsat(f, f.and(read_under, f.not(in_range))) {
            return Err(error);
        }
        // Case r: where the rank is read, it is r; elsewhere on the path the
        // operand is not used, and every case covers it (checked more than once,
        // never skipped). The cases together are the whole path condition.
        let mut cases = Vec::new();
        for r in 0..nprocs {
            let case = f.and(pc, f.or(f.not(read_under), f.eq(rank, f.int(r))));
            if oracle.is_unsat(f, case) {
                continue;
            }
            cases.push(self.split(oracle, case, violations, splits + 1)?);
        }
        Ok(f.or_all(cases))
    }

    fn under(
        &self,
        oracle: &mut Oracle,
        pc: Expr,
        violations: &mut Vec<Violation>,
    ) -> Result<Expr, CompositeError> {
        let CompositeCheck {
            ctx,
            state,
            heads,
            occurrence,
        } = *self;
        let stopped = |ev: &Evaluator, error: EngineError| CompositeError {
            error,
            rank: ev.undecided_rank,
        };
        let mut inner = (*state.inner).clone();
        inner.pc = pc;
        inner.procs = heads.iter().map(|s| Arc::clone(&s.proc)).collect();
        inner.snapshots = Snapshots::default();
        let mut composite = State::new(inner);
        let positions: Vec<SnapshotPosition> = heads
            .iter()
            .enumerate()
            .map(|(q, s)| ctx.position(q, s))
            .collect();
        // Every expression first (with the checks inside them, such as bounds),
        // then one question for all the claims together: most matches hold, and
        // one prover call instead of one per process is what keeps the assertions
        // cheap. Only when that fails is each claim checked on its own, to say
        // which process's fails.
        let mut claims = Vec::new();
        let mut pc = pc;
        for (q, head) in heads.iter().enumerate() {
            let Some((_, condition, _)) = assertion_at(ctx.model, head.function, head.transition)
            else {
                continue;
            };
            let env = composite_env(ctx, &mut composite, q);
            let mut ev = Evaluator::checking(ctx.f, oracle, q);
            let c = match ev.eval_bool(&env, condition) {
                Ok(c) => c,
                Err(error) => return Err(stopped(&ev, error)),
            };
            violations.append(&mut ev.violations);
            pc = ev.assumed.drain(..).fold(pc, |pc, a| ctx.f.and(pc, a));
            claims.push((q, head, c));
        }
        let all = ctx.f.and_all(claims.iter().map(|&(_, _, c)| c));
        if ctx.f.as_bool(all) == Some(true) || oracle.valid(ctx.f, pc, all) == Decision::Holds {
            return Ok(pc);
        }
        composite.inner_mut().pc = pc;
        for (q, head, c) in claims {
            let Some((id, condition, span)) =
                assertion_at(ctx.model, head.function, head.transition)
            else {
                continue;
            };
            let env = composite_env(ctx, &mut composite, q);
            let mut ev = Evaluator::checking(ctx.f, oracle, q);
            let claim = AssertionClaim {
                kind: "collective",
                id,
                occurrence,
                process: q,
            };
            claim.check(&mut ev, &env, (c, render_expr(ctx.model, condition)), span);
            for v in &mut ev.violations {
                if v.property == Property::CollectiveAssertion {
                    v.snapshots = Some(Box::new(SnapshotReport {
                        assertion: id.to_string(),
                        occurrence,
                        processes: positions.clone(),
                        specification: None,
                        specification_path: None,
                    }));
                }
            }
            violations.append(&mut ev.violations);
            pc = ev.assumed.drain(..).fold(pc, |pc, a| ctx.f.and(pc, a));
        }
        Ok(pc)
    }
}

/// The composite state seen by process `q`.
pub(crate) fn composite_env<'a>(
    ctx: &SnapshotCtx<'a>,
    composite: &'a mut State,
    q: usize,
) -> CompositeEnv<'a> {
    CompositeEnv {
        env: ctx.env(composite, q),
        spec: None,
    }
}

/// [`composite_env`] with `spec.x` read in the specification's `point`.
pub(crate) fn composite_env_with_spec<'a>(
    ctx: &SnapshotCtx<'a>,
    composite: &'a mut State,
    q: usize,
    point: &'a JointPoint,
) -> CompositeEnv<'a> {
    let mut env = composite_env(ctx, composite, q);
    env.spec = Some(point);
    env
}

/// At a final state (every process terminated): snapshots left in a queue
/// mean that some process reached collective assertions more often than
/// another.
pub(crate) fn leftover(ctx: &SnapshotCtx, oracle: &mut Oracle, state: &State) -> Vec<Violation> {
    let s = &state.inner;
    let queues = &s.snapshots.queues;
    if queues.iter().all(VecDeque::is_empty) || s.procs.iter().any(|p| p.status == Status::Running)
    {
        return Vec::new();
    }
    let Some((p, longest)) = queues.iter().enumerate().max_by_key(|(_, q)| q.len()) else {
        return Vec::new();
    };
    let Some(first) = longest.front() else {
        return Vec::new();
    };
    let Some((certainty, witness)) = ctx.path_violation(oracle, s.pc) else {
        return Vec::new();
    };
    let short: Vec<String> = queues
        .iter()
        .enumerate()
        .filter(|(_, q)| q.is_empty())
        .map(|(q, _)| q.to_string())
        .collect();
    let left: Vec<String> = longest
        .iter()
        .map(|s| format!("`{}` ({})", ctx.id_of(s), ctx.line_of(s)))
        .collect();
    vec![Violation {
        property: Property::CollectiveAssertion,
        certainty,
        message: format!(
            "the processes terminated with collective assertions unmatched: process {p} reached \
             {} that process(es) {} never reached (occurrence {} on)",
            left.join(", "),
            short.join(", "),
            s.snapshots.matched + 1
        ),
        span: ctx.span_of(first),
        process: p,
        witness,
        claim: "every process reaches the collective assertions equally often".into(),
        snapshots: Some(Box::new(SnapshotReport {
            assertion: ctx.id_of(first).to_string(),
            occurrence: s.snapshots.matched + 1,
            processes: longest.iter().map(|snap| ctx.position(p, snap)).collect(),
            specification: None,
            specification_path: None,
        })),
    }]
}

/// The composite state of a collective assertion seen by one process: its own
/// variables are those of its snapshot, `PROC[e]` names process `e`'s snapshot.
pub(crate) struct CompositeEnv<'a> {
    env: ProcEnv<'a>,
    /// `tass compare`: the specification's snapshot `spec.x` reads.
    spec: Option<&'a JointPoint>,
}

impl Environment for CompositeEnv<'_> {
    crate::env::forward_to_proc_env!(env);
    fn spec_root(&self, name: &str) -> Result<Root, String> {
        let Some(point) = self.spec else {
            return Err(format!(
                "spec.{name} outside joint assertions of `tass compare`"
            ));
        };
        // A process number past the last names the specification's snapshot;
        // `var` is the position of `name` in it.
        let (k, _) = point.value(name).ok_or_else(|| {
            format!(
                "the specification has no variable `{name}` where it reached joint assertion `{}`",
                point.id
            )
        })?;
        Ok(Root::Global {
            proc: self.nprocs() as u32,
            var: VarId(k as u32),
        })
    }
    fn remote_root(&self, remote: RemoteVar) -> Result<Root, String> {
        let (rank, _, var) = remote;
        let name = &self.env.model.var(var).name;
        self.env.remote_root(remote, |fname| {
            format!("the snapshot of process {rank} has no frame of `{fname}` (PROC[{rank}]@{fname}.{name})")
        })
    }
    fn get(&self, root: Root) -> Option<&Value> {
        match (root, self.spec) {
            // `spec.x` (see `spec_root`): the specification's value.
            (Root::Global { proc, var }, Some(point)) if proc as usize == self.nprocs() => {
                point.values.get(var.0 as usize).map(|(_, v)| v)
            }
            _ => self.env.get(root),
        }
    }
}

/// One joint-assertion snapshot of the specification, as the implementation's
/// joint assertions see it (`spec.x`): its ID, where it was taken, and the
/// values of the variables the specification's process saw there by name
/// (its top frame's locals first, then its globals and outputs, then the
/// inputs).
#[derive(Clone, Debug, PartialEq)]
pub struct JointPoint {
    /// The assertion's ID.
    pub id: String,
    /// The line of the pragma.
    pub line: u32,
    /// The step of the specification's path that took it.
    pub step: u64,
    pub(crate) values: Vec<(String, Value)>,
    /// Set when the point is an arrival at a joint invariant loop's head.
    pub(crate) mark: Option<JointLoopPoint>,
}

/// What the implementation needs of the specification's arrival at a joint
/// invariant loop's head (`crate::loop_joint`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct JointLoopPoint {
    pub arrival: LoopArrival,
    /// The specification's path condition at the arrival.
    pub pc: Expr,
    /// Entries: what holds after the fresh values.
    pub after: Option<AfterFreshValues>,
}

/// The specification at a loop entry after its fresh values: the values of
/// its variables by name, the path condition (its own invariant assumed) and
/// its loop condition (entering the body).
pub(crate) type AfterFreshValues = (Vec<(String, Value)>, Expr, Expr);

impl JointPoint {
    /// Where the specification's process took this snapshot.
    pub(crate) fn position(&self) -> SnapshotPosition {
        SnapshotPosition {
            process: 0,
            assertion: self.id.clone(),
            file: String::new(),
            line: self.line,
            step: self.step,
        }
    }

    /// The value of the specification's variable `name` there.
    fn value(&self, name: &str) -> Option<(usize, &Value)> {
        self.values
            .iter()
            .enumerate()
            .find(|(_, (n, _))| n == name)
            .map(|(k, (_, v))| (k, v))
    }

    /// The loop arrival this point is, if it is one.
    pub(crate) fn loop_arrival(&self) -> Option<LoopArrival> {
        self.mark.as_ref().map(|m| m.arrival)
    }
}

/// The values of the variables process 0 of `state` sees when its state is
/// `proc`, by name (see [`JointPoint`]).
fn named_values(ctx: &SnapshotCtx, state: &State, proc: &Arc<ProcState>) -> Vec<(String, Value)> {
    let mut scratch = state.clone();
    scratch.inner_mut().procs[0] = Arc::clone(proc);
    let env = ctx.env(&mut scratch, 0);
    let top = proc.stack.last().map(|f| f.function);
    let mut values: Vec<(u8, String, Value)> = Vec::new();
    for v in &ctx.model.variables {
        let rank = match v.scope {
            VarScope::Local(fid) if Some(fid) == top => 0,
            VarScope::ProcessGlobal | VarScope::Output => 1,
            VarScope::Input => 2,
            _ => continue,
        };
        let Some(value) = env.get(env.root_of(v.id)).cloned() else {
            continue;
        };
        match values.iter_mut().find(|(_, n, _)| *n == v.name) {
            Some(slot) if rank < slot.0 => *slot = (rank, v.name.clone(), value),
            Some(_) => {}
            None => values.push((rank, v.name.clone(), value)),
        }
    }
    values.into_iter().map(|(_, n, v)| (n, v)).collect()
}

/// The joint snapshots of process 0 of `state`, oldest first.
pub(crate) fn joint_points(ctx: &SnapshotCtx, state: &State) -> Vec<JointPoint> {
    let Some(list) = state.inner.snapshots.joint.first() else {
        return Vec::new();
    };
    list.iter()
        .map(|s| {
            let mark = s.mark.as_ref().map(|m| JointLoopPoint {
                arrival: m.arrival,
                pc: m.pc,
                after: m
                    .after
                    .as_ref()
                    .map(|(proc, pc, guard)| (named_values(ctx, state, proc), *pc, *guard)),
            });
            JointPoint {
                id: joint_id(ctx, s).unwrap_or("").to_string(),
                line: ctx.joint_span(s).start_line,
                step: s.step,
                values: named_values(ctx, state, &s.proc),
                mark,
            }
        })
        .collect()
}

/// `tass compare`: checks the joint assertions of the implementation's final
/// `state` against the specification's joint snapshots `spec` (of a path
/// compatible with this one), under `pc` (both paths' conditions): the k-th
/// joint snapshots of the implementation's processes and the
/// specification's k-th must come from the same ID, and every process's
/// expression must hold with `spec.x` read in the specification's k-th.
/// The first violation, at the first occurrence that fails.
pub(crate) fn check_joint(
    ctx: &SnapshotCtx,
    oracle: &mut Oracle,
    state: &State,
    spec: &[JointPoint],
    pc: Expr,
) -> Result<Option<Violation>, EngineError> {
    let nprocs = state.inner.procs.len();
    let lists = &state.inner.snapshots.joint;
    let len = |q: usize| lists.get(q).map_or(0, Vec::len);
    let most = (0..nprocs).map(len).max().unwrap_or(0).max(spec.len());
    for k in 0..most {
        let heads: Vec<Option<&Snapshot>> = (0..nprocs).map(|q| lists.get(q)?.get(k)).collect();
        let ids: Vec<Option<&str>> = heads
            .iter()
            .map(|h| h.and_then(|s| joint_id(ctx, s)))
            .collect();
        let expected = spec.get(k).map(|p| p.id.as_str());
        let agree = ids.iter().all(|id| *id == expected && id.is_some());
        if !agree {
            let (q, at) = heads
                .iter()
                .enumerate()
                .find_map(|(q, h)| h.map(|s| (q, ctx.joint_span(s))))
                .unwrap_or((0, ctx.model.function(ctx.model.main).span.clone()));
            let reached: Vec<String> = ids
                .iter()
                .enumerate()
                .map(|(q, id)| match id {
                    Some(id) => format!("process {q} `{id}`"),
                    None => format!("process {q} none"),
                })
                .collect();
            let spec_side = match spec.get(k) {
                Some(p) => format!("`{}` (line {})", p.id, p.line),
                None => "none (it reaches fewer joint assertions)".into(),
            };
            let Some((certainty, witness)) = ctx.path_violation(oracle, pc) else {
                return Ok(None);
            };
            return Ok(Some(Violation {
                property: Property::CollectiveAssertion,
                certainty,
                message: format!(
                    "joint assertions out of step at occurrence {}: the specification reached \
                     {spec_side}, the implementation {}",
                    k + 1,
                    reached.join(", ")
                ),
                span: at,
                process: q,
                witness,
                claim: "both programs reach the same joint assertions in the same order".into(),
                snapshots: Some(Box::new(SnapshotReport {
                    assertion: ids
                        .iter()
                        .flatten()
                        .next()
                        .copied()
                        .unwrap_or("?")
                        .to_string(),
                    occurrence: k as u64 + 1,
                    processes: heads
                        .iter()
                        .enumerate()
                        .filter_map(|(q, h)| h.map(|s| ctx.joint_position(q, s)))
                        .collect(),
                    specification: spec.get(k).map(JointPoint::position),
                    specification_path: None,
                })),
            }));
        }
        // Checked during the search already when the specification's paths
        // were known then (`check_joint_now`).
        if !ctx.spec_paths.is_empty() {
            continue;
        }
        let heads: Vec<Snapshot> = heads.into_iter().flatten().cloned().collect();
        if let Some(v) = check_joint_occurrence(ctx, oracle, state, &heads, &spec[k], k + 1, pc)? {
            return Ok(Some(v));
        }
    }
    Ok(None)
}

/// One process's claim of an occurrence of a `kind` ("collective" or
/// "joint") assertion: what a failure's message names.
struct AssertionClaim<'a> {
    kind: &'static str,
    id: &'a str,
    occurrence: u64,
    process: usize,
}

impl AssertionClaim<'_> {
    /// Checks the claim `c` (`text`: the assertion's condition, for the
    /// message): a `collective-assertion` violation when it can fail.
    fn check(
        &self,
        ev: &mut Evaluator<'_>,
        env: &dyn Environment,
        (c, text): (Expr, String),
        span: &Span,
    ) {
        let AssertionClaim {
            kind,
            id,
            occurrence,
            process,
        } = self;
        let message = || {
            format!("{kind} assertion `{id}` (occurrence {occurrence}) can fail for process {process}: `{text}`")
        };
        ev.check(env, c, Property::CollectiveAssertion, message, span);
    }
}

/// Occurrence `k` of the implementation's joint assertions (`heads`) against
/// the k-th joint snapshot of each specification path it can meet.
fn check_joint_now(
    ctx: &SnapshotCtx,
    oracle: &mut Oracle,
    state: &State,
    heads: &[Snapshot],
    k: usize,
) -> Result<Option<Violation>, EngineError> {
    let ids: Vec<Option<&str>> = heads.iter().map(|s| joint_id(ctx, s)).collect();
    for (index, (pc_s, points)) in ctx.spec_paths.iter().enumerate() {
        let Some(point) = points.get(k - 1) else {
            continue;
        };
        if ids.iter().any(|id| *id != Some(point.id.as_str())) {
            continue;
        }
        let pc = ctx.f.and(state.inner.pc, *pc_s);
        if oracle.is_unsat(ctx.f, pc) {
            continue;
        }
        if let Some(mut v) = check_joint_occurrence(ctx, oracle, state, heads, point, k, pc)? {
            if let Some(report) = v.snapshots.as_mut() {
                report.specification_path = Some(index);
            }
            return Ok(Some(v));
        }
    }
    Ok(None)
}

/// The ID of the joint assertion, or of the joint invariant loop, that took
/// snapshot `s`.
pub(crate) fn joint_id<'m>(ctx: &SnapshotCtx<'m>, s: &Snapshot) -> Option<&'m str> {
    pragma_at(ctx.model, s.function, s.transition, CollectiveKind::Joint)
        .map(|a| a.0)
        .or_else(|| joint_loop_at(ctx.model, s).map(|inv| inv.id.as_str()))
}

/// The joint loop invariant whose arrival took snapshot `s`.
fn joint_loop_at<'m>(model: &'m Model, s: &Snapshot) -> Option<&'m LoopInvariant> {
    s.mark.as_ref()?;
    let body = model.function(s.function).body.as_ref()?;
    match &body.transition(s.transition).statement {
        Statement::LoopInvariant(inv) => Some(inv),
        _ => None,
    }
}

impl SnapshotCtx<'_> {
    fn joint_span(&self, s: &Snapshot) -> Span {
        if let Some(inv) = joint_loop_at(self.model, s) {
            return inv.span.clone();
        }
        pragma_at(self.model, s.function, s.transition, CollectiveKind::Joint).map_or_else(
            || self.model.function(s.function).span.clone(),
            |a| a.2.clone(),
        )
    }
}

/// The k-th occurrence of a joint assertion: every implementation process's
/// expression in the composite of `heads`, with `spec.x` read in `point`.
fn check_joint_occurrence(
    ctx: &SnapshotCtx,
    oracle: &mut Oracle,
    state: &State,
    heads: &[Snapshot],
    point: &JointPoint,
    occurrence: usize,
    pc: Expr,
) -> Result<Option<Violation>, EngineError> {
    let mut inner = (*state.inner).clone();
    inner.procs = heads.iter().map(|s| Arc::clone(&s.proc)).collect();
    inner.snapshots = Snapshots::default();
    inner.pc = pc;
    let mut composite = State::new(inner);
    for (q, head) in heads.iter().enumerate() {
        let Some((id, condition, span)) = pragma_at(
            ctx.model,
            head.function,
            head.transition,
            CollectiveKind::Joint,
        ) else {
            continue;
        };
        let env = CompositeEnv {
            env: ctx.env(&mut composite, q),
            spec: Some(point),
        };
        let mut ev = Evaluator::checking(ctx.f, oracle, q);
        let c = ev.eval_bool(&env, condition)?;
        let claim = AssertionClaim {
            kind: "joint",
            id,
            occurrence: occurrence as u64,
            process: q,
        };
        claim.check(&mut ev, &env, (c, render_expr(ctx.model, condition)), span);
        if let Some(mut v) = ev.violations.into_iter().next() {
            if v.property == Property::CollectiveAssertion {
                v.snapshots = Some(Box::new(SnapshotReport {
                    assertion: id.to_string(),
                    occurrence: occurrence as u64,
                    processes: heads
                        .iter()
                        .enumerate()
                        .map(|(q, s)| ctx.joint_position(q, s))
                        .collect(),
                    specification: Some(point.position()),
                    specification_path: None,
                }));
            }
            return Ok(Some(v));
        }
    }
    Ok(None)
}
