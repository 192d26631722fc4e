//! Accepting, weakly fair cycles in an explicit graph: the emptiness check of a
//! generalized Büchi automaton under weak fairness, used by the LTL search.
//!
//! Nodes carry the acceptance sets they belong to and the *agents* (processes)
//! enabled at them; edges carry the agents that move along them. A run is
//! weakly fair when every agent that is enabled from some point on forever
//! moves infinitely often. An accepting, weakly fair lasso exists iff some
//! strongly connected component `C` with at least one edge inside it
//! (1) meets every acceptance set and (2) for every agent `a`, either an edge
//! of `C` moves `a` or `a` is disabled at some node of `C`. If (2) fails for
//! `a`, every cycle inside `C` keeps `a` enabled and never moves it, so no
//! sub-component helps (unlike strong fairness, no recursion is needed); if
//! both hold, the cycle through all the required nodes and edges of `C` is
//! accepting and fair. Components are found with Tarjan's algorithm, run
//! iteratively so that long paths cannot overflow the call stack.
//!
//! MPI's progress rule adds one condition. An edge may be a *stalled poll* of
//! an agent: a test or probe that finds nothing although, in that state, it
//! could find something (a request that can complete, a matching message).
//! MPI lets a poll fail so only finitely often while the same request or
//! message stays: a run that repeats a stalled poll for ever, while the agent
//! never completes a request nor takes a message (no edge *consumes* for it),
//! keeps testing the same completable operation and is not an MPI run. So in a
//! component where some agent has stalled polls but no consuming edge, those
//! polls are removed and the component is split again (Emerson-Lei style).
//! Only edges no MPI run can repeat for ever are removed, and consuming is
//! over-approximated by the caller, so no real lasso is lost.

use std::collections::VecDeque;

/// A bit set of acceptance sets or agents (at most 64 of each).
pub type Bits = u64;

/// An explicit graph for [`find_fair_lasso`].
#[derive(Clone, Debug, Default)]
pub struct LassoGraph {
    /// Per node: its edges `(target, agents moving)`.
    pub edges: Vec<Vec<(usize, Bits)>>,
    /// Per node: the acceptance sets it belongs to.
    pub accepting: Vec<Bits>,
    /// Per node: the agents enabled there.
    pub enabled: Vec<Bits>,
    /// The initial nodes.
    pub initial: Vec<usize>,
    /// Per node, per edge (as in `edges`; missing entries are 0): the agents
    /// for which the edge is a stalled poll (see the module comment).
    pub stalled: Vec<Vec<Bits>>,
    /// Per node, per edge (missing entries are 0): the agents for which the
    /// edge may complete a request or take a message.
    pub consumes: Vec<Vec<Bits>>,
}

/// Whether the cycle must be weakly fair to the agents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fairness {
    /// Every agent enabled forever moves infinitely often.
    Weak,
    /// Any cycle.
    None,
}

/// A lasso: `stem` (from an initial node to the cycle's first node, both
/// included) and `cycle` (from that node back to itself, the first node
/// repeated at the end). Both are node sequences along edges of the graph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lasso {
    pub stem: Vec<usize>,
    pub cycle: Vec<usize>,
}

impl LassoGraph {
    /// Adds a node; returns its index.
    /// Adds an edge from `from` to `to` moving `agents`, with its progress-rule
    /// marks (`stalled`, `consumes`).
    pub fn add_edge(
        &mut self,
        from: usize,
        to: usize,
        agents: Bits,
        (stalled, consumes): (Bits, Bits),
    ) {
        let k = self.edges[from].len();
        self.edges[from].push((to, agents));
        for (marks, bits) in [(&mut self.stalled, stalled), (&mut self.consumes, consumes)] {
            if bits != 0 {
                marks[from].resize(k, 0);
                marks[from].push(bits);
            }
        }
    }

    fn mark(marks: &[Vec<Bits>], v: usize, k: usize) -> Bits {
        marks.get(v).and_then(|m| m.get(k)).copied().unwrap_or(0)
    }

    pub fn add_node(&mut self, accepting: Bits, enabled: Bits) -> usize {
        self.edges.push(Vec::new());
        self.stalled.push(Vec::new());
        self.consumes.push(Vec::new());
        self.accepting.push(accepting);
        self.enabled.push(enabled);
        self.edges.len() - 1
    }
}

