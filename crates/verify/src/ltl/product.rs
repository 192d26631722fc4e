//! The product of the program's state space with the automaton of a negated
//! formula, built in full, and the search for an accepting, weakly fair cycle
//! in it (`tass_search::api::find_fair_lasso`).
//!
//! A product node is a program state and an automaton state whose literals
//! the program state satisfies. An atom over symbolic data that the path
//! condition does not decide splits the program state, as a branch does: one
//! copy assumes the literal. A state where every process has terminated
//! repeats forever (a stutter step); a state where no step is enabled but some
//! process has not terminated (a deadlock, which the safety search reports)
//! ends its runs, and finite runs violate no formula here. The search stores
//! every product node, so a cycle it finds is a cycle of the program, and one
//! it does not find does not exist: states equal in canonical form (values
//! and path condition) stand for the same executions. For a formula without
//! `X` it takes only one process's steps where the urgent reduction allows
//! it and none of them is visible to an atom (`visibility.rs`), with a cycle
//! proviso (docs/architecture.md has the argument).

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;
use std::time::Instant;

use tass_model::api::{LtlAtom, LtlProperty};
use tass_search::api::{find_fair_lasso, Fairness, LassoGraph};
use tass_semantics::api::{Decision, EngineError};
use tass_state::api::{State, Step};
use tass_symbolic::api::{Expr, ExprFactory};

use super::buchi::{automaton, Automaton, Formulas};
use crate::engine::{DataRelation, Engine};
use crate::options::{FairnessMode, MatchMode, Options};
use crate::real::RealEngine;
use crate::report::complete_witness;
use crate::report::{Certainty, Property, TraceStep, ViolationReport, Witness};

mod prune;

use super::visibility::Visibility;
use tass_model::api::Model;

/// The trace line between a lasso's stem and its cycle.
const CYCLE_MARK: &str = "(cycle: the steps below repeat forever)";

/// Why a lasso closed by set equality has no witness.
const SET_MATCH_NO_WITNESS: &str = "the cycle closes by --match set (a state with the same \
     control and an equal set of data valuations), and no input was confirmed to drive it: \
     check the run with --match syntactic and -i";

/// What the search of one formula found.
pub(crate) enum LtlOutcome {
    /// No run violates the formula.
    Holds,
    /// A lasso violates it.
    Violated(Box<ViolationReport>),
    /// The search could not finish (limit, error); why.
    Inconclusive(String),
}

/// The outcome of each formula of the model, and the product nodes stored.
/// `deadline` is the run's `--timeout` counted from its start: the safety
/// search and every formula's search share it.
pub(crate) fn check_formulas(
    engine: &mut RealEngine,
    properties: &[LtlProperty],
    options: &Options,
    deadline: Option<Instant>,
) -> (Vec<(String, LtlOutcome)>, u64) {
    let mut out = Vec::new();
    let mut nodes = 0;
    for property in properties {
        let mut formulas = Formulas::default();
        let root = formulas.nnf(&property.formula, true);
        let Some(aut) = automaton(&formulas, root) else {
            out.push((
                property.id.clone(),
                LtlOutcome::Inconclusive("the formula has more than 64 `U`/`F` operators".into()),
            ));
            continue;
        };
        let reduce = options.reduction == crate::options::Reduction::Urgent
            && options.procs > 1
            && !property.formula.uses_next();
        let visibility = reduce.then(|| (engine.model(), Visibility::new(&formulas.atoms)));
        let mut product = Product::new(engine, formulas.atoms, aut, options);
        product.reduction = visibility;
        product.deadline = deadline;
        let outcome = match product.explore() {
            Ok(None) => product.verdict(property),
            Ok(Some(reason)) => LtlOutcome::Inconclusive(reason),
            Err(e) => LtlOutcome::Inconclusive(format!("the ltl search stopped: {e}")),
        };
        nodes += product.node_state.len() as u64;
        out.push((property.id.clone(), outcome));
    }
    (out, nodes)
}

/// One program step from a state: the step (`None` for the stutter step of a
/// terminated state), the next state, the processes that moved, and its marks
/// for MPI's progress rule (stalled poll of, may consume for: process bits).
type Successor = (Option<Step>, State, u64, (u64, u64));

