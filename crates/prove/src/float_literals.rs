//! Path conditions made only of floating comparisons at the herbrand and ieee
//! levels, decided without a solver.
//!
//! At those levels a floating comparison is an uninterpreted predicate
//! (`fp_eq`, `fp_lt`, `fp_le`) applied to floating terms, and the floating
//! operations are uninterpreted functions (`f64_sub`, ...). A program that
//! branches on floating values (Gaussian elimination's `a[i][c] != 0`) builds
//! path conditions that are conjunctions of such literals and asks, at each
//! branch, whether one more literal follows (or whether the conjunction is
//! satisfiable). The built-in prover's counterexample search cannot give the
//! uninterpreted functions values, so every such question went to an SMT
//! solver. They are decided here exactly.
//!
//! The fragment: every conjunct of the assumption, and the predicate, is a
//! literal `P(t1, ..., tn)` or `!P(...)` with `P` a floating predicate, whose
//! arguments are *free terms*: concrete numbers, integer or real symbols,
//! reads of a symbol's (nested) array elements at concrete indices, and
//! floating operations applied to free terms. Within it the answer is
//! syntactic, as in the free (Herbrand) interpretation:
//!
//! - There is an interpretation in which distinct free terms have distinct
//!   values: give each symbol and array element a value of its own (no
//!   concrete number among them), then, innermost first, each application a
//!   fresh value of its own (distinct terms of one function have distinct
//!   argument tuples by induction, so each function is well defined). The
//!   sorts are the integers and the reals, infinite, so fresh values exist.
//! - In it two atoms with distinct (interned, hence syntactically distinct)
//!   expressions have distinct argument tuples or distinct predicates, so
//!   each atom's truth value can be chosen on its own.
//!
//! Hence a conjunction of literals is satisfiable exactly when no atom occurs
//! in it both plain and negated, and it implies a literal exactly when it is
//! unsatisfiable or contains that literal. An SMT solver, which sees the
//! same symbols as uninterpreted, answers the same; only the model is missing
//! (the callers that report a witness at these levels confirm it in IEEE
//! doubles instead, `tass-semantics`' oracle).

use hashbrown::HashSet;

use tass_symbolic::api::{Expr, ExprFactory, ExprView, Type};

/// The prefixes of the floating operators' names (`tass-semantics`'
/// `float.rs` makes them; no SMT axiom constrains them).
const FLOAT_OPERATOR_PREFIXES: [&str; 4] = ["f64_", "f32_", "fld_", "fp_"];

/// Literals of a conjunction, by atom: `true` for the plain atom, `false`
/// for its negation.
struct Literals {
    plain: HashSet<Expr>,
    negated: HashSet<Expr>,
}

impl Literals {
    fn contradictory(&self) -> bool {
        self.plain.iter().any(|a| self.negated.contains(a))
    }

    fn contains(&self, (atom, positive): (Expr, bool)) -> bool {
        if positive {
            self.plain.contains(&atom)
        } else {
            self.negated.contains(&atom)
        }
    }
}

/// Whether `assumption` implies `predicate` (a literal of the fragment), when
/// both are in the fragment; `None` otherwise.
pub(crate) fn implies(f: &ExprFactory, assumption: Expr, predicate: Expr) -> Option<bool> {
    let mut checked = HashSet::new();
    let goal = literal(f, predicate, &mut checked)?;
    let literals = conjunction(f, assumption, &mut checked)?;
    Some(literals.contradictory() || literals.contains(goal))
}

/// Whether `pc` is unsatisfiable, when it is a conjunction of the fragment;
/// `None` otherwise.
pub(crate) fn unsatisfiable(f: &ExprFactory, pc: Expr) -> Option<bool> {
    let mut checked = HashSet::new();
    conjunction(f, pc, &mut checked).map(|l| l.contradictory())
}

/// The literals of `e`, when every conjunct is a literal of the fragment.
fn conjunction(f: &ExprFactory, e: Expr, checked: &mut HashSet<Expr>) -> Option<Literals> {
    let mut literals = Literals {
        plain: HashSet::new(),
        negated: HashSet::new(),
    };
    for c in f.conjuncts(e) {
        let (atom, positive) = literal(f, c, checked)?;
        if positive {
            literals.plain.insert(atom);
        } else {
            literals.negated.insert(atom);
        }
    }
    Some(literals)
}

/// `e` as (atom, polarity), when it is a literal of the fragment.
fn literal(f: &ExprFactory, e: Expr, checked: &mut HashSet<Expr>) -> Option<(Expr, bool)> {
    let (atom, positive) = match f.view(e) {
        ExprView::Not(a) => (a, false),
        _ => (e, true),
    };
    let ExprView::Apply(predicate, args) = f.view(atom) else {
        return None;
    };
    if f.type_of(atom) != Type::Bool || !is_float_operator(f, predicate) {
        return None;
    }
    for a in args {
        if !free_term(f, a, checked) {
            return None;
        }
    }
    Some((atom, positive))
}

/// Whether `e` is a free term (see the module documentation); `checked`
/// holds the terms already found free.
fn free_term(f: &ExprFactory, e: Expr, checked: &mut HashSet<Expr>) -> bool {
    if checked.contains(&e) {
        return true;
    }
    let free = match f.view(e) {
        ExprView::Int(_) | ExprView::Real(_) => true,
        ExprView::Symbol(_) => matches!(f.type_of(e), Type::Int | Type::Real),
        ExprView::ArrayRead(..) => {
            matches!(f.type_of(e), Type::Int | Type::Real) && element_of_symbol(f, e)
        }
        ExprView::Apply(g, args) => {
            matches!(f.type_of(e), Type::Int | Type::Real)
                && is_float_operator(f, g)
                && args.into_iter().all(|a| free_term(f, a, checked))
        }
        _ => false,
    };
    if free {
        checked.insert(e);
    }
    free
}

/// Whether `e` reads an element of an array symbol at concrete indices
/// (`a[1][2]`, however deeply nested).
fn element_of_symbol(f: &ExprFactory, e: Expr) -> bool {
    match f.view(e) {
        ExprView::ArrayRead(base, index) => {
            f.as_concrete_int(index).is_some() && element_of_symbol(f, base)
        }
        ExprView::Symbol(_) => matches!(f.type_of(e), Type::Array(..)),
        _ => false,
    }
}

/// Whether `g` is one of the floating operators' function symbols.
fn is_float_operator(f: &ExprFactory, g: Expr) -> bool {
    matches!(f.type_of(g), Type::Function(..))
        && f.symbol_name(g)
            .is_some_and(|n| FLOAT_OPERATOR_PREFIXES.iter().any(|p| n.starts_with(p)))
}
