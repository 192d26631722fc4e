//! The knobs of a run, as the command line sets them.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tass_prove::api::ProverChoice;
use tass_state::api::{Arith, SignedOverflow};

use crate::error::UnknownChoice;

/// Reads `text` as one of an option's words (`choices`, in the order an
/// error lists them): one table a choice, so that the words accepted and the
/// words the error names cannot drift apart.
fn choose<T: Copy>(
    what: &'static str,
    text: &str,
    choices: &[(&'static str, T)],
) -> Result<T, UnknownChoice> {
    match choices.iter().find(|(word, _)| *word == text) {
        Some(&(_, choice)) => Ok(choice),
        None => Err(UnknownChoice {
            what,
            found: text.to_string(),
            expected: choices.iter().map(|(word, _)| *word).collect(),
        }),
    }
}

/// `FromStr` for option enums, each from its table of words (in the order an
/// error lists them; read by [`choose`]).
macro_rules! option_words {
    ($($ty:ident, $what:literal: [$($word:literal => $choice:ident),* $(,)?];)*) => {$(
        impl std::str::FromStr for $ty {
            type Err = UnknownChoice;

            fn from_str(text: &str) -> Result<$ty, UnknownChoice> {
                choose($what, text, &[$(($word, $ty::$choice)),*])
            }
        }
    )*};
}

option_words! {
    DeadlockMode, "deadlock mode": ["potential" => Potential, "absolute" => Absolute, "none" => None];
    Reduction, "reduction": ["urgent" => Urgent, "off" => Off];
    FairnessMode, "fairness": ["weak" => Weak, "none" => None];
    MatchMode, "match mode": ["syntactic" => Syntactic, "set" => Set, "subsume" => Subsume];
}

/// Which potential deadlocks are looked for (`--deadlock`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum DeadlockMode {
    /// Every behaviour the MPI standard allows, including sends that block until
    /// matched (the default).
    #[default]
    Potential,
    /// Only states where no process can move at all, with sends buffered.
    Absolute,
    /// No deadlock checking (the strongest reduction).
    None,
}

/// Which runs an `ltl` formula is checked on (`--fairness`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum FairnessMode {
    /// Weakly fair runs only: a process that stays enabled from some point on
    /// moves infinitely often (MPI's progress rule; the default).
    #[default]
    Weak,
    /// Every run, fair or not.
    None,
}

/// How a new state is matched with the saved ones (`--match`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum MatchMode {
    /// Equal canonical forms (values and path condition): the default.
    #[default]
    Syntactic,
    /// Equal control parts and, by the prover, equal sets of concrete data
    /// valuations (the paper on explicit control and symbolic data).
    Set,
    /// Equal control parts and a data set included in a saved state's: the
    /// new state is not explored (safety properties only, never `ltl`).
    Subsume,
}

/// Whether the urgent partial-order reduction prunes the interleavings (`--por`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reduction {
    /// The urgent scheme of the TASS paper (the default).
    Urgent,
    /// Every enabled step of every process is explored: the full search, to check
    /// the reduction against (it explores far more states).
    Off,
}

/// Which process the urgent reduction explores when several may be taken
/// alone (`--cqmin`). Any choice is sound; they differ in states explored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum UrgentChoice {
    /// The lowest rank (and the process that is running local code).
    #[default]
    First,
    /// A process with the shortest collective-assertion snapshot queue (the
    /// paper's CQMin): keeps the processes close together at the assertions,
    /// so snapshots are matched and dropped early.
    ShortestSnapshotQueue,
}

