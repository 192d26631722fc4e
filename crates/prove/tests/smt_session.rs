//! The SMT-LIB session layer against the real solvers found on PATH and against fake
//! solvers that misbehave (garbage, crashes, hangs, missing programs).

mod common;

use std::time::Duration;

use common::{all_solvers, fake_solver, solver};
use num_bigint::BigInt;
use tass_prove::api::{
    ModelTerm, ModelValue, SatOutcome, SmtQuery, SmtSolver, SolverError, SolverKind, ValueSort,
};

fn int_query(decls: &[&str], assertions: &[&str], model: &[&str]) -> SmtQuery {
    SmtQuery {
        declarations: decls.iter().map(|d| d.to_string()).collect(),
        assertions: assertions.iter().map(|a| a.to_string()).collect(),
        model_terms: model
            .iter()
            .map(|m| ModelTerm {
                name: m.to_string(),
                term: m.to_string(),
                sort: ValueSort::Int,
            })
            .collect(),
        ..SmtQuery::default()
    }
}

#[test]
fn unsat_and_sat_with_model_on_every_solver() {
    for mut s in all_solvers("unsat_and_sat_with_model_on_every_solver") {
        let unsat = int_query(&["(declare-fun x () Int)"], &["(> x 0)", "(< x 1)"], &["x"]);
        assert_eq!(s.check(&unsat), SatOutcome::Unsat, "{}", s.kind());
        let sat = int_query(&["(declare-fun x () Int)"], &["(> x 0)", "(< x 2)"], &["x"]);
        match s.check(&sat) {
            SatOutcome::Sat(m) => {
                assert_eq!(
                    m.get("x"),
                    Some(&ModelValue::Int(BigInt::from(1))),
                    "{}",
                    s.kind()
                )
            }
            other => panic!("{}: expected sat, got {other:?}", s.kind()),
        }
    }
}

#[test]
fn negative_and_rational_model_values_on_every_solver() {
    for mut s in all_solvers("negative_and_rational_model_values_on_every_solver") {
        let q = SmtQuery {
            declarations: vec![
                "(declare-fun x () Int)".into(),
                "(declare-fun r () Real)".into(),
            ],
            assertions: vec!["(= (+ x 3) 0)".into(), "(= (* 2.0 r) (- 1.0))".into()],
            model_terms: vec![
                ModelTerm {
                    name: "x".into(),
                    term: "x".into(),
                    sort: ValueSort::Int,
                },
                ModelTerm {
                    name: "r".into(),
                    term: "r".into(),
                    sort: ValueSort::Real,
                },
            ],
            ..SmtQuery::default()
        };
        match s.check(&q) {
            SatOutcome::Sat(m) => {
                assert_eq!(
                    m.get("x").map(|v| v.to_string()),
                    Some("-3".into()),
                    "{}",
                    s.kind()
                );
                assert_eq!(
                    m.get("r").map(|v| v.to_string()),
                    Some("-1/2".into()),
                    "{}",
                    s.kind()
                );
            }
            other => panic!("{}: expected sat, got {other:?}", s.kind()),
        }
    }
}

#[test]
fn queries_do_not_interfere_and_repeats_hit_the_cache() {
    for mut s in all_solvers("queries_do_not_interfere_and_repeats_hit_the_cache") {
        let a = int_query(&["(declare-fun x () Int)"], &["(= x 1)"], &[]);
        // The same name declared again, with a contradicting assertion: a fresh state
        // per query makes both satisfiable.
        let b = int_query(&["(declare-fun x () Int)"], &["(= x 2)"], &[]);
        assert!(matches!(s.check(&a), SatOutcome::Sat(_)), "{}", s.kind());
        assert!(matches!(s.check(&b), SatOutcome::Sat(_)), "{}", s.kind());
        assert!(matches!(s.check(&a), SatOutcome::Sat(_)), "{}", s.kind());
        let st = s.stats();
        assert_eq!(st.queries, 3);
        assert_eq!(st.cache_hits, 1);
        assert_eq!(st.solver_calls, 2);
        assert_eq!(st.starts, 1, "{}: one process serves every query", s.kind());
    }
}

