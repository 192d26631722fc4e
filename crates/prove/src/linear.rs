//! Cheap, sound refutation of conjunctions of linear constraints: Gaussian
//! elimination of equalities, then Fourier-Motzkin elimination, with integer
//! tightening of constraints over integer unknowns.
//!
//! Monomials (including nonlinear ones such as `x*y`, and real quotients) are
//! treated as opaque unknowns: the abstraction only loses constraints, so "no real
//! solution" of the abstraction implies "no solution" of the original. Constraints
//! that are not linear relations are dropped, which is sound for the same reason.
//! Every refutation claimed here is a proof; failing to refute proves nothing.

use std::collections::BTreeMap;

use hashbrown::{HashMap, HashSet};
use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};
use tass_symbolic::api::{Expr, ExprFactory, ExprView, RelOp, Type};

/// Most constraints kept during elimination before giving up.
const MAX_CONSTRAINTS: usize = 400;
/// Most unknowns a system may have.
const MAX_UNKNOWNS: usize = 24;
/// Most case splits (disjunctions, disequalities) explored for one query.
const MAX_CASES: usize = 16;

/// `sum(coef * unknown) + constant  (> | >= | ==)  0`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Constraint {
    pub(crate) coefs: BTreeMap<usize, BigRational>,
    pub(crate) constant: BigRational,
    pub(crate) kind: Kind,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Kind {
    Gt,
    Ge,
    Eq,
}

/// A literal's linear reading.
#[derive(Clone, Debug)]
enum Lit {
    /// A single constraint.
    C(Constraint),
    /// `f != 0`: `f > 0 or f < 0`.
    Ne(Constraint),
    /// Not a linear relation: no information.
    Opaque,
}

/// Maps monomials to unknown indices, remembering which are integer-valued.
#[derive(Default)]
pub(crate) struct Unknowns {
    index: HashMap<Expr, usize>,
    is_int: Vec<bool>,
    /// The monomial of each unknown, by index.
    monomials: Vec<Expr>,
}

impl Unknowns {
    pub(crate) fn get(&mut self, f: &ExprFactory, m: Expr) -> usize {
        if let Some(&i) = self.index.get(&m) {
            return i;
        }
        let i = self.is_int.len();
        self.index.insert(m, i);
        self.monomials.push(m);
        self.is_int
            .push(matches!(f.type_of(m), Type::Int | Type::Char));
        i
    }

    /// How many unknowns there are (indices `0..len()`).
    pub(crate) fn len(&self) -> usize {
        self.monomials.len()
    }

    /// The monomial unknown `i` stands for.
    pub(crate) fn monomial(&self, i: usize) -> Expr {
        self.monomials[i]
    }
}

pub(crate) fn linear_form(
    f: &ExprFactory,
    g: Expr,
    unknowns: &mut Unknowns,
) -> (BTreeMap<usize, BigRational>, BigRational) {
    let mut coefs = BTreeMap::new();
    let mut constant = BigRational::zero();
    for (c, m) in f.poly_terms(g) {
        match f.as_concrete_rational(m) {
            Some(v) => constant += c * v,
            None => {
                // `(real) a` of an integer `a` has `a`'s value: one integer
                // unknown for both (`(double)N != 0.0` under `N >= 1`)
                let m = match f.view(m) {
                    ExprView::ToReal(a) if matches!(f.type_of(a), Type::Int) => a,
                    _ => m,
                };
                let i = unknowns.get(f, m);
                let e = coefs.entry(i).or_insert_with(BigRational::zero);
                *e += c;
            }
        }
    }
    coefs.retain(|_, c: &mut BigRational| !c.is_zero());
    (coefs, constant)
}

fn literal(f: &ExprFactory, lit: Expr, unknowns: &mut Unknowns) -> Lit {
    let ExprView::Rel(op, g) = f.view(lit) else {
        return Lit::Opaque;
    };
    if !matches!(f.type_of(g), Type::Int | Type::Real | Type::Char) {
        return Lit::Opaque;
    }
    let (coefs, constant) = linear_form(f, g, unknowns);
    let mk = |kind| Constraint {
        coefs: coefs.clone(),
        constant: constant.clone(),
        kind,
    };
    match op {
        RelOp::Gt => Lit::C(mk(Kind::Gt)),
        RelOp::Ge => Lit::C(mk(Kind::Ge)),
        RelOp::Eq => Lit::C(mk(Kind::Eq)),
        RelOp::Ne => Lit::Ne(mk(Kind::Eq)),
    }
}

