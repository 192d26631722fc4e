//! C quotients and remainders by constants in the linear refutation
//! (`linear.rs`).
//!
//! `linear.rs` reads every monomial as an opaque unknown, so a quotient
//! `t / c` or a remainder `t % c` (`t` an integer expression, `c` a concrete
//! integer) is an unknown with no properties, and claims such as
//! `x == 2 * ((i + 1) / 2)` after `i % 2 == 0` went to an SMT solver. Here the
//! unknowns of such terms get their *defining* constraints, which hold for
//! every value of `t`, so adding them to a system never removes a solution
//! and every refutation stays a proof:
//!
//! - C truncates toward zero: for `c >= 2` and `q = t / c`,
//!   `t >= 0  ->  c*q <= t <= c*q + c - 1` and
//!   `t <= -1 ->  c*q - (c - 1) <= t <= c*q`
//!   (e.g. `-7 / 2 == -3`: `-6 - 1 <= -7 <= -6`). Whatever the sign,
//!   `|t - c*q| <= c - 1`.
//! - `t / -c == -(t / c)`: the unknown equals minus the quotient by `c`.
//! - `t % c == t % -c == t - c*(t / c)`: an equality with the quotient's
//!   unknown (`t / c`, built by the factory), which gets its own constraints.
//!
//! The sign of `t` is decided from the system's bounds on single unknowns
//! when they decide it; otherwise the two signs are a case
//! split (both cases must be refuted), within the query's case budget; past
//! it, only the sign-free bound `|t - c*q| <= c - 1` is added (weaker, still
//! true). Division by zero (`t / 0 == 0`, `t % 0 == t`) and by `1`/`-1` never
//! reach here: the factory folds them.

use std::collections::BTreeMap;

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use tass_symbolic::api::{Expr, ExprFactory, ExprView};

use crate::linear::{linear_form, Constraint, Kind, Unknowns};

/// Most quotient / remainder unknowns defined for one query (nested and
/// remainder-made quotients included): each may cost a case split.
const MAX_DIVISIONS: usize = 12;

/// Systems with more unknowns than this get no definitions: Fourier-Motzkin
/// on a long path condition with the quotients' constraints added costs
/// more than the SMT query it would save (measured on the paper's
/// `stagger`, whose lagged path conditions have 20 and more unknowns).
const MAX_UNKNOWNS: usize = 10;

/// The case splits a query may still make (shared with `linear.rs`'s
/// disjunctions): `cases` is the product of the splits' sizes so far.
pub(crate) struct CaseBudget<'a> {
    pub cases: &'a mut usize,
    pub max: usize,
}

/// A linear expression `sum(coef * unknown) + constant`.
#[derive(Clone)]
struct Linear {
    coefs: BTreeMap<usize, BigRational>,
    constant: BigRational,
}

impl Linear {
    fn of(f: &ExprFactory, e: Expr, unknowns: &mut Unknowns) -> Linear {
        let (coefs, constant) = linear_form(f, e, unknowns);
        Linear { coefs, constant }
    }

    fn unknown(i: usize) -> Linear {
        Linear {
            coefs: BTreeMap::from([(i, BigRational::one())]),
            constant: BigRational::zero(),
        }
    }

    /// `self + k * other`.
    fn plus(&self, k: &BigRational, other: &Linear) -> Linear {
        let mut coefs = self.coefs.clone();
        for (&i, v) in &other.coefs {
            *coefs.entry(i).or_insert_with(BigRational::zero) += k * v;
        }
        coefs.retain(|_, v| !v.is_zero());
        Linear {
            coefs,
            constant: &self.constant + k * &other.constant,
        }
    }

    fn shifted(&self, by: &BigRational) -> Linear {
        Linear {
            coefs: self.coefs.clone(),
            constant: &self.constant + by,
        }
    }

    /// The constraint `self (kind) 0`.
    fn holds(&self, kind: Kind) -> Constraint {
        Constraint {
            coefs: self.coefs.clone(),
            constant: self.constant.clone(),
            kind,
        }
    }

    /// The constraint `self >= 0`.
    fn nonneg(&self) -> Constraint {
        self.holds(Kind::Ge)
    }
}

