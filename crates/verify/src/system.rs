//! The transition system of one model over an [`Engine`], explored by
//! `tass-search`: violation checks on every state, final checks at terminal states,
//! the state-saving heuristic, the canonic store, counterexample traces, and the
//! verdict.

use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tass_model::api::{LocationId, LocationKind, Model};
use tass_search::api::{
    Control, Limit, Limits, Outcome, Region, Search, SearchStats, Split, SplitSystem,
    TransitionSystem,
};
use tass_semantics::api::{Certainty as EngineCertainty, EngineError, Violation};

use crate::engine::{DataRelation, Engine};
use crate::options::{MatchMode, Options};
use crate::report::{
    complete_witness, peak_memory_mb, violation_report, Certainty, Property, Report, Stats,
    TraceStep, Verdict, ViolationReport,
};
use crate::shared_store::{Meeting, Saved, SharedStore};
use crate::split::{choose_cut, split_report, SplitTarget};

/// Every state this many steps deep (and at multiples of it) is saved, whatever
/// the heuristic says. The heuristic leaves `for` loop heads unsaved, as the paper
/// does, so a `for` loop that comes back to a state it was in (`for (;;) {}`)
/// would be a cycle with no saved state and an endless search. With this, some
/// state of every such cycle is saved within `SAFETY_NET_PERIOD` times the cycle's
/// length, and the search stops when it comes round again. It costs one saved
/// state per `SAFETY_NET_PERIOD` states seen on deep paths.
const SAFETY_NET_PERIOD: usize = 1024;

/// What to do at terminal states besides the final checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// `tass verify`: only check.
    Verify,
    /// `tass compare`: also collect every distinct terminal state with its path.
    CollectTerminals,
}

/// Shared bookkeeping of all the searches of one run: violations found (deduplicated
/// by property and location), warnings, the violation budget, the deadline.
pub(crate) struct Findings {
    pub violations: Vec<ViolationReport>,
    pub warnings: Vec<String>,
    keys: HashSet<(Property, String, u32, u32)>,
    warning_keys: HashSet<String>,
    /// 0 = unlimited.
    pub max_violations: usize,
    pub stopped_early: bool,
    pub started: Instant,
    /// Output values at the terminal states seen (verify mode).
    pub outputs: Option<std::collections::BTreeMap<String, String>>,
    /// Where the searches publish their progress (`Options::progress`).
    pub progress: Option<std::sync::Arc<crate::options::Progress>>,
}

impl Findings {
    pub fn new(options: &Options) -> Findings {
        Findings {
            violations: Vec::new(),
            warnings: Vec::new(),
            keys: HashSet::new(),
            warning_keys: HashSet::new(),
            max_violations: options.max_violations,
            stopped_early: false,
            started: Instant::now(),
            outputs: None,
            progress: options.progress.clone(),
        }
    }

    /// True once the violation budget is spent.
    pub fn budget_spent(&self) -> bool {
        self.max_violations != 0 && self.violations.len() >= self.max_violations
    }

    /// Whether a violation at this key is new (then it is remembered).
    pub fn is_new(&mut self, property: Property, file: &str, line: u32, column: u32) -> bool {
        self.keys.insert((property, file.to_string(), line, column))
    }

    pub fn warn(&mut self, text: String) {
        if self.warning_keys.insert(text.clone()) {
            self.warnings.push(text);
        }
    }
}

/// A path executed again for its report.
pub(crate) struct Replayed<E: Engine> {
    /// One trace step per transition, with the variables it changed.
    pub trace: Vec<TraceStep>,
    /// The path condition of the state before the last step (the condition
    /// under which that step's check failed).
    pub pc_before_last: E::Value,
    /// The state the path ends in.
    pub last_state: E::State,
    /// The violations the last step found.
    pub last_violations: Vec<Violation>,
}

/// Re-executes `path` from `start` (see [`Replayed`]). Fresh symbols
/// (`MPI_Wtime`, `rand`) get new names in a second execution, so a report takes
/// its path condition, claim and witness from the replay too: they then name
/// the same symbols as the trace.
pub(crate) fn replay<E: Engine>(
    engine: &mut E,
    start: E::State,
    path: &[E::Step],
    model_label: Option<&str>,
) -> Result<Replayed<E>, EngineError> {
    let mut state = start;
    let mut trace = Vec::with_capacity(path.len());
    let mut pc_before_last = engine.path_condition(&state);
    let mut last_violations = Vec::new();
    engine.set_record_changes(true);
    for step in path {
        let info = engine.step_info(step);
        pc_before_last = engine.path_condition(&state);
        let executed = engine.execute(state, step);
        let executed = match executed {
            Ok(x) => x,
            Err(e) => {
                engine.set_record_changes(false);
                return Err(e);
            }
        };
        state = executed.state;
        last_violations = executed.violations;
        trace.push(TraceStep {
            model: model_label.map(str::to_string),
            file: info.span.file.to_string(),
            line: info.span.start_line,
            column: info.span.start_column,
            process: info.process,
            source: info.source,
            changes: executed.changes,
            repeated: false,
            mpi_calls: executed.mpi_calls,
        });
    }
    engine.set_record_changes(false);
    Ok(Replayed {
        trace,
        pc_before_last,
        last_state: state,
        last_violations,
    })
}

