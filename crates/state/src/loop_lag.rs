//! Collective loop invariants with *lagged* loop records (the paper's
//! semantics, its Sec. 2.3-2.4): processes are not held at the loop head; a
//! process may be several iterations ahead of another, with messages crossing
//! the head (the paper's `stagger`: rank 1 sends on odd iterations what rank
//! 0 receives on even ones, so rank 1 must run ahead).
//!
//! Used by a second run (the engine's `lagged_loops`) when the aligned form
//! (`crate::loop_sync`) was refused (stuck with a process waiting at a head,
//! a message crossing the head) or found only possible violations.
//!
//! Each arrival of process `p` at an invariant loop's head (entry or return,
//! its `g`-th arrival at any invariant head) belongs to loop record `g`:
//!
//! 1. `p`'s write set gets fresh values `__tass_loop_g{g}_p{p}_{k}` and the
//!    *relation* `fresh == old value` is added to the path condition (and
//!    remembered in the record): so far nothing is forgotten, the state is
//!    the same set of concrete states.
//! 2. `p`'s state after that is the record's snapshot of `p`.
//! 3. When every process has arrived (records complete in order), the
//!    invariant is checked on the composite of the snapshots under the path
//!    condition (with every relation), and the loop conditions evaluated on
//!    the snapshots must agree (else one process leaves where another goes
//!    on). Then the path condition is *weakened*: every conjunct that
//!    mentions a value of a record older than the previous one is dropped
//!    (that iteration's claim, branch conditions, relations), except the
//!    relations of records still incomplete; the claim and the guards'
//!    agreement are kept, and so are the previous record's facts and this
//!    record's relation to them ([`HISTORY`]).
//!
//! Why it is sound: steps 1-2 introduce names for existing values; step 3
//! only checks and then drops conjuncts of the path condition, and adds only
//! the claims just proved from it (a claim that can fail is reported, then
//! assumed like any checked property). A weaker path condition stands for
//! more concrete states, never fewer, so every run of the program is
//! simulated by an explored path, and every violation anywhere is found (as
//! *possible* where it leans on loop values). Nothing is cut: the search
//! ends because the weakened states repeat once the fresh names are
//! renamed canonically ([`canonic_names`], the paper's `canonic`): the
//! generations of loop values present in a state are renumbered densely in
//! their order, with the counters that name the next ones.
//!
//! A process that ends while a record waits for it, is an `invariant`
//! violation ([`stuck_outcome`]).

use std::collections::{BTreeSet, HashMap, HashSet};
use std::sync::Arc;

use tass_dynamic::api::{HeapObject, Value};
use tass_model::api::{CollectiveKind, FunctionId, LoopArrival, LoopInvariant, TransitionId};
use tass_semantics::api::{
    havoc_write_set, EngineError, Havoc, Oracle, Violation, LOOP_SYMBOL_PREFIX,
};
use tass_symbolic::api::{Expr, ExprFactory, Type};

use crate::loop_sync::{
    agree_on_guards, arrival_name, check_claims, ended_without_arriving, invariant_at, Moment,
};
use crate::mpi::Ctx;
use crate::snapshot::{AfterStep, SnapshotCtx};
use crate::state::{ProcState, State, Status};

/// The loop records of a path: the incomplete ones, oldest first, and the
/// counters that name the next arrivals.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct LoopLag {
    /// The number of the oldest incomplete record (all before it completed).
    completed: u32,
    /// Per process: the number of the record its next arrival belongs to.
    next: Vec<u32>,
    records: Vec<LagRecord>,
}

