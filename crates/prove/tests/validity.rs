//! Validity and model questions, through the built-in prover and through every SMT
//! solver found on PATH (each also alone, without the built-in prover in front).

mod common;

use std::sync::Arc;

use tass_prove::api::{
    build_prover, BuiltinProver, HybridProver, ModelValue, Prover, ProverChoice, ProverOptions,
    SmtSolver, SolverKind, Validity,
};
use tass_symbolic::api::{BigInt, BitOp, Expr, ExprFactory, Type};

fn factory() -> Arc<ExprFactory> {
    Arc::new(ExprFactory::new())
}

/// Provers to check: SMT-only for each solver found.
fn smt_provers(f: &Arc<ExprFactory>, test: &str) -> Vec<(SolverKind, HybridProver)> {
    common::all_solvers(test)
        .into_iter()
        .map(|s| {
            (
                s.kind(),
                HybridProver::with_builtin(f.clone(), vec![s], false),
            )
        })
        .collect()
}

fn int_model(p: &dyn Prover, a: Expr, q: Expr, name: &str) -> Option<BigInt> {
    let ans = p.valid_with_model(a, q);
    assert_eq!(ans.validity, Validity::No, "{}", p.name());
    match ans.model.as_ref().and_then(|m| m.get(name)) {
        Some(ModelValue::Int(i)) => Some(i.clone()),
        other => panic!("{}: no integer model value for {name}: {other:?}", p.name()),
    }
}

#[test]
fn builtin_decides_integer_bounds_with_a_model() {
    let f = factory();
    let p = BuiltinProver::new(f.clone());
    let x = f.symbol("x", Type::Int);
    let gt0 = f.gt(x, f.int(0));
    assert_eq!(p.valid(gt0, f.ge(x, f.int(1))), Validity::Yes);
    assert_eq!(
        int_model(&p, gt0, f.gt(x, f.int(1)), "x"),
        Some(BigInt::from(1))
    );
    assert!(p.is_unsat(f.and(gt0, f.lt(x, f.int(1)))));
    assert!(!p.is_unsat(gt0));
    let st = p.stats();
    assert_eq!(st.queries, 4);
    assert_eq!(st.builtin_decided, 4);
    assert_eq!(st.smt_calls(), 0);
    // The same question again comes from the cache.
    assert_eq!(p.valid(gt0, f.ge(x, f.int(1))), Validity::Yes);
    assert_eq!(p.stats().cache_hits, 1);
}

#[test]
fn builtin_says_maybe_rather_than_guess() {
    let f = factory();
    let p = BuiltinProver::new(f.clone());
    let x = f.symbol("x", Type::Int);
    // x*x >= 0 is valid, but not linear: the built-in prover must not claim `No`.
    let sq = f.mul(x, x);
    assert_ne!(p.valid(f.tt(), f.ge(sq, f.int(0))), Validity::No);
    // x*x == 2 has no integer solution; the built-in prover cannot know that.
    assert_ne!(p.valid(f.tt(), f.ne(sq, f.int(2))), Validity::No);
}

#[test]
fn solvers_decide_integer_bounds_with_a_model() {
    let f = factory();
    let x = f.symbol("x", Type::Int);
    let gt0 = f.gt(x, f.int(0));
    for (kind, p) in smt_provers(&f, "solvers_decide_integer_bounds_with_a_model") {
        assert_eq!(p.valid(gt0, f.ge(x, f.int(1))), Validity::Yes, "{kind}");
        assert_eq!(
            int_model(&p, gt0, f.gt(x, f.int(1)), "x"),
            Some(BigInt::from(1)),
            "{kind}"
        );
        let sq = f.mul(x, x);
        assert_eq!(p.valid(f.tt(), f.ne(sq, f.int(2))), Validity::Yes, "{kind}");
        assert!(p.stats().smt_calls() >= 3, "{kind}");
    }
}

#[test]
fn c_division_and_remainder_truncate_toward_zero() {
    let f = factory();
    let x = f.symbol("x", Type::Int);
    let y = f.symbol("y", Type::Int);
    let cases: [(i64, i64); 9] = [
        (-7, 2),
        (7, -2),
        (-7, -2),
        (7, 2),
        (0, 3),
        (-1, 5),
        (-7, 0),
        (7, 0),
        (6, -3),
    ];
    let provers = smt_provers(&f, "c_division_and_remainder_truncate_toward_zero");
    for (a, b) in cases {
        let (q, r) = if b == 0 { (0, a) } else { (a / b, a % b) };
        let assume = f.and(f.eq(x, f.int(a)), f.eq(y, f.int(b)));
        let pred = f.and(
            f.eq(f.int_div(x, y), f.int(q)),
            f.eq(f.int_mod(x, y), f.int(r)),
        );
        // Division by a constant takes the linear encoding.
        let by_const = if b == 0 {
            f.tt()
        } else {
            f.and(
                f.eq(f.int_div(x, f.int(b)), f.int(q)),
                f.eq(f.int_mod(x, f.int(b)), f.int(r)),
            )
        };
        for (kind, p) in &provers {
            assert_eq!(p.valid(assume, pred), Validity::Yes, "{kind}: {a} / {b}");
            assert_eq!(
                p.valid(assume, by_const),
                Validity::Yes,
                "{kind}: {a} / const {b}"
            );
            let wrong = f.eq(f.int_div(x, y), f.int(q + 1));
            assert_eq!(p.valid(assume, wrong), Validity::No, "{kind}: {a} / {b}");
        }
    }
}

