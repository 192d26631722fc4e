//! The transition system of one model over an [`Engine`], explored by
//! `tass-search`: violation checks on every state, final checks at terminal states,
//! the state-saving heuristic, the canonic store, counterexample traces, and the
//! verdict.

use std::collections::HashSet;
use std::time::{Duration, Instant};

use tass_search::api::{Control, Limit, Limits, Outcome, Search, SearchStats, TransitionSystem};
use tass_semantics::api::{Certainty as EngineCertainty, EngineError, Violation};

use crate::engine::Engine;
use crate::options::Options;
use crate::report::{
    peak_memory_mb, Certainty, Property, Report, Stats, TraceStep, Verdict, ViolationReport,
    Witness,
};

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

/// Converts the semantics' property to the report's.
pub(crate) fn property_of(p: tass_semantics::api::Property) -> Property {
    Property::from_id(p.id()).unwrap_or(Property::Unsupported)
}

pub(crate) fn certainty_of(c: EngineCertainty) -> Certainty {
    match c {
        EngineCertainty::Provable => Certainty::Provable,
        EngineCertainty::Possible => Certainty::Possible,
    }
}

/// The witness of a violation: the prover's values, inputs first in declaration
/// order, then other symbolic constants (e.g. `rand()` results), which explain the
/// path too. Inputs the prover gave no value for are listed separately: they did not
/// occur in its query, or are of a kind it cannot print (arrays); no value is made up.
pub(crate) fn complete_witness(
    given: Option<Vec<(String, String)>>,
    inputs: &[String],
    fixed: &[(String, String)],
    reason: impl FnOnce() -> String,
) -> (Witness, Vec<String>) {
    match given {
        None => (Witness::Unavailable(reason()), Vec::new()),
        Some(values) => {
            let mut out = Vec::new();
            let mut missing = Vec::new();
            for name in inputs {
                if let Some((_, v)) = fixed.iter().find(|(n, _)| n == name) {
                    out.push((name.clone(), v.clone()));
                    continue;
                }
                match values.iter().find(|(n, _)| n == name) {
                    Some((_, v)) => out.push((name.clone(), v.clone())),
                    None => missing.push(name.clone()),
                }
            }
            for (n, v) in values {
                if !inputs.contains(&n) {
                    out.push((n, v));
                }
            }
            (Witness::Values(out), missing)
        }
    }
}

/// Re-executes `path` from `start`, collecting one trace step per transition with
/// the variables it changed. Also returns the path condition of the state before
/// the last step (the condition under which that step's check failed).
pub(crate) fn replay<E: Engine>(
    engine: &mut E,
    start: E::State,
    path: &[E::Step],
    model_label: Option<&str>,
) -> Result<(Vec<TraceStep>, E::Value), EngineError> {
    let mut state = start;
    let mut trace = Vec::with_capacity(path.len());
    let mut pc_before_last = engine.path_condition(&state);
    for step in path {
        let info = engine.step_info(step);
        pc_before_last = engine.path_condition(&state);
        let executed = engine.execute(state, step)?;
        state = executed.state;
        trace.push(TraceStep {
            model: model_label.map(str::to_string),
            file: info.span.file.to_string(),
            line: info.span.start_line,
            column: info.span.start_column,
            process: info.process,
            source: info.source,
            changes: executed.changes,
        });
    }
    Ok((trace, pc_before_last))
}

/// The transition system of one model.
pub(crate) struct ModelSystem<'a, E: Engine> {
    pub engine: &'a mut E,
    pub findings: &'a mut Findings,
    mode: Mode,
    /// The state the search started from (for replaying traces).
    start: E::State,
    model_label: Option<&'static str>,
    /// The canonic store: canonical forms of the saved states.
    store: HashSet<E::State>,
    /// Violations of the step that produced the state about to be checked.
    pending: Vec<Violation>,
    /// The process and locality of that step.
    last_step: Option<(usize, bool)>,
    /// `enabled` of the state just checked (the search asks for it next).
    cached_enabled: Option<Vec<E::Step>>,
    nprocs: usize,
    /// Distinct terminal states with their paths (compare mode).
    pub terminals: Vec<(E::State, Vec<E::Step>)>,
    terminal_set: HashSet<E::State>,
    /// An engine error met while checking (ends the search).
    pub error: Option<EngineError>,
}

