//! The fair-cycle part of the livelock check: a polling loop that *can* end
//! but need not, because MPI promises no fairness among the messages a
//! wildcard probe matches. `MPI_Iprobe(MPI_ANY_SOURCE, ...)` may report the
//! same sender's message every time (MPI 4.0, 3.5: "MPI makes no guarantee of
//! fairness in the handling of communication"; Open MPI keeps reporting the
//! older message), so a loop that waits until the probe reports one
//! particular sender spins for ever on such an MPI although another answer
//! would let it go on.
//!
//! The closure of the state (every state reachable by local code and polls,
//! as in the livelock check, but explored to the end rather than stopped at
//! the first progress) is a graph; progress steps leave it. The processes can
//! spin for ever if some strongly connected part of it admits an infinite run
//! that MPI and the scheduler allow:
//!
//! * every process enabled in all its states moves in it (weak fairness of
//!   processes: one that can always move eventually does);
//! * a probe that misses a message it could see also finds one, from any
//!   sender, somewhere in it (MPI's progress rule: a probe repeated while a
//!   matching message is there eventually reports one; which one is not
//!   promised);
//! * a test whose request could complete never fails in it (the progress
//!   rule again: repeated, it succeeds, which is progress).
//!
//! Such a part is found with the usual refinement: strongly connected
//! components, dropping the misses of a probe that finds nothing in its
//! component and splitting again.

use std::collections::{HashMap, HashSet};

use tass_model::api::{FunctionId, TransitionId};
use tass_state::api::{PollOutcome, State, Step};

use super::{Role, CLOSURE_LIMIT};
use crate::real::RealEngine;

/// A poll call of one process: (process, function, transition).
type PollSite = (usize, FunctionId, TransitionId);

/// What an edge of the closure is, for the fairness rules.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EdgeKind {
    /// Local code, or a poll that finds nothing when there is nothing to find.
    Plain,
    /// A probe that reports a message.
    Found(PollSite),
    /// A probe that reports nothing although it could report a message.
    Missed(PollSite),
}

#[derive(Clone, Copy, Debug)]
struct Edge {
    to: usize,
    process: usize,
    kind: EdgeKind,
}

/// A state of the closure: the processes that can move there (by any step,
/// progress included) and its steps inside the closure.
#[derive(Debug, Default)]
struct Node {
    enabled: Vec<usize>,
    edges: Vec<Edge>,
}

/// How the fair search of a closure ended.
pub(super) enum FairSearch {
    /// The processes can spin for ever: a state of such a cycle.
    Spins(State),
    /// Every infinite run without progress is unfair.
    Ends,
    /// Not explored to the end (too big, or an error: why).
    TooBig(String),
}

impl RealEngine {
    /// Whether a process at `state` has one probe that can report messages of
    /// two senders (where MPI's lack of fairness can matter).
    pub(super) fn wildcard_choice_at(&mut self, state: &State, steps: &[Step]) -> bool {
        let mut found: HashMap<PollSite, usize> = HashMap::new();
        for step in steps {
            if self.is_iprobe(step)
                && self.engine.poll_outcome(state, step) == Some(PollOutcome::Something)
            {
                *found.entry(site(step)).or_default() += 1;
            }
        }
        found.values().any(|&n| n >= 2)
    }

    /// Explores the whole closure of `root` (canonical) and looks for a cycle
    /// MPI and the scheduler allow to go on for ever (see the module comment).
    /// Every state explored is added to `explored`.
    pub(super) fn fair_search(&mut self, root: State, explored: &mut HashSet<State>) -> FairSearch {
        let mut index: HashMap<State, usize> = HashMap::from([(root.clone(), 0)]);
        let mut states = vec![root];
        let mut nodes: Vec<Node> = Vec::new();
        let mut next_to_expand = 0;
        while next_to_expand < states.len() {
            let state = states[next_to_expand].clone();
            next_to_expand += 1;
            let node = match self.fair_node(&state) {
                Ok(node) => node,
                Err(why) => {
                    explored.extend(states);
                    return FairSearch::TooBig(why);
                }
            };
            let mut edges = Vec::with_capacity(node.len());
            let mut enabled = Vec::new();
            for (step, kind) in node {
                if !enabled.contains(&step.process) {
                    enabled.push(step.process);
                }
                let Some(kind) = kind else { continue };
                let next = match self.engine.execute(state.clone(), &step) {
                    // a step that goes wrong ends the run there (the search
                    // itself reports it): no edge
                    Ok(outcome) if !outcome.violations.is_empty() => continue,
                    Ok(outcome) => self.engine.canonicalize(outcome.state),
                    Err(error) => {
                        explored.extend(states);
                        return FairSearch::TooBig(format!("met an error ({error})"));
                    }
                };
                let to = match index.get(&next) {
                    Some(&to) => to,
                    None => {
                        if states.len() >= CLOSURE_LIMIT {
                            explored.extend(states);
                            return FairSearch::TooBig(format!(
                                "stopped after {CLOSURE_LIMIT} states"
                            ));
                        }
                        index.insert(next.clone(), states.len());
                        states.push(next);
                        states.len() - 1
                    }
                };
                edges.push(Edge {
                    to,
                    process: step.process,
                    kind,
                });
            }
            nodes.push(Node { enabled, edges });
        }
        let found = fair_cycle(&nodes).map(|at| states[at].clone());
        explored.extend(states);
        match found {
            Some(state) => FairSearch::Spins(state),
            None => FairSearch::Ends,
        }
    }