/// An accepting (every set of `all_sets` met infinitely often), fair lasso
/// of `graph` reachable from its initial nodes, if there is one.
pub fn find_fair_lasso(
    graph: &LassoGraph,
    all_sets: Bits,
    all_agents: Bits,
    fairness: Fairness,
) -> Option<Lasso> {
    let everything = |_: usize| true;
    let mut removed: std::collections::HashSet<(usize, usize)> = Default::default();
    let mut work = tarjan(graph, &graph.initial, &everything, &|_, _| true);
    while let Some(members) = work.pop() {
        let member: std::collections::HashSet<usize> = members.iter().copied().collect();
        let inside = |v: usize| member.contains(&v);
        let kept = |v: usize, k: usize| !removed.contains(&(v, k));
        let mut sets = 0;
        let mut moved = 0;
        let mut disabled = 0;
        let mut stalled = 0;
        let mut consumes = 0;
        let mut has_edge = false;
        for &v in &members {
            sets |= graph.accepting[v];
            disabled |= all_agents & !graph.enabled[v];
            for (k, &(w, agents)) in graph.edges[v].iter().enumerate() {
                if inside(w) && kept(v, k) {
                    has_edge = true;
                    moved |= agents;
                    stalled |= LassoGraph::mark(&graph.stalled, v, k);
                    consumes |= LassoGraph::mark(&graph.consumes, v, k);
                }
            }
        }
        let fair = fairness == Fairness::None || (moved | disabled) & all_agents == all_agents;
        if !(has_edge && sets & all_sets == all_sets && fair) {
            // Sub-components meet fewer sets, and an agent enabled
            // everywhere here that never moves stays so in them.
            continue;
        }
        let starved_polls = stalled & !consumes;
        if fairness == Fairness::Weak && starved_polls != 0 {
            for &v in &members {
                for k in 0..graph.edges[v].len() {
                    if LassoGraph::mark(&graph.stalled, v, k) & starved_polls != 0 {
                        removed.insert((v, k));
                    }
                }
            }
            let kept = |v: usize, k: usize| !removed.contains(&(v, k));
            work.extend(tarjan(graph, &members, &inside, &kept));
            continue;
        }
        let kept = |v: usize, k: usize| !removed.contains(&(v, k));
        let within = Within {
            inside: &inside,
            kept: &kept,
        };
        return Some(lasso_through(
            graph, &members, within, all_sets, all_agents, fairness,
        ));
    }
    None
}

/// The part of the graph a cycle may use: its nodes and its edges (node,
/// index in `edges`).
#[derive(Clone, Copy)]
struct Within<'a> {
    inside: &'a dyn Fn(usize) -> bool,
    kept: &'a dyn Fn(usize, usize) -> bool,
}

/// The strongly connected components reachable from `roots` through the
/// nodes `inside` accepts and the edges `kept` accepts (node, edge index).
fn tarjan(
    graph: &LassoGraph,
    roots: &[usize],
    inside: &dyn Fn(usize) -> bool,
    kept: &dyn Fn(usize, usize) -> bool,
) -> Vec<Vec<usize>> {
    let n = graph.edges.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut components = Vec::new();
    let mut counter = 0;
    for &root in roots {
        if index[root] != usize::MAX {
            continue;
        }
        // (node, next edge to look at)
        let mut work: Vec<(usize, usize)> = vec![(root, 0)];
        index[root] = counter;
        low[root] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut next)) = work.last_mut() {
            if let Some(&(w, _)) = graph.edges[v].get(*next) {
                let k = *next;
                *next += 1;
                if !inside(w) || !kept(v, k) {
                    continue;
                }
                if index[w] == usize::MAX {
                    index[w] = counter;
                    low[w] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut members = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    members.push(w);
                    if w == v {
                        break;
                    }
                }
                components.push(members);
            }
        }
    }
    components
}

/// Breadth-first path from any of `from` to the first node `goal` accepts,
/// using only nodes `allowed` accepts (the start nodes included).
fn path(
    graph: &LassoGraph,
    from: &[usize],
    allowed: Within<'_>,
    goal: &dyn Fn(usize) -> bool,
) -> Option<Vec<usize>> {
    let mut parent: std::collections::HashMap<usize, usize> = Default::default();
    let mut queue: VecDeque<usize> = VecDeque::new();
    for &s in from {
        if parent.insert(s, usize::MAX).is_none() {
            queue.push_back(s);
        }
    }
    while let Some(v) = queue.pop_front() {
        if goal(v) {
            let mut out = vec![v];
            let mut at = v;
            while let Some(&p) = parent.get(&at) {
                if p == usize::MAX {
                    break;
                }
                out.push(p);
                at = p;
            }
            out.reverse();
            return Some(out);
        }
        for (k, &(w, _)) in graph.edges[v].iter().enumerate() {
            if (allowed.inside)(w) && (allowed.kept)(v, k) && !parent.contains_key(&w) {
                parent.insert(w, v);
                queue.push_back(w);
            }
        }
    }
    None
}

