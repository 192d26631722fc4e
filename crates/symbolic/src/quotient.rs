//! Real quotients as atoms: the comparative paper's level-2 normal form.
//!
//! By default a real expression is one rational function `p / q` over the
//! common denominator of every quotient it contains: Jacobi's iterate
//! `x'[i] = s / A[i][i]` summed over the rows puts every value over the
//! product of all diagonal entries, and the numerators grow with each row and
//! iteration. With quotient atoms on ([`ExprFactory::enable_quotient_atoms`]),
//! a quotient whose denominator is not a constant is built once, with its
//! numerator and denominator in normal form and common factors cancelled, and
//! then stays one hash-consed `Div` node that sums and products treat as a
//! primitive of their (flattened, sorted) polynomials.
//!
//! Soundness: each atom denotes its quotient, so equal normal forms are equal
//! values, and a state matched on atom forms is a state with equal values. The
//! converse fails (`a/b + c/b` and `(a+c)/b` are different forms): a difference
//! that is not syntactically zero proves nothing, so the prover decides such
//! claims on their meaning, first on the expanded rational functions
//! ([`ExprFactory::expand_quotients`], when small) and then with the quotients
//! as SMT's `/`. Division-by-zero checks are made on the divisor before the
//! quotient is built, as before.

use std::cell::Cell;
use std::sync::atomic::Ordering as AtomicOrdering;

use hashbrown::HashSet;
use num_rational::BigRational;
use num_traits::One;

use crate::factory::{ExprFactory, Factored};
use crate::node::{Op, Poly};
use crate::types::{Expr, Type};

thread_local! {
    /// Set while this thread expands quotient atoms into rational functions.
    static EXPANDING: Cell<bool> = const { Cell::new(false) };
}

/// Restores the thread's expansion flag when an expansion ends (or unwinds).
struct ExpandingGuard(bool);

impl Drop for ExpandingGuard {
    fn drop(&mut self) {
        let was = self.0;
        EXPANDING.with(|c| c.set(was));
    }
}

impl ExprFactory {
    /// Keeps real quotients with a non-constant denominator as atoms from now
    /// on (see the module documentation). Call it before building expressions:
    /// forms built before and after differ.
    pub fn enable_quotient_atoms(&self) {
        self.quotient_atoms.store(true, AtomicOrdering::Relaxed);
    }

    /// Whether [`Self::enable_quotient_atoms`] was called.
    pub fn quotient_atoms_enabled(&self) -> bool {
        self.quotient_atoms.load(AtomicOrdering::Relaxed)
    }

    /// Whether real arithmetic on this thread, now, treats quotients as atoms.
    pub(crate) fn quotients_are_atoms(&self) -> bool {
        self.quotient_atoms_enabled() && !EXPANDING.with(Cell::get)
    }

    /// The atom `num / den` (`den` monic, non-constant, common factors
    /// cancelled): `c * (num' / den)` with `num'` monic, so that `s/a` and
    /// `-2s/a` share one atom.
    pub(crate) fn quotient_atom(&self, num: Factored, den: &Factored) -> Expr {
        let scale = num.constant.clone();
        let monic = Factored {
            constant: BigRational::one(),
            factors: num.factors,
        };
        let ne = self.poly_expr(self.expand(&monic), &Type::Real);
        self.record_factorization(ne, monic);
        let de = self.poly_expr(self.expand(den), &Type::Real);
        self.record_factorization(de, den.clone());
        let atom = self.intern(Op::Div(ne, de), Type::Real);
        self.poly_expr(Poly::prim(atom).scale(&scale), &Type::Real)
    }

    /// The number of distinct quotient atoms in `e` (nested ones included),
    /// counting stops above `limit`. A quotient by the concrete zero is not
    /// counted (it is not an atom but an error value).
    pub fn quotient_atom_count(&self, e: Expr, limit: usize) -> usize {
        let mut seen: HashSet<Expr> = HashSet::new();
        let mut atoms = 0;
        let mut stack = vec![e];
        while let Some(x) = stack.pop() {
            if atoms > limit || !seen.insert(x) {
                continue;
            }
            if let Op::Div(_, d) = self.node(x).op {
                if d != self.c_real0 {
                    atoms += 1;
                }
            }
            stack.extend(self.children(x));
        }
        atoms
    }

