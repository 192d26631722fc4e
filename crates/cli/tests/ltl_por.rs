//! The partial-order reduction in the `ltl` product search (formulas without
//! `X`; steps that may change an atom's value are visible and never explored
//! alone; a reduced node whose successors are not all new is expanded fully,
//! the cycle proviso). Each program runs reduced (`--por urgent`, the
//! default) and in full (`--por off`), and both must give the same verdict
//! on the same formulas; the programs are written to break a reduction that
//! ignored visibility, the proviso or fairness.
//!
//! Concrete runs (mpicc -fsanitize=address,undefined, mpirun
//! --allow-run-as-root --oversubscribe -np 2, ASAN_OPTIONS=detect_leaks=0):
//! `SPIN_AND_SET` with rank 0's loop stopped after 20 passes and prints: in
//! 3 runs rank 1 set its flag (once before rank 0's 20 passes ended, twice
//! after), so `never` fails on real runs; the run that starves rank 1
//! forever is one only `--fairness none` admits. `ORDER` (without rank 2,
//! each assignment followed by a print) over 20 runs printed x first 13
//! times and y first 7 (the order mpirun forwards the prints in, which
//! follows the assignments): the until formula fails on a real schedule.

mod common;

use common::{inline, verify_reduced};
use serde_json::Value;

/// Runs `text` reduced and in full with `extra`: both verdicts must be
/// `verdict` (and the same formulas violated); returns those formulas and
/// the states seen (reduced, full).
fn same_verdict(procs: &str, extra: &[&str], text: &str, verdict: &str) -> (Vec<String>, u64, u64) {
    let file = inline(text);
    let mut seen = Vec::new();
    let mut formulas: Vec<Vec<String>> = Vec::new();
    for reduced in [true, false] {
        let mut args = vec!["--max-violations", "0", "--timeout", "120"];
        args.extend_from_slice(extra);
        let (code, r) = verify_reduced(procs, &args, &file, reduced);
        assert_eq!(r["verdict"], verdict, "reduced: {reduced}\n{r:#}");
        assert_eq!(code, if verdict == "holds" { 0 } else { 1 }, "{r:#}");
        formulas.push(violated(&r));
        seen.push(r["stats"]["states_seen"].as_u64().expect("stats"));
    }
    assert_eq!(formulas[0], formulas[1], "the same formulas fail");
    (formulas.remove(0), seen[0], seen[1])
}

fn violated(r: &Value) -> Vec<String> {
    let mut out: Vec<String> = r["violations"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .filter_map(|v| {
            let m = v["message"].as_str()?;
            let start = m.find('`')? + 1;
            let len = m[start..].find('`')?;
            Some(m[start..start + len].to_string())
        })
        .collect();
    out.sort();
    out
}

/// Rank 0 spins forever on local steps no atom reads (the reduction would
/// explore them alone forever); rank 1 sets the flag the formula reads once.
/// Ignoring rank 1 forever is what the proviso forbids (without it the
/// reduced search would never set the flag, and `never` would hold); with
/// weak fairness the flag is eventually set in every run, without fairness
/// rank 1 may never move.
const SPIN_AND_SET: &str = "#include <mpi.h>
#pragma TASS ltl set F {PROC[1].flag == 1}
#pragma TASS ltl stays G F {PROC[1].flag == 1}
#pragma TASS ltl never G {PROC[1].flag == 0}
int flag;
int spin;
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 1) {
    flag = 1;
  } else {
  again:
    spin = 1 - spin;
    goto again;
  }
  MPI_Finalize();
  return 0;
}
";

#[test]
fn a_step_postponed_forever_is_not_lost() {
    let (formulas, reduced, full) = same_verdict("2", &[], SPIN_AND_SET, "violated");
    assert_eq!(formulas, ["never"]);
    assert!(
        reduced < full,
        "the reduction explores fewer states: {reduced} vs {full}"
    );
    let (formulas, _, _) = same_verdict("2", &["--fairness", "none"], SPIN_AND_SET, "violated");
    assert_eq!(formulas, ["never", "set", "stays"]);
}

