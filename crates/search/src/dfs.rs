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

/// The result of [`Search::run`].
#[derive(Debug)]
pub struct SearchReport<E> {
    pub outcome: Outcome<E>,
    pub stats: SearchStats,
    pub elapsed: Duration,
}

/// A depth-first search with the given limits.
#[derive(Debug, Clone, Default)]
pub struct Search {
    limits: Limits,
}

/// A branching point on the stack: the state, its enabled transitions, the next one to
/// take, and how long the path was at this state.
struct Branch<S, T> {
    state: S,
    transitions: Vec<T>,
    next_index: usize,
    depth: usize,
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
        let outcome = self.explore(system, initial, &mut stats, start);
        SearchReport {
            outcome,
            stats,
            elapsed: start.elapsed(),
        }
    }

    fn limit_reached(&self, stats: &SearchStats, start: Instant) -> Option<Limit> {
        if let Some(flag) = &self.limits.cancel {
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

    fn explore<TS: TransitionSystem>(
        &self,
        system: &mut TS,
        initial: TS::State,
        stats: &mut SearchStats,
        start: Instant,
    ) -> Outcome<TS::Error> {
        let mut stack: Vec<Branch<TS::State, TS::Transition>> = Vec::new();
        let mut path: Vec<TS::Transition> = Vec::new();
        // The state being visited; `None` means "backtrack to the stack".
        let mut current = Some(initial);
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
                }
                _ => {
                    let first = transitions[0].clone();
                    stats.states_pushed += 1;
                    stack.push(Branch {
                        state: state.clone(),
                        transitions,
                        next_index: 1,
                        depth: path.len(),
                    });
                    stats.transitions += 1;
                    match system.next(state, &first) {
                        Ok(next) => current = Some(next),
                        Err(error) => return Outcome::Error(error),
                    }
                    path.push(first);
                }
            }
        }
    }
}
