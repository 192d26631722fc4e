//! The [`Engine`] trait over the real execution engine (`tass-state`), and the
//! entry points `verify` / `compare`. The jobs around it live in `real/`:
//! `prover.rs` (the shared prover), `inputs.rs` (`-i` values), `witness.rs`
//! (printing witnesses), `por.rs` (the urgent partial-order reduction, over the
//! MPI calls of `mpi_calls.rs`), `livelock.rs` (polling loops), `deadlock.rs`
//! (stuck states), `pairing.rs` (compare's pairing of paths) and `outputs.rs`
//! (printing and comparing outputs).

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use tass_model::api::{LibraryFunction, LocationId, Model};
use tass_prove::api::{Prover, ProverChoice};
use tass_simplify::api::SimplifierCache;
use tass_state::api::{EngineConfig, EngineError, ProcessStatus, State, Step, Value, Violation};
use tass_symbolic::api::{Expr, ExprFactory};

use crate::engine::{
    DataRelation, Engine, Executed, OutputMismatch, OutputPair, StepInfo, Uncovered,
};
use crate::error::SetupError;
use crate::options::{DeadlockMode, Options, Reduction, UrgentChoice};
use crate::por::PorTables;
use crate::report::Report;
use crate::signature::check_signatures;
use crate::system::{saving_locations, verify_with};

use inputs::fixed_inputs;
use mpi_calls::mpi_call;
use pairing::{ClauseSets, PairingFacts};
use prover::{make_prover, SharedProver};
use witness::witness_values;

mod deadlock;
mod inputs;
mod lag_order;
mod lagged;
mod livelock;
mod matching;
mod mpi_calls;
mod outputs;
mod pairing;
mod parallel;
mod parallel_compare;
mod permute;
mod por;
mod prover;
mod witness;

/// The real engine with what the verifier adds: the prover handle, the
/// state-saving locations, the deadlock mode.
pub(crate) struct RealEngine {
    engine: tass_state::api::Engine,
    model: Arc<Model>,
    factory: Arc<ExprFactory>,
    prover: Arc<dyn Prover>,
    /// Per function name: the locations at which a state is saved.
    save_at: HashMap<String, HashSet<LocationId>>,
    /// What the partial-order reduction knows about the model's transitions.
    por: PorTables,
    builtin_only: bool,
    deadlock: DeadlockMode,
    /// `Off`: [`Engine::reduce`] and [`Engine::steps_alone`] prune nothing.
    reduction: Reduction,
    /// Which process [`Engine::reduce`] prefers (`--cqmin`).
    urgent_choice: UrgentChoice,
    /// Simplifiers per assumption (output comparison, printing).
    simplifiers: SimplifierCache,
    /// The path condition of the initial state: the inputs' types and
    /// declared constraints (what a printed path condition leaves out).
    input_bounds: Option<Expr>,
    /// `-i` inputs as the user gave them.
    fixed: Vec<(String, String)>,
    /// Per path condition: what compare's pairing needs ([`Self::pairing_facts`]).
    pairing: HashMap<Expr, PairingFacts>,
    /// Per path condition: its clauses and their negations ([`Self::clause_sets`]).
    clause_sets: HashMap<Expr, Arc<ClauseSets>>,
    /// What the livelock check has learnt (`real/livelock.rs`).
    livelock_memo: livelock::LivelockMemo,
    /// `compare --symmetry`, implementation: the reduction in force, and
    /// whether a representative has read a consumed element.
    symmetry: Option<(tass_state::api::InputSymmetry, bool)>,
    /// `--worker-symmetry`: the interchangeable processes, when the taint
    /// analysis admitted the model (`worker_symmetry_note`).
    workers: Option<tass_state::api::WorkerSymmetry>,
    /// What set-based matching has computed (`real/matching.rs`).
    matching: matching::MatchMemo,
}