impl LoopLag {
    /// How many records process `p` has arrived at beyond the oldest
    /// incomplete one (its arrivals at records `completed + 1 ..`).
    pub(crate) fn records_ahead(&self, p: usize) -> u32 {
        self.next
            .get(p)
            .map_or(0, |&next| next.saturating_sub(self.completed + 1))
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct LagRecord {
    id: String,
    arrival: LoopArrival,
    snaps: Vec<Option<LagSnap>>,
    /// The conjuncts `fresh == old` added by the arrivals so far.
    relation: Vec<Expr>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
struct LagSnap {
    at: (FunctionId, TransitionId),
    proc: Arc<ProcState>,
}

/// How many records before the one completed keep their conjuncts: 1 keeps
/// the previous iteration's facts (e.g. the parity of a counter that a
/// branch decided), which the invariant alone need not imply.
const HISTORY: u32 = 1;

/// The name prefix of the fresh values of lagged records.
fn generation_prefix() -> String {
    format!("{LOOP_SYMBOL_PREFIX}_g")
}

/// The record number in the name of a lagged record's fresh value, and the
/// rest of the name after it.
fn generation_of(f: &ExprFactory, symbol: Expr) -> Option<(u32, String)> {
    let name = f.symbol_name(symbol)?;
    let rest = name.strip_prefix(&generation_prefix())?;
    let digits = rest.chars().take_while(char::is_ascii_digit).count();
    let g = rest[..digits].parse().ok()?;
    Some((g, rest[digits..].to_string()))
}

impl AfterStep<'_, '_> {
    /// If the step was the arrival at an invariant loop's head: records it
    /// (fresh values, relation, snapshot) and completes the oldest record if
    /// every process has now arrived.
    pub(crate) fn record_lagged_arrival(&mut self) -> Result<Vec<Violation>, EngineError> {
        let (ctx, oracle, state, process) =
            (self.ctx, &mut *self.oracle, &mut *self.state, self.process);
        let (function, transition) = self.at;
        let Some(inv) = invariant_at(ctx.model, function, transition) else {
            return Ok(Vec::new());
        };
        if inv.kind != CollectiveKind::Collective {
            return Err(EngineError::unsupported(
                format!(
                    "joint loop invariant `{}`: the specification's processes would have to run \
                 iterations apart, which tass supports for collective invariants in verify only",
                    inv.id
                ),
                &inv.span,
            ));
        }
        let nprocs = state.inner.procs.len();
        let mut lag = state
            .inner
            .snapshots
            .loop_lag
            .as_deref()
            .cloned()
            .unwrap_or_else(|| LoopLag {
                completed: 0,
                next: vec![0; nprocs],
                records: Vec::new(),
            });
        let generation = lag.next[process];
        let slot = (generation - lag.completed) as usize;
        if slot == lag.records.len() {
            lag.records.push(LagRecord {
                id: inv.id.clone(),
                arrival: inv.arrival,
                snaps: vec![None; nprocs],
                relation: Vec::new(),
            });
        } else if lag.records[slot].id != inv.id || lag.records[slot].arrival != inv.arrival {
            let other = &lag.records[slot];
            let (id, arrival) = (other.id.clone(), other.arrival);
            return Ok(self.end_out_of_order(inv, &met_another_record(&id, arrival)));
        }
        lag.next[process] += 1;
        let limit = ctx.max_lag.unwrap_or_else(|| default_lag_limit(nprocs));
        if lag.records.len() > limit {
            return Err(ran_ahead(inv, process, &lag, limit));
        }
        let before = Arc::clone(&state.inner.procs[process]);
        let assumed = havoc_process(ctx, state, process, inv, generation)?;
        let after = Arc::clone(&state.inner.procs[process]);
        let mut relation = Vec::new();
        relate_procs(ctx.f, &before, &after, &mut relation).map_err(|()| {
            EngineError::unsupported(
                format!(
                "collective loop invariant `{}`: an object of the loop's write set changed shape \
                 at the loop head; tass cannot relate its fresh value to the old one",
                inv.id
            ),
                &inv.span,
            )
        })?;
        let f = ctx.f;
        let pc = f.and_all(
            std::iter::once(state.inner.pc)
                .chain(assumed)
                .chain(relation.iter().copied()),
        );
        state.inner_mut().pc = pc;
        let record = &mut lag.records[slot];
        record.relation.extend(relation);
        record.snaps[process] = Some(LagSnap {
            at: (function, transition),
            proc: after,
        });
        let mut violations = Vec::new();
        if lag.records[0].snaps.iter().all(Option::is_some) {
            complete_oldest(ctx, oracle, state, &mut lag, &mut violations)?;
        }
        state.inner_mut().snapshots.loop_lag = Some(Arc::new(lag));
        Ok(violations)
    }
}

/// The most incomplete records a path may have (the most loop arrivals one
/// process may be ahead of another). The search with lagged records ends
/// only if the processes stay a bounded number of iterations apart (the
/// paper's Sec. 3: in the reduced search of its `stagger` they stay at most
/// 2 apart); a process that may run ahead without bound (sends that are
/// buffered with nobody receiving yet) makes the search go on forever, one
/// new state per arrival. Past this many records the run stops (an error,
/// never a verdict) instead of searching on. `--max-lag K` replaces it (a
/// program whose processes stay further apart, but boundedly).
fn default_lag_limit(nprocs: usize) -> usize {
    (2 * nprocs + 4).max(8)
}

/// Why a path with more than [`default_lag_limit`] (or `--max-lag`)
/// incomplete records stops the run.
fn ran_ahead(inv: &LoopInvariant, process: usize, lag: &LoopLag, limit: usize) -> EngineError {
    let oldest = &lag.records[0];
    let missing: Vec<String> = (0..oldest.snaps.len())
        .filter(|&q| oldest.snaps[q].is_none())
        .map(|q| q.to_string())
        .collect();
    EngineError::unsupported(
        format!(
            "collective loop invariant `{}` with lagged loop records: process {process} ran {} \
             arrivals at invariant loop heads ahead of process(es) {} (tass follows at most \
             {limit} incomplete records; `--max-lag K` raises the limit); \
             lagged records decide only when the processes stay a bounded number of \
             iterations apart, and here one may run ahead without bound (e.g. its sends are \
             buffered while nobody receives them) or further than the limit",
            inv.id,
            lag.records.len() - 1,
            missing.join(", "),
        ),
        &inv.span,
    )
}

/// Gives process `process`'s write set fresh values named after record
/// `generation`; returns what they are known to satisfy (type ranges).
fn havoc_process(
    ctx: &SnapshotCtx,
    state: &mut State,
    process: usize,
    inv: &LoopInvariant,
    generation: u32,
) -> Result<Vec<Expr>, EngineError> {
    let mut env = ctx.env(state, process);
    let mut k = 0usize;
    let mut fresh = |f: &ExprFactory, ty: Type| {
        k += 1;
        f.symbol(
            &format!("{}{generation}_p{process}_{k}", generation_prefix()),
            ty,
        )
    };
    let havoc = Havoc {
        inv,
        span: &inv.span,
        fresh: &mut fresh,
    };
    let mut changes = Vec::new();
    havoc_write_set(ctx.model, ctx.f, &mut env, havoc, &mut changes)
}

/// `new == old` for every data value the fresh values replaced.
fn relate_procs(
    f: &ExprFactory,
    old: &ProcState,
    new: &ProcState,
    out: &mut Vec<Expr>,
) -> Result<(), ()> {
    relate_all(f, &old.globals, &new.globals, out)?;
    if old.stack.len() != new.stack.len() || old.heap.len() != new.heap.len() {
        return Err(());
    }
    for (a, b) in old.stack.iter().zip(&new.stack) {
        relate_all(f, &a.locals, &b.locals, out)?;
    }
    for (a, b) in old.heap.iter().zip(new.heap.iter()) {
        match (a, b) {
            (HeapObject::Live { value: x, .. }, HeapObject::Live { value: y, .. }) => {
                relate_values(f, x, y, out)?
            }
            (HeapObject::Freed, HeapObject::Freed) => {}
            _ => return Err(()),
        }
    }
    Ok(())
}

fn relate_all(
    f: &ExprFactory,
    old: &[Value],
    new: &[Value],
    out: &mut Vec<Expr>,
) -> Result<(), ()> {
    if old.len() != new.len() {
        return Err(());
    }
    for (a, b) in old.iter().zip(new) {
        relate_values(f, a, b, out)?;
    }
    Ok(())
}

fn relate_values(f: &ExprFactory, old: &Value, new: &Value, out: &mut Vec<Expr>) -> Result<(), ()> {
    if old == new {
        return Ok(());
    }
    match (old, new) {
        (Value::Data(a), Value::Data(b)) => {
            out.push(f.eq(*b, *a));
            Ok(())
        }
        (Value::Struct(a), Value::Struct(b)) | (Value::Array(a), Value::Array(b)) => {
            relate_all(f, a, b, out)
        }
        _ => Err(()),
    }
}

/// Completes the oldest record: checks the invariant on the composite of its
/// snapshots and the agreement of the loop conditions, then weakens the path
/// condition (module documentation, step 3).
fn complete_oldest(
    ctx: &SnapshotCtx,
    oracle: &mut Oracle,
    state: &mut State,
    lag: &mut LoopLag,
    violations: &mut Vec<Violation>,
) -> Result<(), EngineError> {
    let record = lag.records.remove(0);
    let number = lag.completed;
    lag.completed += 1;
    let mut composite = state.clone();
    let snaps: Vec<&LagSnap> = record.snaps.iter().flatten().collect();
    {
        let s = composite.inner_mut();
        for (q, snap) in snaps.iter().enumerate() {
            s.procs[q] = Arc::clone(&snap.proc);
        }
    }
    let invariants: Vec<&LoopInvariant> = snaps
        .iter()
        .filter_map(|s| invariant_at(ctx.model, s.at.0, s.at.1))
        .collect();
    let Some(&first) = invariants.first() else {
        return Ok(());
    };
    let moment = match record.arrival {
        LoopArrival::Entry => Moment::Entry,
        LoopArrival::Return => Moment::Return,
    };
    check_claims(ctx, oracle, &mut composite, &invariants, moment, violations)?;
    agree_on_guards(ctx, oracle, &mut composite, first, violations)?;
    let f = ctx.f;
    let pending: HashSet<Expr> = lag
        .records
        .iter()
        .flat_map(|r| r.relation.iter().copied())
        .collect();
    // What is kept: the conjuncts about this record's values and the
    // previous record's (its claim, the branches taken in its iteration, and
    // this record's relation to it), and the relations of later records.
    let oldest_kept = number.saturating_sub(HISTORY);
    let kept: Vec<Expr> = f
        .conjuncts(composite.inner.pc)
        .into_iter()
        .filter(|c| {
            pending.contains(c)
                || !f
                    .free_symbols(*c)
                    .into_iter()
                    .any(|s| generation_of(f, s).is_some_and(|(g, _)| g < oldest_kept))
        })
        .collect();
    state.inner_mut().pc = f.and_all(kept);
    Ok(())
}

/// Where a process that arrived at a loop head as part of a record of
/// another loop (`other_id`, or of the same loop the other way) met the
/// others, for [`AfterStep::end_out_of_order`]: loops met in different
/// orders, or a process left a loop on an iteration where another went on.
fn met_another_record(other_id: &str, other_arrival: LoopArrival) -> String {
    format!(
        "where another process's corresponding arrival was at the loop head of `{}` ({})",
        other_id,
        arrival_name(other_arrival)
    )
}

/// At a state where no process can move, or all have ended: a process that
/// has ended while the oldest record waits for its arrival is an `invariant`
/// violation (it never arrives). `None` if there is none.
pub(crate) fn stuck_outcome(ctx: Ctx, oracle: &mut Oracle, state: &mut State) -> Option<Violation> {
    let lag = state.inner.snapshots.loop_lag.clone()?;
    let record = lag.records.first()?;
    let (function, transition) = record.snaps.iter().flatten().next()?.at;
    let inv = invariant_at(ctx.model, function, transition)?;
    let arrived: Vec<String> = (0..record.snaps.len())
        .filter(|&p| record.snaps[p].is_some())
        .map(|p| p.to_string())
        .collect();
    let p = (0..record.snaps.len()).find(|&p| {
        record.snaps[p].is_none()
            && matches!(state.inner.procs[p].status, Status::Terminated { .. })
    })?;
    let message = || {
        format!(
            "collective loop invariant `{}`: process(es) {} arrived at the loop head ({}, the \
             {}-th arrival at an invariant loop) but process {p} has ended without arriving: \
             every process must take part in the loop and leave it on the same iteration",
            inv.id,
            arrived.join(", "),
            arrival_name(record.arrival),
            lag.completed + 1
        )
    };
    ended_without_arriving(ctx, oracle, (state, p), &inv.span, message)
}

/// True if `state` has an incomplete lagged record with a relation.
pub(crate) fn has_relations(state: &State) -> bool {
    state
        .inner
        .snapshots
        .loop_lag
        .as_ref()
        .is_some_and(|l| l.records.iter().any(|r| !r.relation.is_empty()))
}

/// The state with the fresh values of lagged records renamed canonically:
/// the record numbers met in the state's names and counters are renumbered
/// densely in their order (so the state after one more iteration can equal
/// the one before). States whose MPI parts may hold values this does not
/// visit (requests, windows, derived types, collective-assertion snapshots,
/// ...) are left as they are: names are only ever made equal by renaming
/// everything, never by renaming a part.
pub(crate) fn canonic_names(f: &ExprFactory, mut state: State) -> State {
    let Some(lag) = state.inner.snapshots.loop_lag.clone() else {
        return state;
    };
    if !renamable(&state) {
        return state;
    }
    let mut generations: BTreeSet<u32> = lag.next.iter().copied().collect();
    generations.insert(lag.completed);
    let mut symbols: Vec<(Expr, u32, String)> = Vec::new();
    let mut seen: HashSet<Expr> = HashSet::new();
    {
        let mut scratch = state.clone();
        map_exprs(&mut scratch, &mut |e| {
            for s in f.free_symbols(e) {
                if seen.insert(s) {
                    if let Some((g, rest)) = generation_of(f, s) {
                        symbols.push((s, g, rest));
                    }
                }
            }
            e
        });
    }
    generations.extend(symbols.iter().map(|(_, g, _)| *g));
    let dense: HashMap<u32, u32> = generations
        .iter()
        .enumerate()
        .map(|(n, &g)| (g, n as u32))
        .collect();
    if dense.iter().all(|(g, n)| g == n) {
        return state;
    }
    let names: hashbrown::HashMap<Expr, Expr> = symbols
        .iter()
        .map(|(s, g, rest)| {
            let name = format!("{}{}{rest}", generation_prefix(), dense[g]);
            (*s, f.symbol(&name, f.type_of(*s)))
        })
        .collect();
    map_exprs(&mut state, &mut |e| f.substitute(e, &names));
    // the records as renamed by `map_exprs`, with their counters renumbered
    if let Some(lag) = state.inner_mut().snapshots.loop_lag.as_mut() {
        let lag = Arc::make_mut(lag);
        lag.completed = dense[&lag.completed];
        for n in lag.next.iter_mut() {
            *n = dense[n];
        }
    }
    state
}

/// True if [`map_exprs`] visits every expression of `state`.
fn renamable(state: &State) -> bool {
    let s = &state.inner;
    s.windows.iter().all(Option::is_none)
        // (communicators hold ranks and grid sizes, no expressions)
        && !s.snapshots.queue_len_any()
        && s.snapshots.joint.iter().all(Vec::is_empty)
        && s.snapshots.loop_sync.is_none()
        && s.procs.iter().all(|p| {
            p.mpi.requests.is_empty()
                && p.mpi.scratch.is_empty()
                && p.mpi.attached.is_none()
                && p.mpi.datatypes.is_empty()
                && p.mpi.groups.is_empty()
                && p.mpi.stage == crate::mpi::CallStage::Start
        })
}

/// Applies `g` to every expression of `state` that [`renamable`] vouches
/// for: path condition, inputs, processes, messages, loop records.
fn map_exprs(state: &mut State, g: &mut dyn FnMut(Expr) -> Expr) {
    let mut same = |p: &tass_dynamic::api::Pointer| p.clone();
    let s = state.inner_mut();
    s.pc = g(s.pc);
    let shared: Vec<Value> = s.shared.iter().map(|v| v.map(&mut same, g)).collect();
    s.shared = Arc::new(shared);
    for ps in s.procs.iter_mut() {
        map_proc(ps, g);
    }
    if !s.messages.is_empty() {
        let msgs: Vec<_> = s
            .messages
            .iter()
            .map(|m| {
                let mut m = m.clone();
                m.data = m.data.map(&mut same, g);
                m.tag = g(m.tag);
                m.count = g(m.count);
                m
            })
            .collect();
        s.messages = Arc::new(msgs);
    }
    if let Some(lag) = s.snapshots.loop_lag.as_mut() {
        let lag = Arc::make_mut(lag);
        for r in lag.records.iter_mut() {
            for c in r.relation.iter_mut() {
                *c = g(*c);
            }
            for snap in r.snaps.iter_mut().flatten() {
                map_proc(&mut snap.proc, g);
            }
        }
    }
}

fn map_proc(ps: &mut Arc<ProcState>, g: &mut dyn FnMut(Expr) -> Expr) {
    let mut same = |p: &tass_dynamic::api::Pointer| p.clone();
    let ps = Arc::make_mut(ps);
    let globals: Vec<Value> = ps.globals.iter().map(|v| v.map(&mut same, g)).collect();
    ps.globals = Arc::new(globals);
    for fr in ps.stack.iter_mut() {
        let fr = Arc::make_mut(fr);
        for v in fr.locals.iter_mut() {
            *v = v.map(&mut same, g);
        }
    }
    if !ps.heap.is_empty() {
        let heap: Vec<HeapObject> = ps
            .heap
            .iter()
            .map(|o| o.map_live(|value, extent| (value.map(&mut same, g), g(extent))))
            .collect();
        ps.heap = Arc::new(heap);
    }
    if let Status::Terminated {
        exit_code: Some(c), ..
    } = &mut ps.status
    {
        *c = g(*c);
    }
    ps.mpi.wtime = ps.mpi.wtime.map(&mut *g);
    ps.mpi.thread_level = ps.mpi.thread_level.map(&mut *g);
}
