//! The SMT-LIB session layer: one external solver, fresh state per query, a time limit
//! enforced by the solver and by a watchdog, restart after any failure, and a cache
//! keyed by the query's text.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use hashbrown::HashMap;

use crate::model::{parse_value, Model, ValueSort};
use crate::process::{resolve_program, ProcessError, SolverProcess};
use crate::sexp::Sexp;

/// The SMT solvers tass knows how to drive.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SolverKind {
    /// Z3 (`z3 -in -smt2`).
    Z3,
    /// cvc5 (`cvc5 --lang smt2`).
    Cvc5,
    /// Yices 2 (`yices-smt2`).
    Yices,
}

impl SolverKind {
    /// All kinds, in the order `Auto` tries them.
    pub const ALL: [SolverKind; 3] = [SolverKind::Z3, SolverKind::Yices, SolverKind::Cvc5];

    /// The command looked up on `PATH` when the user names no path.
    pub fn default_command(self) -> &'static str {
        match self {
            SolverKind::Z3 => "z3",
            SolverKind::Cvc5 => "cvc5",
            SolverKind::Yices => "yices-smt2",
        }
    }

    /// A short name for messages and statistics.
    pub fn name(self) -> &'static str {
        match self {
            SolverKind::Z3 => "z3",
            SolverKind::Cvc5 => "cvc5",
            SolverKind::Yices => "yices",
        }
    }

    fn args(self, limit: Duration) -> Vec<String> {
        let ms = limit.as_millis().max(1);
        match self {
            SolverKind::Z3 => vec!["-in".into(), "-smt2".into()],
            SolverKind::Cvc5 => vec![
                "-q".into(),
                "--lang".into(),
                "smt2".into(),
                "--incremental".into(),
                format!("--tlimit-per={ms}"),
            ],
            SolverKind::Yices => {
                let secs = limit.as_secs() + u64::from(limit.subsec_nanos() > 0);
                vec![format!("--timeout={}", secs.max(1))]
            }
        }
    }
}

impl fmt::Display for SolverKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a solver back end could not be set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolverError {
    /// The solver's program was not found (not on `PATH`, or the path is not an
    /// executable file).
    NotFound {
        /// Which solver.
        kind: SolverKind,
        /// The command or path that was tried.
        command: String,
    },
    /// The program exists but did not start or did not answer a trivial query.
    Unusable {
        /// Which solver.
        kind: SolverKind,
        /// The program.
        program: PathBuf,
        /// What went wrong.
        reason: String,
    },
}

impl fmt::Display for SolverError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolverError::NotFound { kind, command } if command.contains('/') => write!(
                f,
                "{kind} solver not found: `{command}` is not an executable file; \
                 give the path of the {kind} program, or use the built-in prover"
            ),
            SolverError::NotFound { kind, command } => write!(
                f,
                "{kind} solver not found: `{command}` is not on PATH; install {kind} \
                 (or name its program by path), or use the built-in prover"
            ),
            SolverError::Unusable {
                kind,
                program,
                reason,
            } => write!(
                f,
                "{kind} solver `{}` is not usable: {reason}",
                program.display()
            ),
        }
    }
}

impl std::error::Error for SolverError {}

/// A term whose value is wanted from the model when a query is satisfiable.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ModelTerm {
    /// The name reported in the [`Model`] (the symbolic constant's name).
    pub name: String,
    /// The SMT-LIB term to evaluate (usually the constant's SMT symbol).
    pub term: String,
    /// How to read the value back.
    pub sort: ValueSort,
}

/// A satisfiability query in SMT-LIB text: declarations, then the conjunction of the
/// assertions. Built by the translation ([`smt_query`](crate::api::smt_query)), or by
/// hand (tests, other tools).
///
/// The translation names a symbolic constant `NAME` as the SMT symbol `s.NAME` when
/// `NAME` is a plain identifier (`s.NAME.ID` if two constants share a name), a tuple's
/// leaves `s.NAME.0`, `s.NAME.1`, ..., and its own helpers `tass.*`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct SmtQuery {
    /// Commands before the assertions (`declare-fun`, `define-fun`, ...), one per entry.
    pub declarations: Vec<String>,
    /// Boolean terms, asserted together.
    pub assertions: Vec<String>,
    /// Terms whose values make up the model when the answer is `sat`.
    pub model_terms: Vec<ModelTerm>,
    /// The query has quantifiers (yices cannot take it; the logic must allow them).
    pub quantified: bool,
    /// The query has nonlinear arithmetic (products of unknowns, `div`/`mod` by an
    /// unknown): picks a nonlinear logic for yices.
    pub nonlinear: bool,
}