impl RealEngine {
    /// An engine for `model` run by `nprocs` processes, with the prover and the
    /// options of `setup`.
    fn new(model: Arc<Model>, setup: &RunSetup, nprocs: usize) -> Result<RealEngine, SetupError> {
        let RunSetup {
            factory,
            prover,
            options,
        } = setup;
        let arith = options.arith;
        let config = EngineConfig {
            nprocs,
            arith,
            fixed_inputs: fixed_inputs(options).map_err(SetupError::Input)?,
            signed_overflow: options.signed_overflow,
            program_args: options.program_args.as_ref().map(|args| {
                let name = std::path::Path::new(&model.name)
                    .file_stem()
                    .map(|s| s.to_string_lossy().into_owned())
                    .unwrap_or_else(|| model.name.clone());
                std::iter::once(name).chain(args.iter().cloned()).collect()
            }),
        };
        let boxed: Box<dyn Prover> = Box::new(SharedProver(Arc::clone(prover)));
        let mut engine =
            tass_state::api::Engine::new(Arc::clone(&model), Arc::clone(factory), boxed, config)
                .map_err(SetupError::Engine)?;
        // Traces are rebuilt by replaying the path (`system::replay`), which turns
        // the change log back on.
        engine.set_record_changes(false);
        let workers = worker_symmetry_note(&model, options, nprocs).0;
        Ok(RealEngine {
            engine,
            save_at: saving_locations(&model),
            por: PorTables::new(&model),
            model,
            factory: Arc::clone(factory),
            prover: Arc::clone(prover),
            builtin_only: options.prover == ProverChoice::Builtin,
            deadlock: options.deadlock,
            reduction: options.reduction,
            urgent_choice: options.urgent_choice,
            simplifiers: SimplifierCache::new(Arc::clone(factory)),
            input_bounds: None,
            fixed: options.inputs.clone(),
            pairing: HashMap::new(),
            clause_sets: HashMap::new(),
            livelock_memo: livelock::LivelockMemo::default(),
            symmetry: None,
            workers,
            matching: matching::MatchMemo::default(),
        })
    }

    fn data(&self, v: &Value) -> Option<Expr> {
        match v {
            Value::Data(e) => Some(*e),
            _ => None,
        }
    }

    /// The value of an LTL atom at `state` (`ltl/product.rs`).
    pub(crate) fn ltl_atom(
        &mut self,
        state: &State,
        atom: &tass_model::api::LtlAtom,
    ) -> Result<Expr, EngineError> {
        self.engine.ltl_atom(state, atom)
    }

    /// Every step enabled in `state`, sends buffered as MPI allows: unlike
    /// [`Engine::enabled`], no state counts as a potential deadlock (that is
    /// the safety search's finding), so the ltl search sees every run.
    pub(crate) fn ltl_enabled(&mut self, state: &State) -> Result<Vec<Step>, EngineError> {
        self.engine.enabled(state)
    }

    /// MPI's progress rule for the ltl search's fairness
    /// (`tass_search::api::LassoGraph::stalled`): per step of `steps` (all
    /// enabled at `state`), the processes for which it is a *stalled poll*
    /// (a test or probe finding nothing while one of the same call's steps
    /// finds something) and those for which it may *consume* (any MPI step
    /// but a poll finding nothing, for the process making it and the one it
    /// delivers to: an over-approximation, so no fair run is lost).
    pub(crate) fn ltl_progress_marks(&mut self, state: &State, steps: &[Step]) -> Vec<(u64, u64)> {
        use tass_state::api::PollOutcome;
        let outcomes: Vec<Option<PollOutcome>> = steps
            .iter()
            .map(|s| self.engine.poll_outcome(state, s))
            .collect();
        let bit = |p: usize| if p < 64 { 1u64 << p } else { 0 };
        steps
            .iter()
            .zip(&outcomes)
            .map(|(step, outcome)| {
                if *outcome == Some(PollOutcome::Nothing) {
                    let could_find = steps.iter().zip(&outcomes).any(|(other, o)| {
                        *o == Some(PollOutcome::Something)
                            && other.process == step.process
                            && other.function == step.function
                            && other.transition == step.transition
                    });
                    (if could_find { bit(step.process) } else { 0 }, 0)
                } else if mpi_call(&self.model, step.function, step.transition).is_some()
                    || step.delivered_to.is_some()
                {
                    (
                        0,
                        bit(step.process) | bit(step.delivered_to.unwrap_or(step.process)),
                    )
                } else {
                    (0, 0)
                }
            })
            .collect()
    }

    /// Whether `condition` holds on every execution `state` stands for.
    pub(crate) fn ltl_decide(
        &mut self,
        state: &State,
        condition: Expr,
    ) -> tass_semantics::api::Decision {
        self.engine.decide(state, condition)
    }

    /// `state` restricted to the executions where `condition` holds.
    pub(crate) fn ltl_assume(&mut self, state: &State, condition: Expr) -> State {
        self.engine.assume_condition(state, condition)
    }

    /// The model the engine runs.
    pub(crate) fn model(&self) -> Arc<Model> {
        Arc::clone(&self.model)
    }

    /// The expression factory.
    pub(crate) fn expr_factory(&self) -> Arc<ExprFactory> {
        Arc::clone(&self.factory)
    }

    /// Input values under which `state`'s path condition holds, as a report
    /// shows them; `None` when the path condition is unsatisfiable, and
    /// `Some(None)` when the prover gave no values.
    pub(crate) fn ltl_witness(&mut self, state: &State) -> Option<Option<Vec<(String, String)>>> {
        let f = Arc::clone(&self.factory);
        match self.engine.decide(state, f.bool(false)) {
            tass_semantics::api::Decision::Holds => None,
            tass_semantics::api::Decision::Fails { witness } => Some(witness.map(witness_values)),
            _ => Some(None),
        }
    }

