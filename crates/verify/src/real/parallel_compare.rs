//! `tass compare --jobs N`: the specification is explored on one thread, the
//! implementation by N workers that share their saved states
//! (`crate::shared_store`); the terminal states of all parts are then paired
//! with the specification's and their coverage checked once, on this thread,
//! as a one-thread comparison does.
//!
//! The implementation's search is split as `--jobs` splits verify's
//! (`crate::split`): every part explores the prefix above the cut and its own
//! items, and below the cut a state saved by any part is not explored again
//! by another. Together the parts reach every terminal state a one-thread
//! search reaches (a part skips only states another part saved and explores,
//! or explored, below).

use std::collections::HashSet;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Instant;

use tass_model::api::Model;
use tass_search::api::{Search, SearchStats, Split};
use tass_state::api::State;

use super::parallel::{
    compare_engines, worker_setup, ComparePrograms, PartOutcome, PartQueue, PARTS_PER_JOB,
};
use super::{RealEngine, RunSetup};
use crate::compare::{compare_with_search, ImplSearched, Terminals};
use crate::engine::Engine;
use crate::options::{MatchMode, Options};
use crate::report::Report;
use crate::shared_store::SharedStore;
use crate::split::{choose_cut, SplitTarget};
use crate::system::{limits_now, Ending, Findings, Mode, ModelSystem};

/// Whether `compare --jobs N` can share the implementation's saved states:
/// not with `--shard` (each shard's coverage is its own), `--symmetry` (its
/// cycle test needs one search path), joint assertions (checked against the
/// specification's histories during the search) or `--match set|subsume`.
pub(super) fn can_share(programs: &ComparePrograms<'_>, options: &Options) -> bool {
    options.shard.is_none()
        && options.symmetry.is_empty()
        && !programs.joint
        && options.matching == MatchMode::Syntactic
}

/// `tass compare --jobs N` with the implementation's saved states shared.
pub(super) fn compare_shared(
    programs: &ComparePrograms<'_>,
    options: &Options,
    setup: &RunSetup<'_>,
) -> Report {
    let (mut spec, mut imp) = match compare_engines(setup, programs) {
        Ok(engines) => engines,
        Err(error) => return Report::error(format!("error: {error}")),
    };
    let started = Instant::now();
    let mut search = |engine: &mut RealEngine, initial: &State| {
        search_impl(programs.imp, engine, initial, (options, setup, started))
    };
    compare_with_search(
        &mut spec,
        &mut imp,
        programs.imp,
        options,
        Some(&mut search),
    )
}

/// What the parts of the implementation's search share.
struct ImplPlan<'a> {
    model: &'a Arc<Model>,
    options: &'a Options,
    setup: &'a RunSetup<'a>,
    started: Instant,
    depth: u64,
    /// The parts, `0..parts`.
    queue: PartQueue<PartSearched>,
    shared: Arc<SharedStore<State>>,
}

/// One part's search of the implementation.
struct PartSearched {
    /// The prover's and solvers' calls this part made.
    prover_calls: (u64, u64),
    terminals: Terminals<RealEngine>,
    /// The canonical form of each of `terminals` (same order), computed by
    /// the part's own engine as its search met them.
    terminal_keys: Vec<State>,
    stats: SearchStats,
    findings: Findings,
    ending: Ending,
}

