use std::sync::Arc;

use tass_search::api::{Limits, Outcome, Region, Search, SplitSystem};

use super::tests::{Spin, SpinState};
use super::{Findings, Mode, ModelSystem};
use crate::options::Options;
use crate::shared_store::{Meeting, SharedStore};

/// Runs the `Spin` system below the cut with `store` shared, as one part of
/// a parallel search whose other parts saved what `store` holds; returns
/// whether process 1's failing step was found.
fn found_with(store: Arc<SharedStore<SpinState>>) -> bool {
    let options = Options {
        max_states: Some(10_000),
        ..Options::default()
    };
    let mut findings = Findings::new(&options);
    let mut engine = Spin;
    let start = SpinState { a: 0, b: 0 };
    let mut system = ModelSystem::new(
        &mut engine,
        &mut findings,
        Mode::Verify,
        start.clone(),
        None,
        2,
    );
    system.shared = Some(store);
    system.enter_region(Region::Part);
    let limits = Limits {
        max_states: Some(10_000),
        ..Limits::default()
    };
    let report = Search::new(limits).run(&mut system, start);
    assert!(
        matches!(report.outcome, Outcome::Complete | Outcome::Stopped),
        "{:?}",
        report.outcome
    );
    !findings.violations.is_empty()
}

/// Another part saved the states of process 0's cycle and is still below
/// them (open) where the reduction left process 1 out: this part meets
/// them, expands them fully and finds process 1's failure. Were they
/// closed (their saver done below them), matching them is right, and this
/// part has nothing left to find there.
#[test]
fn a_reduced_state_open_in_another_part_is_expanded_fully() {
    let open = Arc::new(SharedStore::new());
    for a in 0..2 {
        open.save(SpinState { a, b: 0 }, true, Meeting::Elsewhere);
    }
    assert!(found_with(open));
    let closed = Arc::new(SharedStore::new());
    for a in 0..2 {
        let state = SpinState { a, b: 0 };
        closed.save(state.clone(), true, Meeting::Elsewhere);
        closed.close(&state);
    }
    assert!(!found_with(closed));
    // Alone (nothing saved by others), the part's own cycle is expanded.
    assert!(found_with(Arc::new(SharedStore::new())));
}

/// The same open states, but known to reach a fully expanded state (their
/// saver met one below them): this part does not expand them, since every
/// state of the cycle then reaches a fully expanded state, which is what the
/// reduction needs (docs/architecture.md, "Parallel search"); the saver's
/// side of that is `shared_jobs_*` in crates/cli/tests/shard.rs. Not marked,
/// they are expanded (above).
#[test]
fn an_open_state_known_to_reach_a_full_one_is_not_expanded_by_another_part() {
    let open = Arc::new(SharedStore::new());
    for a in 0..2 {
        let state = SpinState { a, b: 0 };
        open.save(state.clone(), true, Meeting::Elsewhere);
        open.mark_reaches_full(&state);
    }
    assert!(!found_with(open));
}
