//! Witnesses for lassos closed by set equality (`--match set`, the paper's
//! Sec. 3.3).
//!
//! A multi-state stands for a set of concrete states; an edge found by set
//! equality says only that the successors of the source's set are the
//! target's set, so a lasso of the quotient graph need not be driven by any
//! one input, and the inputs of its last state need not drive it. The
//! pruning runs the lasso's steps once more as one symbolic run from the
//! initial state, every step's branch condition and every automaton
//! literal conjoined in the same input symbols: after the stem and `j`
//! passes of the cycle, the path condition is exactly the set of inputs
//! whose run follows those steps (the backward restriction of every
//! multi-state along the lasso, carried to the initial one). A run repeats
//! forever only if its state comes back, so the candidates come first from
//! `pc_j && data(pass i) == data(pass j)` for `i < j` (the cycle closes on
//! the same valuation), then from `pc_j` alone, for `j` up to
//! [`SYMBOLIC_PASSES`]; an unsatisfiable `pc_j` ends the search (no input
//! follows the cycle `j` times).
//!
//! A candidate is only a candidate: it is confirmed by running its values
//! through the product again, with the inputs fixed and syntactic matching
//! (`Product::replay_lasso`): the stem's steps, then the cycle's until the
//! product state at the start of a pass equals that at the start of an
//! earlier pass, every atom decided exactly, and the repeated passes
//! accepting and weakly fair in the graph of the states met. Only then is
//! the violation certain, with that witness.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tass_search::api::{find_fair_lasso, LassoGraph};
use tass_semantics::api::EngineError;
use tass_state::api::{State, Step, Value};

use super::{Product, Successor};
use crate::engine::Engine;
use crate::options::{MatchMode, Options};

/// Most passes of the cycle the symbolic run makes (candidates are drawn
/// after each).
const SYMBOLIC_PASSES: usize = 4;

/// Most program steps a candidate's concrete run takes before it is given up
/// (the state may come back only after many passes: `l = (l + 1) % r`).
const CONCRETE_STEPS: usize = 1_000_000;

/// Most time the pruning of one lasso takes (besides `--timeout`): a run
/// whose values grow forever never comes back, and each step costs more.
const PRUNING_TIME: Duration = Duration::from_secs(20);

/// What identifies a step across engines (the guard is the engine's own
/// expression: symbolic in one, concrete in the other).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct StepKey {
    process: usize,
    function: tass_model::api::FunctionId,
    transition: tass_model::api::TransitionId,
    choice: Option<u32>,
    request: Option<u32>,
}

impl StepKey {
    fn of(step: &Step) -> StepKey {
        StepKey {
            process: step.process,
            function: step.function,
            transition: step.transition,
            choice: step.choice,
            request: step.request,
        }
    }
}

/// One edge of a lasso: its step (`None`: the stutter step of a terminated
/// state) and the automaton state of its target.
#[derive(Clone, Debug)]
pub(super) struct LassoEdge {
    step: Option<StepKey>,
    target: usize,
}

/// A lasso of the product, as edges from its first node.
pub(super) struct LassoEdges {
    /// The automaton state of the initial node.
    initial: usize,
    stem: Vec<LassoEdge>,
    cycle: Vec<LassoEdge>,
}

/// What the pruning found.
pub(super) enum Pruned {
    /// Input values whose run follows the lasso's steps forever, and how
    /// that was checked.
    Confirmed {
        witness: Vec<(String, String)>,
        note: String,
        /// The pruned path condition the witness was drawn from: the inputs
        /// whose runs follow the stem and the passes of the cycle (with the
        /// data of two passes equated when that is how it was found).
        path_condition: Value,
    },
    /// No candidate was confirmed; why.
    Unconfirmed(String),
}