    /// The steps enabled at `state` that count for fairness, each with its
    /// edge kind (`None`: the step leaves the closure: progress, or a test
    /// that fails although it could succeed, which MPI's progress rule lets
    /// happen only finitely often). Steps that need a buffer under
    /// `--deadlock potential` are left out (the process waits, as zero-buffer
    /// MPI runs it).
    fn fair_node(&mut self, state: &State) -> Result<Vec<(Step, Option<EdgeKind>)>, String> {
        if self.engine.is_vacuous(state) || self.engine.is_terminated(state) {
            return Ok(Vec::new());
        }
        let steps = self
            .engine
            .enabled(state)
            .map_err(|error| format!("met an error ({error})"))?;
        let roles: Vec<Role> = steps.iter().map(|s| self.role(state, s)).collect();
        let mut found_sites = HashSet::new();
        let mut completing_sites = HashSet::new();
        for (step, role) in steps.iter().zip(&roles) {
            match role {
                Role::Local if self.is_iprobe(step) => {
                    found_sites.insert(site(step));
                }
                Role::Progress => {
                    completing_sites.insert(site(step));
                }
                _ => {}
            }
        }
        // A standard send that waits for a buffer (`--deadlock potential`)
        // has still started: a probe that would see its message is not
        // followed here without it (the search reaches the state where it
        // was buffered and checks that one).
        let mut blocked_sends = steps
            .iter()
            .zip(&roles)
            .filter(|(_, role)| matches!(role, Role::NeedsBuffering));
        if blocked_sends.any(|(send, _)| self.a_probe_sees(state, send)) {
            return Ok(steps.into_iter().map(|step| (step, None)).collect());
        }
        let mut node = Vec::new();
        for (step, role) in steps.iter().zip(roles) {
            let s = site(step);
            let kind = match role {
                Role::NeedsBuffering => continue,
                Role::Progress => None,
                Role::Local if found_sites.contains(&s) && self.is_iprobe(step) => {
                    Some(EdgeKind::Found(s))
                }
                Role::Local => Some(EdgeKind::Plain),
                Role::FailedPoll(failed) => {
                    let kind = if found_sites.contains(&s) {
                        Some(EdgeKind::Missed(s))
                    } else if completing_sites.contains(&s) {
                        None
                    } else {
                        Some(EdgeKind::Plain)
                    };
                    node.push((failed, kind));
                    continue;
                }
            };
            node.push((step.clone(), kind));
        }
        Ok(node)
    }
}

fn site(step: &Step) -> PollSite {
    (step.process, step.function, step.transition)
}

/// A node on a cycle of `nodes` that satisfies the fairness rules of the
/// module comment, if there is one.
fn fair_cycle(nodes: &[Node]) -> Option<usize> {
    let mut removed: HashSet<(usize, usize)> = HashSet::new();
    let mut work: Vec<Vec<usize>> = vec![(0..nodes.len()).collect()];
    while let Some(subset) = work.pop() {
        for component in components(nodes, &subset, &removed) {
            let members: HashSet<usize> = component.iter().copied().collect();
            let internal: Vec<(usize, usize, Edge)> = component
                .iter()
                .flat_map(|&v| {
                    nodes[v]
                        .edges
                        .iter()
                        .enumerate()
                        .map(move |(k, e)| (v, k, *e))
                })
                .filter(|(v, k, e)| members.contains(&e.to) && !removed.contains(&(*v, *k)))
                .collect();
            if internal.is_empty() {
                continue; // one state without a step back to itself
            }
            let movers: HashSet<usize> = internal.iter().map(|(_, _, e)| e.process).collect();
            let always_enabled = nodes[component[0]]
                .enabled
                .iter()
                .filter(|p| component.iter().all(|&v| nodes[v].enabled.contains(p)));
            if always_enabled.into_iter().any(|p| !movers.contains(p)) {
                continue; // a process that can always move never does: unfair
            }
            let found: HashSet<PollSite> = internal
                .iter()
                .filter_map(|(_, _, e)| match e.kind {
                    EdgeKind::Found(s) => Some(s),
                    _ => None,
                })
                .collect();
            let unfair: Vec<(usize, usize)> = internal
                .iter()
                .filter(|(_, _, e)| matches!(e.kind, EdgeKind::Missed(s) if !found.contains(&s)))
                .map(|(v, k, _)| (*v, *k))
                .collect();
            if unfair.is_empty() {
                return Some(component[0]);
            }
            removed.extend(unfair);
            work.push(component);
        }
    }
    None
}

