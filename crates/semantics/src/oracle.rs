//! The oracle: the engine's access to the prover, with fast paths and counters.

use tass_prove::api::{Effort, ModelValue, Prover, ProverStats, Validity};
use tass_symbolic::api::{Assignment, BigInt, BigRational, Expr, ExprFactory, Type, Value};

use crate::float::{confirm_in_doubles, is_float_operator, Arith};

/// True if `e` applies a floating operator of the herbrand/ieee levels.
fn mentions_float_operator(f: &ExprFactory, e: Expr) -> bool {
    f.free_symbols(e).into_iter().any(|s| {
        matches!(f.type_of(s), Type::Function(..))
            && f.symbol_name(s).is_some_and(|n| is_float_operator(&n))
    })
}

/// The outcome of checking a claim under an assumption.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// The claim follows from the assumption.
    Holds,
    /// Some values satisfying the assumption falsify the claim; `witness` gives
    /// such values (name, value) when the prover produced a model.
    Fails {
        /// Values of the symbolic constants in the counterexample.
        witness: Option<Vec<(String, String)>>,
    },
    /// The prover could not decide.
    Unknown,
}

/// Counters of the oracle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OracleStats {
    /// Checks asked of the oracle.
    pub checks: u64,
    /// Checks answered without the prover (concrete claim or assumption).
    pub trivial: u64,
    /// Loop-invariant checks made (on entry and at the end of an iteration).
    pub invariant_checks: u64,
    /// The prover questions those checks asked.
    pub invariant_prover_calls: u64,
    /// Arrival steps at invariant loop heads executed (entry and end of an
    /// iteration): tass's own transitions, which the LISE paper's next-state
    /// function folds into the loop's branch transition (its Fig. 3).
    pub loop_arrivals: u64,
    /// The prover's own counters (built-in and SMT calls).
    pub prover: ProverStats,
}

/// Whether the `signed-overflow` property is checked. Off by default: signed
/// arithmetic is taken over the mathematical integers, and programs that compute
/// with inputs bounded above only would otherwise be flooded with possible
/// overflows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum SignedOverflow {
    /// Signed overflow is not reported (the default).
    #[default]
    Unchecked,
    /// Every signed `+`, `-`, `*`, `/`, `<<` and unary `-` is checked to stay
    /// within its type.
    Checked,
}

/// Wraps a [`Prover`] for the engine: answers concrete questions itself, turns
/// models into witnesses, and counts.
pub struct Oracle {
    prover: Box<dyn Prover>,
    checks: u64,
    trivial: u64,
    /// Loop-invariant checks (entry and preservation) and the prover
    /// questions they asked.
    invariant_checks: u64,
    invariant_prover_calls: u64,
    loop_arrivals: u64,
    signed_overflow: SignedOverflow,
    /// How floating-point operations are interpreted (`--arith`).
    arith: Arith,
    /// Uninterpreted function symbols that stand for a known mathematical function
    /// (`sqrt`, `exp`, ...): a counterexample that relies on one of them may pick a
    /// meaning the real function does not have, so it is only a *possible* one.
    abstractions: Vec<Expr>,
}

impl std::fmt::Debug for Oracle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Oracle({})", self.prover.name())
    }
}

impl From<Box<dyn Prover>> for Oracle {
    fn from(prover: Box<dyn Prover>) -> Oracle {
        Oracle::new(prover)
    }
}

/// True for the names of the uninterpreted functions that stand in for known ones:
/// the `<math.h>` functions the engine does not evaluate and the bitwise operators on
/// symbolic operands. A prover's counterexample through one of them may not exist for
/// the real function, so it is at most a *possible* violation or difference.
pub fn is_stand_in_function(name: &str) -> bool {
    matches!(name, "sqrt" | "exp" | "log" | "sin" | "cos" | "pow")
        || is_float_operator(name)
        || tass_symbolic::api::BITWISE_FUNCTIONS.contains(&name)
}

/// The model's values as a witness when they make `assumption` true and `claim`
/// false under the exact evaluator, which computes the bitwise operators (so a
/// model that leans on them alone is a real counterexample); `None` when a
/// constant has no value in the model or another stand-in (`sqrt`, a floating
/// operator) would have to be evaluated.
fn confirmed_by_evaluation(
    f: &ExprFactory,
    assumption: Expr,
    claim: Expr,
    model: &tass_prove::api::Model,
) -> Option<Vec<(String, String)>> {
    let mut symbols = f.free_symbols(assumption);
    symbols.extend(f.free_symbols(claim));
    let mut values = Assignment::new();
    let mut witness = Vec::new();
    for x in symbols {
        if matches!(f.type_of(x), Type::Function(..)) {
            continue; // evaluated by `eval` if bitwise, else it fails below
        }
        let name = f.symbol_name(x)?;
        let given = model.get(&name)?;
        let value = match (given, f.type_of(x)) {
            (ModelValue::Int(i), Type::Int) => Value::Int(i.clone()),
            (ModelValue::Real(q), Type::Real) => Value::Real(q.clone()),
            (ModelValue::Bool(b), Type::Bool) => Value::Bool(*b),
            _ => return None,
        };
        values.set(x, value);
        if !is_internal_symbol(&name) {
            witness.push((name.to_string(), given.to_string()));
        }
    }
    let refuted = f.eval_bool(assumption, &values).ok()? && !f.eval_bool(claim, &values).ok()?;
    refuted.then(|| {
        witness.sort();
        witness.dedup();
        witness
    })
}