    /// Runs `work` with quotient atoms off on this thread: real arithmetic
    /// inside it combines quotients into one rational function, as when atoms
    /// were never enabled.
    pub fn with_quotients_expanded<R>(&self, work: impl FnOnce() -> R) -> R {
        let _restore = ExpandingGuard(EXPANDING.with(|c| c.replace(true)));
        work()
    }

    /// `e` rebuilt with every quotient atom combined into rational functions
    /// (the normal form without atoms): an equal value whose form decides more
    /// equalities, and can be exponentially larger. Results are memoized.
    pub fn expand_quotients(&self, e: Expr) -> Expr {
        self.with_quotients_expanded(|| self.expand_node(e))
    }

    fn expand_node(&self, e: Expr) -> Expr {
        if let Some(&done) = self.expansions.read().get(&e) {
            return done;
        }
        let node = self.node(e);
        let out = match &node.op {
            Op::Bool(_) | Op::Int(_) | Op::Real(_) | Op::Char(_) | Op::Symbol(_) => e,
            // Rebuilt term by term even when no child changes: the atoms among
            // its primitives must be combined.
            Op::Poly(p) => {
                let ty = node.ty.clone();
                let terms: Vec<Expr> = p
                    .terms
                    .iter()
                    .map(|t| {
                        let mut term = self.number(t.coef.clone(), &ty);
                        for &(x, k) in &t.mono {
                            let y = self.expand_node(x);
                            term = self.mul(term, self.pow(y, k));
                        }
                        term
                    })
                    .collect();
                self.add_all(&ty, terms)
            }
            _ => self.map_children(e, &mut |c| self.expand_node(c)),
        };
        self.expansions.write().insert(e, out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn atoms_factory() -> (ExprFactory, Expr, Expr, Expr) {
        let f = ExprFactory::new();
        f.enable_quotient_atoms();
        let a = f.symbol("a", Type::Real);
        let b = f.symbol("b", Type::Real);
        let c = f.symbol("c", Type::Real);
        (f, a, b, c)
    }

    #[test]
    fn a_quotient_is_one_atom_of_sums_and_products() {
        let (f, a, b, c) = atoms_factory();
        let q = f.div(a, b);
        assert!(matches!(f.node(q).op, Op::Div(..)));
        // (q + c) * q is a polynomial in q: no common denominator.
        let e = f.mul(f.add(q, c), q);
        assert_eq!(f.quotient_atom_count(e, 10), 1);
        // Scaled numerators share the atom.
        let two_a = f.mul(f.real(BigRational::from_integer(2.into())), a);
        assert_eq!(f.sub(f.div(two_a, b), q), q);
        assert_eq!(f.div(f.neg(a), b), f.neg(q));
    }

    #[test]
    fn cancellation_happens_when_the_quotient_is_built() {
        let (f, a, b, _) = atoms_factory();
        assert_eq!(f.div(f.mul(a, b), b), a);
        assert_eq!(f.div(a, a), f.real(BigRational::one()));
        // (a/b)/c is a/(b*c).
        let c = f.symbol("c", Type::Real);
        assert_eq!(f.div(f.div(a, b), c), f.div(a, f.mul(b, c)));
    }

    #[test]
    fn different_forms_of_one_value_meet_when_expanded() {
        let (f, a, b, c) = atoms_factory();
        let split = f.add(f.div(a, b), f.div(c, b));
        let joined = f.div(f.add(a, c), b);
        assert_ne!(split, joined);
        assert_eq!(f.expand_quotients(split), f.expand_quotients(joined));
        let back = f.mul(f.div(a, b), b);
        assert_ne!(back, a);
        assert_eq!(f.expand_quotients(back), a);
        // Expanding is local to the call: atoms are on again afterwards.
        assert!(f.quotients_are_atoms());
        assert_ne!(f.add(f.div(a, b), f.div(c, b)), joined);
    }

    #[test]
    fn without_atoms_quotients_combine_as_before() {
        let f = ExprFactory::new();
        let (a, b, c) = (
            f.symbol("a", Type::Real),
            f.symbol("b", Type::Real),
            f.symbol("c", Type::Real),
        );
        assert_eq!(f.add(f.div(a, b), f.div(c, b)), f.div(f.add(a, c), b));
    }
}