/// Where a violation was found, which says how its report replays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FoundBy {
    /// By the last step of its path (checked under the path condition before
    /// that step).
    Step,
    /// By the final checks of the state its path ends in (no step enabled).
    FinalChecks,
    /// By the livelock check of the state its path ends in.
    Livelock,
}

/// The transition system of one model.
pub(crate) struct ModelSystem<'a, E: Engine> {
    pub engine: &'a mut E,
    pub findings: &'a mut Findings,
    mode: Mode,
    /// The state the search started from (for replaying traces).
    start: E::State,
    model_label: Option<&'static str>,
    /// How a new state is matched with the saved ones (`--match`).
    pub matching: MatchMode,
    /// The saved states, per region of a split search (`Visited::PREFIX`,
    /// `Visited::PART`; an unsplit search uses the first only).
    visited: [Visited<E::Key, E::State>; 2],
    /// The region of the states being checked (an index into `visited`).
    region: usize,
    /// The saved states on the current search path (for the cycle proviso).
    path_states: Vec<PathState<E::Key, E::State>>,
    /// `--jobs N`: how many of `path_states` (from the first) are known to
    /// reach a fully expanded state and are marked so in the shared store
    /// (every state on the path reaches the states below it).
    reaches_full_upto: usize,
    /// Whether the state about to be expanded is expanded with every enabled
    /// step (the reduction left nothing out, or the cycle proviso).
    expanding_fully: bool,
    /// Depth of the state just checked.
    depth: usize,
    /// Whether the reduction left out some steps of the state just checked.
    reduced: bool,
    /// Violations of the step that produced the state about to be checked.
    pending: Vec<Violation>,
    /// The process (`Engine::owner_of`) and locality of that step.
    last_step: Option<(usize, bool)>,
    /// `enabled` of the state just checked (the search asks for it next).
    cached_enabled: Option<Vec<E::Step>>,
    /// Depths of the *essentially nondeterministic* (END) states on the search
    /// path (paper Sec. 5.4): states with two or more explored steps whose
    /// guards do not exclude each other. While there is none, the path so far
    /// is the only way to the current state.
    end_depths: Vec<usize>,
    /// `TASS_DUMP_SAVED` only: the depths of the states on the path that the
    /// cycle proviso expanded fully (a dumped state below one is tagged `+x`).
    full_expansion_depths: Vec<usize>,
    /// Whether the state just checked was saved because its next process sits
    /// at a merge location (condition 3 of the heuristic).
    saved_at_merge: bool,
    /// Whether the state just checked ends a *forced chain*: it was reached
    /// from a state saved at a merge location by steps that were, each, the
    /// only one enabled where it was taken.
    on_forced_chain: bool,
    /// Whether the successor about to be computed continues a forced chain
    /// (set by `enabled` for the state it is asked about, taken by `next`;
    /// a successor the search computes after backtracking finds `None`).
    successor_on_forced_chain: Option<bool>,
    nprocs: usize,
    /// Distinct terminal states with their paths (compare mode).
    pub terminals: crate::compare::Terminals<E>,
    /// The canonical form of each of `terminals`, in the same order (for
    /// `compare --jobs N`, which removes the repetitions between parts with
    /// the forms each part's own, warm engine computed).
    pub terminal_keys: Vec<E::State>,
    terminal_set: HashSet<E::State>,
    /// An engine error met while checking (ends the search).
    pub error: Option<EngineError>,
    /// A saved state was met again while on the search path: the program can
    /// run for ever (`compare --symmetry` then cannot conclude coverage).
    pub closed_cycle: bool,
    /// When set (compare's split implementation search): the path condition
    /// after each item of the cut, and whether this part takes it.
    pub cut_conditions: Option<Vec<(E::Value, bool)>>,
    /// `--jobs N`: the states saved below the cut by every part of the run
    /// (used instead of `visited[PART].store`; `--match syntactic` only).
    pub shared: Option<Arc<SharedStore<E::State>>>,
}

/// A saved state on the current search path.
struct PathState<K, S> {
    depth: usize,
    /// Its key ([`Engine::saved_key`]).
    key: K,
    /// Its canonical form, when it is in the shared store of a parallel
    /// run (closed there when the search backtracks over it).
    shared: Option<S>,
    /// The region whose `on_path` holds it.
    region: usize,
}

/// The canonic store of one region of the search, and what the cycle proviso
/// keeps with it. A split search keeps two, so that a state above the cut
/// (explored alike by every part, its subtrees shared out) never stands for
/// one below it (explored here in full), nor the other way round. States
/// are kept as their keys (`K`, [`Engine::saved_key`]: a few words each).
struct Visited<K, S> {
    /// Keys of the saved states.
    store: HashSet<K>,
    /// The saved states on the current search path and whether each was
    /// reduced (a state occurs there once: a match ends the path).
    on_path: HashMap<K, bool>,
    /// States the cycle proviso has expanded fully (once each).
    expanded: HashSet<K>,
    /// `--match set|subsume`: the saved states by control part.
    by_control: HashMap<S, Vec<S>>,
}