impl Product<'_> {
    /// The lasso `stem` + `cycle` (node sequences) as edges.
    pub(super) fn lasso_edges(&self, stem: &[usize], cycle: &[usize]) -> LassoEdges {
        let edges = |path: &[usize]| -> Vec<LassoEdge> {
            path.windows(2)
                .map(|w| {
                    let (u, v) = (w[0], w[1]);
                    let step = self.graph.edges[u]
                        .iter()
                        .position(|&(x, _)| x == v)
                        .and_then(|k| self.edge_steps[u][k].as_ref().map(StepKey::of));
                    LassoEdge {
                        step,
                        target: self.node_state[v].1,
                    }
                })
                .collect()
        };
        LassoEdges {
            initial: self.node_state[stem[0]].1,
            stem: edges(stem),
            cycle: edges(cycle),
        }
    }

    /// Prunes the lasso to the inputs that drive it, and confirms a witness.
    pub(super) fn prune_lasso(&mut self, lasso: &LassoEdges) -> Pruned {
        // The symbolic run must not mark the search's own verdict undecided.
        let undecided = self.undecided;
        let budget = Instant::now() + PRUNING_TIME;
        let saved_deadline = self.deadline;
        self.deadline = Some(self.deadline.map_or(budget, |d| d.min(budget)));
        let out = self
            .prune_symbolic(lasso)
            .unwrap_or_else(|e| Pruned::Unconfirmed(format!("the pruning stopped: {e}")));
        self.undecided = undecided;
        self.deadline = saved_deadline;
        out
    }

    fn prune_symbolic(&mut self, lasso: &LassoEdges) -> Result<Pruned, EngineError> {
        let initial = self.engine.initial_state()?;
        let initial = self.engine.canonicalize(initial);
        let Some(start) = self.label_states(initial, lasso.initial)?.pop() else {
            return Ok(Pruned::Unconfirmed(
                "the initial state does not satisfy the lasso's first literals".into(),
            ));
        };
        let Some(mut state) = self.follow(start, &lasso.stem)? else {
            return Ok(Pruned::Unconfirmed(
                "no input drives the steps to the cycle (the lasso is an artefact of set \
                 matching)"
                    .into(),
            ));
        };
        let mut passes = vec![state.clone()];
        let mut tried: Vec<Vec<(String, String)>> = Vec::new();
        let mut last_failure = String::new();
        for j in 1..=SYMBOLIC_PASSES {
            state = match self.follow(state, &lasso.cycle)? {
                Some(s) => s,
                None => {
                    return Ok(Pruned::Unconfirmed(format!(
                        "no input drives the cycle {j} times in a row (the lasso found by set \
                         matching may stand for no run){}",
                        failure_suffix(&last_failure)
                    )))
                }
            };
            passes.push(state.clone());
            for (candidate, path_condition) in self.candidates(&passes) {
                if self.deadline.is_some_and(|d| Instant::now() > d) {
                    break;
                }
                if tried.contains(&candidate) {
                    continue;
                }
                tried.push(candidate.clone());
                match self.confirm(&candidate, lasso) {
                    Ok(note) => {
                        return Ok(Pruned::Confirmed {
                            witness: candidate,
                            note,
                            path_condition,
                        })
                    }
                    Err(why) => last_failure = format!("{}: {why}", show(&candidate)),
                }
            }
        }
        Ok(Pruned::Unconfirmed(format!(
            "no input drawn from the lasso's pruned sets (stem and 1..{SYMBOLIC_PASSES} passes \
             of the cycle) was confirmed to repeat the cycle forever{}",
            failure_suffix(&last_failure)
        )))
    }

    /// `state` after `edges`, one symbolic run: each step's branch condition
    /// and each literal conjoined; `None` when no input follows them.
    fn follow(
        &mut self,
        mut state: State,
        edges: &[LassoEdge],
    ) -> Result<Option<State>, EngineError> {
        for edge in edges {
            let next = match edge.step {
                None if self.engine.is_terminated(&state) => state,
                None => return Ok(None),
                Some(key) => {
                    let steps = self.engine.ltl_enabled(&state)?;
                    let Some(step) = steps.into_iter().find(|s| StepKey::of(s) == key) else {
                        return Ok(None);
                    };
                    let executed = self.engine.execute(state, &step)?;
                    self.engine.canonicalize(executed.state)
                }
            };
            match self.label_states(next, edge.target)?.pop() {
                Some(s) if self.engine.ltl_witness(&s).is_some() => state = s,
                _ => return Ok(None),
            }
        }
        Ok(Some(state))
    }

    /// Witness candidates after the last of `passes` (the states at the
    /// start of each pass of one symbolic run): first those where the data
    /// of an earlier pass comes back, then any input of the pruned set; each
    /// with the path condition it was drawn from.
    fn candidates(&mut self, passes: &[State]) -> Vec<(Vec<(String, String)>, Value)> {
        let f = Arc::clone(&self.factory);
        let mut out = Vec::new();
        let last = passes.last().expect("at least one pass").clone();
        let last_parts = self.engine.ltl_control_data(&last);
        for earlier in &passes[..passes.len() - 1] {
            let (Some(a), Some(b)) = (self.engine.ltl_control_data(earlier), &last_parts) else {
                continue;
            };
            if a.control != b.control || a.data.len() != b.data.len() {
                continue;
            }
            let same = f.and_all(a.data.iter().zip(&b.data).map(|(&x, &y)| f.eq(x, y)));
            let closed = self.engine.ltl_assume(&last, same);
            if let Some(Some(values)) = self.engine.ltl_witness(&closed) {
                out.push((values, self.engine.path_condition(&closed)));
            }
        }
        if let Some(Some(values)) = self.engine.ltl_witness(&last) {
            out.push((values, self.engine.path_condition(&last)));
        }
        out
    }

    /// Runs `candidate` through the product again (inputs fixed, syntactic
    /// matching): `Ok(how)` when the lasso's steps repeat forever from it.
    fn confirm(
        &mut self,
        candidate: &[(String, String)],
        lasso: &LassoEdges,
    ) -> Result<String, String> {
        let mut options: Options = self.options.clone();
        options.matching = MatchMode::Syntactic;
        for (name, value) in candidate {
            // Element values (`a[0]`) cannot be fixed by `-i`: such an input
            // stays symbolic, and the run is still checked exactly.
            if !name.contains('[') && !options.inputs.iter().any(|(n, _)| n == name) {
                options.inputs.push((name.clone(), value.clone()));
            }
        }
        let mut engine = self
            .engine
            .with_options(&options)
            .map_err(|e| format!("the inputs cannot be fixed ({e})"))?;
        let mut replay = Product::new(&mut engine, self.atoms.clone(), self.aut.clone(), &options);
        replay.deadline = self.deadline;
        replay
            .replay_lasso(lasso)
            .map_err(|e| format!("the concrete run stopped: {e}"))?
    }

    /// Follows `lasso` from the initial state, its cycle until a pass starts
    /// in a product state an earlier pass started in; then asks whether the
    /// passes between are accepting and weakly fair.
    fn replay_lasso(&mut self, lasso: &LassoEdges) -> Result<Result<String, String>, EngineError> {
        let initial = self.engine.initial_state()?;
        let initial = self.engine.canonicalize(initial);
        let Some(start) = self.label_states(initial, lasso.initial)?.pop() else {
            return Ok(Err(
                "the initial state does not satisfy the first literals".into()
            ));
        };
        let (mut node, _, _) = self.intern(start, lasso.initial);
        self.graph.initial.push(node);
        let mut steps = 0usize;
        if let Err(why) = self.walk(&mut node, &lasso.stem, &mut steps)? {
            return Ok(Err(why));
        }
        let mut pass_of: HashMap<usize, usize> = HashMap::from([(node, 0)]);
        for pass in 1.. {
            if let Err(why) = self.walk(&mut node, &lasso.cycle, &mut steps)? {
                return Ok(Err(format!("pass {pass} of the cycle: {why}")));
            }
            if self.undecided {
                return Ok(Err("an atom is undecided with the inputs fixed".into()));
            }
            if let Some(&earlier) = pass_of.get(&node) {
                return Ok(self.fair_and_accepting(earlier, pass));
            }
            pass_of.insert(node, pass);
            if steps > CONCRETE_STEPS {
                return Ok(Err(format!(
                    "the state did not come back within {pass} passes of the cycle"
                )));
            }
            if self.deadline.is_some_and(|d| Instant::now() > d) {
                return Ok(Err(format!(
                    "the state did not come back within {pass} passes of the cycle (time \
                     limit of the pruning or --timeout)"
                )));
            }
        }
        unreachable!("the loop returns")
    }

    /// Takes `edges` from `node` in the product (exactly one successor per
    /// edge, every literal decided).
    fn walk(
        &mut self,
        node: &mut usize,
        edges: &[LassoEdge],
        steps: &mut usize,
    ) -> Result<Result<(), String>, EngineError> {
        for edge in edges {
            *steps += 1;
            let (state, _) = self.node_state[*node].clone();
            let (successors, enabled) = self.program_successors(&state)?;
            self.graph.enabled[*node] = enabled;
            let found: Option<&Successor> = successors
                .iter()
                .find(|(step, _, _, _)| step.as_ref().map(StepKey::of) == edge.step);
            let Some((step, next, moved, _)) = found.cloned() else {
                return Ok(Err("a step of the lasso is not enabled".into()));
            };
            let mut labelled = self.label_states(next, edge.target)?;
            let Some(t) = labelled.pop() else {
                return Ok(Err("an atom has the other value".into()));
            };
            let (target, _, _) = self.intern(t, edge.target);
            if !self.graph.edges[*node].contains(&(target, moved)) {
                self.graph.edges[*node].push((target, moved));
                self.edge_steps[*node].push(step);
            }
            *node = target;
        }
        Ok(Ok(()))
    }

    fn fair_and_accepting(&self, earlier: usize, pass: usize) -> Result<String, String> {
        let (sets, agents, fairness) = self.acceptance();
        let graph: &LassoGraph = &self.graph;
        match find_fair_lasso(graph, sets, agents, fairness) {
            Some(_) => Ok(format!(
                "confirmed by running the witness through the product with the inputs fixed: \
                 the state at the start of pass {pass} of the cycle is the one of pass \
                 {earlier}, and the passes between are accepting and fair (--fairness)"
            )),
            None => Err(format!(
                "the state comes back after pass {pass}, but the passes since {earlier} are \
                 not accepting and fair"
            )),
        }
    }
}

fn show(values: &[(String, String)]) -> String {
    values
        .iter()
        .map(|(n, v)| format!("{n} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn failure_suffix(failure: &str) -> String {
    if failure.is_empty() {
        String::new()
    } else {
        format!("; last candidate tried: {failure}")
    }
}