/// What an unknown is, when it is a C quotient or remainder by a constant.
enum Division {
    /// `numerator / divisor` (`divisor` not in -1..=1).
    Quotient { numerator: Expr, divisor: BigInt },
    /// `numerator % divisor`.
    Remainder { numerator: Expr, divisor: BigInt },
}

fn division_of(f: &ExprFactory, m: Expr) -> Option<Division> {
    let (numerator, divisor, quotient) = match f.view(m) {
        ExprView::IntDiv(a, b) => (a, b, true),
        ExprView::IntMod(a, b) => (a, b, false),
        _ => return None,
    };
    let divisor = f.as_concrete_int(divisor)?;
    if divisor.abs() <= BigInt::one() {
        return None;
    }
    Some(if quotient {
        Division::Quotient { numerator, divisor }
    } else {
        Division::Remainder { numerator, divisor }
    })
}

/// Adds the defining constraints of every quotient and remainder unknown of
/// `unknowns` (also those the definitions themselves introduce): facts that
/// hold for every value go to `base`, sign cases to `splits` (alternatives,
/// each a conjunction).
pub(crate) fn define(
    f: &ExprFactory,
    unknowns: &mut Unknowns,
    base: &mut Vec<Constraint>,
    splits: &mut Vec<Vec<Vec<Constraint>>>,
    mut budget: CaseBudget<'_>,
) {
    if unknowns.len() > MAX_UNKNOWNS {
        return;
    }
    let one = BigRational::one();
    let mut defined = 0;
    let mut next = 0;
    while next < unknowns.len() && defined < MAX_DIVISIONS {
        let index = next;
        next += 1;
        let Some(division) = division_of(f, unknowns.monomial(index)) else {
            continue;
        };
        defined += 1;
        match division {
            Division::Remainder { numerator, divisor } => {
                // r == t - |c| * (t / |c|)
                let c = divisor.abs();
                let quotient = f.int_div(numerator, f.int(c.clone()));
                let t = Linear::of(f, numerator, unknowns);
                let q = Linear::of(f, quotient, unknowns);
                let definition = Linear::unknown(index)
                    .plus(&-&one, &t)
                    .plus(&BigRational::from_integer(c), &q);
                base.push(definition.holds(Kind::Eq));
            }
            Division::Quotient { numerator, divisor } if divisor.is_negative() => {
                // t / -c == -(t / c)
                let quotient = f.int_div(numerator, f.int(-divisor));
                let q = Linear::of(f, quotient, unknowns);
                base.push(Linear::unknown(index).plus(&one, &q).holds(Kind::Eq));
            }
            Division::Quotient { numerator, divisor } => {
                let t = Linear::of(f, numerator, unknowns);
                let cases = truncation_cases(&t, index, &divisor);
                place(cases, &t, base, splits, &mut budget);
            }
        }
    }
}

/// Adds one quotient's constraints: the case of the sign the system's
/// bounds on single unknowns force, else a split of both when the budget
/// allows, else the sign-free bound. (Bounds, not a refutation of the other
/// sign: a Fourier-Motzkin run per quotient cost more than the SMT query it
/// saved.)
fn place(
    cases: SignCases,
    t: &Linear,
    base: &mut Vec<Constraint>,
    splits: &mut Vec<Vec<Vec<Constraint>>>,
    budget: &mut CaseBudget<'_>,
) {
    match sign_from_bounds(t, base) {
        Some(Sign::Nonnegative) => base.extend(cases.nonnegative),
        Some(Sign::Negative) => base.extend(cases.negative),
        // one sign split per query at most: each doubles the refutations
        None if *budget.cases == 1 && *budget.cases * 2 <= budget.max => {
            *budget.cases *= 2;
            splits.push(vec![cases.nonnegative, cases.negative]);
        }
        None => base.extend(cases.either),
    }
}

enum Sign {
    Nonnegative,
    Negative,
}