impl SmtQuery {
    /// The text that identifies this query in the cache (and is sent to the solver).
    pub fn body(&self) -> String {
        let mut s = String::new();
        for d in &self.declarations {
            s.push_str(d);
            s.push('\n');
        }
        for a in &self.assertions {
            s.push_str("(assert ");
            s.push_str(a);
            s.push_str(")\n");
        }
        s
    }
}

/// A solver's answer to a satisfiability query.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SatOutcome {
    /// Satisfiable; the model holds the requested terms' values (may be partial).
    Sat(Model),
    /// Unsatisfiable.
    Unsat,
    /// No answer: the solver said `unknown`, timed out, crashed, printed something
    /// unexpected, or cannot take this kind of query. The text says which.
    Unknown(String),
}

/// Counters for one solver back end.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BackendStats {
    /// The back end's name (`z3`, `cvc5`, `yices`).
    pub name: String,
    /// Queries asked of this back end (cache hits included).
    pub queries: u64,
    /// Queries answered from the cache.
    pub cache_hits: u64,
    /// Queries actually sent to the solver.
    pub solver_calls: u64,
    /// Answers `sat`.
    pub sat: u64,
    /// Answers `unsat`.
    pub unsat: u64,
    /// Answers `unknown` (including the solver's own time-outs) and skipped queries.
    pub unknown: u64,
    /// Queries the watchdog had to kill.
    pub timeouts: u64,
    /// Crashes, malformed answers and errors reported by the solver.
    pub failures: u64,
    /// Solver processes started (the first start included).
    pub starts: u64,
    /// Time spent in solver calls.
    pub time: Duration,
}

/// The query cache is dropped wholesale when it holds this many queries.
const MAX_CACHED_QUERIES: usize = 1 << 14;

/// Consecutive failed starts after which a back end stops trying.
const MAX_START_FAILURES: u32 = 3;

/// Extra time the watchdog grants beyond the solver's own limit before killing it.
const WATCHDOG_GRACE: Duration = Duration::from_millis(1000);

/// One SMT solver back end: a lazily started process, restarted after failures.
pub struct SmtSolver {
    kind: SolverKind,
    program: PathBuf,
    timeout: Duration,
    process: Option<Live>,
    /// Answers by query text, with the time limit they were asked under (an
    /// `unknown` under a short limit does not answer a question with a longer one).
    cache: HashMap<String, (SatOutcome, Duration)>,
    start_failures: u32,
    disabled: Option<String>,
    /// Whether the trivial query that shows the solver works is still to be
    /// asked (before the first real query, not at launch: most runs never
    /// reach a solver, and starting one costs a process start).
    probe: Probe,
    stats: BackendStats,
}

/// Whether a back end still has to show it answers `(assert true)` with `sat`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Probe {
    Pending,
    Done,
}

impl SmtSolver {
    /// A back end for `kind`, running `command` (a path, or a name looked up on
    /// `PATH`; `None`: the kind's default command). Each query gets `timeout`.
    /// Fails if the program does not exist; the process itself starts on first use.
    pub fn new(
        kind: SolverKind,
        command: Option<&str>,
        timeout: Duration,
    ) -> Result<SmtSolver, SolverError> {
        let command = command.unwrap_or(kind.default_command());
        let program = resolve_program(command).ok_or_else(|| SolverError::NotFound {
            kind,
            command: command.to_string(),
        })?;
        Ok(SmtSolver::with_program(kind, program, timeout))
    }

    fn with_program(kind: SolverKind, program: PathBuf, timeout: Duration) -> SmtSolver {
        SmtSolver {
            kind,
            program,
            timeout,
            process: None,
            cache: HashMap::new(),
            start_failures: 0,
            disabled: None,
            probe: Probe::Done,
            stats: BackendStats {
                name: kind.name().to_string(),
                ..BackendStats::default()
            },
        }
    }

    /// Like [`SmtSolver::new`], then checks that the solver answers a trivial query.
    pub fn new_checked(
        kind: SolverKind,
        command: Option<&str>,
        timeout: Duration,
    ) -> Result<SmtSolver, SolverError> {
        let mut s = SmtSolver::new(kind, command, timeout)?;
        match s.run_probe() {
            Ok(()) => Ok(s),
            Err(reason) => Err(SolverError::Unusable {
                kind,
                program: s.program.clone(),
                reason,
            }),
        }
    }

