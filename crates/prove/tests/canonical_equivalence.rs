//! Property: canonicalization by the symbolic factory is an equivalence.
//!
//! A random expression tree is built through the factory (which canonicalizes it) and
//! also written straight to SMT-LIB by this test (the reference, with its own
//! formulation of C division). z3 must find no values where the two differ.

mod common;

use std::sync::Arc;
use std::time::Duration;

use proptest::prelude::*;
use tass_prove::api::{smt_query, SatOutcome, SmtQuery, SmtSolver, SolverKind};
use tass_symbolic::api::{Expr, ExprFactory, Type};

const VARS: [&str; 3] = ["x0", "x1", "x2"];
/// The variables range over `-BOX..=BOX` in the equivalence check.
const BOX: i64 = 6;

#[derive(Clone, Debug)]
enum I {
    Var(usize),
    Const(i64),
    Add(Box<I>, Box<I>),
    Sub(Box<I>, Box<I>),
    Mul(Box<I>, Box<I>),
    Neg(Box<I>),
    Div(Box<I>, Box<I>),
    Mod(Box<I>, Box<I>),
    Ite(Box<B>, Box<I>, Box<I>),
}

#[derive(Clone, Debug)]
enum B {
    Lt(I, I),
    Le(I, I),
    Eq(I, I),
    Ne(I, I),
    And(Box<B>, Box<B>),
    Or(Box<B>, Box<B>),
    Not(Box<B>),
}

fn int_leaf() -> impl Strategy<Value = I> {
    prop_oneof![
        (0..VARS.len()).prop_map(I::Var),
        (-4i64..5).prop_map(I::Const)
    ]
}

/// Leaves and products of two leaves (nonlinear, but mildly: deeper nonlinear
/// division problems leave z3 at `unknown`, which tests nothing).
fn factor() -> impl Strategy<Value = I> {
    prop_oneof![
        3 => int_leaf(),
        1 => (int_leaf(), int_leaf()).prop_map(|(a, b)| I::Mul(Box::new(a), Box::new(b))),
    ]
}

fn int_tree() -> impl Strategy<Value = I> {
    factor().prop_recursive(3, 16, 2, |inner| {
        let cmp = (inner.clone(), inner.clone(), 0..4u8).prop_map(|(a, b, k)| match k {
            0 => B::Lt(a, b),
            1 => B::Le(a, b),
            2 => B::Eq(a, b),
            _ => B::Ne(a, b),
        });
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| I::Add(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| I::Sub(Box::new(a), Box::new(b))),
            (inner.clone(), factor()).prop_map(|(a, b)| I::Mul(Box::new(a), Box::new(b))),
            inner.clone().prop_map(|a| I::Neg(Box::new(a))),
            (inner.clone(), int_leaf()).prop_map(|(a, b)| I::Div(Box::new(a), Box::new(b))),
            (inner.clone(), int_leaf()).prop_map(|(a, b)| I::Mod(Box::new(a), Box::new(b))),
            (cmp, inner.clone(), inner).prop_map(|(c, a, b)| I::Ite(
                Box::new(c),
                Box::new(a),
                Box::new(b)
            )),
        ]
    })
}

fn bool_tree() -> impl Strategy<Value = B> {
    let atom = (int_tree(), int_tree(), 0..4u8).prop_map(|(a, b, k)| match k {
        0 => B::Lt(a, b),
        1 => B::Le(a, b),
        2 => B::Eq(a, b),
        _ => B::Ne(a, b),
    });
    atom.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(|(a, b)| B::And(Box::new(a), Box::new(b))),
            (inner.clone(), inner.clone()).prop_map(|(a, b)| B::Or(Box::new(a), Box::new(b))),
            inner.prop_map(|a| B::Not(Box::new(a))),
        ]
    })
}

fn build_i(f: &ExprFactory, t: &I) -> Expr {
    match t {
        I::Var(k) => f.symbol(VARS[*k], Type::Int),
        I::Const(c) => f.int(*c),
        I::Add(a, b) => f.add(build_i(f, a), build_i(f, b)),
        I::Sub(a, b) => f.sub(build_i(f, a), build_i(f, b)),
        I::Mul(a, b) => f.mul(build_i(f, a), build_i(f, b)),
        I::Neg(a) => f.neg(build_i(f, a)),
        I::Div(a, b) => f.int_div(build_i(f, a), build_i(f, b)),
        I::Mod(a, b) => f.int_mod(build_i(f, a), build_i(f, b)),
        I::Ite(c, a, b) => f.ite(build_b(f, c), build_i(f, a), build_i(f, b)),
    }
}

fn build_b(f: &ExprFactory, t: &B) -> Expr {
    match t {
        B::Lt(a, b) => f.lt(build_i(f, a), build_i(f, b)),
        B::Le(a, b) => f.le(build_i(f, a), build_i(f, b)),
        B::Eq(a, b) => f.eq(build_i(f, a), build_i(f, b)),
        B::Ne(a, b) => f.ne(build_i(f, a), build_i(f, b)),
        B::And(a, b) => f.and(build_b(f, a), build_b(f, b)),
        B::Or(a, b) => f.or(build_b(f, a), build_b(f, b)),
        B::Not(a) => f.not(build_b(f, a)),
    }
}