#[test]
fn real_to_int_truncates_and_reals_are_exact() {
    let f = factory();
    let r = f.symbol("r", Type::Real);
    for (kind, p) in smt_provers(&f, "real_to_int_truncates_and_reals_are_exact") {
        let assume = f.eq(r, f.real_ratio(-7, 2));
        assert_eq!(
            p.valid(assume, f.eq(f.to_int(r), f.int(-3))),
            Validity::Yes,
            "{kind}"
        );
        let half = f.eq(f.mul(f.real_ratio(2, 1), r), f.real_ratio(1, 1));
        let ans = p.valid_with_model(f.tt(), f.not(half));
        assert_eq!(ans.validity, Validity::No, "{kind}");
        assert_eq!(
            ans.model
                .and_then(|m| m.get("r").cloned())
                .map(|v| v.to_string()),
            Some("1/2".to_string()),
            "{kind}"
        );
    }
}

#[test]
fn arrays_tuples_functions_and_bitwise_operators() {
    let f = factory();
    let n = f.int(4);
    let arr_ty = Type::array(Type::Int, Some(n));
    let a = f.symbol("a", arr_ty.clone());
    let b = f.symbol("b", arr_ty.clone());
    let i = f.symbol("i", Type::Int);
    let j = f.symbol("j", Type::Int);
    let t = f.symbol("t", Type::tuple([Type::Int, Type::Real]));
    let g = f.symbol("g", Type::function([Type::Int], Type::Int));
    let five = f.int(5);
    for (kind, p) in smt_provers(&f, "arrays_tuples_functions_and_bitwise_operators") {
        // Reads agree at equal indices.
        let assume = f.and(f.eq(f.array_read(a, i), five), f.eq(i, j));
        assert_eq!(
            p.valid(assume, f.eq(f.array_read(a, j), five)),
            Validity::Yes,
            "{kind}"
        );
        // A write is seen by a read at a provably equal index.
        let w = f.array_write(a, i, f.int(9));
        assert_eq!(
            p.valid(f.eq(i, j), f.eq(f.array_read(w, j), f.int(9))),
            Validity::Yes
        );
        // Equal arrays (extent 4) agree inside the extent.
        let same = f.eq(a, b);
        assert_eq!(
            p.valid(
                same,
                f.eq(f.array_read(a, f.int(2)), f.array_read(b, f.int(2)))
            ),
            Validity::Yes,
            "{kind}"
        );
        // Tuples are flattened.
        let t0 = f.tuple_read(t, 0);
        assert_eq!(
            p.valid(f.gt(t0, f.int(0)), f.ge(t0, f.int(1))),
            Validity::Yes,
            "{kind}"
        );
        // Uninterpreted functions are congruent, and nothing more.
        let gi = f.apply(g, &[i]);
        let gj = f.apply(g, &[j]);
        assert_eq!(p.valid(f.eq(i, j), f.eq(gi, gj)), Validity::Yes, "{kind}");
        assert_eq!(p.valid(f.tt(), f.eq(gi, gj)), Validity::No, "{kind}");
        // Bitwise operators on unknowns are uninterpreted functions.
        let xi = f.bitwise(BitOp::And, i, f.int(3));
        let xj = f.bitwise(BitOp::And, j, f.int(3));
        assert_eq!(p.valid(f.eq(i, j), f.eq(xi, xj)), Validity::Yes, "{kind}");
        assert_eq!(p.valid(f.tt(), f.eq(xi, xj)), Validity::No, "{kind}");
    }
}