impl<K, S> Visited<K, S> {
    const PREFIX: usize = 0;
    const PART: usize = 1;

    fn new() -> Visited<K, S> {
        Visited {
            store: HashSet::new(),
            on_path: HashMap::new(),
            expanded: HashSet::new(),
            by_control: HashMap::new(),
        }
    }
}

impl<'a, E: Engine> ModelSystem<'a, E> {
    /// Records the current state as END if its explored steps are: two or more
    /// steps, not all local steps of one process (one process's control flow is
    /// deterministic, so the guards of its local steps at one location exclude
    /// each other; MPI choices, such as a wildcard receive's senders, do not),
    /// unless the engine shows that their guards exclude each other.
    fn note_end(&mut self, state: &E::State, steps: &[E::Step]) {
        let Some(first) = steps.first() else { return };
        if steps.len() < 2 || self.end_depths.last() == Some(&self.depth) {
            return;
        }
        let p = self.engine.process_of(first);
        let one_process = steps.iter().all(|s| self.engine.process_of(s) == p);
        let deterministic = one_process
            && (steps.iter().all(|s| self.engine.is_local(s))
                || self.engine.guards_exclude_each_other(state, steps));
        if !deterministic {
            self.end_depths.push(self.depth);
        }
    }

    pub fn new(
        engine: &'a mut E,
        findings: &'a mut Findings,
        mode: Mode,
        start: E::State,
        model_label: Option<&'static str>,
        nprocs: usize,
    ) -> Self {
        ModelSystem {
            engine,
            findings,
            mode,
            start,
            model_label,
            closed_cycle: false,
            matching: MatchMode::Syntactic,
            visited: [Visited::new(), Visited::new()],
            region: Visited::<E::Key, E::State>::PREFIX,
            path_states: Vec::new(),
            reaches_full_upto: 0,
            expanding_fully: false,
            depth: 0,
            reduced: false,
            pending: Vec::new(),
            last_step: None,
            saved_at_merge: false,
            on_forced_chain: false,
            successor_on_forced_chain: None,
            cached_enabled: None,
            end_depths: Vec::new(),
            full_expansion_depths: Vec::new(),
            nprocs,
            terminals: Default::default(),
            terminal_keys: Vec::new(),
            terminal_set: HashSet::new(),
            error: None,
            cut_conditions: None,
            shared: None,
        }
    }

    /// Records `violation` (if new); returns `Stop` once the budget is spent.
    /// `found_by` says whether the last step of `path` found it (its path
    /// condition is then the one before that step) or a check of the state
    /// `path` ends in.
    fn record(&mut self, violation: Violation, path: &[E::Step], found_by: FoundBy) -> Control {
        let property = violation.property;
        if violation.property.is_warning() {
            self.findings.warn(format!(
                "{}: {}: {}",
                violation.span,
                property.id(),
                violation.message
            ));
            return Control::Continue;
        }
        let span = &violation.span;
        // A violation already reported here is reported again only to upgrade a
        // `possible` one to `provable` (another path proved it).
        let mut replaces = None;
        if !self
            .findings
            .is_new(property, &span.file, span.start_line, span.start_column)
        {
            let earlier = self.findings.violations.iter().position(|v| {
                v.property == property
                    && v.file == *span.file
                    && v.line == span.start_line
                    && v.column == span.start_column
            });
            match earlier {
                Some(k)
                    if self.findings.violations[k].certainty == Certainty::Possible
                        && violation.certainty == EngineCertainty::Provable =>
                {
                    replaces = Some(k);
                }
                _ => return Control::Continue,
            }
        }
        let replayed = match replay(self.engine, self.start.clone(), path, self.model_label) {
            Ok(x) => x,
            Err(error) => {
                self.error = Some(error);
                return Control::Stop;
            }
        };
        let (pc, again) = match found_by {
            FoundBy::Step if !path.is_empty() => {
                (replayed.pc_before_last, replayed.last_violations)
            }
            // The livelock check is not run again (it remembers what it found):
            // its claim names no symbol of the path.
            FoundBy::Livelock => (self.engine.path_condition(&replayed.last_state), Vec::new()),
            _ => {
                let again = self.engine.final_violations(&replayed.last_state);
                (self.engine.path_condition(&replayed.last_state), again)
            }
        };
        let trace = replayed.trace;
        // The same violation found by the replay names the replay's symbols.
        let mut violation = violation;
        if let Some(again) = again.into_iter().find(|v| {
            v.property == violation.property
                && v.span == violation.span
                && v.process == violation.process
                && v.certainty == violation.certainty
        }) {
            violation.claim = again.claim;
            violation.witness = again.witness;
            // Its occurrence number and snapshot steps are those of this path.
            if violation.property == tass_state::api::Property::CollectiveAssertion {
                violation.message = again.message;
                violation.snapshots = again.snapshots;
            }
        }
        let condition = self.engine.condition_of(pc, &violation);
        let path_condition = self.engine.pretty_condition(&condition);
        let inputs = self.engine.input_names();
        let fixed = self.engine.fixed_inputs();
        let engine = &*self.engine;
        let report = violation_report(violation, property, trace, path_condition, |given| {
            complete_witness(given, &inputs, &fixed, || engine.no_witness_reason())
        });
        match replaces {
            Some(k) => {
                self.findings.violations[k] = report;
                return Control::Continue;
            }
            None => self.findings.violations.push(report),
        }
        if self.findings.budget_spent() {
            self.findings.stopped_early = true;
            Control::Stop
        } else {
            Control::Continue
        }
    }
}

