//! `--jobs N`: the search on N threads. The search is split into
//! `N * PARTS_PER_JOB` parts (`crate::split`; with `--shard K/M`, this shard's
//! share of `M` times as many), and N workers take the parts from a queue.
//! Each part is one ordinary search with an engine, a prover and visited
//! sets of its own (no locks on the search's path; redundant work across
//! parts is allowed); the workers share the expression factory. The parts'
//! reports are combined as `tass merge` combines shards. A violation (or an
//! error) in one part stops the others; Ctrl-C and `--timeout` reach every
//! part through the same flag and clock.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use tass_model::api::Model;
use tass_search::api::{Search, Split};
use tass_state::api::State;

use super::{make_prover, RealEngine, RunSetup};
use crate::engine::Engine;
use crate::error::SetupError;
use crate::options::Options;
use crate::report::{Report, Verdict};
use crate::shared_store::SharedStore;
use crate::split::{choose_cut, combine, split_report, PartResult, SplitTarget};
use crate::system::{finish, limits_now, Findings, Mode, ModelSystem};

/// Parts per worker: enough for the faster workers to take over the work of
/// a slow part, few enough that the prefix every part repeats stays small.
pub(super) const PARTS_PER_JOB: u64 = 4;

/// The stack of a worker (virtual memory, committed as used; as the cli's
/// main search thread: symbolic values can nest deeply).
pub(super) const WORKER_STACK_SIZE: usize = 4 << 30;

/// With the environment variable `TASS_WORKER_TIMES` set, every worker
/// prints on stderr the CPU time its thread used and the parts it ran when
/// it ends: the longest is the wall time the run would take with a core per
/// worker, whatever else the machine runs (how docs/PERFORMANCE.md measures
/// `--jobs` on a busy machine).
pub(super) fn report_worker_time(worker: u64, parts: u64) {
    if std::env::var_os("TASS_WORKER_TIMES").is_none() {
        return;
    }
    // The first field: nanoseconds this thread ran on a CPU.
    let cpu_ns = std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|text| text.split_whitespace().next()?.parse::<u64>().ok());
    match cpu_ns {
        Some(ns) => eprintln!(
            "tass: worker {worker}: {:.2} CPU s, {parts} parts",
            ns as f64 / 1e9
        ),
        None => eprintln!("tass: worker {worker}: CPU time unknown, {parts} parts"),
    }
}