    /// Like [`SmtSolver::new`]; the trivial query of [`SmtSolver::new_checked`]
    /// is asked just before the first real one, and a solver that fails it
    /// answers `unknown` from then on (so the next prover decides).
    pub fn new_lazy(
        kind: SolverKind,
        command: Option<&str>,
        timeout: Duration,
    ) -> Result<SmtSolver, SolverError> {
        let mut s = SmtSolver::new(kind, command, timeout)?;
        s.probe = Probe::Pending;
        Ok(s)
    }

    /// Asks `(assert true)`; the statistics count only the process start.
    fn run_probe(&mut self) -> Result<(), String> {
        self.probe = Probe::Done;
        let probe = SmtQuery {
            assertions: vec!["true".into()],
            ..SmtQuery::default()
        };
        let outcome = self.check_uncached(&probe);
        self.stats = BackendStats {
            name: self.kind.name().to_string(),
            starts: self.stats.starts,
            ..BackendStats::default()
        };
        match outcome {
            SatOutcome::Sat(_) => Ok(()),
            SatOutcome::Unknown(r) => Err(r),
            SatOutcome::Unsat => Err("it answered `unsat` to `(assert true)`".into()),
        }
    }

    /// Which solver this is.
    pub fn kind(&self) -> SolverKind {
        self.kind
    }

    /// The program that runs.
    pub fn program(&self) -> &Path {
        &self.program
    }

    /// The per-query time limit.
    pub fn timeout(&self) -> Duration {
        self.timeout
    }

    /// Counters so far.
    pub fn stats(&self) -> BackendStats {
        self.stats.clone()
    }

    /// Decides `query`, from the cache when the same text was asked before.
    pub fn check(&mut self, query: &SmtQuery) -> SatOutcome {
        self.check_within(query, self.timeout)
    }

    /// Like [`SmtSolver::check`] with the time limit `limit` (at most the back
    /// end's own) for this query: for questions whose "don't know" only costs
    /// time, such as a branch's feasibility.
    pub fn check_within(&mut self, query: &SmtQuery, limit: Duration) -> SatOutcome {
        self.stats.queries += 1;
        let limit = limit.min(self.timeout);
        let key = cache_key(query);
        if let Some((hit, asked_with)) = self.cache.get(&key) {
            if !matches!(hit, SatOutcome::Unknown(_)) || *asked_with >= limit {
                self.stats.cache_hits += 1;
                return hit.clone();
            }
        }
        let (outcome, cacheable) = self.solve(query, limit);
        if cacheable {
            if self.cache.len() >= MAX_CACHED_QUERIES {
                self.cache.clear();
            }
            self.cache.insert(key, (outcome.clone(), limit));
        }
        outcome
    }

    /// Decides `query` without consulting or filling the cache.
    pub fn check_uncached(&mut self, query: &SmtQuery) -> SatOutcome {
        self.stats.queries += 1;
        self.solve(query, self.timeout).0
    }