/// True for symbolic constants the engine makes up internally (not inputs): they
/// are left out of witnesses.
pub fn is_internal_symbol(name: &str) -> bool {
    name.starts_with("__tass") || name.starts_with("undef") || name.ends_with('\'')
}

impl Oracle {
    /// An oracle asking `prover`.
    pub fn new(prover: Box<dyn Prover>) -> Oracle {
        Oracle {
            prover,
            checks: 0,
            trivial: 0,
            invariant_checks: 0,
            loop_arrivals: 0,
            invariant_prover_calls: 0,
            signed_overflow: SignedOverflow::Unchecked,
            arith: Arith::Real,
            abstractions: Vec::new(),
        }
    }

    /// Chooses whether signed overflow is checked.
    pub fn set_signed_overflow(&mut self, mode: SignedOverflow) {
        self.signed_overflow = mode;
    }

    /// Whether signed overflow is checked.
    pub fn signed_overflow(&self) -> SignedOverflow {
        self.signed_overflow
    }

    /// Chooses the arithmetic level of floating-point operations.
    pub fn set_arith(&mut self, arith: Arith) {
        self.arith = arith;
    }

    /// The arithmetic level of floating-point operations.
    pub fn arith(&self) -> Arith {
        self.arith
    }

    /// Records `symbol` as an uninterpreted stand-in for a known function.
    pub fn note_abstraction(&mut self, symbol: Expr) {
        if !self.abstractions.contains(&symbol) {
            self.abstractions.push(symbol);
        }
    }

    /// True if `e` mentions a stand-in recorded by [`Oracle::note_abstraction`].
    pub fn mentions_abstraction(&self, f: &ExprFactory, e: Expr) -> bool {
        self.mentions_stand_in(f, e, &[])
    }

    /// True if `e` mentions a stand-in other than a bitwise operator (a
    /// `<math.h>` function, a value such as `time(NULL)`'s, a floating
    /// operator at herbrand/ieee): a model's values for it need not be ones
    /// the real function or call can produce.
    fn mentions_other_than_bitwise(&self, f: &ExprFactory, e: Expr) -> bool {
        self.mentions_stand_in(f, e, &tass_symbolic::api::BITWISE_FUNCTIONS)
    }

    /// True if `e` mentions a recorded stand-in not named in `ignored`, or a
    /// floating operator when the arithmetic level leaves those
    /// uninterpreted.
    fn mentions_stand_in(&self, f: &ExprFactory, e: Expr, ignored: &[&str]) -> bool {
        let counted = |symbol: Expr| {
            ignored.is_empty()
                || !f
                    .symbol_name(symbol)
                    .is_some_and(|n| ignored.contains(&&*n))
        };
        self.abstractions
            .iter()
            .any(|&symbol| counted(symbol) && f.occurs(symbol, e))
            || (self.arith != Arith::Real && mentions_float_operator(f, e))
    }

    /// An oracle with the built-in prover only (no external solver).
    pub fn builtin(factory: std::sync::Arc<ExprFactory>) -> Oracle {
        Oracle::new(Box::new(tass_prove::api::BuiltinProver::new(factory)))
    }

    /// The prover.
    pub fn prover(&self) -> &dyn Prover {
        &*self.prover
    }

    /// Does `assumption` imply `claim`?
    pub fn valid(&mut self, f: &ExprFactory, assumption: Expr, claim: Expr) -> Decision {
        self.checks += 1;
        if f.as_bool(claim) == Some(true) || f.as_bool(assumption) == Some(false) {
            self.trivial += 1;
            return Decision::Holds;
        }
        // Satisfiability under a stand-in: the prover's model would not be
        // used (a counterexample is confirmed in doubles below), so the
        // prover may decide it without one (`Prover::is_unsat`, which decides
        // conjunctions of floating comparisons without a solver).
        if f.as_bool(claim) == Some(false) && self.mentions_abstraction(f, assumption) {
            return if self.prover.is_unsat(assumption) {
                Decision::Holds
            } else {
                self.confirmed_in_doubles(f, assumption, claim)
            };
        }
        let answer = self.prover.valid_with_model(assumption, claim);
        match answer.validity {
            Validity::Yes => Decision::Holds,
            // A counterexample that leans on an uninterpreted stand-in (sqrt, a
            // bitwise operator on symbols, ...) may not exist for the real function.
            Validity::No
                if self.mentions_abstraction(f, assumption)
                    || self.mentions_abstraction(f, claim) =>
            {
                let only_bitwise = !self.mentions_other_than_bitwise(f, assumption)
                    && !self.mentions_other_than_bitwise(f, claim);
                match answer
                    .model
                    .as_ref()
                    .filter(|_| only_bitwise)
                    .and_then(|m| confirmed_by_evaluation(f, assumption, claim, m))
                {
                    Some(witness) => Decision::Fails {
                        witness: Some(witness),
                    },
                    None => self.confirmed_in_doubles(f, assumption, claim),
                }
            }
            Validity::No => Decision::Fails {
                witness: answer.model.map(|m| {
                    m.iter()
                        .filter(|(name, _)| !is_internal_symbol(name))
                        .map(|(name, v)| (name.to_string(), v.to_string()))
                        .collect()
                }),
            },
            Validity::Maybe => self.confirmed_in_doubles(f, assumption, claim),
        }
    }