/// How one part is run: verify's or compare's.
/// The last argument keeps a worker's engine from part to part (verify's
/// parts reuse it: its caches stay warm).
type PartRunner<'a> =
    dyn Fn(&PartsPlan<'_>, u64, &mut Option<RealEngine>) -> PartResult + Sync + 'a;

/// What a part of a parallel run gives, as far as the workers that run the
/// parts need to know (verify's [`PartResult`], compare's implementation
/// parts).
pub(super) trait PartOutcome: Send {
    /// What part `part` gives when its run panicked: an error of the run,
    /// never a gap in "holds".
    fn panicked(part: u64, options: &Options) -> Self;
    /// Whether it ends the whole run (the other parts stop).
    fn ends_run(&self) -> bool;
}

impl PartOutcome for PartResult {
    fn panicked(part: u64, _: &Options) -> Self {
        PartResult {
            part,
            report: Report::error("error: a worker of the parallel search failed (panicked)"),
            split: None,
        }
    }

    fn ends_run(&self) -> bool {
        match self.report.verdict {
            Verdict::Violated => self.report.stopped_early,
            Verdict::Error => true,
            _ => false,
        }
    }
}

/// The parts of one parallel run, `first + stride * m` for `m < count`, in a
/// queue the workers take them from, and what the parts gave.
pub(super) struct PartQueue<R> {
    pub first: u64,
    pub stride: u64,
    pub count: u64,
    next: AtomicU64,
    /// Set when the run must end: a part ended it, or (copied by the main
    /// thread, where asked) Ctrl-C.
    pub stop: Arc<AtomicBool>,
    results: Mutex<Vec<R>>,
    /// Workers still running.
    active: AtomicU64,
}

impl<R: PartOutcome> PartQueue<R> {
    pub(super) fn new(first: u64, stride: u64, count: u64) -> Self {
        PartQueue {
            first,
            stride,
            count,
            next: AtomicU64::new(0),
            stop: Arc::new(AtomicBool::new(false)),
            results: Mutex::new(Vec::new()),
            active: AtomicU64::new(0),
        }
    }

    /// Runs every part on `jobs` worker threads (this thread does the work
    /// if none can be started), each part as `run(part, engine)` with the
    /// worker's engine kept from part to part (its caches stay warm). With
    /// `cancel`, Ctrl-C is copied into `stop` while the workers run (for
    /// parts that watch only `stop`).
    pub(super) fn run_workers(
        &self,
        jobs: u64,
        options: &Options,
        cancel: Option<&AtomicBool>,
        run: &(dyn Fn(u64, &mut Option<RealEngine>) -> R + Sync),
    ) {
        std::thread::scope(|scope| {
            for worker in 0..jobs {
                self.active.fetch_add(1, Ordering::SeqCst);
                let spawned = std::thread::Builder::new()
                    .name(format!("tass-worker-{worker}"))
                    .stack_size(WORKER_STACK_SIZE)
                    .spawn_scoped(scope, move || {
                        let parts = self.work(options, run);
                        report_worker_time(worker, parts);
                        self.active.fetch_sub(1, Ordering::SeqCst);
                    });
                if spawned.is_err() {
                    self.active.fetch_sub(1, Ordering::SeqCst);
                    if worker == 0 {
                        // No thread at all: do the work here.
                        let _ = self.work(options, run);
                    }
                }
            }
            let Some(cancel) = cancel else {
                return;
            };
            while self.active.load(Ordering::SeqCst) > 0 {
                if cancel.load(Ordering::Relaxed) {
                    self.stop.store(true, Ordering::Relaxed);
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
        });
    }

    /// A worker: takes parts until none is left or the run is stopped;
    /// returns how many it ran.
    fn work(
        &self,
        options: &Options,
        run: &(dyn Fn(u64, &mut Option<RealEngine>) -> R + Sync),
    ) -> u64 {
        let mut ran = 0;
        let mut engine = None;
        loop {
            if self.stop.load(Ordering::Relaxed) {
                return ran;
            }
            let m = self.next.fetch_add(1, Ordering::Relaxed);
            if m >= self.count {
                return ran;
            }
            ran += 1;
            let part = self.first + self.stride * m;
            let result =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run(part, &mut engine)))
                    .unwrap_or_else(|_| R::panicked(part, options));
            if result.ends_run() {
                self.stop.store(true, Ordering::Relaxed);
            }
            self.results
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner())
                .push(result);
        }
    }

    /// What the parts gave, in the order they ended.
    pub(super) fn into_results(self) -> Vec<R> {
        self.results
            .into_inner()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

/// What every part of one parallel run shares.
struct PartsPlan<'a> {
    model: &'a Arc<Model>,
    options: &'a Options,
    factory: &'a Arc<tass_symbolic::api::ExprFactory>,
    started: Instant,
    split_parts: u64,
    depth: u64,
    /// The parts of this run.
    queue: PartQueue<PartResult>,
    /// The states saved below the cut by every part (verify's parts).
    shared: Arc<SharedStore<State>>,
}

/// `tass verify --jobs N` (N > 1) on `model`.
pub(super) fn verify_parallel(
    model: &Arc<Model>,
    options: &Options,
    setup: &RunSetup<'_>,
) -> Result<Report, SetupError> {
    let started = Instant::now();
    let jobs = options.jobs.max(1) as u64;
    let (first, stride) = options.shard.map_or((0, 1), |s| (s.index, s.count));
    let count = jobs * PARTS_PER_JOB;
    let split_parts = stride * count;
    let depth = {
        let mut engine = setup.engine(Arc::clone(model), options.procs)?;
        let initial = match engine.initial_state() {
            Ok(initial) => initial,
            Err(error) => return Ok(Report::error(format!("error: {error}"))),
        };
        let target = SplitTarget {
            options,
            mode: Mode::Verify,
            label: None,
            nprocs: options.procs,
            matching: options.matching,
            started,
        };
        choose_cut(&mut engine, &initial, &target, split_parts)
    };
    let shape = PartsShape {
        first,
        stride,
        count,
        split_parts,
        depth,
        started,
    };
    Ok(run_parts(model, options, setup, shape, &run_verify_part))
}

/// Which parts a run takes and how they are cut.
struct PartsShape {
    first: u64,
    stride: u64,
    count: u64,
    split_parts: u64,
    depth: u64,
    /// When the run started (the choice of the cut included): `--timeout`
    /// and the reported time count from here.
    started: Instant,
}

/// Runs the parts of `shape` on `options.jobs` workers and combines them.
fn run_parts(
    model: &Arc<Model>,
    options: &Options,
    setup: &RunSetup<'_>,
    shape: PartsShape,
    run: &PartRunner<'_>,
) -> Report {
    let jobs = options.jobs.max(1) as u64;
    let started = shape.started;
    let plan = PartsPlan {
        model,
        options,
        factory: &setup.factory,
        started,
        split_parts: shape.split_parts,
        depth: shape.depth,
        queue: PartQueue::new(shape.first, shape.stride, shape.count),
        shared: Arc::new(SharedStore::new()),
    };
    // Ctrl-C reaches the parts that watch only `stop` (compare's).
    let cancel = options.cancel.as_deref();
    plan.queue
        .run_workers(jobs, options, cancel, &|part, engine| {
            run(&plan, part, engine)
        });
    plan.shared.report_counts();
    let stopped = plan.queue.stop.load(Ordering::Relaxed);
    let mut results = plan.queue.into_results();
    // Parts no worker took: only when the run was stopped (then a violation,
    // an error or Ctrl-C decides the verdict); otherwise an error.
    for m in 0..shape.count {
        let part = shape.first + shape.stride * m;
        if !results.iter().any(|r| r.part == part) && !stopped {
            results.push(PartResult {
                part,
                report: Report::error("error: a part of the parallel search did not run"),
                split: None,
            });
        }
    }
    let mut report = combine(results, options, started);
    if let Some(split) = report.split.as_mut() {
        split.shard = options.shard;
    }
    report
}

/// One part of verify's search, with an engine and a prover of its own.
fn run_verify_part(plan: &PartsPlan<'_>, part: u64, slot: &mut Option<RealEngine>) -> PartResult {
    let options = plan.options;
    let not_run = |error: String| PartResult {
        part,
        report: Report::error(error),
        split: None,
    };
    let engine = match slot.take() {
        Some(engine) => engine,
        None => {
            let engine = worker_setup(plan.factory, options)
                .and_then(|setup| setup.engine(Arc::clone(plan.model), options.procs));
            match engine {
                Ok(engine) => engine,
                Err(error) => return not_run(format!("error: {error}")),
            }
        }
    };
    let engine = slot.insert(engine);
    // The engine's counters run on from its earlier parts: this part's are
    // the difference.
    let counters_before = (engine.counters(), engine.invariant_counters());
    let arrivals_before = engine.loop_arrivals();
    let mut findings = Findings::new(options);
    let initial = match engine.initial_state() {
        Ok(initial) => initial,
        Err(error) => return not_run(format!("error: {error}")),
    };
    let mut limits = limits_now(options, plan.started, 0);
    // `--max-states` bounds the whole run: each part gets its share.
    limits.max_states = limits.max_states.map(|m| m.div_ceil(plan.queue.count));
    limits.siblings_stop = Some(Arc::clone(&plan.queue.stop));
    let split = Split {
        part,
        parts: plan.split_parts,
        depth: plan.depth,
    };
    let (ending, stats, info) = {
        let mut system = ModelSystem::new(
            &mut *engine,
            &mut findings,
            Mode::Verify,
            initial.clone(),
            None,
            options.procs,
        );
        system.matching = options.matching;
        system.shared = Some(Arc::clone(&plan.shared));
        let (report, info) = Search::new(limits).run_part(&mut system, initial, split);
        system.close_path();
        (system.ending(report.outcome), report.stats, info)
    };
    let mut report = finish(&*engine, findings, ending, stats, options);
    let ((calls, smt, _), (checks, check_calls)) = counters_before;
    report.stats.prover_calls = report.stats.prover_calls.saturating_sub(calls);
    report.stats.smt_calls = report.stats.smt_calls.saturating_sub(smt);
    report.stats.invariant_checks = report.stats.invariant_checks.saturating_sub(checks);
    report.stats.loop_arrivals = report.stats.loop_arrivals.saturating_sub(arrivals_before);
    report.stats.invariant_prover_calls = report
        .stats
        .invariant_prover_calls
        .saturating_sub(check_calls);
    PartResult {
        part,
        report,
        split: Some(split_report(None, split, info)),
    }
}

/// The two programs of a `compare` run.
pub(super) struct ComparePrograms<'a> {
    pub spec: &'a Arc<Model>,
    pub imp: &'a Arc<Model>,
    /// Whether either has joint assertions (both engines record them).
    pub joint: bool,
}

