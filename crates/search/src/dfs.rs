//! The depth-first search itself.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// What the search should do after a state has been checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Control {
    /// Keep exploring.
    Continue,
    /// Do not explore this state's successors, but go on elsewhere (e.g. the path
    /// ended in an error that makes continuing meaningless).
    Prune,
    /// End the whole search now (e.g. the first violation was found).
    Stop,
}

/// A transition system explored by [`Search`].
///
/// States are taken by value by [`TransitionSystem::next`], so a state reached by a
/// single enabled transition can be updated in place; a state where the path branches is
/// cloned once per extra branch, which is cheap for copy-on-write states.
pub trait TransitionSystem {
    type State: Clone;
    type Transition: Clone;
    /// An error that ends the search (an unsupported construct met at run time, say).
    type Error;

    /// The transitions enabled in `state`, in the order they are to be explored. An
    /// empty list means `state` is terminal (or stuck: the system's `check` decides).
    fn enabled(&mut self, state: &Self::State) -> Result<Vec<Self::Transition>, Self::Error>;

    /// The state reached from `state` by `transition`.
    fn next(
        &mut self,
        state: Self::State,
        transition: &Self::Transition,
    ) -> Result<Self::State, Self::Error>;

    /// The predicate: called on every state reached, with the transitions that led to
    /// it from the initial state (for counterexample traces).
    fn check(&mut self, state: &Self::State, path: &[Self::Transition]) -> Control;

    /// Whether `state` should be matched against the saved states at all (the
    /// state-saving heuristic). Defaults to every state.
    fn should_save(&mut self, _state: &Self::State) -> bool {
        true
    }

    /// Records `state` as seen; returns `true` if it is new, `false` if an equal state
    /// was saved before (then its successors are not explored again).
    fn save(&mut self, state: &Self::State) -> bool;
}

/// Bounds on a search. Reaching one ends the search with [`Outcome::LimitReached`].
#[derive(Debug, Clone, Default)]
pub struct Limits {
    /// At most this many states reached (checked).
    pub max_states: Option<u64>,
    /// At most this much wall-clock time.
    pub timeout: Option<Duration>,
    /// Set from outside (e.g. by a Ctrl-C handler) to end the search early.
    pub cancel: Option<Arc<AtomicBool>>,
    /// Set by the other searches of a parallel run when one of them has found
    /// what ends the run (a violation): ends this one as [`Limit::Cancelled`]
    /// too; the caller tells the two apart by which flag is set.
    pub siblings_stop: Option<Arc<AtomicBool>>,
    /// At most this many bytes of resident memory (the whole process's, read
    /// from `/proc/self/status` every [`MEMORY_CHECK_EVERY`] states).
    pub max_memory: Option<u64>,
}

/// States between two reads of the resident memory (a read costs a few
/// microseconds; a state costs about as many).
pub const MEMORY_CHECK_EVERY: u64 = 1024;

/// The process's resident memory in bytes (`VmRSS`), where the system tells it
/// (Linux); `None` elsewhere.
pub fn resident_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kib: u64 = line
        .trim_start_matches("VmRSS:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kib * 1024)
}

/// Which limit ended a search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    MaxStates,
    Timeout,
    Cancelled,
    /// The resident memory exceeded [`Limits::max_memory`].
    Memory,
}

/// How a search ended.
#[derive(Debug)]
pub enum Outcome<E> {
    /// Every reachable state was explored.
    Complete,
    /// The system's `check` asked to stop.
    Stopped,
    /// A limit was reached before the search was complete.
    LimitReached(Limit),
    /// The system reported an error.
    Error(E),
}

/// Counters of one search.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SearchStats {
    /// States reached and checked (with repetitions of states not saved).
    pub states_seen: u64,
    /// States recorded as new by [`TransitionSystem::save`].
    pub states_saved: u64,
    /// States that matched a saved one.
    pub states_matched: u64,
    /// Transitions executed.
    pub transitions: u64,
    /// States pushed on the search stack (branching points).
    pub states_pushed: u64,
    /// The greatest depth (path length) reached.
    pub max_depth: u64,
}