    /// Whether `assumption` certainly implies `claim`: [`Oracle::valid`]'s
    /// `Holds`, for callers to whom `Fails` and `Unknown` are alike (a
    /// branch's guard). It skips the search for a counterexample in IEEE
    /// doubles that `valid` makes at herbrand/ieee level (most of the time of
    /// a floating-point program there, and no witness is wanted).
    pub fn holds(&mut self, f: &ExprFactory, assumption: Expr, claim: Expr) -> bool {
        self.checks += 1;
        if f.as_bool(claim) == Some(true) || f.as_bool(assumption) == Some(false) {
            self.trivial += 1;
            return true;
        }
        if f.as_bool(claim) == Some(false) {
            return self.prover.is_unsat_with_effort(assumption, Effort::Branch);
        }
        // Not holding only costs time here (both sides of the branch are
        // explored), so the solvers get a short limit.
        self.prover
            .valid_with_effort(assumption, claim, Effort::Branch)
            == Validity::Yes
    }

    /// Whether a branch whose path condition would be `pc` is certainly
    /// infeasible. `false` (feasible or not known) explores it, so the solvers
    /// get a short limit ([`Effort::Branch`]).
    pub fn branch_infeasible(&mut self, f: &ExprFactory, pc: Expr) -> bool {
        self.checks += 1;
        match f.as_bool(pc) {
            Some(b) => {
                self.trivial += 1;
                !b
            }
            None => self.prover.is_unsat_with_effort(pc, Effort::Branch),
        }
    }

    /// At herbrand/ieee level, a counterexample found by evaluating in IEEE
    /// doubles is a fact about every machine; otherwise the answer is unknown.
    fn confirmed_in_doubles(&self, f: &ExprFactory, assumption: Expr, claim: Expr) -> Decision {
        let confirmed = match self.arith {
            Arith::Real => None,
            Arith::Ieee | Arith::Herbrand => confirm_in_doubles(f, assumption, claim),
        };
        match confirmed {
            Some(values) => Decision::Fails {
                witness: Some(
                    values
                        .into_iter()
                        .filter(|(name, _)| !is_internal_symbol(name))
                        .collect(),
                ),
            },
            None => Decision::Unknown,
        }
    }

    /// The paper's `nsat`: `true` only if `pc` is certainly unsatisfiable.
    pub fn is_unsat(&mut self, f: &ExprFactory, pc: Expr) -> bool {
        self.checks += 1;
        match f.as_bool(pc) {
            Some(b) => {
                self.trivial += 1;
                !b
            }
            None => self.prover.is_unsat(pc),
        }
    }

    /// The value of the integer expression `e` at some point satisfying `pc`, when
    /// the prover gives a model of `pc`: a candidate to be proved by the caller
    /// (`valid(pc, e == v)`), not a fact.
    pub fn candidate_value(&mut self, f: &ExprFactory, pc: Expr, e: Expr) -> Option<BigInt> {
        let model = self.prover.valid_with_model(pc, f.ff()).model?;
        let mut asg = Assignment::new();
        for x in f.free_symbols(e) {
            let name = f.symbol_name(x)?;
            let value = match model.get(&name)? {
                ModelValue::Int(i) => Value::Int(i.clone()),
                ModelValue::Real(q) => Value::Real(q.clone()),
                ModelValue::Bool(b) => Value::Bool(*b),
                _ => return None,
            };
            asg.set(x, value);
        }
        match f.eval(e, &asg).ok()? {
            Value::Int(i) => Some(i),
            Value::Real(q) if q.is_integer() => Some(BigRational::to_integer(&q)),
            _ => None,
        }
    }

    /// The questions asked of the prover so far (checks not answered trivially).
    pub fn prover_questions(&self) -> u64 {
        self.checks - self.trivial
    }

    /// Counts one loop-invariant check that asked `prover_calls` questions.
    pub fn count_invariant_check(&mut self, prover_calls: u64) {
        self.invariant_checks += 1;
        self.invariant_prover_calls += prover_calls;
    }

    /// Counts one executed arrival step at an invariant loop head.
    pub fn count_loop_arrival(&mut self) {
        self.loop_arrivals += 1;
    }

    /// Counters so far.
    pub fn stats(&self) -> OracleStats {
        OracleStats {
            checks: self.checks,
            trivial: self.trivial,
            invariant_checks: self.invariant_checks,
            invariant_prover_calls: self.invariant_prover_calls,
            loop_arrivals: self.loop_arrivals,
            prover: self.prover.stats(),
        }
    }
}