/// The reference: the tree as written, C division through the test's own helpers.
fn ref_i(t: &I) -> String {
    match t {
        I::Var(k) => format!("s.{}", VARS[*k]),
        I::Const(c) if *c < 0 => format!("(- {})", -c),
        I::Const(c) => c.to_string(),
        I::Add(a, b) => format!("(+ {} {})", ref_i(a), ref_i(b)),
        I::Sub(a, b) => format!("(- {} {})", ref_i(a), ref_i(b)),
        I::Mul(a, b) => format!("(* {} {})", ref_i(a), ref_i(b)),
        I::Neg(a) => format!("(- {})", ref_i(a)),
        I::Div(a, b) => format!("(ref.cdiv {} {})", ref_i(a), ref_i(b)),
        I::Mod(a, b) => format!("(ref.crem {} {})", ref_i(a), ref_i(b)),
        I::Ite(c, a, b) => format!("(ite {} {} {})", ref_b(c), ref_i(a), ref_i(b)),
    }
}

fn ref_b(t: &B) -> String {
    match t {
        B::Lt(a, b) => format!("(< {} {})", ref_i(a), ref_i(b)),
        B::Le(a, b) => format!("(<= {} {})", ref_i(a), ref_i(b)),
        B::Eq(a, b) => format!("(= {} {})", ref_i(a), ref_i(b)),
        B::Ne(a, b) => format!("(distinct {} {})", ref_i(a), ref_i(b)),
        B::And(a, b) => format!("(and {} {})", ref_b(a), ref_b(b)),
        B::Or(a, b) => format!("(or {} {})", ref_b(a), ref_b(b)),
        B::Not(a) => format!("(not {})", ref_b(a)),
    }
}

/// C semantics: the quotient truncates toward zero, the remainder has the sign of the
/// dividend; `a / 0 == 0`, `a % 0 == a` (tass's totalization).
const REF_HELPERS: [&str; 2] = [
    "(define-fun ref.cdiv ((a Int) (b Int)) Int (ite (= b 0) 0 \
       (ite (= (< a 0) (< b 0)) (div (abs a) (abs b)) (- (div (abs a) (abs b))))))",
    "(define-fun ref.crem ((a Int) (b Int)) Int (ite (= b 0) a \
       (ite (< a 0) (- (mod (abs a) (abs b))) (mod (abs a) (abs b)))))",
];

/// Asserts that z3 finds no values where `canonical` (a formula over the factory's
/// expressions) and `reference` differ.
fn check_equivalent(z3: &mut SmtSolver, mut q: SmtQuery, differ: String) -> Result<(), String> {
    for v in VARS {
        let d = format!("(declare-fun s.{v} () Int)");
        if !q.declarations.contains(&d) {
            q.declarations.push(d);
        }
    }
    q.declarations
        .extend(REF_HELPERS.iter().map(|h| h.to_string()));
    // Nonlinear integer arithmetic with `div`/`mod` by unknowns often leaves z3 at
    // `unknown`; on a box of values the question is finite and z3 decides it.
    let mut assertions: Vec<String> = VARS
        .iter()
        .map(|v| format!("(and (<= (- {BOX}) s.{v}) (<= s.{v} {BOX}))"))
        .collect();
    assertions.push(differ);
    q.assertions = assertions;
    q.model_terms.clear();
    match z3.check(&q) {
        SatOutcome::Unsat => Ok(()),
        // Nonlinear integer arithmetic is undecidable: an `unknown` proves nothing
        // either way and is not a failure of canonicalization.
        SatOutcome::Unknown(r) => {
            eprintln!("z3 could not decide an equivalence ({r})");
            Ok(())
        }
        SatOutcome::Sat(_) => Err(format!(
            "canonical form differs from reference:\n{}",
            q.body()
        )),
    }
}

fn z3() -> Option<SmtSolver> {
    common::solver(SolverKind::Z3, "canonical_equivalence")?;
    SmtSolver::new(SolverKind::Z3, None, Duration::from_secs(1)).ok()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn integer_canonical_forms_are_equivalent(t in int_tree()) {
        let Some(mut z3) = z3() else { return Ok(()) };
        let f = Arc::new(ExprFactory::new());
        let e = build_i(&f, &t);
        let r = f.symbol("ref_value", Type::Int);
        let q = smt_query(&f, f.eq(e, r)).map_err(TestCaseError::fail)?;
        let canon = q.assertions.last().cloned().unwrap_or_default();
        // Whenever ref_value equals the reference term, the canonical formula
        // `e == ref_value` must hold.
        let differ = format!("(and (= s.ref_value {}) (not {canon}))", ref_i(&t));
        let mut q = q;
        if !q.declarations.iter().any(|d| d.contains("s.ref_value ")) {
            q.declarations.push("(declare-fun s.ref_value () Int)".into());
        }
        check_equivalent(&mut z3, q, differ).map_err(TestCaseError::fail)?;
    }

    #[test]
    fn boolean_canonical_forms_are_equivalent(t in bool_tree()) {
        let Some(mut z3) = z3() else { return Ok(()) };
        let f = Arc::new(ExprFactory::new());
        let e = build_b(&f, &t);
        let q = smt_query(&f, e).map_err(TestCaseError::fail)?;
        let canon = q.assertions.last().cloned().unwrap_or_default();
        let differ = format!("(distinct {} {canon})", ref_b(&t));
        check_equivalent(&mut z3, q, differ).map_err(TestCaseError::fail)?;
    }
}
