//! The built-in decision procedure: sound, incomplete, no external program.

use tass_simplify::api::SimplifierCache;
use tass_symbolic::api::{Assignment, Expr, ExprFactory, Type, Value};

use crate::enumerate;
use crate::equalities;
use crate::linear;
use crate::model::{Model, ModelValue};
use crate::prover::Answer;
use crate::witness;

/// Decides `assumption => predicate` by cheap reasoning, else `Maybe`.
///
/// 1. Constant cases (`predicate` true, `assumption` false); then the recent
///    counterexamples ([`witness::RecentWitnesses`]), evaluated exactly.
/// 2. Simplification of the predicate under the assumption (`tass-simplify`): a
///    contradictory assumption, or a predicate simplified to `true`, proves it.
/// 3. Enumeration: when the simplified predicate and the assumption's clauses it is
///    connected to depend only on a few integer constants with small ranges, every
///    point is tried ([`enumerate`]). It decides exactly, nonlinear terms and C
///    division included, and is cheaper than the next step when it applies.
/// 4. Linear arithmetic: refute `reduced assumption && !simplified predicate`.
/// 5. Counterexamples: the predicate simplified to `false` under an assumption that
///    reduced to plain concrete values, or evaluation at a few points.
///
/// `witness_tries` bounds the counterexample search (small when an SMT solver comes
/// next and will give a model anyway).
pub(crate) fn decide(
    f: &ExprFactory,
    simplifiers: &SimplifierCache,
    recent: &witness::RecentWitnesses,
    assumption: Expr,
    predicate: Expr,
    witness_tries: usize,
) -> Answer {
    if f.as_bool(predicate) == Some(true) || f.as_bool(assumption) == Some(false) {
        return Answer::yes();
    }
    if let Some(model) = recent.refute(f, assumption, predicate) {
        return Answer::no(Some(model));
    }
    let s = simplifiers.simplifier(assumption);
    if s.is_contradictory() {
        return Answer::yes();
    }
    let simplified = s.simplify(predicate);
    match f.as_bool(simplified) {
        Some(true) => return Answer::yes(),
        Some(false) if f.as_bool(s.reduced_assumption()) == Some(true) => {
            // The assumption only fixes some constants to values, and the predicate
            // is false wherever it holds: those values refute the implication.
            if let Some(model) = fixed_point_model(f, s.eliminated(), assumption, predicate) {
                return Answer::no(Some(model));
            }
        }
        _ => {}
    }
    if let Some(answer) = enumerate::decide(f, &s, assumption, predicate, simplified) {
        return answer;
    }
    // The assumption's equalities substituted first when it has any: an
    // equivalent query (`equalities.rs`) with fewer unknowns.
    let substituted = equalities::substitute(f, s.reduced_assumption(), simplified);
    let proved = match &substituted {
        Some(sub) => linear::implies(f, sub.assumption, sub.predicate),
        None => linear::implies(f, s.reduced_assumption(), simplified),
    };
    if proved {
        return Answer::yes();
    }
    let reduced = witness::Reduced {
        assumption: s.reduced_assumption(),
        predicate: simplified,
        eliminated: s.eliminated(),
    };
    if let Some(model) = witness::search(
        f,
        recent,
        assumption,
        predicate,
        Some(reduced),
        witness_tries,
    ) {
        return Answer::no(Some(model));
    }
    // The substituted query has fewer constants for the search to choose;
    // its points are confirmed on the original query.
    if let Some(sub) = &substituted {
        if let Some(model) = witness::search(
            f,
            recent,
            sub.assumption,
            sub.predicate,
            None,
            witness_tries,
        ) {
            if let Some(model) =
                sub.original_model(f, &model, s.eliminated(), (assumption, predicate))
            {
                return Answer::no(Some(model));
            }
        }
    }
    Answer::maybe("the built-in prover could not decide")
}

/// The point where the eliminated constants have their values and every other
/// scalar constant is 0 / false, checked by evaluation.
fn fixed_point_model(
    f: &ExprFactory,
    eliminated: &[(Expr, Expr)],
    assumption: Expr,
    predicate: Expr,
) -> Option<Model> {
    let mut asg = Assignment::new();
    let mut model = Model::new();
    let mut syms = f.free_symbols(assumption);
    syms.extend(f.free_symbols(predicate));
    for s in syms {
        if asg.get(s).is_some() {
            continue;
        }
        let ty = f.type_of(s);
        let fixed = eliminated.iter().find(|(x, _)| *x == s).map(|&(_, v)| v);
        let value = match (fixed, &ty) {
            (Some(v), _) => match (f.as_concrete_int(v), f.as_concrete_rational(v), &ty) {
                (Some(i), _, Type::Int) => Value::Int(i),
                (_, Some(q), Type::Real) => Value::Real(q),
                _ => return None,
            },
            (None, Type::Int) => Value::Int(0.into()),
            (None, Type::Real) => Value::Real(num_rational::BigRational::from_integer(0.into())),
            (None, Type::Bool) => Value::Bool(false),
            (None, Type::Char) => Value::Char(0),
            (None, Type::Function(..)) => continue,
            _ => return None,
        };
        let name = f.symbol_name(s).map(|n| n.to_string()).unwrap_or_default();
        model.insert(
            name,
            match &value {
                Value::Int(i) => ModelValue::Int(i.clone()),
                Value::Real(q) => ModelValue::Real(q.clone()),
                Value::Bool(b) => ModelValue::Bool(*b),
                Value::Char(c) => ModelValue::Int((*c).into()),
                _ => return None,
            },
        );
        asg.set(s, value);
    }
    // Only a point that evaluates to a counterexample counts.
    (f.eval_bool(assumption, &asg) == Ok(true) && f.eval_bool(predicate, &asg) == Ok(false))
        .then_some(model)
}