impl<E: Engine> ModelSystem<'_, E> {
    /// How the search ended, given its outcome: a complete search in which
    /// the engine left something unchecked (`Engine::unchecked`) is not
    /// complete.
    pub fn ending(&mut self, outcome: Outcome<EngineError>) -> Ending {
        match Ending::from_outcome(outcome, self.error.take()) {
            Ending::Complete => match self.engine.unchecked() {
                Some(reason) => Ending::Unchecked(reason),
                None => Ending::Complete,
            },
            other => other,
        }
    }

    /// Every step enabled at `state` (before the reduction), after the
    /// livelock check of `state` (`Engine::livelock`) has recorded what it
    /// finds; `None` when that ends the search (the violation budget is spent).
    fn all_enabled(
        &mut self,
        state: &E::State,
        path: &[E::Step],
    ) -> Result<Option<Vec<E::Step>>, EngineError> {
        let steps = self.engine.enabled(state)?;
        if let Some(violation) = self.engine.livelock(state, &steps)? {
            if self.record(violation, path, FoundBy::Livelock) == Control::Stop {
                return Ok(None);
            }
        }
        Ok(Some(steps))
    }
}

impl<E: Engine> TransitionSystem for ModelSystem<'_, E> {
    type State = E::State;
    type Transition = E::Step;
    type Error = EngineError;

    fn enabled(&mut self, state: &E::State) -> Result<Vec<E::Step>, EngineError> {
        let forced = self
            .cached_enabled
            .as_ref()
            .is_some_and(|steps| steps.len() == 1);
        self.successor_on_forced_chain =
            Some(forced && (self.saved_at_merge || self.on_forced_chain));
        match self.cached_enabled.take() {
            Some(steps) => {
                if self.expanding_fully {
                    self.note_reaches_full();
                }
                Ok(steps)
            }
            None if self.nprocs > 1 => {
                let steps = self.engine.enabled(state)?;
                Ok(self.engine.reduce(state, steps))
            }
            None => self.engine.enabled(state),
        }
    }

    fn next(&mut self, state: E::State, step: &E::Step) -> Result<E::State, EngineError> {
        self.last_step = Some((self.engine.owner_of(step), self.engine.is_local(step)));
        self.on_forced_chain = self.successor_on_forced_chain.take().unwrap_or(false);
        let executed = self.engine.execute(state, step)?;
        self.pending = executed.violations;
        Ok(executed.state)
    }

    fn check(&mut self, state: &E::State, path: &[E::Step]) -> Control {
        self.saved_at_merge = false;
        self.expanding_fully = false;
        let pending = std::mem::take(&mut self.pending);
        for violation in pending {
            if self.record(violation, path, FoundBy::Step) == Control::Stop {
                return Control::Stop;
            }
        }
        // The search is now at depth `path.len()`: saved states deeper than that
        // are no longer on its path.
        self.depth = path.len();
        if self.region == Visited::<E::Key, E::State>::PREFIX {
            if let Some(shared) = &self.shared {
                shared.prefix_state_checked();
            }
        }
        if let Some(progress) = &self.findings.progress {
            progress.reached(self.depth);
            // The counters are read rarely: a progress line shows them only
            // every quarter second.
            if progress.states() % 256 == 0 {
                progress.set_prover_calls(self.engine.counters().0);
            }
        }
        while self.end_depths.last().is_some_and(|&d| d >= self.depth) {
            self.end_depths.pop();
        }
        while self
            .full_expansion_depths
            .last()
            .is_some_and(|&d| d >= self.depth)
        {
            self.full_expansion_depths.pop();
        }
        while self
            .path_states
            .last()
            .is_some_and(|entry| entry.depth >= self.depth)
        {
            if let Some(entry) = self.path_states.pop() {
                self.leave_path(entry);
            }
        }
        let alone = if self.nprocs > 1 {
            self.engine.steps_alone(state, self.last_step)
        } else {
            Ok(None)
        };
        let enabled = match alone {
            Ok(Some(steps)) => {
                self.reduced = true;
                steps
            }
            Ok(None) => match self.all_enabled(state, path) {
                Ok(Some(steps)) if self.nprocs > 1 => {
                    let all = steps.len();
                    let steps = self.engine.reduce(state, steps);
                    self.reduced =
                        steps.len() < all || steps.iter().any(|s| self.engine.is_synchronous(s));
                    steps
                }
                Ok(Some(steps)) => {
                    self.reduced = false;
                    steps
                }
                Ok(None) => return Control::Stop,
                Err(error) => {
                    self.error = Some(error);
                    return Control::Stop;
                }
            },
            Err(error) => {
                self.error = Some(error);
                return Control::Stop;
            }
        };
        self.expanding_fully = !self.reduced;
        if enabled.is_empty() {
            for violation in self.engine.final_violations(state) {
                if self.record(violation, path, FoundBy::FinalChecks) == Control::Stop {
                    return Control::Stop;
                }
            }
            if self.mode == Mode::Verify && self.engine.is_terminated(state) {
                let values = self.engine.output_values(state);
                match &mut self.findings.outputs {
                    None => self.findings.outputs = Some(values.into_iter().collect()),
                    Some(seen) => {
                        for (name, value) in values {
                            let entry = seen.entry(name).or_insert_with(|| value.clone());
                            if *entry != value {
                                *entry = "(differs between runs)".to_string();
                            }
                        }
                    }
                }
            }
            if self.mode == Mode::CollectTerminals && self.engine.is_terminated(state) {
                let canonical = self.engine.canonicalize(state.clone());
                if self.terminal_set.insert(canonical.clone()) {
                    self.terminal_keys.push(canonical);
                    self.terminals.push(state.clone(), path);
                }
            }
        }
        self.note_end(state, &enabled);
        self.cached_enabled = Some(enabled);
        Control::Continue
    }

    fn should_save(&mut self, state: &E::State) -> bool {
        let decision = self.saving_decision(state);
        if crate::saved_dump::enabled() {
            let tag = if decision { "seen-save" } else { "seen-skip" };
            self.dump_state(tag, state);
        }
        decision
    }

    fn save(&mut self, state: &E::State) -> bool {
        let explore = self.save_state(state);
        if crate::saved_dump::enabled() {
            self.dump_state(if explore { "new" } else { "matched" }, state);
        }
        explore
    }
}

