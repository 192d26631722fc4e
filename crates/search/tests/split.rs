//! A split search (`Search::run_part`): the parts together check every
//! reachable state and take every reachable edge, for any cut and any number
//! of parts, on random graphs with cycles and shared states (where a single
//! visited set for both regions would lose states: a state first met above
//! the cut, whose subtree this part explored only in part, would cut off the
//! same state met again below the cut).

use std::collections::{BTreeSet, HashSet};

use proptest::prelude::*;
use tass_search::api::{
    Control, Limits, Outcome, Region, Search, Split, SplitSystem, TransitionSystem,
};

/// An explicit graph with two visited sets, one per region.
struct Graph {
    edges: Vec<Vec<usize>>,
    saved: [HashSet<usize>; 2],
    region: usize,
    checked: BTreeSet<usize>,
    taken: BTreeSet<(usize, usize)>,
}

impl Graph {
    fn new(edges: Vec<Vec<usize>>) -> Graph {
        Graph {
            edges,
            saved: [HashSet::new(), HashSet::new()],
            region: 0,
            checked: BTreeSet::new(),
            taken: BTreeSet::new(),
        }
    }
}

impl TransitionSystem for Graph {
    type State = usize;
    type Transition = (usize, usize);
    type Error = String;

    fn enabled(&mut self, s: &usize) -> Result<Vec<(usize, usize)>, String> {
        Ok(self.edges[*s].iter().map(|&t| (*s, t)).collect())
    }
    fn next(&mut self, _: usize, t: &(usize, usize)) -> Result<usize, String> {
        self.taken.insert(*t);
        Ok(t.1)
    }
    fn check(&mut self, s: &usize, _: &[(usize, usize)]) -> Control {
        self.checked.insert(*s);
        Control::Continue
    }
    fn save(&mut self, s: &usize) -> bool {
        self.saved[self.region].insert(*s)
    }
}

impl SplitSystem for Graph {
    fn enter_region(&mut self, region: Region) {
        self.region = match region {
            Region::Prefix => 0,
            Region::Part => 1,
        };
    }
    fn transition_fingerprint(&self, t: &(usize, usize)) -> u64 {
        (t.0 * 1000 + t.1) as u64
    }
}

fn reachable(edges: &[Vec<usize>]) -> (BTreeSet<usize>, BTreeSet<(usize, usize)>) {
    let mut seen = BTreeSet::from([0]);
    let mut taken = BTreeSet::new();
    let mut todo = vec![0];
    while let Some(n) = todo.pop() {
        for &m in &edges[n] {
            taken.insert((n, m));
            if seen.insert(m) {
                todo.push(m);
            }
        }
    }
    (seen, taken)
}

fn graph() -> impl Strategy<Value = Vec<Vec<usize>>> {
    (2usize..14)
        .prop_flat_map(|n| proptest::collection::vec(proptest::collection::vec(0..n, 0..4), n))
}

proptest! {
    #[test]
    fn parts_together_cover_the_graph(edges in graph(), parts in 1u64..6, depth in 1u64..5) {
        let (states, edges_reached) = reachable(&edges);
        let mut checked = BTreeSet::new();
        let mut taken = BTreeSet::new();
        let mut items = None;
        for part in 0..parts {
            let mut g = Graph::new(edges.clone());
            let split = Split { part, parts, depth };
            let (report, info) = Search::new(Limits::default()).run_part(&mut g, 0, split);
            prop_assert!(matches!(report.outcome, Outcome::Complete));
            // Every part sees the same cut.
            prop_assert_eq!(*items.get_or_insert(info), info);
            checked.extend(g.checked);
            taken.extend(g.taken);
        }
        prop_assert_eq!(checked, states);
        prop_assert_eq!(taken, edges_reached);
    }
}

/// The smallest graph proptest found on which one visited set for both
/// regions goes wrong on: the parts then see different cuts (a state saved
/// below the cut by one part cuts off the prefix of the same part later), so
/// their items do not partition the search. With two, the cuts agree and the
/// parts together check every state and take every edge.
#[test]
fn one_visited_set_gives_the_parts_different_cuts_here() {
    let edges = vec![
        vec![1, 0],
        vec![0, 2],
        vec![4, 5],
        vec![],
        vec![6],
        vec![0, 0],
        vec![0, 5],
        vec![],
    ];
    let (states, edges_reached) = reachable(&edges);
    let mut checked = BTreeSet::new();
    let mut taken = BTreeSet::new();
    let mut cuts = Vec::new();
    for part in 0..2 {
        let mut g = Graph::new(edges.clone());
        let split = Split {
            part,
            parts: 2,
            depth: 4,
        };
        let (_, info) = Search::new(Limits::default()).run_part(&mut g, 0, split);
        cuts.push(info);
        checked.extend(g.checked);
        taken.extend(g.taken);
    }
    assert_eq!(cuts[0], cuts[1]);
    assert_eq!(checked, states);
    assert_eq!(taken, edges_reached);
}