struct Product<'e> {
    engine: &'e mut RealEngine,
    factory: Arc<ExprFactory>,
    atoms: Vec<LtlAtom>,
    aut: Automaton,
    options: &'e Options,
    graph: LassoGraph,
    index: HashMap<(State, usize), usize>,
    /// `--match set`: the nodes by control part and automaton state.
    by_control: HashMap<(State, usize), Vec<usize>>,
    /// Edges whose target was found by set equality, not syntactically: a
    /// lasso through one repeats its cycle only up to equal data sets.
    set_matched: HashSet<(usize, usize)>,
    node_state: Vec<(State, usize)>,
    /// Per node, per edge (as in `graph.edges`): the program step.
    edge_steps: Vec<Vec<Option<Step>>>,
    successors: HashMap<State, (Arc<Vec<Successor>>, u64)>,
    atom_values: HashMap<(State, usize), Expr>,
    /// An atom was split although the prover could not show both cases
    /// possible: a lasso through it is only possibly real.
    undecided: bool,
    /// When `--timeout` ends the run (shared with the other searches).
    deadline: Option<Instant>,
    /// The partial-order reduction, for a formula without `X` (`None`: every
    /// step is explored): the model and what the atoms read.
    reduction: Option<(Arc<Model>, Visibility)>,
}

