//! The state hierarchy: system state -> process states -> call stack -> frames ->
//! values; heap; message buffer; path condition (paper Sec. 5.1).
//!
//! Every component sits behind an `Arc`. A component is changed in place while
//! its `Arc` is unique and copied first when shared (`Arc::make_mut`): that is
//! the morphic pattern's mutable/committed distinction without the bookkeeping.
//! The hash of a whole state is computed once and cached; any mutable access
//! clears the cache.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use tass_dynamic::api::{HeapObject, Message, Value};
use tass_model::api::{FunctionId, LocationId, TransitionId};
use tass_symbolic::api::Expr;

/// A call-stack frame.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Frame {
    pub function: FunctionId,
    pub location: LocationId,
    /// The caller's call transition (receives the result), `None` for `main`.
    pub call_site: Option<TransitionId>,
    /// Parameters then locals, in the order of the function's `params ++ locals`.
    pub locals: Vec<Value>,
}

/// Whether a process still runs.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Status {
    Running,
    /// Ended (`main` returned, `exit`, `abort`) at this place, with this exit code.
    Terminated {
        at: Option<(FunctionId, LocationId)>,
        exit_code: Option<Expr>,
    },
}

/// The state of one process.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ProcState {
    pub status: Status,
    /// Process-global variables then the process's own copies of the outputs,
    /// in the order of `Model::globals ++ Model::outputs`.
    pub globals: Arc<Vec<Value>>,
    /// Bottom (main) first.
    pub stack: Vec<Arc<Frame>>,
    pub heap: Arc<Vec<HeapObject>>,
    /// MPI status of the process (init/finalize, pending `MPI_Sendrecv`).
    pub mpi: crate::mpi::MpiProc,
    /// The heap blocks holding the command line (`argv` and its strings):
    /// not the program's to free, and no leak when it ends.
    pub program_args: Vec<u32>,
}

/// A fast, deterministic, non-cryptographic hasher (multiply-rotate, as in
/// rustc's FxHash): state hashing is on the hot path and needs no DoS resistance.
#[derive(Default)]
struct FxHasher {
    hash: u64,
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    fn write_u64(&mut self, word: u64) {
        self.hash = (self.hash.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u32(&mut self, word: u32) {
        self.write_u64(word as u64);
    }
    fn write_u8(&mut self, word: u8) {
        self.write_u64(word as u64);
    }
    fn write_usize(&mut self, word: usize) {
        self.write_u64(word as u64);
    }
    fn finish(&self) -> u64 {
        self.hash
    }
}

/// The hash of one process state (a state's hash combines its processes' hashes).
pub(crate) fn proc_hash(ps: &Arc<ProcState>) -> u64 {
    let mut h = FxHasher::default();
    ps.hash(&mut h);
    h.finish()
}

/// The whole system state.
#[derive(Clone, Debug)]
pub(crate) struct SystemState {
    pub pc: Expr,
    /// The inputs (shared, read-only), in the order of `Model::inputs`.
    pub shared: Arc<Vec<Value>>,
    pub procs: Vec<Arc<ProcState>>,
    /// Buffered messages ordered by sender, receiver, issue order (MPI engine).
    pub messages: Arc<Vec<Message>>,
    /// Communicators created by `MPI_Comm_dup`/`MPI_Comm_split`/
    /// `MPI_Comm_create`/`MPI_Cart_create`: entry `k - 1` is `Handle::Comm(k)`,
    /// the world ranks of its members in the order of their ranks in it, and
    /// its grid (`None` once freed). `MPI_COMM_WORLD` is communicator 0.
    pub comms: Arc<Vec<Option<crate::mpi::Communicator>>>,
    /// The windows of one-sided communication: entry `k` is `Handle::Win(k)`
    /// (`None` once freed), with its epoch and pending operations.
    pub windows: Arc<Vec<Option<crate::mpi::Window>>>,
    /// The snapshot queues of the collective assertions (`crate::snapshot`).
    pub snapshots: crate::snapshot::Snapshots,
}

impl PartialEq for SystemState {
    fn eq(&self, other: &Self) -> bool {
        self.pc == other.pc
            && self.procs.len() == other.procs.len()
            && (Arc::ptr_eq(&self.shared, &other.shared) || self.shared == other.shared)
            && self
                .procs
                .iter()
                .zip(&other.procs)
                .all(|(a, b)| Arc::ptr_eq(a, b) || a == b)
            && self.messages == other.messages
            && self.comms == other.comms
            && self.windows == other.windows
            && self.snapshots == other.snapshots
    }
}
impl Eq for SystemState {}

impl SystemState {
    pub fn compute_hash(&self) -> u64 {
        let proc_hashes: Vec<u64> = self.procs.iter().map(proc_hash).collect();
        self.compute_hash_with(&proc_hashes)
    }

    /// The hash of this state given the hashes ([`proc_hash`]) of its processes,
    /// which canonicalization may know already.
    pub fn compute_hash_with(&self, proc_hashes: &[u64]) -> u64 {
        let mut h = FxHasher::default();
        self.pc.hash(&mut h);
        self.shared.hash(&mut h);
        proc_hashes.hash(&mut h);
        self.messages.hash(&mut h);
        self.comms.hash(&mut h);
        self.windows.hash(&mut h);
        self.snapshots.hash(&mut h);
        h.finish()
    }
}

/// A state of the system: cheap to clone (shares everything), hashable and
/// comparable (deeply; by identity first), `Send + Sync`.
///
/// States are built and changed by the [`crate::api::Engine`]; two states are equal
/// when their path conditions, variables, call stacks, heaps and messages are
/// (after [`crate::api::Engine::canonicalize`], equivalent paths give equal states).
#[derive(Clone, Debug)]
pub struct State {
    pub(crate) inner: Arc<SystemState>,
    /// The hash of `inner`, computed when the engine hands the state out
    /// ([`State::seal`]); `None` while it is being changed.
    pub(crate) hash: Option<u64>,
}

impl State {
    /// A state around `inner`, hash not yet computed.
    pub(crate) fn new(inner: SystemState) -> State {
        State {
            inner: Arc::new(inner),
            hash: None,
        }
    }

    /// Mutable access; clears the cached hash (copy-on-write if shared).
    pub(crate) fn inner_mut(&mut self) -> &mut SystemState {
        self.hash = None;
        Arc::make_mut(&mut self.inner)
    }

    /// This state with its hash known already (it must be `compute_hash`'s).
    pub(crate) fn with_hash(mut self, hash: u64) -> State {
        debug_assert_eq!(hash, self.inner.compute_hash());
        self.hash = Some(hash);
        self
    }

    /// Computes and caches the hash (the engine does this before handing a state out).
    pub(crate) fn seal(mut self) -> State {
        if self.hash.is_none() {
            self.hash = Some(self.inner.compute_hash());
        }
        self
    }

    /// The hash of this state (cached once the engine has handed it out).
    pub fn hash_value(&self) -> u64 {
        self.hash.unwrap_or_else(|| self.inner.compute_hash())
    }

    /// The number of collective-assertion snapshots process `p` has queued
    /// (for the `--cqmin` choice among the processes the reduction may take).
    pub fn snapshot_queue_len(&self, p: usize) -> usize {
        self.inner.snapshots.queue_len(p)
    }

    /// Lagged loop records (the second run of collective loop invariants):
    /// how many loop records process `p` has arrived at beyond the oldest
    /// record still waiting for a process (0 when it is at or behind it, or
    /// when the path has no lagged records). The lagged run's exploration
    /// order reads it (`verify`'s `real/lag_order.rs`).
    pub fn loop_records_ahead(&self, p: usize) -> u32 {
        self.inner
            .snapshots
            .loop_lag
            .as_deref()
            .map_or(0, |lag| lag.records_ahead(p))
    }

    /// True if both handles share the same representation (equal canonic states
    /// share their parts, not always the whole).
    pub fn same_object(&self, other: &State) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
    }
}

impl PartialEq for State {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.inner, &other.inner)
            || (self.hash_value() == other.hash_value() && *self.inner == *other.inner)
    }
}
impl Eq for State {}