impl Constraint {
    fn is_trivially_false(&self) -> bool {
        self.coefs.is_empty()
            && match self.kind {
                Kind::Gt => !self.constant.is_positive(),
                Kind::Ge => self.constant.is_negative(),
                Kind::Eq => !self.constant.is_zero(),
            }
    }

    fn is_trivially_true(&self) -> bool {
        self.coefs.is_empty() && !self.is_trivially_false()
    }

    fn negated(&self) -> Constraint {
        Constraint {
            coefs: self.coefs.iter().map(|(&k, v)| (k, -v)).collect(),
            constant: -&self.constant,
            kind: self.kind,
        }
    }

    /// Over integer unknowns: scale to integer coefficients, divide by their gcd and
    /// round the constant (`2x + 1 > 0` -> `x >= 0`). Returns `false` if the
    /// constraint has no integer solution (an equality whose gcd does not divide).
    fn tighten(&mut self, unknowns: &Unknowns) -> bool {
        if self.coefs.is_empty() || !self.coefs.keys().all(|&k| unknowns.is_int[k]) {
            return true;
        }
        let mut lcm = BigInt::one();
        for c in self.coefs.values() {
            lcm = lcm.lcm(c.denom());
        }
        let scale = BigRational::from_integer(lcm);
        let mut g = BigInt::zero();
        for c in self.coefs.values_mut() {
            *c = &*c * &scale;
            g = g.gcd(c.numer());
        }
        let mut constant = &self.constant * &scale;
        if self.kind == Kind::Gt {
            // Integer-valued left side: `s + c > 0` iff `s + c - 1 >= 0` once `c` is
            // rounded up to an integer.
            constant = BigRational::from_integer(constant.ceil().to_integer() - 1);
            if constant.is_integer() {
                self.kind = Kind::Ge;
            }
        }
        if g.is_zero() || g.is_one() {
            if self.kind != Kind::Eq {
                constant = constant.floor();
            } else if !constant.is_integer() {
                return false;
            }
            self.constant = constant;
            return true;
        }
        let gr = BigRational::from_integer(g);
        for c in self.coefs.values_mut() {
            *c = &*c / &gr;
        }
        let q = &constant / &gr;
        match self.kind {
            Kind::Eq => {
                if !q.is_integer() {
                    return false;
                }
                self.constant = q;
            }
            _ => self.constant = q.floor(),
        }
        true
    }
}

/// Adds `a * x + b * y` (both multipliers positive).
fn combine(x: &Constraint, a: &BigRational, y: &Constraint, b: &BigRational) -> Constraint {
    let mut coefs = BTreeMap::new();
    for (&k, v) in &x.coefs {
        coefs.insert(k, v * a);
    }
    for (&k, v) in &y.coefs {
        let e = coefs.entry(k).or_insert_with(BigRational::zero);
        *e += v * b;
    }
    coefs.retain(|_, c: &mut BigRational| !c.is_zero());
    let kind = if x.kind == Kind::Gt || y.kind == Kind::Gt {
        Kind::Gt
    } else {
        Kind::Ge
    };
    Constraint {
        coefs,
        constant: &x.constant * a + &y.constant * b,
        kind,
    }
}