impl SearchStats {
    /// Adds the counters of another search (one of several run in sequence,
    /// e.g. one per specification path); the depth is the greater one.
    pub fn absorb(&mut self, more: &SearchStats) {
        self.states_seen += more.states_seen;
        self.states_saved += more.states_saved;
        self.states_matched += more.states_matched;
        self.transitions += more.transitions;
        self.states_pushed += more.states_pushed;
        self.max_depth = self.max_depth.max(more.max_depth);
    }
}

/// The result of [`Search::run`].
#[derive(Debug)]
pub struct SearchReport<E> {
    pub outcome: Outcome<E>,
    pub stats: SearchStats,
    pub elapsed: Duration,
}

/// One part of a split search: the search tree is cut below its first
/// `depth` branching points (states with two or more transitions to explore).
/// The transitions leaving the branching points at the cut are the split's
/// *items*, numbered in the order the depth-first search meets them; item `i`
/// belongs to part `i % parts`. Every part explores the whole tree above the
/// cut (the *prefix*, the same in every part) and, below it, the subtrees of
/// its own items, in full. So the parts together explore every path.
///
/// State matching stays sound per part: the system keeps the states it saves
/// in the prefix apart from those below the cut ([`SplitSystem::enter_region`]).
/// A prefix state matches only prefix states, which every part explored the
/// same way (their subtrees below the cut are covered by all parts together);
/// a state below the cut matches only states of this part below the cut,
/// whose subtrees this part explored in full (branching does not stop below
/// the cut, so nothing there is left to other parts).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Split {
    /// The part explored, from 0.
    pub part: u64,
    /// How many parts.
    pub parts: u64,
    /// The cut, in branching points from the initial state.
    pub depth: u64,
}

/// What a split search saw of its cut: the same in every part that explored
/// its prefix to the end (a caller compares them to tell that the parts were
/// one split of one search).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SplitInfo {
    /// Items met at the cut.
    pub items: u64,
    /// A digest of the items: their transitions' fingerprints and depths.
    pub digest: u64,
}

/// Where a split search's current state lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Region {
    /// Above the cut: explored the same way by every part.
    Prefix,
    /// Below the cut: in one of this part's items.
    Part,
}

/// A transition system a search can split into parts ([`Search::run_part`]).
pub trait SplitSystem: TransitionSystem {
    /// The states checked from now on lie in `region`: `save` must match them
    /// only against the states saved while in the same region (two visited
    /// sets), and whatever the system keeps about the search path for its
    /// reductions must not let a state of one region stand for the other's.
    fn enter_region(&mut self, region: Region);

    /// A number naming `transition` the same way in every process and run
    /// (e.g. a hash of its process and source position: not of addresses),
    /// for the split's digest.
    fn transition_fingerprint(&self, transition: &Self::Transition) -> u64;

    /// Called for every item of the cut, in order, with the state it leaves
    /// and whether this part takes it (for what a part must know of the
    /// items other parts explore).
    fn at_cut(&mut self, _state: &Self::State, _item: &Self::Transition, _taken: bool) {}
}

/// A depth-first search with the given limits.
#[derive(Debug, Clone, Default)]
pub struct Search {
    limits: Limits,
}

/// A branching point on the stack: the state, its enabled transitions, the next one to
/// take, how long the path was at this state, and its level (how many branching
/// points lie above it on its path).
struct Branch<S, T> {
    state: S,
    transitions: Vec<T>,
    next_index: usize,
    depth: usize,
    level: usize,
}

/// The cut of a split search (see [`Split`]): where it is, which items this
/// search takes (`None`: none, only counting them), and what it has seen.
struct Cut {
    depth: usize,
    take: Option<(u64, u64)>,
    info: SplitInfo,
    region: Option<Region>,
}

/// How the search treats the systems it runs: the split hooks of a
/// [`SplitSystem`], or none.
trait Hooks<TS: TransitionSystem> {
    fn enter_region(&mut self, system: &mut TS, region: Region);
    fn fingerprint(&self, system: &TS, transition: &TS::Transition) -> u64;
    fn at_cut(&mut self, system: &mut TS, state: &TS::State, item: &TS::Transition, taken: bool);
}

struct NoHooks;

impl<TS: TransitionSystem> Hooks<TS> for NoHooks {
    fn enter_region(&mut self, _: &mut TS, _: Region) {}
    fn fingerprint(&self, _: &TS, _: &TS::Transition) -> u64 {
        0
    }
    fn at_cut(&mut self, _: &mut TS, _: &TS::State, _: &TS::Transition, _: bool) {}
}

