//! Compact keys of saved states (collapse compression): a canonical state
//! becomes a short vector of numbers, its path condition's expression
//! number, the number of its non-process part (inputs, messages,
//! communicators, windows, snapshot queues) and one number per process
//! state. Equal numbers mean equal parts, so equal keys mean equal states,
//! and a search that keeps only keys of the states it saved keeps about
//! 40 bytes a state instead of the system state and its vector of
//! processes (~200 bytes at 7 processes).
//!
//! The numbers are the engine's own: keys of two engines are not
//! comparable (the parallel search's shared store keeps whole states).

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use hashbrown::HashMap;
use tass_dynamic::api::{Message, Value};

use crate::state::{PartStore, ProcState, State, SystemState};

/// The key of a saved state: equal keys (of one engine) mean equal
/// canonical states. Words: path condition, non-process part, then one
/// per process.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateKey(Box<[u32]>);

impl Hash for StateKey {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // One word for the whole key (multiply-rotate, as the state hash):
        // the table's hasher then mixes a single u64.
        let mut h: u64 = self.0.len() as u64;
        for &w in self.0.iter() {
            h = (h.rotate_left(5) ^ w as u64).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
        }
        state.write_u64(h);
    }
}

/// The non-process part of a system state, compared and hashed as
/// [`SystemState`] compares and hashes it.
#[derive(PartialEq, Eq, Hash)]
struct Rest {
    shared: Arc<Vec<Value>>,
    messages: Arc<Vec<Message>>,
    comms: Arc<Vec<Option<crate::mpi::Communicator>>>,
    windows: Arc<Vec<Option<crate::mpi::Window>>>,
    snapshots: crate::snapshot::Snapshots,
}

impl Rest {
    fn of(s: &SystemState) -> Rest {
        Rest {
            shared: Arc::clone(&s.shared),
            messages: Arc::clone(&s.messages),
            comms: Arc::clone(&s.comms),
            windows: Arc::clone(&s.windows),
            snapshots: s.snapshots.clone(),
        }
    }
}

/// The numbers of the parts of an engine's saved states.
#[derive(Default)]
pub(crate) struct KeyNumbers {
    /// Process states by the address of the part store's copy (kept for
    /// ever by the store, so an address is never reused for another value).
    procs: HashMap<usize, u32>,
    rests: HashMap<Rest, u32>,
}

impl KeyNumbers {
    /// The key of `state` (canonical); processes not yet in `parts` are
    /// stored there first (states renamed by `--worker-symmetry`).
    pub(crate) fn key(&mut self, parts: &mut PartStore, state: &State) -> StateKey {
        let s = &*state.inner;
        let mut words = Vec::with_capacity(2 + s.procs.len());
        words.push(s.pc.id());
        let next = self.rests.len() as u32;
        let rest = *self.rests.entry(Rest::of(s)).or_insert(next);
        words.push(rest);
        for proc in &s.procs {
            words.push(self.proc_number(parts, proc));
        }
        StateKey(words.into_boxed_slice())
    }

    fn proc_number(&mut self, parts: &mut PartStore, proc: &Arc<ProcState>) -> u32 {
        if let Some(&n) = self.procs.get(&(Arc::as_ptr(proc) as usize)) {
            return n;
        }
        // Not the store's copy (or not met yet): the store's equal copy.
        let mut stored = Arc::clone(proc);
        parts.share_proc(&mut stored);
        let next = self.procs.len() as u32;
        *self
            .procs
            .entry(Arc::as_ptr(&stored) as usize)
            .or_insert(next)
    }
}