    /// What each process of `processes` does in `state` where it stays put
    /// for a whole lasso cycle (a trace note, and what `tass replay` checks
    /// a real run against): "blocked in MPI_X (CALL) at FILE:LINE:COL",
    /// "terminated", or "at FILE:LINE:COL, never moves" (possible only
    /// without fairness).
    pub(crate) fn ltl_still_processes(
        &self,
        state: &State,
        processes: &[usize],
    ) -> Vec<crate::report::Change> {
        let statuses = self.engine.process_status(state);
        let calls = self.engine.blocked_calls(state);
        processes
            .iter()
            .filter_map(|&p| {
                let value = match statuses.get(p)? {
                    ProcessStatus::Running { span, .. } => {
                        match calls.iter().find(|(q, _)| *q == p) {
                            Some((_, call)) => format!("blocked in {call} at {span}"),
                            None => format!("at {span}, never moves"),
                        }
                    }
                    _ => "terminated".to_string(),
                };
                Some(crate::report::Change {
                    variable: format!("process {p}"),
                    value,
                })
            })
            .collect()
    }

    /// An engine for the same program and prover under `options` (other
    /// fixed inputs, another matching): `ltl/` confirms a lasso found by set
    /// matching by running its witness's values through the product again.
    pub(crate) fn with_options(&self, options: &Options) -> Result<RealEngine, SetupError> {
        let setup = RunSetup {
            factory: Arc::clone(&self.factory),
            prover: Arc::clone(&self.prover),
            options,
        };
        RealEngine::new(Arc::clone(&self.model), &setup, options.procs)
    }

    fn location_saved(&self, function: &str, location: LocationId) -> bool {
        self.save_at
            .get(function)
            .is_some_and(|set| set.contains(&location))
    }
}

impl Engine for RealEngine {
    type State = State;
    type Key = tass_state::api::StateKey;
    type Step = Step;
    type Value = Value;
    type JointHistory = Vec<tass_state::api::JointPoint>;

    fn initial_state(&mut self) -> Result<State, EngineError> {
        let state = self.engine.initial_state()?;
        self.input_bounds = Some(self.engine.path_condition(&state));
        Ok(state)
    }

    fn enabled(&mut self, state: &State) -> Result<Vec<Step>, EngineError> {
        let steps = self.engine.enabled(state)?;
        // MPI, --deadlock potential: a state where no process could move without
        // buffering a standard send is a (potential) deadlock, reported as a stuck
        // state by `final_violations`.
        let stuck = steps.is_empty()
            || self.deadlock == DeadlockMode::Potential
                && self.model.uses_mpi
                && self.engine.potential_deadlock(state, &steps)?;
        if !stuck {
            return Ok(steps);
        }
        // Collective loop invariants: stuck while some process waits at a
        // loop head is not a deadlock of the program but a run the alignment
        // of the processes left out: refused.
        if let Some(Err(refusal)) = self.engine.stuck_at_loop(state) {
            if !self.engine.is_vacuous(state) {
                return Err(refusal);
            }
        }
        Ok(Vec::new())
    }

    fn livelock(
        &mut self,
        state: &State,
        steps: &[Step],
    ) -> Result<Option<Violation>, EngineError> {
        self.livelock_at(state, steps)
    }

    fn unchecked(&self) -> Option<String> {
        self.livelock_memo.unchecked()
    }

    /// A step that took a branch (its guard was not implied by the path condition)
    /// strengthened the path condition: the new state is simplified under it at
    /// once (canonicalized), so that values the new condition determines are
    /// substituted before the path goes on. This is the paper's simplification of
    /// branching states, applied to the state right after the branch, which is the
    /// one the path continues with. It matters most for arrays of input-dependent
    /// extent: once a loop over `i < NY` has fixed `NY`, indices such as
    /// `1 + (NY - 2) * r / active` become numbers, instead of reaching the path
    /// condition as reads at symbolic indices that every later simplifier must
    /// substitute into again (Laplace with symbolic `NY`). Simplification retypes
    /// such arrays (extent `NY` becomes `12`); reads see through the retyping cast.
    fn execute(&mut self, state: State, step: &Step) -> Result<Executed<State>, EngineError> {
        let mut outcome = self.engine.execute(state, step)?;
        if !step.guard_known_true {
            outcome.state = self.engine.canonicalize(outcome.state);
        }
        if let Some((symmetry, read_consumed)) = &mut self.symmetry {
            let representative = self
                .engine
                .symmetric_representative(outcome.state, symmetry);
            outcome.state = representative.state;
            *read_consumed |= representative.read_consumed;
        }
        let violations = outcome
            .violations
            .into_iter()
            .map(|mut v| {
                v.witness = v.witness.map(witness_values);
                v
            })
            .collect();
        Ok(Executed {
            state: outcome.state,
            violations,
            changes: outcome
                .changes
                .into_iter()
                .map(|c| crate::report::Change {
                    variable: c.variable,
                    value: c.value,
                })
                .collect(),
            mpi_calls: outcome
                .mpi_calls
                .into_iter()
                .map(|m| crate::report::MpiCall {
                    process: m.process,
                    call: m.call.to_string(),
                    phase: m.phase.as_str().to_string(),
                    outcome: m.outcome.map(str::to_string),
                })
                .collect(),
        })
    }

