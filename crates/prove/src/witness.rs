//! A cheap search for a concrete counterexample by evaluation at a few points.
//!
//! Evaluating `assumption` true and `predicate` false at concrete values *is* a
//! refutation of validity, with those values as the model; failing to find one
//! proves nothing.

use hashbrown::HashSet;
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use tass_symbolic::api::{Assignment, BitOp, Expr, ExprFactory, ExprView, Type, Value};

use crate::model::{Model, ModelValue};

/// Most distinct candidate numbers collected from the formulas.
const MAX_CANDIDATES: usize = 24;

fn candidates(f: &ExprFactory, exprs: &[Expr]) -> Vec<BigRational> {
    let mut out: Vec<BigRational> = [0i64, 1, -1, 2, -2, 3, 10, -10]
        .iter()
        .map(|&v| BigRational::from_integer(v.into()))
        .collect();
    let mut seen: HashSet<BigRational> = out.iter().cloned().collect();
    for &e in exprs {
        for clause in f.cnf_clauses(e) {
            for lit in clause {
                let g = match f.view(lit) {
                    ExprView::Rel(_, g) => g,
                    ExprView::Not(x) => match f.view(x) {
                        ExprView::Rel(_, g) => g,
                        _ => continue,
                    },
                    _ => continue,
                };
                let terms = f.poly_terms(g);
                // The boundary of `a*x + c op 0` is x = -c/a.
                let constant = terms
                    .iter()
                    .find(|(_, m)| f.as_concrete_rational(*m).is_some())
                    .map(|(c, _)| c.clone())
                    .unwrap_or_else(BigRational::zero);
                let lead = terms
                    .iter()
                    .find(|(_, m)| f.as_concrete_rational(*m).is_none())
                    .map(|(c, _)| c.clone())
                    .unwrap_or_else(BigRational::one);
                let b = -(constant / lead);
                for v in [b.clone(), &b + BigRational::one(), &b - BigRational::one()] {
                    if out.len() < MAX_CANDIDATES && seen.insert(v.clone()) {
                        out.push(v);
                    }
                }
            }
        }
    }
    out
}

/// Looks for values making `assumption` true and `predicate` false, trying at most
/// `tries` assignments.
pub(crate) fn search(
    f: &ExprFactory,
    assumption: Expr,
    predicate: Expr,
    tries: usize,
) -> Option<Model> {
    let mut syms = f.free_symbols(assumption);
    syms.extend(f.free_symbols(predicate));
    let mut seen = HashSet::new();
    syms.retain(|s| seen.insert(*s));
    let mut scalars = Vec::new();
    for &s in &syms {
        match f.type_of(s) {
            Type::Bool | Type::Int | Type::Real | Type::Char => scalars.push(s),
            // The reserved bitwise functions evaluate without an interpretation.
            Type::Function(..)
                if f.symbol_name(s)
                    .is_some_and(|n| BitOp::from_function_name(&n).is_some()) => {}
            _ => return None,
        }
    }
    let pool = candidates(f, &[assumption, predicate]);
    let ints: Vec<BigRational> = pool.iter().filter(|q| q.is_integer()).cloned().collect();
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    for attempt in 0..tries {
        let mut asg = Assignment::new();
        let mut model = Model::new();
        for (j, &s) in scalars.iter().enumerate() {
            // First every variable at the same candidate, then pseudo-random mixes.
            let pick = |len: usize, state: &mut u64| -> usize {
                if attempt < len.min(12) {
                    attempt % len
                } else {
                    *state = state
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407 + j as u64);
                    ((*state >> 33) as usize) % len
                }
            };
            let name = f.symbol_name(s).map(|n| n.to_string()).unwrap_or_default();
            let ty = f.type_of(s);
            let (value, mv) = match ty {
                Type::Bool => {
                    let b = pick(2, &mut state) == 1;
                    (Value::Bool(b), ModelValue::Bool(b))
                }
                Type::Int => {
                    let q = &ints[pick(ints.len(), &mut state)];
                    let i: BigInt = q.to_integer();
                    (Value::Int(i.clone()), ModelValue::Int(i))
                }
                Type::Char => {
                    let q = &ints[pick(ints.len(), &mut state)];
                    let i: BigInt = q.to_integer();
                    let code = u32::try_from(i.clone()).unwrap_or(0);
                    (Value::Char(code), ModelValue::Int(code.into()))
                }
                _ => {
                    let q = pool[pick(pool.len(), &mut state)].clone();
                    (Value::Real(q.clone()), ModelValue::Real(q))
                }
            };
            asg.set(s, value);
            model.insert(name, mv);
        }
        if f.eval_bool(assumption, &asg) == Ok(true) && f.eval_bool(predicate, &asg) == Ok(false) {
            return Some(model);
        }
        if scalars.is_empty() {
            break;
        }
    }
    None
}
