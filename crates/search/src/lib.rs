//! `tass-search`: a generic depth-first search of a transition system.
//!
//! The verifier's state space is a transition system: states, the transitions enabled
//! in each, and a next-state function. This crate knows nothing about C, MPI or
//! symbolic values; it walks any system that implements
//! [`api::TransitionSystem`], checks every state it reaches, remembers the states the
//! system chooses to save, and stops on request, on a limit or when done.
//!
//! The search is iterative (an explicit stack), so deep programs cannot overflow the
//! call stack, and it pushes a state only where the path branches: a run of states with
//! one enabled transition each is executed in place, which lets a state that is
//! uniquely owned be updated without copying (the paper's Sec. 5.4 heuristics).
//!
//! ```
//! use std::collections::HashSet;
//! use tass_search::api::{Control, Limits, Outcome, Search, TransitionSystem};
//!
//! /// Counting modulo 5 by steps of 1 or 2; "bad" states are those equal to 3.
//! struct Counter { seen: HashSet<u32>, found: Vec<Vec<u32>> }
//!
//! impl TransitionSystem for Counter {
//!     type State = u32;
//!     type Transition = u32;
//!     type Error = String;
//!     fn enabled(&mut self, _: &u32) -> Result<Vec<u32>, String> { Ok(vec![1, 2]) }
//!     fn next(&mut self, s: u32, t: &u32) -> Result<u32, String> { Ok((s + t) % 5) }
//!     fn check(&mut self, s: &u32, path: &[u32]) -> Control {
//!         if *s == 3 { self.found.push(path.to_vec()); }
//!         Control::Continue
//!     }
//!     fn save(&mut self, s: &u32) -> bool { self.seen.insert(*s) }
//! }
//!
//! let mut system = Counter { seen: HashSet::new(), found: vec![] };
//! let report = Search::new(Limits::default()).run(&mut system, 0);
//! assert!(matches!(report.outcome, Outcome::Complete));
//! assert_eq!(report.stats.states_saved, 5);
//! assert_eq!(system.found[0], vec![1, 1, 1]); // depth first: 0 -> 1 -> 2 -> 3
//! ```

pub mod api;
mod dfs;
mod fair_cycle;
mod paths;
