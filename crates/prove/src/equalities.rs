//! Equalities between integer constants substituted away before the linear
//! refutation (`linear.rs`).
//!
//! A lagged LISE path condition (the paper's `stagger`) relates every loop
//! variable of every record by equalities: `i1 == j1`, `i1 == i2 - 1`, ...
//! `linear.rs` eliminates them by Gaussian elimination, but only over
//! opaque monomials: `(i1 % 2)` and `(j1 % 2)` stay two unrelated unknowns,
//! and with 20 and more unknowns `int_division.rs` gives the quotients no
//! definitions (Fourier-Motzkin would cost more than the SMT query). Here a
//! unit clause `x == e` (`x` an integer symbolic constant with coefficient
//! 1 or -1, `e` an integer linear expression without `x`) is used to
//! replace `x` by `e` everywhere, inside quotients and remainders too, so
//! `(i1 % 2)` becomes `(j1 % 2)`, and the system left has a handful of
//! unknowns, small enough for the definitions.
//!
//! Why this is sound (and loses nothing): the assumption is `x == e && A`.
//! Every point satisfying it has `x` equal to the value of `e` there, so by
//! the substitution lemma (it holds for every operator, C division
//! included: evaluation is compositional) it satisfies `A[x := e]` and
//! `P` has the value of `P[x := e]`. So a proof of `A[x := e] |= P[x := e]`
//! is a proof of `x == e && A |= P`; and conversely a point refuting the
//! substituted query, extended with `x` at the value of `e`, refutes the
//! original (which `decide`'s witnesses confirm by evaluating the original
//! anyway). The equality must be exact over the integers: the coefficient
//! of `x` is 1 or -1 and every other coefficient an integer, so `e` is an
//! integer expression.

use hashbrown::HashMap;
use tass_symbolic::api::{Assignment, Expr, ExprFactory, ExprView, RelOp, Type, Value};

use crate::model::{Model, ModelValue};

use num_traits::{One, Signed};

/// Most equalities substituted for one query (each rewrites the rest).
const MAX_SUBSTITUTIONS: usize = 64;

/// A query with some integer constants replaced by what the assumption's
/// equalities say they equal.
pub(crate) struct Substituted {
    /// The assumption without the used equalities, substituted.
    pub assumption: Expr,
    /// The predicate, substituted.
    pub predicate: Expr,
    /// The replaced constants with their values, in the constants left.
    solved: Vec<(Expr, Expr)>,
}

/// `assumption |= predicate` with the assumption's unit equalities `x == e`
/// substituted (see the module comment), or `None` when there is none.
pub(crate) fn substitute(
    f: &ExprFactory,
    assumption: Expr,
    predicate: Expr,
) -> Option<Substituted> {
    // One pass over the unit clauses collects the substitutions (each
    // literal read with the ones before it applied, the earlier values
    // updated with each new one, so every value is in the constants that
    // stay); one more pass applies them all to the rest.
    let mut solved: Vec<(Expr, Expr)> = Vec::new();
    let mut map: HashMap<Expr, Expr> = HashMap::new();
    let mut rest = Vec::new();
    for clause in f.cnf_clauses(assumption) {
        let ([lit], true) = (clause.as_slice(), solved.len() < MAX_SUBSTITUTIONS) else {
            rest.push(clause);
            continue;
        };
        match solved_equality(f, f.substitute(*lit, &map)) {
            Some((x, value)) => {
                for (_, earlier) in solved.iter_mut() {
                    *earlier = f.substitute_one(*earlier, x, value);
                }
                solved.push((x, value));
                map = solved.iter().copied().collect();
            }
            None => rest.push(clause),
        }
    }
    if solved.is_empty() {
        return None;
    }
    let mut clauses = Vec::with_capacity(rest.len());
    for clause in rest {
        let c = f.substitute(f.or_all(clause), &map);
        match f.as_bool(c) {
            Some(true) => {}
            // the assumption is contradictory: anything follows
            Some(false) => {
                return Some(Substituted {
                    assumption: f.ff(),
                    predicate: f.tt(),
                    solved: Vec::new(),
                })
            }
            None => clauses.push(c),
        }
    }
    Some(Substituted {
        assumption: f.and_all(clauses),
        predicate: f.substitute(predicate, &map),
        solved,
    })
}

