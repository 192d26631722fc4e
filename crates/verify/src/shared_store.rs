//! The saved states shared by the parts of a parallel search (`--jobs N`):
//! a state one part has saved below the cut is not explored again by another.
//!
//! Each entry remembers whether the reduction left steps out where the state
//! was saved (`reduced`), whether its saver is still exploring below it
//! (`open`: on that part's search path), whether the cycle proviso has
//! expanded it fully already, and whether a fully expanded state is known to
//! be reachable from it in the explored graph (`reaches_full`). The proviso in
//! parallel: a part that meets a reduced saved state that is still *open* on
//! its own path expands it fully (as one thread does); one open on another
//! part's path it expands fully only if no fully expanded state is known to be
//! reachable from it; once in the whole run. Why this is sound is in
//! docs/architecture.md ("Parallel search"); in short, a state's saver closes
//! it only after every step out of it and everything saved below it was
//! handled, so in a set of states none of which reaches a fully expanded one,
//! a cycle's earliest saved state would be met open, and expanded fully.

use std::collections::HashMap;
use std::hash::{BuildHasher, Hash};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Shards of the store: a lookup locks one, so workers rarely wait for each
/// other (64 shards keep contention low up to dozens of workers).
const SHARDS: usize = 64;

/// What the store knows of one saved state.
#[derive(Clone, Copy)]
struct Entry {
    reduced: bool,
    open: bool,
    expanded: bool,
    /// A fully expanded state (one the reduction did not reduce, or one the
    /// proviso expanded fully, or a terminal state) is reachable from this
    /// one by explored steps (set by [`SharedStore::mark_reaches_full`]).
    reaches_full: bool,
}

/// Where the caller of [`SharedStore::save`] stands to the state it saves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Meeting {
    /// The state is not on the caller's own search path.
    Elsewhere,
    /// The state is on the caller's own search path (a cycle closes there).
    OwnPath,
}

/// How [`SharedStore::save`] answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Saved {
    /// First time seen: the caller explores it and closes it later.
    New,
    /// Saved before: nothing to explore. `reaches_full`: a fully expanded
    /// state is known to be reachable from it (so from the caller's path too).
    Matched { reaches_full: bool },
    /// Saved before, still open and reduced there: the caller explores it
    /// again with every enabled step (the only caller that is told so).
    ExpandFully,
}

/// The saved states of the parts of one parallel run.
pub(crate) struct SharedStore<S> {
    shards: Vec<Mutex<HashMap<S, Entry>>>,
    hasher: std::collections::hash_map::RandomState,
    /// How [`SharedStore::save`] answered (`new`, `matched`, `expand`), and
    /// the states the parts checked above the cut (`prefix`): where a
    /// parallel run's extra work comes from (`TASS_WORKER_TIMES`).
    counts: [AtomicU64; 6],
}

/// Indices into [`SharedStore::counts`].
const NEW: usize = 0;
const MATCHED: usize = 1;
const EXPAND: usize = 2;
const PREFIX: usize = 3;
const PREFIX_BELOW: usize = 4;
const SPARED: usize = 5;

impl<S: Hash + Eq> SharedStore<S> {
    pub fn new() -> SharedStore<S> {
        SharedStore {
            shards: (0..SHARDS).map(|_| Mutex::new(HashMap::new())).collect(),
            hasher: std::collections::hash_map::RandomState::new(),
            counts: Default::default(),
        }
    }

    /// A part checked a state above the cut (which every part explores).
    pub fn prefix_state_checked(&self) {
        self.counts[PREFIX].fetch_add(1, Ordering::Relaxed);
    }

    /// A part saved below the cut a state it had saved above it.
    pub fn prefix_state_saved_below(&self) {
        self.counts[PREFIX_BELOW].fetch_add(1, Ordering::Relaxed);
    }

    /// With `TASS_WORKER_TIMES` set: prints on stderr how the store answered
    /// and how many prefix states the parts checked.
    pub fn report_counts(&self) {
        if std::env::var_os("TASS_WORKER_TIMES").is_none() {
            return;
        }
        let [new, matched, expand, prefix, again, spared] =
            [NEW, MATCHED, EXPAND, PREFIX, PREFIX_BELOW, SPARED]
                .map(|k| self.counts[k].load(Ordering::Relaxed));
        eprintln!(
            "tass: shared store: {new} saved ({again} of them saved above the cut too), \
             {matched} matched, {expand} expanded fully (cycle proviso), {spared} open \
             on another part's path not expanded (a fully expanded state reachable); \
             {prefix} states checked above the cut by all parts"
        );
    }