impl<'e> Product<'e> {
    fn new(
        engine: &'e mut RealEngine,
        atoms: Vec<LtlAtom>,
        aut: Automaton,
        options: &'e Options,
    ) -> Product<'e> {
        Product {
            factory: engine.expr_factory(),
            engine,
            atoms,
            aut,
            options,
            graph: LassoGraph::default(),
            index: HashMap::new(),
            by_control: HashMap::new(),
            set_matched: HashSet::new(),
            node_state: Vec::new(),
            edge_steps: Vec::new(),
            successors: HashMap::new(),
            atom_values: HashMap::new(),
            undecided: false,
            deadline: None,
            reduction: None,
        }
    }

    /// Builds the product; `Some(reason)` when a limit stopped it.
    fn explore(&mut self) -> Result<Option<String>, EngineError> {
        let initial = self.engine.initial_state()?;
        let initial = self.engine.canonicalize(initial);
        let mut queue = VecDeque::new();
        for q in 0..self.aut.states.len() {
            if !self.aut.states[q].initial {
                continue;
            }
            for t in self.label_states(initial.clone(), q)? {
                let (id, new, _) = self.intern(t, q);
                self.graph.initial.push(id);
                if new {
                    queue.push_back(id);
                }
            }
        }
        while let Some(id) = queue.pop_front() {
            if let Some(reason) = self.limit_reached() {
                return Ok(Some(reason));
            }
            let (state, q) = self.node_state[id].clone();
            let (successors, enabled) = self.program_successors(&state)?;
            self.graph.enabled[id] = enabled;
            let alone = self.ample_process(&state, &successors);
            let in_ample = |s: &Successor| match (alone, &s.0) {
                (None, _) => true,
                (Some(p), Some(step)) => step.process == p,
                (Some(_), None) => false,
            };
            let ample: Vec<&Successor> = successors.iter().filter(|s| in_ample(s)).collect();
            let all_new = self.expand(id, q, &ample, &mut queue)?;
            // The cycle proviso: a reduced node whose ample successors are not
            // all new is expanded fully, so every cycle of the explored graph
            // has a fully expanded node (the cycle's first-created node is
            // entered by an edge to an old node).
            if alone.is_some() && !all_new {
                let rest: Vec<&Successor> = successors.iter().filter(|s| !in_ample(s)).collect();
                self.expand(id, q, &rest, &mut queue)?;
            }
        }
        Ok(None)
    }

    /// Adds the product edges of `steps` from node `id` (automaton state `q`);
    /// whether every target was a new node.
    fn expand(
        &mut self,
        id: usize,
        q: usize,
        steps: &[&Successor],
        queue: &mut VecDeque<usize>,
    ) -> Result<bool, EngineError> {
        let mut all_new = true;
        for (step, next, moved, marks) in steps.iter().map(|s| (&s.0, &s.1, s.2, s.3)) {
            for r in self.aut.states[q].successors.clone() {
                for t in self.label_states(next.clone(), r)? {
                    let (target, new, by_set) = self.intern(t, r);
                    if by_set {
                        self.set_matched.insert((id, target));
                    }
                    self.graph.add_edge(id, target, moved, marks);
                    self.edge_steps[id].push(step.clone());
                    if new {
                        queue.push_back(target);
                    } else {
                        all_new = false;
                    }
                }
            }
        }
        Ok(all_new)
    }

    /// The process whose steps alone are explored from `state` (the urgent
    /// reduction restricted to steps no atom sees, `RealEngine::ltl_ample`),
    /// or `None`: every step.
    fn ample_process(&mut self, state: &State, successors: &[Successor]) -> Option<usize> {
        let (model, visibility) = self.reduction.as_ref()?;
        let steps: Vec<Step> = successors.iter().filter_map(|s| s.0.clone()).collect();
        if steps.len() < successors.len() {
            return None;
        }
        let invisible = |s: &Step| !visibility.visible(model, s);
        self.engine.ltl_ample(state, &steps, &invisible)
    }

    fn limit_reached(&self) -> Option<String> {
        let nodes = self.node_state.len() as u64;
        if self.options.max_states.is_some_and(|max| nodes > max) {
            return Some(format!(
                "the ltl search reached --max-states ({nodes} product states)"
            ));
        }
        if self.deadline.is_some_and(|d| Instant::now() > d) {
            return Some("the ltl search reached --timeout".into());
        }
        let cancelled = self
            .options
            .cancel
            .as_ref()
            .is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed));
        cancelled.then(|| "the ltl search was interrupted".into())
    }

    /// The node of `(state, q)`: its id, whether it is new, and whether it
    /// was found by set equality (`--match set`) rather than syntactically.
    fn intern(&mut self, state: State, q: usize) -> (usize, bool, bool) {
        if let Some(&id) = self.index.get(&(state.clone(), q)) {
            return (id, false, false);
        }
        let key = match self.options.matching {
            MatchMode::Set => self.engine.control_part(&state),
            _ => None,
        };
        if let Some(key) = &key {
            let candidates = self
                .by_control
                .get(&(key.clone(), q))
                .cloned()
                .unwrap_or_default();
            for id in candidates {
                let saved = self.node_state[id].0.clone();
                if self
                    .engine
                    .data_relation(&state, &saved, DataRelation::Equal)
                {
                    return (id, false, true);
                }
            }
        }
        let id = self.graph.add_node(self.aut.states[q].accepting, 0);
        self.edge_steps.push(Vec::new());
        self.node_state.push((state.clone(), q));
        self.index.insert((state, q), id);
        if let Some(key) = key {
            self.by_control.entry((key, q)).or_default().push(id);
        }
        (id, true, false)
    }

    /// The program's steps from `state`, and the processes enabled there.
    fn program_successors(
        &mut self,
        state: &State,
    ) -> Result<(Arc<Vec<Successor>>, u64), EngineError> {
        if let Some((s, e)) = self.successors.get(state) {
            return Ok((Arc::clone(s), *e));
        }
        let steps = self.engine.ltl_enabled(state)?;
        let mut out = Vec::new();
        let mut enabled = 0u64;
        if steps.is_empty() && self.engine.is_terminated(state) {
            out.push((None, state.clone(), 0, (0, 0)));
        }
        let marks = self.engine.ltl_progress_marks(state, &steps);
        for (step, marks) in steps.into_iter().zip(marks) {
            let moved = bit(self.engine.process_of(&step)) | bit(self.engine.owner_of(&step));
            enabled |= moved;
            let executed = self.engine.execute(state.clone(), &step)?;
            let next = self.engine.canonicalize(executed.state);
            out.push((Some(step), next, moved, marks));
        }
        let out = Arc::new(out);
        self.successors
            .insert(state.clone(), (Arc::clone(&out), enabled));
        Ok((out, enabled))
    }

    /// The copies of `state` that satisfy the literals of automaton state `q`
    /// (none, the state itself, or copies with a stronger path condition).
    fn label_states(&mut self, state: State, q: usize) -> Result<Vec<State>, EngineError> {
        let f = Arc::clone(&self.factory);
        let mut out = vec![state];
        for (atom, positive) in self.aut.states[q].literals.clone() {
            let mut kept = Vec::new();
            for t in out {
                let value = self.atom_value(&t, atom)?;
                let literal = if positive { value } else { f.not(value) };
                match f.as_bool(literal) {
                    Some(true) => kept.push(t),
                    Some(false) => {}
                    None => {
                        if let Some(t) = self.split(t, literal) {
                            kept.push(t);
                        }
                    }
                }
            }
            out = kept;
        }
        Ok(out)
    }

    /// `state` where `literal` holds: itself if the path condition implies it,
    /// nothing if it implies the opposite, else a copy assuming it.
    fn split(&mut self, state: State, literal: Expr) -> Option<State> {
        let f = Arc::clone(&self.factory);
        let holds = self.engine.ltl_decide(&state, literal);
        if holds == Decision::Holds {
            return Some(state);
        }
        let fails = self.engine.ltl_decide(&state, f.not(literal));
        if fails == Decision::Holds {
            return None;
        }
        if matches!(holds, Decision::Unknown) || matches!(fails, Decision::Unknown) {
            self.undecided = true;
        }
        Some(self.engine.ltl_assume(&state, literal))
    }

    fn atom_value(&mut self, state: &State, atom: usize) -> Result<Expr, EngineError> {
        if let Some(v) = self.atom_values.get(&(state.clone(), atom)) {
            return Ok(*v);
        }
        let v = self.engine.ltl_atom(state, &self.atoms[atom])?;
        self.atom_values.insert((state.clone(), atom), v);
        Ok(v)
    }

    /// The acceptance sets, the agents (processes) and the fairness of the
    /// search for a lasso.
    fn acceptance(&self) -> (u64, u64, Fairness) {
        let nprocs = self.options.procs.min(64);
        let agents = if nprocs == 64 {
            u64::MAX
        } else {
            (1u64 << nprocs) - 1
        };
        let sets = if self.aut.sets == 0 {
            0
        } else {
            u64::MAX >> (64 - self.aut.sets)
        };
        let fairness = match self.options.fairness {
            FairnessMode::Weak => Fairness::Weak,
            FairnessMode::None => Fairness::None,
        };
        (sets, agents, fairness)
    }

    /// The verdict once the product is built.
    fn verdict(&mut self, property: &LtlProperty) -> LtlOutcome {
        let (sets, agents, fairness) = self.acceptance();
        match find_fair_lasso(&self.graph, sets, agents, fairness) {
            None => LtlOutcome::Holds,
            Some(lasso) => {
                let stem_steps = lasso.stem.len().saturating_sub(1);
                let path: Vec<usize> = lasso
                    .stem
                    .iter()
                    .chain(lasso.cycle.iter().skip(1))
                    .copied()
                    .collect();
                let by_set = path
                    .windows(2)
                    .any(|w| self.set_matched.contains(&(w[0], w[1])));
                let pruned = by_set.then(|| {
                    let edges = self.lasso_edges(&lasso.stem, &lasso.cycle);
                    self.prune_lasso(&edges)
                });
                LtlOutcome::Violated(Box::new(self.report(property, &path, stem_steps, pruned)))
            }
        }
    }

    fn report(
        &mut self,
        property: &LtlProperty,
        path: &[usize],
        stem_steps: usize,
        pruned: Option<prune::Pruned>,
    ) -> ViolationReport {
        let mut trace = Vec::new();
        let mut previous = None;
        for (k, pair) in path.windows(2).enumerate() {
            if k == stem_steps {
                let mut mark = self.marker(property, CYCLE_MARK);
                mark.changes = self.still_in_cycle(&path[stem_steps..]);
                trace.push(mark);
            }
            let (u, v) = (pair[0], pair[1]);
            let step = self.graph.edges[u]
                .iter()
                .position(|&(w, _)| w == v)
                .and_then(|k| self.edge_steps[u][k].clone());
            let from = self.node_state[u].0.clone();
            let mut line = self.trace_step(property, &from, step.as_ref());
            // The same transition again is another execution of the
            // statement (a one-statement loop): kept apart in the trace.
            let key = step.as_ref().map(|s| (s.process, s.function, s.transition));
            line.repeated = key.is_some() && key == previous;
            previous = key;
            trace.push(line);
        }
        let last = path.last().map(|&id| self.node_state[id].0.clone());
        let (certainty, given) = match last.as_ref().map(|s| self.engine.ltl_witness(s)) {
            Some(Some(values)) if !self.undecided => (Certainty::Provable, values),
            Some(Some(values)) => (Certainty::Possible, values),
            _ => (Certainty::Possible, None),
        };
        let inputs = self.engine.input_names();
        let fixed = self.engine.fixed_inputs();
        let reason = self.engine.no_witness_reason();
        let (witness, witness_missing) = complete_witness(given, &inputs, &fixed, || reason);
        let witness = match witness {
            Witness::Values(v) if v.is_empty() && inputs.is_empty() => {
                Witness::Unavailable("the program has no inputs".into())
            }
            w => w,
        };
        // A cycle closed by set equality repeats the control and the set of
        // data valuations, not one run's values: the inputs of its last state
        // need not drive the lasso shown, and with unbounded numbers the set
        // may hold no run that repeats forever. The pruning (`prune.rs`, the
        // paper's Sec. 3.3) restricts the lasso to the inputs that drive it
        // and confirms one by running it again; unconfirmed: possible, no
        // witness.
        let mut note = None;
        // A confirmed set lasso shows the pruned path condition (the inputs
        // that drive its steps), not that of its last multi-state.
        let mut pruned_condition = None;
        let (certainty, witness, witness_missing) = match pruned {
            None => (certainty, witness, witness_missing),
            Some(prune::Pruned::Confirmed {
                witness,
                note: how,
                path_condition,
            }) => {
                note = Some(how);
                pruned_condition = Some(path_condition);
                let (witness, missing) =
                    complete_witness(Some(witness), &inputs, &fixed, String::new);
                (Certainty::Provable, witness, missing)
            }
            Some(prune::Pruned::Unconfirmed(why)) => (
                Certainty::Possible,
                Witness::Unavailable(format!("{SET_MATCH_NO_WITNESS} ({why})")),
                Vec::new(),
            ),
        };
        let path_condition = pruned_condition
            .or_else(|| last.as_ref().map(|s| self.engine.path_condition(s)))
            .map(|pc| self.engine.pretty_condition(&pc))
            .unwrap_or_default();
        ViolationReport {
            snapshots: None,
            property: Property::Ltl,
            certainty,
            message: format!(
                "ltl formula `{}` can fail: a {}run reaches a cycle and repeats it forever \
                 (the trace: the steps to the cycle, `{CYCLE_MARK}`, the cycle's steps){}",
                property.id,
                match self.options.fairness {
                    FairnessMode::Weak => "weakly fair ",
                    FairnessMode::None => "",
                },
                note.map(|n| format!("; the cycle closes by --match set, {n}"))
                    .unwrap_or_default()
            ),
            file: property.span.file.to_string(),
            line: property.span.start_line,
            column: property.span.start_column,
            process: 0,
            trace,
            path_condition,
            claim: property.text.clone(),
            witness,
            witness_missing,
            difference: None,
        }
    }

    /// The processes that take no step in the cycle `cycle` (its nodes, the
    /// first one again at the end), and where each stays: the replay of an
    /// MPI lasso checks that the real ranks stay there too.
    fn still_in_cycle(&self, cycle: &[usize]) -> Vec<crate::report::Change> {
        let moved = cycle.windows(2).fold(0u64, |acc, w| {
            acc | self.graph.edges[w[0]]
                .iter()
                .filter(|&&(v, _)| v == w[1])
                .fold(0, |m, &(_, bits)| m | bits)
        });
        let still: Vec<usize> = (0..self.options.procs.min(64))
            .filter(|&p| moved & bit(p) == 0)
            .collect();
        match cycle.first() {
            Some(&first) if !still.is_empty() && self.options.procs > 1 => {
                let state = self.node_state[first].0.clone();
                self.engine.ltl_still_processes(&state, &still)
            }
            _ => Vec::new(),
        }
    }

    /// The trace line of `step` taken from `from`, with the variables it
    /// changes (the step is executed again with the change log on).
    fn trace_step(
        &mut self,
        property: &LtlProperty,
        from: &State,
        step: Option<&Step>,
    ) -> TraceStep {
        match step {
            Some(step) => {
                let info = self.engine.step_info(step);
                self.engine.set_record_changes(true);
                let (changes, mpi_calls) = self
                    .engine
                    .execute(from.clone(), step)
                    .map(|executed| (executed.changes, executed.mpi_calls))
                    .unwrap_or_default();
                self.engine.set_record_changes(false);
                TraceStep {
                    model: None,
                    file: info.span.file.to_string(),
                    line: info.span.start_line,
                    column: info.span.start_column,
                    process: info.process,
                    source: info.source,
                    changes,
                    repeated: false,
                    mpi_calls,
                }
            }
            None => self.marker(
                property,
                "(every process has terminated: the final state repeats)",
            ),
        }
    }

    /// A trace line that is no step of the program (at the pragma).
    fn marker(&self, property: &LtlProperty, text: &str) -> TraceStep {
        TraceStep {
            model: None,
            file: property.span.file.to_string(),
            line: property.span.start_line,
            column: property.span.start_column,
            process: 0,
            source: text.into(),
            changes: Vec::new(),
            repeated: false,
            mpi_calls: Vec::new(),
        }
    }
}

fn bit(process: usize) -> u64 {
    if process < 64 {
        1 << process
    } else {
        0
    }
}