    fn is_terminated(&self, state: &State) -> bool {
        self.engine.is_terminated(state)
    }

    fn final_violations(&mut self, state: &State) -> Vec<Violation> {
        if self.engine.is_terminated(state) {
            let mut out = self.engine.check_termination(state);
            // Lagged loop records: a record still waiting for a process
            // that has ended.
            if let Some(Ok(v)) = self.engine.stuck_at_loop(state) {
                out.push(v);
            }
            for v in &mut out {
                v.witness = v.witness.take().map(witness_values);
            }
            return out;
        }
        // A process ended while others wait at a collective invariant loop:
        // the invariant's violation, not a deadlock.
        if let Some(Ok(mut v)) = self.engine.stuck_at_loop(state) {
            v.witness = v.witness.take().map(witness_values);
            return vec![v];
        }
        self.deadlock_at(state)
    }

    fn canonicalize(&mut self, state: State) -> State {
        self.engine.canonicalize(state)
    }

    fn store_key(&mut self, state: State) -> State {
        match &self.workers {
            Some(workers) => self.engine.worker_key(state, workers),
            None => state,
        }
    }

    fn saved_key(&mut self, key_state: &State) -> tass_state::api::StateKey {
        self.engine.state_key(key_state)
    }

    fn stable_form_hash(&mut self, state: &State) -> Option<u64> {
        let debug = format!("{state:?}");
        Some(crate::saved_dump::stable_hash(&debug, &self.factory))
    }

    fn control_part(&mut self, state: &State) -> Option<State> {
        self.control_key(state)
    }

    fn data_relation(&mut self, new: &State, saved: &State, relation: DataRelation) -> bool {
        self.data_sets_related(new, saved, relation)
    }

    fn set_record_changes(&mut self, on: bool) {
        self.engine.set_record_changes(on);
    }

    fn at_join_location(&self, state: &State) -> bool {
        self.engine.process_status(state).iter().any(|s| match s {
            ProcessStatus::Running {
                function, location, ..
            } => self.location_saved(function, *location),
            ProcessStatus::Terminated { .. } => false,
        })
    }

    fn process_at_join_location(&self, state: &State, process: usize) -> bool {
        match self.engine.process_status(state).get(process) {
            Some(ProcessStatus::Running {
                function, location, ..
            }) => self.location_saved(function, *location),
            _ => false,
        }
    }

    /// The urgent partial-order reduction: see [`RealEngine::reduce_urgent`]
    /// (`real/por.rs`), where the argument for it is.
    fn reduce(&mut self, state: &State, steps: Vec<Step>) -> Vec<Step> {
        let steps = self.reduce_urgent(state, steps);
        self.order_for_lagged_records(state, steps)
    }

    fn is_synchronous(&self, step: &Step) -> bool {
        step.delivered_to.is_some()
    }

    /// The local fast path: see [`RealEngine::local_steps_alone`] (`real/por.rs`).
    fn steps_alone(
        &mut self,
        state: &State,
        last: Option<(usize, bool)>,
    ) -> Result<Option<Vec<Step>>, EngineError> {
        let alone = self.local_steps_alone(state, last)?;
        Ok(alone.map(|steps| self.order_for_lagged_records(state, steps)))
    }

    fn step_info(&self, step: &Step) -> StepInfo {
        let info = self.engine.step_info(step);
        StepInfo {
            span: info.span,
            process: step.process,
            source: info.source_text,
        }
    }