#[test]
fn array_lambdas_with_concrete_and_symbolic_extents() {
    let f = factory();
    let k = f.symbol("k", Type::Int);
    let j = f.symbol("j", Type::Int);
    let m = f.symbol("m", Type::Int);
    let body = f.mul(f.int(2), k);
    let small = f.array_lambda(Type::array(Type::Int, Some(f.int(5))), k, body);
    let big = f.array_lambda(Type::array(Type::Int, Some(m)), k, body);
    for (kind, p) in smt_provers(&f, "array_lambdas_with_concrete_and_symbolic_extents") {
        let at3 = f.eq(j, f.int(3));
        assert_eq!(
            p.valid(at3, f.eq(f.array_read(small, j), f.int(6))),
            Validity::Yes,
            "{kind}"
        );
        // (A read of a lambda is folded by the factory; an equality keeps the lambda.)
        let c = f.symbol("c", Type::array(Type::Int, Some(m)));
        let assume = f.and_all([at3, f.gt(m, f.int(5)), f.eq(c, big)]);
        let ans = p.valid(assume, f.eq(f.array_read(c, j), f.int(6)));
        if kind == SolverKind::Yices {
            // The symbolic extent needs quantifiers, which yices declines.
            assert_eq!(ans, Validity::Maybe);
        } else {
            assert_eq!(ans, Validity::Yes, "{kind}");
        }
        let c5 = f.symbol("c5", Type::array(Type::Int, Some(f.int(5))));
        let assume = f.and(at3, f.eq(c5, small));
        assert_eq!(
            p.valid(assume, f.eq(f.array_read(c5, j), f.int(6))),
            Validity::Yes,
            "{kind}"
        );
        assert_eq!(
            p.valid(assume, f.eq(f.array_read(c5, j), f.int(7))),
            Validity::No,
            "{kind}"
        );
    }
}

#[test]
fn quantified_predicates() {
    let f = factory();
    let a = f.symbol("a", Type::array(Type::Int, Some(f.int(10))));
    let i = f.symbol("i", Type::Int);
    let all_pos = f.forall(i, f.gt(f.array_read(a, i), f.int(0)));
    let pred = f.gt(f.array_read(a, f.int(3)), f.int(0));
    for (kind, p) in smt_provers(&f, "quantified_predicates") {
        let v = p.valid(all_pos, pred);
        match kind {
            SolverKind::Yices => assert_eq!(v, Validity::Maybe),
            _ => assert_eq!(v, Validity::Yes, "{kind}"),
        }
    }
}

#[test]
fn hybrid_never_turns_maybe_into_yes() {
    let f = factory();
    let fake = common::fake_solver("garbage", "while read l; do echo 'hello'; done");
    let s = SmtSolver::new(
        SolverKind::Z3,
        Some(fake.to_str().expect("utf8")),
        common::LIMIT,
    )
    .expect("script exists");
    let p = HybridProver::new(f.clone(), vec![s]);
    let x = f.symbol("x", Type::Int);
    let sq = f.mul(x, x);
    // Valid but out of the built-in prover's reach; the "solver" answers garbage.
    let ans = p.valid_with_model(f.tt(), f.ne(sq, f.int(2)));
    assert_eq!(ans.validity, Validity::Maybe);
    assert!(ans.reason.contains("z3"), "{}", ans.reason);
    // What the built-in prover proves is still proved.
    assert_eq!(p.valid(f.gt(x, f.int(0)), f.ge(x, f.int(1))), Validity::Yes);
}

#[test]
fn explicit_choice_of_a_missing_solver_is_an_error_and_auto_works() {
    let f = factory();
    let mut opts = ProverOptions::new(ProverChoice::Z3);
    opts.solver_command = Some("/nonexistent/z3".into());
    let err = build_prover(f.clone(), &opts)
        .err()
        .expect("missing solver");
    assert!(err.to_string().contains("/nonexistent/z3"), "{err}");
    let auto = build_prover(f.clone(), &ProverOptions::default()).expect("auto never fails");
    let x = f.symbol("x", Type::Int);
    assert_eq!(
        auto.valid(f.gt(x, f.int(0)), f.ge(x, f.int(1))),
        Validity::Yes
    );
    let b = build_prover(f, &ProverOptions::new(ProverChoice::Builtin)).expect("builtin");
    assert_eq!(b.name(), "builtin");
    assert_eq!("yices".parse::<ProverChoice>(), Ok(ProverChoice::Yices));
    assert!("cvc4".parse::<ProverChoice>().is_err());
}

#[test]
fn provers_are_shared_between_threads() {
    fn send_sync<T: Send + Sync + ?Sized>() {}
    send_sync::<dyn Prover>();
    send_sync::<HybridProver>();
    let f = factory();
    let p: Arc<dyn Prover> =
        Arc::from(build_prover(f.clone(), &ProverOptions::default()).expect("auto never fails"));
    let handles: Vec<_> = (0..4)
        .map(|t| {
            let (f, p) = (f.clone(), p.clone());
            std::thread::spawn(move || {
                let x = f.symbol("x", Type::Int);
                for k in 0..20 {
                    let a = f.gt(x, f.int(k + t));
                    assert_eq!(p.valid(a, f.ge(x, f.int(k + t + 1))), Validity::Yes);
                    assert_eq!(p.valid(a, f.gt(x, f.int(k + t + 1))), Validity::No);
                }
            })
        })
        .collect();
    for h in handles {
        h.join().expect("no panic");
    }
    assert_eq!(p.stats().queries, 160);
}