/// The sign of `t` when the system's bounds decide it: bounds on single
/// unknowns (`a*x + b >= 0`, `> 0`, `== 0`), propagated a few rounds through
/// the other constraints (interval reasoning: from `x - y == 0` and
/// `y >= 0`, `x >= 0`), then `t`'s least and greatest value over the box.
/// Sound: every bound is implied by the system (strict bounds are used as
/// weak ones).
fn sign_from_bounds(t: &Linear, system: &[Constraint]) -> Option<Sign> {
    const ROUNDS: usize = 3;
    let mut lower: BTreeMap<usize, BigRational> = BTreeMap::new();
    let mut upper: BTreeMap<usize, BigRational> = BTreeMap::new();
    for _ in 0..ROUNDS {
        let mut changed = false;
        for c in system {
            for (&x, a) in &c.coefs {
                // a*x + rest (op) 0, rest = sum of the others + constant
                let rest = |pick_lower: bool| -> Option<BigRational> {
                    let mut sum = c.constant.clone();
                    for (&y, b) in &c.coefs {
                        if y == x {
                            continue;
                        }
                        let use_lower = b.is_positive() == pick_lower;
                        let v = if use_lower {
                            lower.get(&y)
                        } else {
                            upper.get(&y)
                        }?;
                        sum += b * v;
                    }
                    Some(sum)
                };
                // a*x >= -rest: with rest at its greatest, x's bound on a's side
                let from_greatest = rest(false).map(|r| -r / a);
                let from_least = rest(true).map(|r| -r / a);
                let (new_lower, new_upper) = match (c.kind, a.is_positive()) {
                    (Kind::Eq, true) => (from_greatest, from_least),
                    (Kind::Eq, false) => (from_least, from_greatest),
                    (_, true) => (from_greatest, None),
                    (_, false) => (None, from_greatest),
                };
                if let Some(l) = new_lower {
                    if lower.get(&x).is_none_or(|o| &l > o) {
                        lower.insert(x, l);
                        changed = true;
                    }
                }
                if let Some(u) = new_upper {
                    if upper.get(&x).is_none_or(|o| &u < o) {
                        upper.insert(x, u);
                        changed = true;
                    }
                }
            }
        }
        if !changed {
            break;
        }
    }
    // the least and the greatest value of t over the box
    let mut least = Some(t.constant.clone());
    let mut greatest = Some(t.constant.clone());
    for (x, k) in &t.coefs {
        let (for_least, for_greatest) = if k.is_positive() {
            (lower.get(x), upper.get(x))
        } else {
            (upper.get(x), lower.get(x))
        };
        least = least.zip(for_least).map(|(s, v)| s + k * v);
        greatest = greatest.zip(for_greatest).map(|(s, v)| s + k * v);
    }
    if least.is_some_and(|l| !l.is_negative()) {
        Some(Sign::Nonnegative)
    } else if greatest.is_some_and(|g| g.is_negative()) {
        Some(Sign::Negative)
    } else {
        None
    }
}

/// The constraints of `q == t / c` (`c >= 2`) by the sign of `t`; the first
/// constraint of each case is the sign itself.
struct SignCases {
    nonnegative: Vec<Constraint>,
    negative: Vec<Constraint>,
    /// True whatever the sign: `|t - c*q| <= c - 1`.
    either: Vec<Constraint>,
}

fn truncation_cases(t: &Linear, q: usize, c: &BigInt) -> SignCases {
    let one = BigRational::one();
    let c = BigRational::from_integer(c.clone());
    let c_minus_1 = &c - &one;
    let zero = Linear {
        coefs: BTreeMap::new(),
        constant: BigRational::zero(),
    };
    // rem = t - c*q, and its negation
    let rem = t.plus(&-&c, &Linear::unknown(q));
    let minus_rem = zero.plus(&-&one, &rem);
    let minus_t = zero.plus(&-&one, t);
    SignCases {
        nonnegative: vec![
            t.nonneg(),
            rem.nonneg(),
            minus_rem.shifted(&c_minus_1).nonneg(),
        ],
        negative: vec![
            minus_t.shifted(&-&one).nonneg(),
            minus_rem.nonneg(),
            rem.shifted(&c_minus_1).nonneg(),
        ],
        either: vec![
            rem.shifted(&c_minus_1).nonneg(),
            minus_rem.shifted(&c_minus_1).nonneg(),
        ],
    }
}