/// The strongly connected components of the graph `nodes` restricted to
/// `subset` and to the edges not `removed` (Tarjan's algorithm, iterative).
fn components(
    nodes: &[Node],
    subset: &[usize],
    removed: &HashSet<(usize, usize)>,
) -> Vec<Vec<usize>> {
    let inside: HashSet<usize> = subset.iter().copied().collect();
    let mut order: HashMap<usize, usize> = HashMap::new();
    let mut low: HashMap<usize, usize> = HashMap::new();
    let mut on_stack: HashSet<usize> = HashSet::new();
    let mut stack: Vec<usize> = Vec::new();
    let mut result = Vec::new();
    for &start in subset {
        if order.contains_key(&start) {
            continue;
        }
        // (node, next edge to look at)
        let mut calls: Vec<(usize, usize)> = vec![(start, 0)];
        order.insert(start, order.len());
        low.insert(start, order[&start]);
        stack.push(start);
        on_stack.insert(start);
        while let Some(&mut (v, ref mut k)) = calls.last_mut() {
            let edges = &nodes[v].edges;
            if *k < edges.len() {
                let (edge, w) = (*k, edges[*k].to);
                *k += 1;
                if removed.contains(&(v, edge)) || !inside.contains(&w) {
                    continue;
                }
                if let Some(&ow) = order.get(&w) {
                    if on_stack.contains(&w) {
                        low.insert(v, low[&v].min(ow));
                    }
                } else {
                    order.insert(w, order.len());
                    low.insert(w, order[&w]);
                    stack.push(w);
                    on_stack.insert(w);
                    calls.push((w, 0));
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low.insert(parent, low[&parent].min(low[&v]));
            }
            if low[&v] == order[&v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack.remove(&w);
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                result.push(component);
            }
        }
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(enabled: &[usize], edges: &[(usize, usize, EdgeKind)]) -> Node {
        Node {
            enabled: enabled.to_vec(),
            edges: edges
                .iter()
                .map(|&(to, process, kind)| Edge { to, process, kind })
                .collect(),
        }
    }

    fn probe() -> PollSite {
        (0, FunctionId(0), TransitionId::new(0))
    }

    #[test]
    fn a_probe_that_keeps_reporting_one_sender_spins() {
        // 0 --found 1--> 1 --loop--> 0; 0 --found 2--> leaves (no edge)
        let nodes = [
            node(&[0], &[(1, 0, EdgeKind::Found(probe()))]),
            node(&[0], &[(0, 0, EdgeKind::Plain)]),
        ];
        assert!(fair_cycle(&nodes).is_some());
    }

    #[test]
    fn a_probe_that_only_misses_its_message_does_not_spin() {
        let nodes = [
            node(&[0], &[(1, 0, EdgeKind::Missed(probe()))]),
            node(&[0], &[(0, 0, EdgeKind::Plain)]),
        ];
        assert!(fair_cycle(&nodes).is_none());
    }

    #[test]
    fn a_process_that_can_always_move_moves() {
        // process 1 is enabled everywhere (its step is progress: no edge)
        let nodes = [
            node(&[0, 1], &[(1, 0, EdgeKind::Plain)]),
            node(&[0, 1], &[(0, 0, EdgeKind::Plain)]),
        ];
        assert!(fair_cycle(&nodes).is_none());
        // enabled in one state only: it need not move
        let nodes = [
            node(&[0, 1], &[(1, 0, EdgeKind::Plain)]),
            node(&[0], &[(0, 0, EdgeKind::Plain)]),
        ];
        assert!(fair_cycle(&nodes).is_some());
    }

    #[test]
    fn components_split_at_removed_misses() {
        // 0 -missed-> 1 -> 0 and 1 -found-> 2 -> 1: the second loop is fair
        let nodes = [
            node(&[0], &[(1, 0, EdgeKind::Missed(probe()))]),
            node(
                &[0],
                &[(0, 0, EdgeKind::Plain), (2, 0, EdgeKind::Found(probe()))],
            ),
            node(&[0], &[(1, 0, EdgeKind::Plain)]),
        ];
        assert!(fair_cycle(&nodes).is_some());
        let alone = [
            node(&[0], &[(1, 0, EdgeKind::Missed(probe()))]),
            node(&[0], &[(0, 0, EdgeKind::Plain)]),
            node(&[0], &[]),
        ];
        assert!(fair_cycle(&alone).is_none());
    }
}