    fn logic(&self, query: &SmtQuery) -> Result<Option<&'static str>, String> {
        Ok(match self.kind {
            // z3 picks its tactic from the assertions; naming a logic only restricts it.
            SolverKind::Z3 => None,
            SolverKind::Cvc5 => Some("ALL"),
            SolverKind::Yices if query.quantified => {
                return Err("yices does not decide quantified formulas".into())
            }
            SolverKind::Yices if query.nonlinear => Some("QF_AUFNIRA"),
            SolverKind::Yices => Some("QF_AUFLIRA"),
        })
    }

    /// Returns the outcome and whether it may be cached (process failures may be
    /// transient and are not cached; the solver's `unknown` and time-outs are).
    fn solve(&mut self, query: &SmtQuery, limit: Duration) -> (SatOutcome, bool) {
        if self.probe == Probe::Pending {
            let before = self.stats.clone();
            if let Err(reason) = self.run_probe() {
                self.disabled = Some(format!("{} is unusable: {reason}", self.kind));
            }
            self.stats = BackendStats {
                starts: self.stats.starts,
                ..before
            };
        }
        let logic = match self.logic(query) {
            Ok(l) => l,
            Err(reason) => {
                self.stats.unknown += 1;
                return (SatOutcome::Unknown(reason), true);
            }
        };
        if let Some(reason) = &self.disabled {
            self.stats.unknown += 1;
            return (SatOutcome::Unknown(reason.clone()), false);
        }
        let mut process = match self.process.take() {
            Some(p) => p,
            None => match self.start() {
                Ok(p) => Live {
                    process: p,
                    pushed: false,
                    configured: false,
                    dirty: false,
                    sync: 0,
                    limit: Duration::ZERO,
                },
                Err(reason) => {
                    self.stats.unknown += 1;
                    return (SatOutcome::Unknown(reason), false);
                }
            },
        };
        self.stats.solver_calls += 1;
        let started = Instant::now();
        let result = self.converse(&mut process, query, logic, limit);
        self.stats.time += started.elapsed();
        match result {
            Ok(outcome) => {
                if !process.process.is_killed() {
                    self.process = Some(process);
                }
                match &outcome {
                    SatOutcome::Sat(_) => self.stats.sat += 1,
                    SatOutcome::Unsat => self.stats.unsat += 1,
                    SatOutcome::Unknown(_) => self.stats.unknown += 1,
                }
                (outcome, true)
            }
            Err(ProcessError::Killed) => {
                // Dropping the process kills and reaps it; the next query restarts it.
                drop(process);
                self.stats.timeouts += 1;
                self.stats.unknown += 1;
                let reason = format!(
                    "{} did not answer within {limit:?} and was killed",
                    self.kind
                );
                (SatOutcome::Unknown(reason), true)
            }
            Err(e) => {
                drop(process);
                self.stats.failures += 1;
                self.stats.unknown += 1;
                (
                    SatOutcome::Unknown(format!("{}: {e}; restarting it", self.kind)),
                    false,
                )
            }
        }
    }

    fn start(&mut self) -> Result<SolverProcess, String> {
        self.stats.starts += 1;
        match SolverProcess::spawn(&self.program, &self.kind.args(self.timeout)) {
            Ok(p) => {
                self.start_failures = 0;
                Ok(p)
            }
            Err(e) => {
                self.start_failures += 1;
                let reason = format!("{}: {e}", self.kind);
                if self.start_failures >= MAX_START_FAILURES {
                    self.disabled = Some(format!(
                        "{reason} ({MAX_START_FAILURES} failed starts; no longer tried)"
                    ));
                }
                Err(reason)
            }
        }
    }

    /// Sends one query. z3 gets the query inside `(push 1)` ... `(pop 1)` when it is
    /// linear and quantifier-free (its `(reset)` costs tens of milliseconds), and
    /// after a `(reset)` otherwise (its incremental mode is much weaker on nonlinear
    /// arithmetic). cvc5 and yices always get a `(reset)` (cheap for them). Every
    /// exchange ends with an `echo`ed token that must come back right after the
    /// answer, so that a stray line can never shift answers between queries.
    ///
    /// The query's time limit is the solver's own (z3's `:timeout`, cvc5's
    /// `:tlimit-per`; yices has only its start-up `--timeout`, so a shorter limit
    /// is the watchdog's), and the watchdog kills a solver that overruns it.
    fn converse(
        &self,
        live: &mut Live,
        query: &SmtQuery,
        logic: Option<&str>,
        query_limit: Duration,
    ) -> Result<SatOutcome, ProcessError> {
        let ms = query_limit.as_millis().max(1);
        let limit = query_limit + WATCHDOG_GRACE.min(query_limit.max(Duration::from_millis(200)));
        let prelude = match self.kind {
            SolverKind::Z3 => {
                format!("(set-option :produce-models true)\n(set-option :timeout {ms})\n")
            }
            SolverKind::Cvc5 => {
                format!("(set-option :produce-models true)\n(set-option :tlimit-per {ms})\n")
            }
            SolverKind::Yices => "(set-option :produce-models true)\n".to_string(),
        };
        let incremental = self.kind == SolverKind::Z3 && !query.nonlinear && !query.quantified;
        let mut script = String::new();
        if live.pushed {
            script.push_str("(pop 1)\n");
            live.pushed = false;
        }
        if incremental {
            if live.dirty {
                script.push_str("(reset)\n");
                live.configured = false;
                live.dirty = false;
            }
            if !live.configured || live.limit != query_limit {
                script.push_str(&prelude);
                live.configured = true;
                live.limit = query_limit;
            }
            script.push_str("(push 1)\n");
            live.pushed = true;
        } else {
            script.push_str("(reset)\n");
            script.push_str(&prelude);
            if let Some(l) = logic {
                script.push_str(&format!("(set-logic {l})\n"));
            }
            live.configured = true;
            live.limit = query_limit;
            // The query's declarations live at the base level now.
            live.dirty = true;
        }
        script.push_str(&query.body());
        script.push_str("(check-sat)\n");
        let answer = live.exchange(&script, limit)?;
        match answer.atom() {
            Some("unsat") => Ok(SatOutcome::Unsat),
            Some("unknown") | Some("timeout") => Ok(SatOutcome::Unknown(format!(
                "{} answered `unknown` (limit {query_limit:?})",
                self.kind
            ))),
            Some("sat") => {
                let mut model = Model::new();
                if !query.model_terms.is_empty() {
                    let terms: Vec<&str> =
                        query.model_terms.iter().map(|t| t.term.as_str()).collect();
                    let request = format!("(get-value ({}))\n", terms.join(" "));
                    let values = live.exchange(&request, limit)?;
                    read_values(&values, &query.model_terms, &mut model)?;
                }
                Ok(SatOutcome::Sat(model))
            }
            _ => Err(unexpected(&answer)),
        }
    }
}