    fn step_fingerprint(&self, step: &Step) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        let ids = format!(
            "{} {:?} {:?} {:?} {:?}",
            step.process, step.function, step.transition, step.choice, step.request
        );
        ids.hash(&mut hasher);
        hasher.finish()
    }

    fn is_local(&self, step: &Step) -> bool {
        // For the state-saving heuristic, MPI calls that only read or set the
        // process's own MPI data count as local: nothing is communicated.
        // (`MPI_Finalize` only ends the process's MPI phase; what is left
        // unreceived is checked at termination.)
        step.local
            || step.request.is_none()
                && mpi_call(&self.model, step.function, step.transition).is_some_and(|(lf, _)| {
                    matches!(
                        lf,
                        LibraryFunction::MpiInit
                            | LibraryFunction::MpiInitThread
                            | LibraryFunction::MpiFinalize
                            | LibraryFunction::MpiCommRank
                            | LibraryFunction::MpiCommSize
                            | LibraryFunction::MpiWtime
                            | LibraryFunction::MpiGetCount
                            | LibraryFunction::MpiQueryThread
                            | LibraryFunction::MpiGetProcessorName
                            | LibraryFunction::MpiTypeSize
                    )
                })
    }

    fn guards_exclude_each_other(&mut self, state: &State, steps: &[Step]) -> bool {
        if steps.iter().any(|s| s.guard_known_true) {
            return false;
        }
        let f = Arc::clone(&self.factory);
        let pc = self.engine.path_condition(state);
        for (i, a) in steps.iter().enumerate() {
            for b in &steps[i + 1..] {
                let both = f.and(pc, f.and(a.guard, b.guard));
                if !self.prover.is_unsat(both) {
                    return false;
                }
            }
        }
        true
    }

    fn process_of(&self, step: &Step) -> usize {
        step.process
    }

    fn owner_of(&self, step: &Step) -> usize {
        step.delivered_to.unwrap_or(step.process)
    }

    fn path_condition(&self, state: &State) -> Value {
        Value::Data(self.engine.path_condition(state))
    }

    fn pretty(&self, value: &Value) -> String {
        self.engine.pretty_value(value)
    }

    fn first_difference(&self, spec: &Value, imp: &Value) -> Option<(String, String)> {
        let (a, b) = (self.data(spec)?, self.data(imp)?);
        let (x, y) = tass_semantics::api::first_difference(&self.factory, a, b)?;
        let show = |e: Expr| self.engine.pretty_value(&Value::Data(e));
        ((x, y) != (a, b)).then(|| (show(x), show(y)))
    }

    fn pretty_condition(&self, condition: &Value) -> String {
        match self.data(condition) {
            Some(pc) => crate::report::readable_condition(
                &self.factory,
                &self.simplifiers,
                pc,
                self.input_bounds,
            ),
            None => self.pretty(condition),
        }
    }

    fn condition_of(&self, pc: Value, violation: &Violation) -> Value {
        let spec = violation
            .snapshots
            .as_ref()
            .and_then(|s| s.specification_path)
            .and_then(|index| self.engine.spec_joint_condition(index));
        match spec {
            Some(spec) => self.and(&pc, &Value::Data(spec)),
            None => pc,
        }
    }

    fn fixed_inputs(&self) -> Vec<(String, String)> {
        self.fixed.clone()
    }

    fn outputs(&mut self, state: &State) -> Vec<(String, Value)> {
        self.engine.outputs(state)
    }

    fn compare_output(
        &mut self,
        assumption: &Value,
        pair: OutputPair<'_, Value>,
    ) -> Option<OutputMismatch<Value>> {
        self.compare_output_values(assumption, pair)
    }

    fn output_values(&mut self, state: &State) -> Vec<(String, String)> {
        self.printed_outputs(state)
    }

    fn covers(&mut self, domain: &[Value], cover: &[Value]) -> Result<(), Uncovered> {
        self.paths_cover(domain, cover)
    }

    fn symmetric_extent(&mut self, arrays: &[String], values: &[Value]) -> Result<usize, String> {
        self.symmetric_extent_of(arrays, values)
    }

    fn permute_inputs(
        &mut self,
        value: &Value,
        arrays: &[String],
        permutation: &[usize],
    ) -> Result<Value, String> {
        self.permuted_value(value, arrays, permutation)
    }

    fn equivalent_conditions(&mut self, a: &Value, b: &Value) -> bool {
        self.conditions_equivalent(a, b)
    }

    fn reduce_by_symmetry(
        &mut self,
        initial: &State,
        arrays: &[String],
        extent: usize,
    ) -> Result<(), String> {
        // An assumption ends the paths where it fails without a terminal state,
        // and whether the representatives' paths cover the specification's
        // inputs then says nothing of the implementation's own paths.
        let assumes = self.model.functions.iter().any(|f| {
            f.body.as_ref().is_some_and(|body| {
                body.graph
                    .edge_weights()
                    .any(|t| matches!(t.statement, tass_model::api::Statement::Assume { .. }))
            })
        });
        if assumes {
            return Err("it has assumptions".to_string());
        }
        let symmetry = self.engine.input_symmetry(initial, arrays, extent)?;
        self.symmetry = Some((symmetry, false));
        Ok(())
    }

    fn stop_symmetry_reduction(&mut self) -> bool {
        self.symmetry.take().is_some_and(|(_, read)| read)
    }

    fn restrict_to_part(&self, domain: &Value, all: &[Value], own: &[Value]) -> Option<Value> {
        let f = &self.factory;
        let exprs = |values: &[Value]| -> Option<Vec<Expr>> {
            values.iter().map(|v| self.data(v)).collect()
        };
        let (all, own) = (exprs(all)?, exprs(own)?);
        // Items reached by other interleavings share their path conditions:
        // a part that owns one item of each path condition answers for all.
        let own_set: HashSet<Expr> = own.iter().copied().collect();
        if all.iter().all(|pc| own_set.contains(pc)) {
            return Some(domain.clone());
        }
        let all: HashSet<Expr> = all.into_iter().collect();
        let answered = f.or(f.not(f.or_all(all)), f.or_all(own_set));
        Some(Value::Data(f.and(self.data(domain)?, answered)))
    }

    fn and(&self, a: &Value, b: &Value) -> Value {
        match (self.data(a), self.data(b)) {
            (Some(x), Some(y)) => Value::Data(self.factory.and(x, y)),
            (Some(_), None) => a.clone(),
            _ => b.clone(),
        }
    }

    fn disjoint(&mut self, a: &Value, b: &Value) -> bool {
        match (self.data(a), self.data(b)) {
            (Some(x), Some(y)) => {
                self.clauses_contradict(x, y)
                    || self.fixed_values_refute(x, y)
                    || self.fixed_values_refute(y, x)
            }
            _ => false,
        }
    }

    fn counters(&self) -> (u64, u64, u64) {
        let stats = self.prover.stats();
        (stats.queries, stats.smt_calls(), self.factory.len() as u64)
    }

    fn invariant_counters(&self) -> (u64, u64) {
        let oracle = self.engine.stats().oracle;
        (oracle.invariant_checks, oracle.invariant_prover_calls)
    }

    fn loop_arrivals(&self) -> u64 {
        self.engine.stats().oracle.loop_arrivals
    }

    fn aligned_loops_stuck(&self) -> bool {
        self.engine.aligned_loops_stuck()
    }

    fn input_names(&self) -> Vec<String> {
        self.model
            .inputs
            .iter()
            .map(|&v| self.model.var(v).name.clone())
            .collect()
    }

    fn joint_history(&self, state: &State) -> Vec<tass_state::api::JointPoint> {
        self.engine.joint_points(state)
    }

    fn leans_on_loop_values(&self, values: &[&Value]) -> bool {
        fn exprs(v: &Value, out: &mut Vec<Expr>) {
            match v {
                Value::Data(e) => out.push(*e),
                Value::Array(items) | Value::Struct(items) => {
                    items.iter().for_each(|x| exprs(x, out))
                }
                _ => {}
            }
        }
        let mut all = Vec::new();
        values.iter().for_each(|v| exprs(v, &mut all));
        tass_semantics::api::leans_on_loop_values(&self.factory, &all)
    }

    fn cut_joint_paths(&self) -> Vec<(Value, Vec<tass_state::api::JointPoint>)> {
        self.engine
            .cut_joint_paths()
            .iter()
            .map(|(pc, points)| (Value::Data(*pc), points.clone()))
            .collect()
    }

    fn set_spec_joint(&mut self, paths: Vec<(Value, Vec<tass_state::api::JointPoint>)>) {
        let paths = paths
            .into_iter()
            .filter(|(_, points)| !points.is_empty())
            .filter_map(|(pc, points)| Some((self.data(&pc)?, points)))
            .collect();
        self.engine.set_spec_joint_paths(paths);
    }

    fn check_joint(
        &mut self,
        state: &State,
        spec: &Vec<tass_state::api::JointPoint>,
        pc: &Value,
    ) -> Result<Option<Violation>, EngineError> {
        let Some(pc) = self.data(pc) else {
            return Ok(None);
        };
        let found = self.engine.check_joint(state, spec, pc)?;
        Ok(found.map(|mut v| {
            v.witness = v.witness.map(witness_values);
            v
        }))
    }

    fn no_witness_reason(&self) -> String {
        if self.builtin_only {
            "the built-in prover gives none (use --prover z3, cvc5 or yices for one)".into()
        } else {
            "the prover gave no model".into()
        }
    }
}

