//! Behaviour of the depth-first search on small explicit graphs.

use std::collections::{BTreeSet, HashSet};
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use proptest::prelude::*;
use tass_search::api::{Control, Limit, Limits, Outcome, Search, TransitionSystem};

/// An explicit directed graph: node i's successors are `edges[i]`.
struct Graph {
    edges: Vec<Vec<usize>>,
    saved: HashSet<usize>,
    checked: Vec<usize>,
    stop_at: Option<usize>,
    paths_to_stop: Vec<Vec<usize>>,
    save_only: Option<fn(usize) -> bool>,
}

impl Graph {
    fn new(edges: Vec<Vec<usize>>) -> Graph {
        Graph {
            edges,
            saved: HashSet::new(),
            checked: Vec::new(),
            stop_at: None,
            paths_to_stop: Vec::new(),
            save_only: None,
        }
    }
}

impl TransitionSystem for Graph {
    type State = usize;
    type Transition = usize; // the target node
    type Error = String;

    fn enabled(&mut self, s: &usize) -> Result<Vec<usize>, String> {
        self.edges
            .get(*s)
            .cloned()
            .ok_or_else(|| format!("no node {s}"))
    }
    fn next(&mut self, _: usize, t: &usize) -> Result<usize, String> {
        Ok(*t)
    }
    fn check(&mut self, s: &usize, path: &[usize]) -> Control {
        self.checked.push(*s);
        if Some(*s) == self.stop_at {
            self.paths_to_stop.push(path.to_vec());
            return Control::Stop;
        }
        Control::Continue
    }
    fn should_save(&mut self, s: &usize) -> bool {
        self.save_only.is_none_or(|f| f(*s))
    }
    fn save(&mut self, s: &usize) -> bool {
        self.saved.insert(*s)
    }
}

fn reachable(edges: &[Vec<usize>], from: usize) -> BTreeSet<usize> {
    let mut seen = BTreeSet::from([from]);
    let mut todo = vec![from];
    while let Some(n) = todo.pop() {
        for &m in &edges[n] {
            if seen.insert(m) {
                todo.push(m);
            }
        }
    }
    seen
}

#[test]
fn diamond_is_explored_once_per_state() {
    // 0 -> {1, 2} -> 3 -> 4
    let mut g = Graph::new(vec![vec![1, 2], vec![3], vec![3], vec![4], vec![]]);
    let report = Search::default().run(&mut g, 0);
    assert!(matches!(report.outcome, Outcome::Complete));
    assert_eq!(report.stats.states_saved, 5);
    assert_eq!(report.stats.states_matched, 1); // 3 reached again through 2
    assert_eq!(report.stats.states_pushed, 1); // only 0 branches
    assert_eq!(g.checked, vec![0, 1, 3, 4, 2, 3]);
}

#[test]
fn path_to_a_state_is_the_dfs_path() {
    let mut g = Graph::new(vec![vec![1, 2], vec![], vec![3], vec![]]);
    g.stop_at = Some(3);
    let report = Search::default().run(&mut g, 0);
    assert!(matches!(report.outcome, Outcome::Stopped));
    assert_eq!(g.paths_to_stop, vec![vec![2, 3]]);
}

#[test]
fn a_million_step_chain_does_not_overflow_the_stack() {
    let n = 1_000_000;
    let edges: Vec<Vec<usize>> = (0..n)
        .map(|i| if i + 1 < n { vec![i + 1] } else { vec![] })
        .collect();
    let mut g = Graph::new(edges);
    let report = Search::default().run(&mut g, 0);
    assert!(matches!(report.outcome, Outcome::Complete));
    assert_eq!(report.stats.states_seen, n as u64);
    assert_eq!(report.stats.max_depth, n as u64 - 1);
}

#[test]
fn unsaved_states_are_revisited_and_cycles_still_end_at_saved_ones() {
    // A cycle 0 -> 1 -> 2 -> 0; only node 0 is saved: the search must still end.
    let mut g = Graph::new(vec![vec![1], vec![2], vec![0]]);
    g.save_only = Some(|s| s == 0);
    let report = Search::default().run(&mut g, 0);
    assert!(matches!(report.outcome, Outcome::Complete));
    assert_eq!(report.stats.states_saved, 1);
    assert_eq!(g.checked, vec![0, 1, 2, 0]);
}

#[test]
fn max_states_limit_is_reported() {
    let mut g = Graph::new(vec![vec![1], vec![2], vec![3], vec![0]]);
    let limits = Limits {
        max_states: Some(2),
        ..Limits::default()
    };
    let report = Search::new(limits).run(&mut g, 0);
    assert!(matches!(
        report.outcome,
        Outcome::LimitReached(Limit::MaxStates)
    ));
    assert_eq!(report.stats.states_seen, 2);
}

#[test]
fn cancellation_is_reported() {
    let mut g = Graph::new(vec![vec![0]]);
    let flag = Arc::new(AtomicBool::new(true));
    let limits = Limits {
        cancel: Some(flag),
        ..Limits::default()
    };
    let report = Search::new(limits).run(&mut g, 0);
    assert!(matches!(
        report.outcome,
        Outcome::LimitReached(Limit::Cancelled)
    ));
}

#[test]
fn errors_from_the_system_end_the_search() {
    let mut g = Graph::new(vec![vec![1, 7], vec![]]);
    let report = Search::default().run(&mut g, 0);
    match report.outcome {
        Outcome::Error(message) => assert_eq!(message, "no node 7"),
        other => panic!("expected an error, got {other:?}"),
    }
}

proptest! {
    /// On random graphs, the saved states are exactly the reachable ones.
    #[test]
    fn saves_exactly_the_reachable_states(
        edges in proptest::collection::vec(proptest::collection::vec(0usize..12, 0..4), 12)
    ) {
        let expected = reachable(&edges, 0);
        let mut g = Graph::new(edges);
        let report = Search::default().run(&mut g, 0);
        prop_assert!(matches!(report.outcome, Outcome::Complete));
        let saved: BTreeSet<usize> = g.saved.into_iter().collect();
        prop_assert_eq!(saved, expected);
    }
}
