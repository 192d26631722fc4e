//! The engine: initial state, enabled steps, execution, canonicalization.

use std::sync::Arc;

use tass_dynamic::api::{HeapObject, Value};

use tass_model::api::mpi::Rank;

use tass_model::api::{Callee, LocationId, Model, Span, Statement, VarScope};

use tass_semantics::api::{
    evaluate_guard, execute_transition, leans_on_loop_values, Certainty, Decision, EngineError,
    Environment, Oracle, OracleStats, Property, SignedOverflow, TransitionRun, Violation,
};

use tass_symbolic::api::{Expr, ExprFactory};

use crate::canon::{canonical_heapless, canonical_heaps, simplify_state, ProcMemo};

use crate::env::Layout;

use crate::mpi::PollOutcome;

use crate::state::{PartStore, State, Status};

mod initial;
mod ltl_atoms;
mod matching;
mod program_args;
pub use crate::step::{Step, StepInfo, StepOutcome};
pub use initial::FixedValue;
pub use matching::ControlData;

/// Runs `work`, turning a panic (an internal error: a bug, never the user's
/// fault) into an [`EngineError`] so that the verifier reports it instead of
/// crashing.
fn guarded<T>(
    what: impl FnOnce() -> String,
    work: impl FnOnce() -> Result<T, EngineError>,
) -> Result<T, EngineError> {
    match std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)) {
        Ok(result) => result,
        Err(payload) => {
            let detail = payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "unknown cause".into());
            Err(EngineError::invalid(
                format!(
                    "internal error of the tass engine while {}: {detail}; please report it",
                    what()
                ),
                None,
            ))
        }
    }
}

pub use tass_semantics::api::Arith;

/// The process whose copies of the outputs are the program's outputs (what
/// `tass compare` compares and reports show). A real MPI program's outputs are
/// what its rank 0 prints or writes, by convention; choosing another rank would
/// make this a field of [`EngineConfig`] (no option asks for it yet).
pub(crate) const OUTPUT_PROCESS: usize = 0;

/// The [`crate::snapshot::SnapshotCtx`] of engine `$engine`: what the
/// snapshot code reads of it. A macro rather than a method so that
/// `Engine::snapshots` can borrow the prover mutably beside it.
macro_rules! snapshot_ctx {
    ($engine:expr) => {
        crate::snapshot::SnapshotCtx {
            model: &$engine.model,
            f: &$engine.factory,
            layout: &$engine.layout,
            joint: $engine.joint,
            spec_paths: &$engine.spec_paths,
            side: $engine.joint_side,
            max_lag: $engine.max_lag,
        }
    };
}

/// Configuration of an [`Engine`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineConfig {
    /// Number of processes (instances of the model's process program).
    pub nprocs: usize,
    /// How floating-point operations are interpreted (`--arith`).
    pub arith: Arith,
    /// Inputs fixed to concrete values (`-i NAME=VALUE`), by input name.
    pub fixed_inputs: Vec<(String, FixedValue)>,
    /// Whether signed overflow is checked (`--signed-overflow`).
    pub signed_overflow: SignedOverflow,
    /// The command line `main` receives (`tass verify FILE -- ARG...`), its
    /// program name first: `argc` is its length and `argv` points to copies of
    /// the strings. `None`: `argc` is any value from 1 and `argv` undefined.
    pub program_args: Option<Vec<String>>,
}

impl Default for EngineConfig {
    fn default() -> Self {
        EngineConfig {
            nprocs: 1,
            arith: Arith::Real,
            fixed_inputs: Vec::new(),
            signed_overflow: SignedOverflow::Unchecked,
            program_args: None,
        }
    }
}

/// What a process is doing, for deadlock reports and traces.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProcessStatus {
    /// Running, in `function` at the location whose source is `span`.
    Running {
        /// Name of the function of the top frame.
        function: String,
        /// Location id in that function.
        location: LocationId,
        /// Source position of the location.
        span: Span,
        /// Depth of the call stack.
        depth: usize,
    },
    /// Ended, with the exit code (from `main`'s return or `exit`) if any.
    Terminated {
        /// The exit code.
        exit_code: Option<Expr>,
    },
}

/// Counters of the engine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineStats {
    /// Distinct symbolic expressions created (the factory's size).
    pub symbolic_values: u64,
    /// Distinct canonic states stored.
    pub canonic_states: u64,
    /// Checks and prover counters.
    pub oracle: OracleStats,
    /// Queries that went to the built-in prover.
    pub prover_calls: u64,
    /// Queries sent to SMT solvers.
    pub smt_calls: u64,
}