/// `lit` read as `x == value`: an equality over integers with an integer
/// symbolic constant `x` of coefficient 1 or -1 that occurs nowhere else in
/// it, every other coefficient an integer.
fn solved_equality(f: &ExprFactory, lit: Expr) -> Option<(Expr, Expr)> {
    let ExprView::Rel(RelOp::Eq, g) = f.view(lit) else {
        return None;
    };
    if !matches!(f.type_of(g), Type::Int) {
        return None;
    }
    let terms = f.poly_terms(g);
    let integer =
        |m: Expr| f.as_concrete_rational(m).is_some() || matches!(f.type_of(m), Type::Int);
    if terms.iter().any(|(c, m)| !c.is_integer() || !integer(*m)) {
        return None;
    }
    let (k, &(ref c, x)) = terms.iter().enumerate().find(|(k, (c, m))| {
        c.abs().is_one()
            && matches!(f.view(*m), ExprView::Symbol(_))
            && matches!(f.type_of(*m), Type::Int)
            && terms
                .iter()
                .enumerate()
                .all(|(j, (_, other))| j == *k || !f.free_symbols(*other).contains(m))
    })?;
    // c*x + rest == 0  ->  x == -rest / c == -c * rest (c is 1 or -1)
    let minus_c = -c.to_integer();
    let mut value = f.int(0);
    for (j, (d, m)) in terms.iter().enumerate() {
        if j == k {
            continue;
        }
        let coef = f.int(&minus_c * d.to_integer());
        value = f.add(value, f.mul(coef, *m));
    }
    Some((x, value))
}

impl Substituted {
    /// A model of the substituted query (`assumption && !predicate`) turned
    /// into one of the original query: the replaced constants get their
    /// values' values, and the point counts only when the *original*
    /// `assumption` evaluates to true and `predicate` to false there. Scalar
    /// constants only (`None` otherwise). `fixed`: constants the simplifier
    /// eliminated from the query that was substituted, with their values.
    pub(crate) fn original_model(
        &self,
        f: &ExprFactory,
        model: &Model,
        fixed: &[(Expr, Expr)],
        original: (Expr, Expr),
    ) -> Option<Model> {
        let (assumption, predicate) = original;
        let mut asg = Assignment::new();
        let mut out = Model::new();
        let mut symbols = f.free_symbols(assumption);
        symbols.extend(f.free_symbols(predicate));
        for &(x, _) in &self.solved {
            symbols.retain(|&s| s != x);
        }
        for s in symbols {
            if asg.get(s).is_some() {
                continue;
            }
            let name = f.symbol_name(s)?.to_string();
            if let Some(&(_, v)) = fixed.iter().find(|(x, _)| *x == s) {
                asg.set(s, f.eval(v, &Assignment::new()).ok()?);
                continue;
            }
            let value = match (f.type_of(s), model.get(&name)) {
                (Type::Int, Some(ModelValue::Int(i))) => Value::Int(i.clone()),
                (Type::Int, None) => Value::Int(0.into()),
                (Type::Bool, Some(ModelValue::Bool(b))) => Value::Bool(*b),
                (Type::Bool, None) => Value::Bool(false),
                (Type::Real, Some(ModelValue::Real(q))) => Value::Real(q.clone()),
                (Type::Real, None) => {
                    Value::Real(num_rational::BigRational::from_integer(0.into()))
                }
                _ => return None,
            };
            asg.set(s, value);
        }
        for &(x, value) in &self.solved {
            let v = f.eval(value, &asg).ok()?;
            asg.set(x, v);
        }
        let refutes =
            f.eval_bool(assumption, &asg) == Ok(true) && f.eval_bool(predicate, &asg) == Ok(false);
        if !refutes {
            return None;
        }
        let mut symbols = f.free_symbols(assumption);
        symbols.extend(f.free_symbols(predicate));
        for s in symbols {
            let name = f.symbol_name(s)?.to_string();
            let value = match asg.get(s)? {
                Value::Int(i) => ModelValue::Int(i.clone()),
                Value::Bool(b) => ModelValue::Bool(*b),
                Value::Real(q) => ModelValue::Real(q.clone()),
                _ => return None,
            };
            out.insert(name, value);
        }
        Some(out)
    }
}