#[test]
fn yices_declines_quantified_queries() {
    let Some(mut s) = solver(SolverKind::Yices, "yices_declines_quantified_queries") else {
        return;
    };
    let q = SmtQuery {
        assertions: vec!["(forall ((i Int)) (> (* i i) (- 1)))".into()],
        quantified: true,
        ..SmtQuery::default()
    };
    assert!(matches!(s.check(&q), SatOutcome::Unknown(r) if r.contains("quantified")));
}

#[test]
fn cvc5_nonlinear_real_query_times_out_as_unknown() {
    let Some(_) = solver(
        SolverKind::Cvc5,
        "cvc5_nonlinear_real_query_times_out_as_unknown",
    ) else {
        return;
    };
    let mut s = SmtSolver::new(SolverKind::Cvc5, None, Duration::from_millis(300))
        .expect("cvc5 was found above");
    // A hard nonlinear real problem (no rational solution exists; cvc5 keeps searching).
    let q = SmtQuery {
        declarations: ["a", "b", "c", "d"]
            .iter()
            .map(|v| format!("(declare-fun {v} () Real)"))
            .collect(),
        assertions: vec![
            "(= (+ (* a a a) (* b b b) (* c c c)) (* 7.0 d d d))".into(),
            "(> d 0.0)".into(),
            "(= (* a b c d) 3.0)".into(),
            "(> (* a a) (+ (* b b c) 1.0))".into(),
        ],
        nonlinear: true,
        ..SmtQuery::default()
    };
    // Whatever cvc5 manages, the call returns; only `sat`/`unknown` are possible here.
    let out = s.check(&q);
    assert!(!matches!(out, SatOutcome::Unsat), "{out:?}");
    // The back end stays usable afterwards.
    let easy = int_query(&["(declare-fun x () Int)"], &["(> x 0)", "(< x 1)"], &[]);
    assert_eq!(s.check(&easy), SatOutcome::Unsat);
}

#[test]
fn missing_program_is_a_clear_error() {
    let e = SmtSolver::new(SolverKind::Z3, Some("/nonexistent/dir/z3"), common::LIMIT)
        .err()
        .expect("no such file");
    assert!(matches!(e, SolverError::NotFound { .. }));
    assert!(e.to_string().contains("/nonexistent/dir/z3"), "{e}");
    let e = SmtSolver::new(
        SolverKind::Cvc5,
        Some("no-such-solver-on-path-xyz"),
        common::LIMIT,
    )
    .err()
    .expect("not on PATH");
    assert!(e.to_string().contains("not on PATH"), "{e}");
}

#[test]
fn garbage_output_is_unknown_and_the_solver_is_restarted() {
    let fake = fake_solver(
        "garbage",
        "while read line; do echo 'hello ))) world'; done",
    );
    let mut s = SmtSolver::new(
        SolverKind::Z3,
        Some(fake.to_str().expect("utf8")),
        common::LIMIT,
    )
    .expect("script exists");
    let q = int_query(&["(declare-fun x () Int)"], &["(> x 0)"], &["x"]);
    for _ in 0..2 {
        match s.check(&q) {
            SatOutcome::Unknown(reason) => assert!(reason.contains("z3"), "{reason}"),
            other => panic!("garbage must not be an answer: {other:?}"),
        }
    }
    let st = s.stats();
    assert_eq!(st.failures, 2);
    assert_eq!(st.starts, 2, "restarted after the first failure");
    assert_eq!(st.cache_hits, 0, "failures are not cached");
}

#[test]
fn binary_garbage_and_lookalike_answers_are_unknown() {
    for body in [
        "while read line; do printf '\\377\\376\\001 sat\\n'; done",
        "while read line; do echo 'unsatisfiable'; done",
        "while read line; do echo '(error \"no\")'; done",
        "while read line; do echo '((('; done; sleep 100",
    ] {
        let fake = fake_solver("junk", body);
        let mut s = SmtSolver::new(
            SolverKind::Yices,
            Some(fake.to_str().expect("utf8")),
            Duration::from_millis(300),
        )
        .expect("script exists");
        let q = int_query(&["(declare-fun x () Int)"], &["(> x 0)"], &[]);
        assert!(matches!(s.check(&q), SatOutcome::Unknown(_)), "{body}");
    }
}