/// The execution engine for one model (`tass verify`; compare mode uses two).
///
/// It owns the model, the expression factory, the [`Oracle`] (prover) and the
/// store of the parts of canonic states (each process state, frame, heap once). `tass-verify` drives it: [`Engine::initial_state`],
/// then repeatedly [`Engine::enabled`] and [`Engine::execute`], saving states
/// after [`Engine::canonicalize`].
pub struct Engine {
    model: Arc<Model>,
    factory: Arc<ExprFactory>,
    oracle: Oracle,
    config: EngineConfig,
    layout: Layout,
    /// States canonicalized so far (the statistics' `canonic_states`).
    canonicalized: usize,
    /// The parts of the stored states, each kept once.
    parts: PartStore,
    simplifiers: tass_simplify::api::SimplifierCache,
    record_changes: bool,
    /// Path condition -> its simplified form (`None`: contradictory).
    simplified_pcs: hashbrown::HashMap<Expr, Option<Expr>>,
    /// Canonical forms of process states met before (see [`ProcMemo`]).
    proc_memo: ProcMemo,
    /// The numbers of the parts of saved states' keys ([`Engine::state_key`]).
    key_numbers: crate::key::KeyNumbers,
    /// The model has collective assertions: steps are counted for their reports.
    collective: bool,
    /// Several processes and loop invariants: the processes are aligned at
    /// the loop heads (`crate::loop_sync`).
    aligned_loops: bool,
    /// Loop invariants over several processes with lagged loop records
    /// (`crate::loop_lag`) instead of aligned ones: set for a second run
    /// when the aligned form got stuck.
    lagged_loops: bool,
    /// Lagged loop records: the most incomplete records a path may have
    /// (`--max-lag`); `None`: `crate::loop_lag`'s default.
    max_lag: Option<usize>,
    /// The aligned form got stuck with a process waiting at a loop head (a
    /// run with lagged records may succeed where it refused).
    aligned_stuck: bool,
    /// The model locks windows (`MPI_Win_lock(_all)`): while a window exists,
    /// its members' steps are not local (`mpi::rma::passive`).
    locks_windows: bool,
    /// Whether joint assertions take snapshots (`tass compare`).
    joint: crate::snapshot::JointSnapshots,
    /// `tass compare`, implementation: the specification's paths, for the
    /// joint assertions.
    spec_paths: Vec<(Expr, Vec<crate::snapshot::JointPoint>)>,
    /// `tass compare`: which program this engine runs.
    joint_side: crate::snapshot::JointSide,
    /// `tass compare`, the specification's side: the paths cut at the return
    /// to a joint invariant loop's head (their condition there and joint
    /// points), which the implementation's iterations are checked against.
    cut_joint_paths: Vec<(Expr, Vec<crate::snapshot::JointPoint>)>,
    /// Where each input may still be read (`--match set|subsume`), built on
    /// first use.
    input_liveness: Option<Arc<matching::InputLiveness>>,
}

impl std::fmt::Debug for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Engine({}, {} processes)",
            self.model.name, self.config.nprocs
        )
    }
}

impl Engine {
    /// An engine for `model`. `prover` is anything convertible into an [`Oracle`],
    /// notably a `Box<dyn tass_prove::api::Prover>` made with the same `factory`.
    pub fn new(
        model: Arc<Model>,
        factory: Arc<ExprFactory>,
        prover: impl Into<Oracle>,
        config: EngineConfig,
    ) -> Result<Engine, EngineError> {
        if config.nprocs == 0 {
            return Err(EngineError::invalid(
                "the number of processes must be at least 1",
                None,
            ));
        }
        let model = match config.program_args {
            Some(_) if !model.main_arguments.is_empty() => {
                Arc::new(program_args::without_default_arguments(&model))
            }
            _ => model,
        };
        if model.function(model.main).body.is_none() {
            return Err(EngineError::invalid(
                format!(
                    "the main function `{}` has no body",
                    model.function(model.main).name
                ),
                None,
            ));
        }
        for (name, _) in &config.fixed_inputs {
            let known = model.inputs.iter().any(|&v| model.var(v).name == *name);
            if !known {
                let names: Vec<&str> = model
                    .inputs
                    .iter()
                    .map(|&v| model.var(v).name.as_str())
                    .collect();
                return Err(EngineError::invalid(
                    format!(
                        "-i {name}=...: the program has no input named `{name}` (its inputs: {})",
                        if names.is_empty() {
                            "none".to_string()
                        } else {
                            names.join(", ")
                        }
                    ),
                    None,
                ));
            }
        }
        let layout = Layout::new(&model);
        let aligned_loops = crate::loop_sync::aligns_loops(&model, config.nprocs);
        let simplifiers = tass_simplify::api::SimplifierCache::new(Arc::clone(&factory));
        let mut oracle: Oracle = prover.into();
        oracle.set_signed_overflow(config.signed_overflow);
        oracle.set_arith(config.arith);
        Ok(Engine {
            factory,
            oracle,
            config,
            layout,
            canonicalized: 0,
            parts: PartStore::default(),
            simplifiers,
            record_changes: true,
            simplified_pcs: hashbrown::HashMap::new(),
            proc_memo: ProcMemo::default(),
            key_numbers: crate::key::KeyNumbers::default(),
            collective: crate::snapshot::model_has_collective(&model) || aligned_loops,
            aligned_loops,
            lagged_loops: false,
            max_lag: None,
            aligned_stuck: false,
            locks_windows: crate::mpi::model_locks_windows(&model),
            joint: Default::default(),
            spec_paths: Vec::new(),
            joint_side: Default::default(),
            cut_joint_paths: Vec::new(),
            input_liveness: None,
            model,
        })
    }

    /// The model.
    pub fn model(&self) -> &Arc<Model> {
        &self.model
    }