/// A lasso whose cycle stays in the component `members` and passes through
/// a node of every acceptance set and, per agent, an edge moving it or a node
/// where it is disabled.
fn lasso_through(
    graph: &LassoGraph,
    members: &[usize],
    within: Within<'_>,
    all_sets: Bits,
    all_agents: Bits,
    fairness: Fairness,
) -> Lasso {
    let inside = within.inside;
    let anywhere = Within {
        inside: &|_| true,
        kept: &|_, _| true,
    };
    let stem = path(graph, &graph.initial, anywhere, inside).unwrap_or_default();
    let start = *stem.last().unwrap_or(&members[0]);
    // waypoints: (node, then an edge to this node, if any)
    let mut waypoints: Vec<(usize, Option<usize>)> = Vec::new();
    for set in 0..64 {
        let bit = 1u64 << set;
        if all_sets & bit != 0 {
            if let Some(&v) = members.iter().find(|&&v| graph.accepting[v] & bit != 0) {
                waypoints.push((v, None));
            }
        }
    }
    if fairness == Fairness::Weak {
        for agent in 0..64 {
            let bit = 1u64 << agent;
            if all_agents & bit == 0 {
                continue;
            }
            if let Some(&v) = members.iter().find(|&&v| graph.enabled[v] & bit == 0) {
                waypoints.push((v, None));
                continue;
            }
            let edge = members.iter().find_map(|&v| {
                graph.edges[v]
                    .iter()
                    .enumerate()
                    .find(|&(k, &(w, agents))| {
                        inside(w) && (within.kept)(v, k) && agents & bit != 0
                    })
                    .map(|(_, &(w, _))| (v, Some(w)))
            });
            if let Some(e) = edge {
                waypoints.push(e);
            }
        }
    }
    let mut cycle = vec![start];
    let mut at = start;
    for (v, then) in waypoints {
        let leg = path_inside(graph, at, within, v, false);
        cycle.extend(leg.into_iter().skip(1));
        at = v;
        if let Some(w) = then {
            cycle.push(w);
            at = w;
        }
    }
    // back to the start, by at least one edge
    let back = path_inside(graph, at, within, start, cycle.len() == 1);
    cycle.extend(back.into_iter().skip(1));
    Lasso { stem, cycle }
}