impl Hash for State {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash_value());
    }
}

/// Hash-consing of the parts of saved states.
///
/// A search saves up to millions of states, most differing from some other saved
/// state in one process, or one frame of it. Simplification and heap
/// canonicalisation rebuild a state's parts, so without this each saved state would
/// own a full copy; with it, equal parts (frames, globals, heaps, whole processes,
/// the shared variables, the message buffer) are stored once.
#[derive(Default)]
pub(crate) struct PartStore {
    frames: hashbrown::HashSet<Arc<Frame>>,
    value_vectors: hashbrown::HashSet<Arc<Vec<Value>>>,
    heaps: hashbrown::HashSet<Arc<Vec<HeapObject>>>,
    procs: hashbrown::HashSet<Arc<ProcState>>,
    messages: hashbrown::HashSet<Arc<Vec<Message>>>,
}

/// Replaces `x` by the stored equal value, or stores it.
fn share<T: Hash + Eq>(set: &mut hashbrown::HashSet<Arc<T>>, x: &mut Arc<T>) {
    match set.get(x) {
        Some(stored) => {
            if !Arc::ptr_eq(stored, x) {
                *x = Arc::clone(stored);
            }
        }
        None => {
            set.insert(Arc::clone(x));
        }
    }
}

impl PartStore {
    /// `state` with its parts replaced by equal stored ones (its value and hash are
    /// unchanged).
    pub(crate) fn share(&mut self, mut state: State) -> State {
        let hash = state.hash;
        let inner = Arc::make_mut(&mut state.inner);
        self.share_globals(inner);
        for proc in inner.procs.iter_mut() {
            self.share_proc(proc);
        }
        state.hash = hash;
        state
    }

    /// `proc` replaced by the stored equal process, or stored (its parts shared).
    pub(crate) fn share_proc(&mut self, proc: &mut Arc<ProcState>) {
        if let Some(stored) = self.procs.get(proc) {
            if !Arc::ptr_eq(stored, proc) {
                *proc = Arc::clone(stored);
            }
            return;
        }
        let p = Arc::make_mut(proc);
        share(&mut self.value_vectors, &mut p.globals);
        share(&mut self.heaps, &mut p.heap);
        for frame in p.stack.iter_mut() {
            share(&mut self.frames, frame);
        }
        self.procs.insert(Arc::clone(proc));
    }

    /// The shared variables and the message buffer of `state` replaced by stored
    /// equal ones, or stored.
    pub(crate) fn share_globals(&mut self, state: &mut SystemState) {
        share(&mut self.value_vectors, &mut state.shared);
        share(&mut self.messages, &mut state.messages);
    }
}