/// Both ranks assign a variable an atom reads; the until formula fails only
/// when rank 1 moves first (the reduction prefers rank 0: were the
/// assignments invisible, it would explore only rank 0 first and miss it).
/// Rank 2's local loop is invisible and reduced throughout.
const ORDER: &str = "#include <mpi.h>
#pragma TASS ltl first !{PROC[1].y == 1} U {PROC[0].x == 1}
#pragma TASS ltl live G F {PROC[0].x == 1}
int x, y, z;
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    x = 1;
  else if (rank == 1)
    y = 1;
  else
    for (int k = 0; k < 3; k++)
      z = z + k;
  MPI_Finalize();
  return 0;
}
";

#[test]
fn a_violation_on_the_interleaving_the_reduction_would_prune_is_found() {
    let (formulas, _, _) = same_verdict("2", &[], ORDER, "violated");
    assert_eq!(formulas, ["first"], "`live` holds: x stays 1");
    let (formulas, reduced, full) = same_verdict("3", &[], ORDER, "violated");
    assert_eq!(formulas, ["first"]);
    assert!(reduced < full, "{reduced} vs {full}");
}

/// A location atom: the token ring's liveness (each rank in its critical
/// section infinitely often) and mutual exclusion, reduced and in full, on
/// the fevs programs (verdicts confirmed by mpirun in `ltl.rs`/`matching.rs`).
#[test]
fn location_atoms_on_the_fevs_token_rings() {
    let fevs = |name: &str| {
        std::fs::read_to_string(format!(
            "{}/../../fevs/mpi/{name}.c",
            env!("CARGO_MANIFEST_DIR")
        ))
        .expect("fevs program")
    };
    let set = ["--match", "set"];
    same_verdict("2", &set, &fevs("ltl_mutex_counter"), "holds");
    same_verdict("2", &set, &fevs("ltl_mutex_counter_bad"), "violated");
    same_verdict("2", &set, &fevs("ltl_mutex_keep_bad"), "violated");
    same_verdict("3", &[], &fevs("ltl_server"), "holds");
    same_verdict("3", &[], &fevs("ltl_server_bad"), "violated");
}

/// A formula with `X` is checked without the reduction (not invariant under
/// stuttering): the same states as `--por off` for that formula's search.
#[test]
fn next_formulas_run_unreduced() {
    let text = SPIN_AND_SET.replace(
        "#pragma TASS ltl stays G F {PROC[1].flag == 1}",
        "#pragma TASS ltl stays G ({PROC[1].flag == 1} -> X {PROC[1].flag == 1})",
    );
    let (formulas, _, _) = same_verdict("2", &[], &text, "violated");
    assert_eq!(formulas, ["never"]);
}

/// `--por urgent` asked for explicitly with a formula using `X` is refused
/// (exit 2, at the pragma, saying what to do); by default the formula is
/// checked unreduced, and `-v` says so.
#[test]
fn forcing_the_reduction_on_a_next_formula_is_refused() {
    let file = inline(
        "int x;\n#pragma TASS ltl step G ({x == 0} -> X {x == 1})\nint main(void) {\n  x = 1;\n  return 0;\n}\n",
    );
    let run = |extra: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_tass"))
            .arg("verify")
            .args(extra)
            .arg(&file)
            .output()
            .expect("run tass")
    };
    let forced = run(&["--por", "urgent"]);
    assert_eq!(forced.status.code(), Some(2));
    let err = String::from_utf8_lossy(&forced.stderr);
    assert!(
        err.contains(":2:") && err.contains("uses `X`") && err.contains("drop `--por urgent`"),
        "{err}"
    );
    let default = run(&["-v"]);
    assert_eq!(default.status.code(), Some(0));
    let err = String::from_utf8_lossy(&default.stderr);
    assert!(
        err.contains(
            "ltl formula `step` uses X: its search runs without the partial-order reduction"
        ),
        "{err}"
    );
}