    /// The expression factory.
    pub fn factory(&self) -> &Arc<ExprFactory> {
        &self.factory
    }

    /// The configuration.
    pub fn config(&self) -> &EngineConfig {
        &self.config
    }

    /// The steps enabled in `state`: for each running process, each outgoing
    /// transition of its current location whose guard is not provably false under
    /// the path condition (the paper's `nsat` pruning). On a symbolic branch both
    /// sides are enabled; each conjoins its guard when executed. A state whose
    /// path condition is `false` has no enabled steps.
    pub fn enabled(&mut self, state: &State) -> Result<Vec<Step>, EngineError> {
        guarded(
            || "computing the enabled steps".into(),
            || self.enabled_inner(state),
        )
    }

    /// The enabled steps of process `p` alone (see [`Engine::enabled`]).
    pub fn enabled_of(&mut self, state: &State, p: usize) -> Result<Vec<Step>, EngineError> {
        guarded(
            || "computing the enabled steps".into(),
            || {
                let mut steps = Vec::new();
                if self.factory.as_bool(state.inner.pc) == Some(false)
                    || p >= state.inner.procs.len()
                {
                    return Ok(steps);
                }
                let mut scratch = state.clone();
                self.push_enabled_of(&mut scratch, p, &mut steps)?;
                Ok(steps)
            },
        )
    }

    fn enabled_inner(&mut self, state: &State) -> Result<Vec<Step>, EngineError> {
        if self.factory.as_bool(state.inner.pc) == Some(false) {
            return Ok(Vec::new());
        }
        let mut steps = Vec::new();
        let mut scratch = state.clone();
        for p in 0..state.inner.procs.len() {
            self.push_enabled_of(&mut scratch, p, &mut steps)?;
        }
        Ok(steps)
    }

    /// Appends the enabled steps of process `p` in `scratch` (a copy of the
    /// state that evaluating guards may touch) to `steps`.
    fn push_enabled_of(
        &mut self,
        scratch: &mut State,
        p: usize,
        steps: &mut Vec<Step>,
    ) -> Result<(), EngineError> {
        let f = Arc::clone(&self.factory);
        let model = Arc::clone(&self.model);
        let pc = scratch.inner.pc;
        let ps = &scratch.inner.procs[p];
        if ps.status != Status::Running || crate::loop_sync::is_waiting(scratch, p) {
            return Ok(());
        }
        let Some(frame) = ps.stack.last() else {
            return Ok(());
        };
        let function = frame.function;
        let location = frame.location;
        let Some(body) = model.function(function).body.as_ref() else {
            return Ok(());
        };
        let first_step = steps.len();
        // MPI progress: posted receives that can take a message now.
        crate::mpi::push_progress_steps(scratch, &f, p, steps);
        let mut decided: Vec<(Expr, bool, bool)> = Vec::new();
        for (tid, t, _) in body.outgoing(location) {
            let env = crate::mpi::Ctx {
                model: &model,
                f: &f,
                layout: &self.layout,
            }
            .env(scratch, p);
            let g = evaluate_guard(&model, &f, &mut self.oracle, &env, tid)?;
            // The guards of a branch are complementary: the answer for `!g` is
            // read off the one for `g` (halves the prover queries at branches).
            let mirrored = decided
                .iter()
                .find(|(h, _, _)| f.not(*h) == g)
                .map(|&(_, en, kn)| (!kn, !en));
            let (enabled, known) = match (f.as_bool(g), mirrored) {
                (Some(b), _) => (b, b),
                (None, Some(answer)) => answer,
                (None, None) => match self.oracle.holds(&f, pc, g) {
                    true => (true, true),
                    false => (!self.oracle.branch_infeasible(&f, f.and(pc, g)), false),
                },
            };
            decided.push((g, enabled, known));
            if enabled && self.aligned_loops && !self.lagged_loops {
                let checked = crate::loop_sync::reject_schedule_dependence(
                    &crate::mpi::Ctx {
                        model: &model,
                        f: &f,
                        layout: &self.layout,
                    },
                    &mut self.oracle,
                    scratch,
                    p,
                    t,
                );
                if checked.is_err() {
                    // lagged loop records need no schedule restriction
                    self.aligned_stuck = true;
                }
                checked?;
            }
            if enabled {
                // A member of a window in a program that locks windows is not
                // local: its accesses race with other processes' operations.
                let mpi_call = matches!(&t.statement, Statement::Call { callee: Callee::Library(l), .. } if l.is_mpi());
                let exposed = self.locks_windows && crate::mpi::exposed_to_locks(scratch, p);
                let local = !mpi_call && !exposed;
                let step = Step {
                    process: p,
                    function,
                    transition: tid,
                    guard: g,
                    guard_known_true: known,
                    local,
                    choice: None,
                    commutes: false,
                    buffered_send: false,
                    request: None,
                    settled: false,
                    delivered_to: None,
                };
                if local {
                    steps.push(step);
                } else {
                    self.mpi().push_steps(scratch, step, steps)?;
                }
            }
        }
        let statement_enabled = steps[first_step..].iter().any(|s| s.request.is_none());
        let settled = crate::mpi::settled(&model, &f, scratch, p, statement_enabled);
        for step in &mut steps[first_step..] {
            step.settled = settled
                || statement_enabled && self.mpi().post_commutes_with_receives(scratch, step);
        }
        Ok(())
    }