/// Everything a `verify` or `compare` run needs besides the models.
#[derive(Clone, Debug)]
pub struct Options {
    /// Processes of the program (`-n`, verify).
    pub procs: usize,
    /// Processes of the specification (`--spec-procs`, compare).
    pub spec_procs: usize,
    /// Processes of the implementation (`--impl-procs`, compare).
    pub impl_procs: usize,
    /// Fixed inputs: `(name, value)` as the user wrote them (`-i NAME=VALUE`).
    pub inputs: Vec<(String, String)>,
    /// The arguments `main` receives after the program name (`-- ARG...`;
    /// `argv[0]` is the name of the program's first file without its
    /// extension); `None`: `argc` is any value from 1 and `argv` is undefined.
    pub program_args: Option<Vec<String>>,
    /// Deadlock checking mode.
    pub deadlock: DeadlockMode,
    /// The prover.
    pub prover: ProverChoice,
    /// The arithmetic.
    pub arith: Arith,
    /// Whether signed overflow is checked (`--signed-overflow`).
    pub signed_overflow: SignedOverflow,
    /// The partial-order reduction (`--por`).
    pub reduction: Reduction,
    /// The process the reduction prefers (`--cqmin`).
    pub urgent_choice: UrgentChoice,
    /// The runs `ltl` formulas are checked on.
    pub fairness: FairnessMode,
    /// How states are matched (`--match`).
    pub matching: MatchMode,
    /// At most this many states (`--max-states`).
    pub max_states: Option<u64>,
    /// Collective loop invariants, the second run with lagged loop records:
    /// at most this many incomplete loop records on a path (`--max-lag`);
    /// `None`: `max(8, 2n + 4)`.
    pub max_lag: Option<usize>,
    /// At most this long (`--timeout`).
    pub timeout: Option<Duration>,
    /// At most this many bytes of resident memory (`--max-memory`, in MB there).
    pub max_memory: Option<u64>,
    /// Stop after this many distinct violations; 0 = find all (`--max-violations`).
    pub max_violations: usize,
    /// Set (e.g. by Ctrl-C) to end the search early: the verdict is inconclusive.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Counters the search keeps up to date for a progress display.
    pub progress: Option<Arc<Progress>>,
    /// `compare --symmetry`: input arrays whose elements the specification may
    /// treat symmetrically (their permutations form the group).
    pub symmetry: Vec<String>,
    /// `--worker-symmetry`: store states modulo permutations of the
    /// interchangeable processes (`tass_state`'s `worker_taint.rs`).
    pub worker_symmetry: bool,
    /// `--shard K/N`: explore only the K-th of N disjoint parts of the search
    /// (of the specification's, in `compare`); `tass merge` combines the parts.
    pub shard: Option<Shard>,
    /// `--jobs N`: worker threads of the search (1: the search of one thread).
    pub jobs: usize,
}

/// One of the parts of a search split with `--shard K/N` (K from 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

/// What a run (or a shard of one) saw of the split of its search: identical in
/// every shard of one split that explored its prefix to the end.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ShardReport {
    /// This shard (`--shard K/N`), or `None` for a whole run split for `--jobs`.
    pub shard: Option<Shard>,
    /// The cut: branching points above the split.
    pub depth: u64,
    /// Items (subtrees) at the cut, dealt out round robin.
    pub items: u64,
    /// A digest of the items (their steps and depths).
    pub digest: u64,
    /// Parts the search was split into in this run (`N`, or `N` times the
    /// parts per shard that `--jobs` made).
    pub parts: u64,
}

/// What a running search has done so far, published for a progress display
/// that reads it from another thread (`tass`'s progress line on a terminal).
#[derive(Debug, Default)]
pub struct Progress {
    states: AtomicU64,
    saved: AtomicU64,
    depth: AtomicU64,
    prover_calls: AtomicU64,
}

impl Progress {
    /// States reached so far, over all the run's searches.
    pub fn states(&self) -> u64 {
        self.states.load(Ordering::Relaxed)
    }

    /// States saved so far (kept for matching), over all the run's searches.
    pub fn saved(&self) -> u64 {
        self.saved.load(Ordering::Relaxed)
    }

    /// One more state saved.
    pub(crate) fn saved_one(&self) {
        self.saved.fetch_add(1, Ordering::Relaxed);
    }

    /// The depth (steps from the initial state) of the state reached last.
    pub fn depth(&self) -> u64 {
        self.depth.load(Ordering::Relaxed)
    }

    /// The prover's questions so far (published every few hundred states).
    pub fn prover_calls(&self) -> u64 {
        self.prover_calls.load(Ordering::Relaxed)
    }

    pub(crate) fn set_prover_calls(&self, calls: u64) {
        self.prover_calls.store(calls, Ordering::Relaxed);
    }

    /// One more state reached, at `depth`.
    pub(crate) fn reached(&self, depth: usize) {
        self.states.fetch_add(1, Ordering::Relaxed);
        self.depth
            .store(u64::try_from(depth).unwrap_or(u64::MAX), Ordering::Relaxed);
    }
}

impl Default for Options {
    fn default() -> Options {
        Options {
            procs: 1,
            spec_procs: 1,
            impl_procs: 1,
            inputs: Vec::new(),
            program_args: None,
            deadlock: DeadlockMode::Potential,
            prover: ProverChoice::Auto,
            arith: Arith::Real,
            signed_overflow: SignedOverflow::Unchecked,
            reduction: Reduction::Urgent,
            urgent_choice: UrgentChoice::First,
            fairness: FairnessMode::Weak,
            matching: MatchMode::Syntactic,
            max_states: None,
            max_lag: None,
            timeout: None,
            max_memory: None,
            max_violations: 1,
            cancel: None,
            progress: None,
            symmetry: Vec::new(),
            worker_symmetry: false,
            shard: None,
            jobs: 1,
        }
    }
}