/// `tass compare --jobs N` (N > 1): the implementation's search split into
/// parts, each part a whole comparison (`compare --shard` of its part: the
/// specification explored again, which is small next to the implementation).
pub(super) fn compare_parallel(
    programs: &ComparePrograms<'_>,
    options: &Options,
    setup: &RunSetup<'_>,
) -> Report {
    if super::parallel_compare::can_share(programs, options) {
        return super::parallel_compare::compare_shared(programs, options, setup);
    }
    let jobs = options.jobs.max(1) as u64;
    let (first, stride) = options.shard.map_or((0, 1), |s| (s.index, s.count));
    let count = jobs * PARTS_PER_JOB;
    let shape = PartsShape {
        first,
        stride,
        count,
        split_parts: stride * count,
        // Each part chooses it, alike.
        depth: 0,
        started: Instant::now(),
    };
    let run = |plan: &PartsPlan<'_>, part: u64, _: &mut Option<RealEngine>| {
        run_compare_part(plan, part, programs)
    };
    run_parts(programs.imp, options, setup, shape, &run)
}

/// One part of a parallel comparison, with engines and a prover of its own.
fn run_compare_part(plan: &PartsPlan<'_>, part: u64, programs: &ComparePrograms<'_>) -> PartResult {
    let mut options = plan.options.clone();
    options.shard = Some(crate::options::Shard {
        index: part,
        count: plan.split_parts,
    });
    // Ends with the run (a violation elsewhere, Ctrl-C copied by the main thread).
    options.cancel = Some(Arc::clone(&plan.queue.stop));
    options.max_states = options.max_states.map(|m| m.div_ceil(plan.queue.count));
    options.timeout = options.timeout.map(|t| {
        t.saturating_sub(plan.started.elapsed())
            .max(std::time::Duration::from_nanos(1))
    });
    let not_run = |error: String| PartResult {
        part,
        report: Report::error(error),
        split: None,
    };
    let engines =
        worker_setup(plan.factory, &options).and_then(|setup| compare_engines(&setup, programs));
    let (mut spec, mut imp) = match engines {
        Ok(engines) => engines,
        Err(error) => return not_run(format!("error: {error}")),
    };
    if programs.joint {
        spec.engine.record_joint_snapshots();
        imp.engine.record_joint_snapshots();
    }
    let report = crate::compare::compare_with(&mut spec, &mut imp, programs.imp, &options);
    let split = report.split.clone();
    PartResult {
        part,
        report,
        split,
    }
}

/// A worker's setup: a prover of its own (provers are not shared between
/// threads) over the run's shared expression `factory`.
pub(super) fn worker_setup<'a>(
    factory: &Arc<tass_symbolic::api::ExprFactory>,
    options: &'a Options,
) -> Result<RunSetup<'a>, SetupError> {
    let prover = make_prover(factory, &options.prover).map_err(SetupError::Prover)?;
    Ok(RunSetup {
        factory: Arc::clone(factory),
        prover,
        options,
    })
}

/// The specification's and the implementation's engines of a comparison.
pub(super) fn compare_engines(
    setup: &RunSetup<'_>,
    programs: &ComparePrograms<'_>,
) -> Result<(RealEngine, RealEngine), SetupError> {
    let options = setup.options;
    let spec = setup.engine(Arc::clone(programs.spec), options.spec_procs)?;
    let imp = setup.engine(Arc::clone(programs.imp), options.impl_procs)?;
    Ok((spec, imp))
}