    /// A synchronous transition: the send `step` of process `p`, then at once
    /// the receive of `receiver` that takes its message (`Step::delivered_to`).
    fn execute_synchronous(
        &mut self,
        state: State,
        step: &Step,
        receiver: usize,
    ) -> Result<StepOutcome, EngineError> {
        let send = Step {
            delivered_to: None,
            ..step.clone()
        };
        let mut sent = self.execute_inner(state, &send)?;
        let mut candidates = Vec::new();
        let mut scratch = sent.state.clone();
        self.push_enabled_of(&mut scratch, receiver, &mut candidates)?;
        let Some(receive) = candidates
            .into_iter()
            .find(|s| s.request.is_none() && s.choice == Some(step.process as u32))
        else {
            return Err(EngineError::invalid(
                format!(
                    "internal: process {receiver} does not take the message of process {} \
                     at once (synchronous transition)",
                    step.process
                ),
                None,
            ));
        };
        let received = self.execute_inner(sent.state, &receive)?;
        sent.violations.extend(received.violations);
        sent.changes.extend(received.changes);
        Ok(StepOutcome {
            state: received.state,
            violations: sent.violations,
            changes: sent.changes,
            mpi_calls: Vec::new(),
        })
    }

    /// Executes `step` in `state` (taken by value: a uniquely held state is
    /// changed in place). Checks made by the step are in the outcome's violations;
    /// after each failed check the path continues assuming the check's claim.
    pub fn execute(&mut self, state: State, step: &Step) -> Result<StepOutcome, EngineError> {
        let model = Arc::clone(&self.model);
        let describe = move || {
            let func = model.function(step.function);
            match func.body.as_ref() {
                Some(b) => format!(
                    "executing the statement at {}",
                    b.transition(step.transition).span
                ),
                None => format!("executing a step of `{}`", func.name),
            }
        };
        let state = if self.collective {
            crate::snapshot::count_step(state)
        } else {
            state
        };
        // Traces say which MPI call (and phase) each step is.
        let sites = self.record_changes.then(|| {
            let poll = self.mpi().poll_outcome(&state, step);
            crate::call_marks::CallSites::before(&state, poll)
        });
        let mut outcome = guarded(describe, || self.execute_inner(state, step))?;
        if let Some(sites) = sites {
            outcome.mpi_calls = sites.marks(&self.model, step, &outcome.state);
        }
        Ok(outcome)
    }

    fn execute_inner(&mut self, state: State, step: &Step) -> Result<StepOutcome, EngineError> {
        if let Some(receiver) = step.delivered_to {
            return self.execute_synchronous(state, step, receiver);
        }
        let f = Arc::clone(&self.factory);
        let model = Arc::clone(&self.model);
        let mut state = state;
        let result = {
            let running = state
                .inner
                .procs
                .get(step.process)
                .is_some_and(|p| p.status == Status::Running && !p.stack.is_empty());
            if !running {
                return Err(EngineError::invalid(
                    format!("step of process {} which is not running", step.process),
                    None,
                ));
            }
            // Window memory the step touches while RMA operations are pending
            // (checked on the state before the step).
            let mut window_conflicts = if state.inner.windows.is_empty()
                || step.request.is_some()
                || step.delivered_to.is_some()
            {
                Vec::new()
            } else {
                self.mpi().local_window_accesses(&mut state, step)?
            };
            // And memory a pending receive owns (`mpi/receive_buffer.rs`).
            window_conflicts.extend(self.mpi().pending_receive_accesses(&mut state, step)?);
            if !step.local {
                if let Some(r) = self.mpi().execute(&mut state, step) {
                    let (mut violations, changes) = r?;
                    violations.splice(0..0, window_conflicts);
                    return Ok(StepOutcome {
                        state,
                        violations,
                        changes,
                        mpi_calls: Vec::new(),
                    });
                }
            }
            let mut env = crate::mpi::Ctx {
                model: &model,
                f: &f,
                layout: &self.layout,
            }
            .env(&mut state, step.process);
            if env.location().0 != step.function {
                return Err(EngineError::invalid(
                    "step does not belong to this state",
                    None,
                ));
            }
            if let Some(body) = model.function(step.function).body.as_ref() {
                if matches!(
                    body.transition(step.transition).statement,
                    Statement::LoopInvariant(_)
                ) {
                    self.oracle.count_loop_arrival();
                }
            }
            let mut result = execute_transition(
                &model,
                &f,
                &mut self.oracle,
                &mut env,
                TransitionRun {
                    transition: step.transition,
                    // Lagged loop records drop conjuncts of the path
                    // condition later: a guard it implies now must be kept
                    // as a conjunct of its own (the paper's ppc gets it too).
                    guard_known_true: step.guard_known_true && !self.lagged_loops,
                    record_changes: self.record_changes,
                },
            )?;
            // RMA conflicts come first: they are about the state before the step.
            result.violations.splice(0..0, window_conflicts);
            result
        };
        let mut violations = result.violations;
        if self.collective {
            let aligned_loops = self.aligned_loops;
            let lagged_loops = self.lagged_loops;
            let (ctx, oracle) = self.snapshots();
            let mut after = crate::snapshot::AfterStep {
                ctx: &ctx,
                oracle,
                state: &mut state,
                process: step.process,
                at: (step.function, step.transition),
            };
            violations.extend(after.check_assertions()?);
            if lagged_loops {
                violations.extend(after.record_lagged_arrival()?);
            } else if aligned_loops {
                let found = match after.record_aligned_arrival() {
                    Ok(found) => found,
                    Err(refusal) => {
                        // e.g. a message crossing the head: lagged records
                        // may decide what the aligned form refuses
                        self.aligned_stuck = true;
                        return Err(refusal);
                    }
                };
                violations.extend(found);
                if let Some(cut) = crate::loop_joint::cut_path(&ctx, &state) {
                    if !self.cut_joint_paths.contains(&cut) {
                        self.cut_joint_paths.push(cut);
                    }
                }
            }
        }
        Ok(StepOutcome {
            state,
            violations,
            changes: result.changes,
            mpi_calls: Vec::new(),
        })
    }