/// The implementation's search from `initial` on `options.jobs` workers.
fn search_impl(
    model: &Arc<Model>,
    engine: &mut RealEngine,
    initial: &State,
    (options, setup, started): (&Options, &RunSetup<'_>, Instant),
) -> ImplSearched<RealEngine> {
    let jobs = options.jobs.max(1) as u64;
    let parts = jobs * PARTS_PER_JOB;
    let target = SplitTarget {
        options,
        mode: Mode::CollectTerminals,
        label: Some("impl"),
        nprocs: options.impl_procs,
        matching: MatchMode::Syntactic,
        started,
    };
    let depth = choose_cut(engine, initial, &target, parts);
    let plan = ImplPlan {
        model,
        options,
        setup,
        started,
        depth,
        queue: PartQueue::new(0, 1, parts),
        shared: Arc::new(SharedStore::new()),
    };
    // The parts watch Ctrl-C themselves (their limits); `stop` is theirs.
    plan.queue
        .run_workers(jobs, options, None, &|part, engine| {
            run_part(&plan, part, engine)
        });
    plan.shared.report_counts();
    let stopped = plan.queue.stop.load(Ordering::Relaxed);
    let results = plan.queue.into_results();
    combine_parts(results, parts, stopped)
}

impl PartOutcome for PartSearched {
    fn panicked(_: u64, options: &Options) -> Self {
        PartSearched {
            prover_calls: (0, 0),
            terminals: Default::default(),
            terminal_keys: Vec::new(),
            stats: SearchStats::default(),
            findings: Findings::new(options),
            ending: Ending::Error(tass_semantics::api::EngineError::Invalid {
                message: "a worker of the parallel search failed (panicked)".into(),
                span: None,
            }),
        }
    }

    fn ends_run(&self) -> bool {
        !matches!(self.ending, Ending::Complete | Ending::Unchecked(_))
    }
}

/// One part of the implementation's search, with an engine and a prover of
/// its own.
fn run_part(plan: &ImplPlan<'_>, part: u64, slot: &mut Option<RealEngine>) -> PartSearched {
    let options = plan.options;
    let mut findings = Findings::new(options);
    findings.started = plan.started;
    let failed = |findings, error| PartSearched {
        prover_calls: (0, 0),
        terminals: Default::default(),
        terminal_keys: Vec::new(),
        stats: SearchStats::default(),
        findings,
        ending: Ending::Error(error),
    };
    let engine = match slot.take() {
        Some(engine) => Ok(engine),
        None => worker_setup(&plan.setup.factory, options)
            .and_then(|setup| setup.engine(Arc::clone(plan.model), options.impl_procs)),
    };
    let engine = match engine {
        Ok(engine) => slot.insert(engine),
        Err(error) => {
            let error = tass_semantics::api::EngineError::Invalid {
                message: format!("a worker of the parallel search could not start: {error}"),
                span: None,
            };
            return failed(findings, error);
        }
    };
    let initial = match engine.initial_state() {
        Ok(initial) => initial,
        Err(error) => return failed(findings, error),
    };
    let mut limits = limits_now(options, plan.started, 0);
    limits.max_states = limits.max_states.map(|m| m.div_ceil(plan.queue.count));
    limits.siblings_stop = Some(Arc::clone(&plan.queue.stop));
    let split = Split {
        part,
        parts: plan.queue.count,
        depth: plan.depth,
    };
    let (calls_before, smt_before, _) = engine.counters();
    let mut system = ModelSystem::new(
        &mut *engine,
        &mut findings,
        Mode::CollectTerminals,
        initial.clone(),
        Some("impl"),
        options.impl_procs,
    );
    system.shared = Some(Arc::clone(&plan.shared));
    let (report, _) = Search::new(limits).run_part(&mut system, initial, split);
    system.close_path();
    let ending = system.ending(report.outcome);
    let terminals = std::mem::take(&mut system.terminals);
    let terminal_keys = std::mem::take(&mut system.terminal_keys);
    drop(system);
    let (calls, smt, _) = engine.counters();
    PartSearched {
        prover_calls: (
            calls.saturating_sub(calls_before),
            smt.saturating_sub(smt_before),
        ),
        terminals,
        terminal_keys,
        stats: report.stats,
        findings,
        ending,
    }
}

/// The parts' searches as one: their terminal states without repetitions
/// (two parts may reach one terminal state by paths neither saved), counters
/// summed, and the ending that decides the verdict (an error first, then a
/// stop for a violation, a limit, something left unchecked). `stopped`: the
/// run was ended early, so parts that did not run are no gap.
fn combine_parts(
    results: Vec<PartSearched>,
    parts: u64,
    stopped: bool,
) -> ImplSearched<RealEngine> {
    let mut searched = ImplSearched {
        terminals: Default::default(),
        stats: SearchStats::default(),
        violations: Vec::new(),
        warnings: Vec::new(),
        ending: Ending::Complete,
        prover_calls: (0, 0),
    };
    let rank = |ending: &Ending| match ending {
        Ending::Error(_) => 4,
        Ending::Stopped => 3,
        Ending::Limit(_) => 2,
        Ending::Unchecked(_) => 1,
        Ending::Complete => 0,
    };
    if results.len() as u64 != parts && !stopped {
        searched.ending = Ending::Unchecked("a part of the parallel search did not run".into());
    }
    let mut seen = HashSet::new();
    for part in results {
        let stats = &mut searched.stats;
        stats.states_seen += part.stats.states_seen;
        stats.states_saved += part.stats.states_saved;
        stats.states_matched += part.stats.states_matched;
        stats.transitions += part.stats.transitions;
        stats.states_pushed += part.stats.states_pushed;
        stats.max_depth = stats.max_depth.max(part.stats.max_depth);
        // The keys are the parts' own canonical forms: all engines share
        // one expression store and canonicalize alike, so equal terminal
        // states have equal keys. Canonicalizing them again here cost this
        // thread's cold engine memory and time in proportion to the
        // terminal states' size (laplace np 5: gigabytes).
        for (key, (state, path)) in part.terminal_keys.into_iter().zip(part.terminals.iter()) {
            if seen.insert(key) {
                let path = part.terminals.path(*path);
                searched.terminals.push(state.clone(), &path);
            }
        }
        searched.prover_calls.0 += part.prover_calls.0;
        searched.prover_calls.1 += part.prover_calls.1;
        searched.violations.extend(part.findings.violations);
        searched.warnings.extend(part.findings.warnings);
        if rank(&part.ending) > rank(&searched.ending) {
            searched.ending = part.ending;
        }
    }
    searched
}