impl<E: Engine> ModelSystem<'_, E> {
    /// The state-saving heuristic (paper Sec. 5.4), erring on the side of saving
    /// (and every state at a depth that is a multiple of [`SAFETY_NET_PERIOD`]):
    /// a state is *not* saved only if its enabled steps (after the reduction) all
    /// belong to one process `q`, the step that produced it was `q`'s and the
    /// enabled steps are local, or no END state is on the path (or there is only
    /// one process), and `q` does not sit at a loop head or a
    /// location with several incoming edges (other than an if-join or a `for`
    /// head). Only `q`'s location matters, as in the paper: the others do not
    /// move next. Every cycle of the explored space still has a saved state:
    /// some process leaves a loop head on it, and the state where it does is
    /// saved (it is the only process moving then, or several move and the state
    /// is saved for that). Terminal states have no successors: not saved.
    ///
    /// One refinement of the paper's conditions: a state at the end of a
    /// *forced chain* is not saved either (unless it is a merge state or
    /// several processes may move). Such a state was reached from a state saved
    /// at a merge location by steps that were each the only one enabled, so it
    /// is reached again whenever that state is, and that state is matched
    /// then: saving it would not stop a second visit. Paths converge at the
    /// merge locations (the workers' `while` heads in a manager-worker code);
    /// the hand-overs between processes that follow, which the paper's
    /// condition 2 saves, were never matched on the Fig. 10 rows (see
    /// docs/PERFORMANCE.md, session 7). A state reached both along such a
    /// chain and by another path is explored again up to the next saved state:
    /// time, never soundness (the safety net and the merge states still cut
    /// every cycle).
    fn saving_decision(&mut self, state: &E::State) -> bool {
        let Some(enabled) = &self.cached_enabled else {
            return true;
        };
        if enabled.is_empty() {
            return false;
        }
        if self.depth > 0 && self.depth.is_multiple_of(SAFETY_NET_PERIOD) {
            return true;
        }
        let q = self.engine.owner_of(&enabled[0]);
        if !enabled.iter().all(|s| self.engine.owner_of(s) == q) {
            return true;
        }
        if self.engine.process_at_join_location(state, q) {
            self.saved_at_merge = true;
            return true;
        }
        if self.nprocs <= 1 || self.on_forced_chain {
            return false;
        }
        let all_local = enabled.iter().all(|s| self.engine.is_local(s));
        let same_process = matches!(self.last_step, Some((p, _)) if p == q);
        // Condition 2 of the paper: the step just taken was q's and q's next
        // steps are local, or no END state is on the path (then no other path
        // of the explored space leads here). A synchronous send–receive pair
        // counts as the receiver's step (`owner_of`), as in the paper.
        let no_end_on_path = self.end_depths.is_empty();
        !(((same_process || self.last_step.is_none()) && all_local) || no_end_on_path)
    }

    /// Saves `state`, and enforces the cycle proviso of the partial-order
    /// reduction. A state that matches one on the current search path closes
    /// a cycle; if the reduction left steps out at that earlier visit, the
    /// state is explored once more here with all its enabled steps (it counts
    /// as saved again), and is marked so that it is never re-expanded.
    ///
    /// Why that is enough: take any cycle of the explored graph (its nodes the
    /// saved states, plus each visit of a state not saved) and its node `v` the
    /// search reached first. A node not saved has only the edge that created
    /// it coming in, so `v` is saved. Every other node of the cycle is reached
    /// while `v` is on the path (depth-first search's white-path property; a
    /// re-expansion happens while the first visit is still on the path, so the
    /// property holds with it), so the cycle's edge into `v` is met while `v` is
    /// on the path: `v` is re-expanded then, or was fully expanded already.
    /// Every cycle thus has a fully expanded state, which is what the
    /// reduction's argument needs (no step is ignored forever along a cycle).
    fn save_state(&mut self, state: &E::State) -> bool {
        let canonical = self.engine.canonicalize(state.clone());
        let canonical = self.engine.store_key(canonical);
        let key = self.engine.saved_key(&canonical);
        let region = self.region;
        if let Some(shared) = self.shared_store_of(region) {
            return self.save_shared(&shared, state, canonical, key);
        }
        let matched = if self.visited[region].store.contains(&key) {
            key
        } else {
            match self.match_by_data(&canonical) {
                Ok(saved) => self.engine.saved_key(&saved),
                Err(control) => {
                    let visited = &mut self.visited[region];
                    if let Some(control) = control {
                        visited
                            .by_control
                            .entry(control)
                            .or_default()
                            .push(canonical);
                    }
                    visited.store.insert(key.clone());
                    visited.on_path.insert(key.clone(), self.reduced);
                    self.path_states.push(PathState {
                        depth: self.depth,
                        key,
                        shared: None,
                        region,
                    });
                    if let Some(progress) = &self.findings.progress {
                        progress.saved_one();
                    }
                    return true;
                }
            }
        };
        let canonical = matched;
        let visited = &mut self.visited[region];
        if visited.on_path.contains_key(&canonical) {
            self.closed_cycle = true;
        }
        if visited.on_path.get(&canonical) != Some(&true) || visited.expanded.contains(&canonical) {
            return false;
        }
        // A cycle closes at a state the reduction reduced: explore it again with
        // every enabled step (the ones explored before lead to saved states).
        visited.expanded.insert(canonical);
        self.expand_fully(state)
    }

    /// `TASS_DUMP_SAVED`: one line for `state` (its canonical form's stable
    /// hash, `crate::saved_dump`).
    fn dump_state(&mut self, tag: &str, state: &E::State) {
        let canonical = self.engine.canonicalize(state.clone());
        let canonical = self.engine.store_key(canonical);
        if let Some(hash) = self.engine.stable_form_hash(&canonical) {
            let below_expansion = !self.full_expansion_depths.is_empty();
            let tag = if below_expansion {
                format!("{tag}+x")
            } else {
                tag.to_string()
            };
            crate::saved_dump::record(&tag, self.region, hash);
        }
    }
}