#[test]
fn crash_mid_query_is_unknown() {
    // Exits after the first line; killed by a signal after the first line.
    for body in ["read line; exit 3", "read line; kill -9 $$"] {
        let fake = fake_solver("crash", body);
        let mut s = SmtSolver::new(
            SolverKind::Cvc5,
            Some(fake.to_str().expect("utf8")),
            common::LIMIT,
        )
        .expect("script exists");
        let q = int_query(&["(declare-fun x () Int)"], &["(> x 0)"], &[]);
        match s.check(&q) {
            SatOutcome::Unknown(reason) => {
                assert!(reason.contains("exited or crashed"), "{body}: {reason}")
            }
            other => panic!("{body}: {other:?}"),
        }
    }
}

#[test]
fn hanging_solver_is_killed_by_the_watchdog() {
    // The script does not `exec` its sleep: the watchdog must kill the helper process
    // too, or the pipe would stay open and the read would block.
    let fake = fake_solver("hang", "sleep 1000; echo sat");
    let mut s = SmtSolver::new(
        SolverKind::Z3,
        Some(fake.to_str().expect("utf8")),
        Duration::from_millis(200),
    )
    .expect("script exists");
    let q = int_query(&["(declare-fun x () Int)"], &["(> x 0)"], &[]);
    match s.check(&q) {
        SatOutcome::Unknown(reason) => assert!(reason.contains("killed"), "{reason}"),
        other => panic!("{other:?}"),
    }
    assert_eq!(s.stats().timeouts, 1);
    // Time-outs are cached: the same query is not sent again.
    assert!(matches!(s.check(&q), SatOutcome::Unknown(_)));
    assert_eq!(s.stats().solver_calls, 1);
}

#[test]
fn solver_that_cannot_start_is_given_up_after_repeated_failures() {
    let fake = fake_solver("dies", "exit 1");
    let mut s = SmtSolver::new(
        SolverKind::Z3,
        Some(fake.to_str().expect("utf8")),
        common::LIMIT,
    )
    .expect("script exists");
    for i in 0..5 {
        let q = int_query(&["(declare-fun x () Int)"], &[&format!("(> x {i})")], &[]);
        assert!(matches!(s.check(&q), SatOutcome::Unknown(_)));
    }
    assert!(SmtSolver::new_checked(
        SolverKind::Z3,
        Some(fake.to_str().expect("utf8")),
        common::LIMIT
    )
    .is_err());
}

#[test]
fn alternating_incremental_and_reset_queries_stay_independent() {
    // z3 answers linear queries inside push/pop and nonlinear ones after a reset; the
    // same names are declared again in every query.
    for mut s in all_solvers("alternating_incremental_and_reset_queries_stay_independent") {
        for round in 0..3 {
            let mut nl = int_query(
                &["(declare-fun x () Int)"],
                &["(= (* x x) 4)", "(< x 0)"],
                &["x"],
            );
            nl.nonlinear = true;
            nl.assertions.push(format!("(> x (- {}))", 3 + round));
            match s.check(&nl) {
                SatOutcome::Sat(m) => {
                    assert_eq!(m.get("x").map(|v| v.to_string()), Some("-2".into()))
                }
                other => panic!("{}: {other:?}", s.kind()),
            }
            let lin = int_query(
                &["(declare-fun x () Int)"],
                &[&format!("(= x {round})")],
                &["x"],
            );
            match s.check(&lin) {
                SatOutcome::Sat(m) => {
                    assert_eq!(m.get("x").map(|v| v.to_string()), Some(round.to_string()))
                }
                other => panic!("{}: {other:?}", s.kind()),
            }
        }
        assert_eq!(s.stats().failures, 0, "{}", s.kind());
        assert_eq!(s.stats().starts, 1, "{}", s.kind());
    }
}