impl<'a, E: Engine> ModelSystem<'a, E> {
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
            store: HashSet::new(),
            pending: Vec::new(),
            last_step: None,
            cached_enabled: None,
            nprocs,
            terminals: Vec::new(),
            terminal_set: HashSet::new(),
            error: None,
        }
    }

    /// Records `violation` (if new); returns `Stop` once the budget is spent.
    /// `by_step`: found by the step that produced `state` (its path condition is then
    /// the one before that step), else at `state` itself (final checks).
    fn record(
        &mut self,
        violation: Violation,
        state: &E::State,
        path: &[E::Step],
        by_step: bool,
    ) -> Control {
        let property = property_of(violation.property);
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
        let (trace, pc_before) =
            match replay(self.engine, self.start.clone(), path, self.model_label) {
                Ok(x) => x,
                Err(error) => {
                    self.error = Some(error);
                    return Control::Stop;
                }
            };
        let pc = if by_step && !path.is_empty() {
            pc_before
        } else {
            self.engine.path_condition(state)
        };
        let inputs = self.engine.input_names();
        let fixed = self.engine.fixed_inputs();
        let engine = &*self.engine;
        let (witness, witness_missing) =
            complete_witness(violation.witness, &inputs, &fixed, || {
                engine.no_witness_reason()
            });
        let report = ViolationReport {
            property,
            certainty: certainty_of(violation.certainty),
            message: violation.message,
            file: span.file.to_string(),
            line: span.start_line,
            column: span.start_column,
            process: violation.process,
            trace,
            path_condition: self.engine.pretty_condition(&pc),
            claim: violation.claim,
            witness,
            witness_missing,
            difference: None,
        };
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

impl<E: Engine> TransitionSystem for ModelSystem<'_, E> {
    type State = E::State;
    type Transition = E::Step;
    type Error = EngineError;

    fn enabled(&mut self, state: &E::State) -> Result<Vec<E::Step>, EngineError> {
        match self.cached_enabled.take() {
            Some(steps) => Ok(steps),
            None if self.nprocs > 1 => {
                let steps = self.engine.enabled(state)?;
                Ok(self.engine.reduce(steps))
            }
            None => self.engine.enabled(state),
        }
    }

    fn next(&mut self, state: E::State, step: &E::Step) -> Result<E::State, EngineError> {
        self.last_step = Some((self.engine.process_of(step), self.engine.is_local(step)));
        let executed = self.engine.execute(state, step)?;
        self.pending = executed.violations;
        Ok(executed.state)
    }

    fn check(&mut self, state: &E::State, path: &[E::Step]) -> Control {
        let pending = std::mem::take(&mut self.pending);
        for violation in pending {
            if self.record(violation, state, path, true) == Control::Stop {
                return Control::Stop;
            }
        }
        let enabled = match self.engine.enabled(state) {
            Ok(steps) if self.nprocs > 1 => self.engine.reduce(steps),
            Ok(steps) => steps,
            Err(error) => {
                self.error = Some(error);
                return Control::Stop;
            }
        };
        if enabled.is_empty() {
            for violation in self.engine.final_violations(state) {
                if self.record(violation, state, path, false) == Control::Stop {
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
                if self.terminal_set.insert(canonical) {
                    self.terminals.push((state.clone(), path.to_vec()));
                }
            }
        }
        self.cached_enabled = Some(enabled);
        Control::Continue
    }

    /// The state-saving heuristic (paper Sec. 5.4), erring on the side of saving:
    /// a state is *not* saved only if its enabled steps all belong to one process
    /// `q`, the step that produced it was `q`'s and local (or there is only one
    /// process), and no process sits at a loop head, an if-join or a location with
    /// several incoming edges. Terminal states have no successors: not saved.
    fn should_save(&mut self, state: &E::State) -> bool {
        let Some(enabled) = &self.cached_enabled else {
            return true;
        };
        if enabled.is_empty() {
            return false;
        }
        if self.engine.at_join_location(state) {
            return true;
        }
        if self.nprocs <= 1 {
            return false;
        }
        let q = self.engine.process_of(&enabled[0]);
        let one_process = enabled.iter().all(|s| self.engine.process_of(s) == q);
        let all_local = enabled.iter().all(|s| self.engine.is_local(s));
        let same_local_step = matches!(self.last_step, Some((p, true)) if p == q);
        !(one_process && (same_local_step || self.last_step.is_none()) && all_local)
    }

    fn save(&mut self, state: &E::State) -> bool {
        let canonical = self.engine.canonicalize(state.clone());
        self.store.insert(canonical)
    }
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
    let stats = Stats {
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
    let search = Search::new(limits_now(options, findings.started, 0));
    let (ending, stats) = {
        let mut system = ModelSystem::new(
            engine,
            &mut findings,
            Mode::Verify,
            initial.clone(),
            None,
            nprocs,
        );
        let report = search.run(&mut system, initial);
        (
            Ending::from_outcome(report.outcome, system.error.take()),
            report.stats,
        )
    };
    finish(engine, findings, ending, stats, options)
}
