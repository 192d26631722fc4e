//! The `Prover` trait and its answer and statistics types.

use std::fmt;
use std::time::Duration;

use tass_symbolic::api::Expr;

use crate::model::Model;
use crate::smt::BackendStats;

/// The answer to "does `assumption` imply `predicate` for every value of the
/// symbolic constants?".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Validity {
    /// Proved: the implication holds for all values.
    Yes,
    /// Refuted: some values satisfy `assumption` and falsify `predicate`.
    No,
    /// Not decided (time-out, unsupported construct, no solver, incomplete reasoning).
    Maybe,
}

impl fmt::Display for Validity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Validity::Yes => "yes",
            Validity::No => "no",
            Validity::Maybe => "maybe",
        })
    }
}

/// How much solver time a question is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Effort {
    /// A claim whose "don't know" weakens the verdict (an assertion, an
    /// equivalence, a coverage question): each solver gets the full time limit.
    #[default]
    Claim,
    /// A question whose "don't know" only costs time: whether a branch is
    /// feasible (undecided, both sides are explored). Each solver gets
    /// [`BRANCH_LIMIT`] at most.
    Branch,
}

/// The time limit of a solver for an [`Effort::Branch`] question (or the
/// run's limit when that is shorter), and of the nonlinear helper (cvc5 under
/// `--prover auto`) for any question.
pub const BRANCH_LIMIT: Duration = Duration::from_secs(1);

/// A validity answer with, when it is [`Validity::No`] and the prover could give one,
/// a model of `assumption && !predicate`: the counterexample's input values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Answer {
    /// The verdict.
    pub validity: Validity,
    /// Values of the symbolic constants refuting the implication (only with `No`).
    pub model: Option<Model>,
    /// Why the answer is `Maybe` (empty otherwise).
    pub reason: String,
}

impl Answer {
    /// `Yes`.
    pub fn yes() -> Answer {
        Answer {
            validity: Validity::Yes,
            model: None,
            reason: String::new(),
        }
    }

    /// `No`, with a model when known.
    pub fn no(model: Option<Model>) -> Answer {
        Answer {
            validity: Validity::No,
            model,
            reason: String::new(),
        }
    }

    /// `Maybe`, saying why.
    pub fn maybe(reason: impl Into<String>) -> Answer {
        Answer {
            validity: Validity::Maybe,
            model: None,
            reason: reason.into(),
        }
    }
}

/// Counters of a prover. `smt` has one entry per SMT back end.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ProverStats {
    /// Validity and satisfiability questions asked (cache hits included).
    pub queries: u64,
    /// Questions answered from the prover's cache of (assumption, predicate) pairs.
    pub cache_hits: u64,
    /// Questions given to the built-in prover.
    pub builtin_calls: u64,
    /// Of those, the ones it decided (`Yes` or `No`).
    pub builtin_decided: u64,
    /// Per SMT back end: calls, cache hits, answers, time-outs, failures, time.
    pub smt: Vec<BackendStats>,
    /// Total time spent answering questions.
    pub time: Duration,
}

impl ProverStats {
    /// Queries actually sent to SMT solver processes (all back ends).
    pub fn smt_calls(&self) -> u64 {
        self.smt.iter().map(|b| b.solver_calls).sum()
    }
}

/// Decides validity of implications between boolean symbolic expressions.
///
/// Soundness contract: `Yes` only when the implication is proved; `No` only when it
/// is refuted; everything else is `Maybe`. Implementations are shared between
/// threads (`Send + Sync`) and keep their own caches.
pub trait Prover: Send + Sync {
    /// Is `assumption => predicate` valid? Both are boolean expressions of the
    /// prover's factory.
    fn valid(&self, assumption: Expr, predicate: Expr) -> Validity {
        self.valid_with_model(assumption, predicate).validity
    }

    /// Like [`Prover::valid`], with a model of `assumption && !predicate` when the
    /// answer is `No` and the prover can produce one, and a reason for `Maybe`.
    fn valid_with_model(&self, assumption: Expr, predicate: Expr) -> Answer;

    /// The paper's `nsat`: `true` only if `pc` is certainly unsatisfiable.
    /// Conservative: `false` means "satisfiable or not known".
    fn is_unsat(&self, pc: Expr) -> bool;

    /// [`Prover::valid`] for a question worth `effort` (the same soundness
    /// contract: a shorter limit only makes `Maybe` likelier).
    fn valid_with_effort(&self, assumption: Expr, predicate: Expr, effort: Effort) -> Validity {
        let _ = effort;
        self.valid(assumption, predicate)
    }

    /// [`Prover::is_unsat`] for a question worth `effort`.
    fn is_unsat_with_effort(&self, pc: Expr, effort: Effort) -> bool {
        let _ = effort;
        self.is_unsat(pc)
    }

    /// Counters so far.
    fn stats(&self) -> ProverStats;

    /// A short description (`builtin`, `builtin+z3`, ...).
    fn name(&self) -> String;
}
