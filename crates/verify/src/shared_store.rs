//! The saved states shared by the parts of a parallel search (`--jobs N`):
//! a state one part has saved below the cut is not explored again by another.
//!
//! Each entry remembers whether the reduction left steps out where the state
//! was saved (`reduced`), whether its saver is still exploring below it
//! (`open`: on that part's search path) and whether the cycle proviso has
//! expanded it fully already. The proviso in parallel: a part that meets a
//! saved state that is still *open* (on its own path or on any other part's)
//! and was reduced expands it fully, once in the whole run. Why this is sound
//! is in docs/architecture.md ("Parallel search"); in short, a state's saver
//! closes it only after every step out of it and everything saved below it was
//! handled, so on every cycle of the explored graph the step into the cycle's
//! earliest saved state meets that state open.

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
}

/// How [`SharedStore::save`] answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Saved {
    /// First time seen: the caller explores it and closes it later.
    New,
    /// Saved before: nothing to explore.
    Matched,
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
    counts: [AtomicU64; 5],
}

/// Indices into [`SharedStore::counts`].
const NEW: usize = 0;
const MATCHED: usize = 1;
const EXPAND: usize = 2;
const PREFIX: usize = 3;
const PREFIX_BELOW: usize = 4;

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
        let [new, matched, expand, prefix, again] = [NEW, MATCHED, EXPAND, PREFIX, PREFIX_BELOW]
            .map(|k| self.counts[k].load(Ordering::Relaxed));
        eprintln!(
            "tass: shared store: {new} saved ({again} of them saved above the cut too), \
             {matched} matched, {expand} expanded fully (cycle proviso); {prefix} states \
             checked above the cut by all parts"
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

    /// Saves `state` (open, reduced or not) if it is new; otherwise says
    /// whether the caller must expand it fully (the cycle proviso).
    pub fn save(&self, state: S, reduced: bool) -> Saved {
        let mut shard = self.shard(&state);
        match shard.get_mut(&state) {
            None => {
                shard.insert(
                    state,
                    Entry {
                        reduced,
                        open: true,
                        expanded: false,
                    },
                );
                self.counts[NEW].fetch_add(1, Ordering::Relaxed);
                Saved::New
            }
            Some(entry) if entry.open && entry.reduced && !entry.expanded => {
                entry.expanded = true;
                self.counts[EXPAND].fetch_add(1, Ordering::Relaxed);
                Saved::ExpandFully
            }
            Some(_) => {
                self.counts[MATCHED].fetch_add(1, Ordering::Relaxed);
                Saved::Matched
            }
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
    use super::{Saved, SharedStore};

    #[test]
    fn an_open_reduced_state_is_expanded_once_and_a_closed_one_never() {
        let store = SharedStore::new();
        assert_eq!(store.save(1u32, true), Saved::New);
        assert_eq!(store.save(1, true), Saved::ExpandFully);
        assert_eq!(store.save(1, true), Saved::Matched);
        assert_eq!(store.save(2, true), Saved::New);
        store.close(&2);
        assert_eq!(store.save(2, true), Saved::Matched);
        assert_eq!(store.save(3, false), Saved::New);
        assert_eq!(store.save(3, false), Saved::Matched);
        assert_eq!(store.len(), 3);
    }
}