struct SplitHooks;

impl<TS: SplitSystem> Hooks<TS> for SplitHooks {
    fn enter_region(&mut self, system: &mut TS, region: Region) {
        system.enter_region(region);
    }
    fn fingerprint(&self, system: &TS, transition: &TS::Transition) -> u64 {
        system.transition_fingerprint(transition)
    }
    fn at_cut(&mut self, system: &mut TS, state: &TS::State, item: &TS::Transition, taken: bool) {
        system.at_cut(state, item, taken);
    }
}

/// Mixes `value` into the digest `hash` (FNV-1a over the bytes, then a
/// multiply-xorshift): the same in every process, unlike `RandomState`.
fn mix(hash: u64, value: u64) -> u64 {
    let mut h = hash ^ 0xcbf2_9ce4_8422_2325;
    for byte in value.to_le_bytes() {
        h ^= u64::from(byte);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h ^= h >> 29;
    h.wrapping_mul(0xbf58_476d_1ce4_e5b9)
}

impl Search {
    pub fn new(limits: Limits) -> Search {
        Search { limits }
    }

    /// Explores everything reachable from `initial` in `system`.
    pub fn run<TS: TransitionSystem>(
        &self,
        system: &mut TS,
        initial: TS::State,
    ) -> SearchReport<TS::Error> {
        let start = Instant::now();
        let mut stats = SearchStats::default();
        let outcome = self.explore(system, initial, &mut stats, start, None, &mut NoHooks);
        SearchReport {
            outcome,
            stats,
            elapsed: start.elapsed(),
        }
    }

    /// Explores the part `split.part` of `split.parts` of the search from
    /// `initial` (see [`Split`] for what a part is and why the parts together
    /// are the whole search). Also returns what it saw of the cut.
    pub fn run_part<TS: SplitSystem>(
        &self,
        system: &mut TS,
        initial: TS::State,
        split: Split,
    ) -> (SearchReport<TS::Error>, SplitInfo) {
        let take = Some((split.part, split.parts.max(1)));
        self.run_cut(system, initial, split.depth, take)
    }

    /// Explores only the states above the cut at `depth` branching points (the
    /// prefix every part of a split at that depth explores) and counts the
    /// items at the cut: how a caller chooses the depth of a split.
    pub fn count_items<TS: SplitSystem>(
        &self,
        system: &mut TS,
        initial: TS::State,
        depth: u64,
    ) -> (SearchReport<TS::Error>, SplitInfo) {
        self.run_cut(system, initial, depth, None)
    }

    fn run_cut<TS: SplitSystem>(
        &self,
        system: &mut TS,
        initial: TS::State,
        depth: u64,
        take: Option<(u64, u64)>,
    ) -> (SearchReport<TS::Error>, SplitInfo) {
        let start = Instant::now();
        let mut stats = SearchStats::default();
        let mut cut = Cut {
            depth: usize::try_from(depth).unwrap_or(usize::MAX),
            take,
            info: SplitInfo::default(),
            region: None,
        };
        let outcome = self.explore(
            system,
            initial,
            &mut stats,
            start,
            Some(&mut cut),
            &mut SplitHooks,
        );
        let report = SearchReport {
            outcome,
            stats,
            elapsed: start.elapsed(),
        };
        (report, cut.info)
    }

    fn limit_reached(&self, stats: &SearchStats, start: Instant) -> Option<Limit> {
        for flag in [&self.limits.cancel, &self.limits.siblings_stop]
            .into_iter()
            .flatten()
        {
            if flag.load(Ordering::Relaxed) {
                return Some(Limit::Cancelled);
            }
        }
        if self
            .limits
            .max_states
            .is_some_and(|max| stats.states_seen >= max)
        {
            return Some(Limit::MaxStates);
        }
        // Reading the clock on every state costs little next to executing a transition.
        if self.limits.timeout.is_some_and(|t| start.elapsed() >= t) {
            return Some(Limit::Timeout);
        }
        if let Some(max) = self.limits.max_memory {
            if stats.states_seen.is_multiple_of(MEMORY_CHECK_EVERY)
                && resident_bytes().is_some_and(|rss| rss > max)
            {
                return Some(Limit::Memory);
            }
        }
        None
    }

    fn explore<TS: TransitionSystem, H: Hooks<TS>>(
        &self,
        system: &mut TS,
        initial: TS::State,
        stats: &mut SearchStats,
        start: Instant,
        mut cut: Option<&mut Cut>,
        hooks: &mut H,
    ) -> Outcome<TS::Error> {
        let mut stack: Vec<Branch<TS::State, TS::Transition>> = Vec::new();
        let mut path: Vec<TS::Transition> = Vec::new();
        // The state being visited; `None` means "backtrack to the stack".
        let mut current = Some(initial);
        // The level of the state being visited: branching points above it.
        let mut level = 0usize;
        loop {
            let state = match current.take() {
                Some(state) => state,
                None => {
                    // Backtrack: find the deepest branch with a transition left.
                    let Some(branch) = stack.last_mut() else {
                        return Outcome::Complete;
                    };
                    let transition = branch.transitions[branch.next_index].clone();
                    branch.next_index += 1;
                    path.truncate(branch.depth);
                    level = branch.level + 1;
                    let state = if branch.next_index == branch.transitions.len() {
                        // Last branch: the stacked state is no longer needed, move it.
                        let branch = stack.pop().expect("stack is not empty");
                        branch.state
                    } else {
                        branch.state.clone()
                    };
                    stats.transitions += 1;
                    let next = match system.next(state, &transition) {
                        Ok(next) => next,
                        Err(error) => return Outcome::Error(error),
                    };
                    path.push(transition);
                    next
                }
            };
            if let Some(limit) = self.limit_reached(stats, start) {
                return Outcome::LimitReached(limit);
            }
            if let Some(cut) = cut.as_deref_mut() {
                let region = if level >= cut.depth {
                    Region::Part
                } else {
                    Region::Prefix
                };
                if cut.region != Some(region) {
                    cut.region = Some(region);
                    hooks.enter_region(system, region);
                }
            }
            stats.states_seen += 1;
            stats.max_depth = stats.max_depth.max(path.len() as u64);
            match system.check(&state, &path) {
                Control::Stop => return Outcome::Stopped,
                Control::Prune => continue,
                Control::Continue => {}
            }
            if system.should_save(&state) {
                if system.save(&state) {
                    stats.states_saved += 1;
                } else {
                    stats.states_matched += 1;
                    continue;
                }
            }
            let mut transitions = match system.enabled(&state) {
                Ok(transitions) => transitions,
                Err(error) => return Outcome::Error(error),
            };
            let branching = transitions.len() >= 2;
            if let Some(cut) = cut.as_deref_mut() {
                if branching && level + 1 == cut.depth {
                    let mut kept = Vec::new();
                    for transition in transitions {
                        let fingerprint = hooks.fingerprint(system, &transition);
                        let taken = take_item(cut, fingerprint, path.len());
                        hooks.at_cut(system, &state, &transition, taken);
                        if taken {
                            kept.push(transition);
                        }
                    }
                    transitions = kept;
                }
            }
            match transitions.len() {
                0 => continue,
                1 => {
                    let transition = transitions.pop().expect("one transition");
                    stats.transitions += 1;
                    match system.next(state, &transition) {
                        Ok(next) => current = Some(next),
                        Err(error) => return Outcome::Error(error),
                    }
                    path.push(transition);
                    if branching {
                        level += 1;
                    }
                }
                _ => {
                    let first = transitions[0].clone();
                    stats.states_pushed += 1;
                    stack.push(Branch {
                        state: state.clone(),
                        transitions,
                        next_index: 1,
                        depth: path.len(),
                        level,
                    });
                    stats.transitions += 1;
                    match system.next(state, &first) {
                        Ok(next) => current = Some(next),
                        Err(error) => return Outcome::Error(error),
                    }
                    path.push(first);
                    level += 1;
                }
            }
        }
    }
}

/// Numbers the next transition at the cut as an item (in the order of the
/// depth-first search, so the same in every part), records it in the digest,
/// and says whether it belongs to this part.
fn take_item(cut: &mut Cut, fingerprint: u64, path_len: usize) -> bool {
    let item = cut.info.items;
    cut.info.items += 1;
    cut.info.digest = mix(mix(cut.info.digest, fingerprint), path_len as u64);
    cut.take.is_some_and(|(part, parts)| item % parts == part)
}