impl<E: Engine> ModelSystem<'_, E> {
    /// The shared store that stands for `region`'s saved states, if any.
    fn shared_store_of(&self, region: usize) -> Option<Arc<SharedStore<E::State>>> {
        if region != Visited::<E::Key, E::State>::PART || self.matching != MatchMode::Syntactic {
            return None;
        }
        self.shared.clone()
    }

    /// `save` with the store shared by the parts of a parallel run (the
    /// cycle proviso made conservative: see [`SharedStore`]).
    fn save_shared(
        &mut self,
        shared: &SharedStore<E::State>,
        state: &E::State,
        canonical: E::State,
        key: E::Key,
    ) -> bool {
        let region = self.region;
        let meeting = if self.visited[region].on_path.contains_key(&key) {
            self.closed_cycle = true;
            Meeting::OwnPath
        } else {
            Meeting::Elsewhere
        };
        match shared.save(canonical.clone(), self.reduced, meeting) {
            Saved::New => {
                if self.visited[Visited::<E::Key, E::State>::PREFIX]
                    .store
                    .contains(&key)
                {
                    // Saved above the cut too (the regions are kept apart).
                    shared.prefix_state_saved_below();
                }
                self.visited[region]
                    .on_path
                    .insert(key.clone(), self.reduced);
                self.path_states.push(PathState {
                    depth: self.depth,
                    key,
                    shared: Some(canonical),
                    region,
                });
                if let Some(progress) = &self.findings.progress {
                    progress.saved_one();
                }
                true
            }
            Saved::Matched { reaches_full } => {
                if reaches_full {
                    self.note_reaches_full();
                }
                false
            }
            Saved::ExpandFully => self.expand_fully(state),
        }
    }

    /// Explores `state` again with every enabled step (the cycle proviso).
    fn expand_fully(&mut self, state: &E::State) -> bool {
        if crate::saved_dump::enabled() {
            self.full_expansion_depths.push(self.depth);
        }
        match self.engine.enabled(state) {
            Ok(all) => {
                self.note_end(state, &all);
                self.cached_enabled = Some(all);
                self.expanding_fully = true;
                true
            }
            Err(error) => {
                self.error = Some(error);
                false
            }
        }
    }

    /// The state being expanded is expanded fully, or equals a saved state
    /// from which a fully expanded one is reachable: so is every saved state
    /// on the path (each reaches it by explored steps). Marks them in the
    /// shared store (which a part uses to spare another part's open states
    /// the cycle proviso, see [`SharedStore::save`]).
    fn note_reaches_full(&mut self) {
        let Some(shared) = &self.shared else {
            return;
        };
        for entry in &self.path_states[self.reaches_full_upto..] {
            if let Some(state) = &entry.shared {
                shared.mark_reaches_full(state);
            }
        }
        self.reaches_full_upto = self.path_states.len();
    }

    /// The search has ended: the states still on its path are closed in the
    /// shared store (other parts need not expand them for this one).
    pub fn close_path(&mut self) {
        while let Some(entry) = self.path_states.pop() {
            self.leave_path(entry);
        }
    }

    /// The search has backtracked over a saved state: off the path, and
    /// closed in the shared store if it is there.
    fn leave_path(&mut self, entry: PathState<E::Key, E::State>) {
        self.reaches_full_upto = self.reaches_full_upto.min(self.path_states.len());
        self.visited[entry.region].on_path.remove(&entry.key);
        if let (Some(s), Some(shared)) = (entry.shared, self.shared_store_of(entry.region)) {
            shared.close(&s);
        }
    }
}

