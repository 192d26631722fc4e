//! How `--prover auto` routes questions between the real solvers: bounded
//! quantifiers become instances (so yices can take them), nonlinear queries go to
//! cvc5 first with a short limit, a short-limit `unknown` does not answer a later
//! question with the full limit.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::{fake_solver, solver};
use tass_prove::api::{
    smt_query, Effort, HybridProver, Prover, SatOutcome, SmtQuery, SmtSolver, SolverKind, Validity,
    BRANCH_LIMIT,
};
use tass_symbolic::api::{Expr, ExprFactory, Type};

/// `forall k. k < 0 || k >= 3 || a[k] != 0` (the shape of the range pragma
/// `forall {int k | 0 <= k && k < 3} a[k] != 0`) over a real array `a`.
fn nonzero_diagonal(f: &ExprFactory, a: Expr) -> Expr {
    let k = f.symbol("k", Type::Int);
    let outside = f.or(f.lt(k, f.int(0)), f.ge(k, f.int(3)));
    let zero = f.to_real(f.int(0));
    f.forall(k, f.or(outside, f.ne(f.array_read(a, k), zero)))
}

#[test]
fn bounded_forall_becomes_its_instances_and_yices_decides_it() {
    let f = Arc::new(ExprFactory::new());
    let a = f.symbol("a", Type::array(Type::Real, None));
    let assumption = nonzero_diagonal(&f, a);
    let zero = f.to_real(f.int(0));
    let query = smt_query(&f, f.and(assumption, f.eq(f.array_read(a, f.int(1)), zero)))
        .expect("translatable");
    assert!(!query.quantified, "{query:?}");
    // Checked with a real solver: a[1] == 0 contradicts the instance k = 1 ...
    let Some(yices) = solver(SolverKind::Yices, "bounded_forall") else {
        return;
    };
    let prover = HybridProver::with_builtin(f.clone(), vec![yices], false);
    assert_eq!(
        prover.valid(assumption, f.ne(f.array_read(a, f.int(1)), zero)),
        Validity::Yes
    );
    // ... but a[3] is outside the range: refuted (a model with a[3] = 0).
    assert_eq!(
        prover.valid(assumption, f.ne(f.array_read(a, f.int(3)), zero)),
        Validity::No
    );
    // A symbolic index in the range is covered too.
    let i = f.symbol("i", Type::Int);
    let in_range = f.and(f.ge(i, f.int(0)), f.lt(i, f.int(3)));
    assert_eq!(
        prover.valid(f.and(assumption, in_range), f.ne(f.array_read(a, i), zero)),
        Validity::Yes
    );
}

#[test]
fn unbounded_forall_stays_a_quantifier() {
    let f = ExprFactory::new();
    let a = f.symbol("a", Type::array(Type::Real, None));
    let k = f.symbol("k", Type::Int);
    let body = f.or(
        f.lt(k, f.int(0)),
        f.ne(f.array_read(a, k), f.to_real(f.int(0))),
    );
    let query = smt_query(&f, f.forall(k, body)).expect("translatable");
    assert!(query.quantified, "{query:?}");
}

/// `x*y > 0 && x > 0` implies `y > 0` over the reals (nonlinear).
fn nonlinear_claim(f: &ExprFactory) -> (Expr, Expr) {
    let x = f.symbol("x", Type::Real);
    let y = f.symbol("y", Type::Real);
    let zero = f.to_real(f.int(0));
    (f.and(f.gt(f.mul(x, y), zero), f.gt(x, zero)), f.gt(y, zero))
}

#[test]
fn nonlinear_queries_go_to_the_helper_first_and_linear_ones_do_not() {
    let test = "nonlinear_queries_go_to_the_helper_first";
    let (Some(yices), Some(z3), Some(cvc5)) = (
        solver(SolverKind::Yices, test),
        solver(SolverKind::Z3, test),
        solver(SolverKind::Cvc5, test),
    ) else {
        return;
    };
    let f = Arc::new(ExprFactory::new());
    let prover = HybridProver::with_nonlinear_helper(f.clone(), vec![yices, z3], cvc5, false);
    assert!(
        prover.name().ends_with("cvc5 (nonlinear)"),
        "{}",
        prover.name()
    );
    let (assumption, claim) = nonlinear_claim(&f);
    assert_eq!(prover.valid(assumption, claim), Validity::Yes);
    let calls = |name: &str| {
        prover
            .stats()
            .smt
            .iter()
            .find(|b| b.name == name)
            .map(|b| b.solver_calls)
            .expect("a back end of that name")
    };
    // cvc5 decided it: yices and z3 were not asked.
    assert_eq!((calls("cvc5"), calls("yices"), calls("z3")), (1, 0, 0));
    // A linear question goes to yices; cvc5 is not asked.
    let x = f.symbol("x", Type::Real);
    assert_eq!(
        prover.valid_with_effort(
            f.gt(x, f.to_real(f.int(1))),
            f.gt(x, f.to_real(f.int(0))),
            Effort::Branch
        ),
        Validity::Yes
    );
    assert_eq!((calls("cvc5"), calls("yices"), calls("z3")), (1, 1, 0));
}

fn hanging_z3(limit: Duration) -> SmtSolver {
    let fake = fake_solver("hang", "sleep 1000; echo sat");
    SmtSolver::new(SolverKind::Z3, Some(fake.to_str().expect("utf8")), limit)
        .expect("script exists")
}

#[test]
fn a_short_limit_unknown_does_not_answer_a_full_limit_question() {
    let mut s = hanging_z3(Duration::from_millis(600));
    let q = SmtQuery {
        declarations: vec!["(declare-fun x () Int)".into()],
        assertions: vec!["(> x 0)".into()],
        ..SmtQuery::default()
    };
    assert!(matches!(
        s.check_within(&q, Duration::from_millis(100)),
        SatOutcome::Unknown(_)
    ));
    // The same short question again: from the cache.
    assert!(matches!(
        s.check_within(&q, Duration::from_millis(100)),
        SatOutcome::Unknown(_)
    ));
    assert_eq!((s.stats().solver_calls, s.stats().cache_hits), (1, 1));
    // With the full limit it is asked again (and killed again: the fake hangs).
    match s.check(&q) {
        SatOutcome::Unknown(reason) => assert!(reason.contains("killed"), "{reason}"),
        other => panic!("{other:?}"),
    }
    assert_eq!((s.stats().solver_calls, s.stats().timeouts), (2, 2));
    // A limit above the back end's own is cut to it: now a cache hit.
    assert!(matches!(
        s.check_within(&q, BRANCH_LIMIT * 100),
        SatOutcome::Unknown(_)
    ));
    assert_eq!(s.stats().solver_calls, 2);
}

#[test]
fn a_branch_question_left_open_is_maybe_never_yes() {
    // The hanging solver never answers: the branch question is undecided (the
    // engine then explores both sides), not proved.
    let f = Arc::new(ExprFactory::new());
    let prover =
        HybridProver::with_builtin(f.clone(), vec![hanging_z3(Duration::from_secs(5))], false);
    let (assumption, claim) = nonlinear_claim(&f);
    assert_eq!(
        prover.valid_with_effort(assumption, claim, Effort::Branch),
        Validity::Maybe
    );
    assert!(!prover.is_unsat_with_effort(assumption, Effort::Branch));
    let z3 = &prover.stats().smt[0];
    assert_eq!((z3.solver_calls, z3.timeouts), (2, 2));
}
