//! Polynomial nodes compiled for the witness search without their view.

use num_rational::BigRational;
use num_traits::{One, ToPrimitive};
use tass_symbolic::api::{Expr, ExprFactory, PolynomialTerm};

use super::{compile, Approx};

/// A polynomial node compiled as [`compile`] compiles its view (a sum of
/// products; each term, coefficient and power `x^k` a node of its own,
/// charged to the budget alike) without interning those nodes: the view
/// interned one node per term, kept by the store for good (~100 MB on
/// laplace np 5 after 100,000 states).
pub(super) struct PolynomialWalk<'a> {
    pub(super) f: &'a ExprFactory,
    pub(super) index: &'a hashbrown::HashMap<Expr, usize>,
    /// The polynomial's type is `int` (its coefficients are integers).
    pub(super) integer: bool,
}

/// Takes one node from `budget`: false if none is left.
fn charge(budget: &mut u32) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    true
}

impl PolynomialWalk<'_> {
    /// The polynomial node itself (already charged by `compile`).
    pub(super) fn polynomial(&self, terms: &[PolynomialTerm<'_>], budget: &mut u32) -> Approx {
        match terms {
            [single] => self.product(*single, budget),
            _ => Approx::Add(terms.iter().map(|&t| self.term(t, budget)).collect()),
        }
    }

    /// One term of a sum, as the node the view gave for it: the primitive
    /// itself for `1 * x`, a number for the constant term, else a product.
    fn term(&self, (coef, mono): PolynomialTerm<'_>, budget: &mut u32) -> Approx {
        if let [(x, 1)] = mono {
            if coef.is_one() {
                return compile(self.f, *x, self.index, budget);
            }
        }
        if !charge(budget) {
            return Approx::Unknown;
        }
        if mono.is_empty() {
            return self.number(coef);
        }
        self.product((coef, mono), budget)
    }

    /// A single-term node: `x^k` alone, else the coefficient (unless 1) and
    /// the factors, each power `x^k` (`k > 1`) a node of its own.
    fn product(&self, (coef, mono): PolynomialTerm<'_>, budget: &mut u32) -> Approx {
        if let [(x, k)] = mono {
            if coef.is_one() {
                return self.power(*x, *k, budget);
            }
        }
        let mut factors = Vec::with_capacity(mono.len() + 1);
        if !coef.is_one() {
            factors.push(if charge(budget) {
                self.number(coef)
            } else {
                Approx::Unknown
            });
        }
        for &(x, k) in mono {
            factors.push(if k == 1 {
                compile(self.f, x, self.index, budget)
            } else if charge(budget) {
                self.power(x, k, budget)
            } else {
                Approx::Unknown
            });
        }
        Approx::Mul(factors)
    }

    fn power(&self, x: Expr, k: u32, budget: &mut u32) -> Approx {
        match i32::try_from(k) {
            Ok(n) => Approx::Pow(Box::new(compile(self.f, x, self.index, budget)), n),
            Err(_) => Approx::Unknown,
        }
    }

    /// A coefficient, converted as its `int` or `real` node would be.
    fn number(&self, coef: &BigRational) -> Approx {
        let value = if self.integer {
            coef.numer().to_f64()
        } else {
            coef.to_f64()
        };
        value.map_or(Approx::Unknown, Approx::Const)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tass_symbolic::api::{ExprView, Type};

    /// `compile` as it was before the walk: through the view, which interns
    /// a node per term. The walk must give the same formula and spend the
    /// same budget.
    fn compile_by_view(
        f: &ExprFactory,
        e: Expr,
        index: &hashbrown::HashMap<Expr, usize>,
        budget: &mut u32,
    ) -> Approx {
        if *budget == 0 {
            return Approx::Unknown;
        }
        *budget -= 1;
        if let Some(&k) = index.get(&e) {
            return Approx::Var(k);
        }
        let mut sub = |x: Expr| compile_by_view(f, x, index, budget);
        let number = |x: Option<f64>| x.map_or(Approx::Unknown, Approx::Const);
        match f.view(e) {
            ExprView::Int(i) => number(i.to_f64()),
            ExprView::Real(q) => number(q.to_f64()),
            ExprView::Add(xs) => Approx::Add(xs.into_iter().map(&mut sub).collect()),
            ExprView::Mul(xs) => Approx::Mul(xs.into_iter().map(&mut sub).collect()),
            ExprView::Pow(b, n) => match i32::try_from(n) {
                Ok(n) => Approx::Pow(Box::new(sub(b)), n),
                Err(_) => Approx::Unknown,
            },
            ExprView::Rel(op, g) => Approx::Rel(op, Box::new(sub(g))),
            _ => Approx::Unknown,
        }
    }

    #[test]
    fn the_walk_compiles_as_the_view_did() {
        for ty in [Type::Int, Type::Real] {
            let f = ExprFactory::new();
            let v: Vec<Expr> = ["x", "y", "z"]
                .iter()
                .map(|n| f.symbol(n, ty.clone()))
                .collect();
            let (x, y, z) = (v[0], v[1], v[2]);
            let c = |k: i64| f.number(BigRational::from_integer(k.into()), &ty);
            let index: hashbrown::HashMap<Expr, usize> = [(x, 0), (y, 1)].into_iter().collect();
            let cases = [
                f.add(x, y),
                f.add_all(&ty, [x, f.mul(c(3), y), f.mul(x, x), c(-7)]),
                f.add_all(&ty, [f.mul(c(2), f.mul(x, f.mul(y, y))), f.pow(z, 3), c(1)]),
                f.mul(c(5), f.mul(x, f.pow(y, 2))),
                f.pow(x, 4),
                f.mul(x, y),
                f.lt(f.add(f.mul(x, y), z), c(4)),
            ];
            for &e in &cases {
                for budget in [u32::MAX, 1, 2, 3, 4, 5, 7] {
                    let (mut walked, mut viewed) = (budget, budget);
                    let by_walk = compile(&f, e, &index, &mut walked);
                    let by_view = compile_by_view(&f, e, &index, &mut viewed);
                    assert_eq!(by_walk, by_view, "{} with budget {budget}", f.display(e));
                    assert_eq!(walked, viewed, "budget spent on {}", f.display(e));
                }
            }
        }
    }
}