impl<E: Engine> ModelSystem<'_, E> {
    /// `--match set|subsume`: a saved state with `canonical`'s control part
    /// whose data set equals (`set`) or includes (`subsume`) `canonical`'s;
    /// otherwise `Err` with `canonical`'s control part, under which it is to
    /// be saved (`None` when it is matched syntactically only).
    ///
    /// Subsumption skips a saved state on the search path that the reduction
    /// reduced: the cycle proviso would have to expand that state fully, and
    /// the new state covers only part of its data; the new state is explored
    /// instead. Set equality needs no such care: the two states stand for the
    /// same concrete states, so expanding the new one fully is expanding the
    /// saved one.
    fn match_by_data(&mut self, canonical: &E::State) -> Result<E::State, Option<E::State>> {
        let relation = match self.matching {
            MatchMode::Syntactic => return Err(None),
            MatchMode::Set => DataRelation::Equal,
            MatchMode::Subsume => DataRelation::Included,
        };
        let Some(key) = self.engine.control_part(canonical) else {
            return Err(None);
        };
        let candidates = self.visited[self.region]
            .by_control
            .get(&key)
            .cloned()
            .unwrap_or_default();
        for saved in candidates {
            if relation == DataRelation::Included {
                let key = self.engine.saved_key(&saved);
                if self.visited[self.region].on_path.get(&key) == Some(&true) {
                    continue;
                }
            }
            if self.engine.data_relation(canonical, &saved, relation) {
                return Ok(saved);
            }
        }
        Err(Some(key))
    }
}

impl<E: Engine> SplitSystem for ModelSystem<'_, E> {
    fn enter_region(&mut self, region: Region) {
        self.region = match region {
            Region::Prefix => Visited::<E::Key, E::State>::PREFIX,
            Region::Part => Visited::<E::Key, E::State>::PART,
        };
    }

    fn transition_fingerprint(&self, step: &E::Step) -> u64 {
        self.engine.step_fingerprint(step)
    }

    fn at_cut(&mut self, state: &E::State, step: &E::Step, taken: bool) {
        if self.cut_conditions.is_none() || self.error.is_some() {
            return;
        }
        match self.engine.execute(state.clone(), step) {
            Ok(executed) => {
                let pc = self.engine.path_condition(&executed.state);
                if let Some(items) = &mut self.cut_conditions {
                    items.push((pc, taken));
                }
            }
            Err(error) => self.error = Some(error),
        }
    }
}

/// The locations where the state-saving heuristic (paper Sec. 5.4) saves (the
/// engine's `at_join_location` reads them for [`ModelSystem::should_save`]): those
/// with several incoming edges that are neither the join of an `if` nor the head of
/// a `for` loop. `while`/`do` loop heads are the typical ones; every cycle of a
/// function's graph passes through a loop head, so only `for` loops that revisit a
/// state can make the search repeat itself (ended by `--max-states`/`--timeout`).
pub(crate) fn saving_locations(model: &Model) -> HashMap<String, HashSet<LocationId>> {
    let mut out = HashMap::new();
    for f in &model.functions {
        let Some(body) = &f.body else { continue };
        let mut set = HashSet::new();
        for loc in body.graph.node_indices() {
            let incoming = body
                .graph
                .neighbors_directed(loc, petgraph::Direction::Incoming)
                .count();
            let kind = body.location(loc).kind;
            let save = match kind {
                // a backward `goto` closes a cycle at its label
                LocationKind::LoopHead | LocationKind::Label => true,
                LocationKind::IfJoin | LocationKind::ForLoopHead | LocationKind::Exit => false,
                LocationKind::Plain => incoming >= 2,
            };
            if save {
                set.insert(loc);
            }
        }
        out.insert(f.name.clone(), set);
    }
    out
}

/// Limits for a search that starts now, given the whole run's options and start.
pub(crate) fn limits_now(options: &Options, started: Instant, seen_so_far: u64) -> Limits {
    Limits {
        max_states: options
            .max_states
            .map(|max| max.saturating_sub(seen_so_far)),
        timeout: options.timeout.map(|t| {
            t.saturating_sub(started.elapsed())
                .max(Duration::from_nanos(1))
        }),
        cancel: options.cancel.clone(),
        siblings_stop: None,
        max_memory: options.max_memory,
    }
}