/// A path inside the component from `from` to `to`; with `nonempty`, at
/// least one edge long even when `from == to`.
fn path_inside(
    graph: &LassoGraph,
    from: usize,
    within: Within<'_>,
    to: usize,
    nonempty: bool,
) -> Vec<usize> {
    if from == to && !nonempty {
        return vec![from];
    }
    let successors: Vec<usize> = graph.edges[from]
        .iter()
        .enumerate()
        .filter(|&(k, &(w, _))| (within.inside)(w) && (within.kept)(from, k))
        .map(|(_, &(w, _))| w)
        .collect();
    if successors.contains(&to) {
        return vec![from, to];
    }
    let rest = path(graph, &successors, within, &|v| v == to).unwrap_or_default();
    std::iter::once(from).chain(rest).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(n: usize, edges: &[(usize, usize, Bits)], accepting: &[usize]) -> LassoGraph {
        let mut g = LassoGraph::default();
        for v in 0..n {
            let acc = if accepting.contains(&v) { 1 } else { 0 };
            g.add_node(acc, 0b11);
        }
        for &(a, b, agents) in edges {
            g.edges[a].push((b, agents));
        }
        g.initial = vec![0];
        g
    }

    fn is_cycle(g: &LassoGraph, l: &Lasso) -> bool {
        let along = |p: &[usize]| {
            p.windows(2)
                .all(|w| g.edges[w[0]].iter().any(|e| e.0 == w[1]))
        };
        l.cycle.len() >= 2 && l.cycle.first() == l.cycle.last() && along(&l.cycle) && along(&l.stem)
    }

    #[test]
    fn finds_an_accepting_cycle_and_misses_a_non_accepting_one() {
        // 0 -> 1 -> 2 -> 1, accepting 2
        let g = graph(3, &[(0, 1, 1), (1, 2, 1), (2, 1, 2)], &[2]);
        let l = find_fair_lasso(&g, 1, 0b11, Fairness::Weak).expect("lasso");
        assert!(is_cycle(&g, &l), "{l:?}");
        assert!(l.cycle.contains(&2));
        let g = graph(3, &[(0, 1, 1), (1, 2, 1), (2, 1, 2)], &[0]);
        assert_eq!(find_fair_lasso(&g, 1, 0b11, Fairness::Weak), None);
    }

    #[test]
    fn weak_fairness_rejects_a_cycle_that_starves_an_enabled_agent() {
        // agent 1 (bit 2) is enabled everywhere and never moves on the cycle
        let g = graph(2, &[(0, 1, 1), (1, 1, 1)], &[1]);
        assert_eq!(find_fair_lasso(&g, 1, 0b11, Fairness::Weak), None);
        assert!(find_fair_lasso(&g, 1, 0b11, Fairness::None).is_some());
        // a second loop in which agent 1 moves makes it fair
        let g = graph(3, &[(0, 1, 1), (1, 1, 1), (1, 2, 2), (2, 1, 1)], &[1]);
        let l = find_fair_lasso(&g, 1, 0b11, Fairness::Weak).expect("lasso");
        assert!(is_cycle(&g, &l), "{l:?}");
        assert!(l.cycle.contains(&2), "{l:?}");
    }

    /// Agent 0 (bit 1) polls at node 1 and finds nothing although it could
    /// (edge 1 -> 1 is a stalled poll); its success 1 -> 2 leads on.
    fn polling(consumes_in_loop: bool) -> LassoGraph {
        let mut g = LassoGraph::default();
        for acc in [0, 1, 0] {
            g.add_node(acc, 0b1);
        }
        g.add_edge(0, 1, 1, (0, 0));
        g.add_edge(1, 1, 1, (1, if consumes_in_loop { 1 } else { 0 }));
        g.add_edge(1, 2, 1, (0, 1));
        g.add_edge(2, 2, 1, (0, 0));
        g.initial = vec![0];
        g
    }

    #[test]
    fn a_poll_stalled_for_ever_is_not_an_mpi_run() {
        // Accepting only at node 1: the only cycle there repeats the stalled
        // poll and consumes nothing.
        let g = polling(false);
        assert_eq!(find_fair_lasso(&g, 1, 0b1, Fairness::Weak), None);
        // Without fairness any cycle counts.
        assert!(find_fair_lasso(&g, 1, 0b1, Fairness::None).is_some());
        // If the loop may consume (another request completed each round),
        // the cycle is kept: consuming is over-approximated, never lost.
        let g = polling(true);
        let l = find_fair_lasso(&g, 1, 0b1, Fairness::Weak).expect("lasso");
        assert_eq!(l.cycle, vec![1, 1]);
    }

    #[test]
    fn removing_stalled_polls_keeps_the_other_cycles_of_the_component() {
        // 1 -> 1 stalled poll, 1 -> 3 -> 1 a real round (a local step and a
        // consuming step of agent 0, both fine); accepting at 1.
        let mut g = LassoGraph::default();
        for acc in [0, 1, 0, 0] {
            g.add_node(acc, 0b1);
        }
        g.add_edge(0, 1, 1, (0, 0));
        g.add_edge(1, 1, 1, (1, 0));
        g.add_edge(1, 3, 1, (0, 0));
        g.add_edge(3, 1, 1, (0, 0));
        g.initial = vec![0];
        let l = find_fair_lasso(&g, 1, 0b1, Fairness::Weak).expect("lasso");
        assert!(is_cycle(&g, &l), "{l:?}");
        assert!(l.cycle.contains(&3), "{l:?}");
        assert!(!l.cycle.windows(2).any(|w| w == [1, 1]), "{l:?}");
    }

    #[test]
    fn a_self_loop_where_nothing_is_enabled_is_fair() {
        let mut g = graph(2, &[(0, 1, 1), (1, 1, 0)], &[1]);
        g.enabled[1] = 0;
        let l = find_fair_lasso(&g, 1, 0b11, Fairness::Weak).expect("lasso");
        assert_eq!(l.cycle, vec![1, 1]);
        assert_eq!(l.stem, vec![0, 1]);
    }
}