/// A running solver and what the session knows about its state.
struct Live {
    process: SolverProcess,
    /// A `(push 1)` is open (z3's incremental queries).
    pushed: bool,
    /// The options are set.
    configured: bool,
    /// The base level holds a previous query's declarations (after a `reset`-style
    /// query): a `reset` is due before the next `push`.
    dirty: bool,
    /// Counter for the synchronization tokens.
    sync: u64,
    /// The time limit the options last set.
    limit: Duration,
}

impl Live {
    /// Sends `script` followed by an `echo` of a fresh token; returns the one answer
    /// before the token, and fails if the token does not follow it.
    fn exchange(&mut self, script: &str, limit: Duration) -> Result<Sexp, ProcessError> {
        self.sync += 1;
        let token = format!("tass-sync-{}", self.sync);
        let text = format!("{script}(echo \"{token}\")\n");
        let mut got = self.process.exchange(&text, 2, limit)?.into_iter();
        let (Some(answer), Some(echo)) = (got.next(), got.next()) else {
            return Err(ProcessError::Read(crate::sexp::SexpError::Eof));
        };
        let echoed = match &echo {
            Sexp::Atom(a) => a == &token,
            Sexp::Str(s) => s == &token,
            Sexp::List(_) => false,
        };
        if !echoed {
            return Err(unexpected(&echo));
        }
        Ok(answer)
    }
}

fn cache_key(query: &SmtQuery) -> String {
    let mut key = query.body();
    for t in &query.model_terms {
        key.push_str(&format!("; value {} {} {:?}\n", t.name, t.term, t.sort));
    }
    if query.quantified {
        key.push_str("; quantified\n");
    }
    if query.nonlinear {
        key.push_str("; nonlinear\n");
    }
    key
}

fn unexpected(answer: &Sexp) -> ProcessError {
    if let Sexp::List(items) = answer {
        if let [Sexp::Atom(e), Sexp::Str(msg)] = items.as_slice() {
            if e == "error" {
                return ProcessError::Read(crate::sexp::SexpError::Malformed(format!(
                    "the solver reported an error: {msg}"
                )));
            }
        }
    }
    let mut text = answer.to_string();
    if text.len() > 200 {
        let mut cut = 200;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        text.truncate(cut);
        text.push_str("...");
    }
    ProcessError::Read(crate::sexp::SexpError::Malformed(format!(
        "expected `sat`, `unsat` or `unknown`, got `{text}`"
    )))
}

/// Reads a `get-value` answer `((t1 v1) (t2 v2) ...)`, matching pairs by position.
fn read_values(answer: &Sexp, terms: &[ModelTerm], model: &mut Model) -> Result<(), ProcessError> {
    let Sexp::List(pairs) = answer else {
        return Err(unexpected(answer));
    };
    if pairs.len() != terms.len() {
        return Err(unexpected(answer));
    }
    for (pair, term) in pairs.iter().zip(terms) {
        match pair {
            Sexp::List(kv) if kv.len() == 2 => {
                model.insert(term.name.clone(), parse_value(&kv[1], term.sort));
            }
            _ => return Err(unexpected(answer)),
        }
    }
    Ok(())
}

/// Finds the programs of the known solvers on `PATH`, in [`SolverKind::ALL`] order.
pub fn solvers_on_path() -> Vec<(SolverKind, PathBuf)> {
    SolverKind::ALL
        .iter()
        .filter_map(|&k| resolve_program(k.default_command()).map(|p| (k, p)))
        .collect()
}
