//! The knobs of a run, as the command line sets them.

use std::sync::atomic::AtomicBool;
use std::sync::Arc;
use std::time::Duration;
use tass_state::api::SignedOverflow;

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

impl DeadlockMode {
    /// Parses `potential|absolute|none`.
    pub fn parse(text: &str) -> Option<DeadlockMode> {
        match text {
            "potential" => Some(DeadlockMode::Potential),
            "absolute" => Some(DeadlockMode::Absolute),
            "none" => Some(DeadlockMode::None),
            _ => None,
        }
    }
}

/// Which prover answers the queries (`--prover`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum ProverChoice {
    /// Built-in first, then the first SMT solver found on `PATH` (if any).
    #[default]
    Auto,
    /// Only the built-in prover (no external program; no witnesses).
    Builtin,
    /// Built-in first, then z3.
    Z3,
    /// Built-in first, then cvc5.
    Cvc5,
    /// Built-in first, then yices.
    Yices,
}

impl ProverChoice {
    /// Parses `auto|builtin|z3|cvc5|yices`.
    pub fn parse(text: &str) -> Option<ProverChoice> {
        match text {
            "auto" => Some(ProverChoice::Auto),
            "builtin" => Some(ProverChoice::Builtin),
            "z3" => Some(ProverChoice::Z3),
            "cvc5" => Some(ProverChoice::Cvc5),
            "yices" => Some(ProverChoice::Yices),
            _ => None,
        }
    }
}

/// The arithmetic the programs are compared in (`--arith`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Arith {
    /// Real equivalence: any identity of the reals (the default).
    #[default]
    Real,
    /// IEEE equivalence: only identities that IEEE arithmetic obeys.
    Ieee,
    /// Herbrand equivalence: expressions must be identical.
    Herbrand,
}

impl Arith {
    /// Parses `real|ieee|herbrand`.
    pub fn parse(text: &str) -> Option<Arith> {
        match text {
            "real" => Some(Arith::Real),
            "ieee" => Some(Arith::Ieee),
            "herbrand" => Some(Arith::Herbrand),
            _ => None,
        }
    }
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
    /// At most this many states (`--max-states`).
    pub max_states: Option<u64>,
    /// At most this long (`--timeout`).
    pub timeout: Option<Duration>,
    /// Stop after this many distinct violations; 0 = find all (`--max-violations`).
    pub max_violations: usize,
    /// Set (e.g. by Ctrl-C) to end the search early: the verdict is inconclusive.
    pub cancel: Option<Arc<AtomicBool>>,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            procs: 1,
            spec_procs: 1,
            impl_procs: 1,
            inputs: Vec::new(),
            deadlock: DeadlockMode::Potential,
            prover: ProverChoice::Auto,
            arith: Arith::Real,
            signed_overflow: SignedOverflow::Unchecked,
            reduction: Reduction::Urgent,
            max_states: None,
            timeout: None,
            max_violations: 1,
            cancel: None,
        }
    }
}