    fn shard(&self, state: &S) -> std::sync::MutexGuard<'_, HashMap<S, Entry>> {
        let index = (self.hasher.hash_one(state) as usize) % SHARDS;
        // A worker that panicked holding the lock leaves a map that is still
        // whole (every update is one insert or one field write).
        self.shards[index]
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    /// Saves `state` (open; `reduced`: the reduction left steps out of it) if
    /// it is new; otherwise says whether the caller must expand it fully (the
    /// cycle proviso): it is open and reduced and not expanded yet, and either
    /// on the caller's own path or not known to reach a fully expanded state.
    pub fn save(&self, state: S, reduced: bool, meeting: Meeting) -> Saved {
        let mut shard = self.shard(&state);
        match shard.get_mut(&state) {
            None => {
                shard.insert(
                    state,
                    Entry {
                        reduced,
                        open: true,
                        expanded: false,
                        reaches_full: !reduced,
                    },
                );
                self.counts[NEW].fetch_add(1, Ordering::Relaxed);
                Saved::New
            }
            Some(entry) if entry.open && entry.reduced && !entry.expanded => {
                if meeting == Meeting::Elsewhere && entry.reaches_full {
                    self.counts[SPARED].fetch_add(1, Ordering::Relaxed);
                    self.counts[MATCHED].fetch_add(1, Ordering::Relaxed);
                    return Saved::Matched { reaches_full: true };
                }
                entry.expanded = true;
                entry.reaches_full = true;
                self.counts[EXPAND].fetch_add(1, Ordering::Relaxed);
                Saved::ExpandFully
            }
            Some(entry) => {
                self.counts[MATCHED].fetch_add(1, Ordering::Relaxed);
                Saved::Matched {
                    reaches_full: entry.reaches_full || !entry.reduced || entry.expanded,
                }
            }
        }
    }

    /// A fully expanded state is reachable from `state` by explored steps.
    pub fn mark_reaches_full(&self, state: &S) {
        if let Some(entry) = self.shard(state).get_mut(state) {
            entry.reaches_full = true;
        }
    }

    /// Its saver has explored everything below `state`.
    pub fn close(&self, state: &S) {
        if let Some(entry) = self.shard(state).get_mut(state) {
            entry.open = false;
        }
    }

    /// States saved.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.shards
            .iter()
            .map(|s| s.lock().map_or(0, |m| m.len()))
            .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::{Meeting, Saved, SharedStore};

    const MATCHED: Saved = Saved::Matched {
        reaches_full: false,
    };
    const MATCHED_FULL: Saved = Saved::Matched { reaches_full: true };

    #[test]
    fn an_open_reduced_state_is_expanded_once_and_a_closed_one_never() {
        let store = SharedStore::new();
        assert_eq!(store.save(1u32, true, Meeting::Elsewhere), Saved::New);
        assert_eq!(store.save(1, true, Meeting::Elsewhere), Saved::ExpandFully);
        assert_eq!(store.save(1, true, Meeting::OwnPath), MATCHED_FULL);
        assert_eq!(store.save(2, true, Meeting::Elsewhere), Saved::New);
        store.close(&2);
        assert_eq!(store.save(2, true, Meeting::OwnPath), MATCHED);
        assert_eq!(store.save(3, false, Meeting::Elsewhere), Saved::New);
        assert_eq!(store.save(3, false, Meeting::OwnPath), MATCHED_FULL);
        assert_eq!(store.len(), 3);
    }

    #[test]
    fn an_open_state_that_reaches_a_full_one_is_expanded_only_from_its_own_path() {
        let store = SharedStore::new();
        assert_eq!(store.save(1u32, true, Meeting::Elsewhere), Saved::New);
        store.mark_reaches_full(&1);
        assert_eq!(store.save(1, true, Meeting::Elsewhere), MATCHED_FULL);
        assert_eq!(store.save(1, true, Meeting::OwnPath), Saved::ExpandFully);
        assert_eq!(store.save(1, true, Meeting::OwnPath), MATCHED_FULL);
    }
}