#[cfg(test)]
mod tests {
    use tass_symbolic::api::{ExprFactory, Type};

    use crate::linear::implies;

    /// `implies` on `assumption |= predicate`, built over integers `i`, `n`.
    fn proves(
        build: impl Fn(
            &ExprFactory,
            [tass_symbolic::api::Expr; 2],
        ) -> (tass_symbolic::api::Expr, tass_symbolic::api::Expr),
    ) -> bool {
        let f = ExprFactory::new();
        let vars = ["i", "n"].map(|v| f.symbol(v, Type::Int));
        let (a, p) = build(&f, vars);
        implies(&f, a, p)
    }

    #[test]
    fn parity_facts_of_the_stagger_invariant_are_proved() {
        // i >= 0 && i % 2 == 0 |= i + 2 == 2 * ((i + 2) / 2)
        assert!(proves(|f, [i, _]| {
            let a = f.and(f.ge(i, f.int(0)), f.eq(f.int_mod(i, f.int(2)), f.int(0)));
            let p = f.eq(
                f.add(i, f.int(2)),
                f.mul(f.int(2), f.int_div(f.add(i, f.int(2)), f.int(2))),
            );
            (a, p)
        }));
        // i % 2 == 1 |= (i + 1) / 2 == i / 2 + 1 (an odd i is positive)
        assert!(proves(|f, [i, _]| {
            let a = f.eq(f.int_mod(i, f.int(2)), f.int(1));
            let half = f.int_div(i, f.int(2));
            let p = f.eq(
                f.int_div(f.add(i, f.int(1)), f.int(2)),
                f.add(half, f.int(1)),
            );
            (a, p)
        }));
        // 0 <= i < 2n |= i / 2 < n
        assert!(proves(|f, [i, n]| {
            let a = f.and(f.ge(i, f.int(0)), f.lt(i, f.mul(f.int(2), n)));
            (a, f.lt(f.int_div(i, f.int(2)), n))
        }));
    }

    #[test]
    fn truncation_toward_zero_is_respected() {
        // i <= -1 |= i / 3 <= 0, and i / 3 * 3 >= i (rounded up, not down)
        assert!(proves(|f, [i, _]| {
            let a = f.le(i, f.int(-1));
            let q = f.int_div(i, f.int(3));
            (a, f.and(f.le(q, f.int(0)), f.ge(f.mul(f.int(3), q), i)))
        }));
        // ... but not i / 3 * 3 <= i (floor division would say so)
        assert!(!proves(|f, [i, _]| {
            let a = f.le(i, f.int(-1));
            let q = f.int_div(i, f.int(3));
            (a, f.le(f.mul(f.int(3), q), i))
        }));
        // i % 2 >= 0 fails for negative i; i % -2 == i % 2; i / -2 == -(i / 2)
        assert!(!proves(|f, [i, _]| (
            f.tt(),
            f.ge(f.int_mod(i, f.int(2)), f.int(0))
        )));
        assert!(proves(|f, [i, _]| (
            f.tt(),
            f.and(
                f.eq(f.int_mod(i, f.int(-2)), f.int_mod(i, f.int(2))),
                f.eq(f.int_div(i, f.int(-2)), f.neg(f.int_div(i, f.int(2))))
            )
        )));
        // -(c-1) <= i % c <= c - 1 whatever the sign
        assert!(proves(|f, [i, _]| {
            let r = f.int_mod(i, f.int(5));
            (f.tt(), f.and(f.ge(r, f.int(-4)), f.le(r, f.int(4))))
        }));
    }

    #[test]
    fn what_does_not_follow_is_not_proved() {
        // i / 2 * 2 == i needs i even
        assert!(!proves(|f, [i, _]| (
            f.ge(i, f.int(0)),
            f.eq(f.mul(f.int(2), f.int_div(i, f.int(2))), i)
        )));
        // n / 2 + n / 2 == n is false for odd n
        assert!(!proves(|f, [_, n]| {
            let h = f.int_div(n, f.int(2));
            (f.ge(n, f.int(0)), f.eq(f.add(h, h), n))
        }));
    }
}