    /// Whether [`StepOutcome::changes`] is filled (default on). Pretty-printing
    /// every assigned value costs time: a search can turn it off and turn it on
    /// again to replay a counterexample path for its trace.
    pub fn set_record_changes(&mut self, on: bool) {
        self.record_changes = on;
    }

    /// Source information about a step, for traces.
    pub fn step_info(&self, step: &Step) -> StepInfo {
        let func = self.model.function(step.function);
        match func.body.as_ref() {
            Some(b) => {
                let t = b.transition(step.transition);
                // A progress step shows the MPI_Irecv it completes.
                let source_text = match (step.request, step.choice, step.delivered_to) {
                    (Some(_), Some(from), _) => format!(
                        "{}   (the posted receive takes the message from process {from})",
                        t.source_text
                    ),
                    (_, _, Some(d)) => format!(
                        "{}   (process {d}'s waiting receive takes the message at once)",
                        t.source_text
                    ),
                    // A wildcard MPI_Recv that takes a message already
                    // sent: which sender (a replay forces the same one).
                    (None, Some(from), None)
                        if from < crate::mpi::ENVELOPE_CASE
                            && matches!(
                                &t.statement,
                                Statement::Call {
                                    callee: Callee::Library(
                                        tass_model::api::LibraryFunction::MpiRecv
                                    ),
                                    ..
                                }
                            )
                            && t.source_text.contains("MPI_ANY_SOURCE") =>
                    {
                        format!(
                            "{}   (takes the message from process {from})",
                            t.source_text
                        )
                    }
                    (None, Some(crate::mpi::ENVELOPE_CASE), _) => format!(
                        "{}   (for {}: its rank and tag depend on the inputs)",
                        t.source_text,
                        self.factory.pretty(step.guard)
                    ),
                    _ => t.source_text.clone(),
                };
                StepInfo {
                    span: t.span.clone(),
                    source_text,
                    function: func.name.clone(),
                }
            }
            None => StepInfo {
                span: func.span.clone(),
                source_text: String::new(),
                function: func.name.clone(),
            },
        }
    }

    /// True when every process has terminated.
    pub fn is_terminated(&self, state: &State) -> bool {
        state
            .inner
            .procs
            .iter()
            .all(|p| p.status != Status::Running)
    }

    /// True if the path condition of `state` is unsatisfiable (as far as the
    /// prover can tell): such a state stands for no execution.
    pub fn is_vacuous(&mut self, state: &State) -> bool {
        let f = Arc::clone(&self.factory);
        self.oracle.is_unsat(&f, state.inner.pc)
    }

    /// What each process is doing.
    pub fn process_status(&self, state: &State) -> Vec<ProcessStatus> {
        state
            .inner
            .procs
            .iter()
            .map(|p| match (&p.status, p.stack.last()) {
                (Status::Running, Some(fr)) => {
                    let func = self.model.function(fr.function);
                    let span = func
                        .body
                        .as_ref()
                        .map(|b| b.location(fr.location).span.clone())
                        .unwrap_or_else(|| func.span.clone());
                    ProcessStatus::Running {
                        function: func.name.clone(),
                        location: fr.location,
                        span,
                        depth: p.stack.len(),
                    }
                }
                (Status::Terminated { exit_code, .. }, _) => ProcessStatus::Terminated {
                    exit_code: *exit_code,
                },
                (Status::Running, None) => ProcessStatus::Terminated { exit_code: None },
            })
            .collect()
    }