/// True if the conjunction certainly has no solution.
fn infeasible(mut system: Vec<Constraint>, unknowns: &Unknowns) -> bool {
    // Gaussian elimination of equalities.
    loop {
        for c in system.iter_mut() {
            if !c.tighten(unknowns) {
                return true;
            }
        }
        if system.iter().any(Constraint::is_trivially_false) {
            return true;
        }
        system.retain(|c| !c.is_trivially_true());
        let Some(pos) = system.iter().position(|c| c.kind == Kind::Eq) else {
            break;
        };
        let eq = system.swap_remove(pos);
        let Some((&x, a)) = eq.coefs.iter().next() else {
            continue;
        };
        let a = a.clone();
        for c in system.iter_mut() {
            if let Some(b) = c.coefs.get(&x).cloned() {
                // c - (b/a) * eq eliminates x.
                let factor = -(&b / &a);
                let mut coefs = c.coefs.clone();
                for (&k, v) in &eq.coefs {
                    let e = coefs.entry(k).or_insert_with(BigRational::zero);
                    *e += v * &factor;
                }
                coefs.retain(|_, v: &mut BigRational| !v.is_zero());
                c.constant = &c.constant + &eq.constant * &factor;
                c.coefs = coefs;
            }
        }
    }
    // Fourier-Motzkin on the inequalities.
    let mut seen: HashSet<Constraint> = system.iter().cloned().collect();
    loop {
        if system.iter().any(Constraint::is_trivially_false) {
            return true;
        }
        system.retain(|c| !c.is_trivially_true());
        let vars: HashSet<usize> = system
            .iter()
            .flat_map(|c| c.coefs.keys().copied())
            .collect();
        if vars.is_empty() {
            return false;
        }
        if vars.len() > MAX_UNKNOWNS {
            return false;
        }
        // The unknown whose elimination creates the fewest constraints.
        let mut best: Option<(usize, usize)> = None;
        for &v in &vars {
            let p = system
                .iter()
                .filter(|c| c.coefs.get(&v).is_some_and(|a| a.is_positive()))
                .count();
            let n = system
                .iter()
                .filter(|c| c.coefs.get(&v).is_some_and(|a| a.is_negative()))
                .count();
            let cost = p * n;
            if !matches!(best, Some((_, b)) if b <= cost) {
                best = Some((v, cost));
            }
        }
        let Some((v, _)) = best else { return false };
        let (with, without): (Vec<Constraint>, Vec<Constraint>) =
            system.into_iter().partition(|c| c.coefs.contains_key(&v));
        let (pos, neg): (Vec<Constraint>, Vec<Constraint>) = with
            .into_iter()
            .partition(|c| c.coefs.get(&v).is_some_and(|a| a.is_positive()));
        system = without;
        for p in &pos {
            for n in &neg {
                let a = -n.coefs[&v].clone();
                let b = p.coefs[&v].clone();
                let mut c = combine(p, &a, n, &b);
                if !c.tighten(unknowns) {
                    return true;
                }
                if c.is_trivially_false() {
                    return true;
                }
                if !c.is_trivially_true() && seen.insert(c.clone()) {
                    system.push(c);
                }
            }
        }
        if system.len() > MAX_CONSTRAINTS {
            return false;
        }
    }
}

/// Refutes `clauses` (a CNF: every clause must hold) where possible.
///
/// Unit clauses become constraints; small disjunctions and disequalities are split
/// into cases (all must be refuted), within a budget; the rest is dropped.
pub(crate) fn refute_cnf(f: &ExprFactory, clauses: &[Vec<Expr>]) -> bool {
    let mut unknowns = Unknowns::default();
    let mut base = Vec::new();
    // each split: alternatives, each a conjunction (all must be refuted)
    let mut splits: Vec<Vec<Vec<Constraint>>> = Vec::new();
    let mut cases = 1usize;
    for clause in clauses {
        if clause.is_empty() {
            return true;
        }
        let lits: Vec<Lit> = clause
            .iter()
            .map(|&l| literal(f, l, &mut unknowns))
            .collect();
        if lits.iter().any(|l| matches!(l, Lit::Opaque)) {
            continue;
        }
        // Each literal as a list of alternatives.
        let mut alts = Vec::new();
        for l in lits {
            match l {
                Lit::C(c) => alts.push(c),
                Lit::Ne(c) => {
                    let mut gt = c.clone();
                    gt.kind = Kind::Gt;
                    let mut lt = c.negated();
                    lt.kind = Kind::Gt;
                    alts.push(gt);
                    alts.push(lt);
                }
                Lit::Opaque => {}
            }
        }
        if alts.len() == 1 {
            base.extend(alts);
        } else if cases * alts.len() <= MAX_CASES {
            cases *= alts.len();
            splits.push(alts.into_iter().map(|c| vec![c]).collect());
        }
    }
    // C quotients and remainders by constants: their defining constraints
    let budget = crate::int_division::CaseBudget {
        cases: &mut cases,
        max: MAX_CASES,
    };
    crate::int_division::define(f, &mut unknowns, &mut base, &mut splits, budget);
    refute_cases(base, &splits, &unknowns)
}

fn refute_cases(
    base: Vec<Constraint>,
    splits: &[Vec<Vec<Constraint>>],
    unknowns: &Unknowns,
) -> bool {
    if infeasible(base.clone(), unknowns) {
        return true;
    }
    let Some((first, rest)) = splits.split_first() else {
        return false;
    };
    first.iter().all(|alt| {
        let mut b = base.clone();
        b.extend(alt.iter().cloned());
        refute_cases(b, rest, unknowns)
    })
}