/// What the engines of one run share: the expression factory, the prover (so
/// that its caches and counters are shared too) and the options.
struct RunSetup<'a> {
    factory: Arc<ExprFactory>,
    prover: Arc<dyn Prover>,
    options: &'a Options,
}

impl<'a> RunSetup<'a> {
    /// Builds the prover `options` choose.
    fn new(options: &'a Options) -> Result<RunSetup<'a>, SetupError> {
        let factory = ExprFactory::shared();
        if options.arith == tass_state::api::Arith::Real {
            // The paper's level-2 normal form: a quotient stays one atom instead
            // of putting every value over a common denominator (`tass-symbolic`'s
            // `quotient.rs`).
            factory.enable_quotient_atoms();
        }
        let prover = make_prover(&factory, &options.prover).map_err(SetupError::Prover)?;
        Ok(RunSetup {
            factory,
            prover,
            options,
        })
    }

    /// An engine for `model` run by `nprocs` processes.
    fn engine(&self, model: Arc<Model>, nprocs: usize) -> Result<RealEngine, SetupError> {
        RealEngine::new(model, self, nprocs)
    }
}

/// `--worker-symmetry` for `model` run by `nprocs` processes: the symmetry
/// to apply (if admitted) and the warning that says what was decided (`None`
/// when the option is off or the model runs on fewer than three processes).
pub(crate) fn worker_symmetry_note(
    model: &Model,
    options: &Options,
    nprocs: usize,
) -> (Option<tass_state::api::WorkerSymmetry>, Option<String>) {
    if !options.worker_symmetry || nprocs < 3 {
        return (None, None);
    }
    let refused = |why: String| {
        (
            None,
            Some(format!(
                "--worker-symmetry: not applied ({why}); running without the reduction"
            )),
        )
    };
    if options.matching != crate::options::MatchMode::Syntactic {
        return refused("it is built for --match syntactic only".into());
    }
    match tass_state::api::WorkerSymmetry::analyse(model, nprocs) {
        Ok(sym) => {
            let ranks: Vec<String> = sym.workers().iter().map(|r| r.to_string()).collect();
            let note = format!(
                "--worker-symmetry: states are matched modulo the permutations of the interchangeable ranks {{{}}} of `{}`",
                ranks.join(", "),
                model.name
            );
            (Some(sym), Some(note))
        }
        Err(why) => refused(why),
    }
}

/// The report of a run that could not start.
fn setup_failed(error: SetupError) -> Report {
    Report::error(format!("error: {error}"))
}

/// `tass verify`: checks every property of `model` run by `options.procs`
/// processes. Never panics on bad input: problems become a report with verdict
/// `error`.
pub fn verify(model: &Model, options: &Options) -> Report {
    use crate::collective_assert::{check_pragmas, Command};
    if let Err(e) = check_pragmas(model, Command::Verify, options.procs).and_then(|()| {
        crate::loop_invariant::check_loop_invariants(model, Command::Verify, options.procs)
            .and_then(|()| {
                crate::loop_participation::check_every_process_takes_part(model, options.procs)
            })
    }) {
        return crate::report::refusal(&e);
    }
    if let Err(e) = crate::ltl::check_ranks(model, options.procs) {
        return crate::report::refusal(&e);
    }
    if let (crate::options::MatchMode::Subsume, Some(first)) = (options.matching, model.ltl.first())
    {
        return Report::error(
            EngineError::invalid(
                format!(
                    "--match subsume is for safety properties only, and the program has the \
                     ltl formula `{}`: matching a state with one whose data includes it could \
                     close a cycle no run has; use --match set (equal data sets) or syntactic",
                    first.id
                ),
                Some(&first.span),
            )
            .to_string(),
        );
    }
    let run = || -> Result<Report, SetupError> {
        // --timeout bounds the whole run: the safety search and the ltl searches.
        let deadline = options.timeout.map(|t| std::time::Instant::now() + t);
        let setup = RunSetup::new(options)?;
        let shared = Arc::new(model.clone());
        let report = if options.jobs > 1 {
            parallel::verify_parallel(&shared, options, &setup)?
        } else {
            let mut engine = setup.engine(Arc::clone(&shared), options.procs)?;
            verify_with(&mut engine, options, options.procs)
        };
        let mut report = lagged::second_run_if_needed(&setup, &shared, options, report)?;
        if !model.ltl.is_empty() && report.verdict != crate::report::Verdict::Error {
            let mut ltl_engine = setup.engine(shared, options.procs)?;
            add_ltl_results(&mut ltl_engine, model, (options, deadline), &mut report);
        }
        Ok(report)
    };
    let mut report = run().unwrap_or_else(setup_failed);
    if let (_, Some(note)) = worker_symmetry_note(model, options, options.procs) {
        report.warnings.push(note);
    }
    report
}

/// Checks the model's `ltl` formulas (`ltl/`) and adds what was found to the
/// safety search's `report`: a violation per violated formula (naming the
/// formulas that hold), or why the search of a formula was inconclusive.
fn add_ltl_results(
    engine: &mut RealEngine,
    model: &Model,
    (options, deadline): (&Options, Option<std::time::Instant>),
    report: &mut Report,
) {
    use crate::report::Verdict;
    let (outcomes, nodes) = crate::ltl::check_formulas(engine, &model.ltl, options, deadline);
    report.stats.states_seen += nodes;
    let held: Vec<String> = outcomes
        .iter()
        .filter(|(_, o)| matches!(o, crate::ltl::LtlOutcome::Holds))
        .map(|(id, _)| format!("`{id}`"))
        .collect();
    for (id, outcome) in outcomes {
        match outcome {
            crate::ltl::LtlOutcome::Holds => {}
            crate::ltl::LtlOutcome::Violated(mut v) => {
                if !held.is_empty() {
                    v.message
                        .push_str(&format!("; ltl formulas that hold: {}", held.join(", ")));
                }
                report.violations.push(*v);
                report.verdict = Verdict::Violated;
            }
            crate::ltl::LtlOutcome::Inconclusive(reason) => {
                if report.verdict == Verdict::Holds {
                    report.verdict = Verdict::Inconclusive;
                }
                let reason = format!("ltl formula `{id}`: {reason}");
                report.inconclusive_reason = Some(match report.inconclusive_reason.take() {
                    Some(r) => format!("{r}; {reason}"),
                    None => reason,
                });
            }
        }
    }
}

/// True if `model` has a `#pragma TASS joint invariant` loop.
fn has_joint_loop_invariant(model: &Model) -> bool {
    model.functions.iter().any(|f| {
        f.body.as_ref().is_some_and(|b| {
            b.graph.edge_weights().any(|t| {
                matches!(&t.statement, tass_model::api::Statement::LoopInvariant(inv)
                    if inv.kind == tass_model::api::CollectiveKind::Joint)
            })
        })
    })
}

/// `tass compare`: checks that `imp` computes the same outputs as `spec` for every
/// input (over the reals), besides every property of both programs. The models'
/// signatures must agree ([`check_signatures`]); a mismatch is an `error` report.
pub fn compare(spec: &Model, imp: &Model, options: &Options) -> Report {
    use crate::collective_assert::{check_joint_pragmas, check_pragmas, Command};
    if let Err(e) = check_signatures(spec, imp) {
        return setup_failed(SetupError::Signatures(e));
    }
    let joint = match check_joint_pragmas(spec, imp, options.spec_procs) {
        Ok(joint) => joint,
        Err(e) => return crate::report::refusal(&e),
    };
    for (model, command, procs) in [
        (spec, Command::CompareSpec, options.spec_procs),
        (imp, Command::Compare, options.impl_procs),
    ] {
        if let Err(e) = check_pragmas(model, command, procs)
            .and_then(|()| crate::loop_invariant::check_loop_invariants(model, command, procs))
            .and_then(|()| crate::loop_participation::check_every_process_takes_part(model, procs))
        {
            return crate::report::refusal(&e);
        }
    }
    // Joint loop invariants run the two programs' loops in step along whole
    // runs: a part of the implementation's search (a --shard, a part of
    // --jobs) cannot check its coverage (it was inconclusive where one
    // search holds), so they are searched whole.
    let joint_loops = has_joint_loop_invariant(spec) || has_joint_loop_invariant(imp);
    if joint_loops && options.shard.is_some() {
        return crate::report::refusal(&EngineError::invalid(
            "--shard: the programs have joint loop invariants, which relate the two programs' \
             loops step by step along whole runs, so a part of the search cannot be checked on \
             its own; run the comparison whole (without --shard)",
            None,
        ));
    }
    // Joint assertions check each implementation snapshot against the
    // specification's histories: a part of --jobs would search the whole
    // specification again (diffusion1d joint, 4 processes: 6x the CPU time of
    // one thread at --jobs 2), so these comparisons run on one thread too.
    let one_thread = joint_loops || joint;
    let run = || -> Result<Report, SetupError> {
        let setup = RunSetup::new(options)?;
        let impl_model = Arc::new(imp.clone());
        if options.jobs > 1 && !one_thread {
            let programs = parallel::ComparePrograms {
                spec: &Arc::new(spec.clone()),
                imp: &impl_model,
                joint,
            };
            return Ok(parallel::compare_parallel(&programs, options, &setup));
        }
        let mut s = setup.engine(Arc::new(spec.clone()), options.spec_procs)?;
        let mut i = setup.engine(Arc::clone(&impl_model), options.impl_procs)?;
        if joint {
            s.engine.record_joint_snapshots();
            i.engine.record_joint_snapshots();
        }
        Ok(crate::compare::compare_with(
            &mut s,
            &mut i,
            &impl_model,
            options,
        ))
    };
    let mut report = run().unwrap_or_else(setup_failed);
    if one_thread && options.jobs > 1 {
        report.warnings.push(if joint_loops {
            "--jobs: searched on one thread (joint loop invariants relate the two programs' \
             loops along whole runs)"
                .into()
        } else {
            "--jobs: searched on one thread (joint assertions are checked against the \
             specification's whole runs)"
                .into()
        });
    }
    for (model, procs) in [(spec, options.spec_procs), (imp, options.impl_procs)] {
        if let (_, Some(note)) = worker_symmetry_note(model, options, procs) {
            report.warnings.push(note);
        }
    }
    report
}