    /// Checks made at a final state: heap objects still allocated are memory
    /// leaks (later: unreceived messages, `MPI_Finalize`). Nothing is reported on a
    /// vacuous path.
    pub fn check_termination(&mut self, state: &State) -> Vec<Violation> {
        let f = Arc::clone(&self.factory);
        let mut out = Vec::new();
        for (p, ps) in state.inner.procs.iter().enumerate() {
            let live: Vec<&HeapObject> = ps
                .heap
                .iter()
                .enumerate()
                .filter(|&(k, o)| o.is_live() && !ps.program_args.contains(&(k as u32)))
                .map(|(_, o)| o)
                .collect();
            if live.is_empty() {
                continue;
            }
            let span = match &ps.status {
                Status::Terminated {
                    at: Some((func, loc)),
                    ..
                } => self
                    .model
                    .function(*func)
                    .body
                    .as_ref()
                    .map(|b| b.location(*loc).span.clone())
                    .unwrap_or_else(|| self.model.function(*func).span.clone()),
                _ => self.model.function(self.model.main).span.clone(),
            };
            let (certainty, witness) = match self.oracle.valid(&f, state.inner.pc, f.ff()) {
                Decision::Holds => continue,
                Decision::Fails { witness } if !leans_on_loop_values(&f, &[state.inner.pc]) => {
                    (Certainty::Provable, witness)
                }
                Decision::Fails { witness } => (Certainty::Possible, witness),
                Decision::Unknown => (Certainty::Possible, None),
            };
            let sizes: Vec<String> = live
                .iter()
                .filter_map(|o| match o {
                    HeapObject::Live { extent, .. } => Some(f.pretty(*extent)),
                    HeapObject::Freed => None,
                })
                .collect();
            out.push(Violation {
                property: Property::MemoryLeak,
                certainty,
                message: format!(
                    "{} heap block(s) not freed when the process terminates (sizes in elements: {})",
                    live.len(),
                    sizes.join(", ")
                ),
                span,
                process: p,
                witness,
                claim: "every allocated block is freed".into(),
                snapshots: None,
            });
        }
        out.extend(self.mpi().termination_checks(state));
        let (ctx, oracle) = self.snapshots();
        out.extend(crate::snapshot::leftover(&ctx, oracle, state));
        out.extend(crate::loop_joint::unpaired_iterations(&ctx, oracle, state));
        out
    }

    /// What the snapshot code reads of this engine, and its prover.
    fn snapshots(&mut self) -> (crate::snapshot::SnapshotCtx<'_>, &mut Oracle) {
        let oracle = &mut self.oracle;
        let ctx = snapshot_ctx!(self);
        (ctx, oracle)
    }