/// Proves `assumption => predicate` when it can (never claims more).
///
/// The predicate's CNF is split into clauses; for each clause `C` it refutes
/// `assumption && !C` (a conjunction: the negated literals of `C`).
pub(crate) fn implies(f: &ExprFactory, assumption: Expr, predicate: Expr) -> bool {
    let a_clauses = f.cnf_clauses(assumption);
    let p_clauses = f.cnf_clauses(predicate);
    let a_units: HashSet<Expr> = a_clauses
        .iter()
        .filter(|c| c.len() == 1)
        .map(|c| c[0])
        .collect();
    p_clauses.iter().all(|clause| {
        // Syntactic shortcut: a literal of the clause is assumed.
        if clause.iter().any(|l| a_units.contains(l)) {
            return true;
        }
        let mut system = a_clauses.clone();
        for &l in clause {
            system.push(vec![f.not(l)]);
        }
        refute_cnf(f, &system)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integer_strictness_and_tightening() {
        let f = ExprFactory::new();
        let x = f.symbol("x", Type::Int);
        let zero = f.int(0);
        let one = f.int(1);
        // x > 0 |= x >= 1 over the integers, not x > 1.
        assert!(implies(&f, f.gt(x, zero), f.ge(x, one)));
        assert!(!implies(&f, f.gt(x, zero), f.gt(x, one)));
        // 2x == 1 has no integer solution.
        let two_x = f.mul(f.int(2), x);
        assert!(refute_cnf(&f, &f.cnf_clauses(f.eq(two_x, one))));
        // ... but 2r == 1 over the reals does.
        let r = f.symbol("r", Type::Real);
        let two_r = f.mul(f.real_ratio(2, 1), r);
        assert!(!refute_cnf(
            &f,
            &f.cnf_clauses(f.eq(two_r, f.real_ratio(1, 1)))
        ));
    }

    #[test]
    fn an_integer_converted_to_real_is_the_same_unknown() {
        let f = ExprFactory::new();
        let n = f.symbol("n", Type::Int);
        let real_n = f.to_real(n);
        let zero = f.real_ratio(0, 1);
        // n >= 1 |= (real) n != 0, and (real) n > 1/2 (n is an integer: n >= 1)
        assert!(implies(&f, f.ge(n, f.int(1)), f.ne(real_n, zero)));
        assert!(implies(
            &f,
            f.gt(real_n, f.real_ratio(1, 2)),
            f.ge(n, f.int(1))
        ));
        // but not from n >= 0, nor (real) n > 1 from n >= 1
        assert!(!implies(&f, f.ge(n, f.int(0)), f.ne(real_n, zero)));
        assert!(!implies(
            &f,
            f.ge(n, f.int(1)),
            f.gt(real_n, f.real_ratio(1, 1))
        ));
        // mixed with a real unknown: r == (real) n && n == 2 |= r == 2
        let r = f.symbol("r", Type::Real);
        let a = f.and(f.eq(r, real_n), f.eq(n, f.int(2)));
        assert!(implies(&f, a, f.eq(r, f.real_ratio(2, 1))));
        assert!(!implies(&f, a, f.eq(r, f.real_ratio(3, 1))));
    }

    #[test]
    fn transitivity_through_elimination() {
        let f = ExprFactory::new();
        let [x, y, z] = ["x", "y", "z"].map(|n| f.symbol(n, Type::Real));
        let a = f.and(f.lt(x, y), f.lt(y, z));
        assert!(implies(&f, a, f.lt(x, z)));
        assert!(!implies(&f, a, f.lt(z, x)));
        // Equalities are substituted: x == y + 1 && y >= 2 |= x >= 3.
        let b = f.and(
            f.eq(x, f.add(y, f.real_ratio(1, 1))),
            f.ge(y, f.real_ratio(2, 1)),
        );
        assert!(implies(&f, b, f.ge(x, f.real_ratio(3, 1))));
    }

    #[test]
    fn disjunctions_are_split_and_nonlinear_terms_are_opaque() {
        let f = ExprFactory::new();
        let x = f.symbol("x", Type::Int);
        let y = f.symbol("y", Type::Int);
        let xy = f.mul(x, y);
        // (xy > 5 || xy > 7) |= xy > 5
        let a = f.or(f.gt(xy, f.int(5)), f.gt(xy, f.int(7)));
        assert!(implies(&f, a, f.gt(xy, f.int(5))));
        // x != 0 does not imply x > 0.
        assert!(!implies(&f, f.ne(x, f.int(0)), f.gt(x, f.int(0))));
        // x != 0 && x >= 0 |= x >= 1.
        let b = f.and(f.ne(x, f.int(0)), f.ge(x, f.int(0)));
        assert!(implies(&f, b, f.ge(x, f.int(1))));
    }
}