/// How a run (one or several searches) ended, for the verdict.
#[derive(Debug)]
pub(crate) enum Ending {
    Complete,
    Stopped,
    Limit(Limit),
    /// The search completed but left something unchecked (the reason says what).
    Unchecked(String),
    Error(EngineError),
}

impl Ending {
    pub fn from_outcome(outcome: Outcome<EngineError>, error: Option<EngineError>) -> Ending {
        if let Some(error) = error {
            return Ending::Error(error);
        }
        match outcome {
            Outcome::Complete => Ending::Complete,
            Outcome::Stopped => Ending::Stopped,
            Outcome::LimitReached(limit) => Ending::Limit(limit),
            Outcome::Error(error) => Ending::Error(error),
        }
    }
}

pub(crate) fn limit_text(limit: Limit, options: &Options) -> String {
    match limit {
        Limit::MaxStates => format!(
            "the state limit was reached (--max-states {}); raise it to explore further",
            options.max_states.unwrap_or(0)
        ),
        Limit::Timeout => format!(
            "the time limit was reached (--timeout {}); raise it to explore further",
            options.timeout.map(|t| t.as_secs_f64()).unwrap_or(0.0)
        ),
        Limit::Cancelled => "interrupted (Ctrl-C) before the search was complete".into(),
        Limit::Memory => format!(
            "the memory limit was reached (--max-memory {} MB of resident memory); \
             raise it to explore further",
            options.max_memory.unwrap_or(0) / (1024 * 1024)
        ),
    }
}

/// Builds the report from the findings and how the run ended.
pub(crate) fn finish<E: Engine>(
    engine: &E,
    findings: Findings,
    ending: Ending,
    search: SearchStats,
    options: &Options,
) -> Report {
    let (prover_calls, smt_calls, symbolic_values) = engine.counters();
    let (invariant_checks, invariant_prover_calls) = engine.invariant_counters();
    let stats = Stats {
        invariant_checks,
        invariant_prover_calls,
        loop_arrivals: engine.loop_arrivals(),
        states_seen: search.states_seen,
        states_saved: search.states_saved,
        transitions: search.transitions,
        prover_calls,
        smt_calls,
        symbolic_values,
        time_s: findings.started.elapsed().as_secs_f64(),
        memory_mb: peak_memory_mb(),
    };
    let mut report = Report {
        verdict: Verdict::Holds,
        violations: Vec::new(),
        error: None,
        inconclusive_reason: None,
        stopped_early: findings.stopped_early,
        max_violations: findings.max_violations,
        warnings: findings.warnings,
        outputs: findings.outputs,
        stats,
        split: None,
        loop_runs: None,
        aligned_loops_stuck: engine.aligned_loops_stuck(),
    };
    let found = !findings.violations.is_empty();
    report.violations = findings.violations;
    match ending {
        Ending::Error(error) => {
            report.verdict = Verdict::Error;
            report.error = Some(format!("error: {error}"));
        }
        _ if found => report.verdict = Verdict::Violated,
        Ending::Limit(limit) => {
            report.verdict = Verdict::Inconclusive;
            report.inconclusive_reason = Some(limit_text(limit, options));
        }
        Ending::Unchecked(reason) => {
            report.verdict = Verdict::Inconclusive;
            report.inconclusive_reason = Some(reason);
        }
        Ending::Complete | Ending::Stopped => report.verdict = Verdict::Holds,
    }
    report
}

/// `tass verify` over an engine: explore everything reachable, check every state.
pub(crate) fn verify_with<E: Engine>(engine: &mut E, options: &Options, nprocs: usize) -> Report {
    let mut findings = Findings::new(options);
    let initial = match engine.initial_state() {
        Ok(state) => state,
        Err(error) => {
            return finish(
                engine,
                findings,
                Ending::Error(error),
                SearchStats::default(),
                options,
            )
        }
    };
    let started = findings.started;
    let split = options.shard.map(|shard| {
        let target = SplitTarget {
            options,
            mode: Mode::Verify,
            label: None,
            nprocs,
            matching: options.matching,
            started,
        };
        let depth = choose_cut(engine, &initial, &target, shard.count);
        (
            shard,
            Split {
                part: shard.index,
                parts: shard.count,
                depth,
            },
        )
    });
    let search = Search::new(limits_now(options, started, 0));
    let (ending, stats, seen) = {
        let mut system = ModelSystem::new(
            engine,
            &mut findings,
            Mode::Verify,
            initial.clone(),
            None,
            nprocs,
        );
        system.matching = options.matching;
        let (report, seen) = match split {
            Some((shard, split)) => {
                let (report, info) = search.run_part(&mut system, initial, split);
                (report, Some(split_report(Some(shard), split, info)))
            }
            None => (search.run(&mut system, initial), None),
        };
        (system.ending(report.outcome), report.stats, seen)
    };
    let mut report = finish(engine, findings, ending, stats, options);
    report.split = seen;
    report
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod shared_tests;