    /// The MPI semantics over this engine's model, asking its prover.
    fn mpi(&mut self) -> crate::mpi::Mpi<'_> {
        let ctx = crate::mpi::Ctx {
            model: &self.model,
            f: &self.factory,
            layout: &self.layout,
        };
        ctx.mpi(&mut self.oracle)
    }

    /// MPI: true if `state` (whose enabled steps are `steps`) is a potential
    /// deadlock: some process has not terminated, and none could move if no
    /// pending standard send were buffered (zero-buffer MPI).
    pub fn potential_deadlock(
        &mut self,
        state: &State,
        steps: &[Step],
    ) -> Result<bool, EngineError> {
        self.mpi().potentially_deadlocked(state, steps)
    }

    /// Collective loop invariants: when no process can move in `state` (or
    /// none could without buffering) while some wait at an invariant loop's
    /// head for the others, why the run is refused (aligning the processes'
    /// iterations left out runs the program has: see `loop_sync.rs`).
    /// `Some(Ok(violation))` when a process has ended without arriving.
    pub fn stuck_at_loop(&mut self, state: &State) -> Option<Result<Violation, EngineError>> {
        let mut scratch = state.clone();
        let ctx = crate::mpi::Ctx {
            model: &self.model,
            f: &self.factory,
            layout: &self.layout,
        };
        if self.lagged_loops {
            return crate::loop_lag::stuck_outcome(ctx, &mut self.oracle, &mut scratch).map(Ok);
        }
        let outcome = crate::loop_sync::stuck_outcome(ctx, &mut self.oracle, &mut scratch);
        if matches!(outcome, Some(Err(_))) {
            self.aligned_stuck = true;
        }
        outcome
    }

    /// Collective loop invariants over several processes: use lagged loop
    /// records (`crate::loop_lag`: processes may be iterations apart) instead
    /// of aligning the processes at the heads. For a fresh engine only.
    /// Returns false (and changes nothing) when the model has no collective
    /// loop invariant over several processes or only joint ones.
    pub fn set_lagged_loops(&mut self) -> bool {
        self.lagged_loops = self.aligned_loops && self.config.nprocs > 1 && !self.has_joint_loops();
        self.lagged_loops
    }

    /// True when this engine runs collective loop invariants with lagged
    /// loop records (after [`Engine::set_lagged_loops`] said so).
    pub fn lagged_loops(&self) -> bool {
        self.lagged_loops
    }

    /// Lagged loop records: follow at most `records` incomplete records on
    /// a path (the most loop arrivals one process may be ahead of another)
    /// instead of the default `max(8, 2n + 4)` (`--max-lag`).
    pub fn set_max_lag(&mut self, records: Option<usize>) {
        self.max_lag = records;
    }

    /// True if the processes are aligned at invariant loop heads.
    pub fn aligns_loops(&self) -> bool {
        self.aligned_loops
    }

    fn has_joint_loops(&self) -> bool {
        self.model.functions.iter().any(|f| {
            f.body.as_ref().is_some_and(|b| {
                b.graph.edge_weights().any(|t| {
                    matches!(&t.statement, Statement::LoopInvariant(inv)
                        if inv.kind == tass_model::api::CollectiveKind::Joint)
                })
            })
        })
    }

    /// True if the aligned form refused a stuck state with a process waiting
    /// at a loop head in this engine's run: lagged records may decide it.
    pub fn aligned_loops_stuck(&self) -> bool {
        self.aligned_stuck
    }

    /// MPI: for an enabled `MPI_Send`/`MPI_Rsend` step, the process whose
    /// blocking `MPI_Recv` waits for its message with nothing else to take and
    /// no posted receive that could take the message first: the two can run as
    /// one synchronous transition (`Step::delivered_to`).
    pub fn waiting_receiver(
        &mut self,
        state: &State,
        step: &Step,
    ) -> Result<Option<usize>, EngineError> {
        self.mpi().waiting_receiver(state, step)
    }

    /// MPI: the world rank an enabled send step (or send half) goes to
    /// (`Rank::Process`), or `Rank::ProcNull`, when the path condition and the
    /// step's guard fix it (`None` otherwise, or for a step that does not send).
    pub fn send_destination(
        &mut self,
        state: &State,
        step: &Step,
    ) -> Result<Option<Rank>, EngineError> {
        self.mpi().send_destination(state, step)
    }

    /// The condition of the `assume` statement `step` executes, as its process
    /// sees it in `state` (evaluated without checks: executing the step makes
    /// them); `None` when `step` is not an `assume` or the condition cannot be
    /// read that way. For the partial-order reduction, which explores alone an
    /// assumption the path condition already implies.
    pub fn assumed_condition(&mut self, state: &State, step: &Step) -> Option<Expr> {
        let model = Arc::clone(&self.model);
        let body = model.function(step.function).body.as_ref()?;
        let Statement::Assume { condition } = &body.transition(step.transition).statement else {
            return None;
        };
        let f = Arc::clone(&self.factory);
        let mut scratch = state.clone();
        let ctx = crate::mpi::Ctx {
            model: &model,
            f: &f,
            layout: &self.layout,
        };
        let env = ctx.env(&mut scratch, step.process);
        let mut ev =
            tass_semantics::api::Evaluator::without_checks(&f, &mut self.oracle, step.process);
        ev.eval_bool(&env, condition).ok()
    }

    /// MPI: true if process `p` has posted receives (`MPI_Irecv`) not matched
    /// yet.
    pub fn pending_receives(&self, state: &State, p: usize) -> bool {
        crate::mpi::pending_receives(state, p)
    }

    /// MPI: what `step` finds if it is a poll (`MPI_Test`, `MPI_Testall`,
    /// `MPI_Iprobe`); `None` for any other step. For the livelock check.
    pub fn poll_outcome(&mut self, state: &State, step: &Step) -> Option<PollOutcome> {
        self.mpi().poll_outcome(state, step)
    }

    /// MPI: the step of the test `step` that finds nothing (the flag comes
    /// back 0), as zero-buffer MPI runs a test of an `MPI_Isend` nobody has
    /// received.
    pub fn failed_poll(&self, step: &Step) -> Step {
        crate::mpi::failed_poll(step)
    }

    /// MPI: the MPI call each blocked process waits in, as `(rank, description)`.
    pub fn blocked_calls(&self, state: &State) -> Vec<(usize, String)> {
        crate::mpi::blocked_calls(&self.model, state)
    }

    /// The canonical representative of `state`: the path condition simplified
    /// and every expression in the state simplified under it (an equivalent
    /// state, paper Sec. 4.5), heap objects renumbered in order of first reach
    /// from the roots (freed, unreferenced ones dropped), and its parts
    /// (processes, frames, heaps, variables, messages) replaced by equal ones
    /// met before, so equal states are equal object by object and "seen
    /// before?" is one hash lookup in the search's set of saved states.
    ///
    /// The whole state is not kept here: the search keeps the states it saves
    /// (one table of saved states); a state canonicalized only on its way
    /// (after a branch, `crate::api::Engine::execute`'s callers) is freed with
    /// its path.
    pub fn canonicalize(&mut self, state: State) -> State {
        self.canonicalized += 1;
        let state = crate::loop_lag::canonic_names(&self.factory, state);
        if crate::loop_lag::has_relations(&state) {
            // The relations of incomplete records must stay conjuncts of the
            // path condition as they are (they are dropped one by one), and
            // simplifying under them would put the old values back.
            return canonical_heaps(&self.factory, state).seal();
        }
        let heapless = state.inner.procs.iter().all(|p| p.heap.is_empty());
        if heapless {
            // Shares the parts itself (the processes' from a memo).
            canonical_heapless(
                &self.factory,
                &self.simplifiers,
                &mut self.simplified_pcs,
                &mut self.parts,
                &mut self.proc_memo,
                state,
            )
        } else {
            let state = simplify_state(
                &self.factory,
                &self.simplifiers,
                &mut self.simplified_pcs,
                state,
            );
            self.parts
                .share(canonical_heaps(&self.factory, state).seal())
        }
    }

    /// The compact key of a canonical state (from [`Engine::canonicalize`],
    /// or a permutation of one): equal keys of this engine mean equal
    /// states. What a search keeps of the states it saved.
    pub fn state_key(&mut self, canonical: &State) -> crate::key::StateKey {
        self.key_numbers.key(&mut self.parts, canonical)
    }

    /// Number of states canonicalized so far (each time counted).
    pub fn stored_states(&self) -> usize {
        self.canonicalized
    }

    /// The program's outputs and their values (for compare and reports): the
    /// copies of process [`OUTPUT_PROCESS`]. Every process has its own copy of
    /// each output, as of every global of a real MPI program.
    pub fn outputs(&self, state: &State) -> Vec<(String, Value)> {
        let base = self.model.globals.len();
        let globals = &state.inner.procs[OUTPUT_PROCESS].globals;
        self.model
            .outputs
            .iter()
            .enumerate()
            .map(|(k, &v)| (self.model.var(v).name.clone(), globals[base + k].clone()))
            .collect()
    }

    /// Shared inputs and their values (symbolic constants, or fixed values).
    pub fn inputs(&self, state: &State) -> Vec<(String, Value)> {
        self.model
            .inputs
            .iter()
            .enumerate()
            .map(|(k, &v)| {
                (
                    self.model.var(v).name.clone(),
                    state.inner.shared[k].clone(),
                )
            })
            .collect()
    }

    /// The path condition.
    pub fn path_condition(&self, state: &State) -> Expr {
        state.inner.pc
    }

    /// `e` pretty-printed (C-like, symbolic constants by their input names).
    pub fn pretty(&self, e: Expr) -> String {
        self.factory.pretty(e)
    }

    /// A value pretty-printed.
    pub fn pretty_value(&self, v: &Value) -> String {
        tass_semantics::api::show_value(&self.factory, v)
    }

    /// The value of variable `name` as process `process` sees it in its top frame
    /// (locals of the top frame, then its globals and outputs, then the inputs).
    pub fn variable(&self, state: &State, process: usize, name: &str) -> Option<Value> {
        let mut scratch = state.clone();
        let ps = state.inner.procs.get(process)?;
        let env = crate::mpi::Ctx {
            model: &self.model,
            f: &self.factory,
            layout: &self.layout,
        }
        .env(&mut scratch, process);
        let candidates = self.model.variables.iter().filter(|v| v.name == name);
        let mut best: Option<(u8, Value)> = None;
        for v in candidates {
            let rank = match v.scope {
                VarScope::Local(fid) if ps.stack.last().map(|f| f.function) == Some(fid) => 0,
                VarScope::ProcessGlobal | VarScope::Output => 1,
                VarScope::Input => 2,
                _ => continue,
            };
            if let Some(val) = env.get(env.root_of(v.id)) {
                if best.as_ref().is_none_or(|(r, _)| rank < *r) {
                    best = Some((rank, val.clone()));
                }
            }
        }
        best.map(|(_, v)| v)
    }

    /// `tass compare`: joint assertions take snapshots from now on (for
    /// [`Engine::joint_points`] and [`Engine::check_joint`]).
    pub fn record_joint_snapshots(&mut self) {
        self.joint = crate::snapshot::JointSnapshots::Recorded;
    }

    /// `tass compare`, the implementation's side: the specification's paths
    /// (path condition, joint snapshots), against which each occurrence of
    /// the joint assertions is checked as soon as every process reaches it.
    pub fn set_spec_joint_paths(&mut self, paths: Vec<(Expr, Vec<crate::snapshot::JointPoint>)>) {
        self.spec_paths = paths;
        self.joint_side = crate::snapshot::JointSide::Implementation;
    }

    /// `tass compare`, the specification's side: the paths its search cut at
    /// the return to a joint invariant loop's head (the path condition there,
    /// the joint points), for [`Engine::set_spec_joint_paths`] of the
    /// implementation.
    pub fn cut_joint_paths(&self) -> &[(Expr, Vec<crate::snapshot::JointPoint>)] {
        &self.cut_joint_paths
    }

    /// The path condition of the specification's path number `index` (as
    /// given to [`Engine::set_spec_joint_paths`]).
    pub fn spec_joint_condition(&self, index: usize) -> Option<Expr> {
        self.spec_paths.get(index).map(|(pc, _)| *pc)
    }

    /// `tass compare`, the specification's side: the joint snapshots of
    /// process 0 along the path to the final `state`.
    pub fn joint_points(&self, state: &State) -> Vec<crate::snapshot::JointPoint> {
        let ctx = snapshot_ctx!(self);
        crate::snapshot::joint_points(&ctx, state)
    }

    /// `tass compare`, the implementation's side: the first violation of its
    /// joint assertions on the path to the final `state` against the
    /// specification's joint snapshots `spec`, under `pc`.
    pub fn check_joint(
        &mut self,
        state: &State,
        spec: &[crate::snapshot::JointPoint],
        pc: Expr,
    ) -> Result<Option<Violation>, EngineError> {
        let (ctx, oracle) = self.snapshots();
        crate::snapshot::check_joint(&ctx, oracle, state, spec, pc)
    }

    /// Counters so far.
    pub fn stats(&self) -> EngineStats {
        let oracle = self.oracle.stats();
        EngineStats {
            symbolic_values: self.factory.len() as u64,
            canonic_states: self.canonicalized as u64,
            prover_calls: oracle.prover.builtin_calls,
            smt_calls: oracle.prover.smt_calls(),
            oracle,
        }
    }
}
