//! The order of the second run with lagged loop records (`verify/src/real/lag_order.rs`,
//! issue 17, the paper's `race`): processes ahead of the oldest incomplete loop record
//! move last, and at an invariant loop's head a process ahead leaves first while the
//! others enter first. The order decides which path the search takes first, never which
//! steps it explores: these tests check the verdicts it gives, reduced and with
//! `--por off`, on the paper's race in both forms and on the twins that must not change.
//!
//! Concrete confirmation (`fevs/lise_check.py race`: built with `-DFEVS_CONCRETE`, rank 0
//! waiting 0.2 s and ranks >= 2 0.4 s before they start, `mpirun --allow-run-as-root
//! --oversubscribe -np 3` and `-np 10`, eager and with `--mca btl self,tcp --mca
//! btl_tcp_eager_limit 56 --mca btl_tcp_rndv_eager_limit 56`): `lise_race_paper.c`
//! (`while (1)`, the concrete build stops after ROUNDS rounds), ROUNDS = 3, 5: `s != t`
//! at the second composed arrival in every run; ROUNDS = 0, 1: the invariant holds at
//! every arrival. At -np 2 (one sender, so rank 0's round takes exactly its one message)
//! the invariant holds at every arrival, ROUNDS = 0, 1, 3, 5, both modes.

mod common;

use common::{fevs_mpi, inline, reduced_and_full, report};
use serde_json::Value;
use std::process::Command;

fn verify(procs: &str, extra: &[&str], text: &str) -> (i32, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args([
            "verify",
            "-n",
            procs,
            "--timeout",
            "120",
            "--format",
            "json",
        ])
        .args(extra)
        .arg(inline(text))
        .output()
        .expect("run tass");
    report(out)
}

fn fevs(name: &str) -> String {
    std::fs::read_to_string(fevs_mpi(name)).unwrap_or_else(|e| panic!("read {name}: {e}"))
}

fn second_run(r: &Value) -> &str {
    r["loop_runs"]["second_run"].as_str().unwrap_or_default()
}

/// The paper's Fig. 1 as printed (`while (1)`): the aligned form refuses the wildcard
/// receive, and the lagged run refutes `s == t` (not preserved). Before the order it
/// stopped at its lag limit (rank 1 ran ahead on the first path): an error, no verdict.
#[test]
fn the_papers_race_is_refuted_by_the_lagged_run() {
    let race = fevs("lise_race_paper.c");
    for procs in ["3", "10"] {
        let (code, r) = verify(procs, &[], &race);
        assert_eq!(
            (code, &r["verdict"]),
            (1, &Value::from("violated")),
            "{r:#}"
        );
        let v = &r["violations"][0];
        assert_eq!(v["property"], "invariant", "{r:#}");
        let message = v["message"].as_str().unwrap_or_default();
        assert!(message.contains("is not preserved"), "{message}");
        assert!(second_run(&r).contains("decided (violated)"), "{r:#}");
    }
}

/// The same verdict and property without the reduction (the lagged run's order applies
/// to whatever steps the search explores).
#[test]
fn the_papers_race_reduced_and_full_agree() {
    reduced_and_full(
        "3",
        &["--timeout", "120"],
        &fevs("lise_race_paper.c"),
        "violated",
        "invariant",
    );
}

/// At 2 processes the paper's race is correct (one sender: every round takes its one
/// message; confirmed with mpirun above). Rank 1's sends are buffered while rank 0
/// receives from MPI_ANY_SOURCE, so rank 1 may run ahead without bound: the lagged run
/// stops at its lag limit and the verdict is an error, never holds and never violated.
#[test]
fn the_papers_race_with_one_sender_is_neither_proved_nor_refuted() {
    let (code, r) = verify("2", &[], &fevs("lise_race_paper.c"));
    assert_eq!((code, &r["verdict"]), (2, &Value::from("error")), "{r:#}");
    assert!(second_run(&r).contains("incomplete records"), "{r:#}");
}

/// fevs's bounded race (`while (round < N)`) at 10 processes: the aligned run finds a
/// possible violation (`s == t` does not tie the rounds), the lagged run can only turn it
/// into `holds` and ends at its first violation. It used to spend its whole state budget
/// on the interleavings of one-round runs (the engine's order leaves the loop first);
/// now it meets a violation. The verdict is the aligned run's possible violation either
/// way.
#[test]
fn the_bounded_races_second_run_ends_at_a_violation_not_its_budget() {
    let (code, r) = verify("10", &[], &fevs("lise_race.c"));
    assert_eq!(
        (code, &r["verdict"]),
        (1, &Value::from("violated")),
        "{r:#}"
    );
    let v = &r["violations"][0];
    assert_eq!(
        (&v["property"], &v["certainty"]),
        (&Value::from("invariant"), &Value::from("possible")),
        "{r:#}"
    );
    let second = second_run(&r);
    assert!(second.contains("it found violations too"), "{second}");
    assert!(!second.contains("state limit"), "{second}");
}

/// The bounded race at 3 processes and N fixed at 2, reduced and full: the same verdict.
#[test]
fn the_bounded_race_reduced_and_full_agree() {
    let race = fevs("lise_race.c");
    reduced_and_full("3", &["--timeout", "120"], &race, "violated", "invariant");
    reduced_and_full(
        "3",
        &["--timeout", "120", "-i", "N=2"],
        &race,
        "violated",
        "invariant",
    );
}

/// The paper's stagger, which needs the lagged run and holds: the order must not keep
/// its search from converging (a process ahead leaving first, the others entering
/// first), reduced; its buggy twin stays violated. With N fixed the full search agrees.
#[test]
fn stagger_still_holds_and_its_twin_is_still_refuted() {
    let stagger = fevs("lise_stagger.c");
    let bad = fevs("lise_stagger_bad.c");
    let (code, r) = verify("2", &[], &stagger);
    assert_eq!((code, &r["verdict"]), (0, &Value::from("holds")), "{r:#}");
    assert!(second_run(&r).contains("decided (holds)"), "{r:#}");
    let (code, r) = verify("2", &[], &bad);
    assert_eq!(
        (code, &r["verdict"]),
        (1, &Value::from("violated")),
        "{r:#}"
    );
    assert_eq!(r["violations"][0]["property"], "invariant", "{r:#}");
    let fixed = ["--timeout", "120", "-i", "N=3"];
    reduced_and_full("2", &fixed, &stagger, "holds", "");
    reduced_and_full("2", &fixed, &bad, "violated", "invariant");
}
