//! `#pragma TASS ltl ID FORMULA`: both verdicts for each operator, location
//! atoms, atoms over symbolic inputs, terminated runs, weak fairness, MPI
//! programs that never end, the lasso in the report, and malformed formulas.
//!
//! The counter program below cycles x through 0, 1, 2, 3, 0, ... forever;
//! its concrete run (gcc -g -fsanitize=address,undefined, with a print at the
//! label and a stop after 12 visits) printed `0 1 2 3 0 1 2 3 0 1 2 3` and no
//! sanitizer report, which decides each formula below by hand (the run is
//! deterministic). MPI verdicts were confirmed with mpirun as noted.

mod common;

use common::verify;
use serde_json::Value;

const COUNTER: &str = "int x;
FORMULA
int main(void) {
loop:
  x = (x + 1) % 4;
  goto loop;
}
";

fn counter(formula: &str) -> (i32, Value) {
    let text = COUNTER.replace("FORMULA", &format!("#pragma TASS ltl p {formula}"));
    verify("1", &[], &text)
}

fn holds(formula: &str) {
    let (code, r) = counter(formula);
    assert_eq!(r["verdict"], "holds", "{formula}\n{r:#}");
    assert_eq!(code, 0);
}

fn violated(formula: &str) -> Value {
    let (code, r) = counter(formula);
    assert_eq!(r["verdict"], "violated", "{formula}\n{r:#}");
    assert_eq!(code, 1);
    let v = r["violations"][0].clone();
    assert_eq!(v["property"], "ltl", "{r:#}");
    assert_eq!(v["line"], 2, "the pragma's line\n{r:#}");
    v
}

/// The trace has a stem, the cycle marker, and a nonempty cycle.
fn assert_lasso(v: &Value) {
    let trace = v["trace"].as_array().expect("trace");
    let mark = trace
        .iter()
        .position(|s| s["source"].as_str().unwrap_or("").starts_with("(cycle"))
        .expect("cycle marker");
    assert!(mark + 1 < trace.len(), "empty cycle: {v:#}");
}

#[test]
fn always() {
    holds("G {x < 4}");
    holds("[] {x < 4}");
    assert_lasso(&violated("G {x < 3}"));
}

#[test]
fn eventually() {
    holds("F {x == 3}");
    holds("<> {x == 3}");
    assert_lasso(&violated("F {x == 5}"));
}

/// `X` is the state after one step of one process; here every step
/// advances x (the jump back to the label is no step of its own).
#[test]
fn next() {
    holds("G ({x == 1} -> X {x == 2})");
    holds("X {x == 1}");
    violated("G ({x == 1} -> X {x == 1})");
    violated("X X {x == 1}");
}

#[test]
fn until() {
    holds("{x != 3} U {x == 3}");
    violated("{x < 2} U {x == 3}");
}

#[test]
fn release() {
    holds("{x == 3} R {x <= 3}");
    violated("{x == 3} R {x < 2}");
}

#[test]
fn weak_until() {
    holds("{x < 4} W {x == 5}");
    violated("{x < 3} W {x == 5}");
}

#[test]
fn negation() {
    holds("! F {x == 5}");
    violated("! G {x < 4}");
}

#[test]
fn conjunction_and_disjunction() {
    holds("G F {x == 0} && G F {x == 3}");
    violated("G F {x == 0} && F G {x == 3}");
    holds("F {x == 5} || G {x < 4}");
    violated("F {x == 5} || G {x < 3}");
}

#[test]
fn implication_and_equivalence() {
    holds("G ({x == 2} -> F {x == 0})");
    violated("G ({x == 2} -> G {x != 0})");
    holds("G ({x == 0} <-> !{x != 0})");
    violated("G ({x == 0} <-> {x < 2})");
}

#[test]
fn location_atoms() {
    holds("G F PROC[0]@loop");
    violated("F PROC[0]@terminated");
}

/// A program that ends: its final state repeats forever. gcc: exit 0.
#[test]
fn a_terminated_state_repeats_forever() {
    let text = "#pragma TASS ltl ends F PROC[0]@terminated
#pragma TASS ltl stays G (PROC[0]@terminated -> G PROC[0]@terminated)
#pragma TASS ltl never_ends G !PROC[0]@terminated
int x;
int main(void) {
  x = 1;
  return 0;
}
";
    let (code, r) = verify("1", &[], text);
    assert_eq!(code, 1, "{r:#}");
    let violations = r["violations"].as_array().expect("violations");
    assert_eq!(violations.len(), 1, "{r:#}");
    let v = &violations[0];
    assert!(
        v["message"].as_str().unwrap_or("").contains("`never_ends`"),
        "{r:#}"
    );
    assert!(
        v["message"]
            .as_str()
            .unwrap_or("")
            .contains("`ends`, `stays`"),
        "{r:#}"
    );
    let trace = v["trace"].as_array().expect("trace");
    assert!(trace
        .iter()
        .any(|s| s["source"].as_str().unwrap_or("").contains("repeats")));
}

/// An atom over a symbolic input splits the state: `F {x == n}` holds for
/// n in 0..3 (x takes every value of 0..3) and fails for n = 4, which the
/// witness gives. gcc runs of the counter with n = 0..4 printed x = 0..3
/// repeating: x never equals 4.
#[test]
fn atoms_over_symbolic_inputs_split_the_state() {
    let program = |bound: u32| {
        format!(
            "#pragma TASS input {{0 <= n && n <= {bound}}}
int n;
#pragma TASS ltl meets F {{x == n}}
int x;
int main(void) {{
loop:
  x = (x + 1) % 4;
  goto loop;
}}
"
        )
    };
    let (code, r) = verify("1", &[], &program(3));
    assert_eq!((code, r["verdict"].as_str()), (0, Some("holds")), "{r:#}");
    let (code, r) = verify("1", &["--prover", "z3"], &program(4));
    assert_eq!(code, 1, "{r:#}");
    let v = &r["violations"][0];
    assert_eq!(v["property"], "ltl", "{r:#}");
    assert_eq!(v["witness"]["n"], 4, "{r:#}");
}

/// Two processes that each toggle their own flag forever. A run that only
/// ever moves process 0 is unfair to process 1 (enabled all along): with
/// weak fairness (the default) process 1's flag changes infinitely often,
/// without it the starving run is a counterexample. mpirun -np 2 (with a
/// print and a stop after 10 toggles): each rank printed flag 1 five times;
/// fairness is the scheduler's promise, which a concrete run only samples.
#[test]
fn weak_fairness_excludes_starving_a_process() {
    let text = "#include <mpi.h>
#pragma TASS ltl moves G F {PROC[1].flag == 1}
int flag;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
toggle:
  flag = 1 - flag;
  goto toggle;
}
";
    let (code, r) = verify("2", &[], text);
    assert_eq!((code, r["verdict"].as_str()), (0, Some("holds")), "{r:#}");
    let (code, r) = verify("2", &["--fairness", "none"], text);
    assert_eq!(code, 1, "{r:#}");
    assert_eq!(r["violations"][0]["property"], "ltl", "{r:#}");
}

/// MPI's progress rule: a test of a request that can complete, or a probe
/// with a matching message pending, fails only finitely often. Polling loops
/// `do MPI_Test(...) while (!flag)` and `do MPI_Iprobe(...) while (!flag)`
/// therefore reach the label after them (both were reported as *provable*
/// ltl violations before: the poll failing for ever was taken as a fair
/// run); with no sender the probe really spins for ever (violated).
/// mpirun -np 2, default and zero-buffer (`--mca btl self,tcp` with
/// eager limits 56): the first two exit 0; the third hangs.
#[test]
fn a_poll_that_can_succeed_does_not_fail_for_ever() {
    let test_loop = "#include <mpi.h>
#pragma TASS ltl finishes <> PROC[0]@done
int main(int argc, char *argv[]) {
  int rank, flag = 0, x = 7, y = 0;
  MPI_Request r;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_Isend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);
    do { MPI_Test(&r, &flag, MPI_STATUS_IGNORE); } while (!flag);
  done:
    x = 8;
  } else if (rank == 1) {
    MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
";
    let probe_loop = |send: &str| {
        format!(
            "#include <mpi.h>
#pragma TASS ltl finds <> PROC[0]@got
int main(int argc, char *argv[]) {{
  int rank, flag = 0, x = 7, y = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {{
    do {{ MPI_Iprobe(1, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE); }} while (!flag);
  got:
    MPI_Recv(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }} else if (rank == 1) {{
    {send}
  }}
  (void)x;
  MPI_Finalize();
  return 0;
}}
"
        )
    };
    let sends = probe_loop("MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);");
    for text in [test_loop, sends.as_str()] {
        let (code, r) = verify("2", &[], text);
        assert_eq!((code, r["verdict"].as_str()), (0, Some("holds")), "{r:#}");
    }
    let (code, r) = verify("2", &["--max-violations", "0"], &probe_loop("y = x;"));
    assert_eq!(code, 1, "{r:#}");
    let properties: Vec<&Value> = r["violations"]
        .as_array()
        .expect("violations")
        .iter()
        .map(|v| &v["property"])
        .collect();
    assert!(properties.contains(&&Value::from("ltl")), "{r:#}");
}

fn fevs(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../fevs/mpi/{name}.c",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("fevs program")
}

fn violated_formulas(r: &Value) -> Vec<String> {
    let violations = r["violations"].as_array().cloned().unwrap_or_default();
    let mut out: Vec<String> = violations
        .iter()
        .filter(|v| v["property"] == "ltl")
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

/// A worker blocked in a receive forever is not enabled, so weak fairness
/// does not save it: the server whose turn wraps around too early never
/// serves worker 2, which violates `G (request -> F reply)` for worker 2 only.
/// mpirun -np 3 with -DROUNDS=2: worker 1 got replies 1, 2, 3, worker 2 none
/// (then timeout). The fixed server (`ltl_server.c`) serves the workers in
/// turn and both formulas hold (mpirun: replies 1, 2, 3 to each worker). A
/// server that receives with MPI_ANY_SOURCE fails both: MPI promises no
/// fairness in matching, so one worker's requests may always be matched first
/// while the other waits for its reply (blocked, so not enabled: the run is
/// weakly fair). Its concrete run served both workers (Open MPI alternated);
/// the starving run is one the standard allows, not one this run showed.
#[test]
fn mpi_server_liveness() {
    let (code, r) = verify("3", &["--max-violations", "0"], &fevs("ltl_server_bad"));
    assert_eq!(code, 1, "{r:#}");
    assert_eq!(violated_formulas(&r), ["answered2"], "{r:#}");
    let good = fevs("ltl_server");
    let (code, r) = verify("3", &[], &good);
    assert_eq!((code, r["verdict"].as_str()), (0, Some("holds")), "{r:#}");
    let any_source = good
        .replace(
            "MPI_Recv(&job, 1, MPI_INT, next,",
            "MPI_Recv(&job, 1, MPI_INT, MPI_ANY_SOURCE,",
        )
        .replace(
            "MPI_Send(&answer, 1, MPI_INT, next,",
            "MPI_Send(&answer, 1, MPI_INT, status.MPI_SOURCE,",
        );
    assert_ne!(any_source, good);
    let (code, r) = verify("3", &["--max-violations", "0"], &any_source);
    assert_eq!(code, 1, "{r:#}");
    assert_eq!(violated_formulas(&r), ["answered1", "answered2"], "{r:#}");
}

/// The token ring: mutual exclusion and liveness hold for l0 = 0 and 1; the
/// buggy twin fails liveness for l0 = 1 only. mpirun -np 3 with -DROUNDS=4:
/// the ring printed 4 critical sections per rank for both inputs; the twin
/// printed 4 per rank for l0 = 0, and one per rank for l0 = 1, then hung.
#[test]
fn token_ring_liveness_depends_on_the_input() {
    let (ring, bad) = (fevs("ltl_token_ring"), fevs("ltl_token_ring_bad"));
    for l0 in ["l0=0", "l0=1"] {
        let (code, r) = verify("3", &["-i", l0], &ring);
        assert_eq!((code, r["verdict"].as_str()), (0, Some("holds")), "{r:#}");
    }
    let (code, r) = verify("3", &["-i", "l0=0"], &bad);
    assert_eq!((code, r["verdict"].as_str()), (0, Some("holds")), "{r:#}");
    let (code, r) = verify("3", &["-i", "l0=1"], &bad);
    assert_eq!(code, 1, "{r:#}");
    assert_eq!(r["violations"][0]["property"], "ltl", "{r:#}");
    assert_lasso(&r["violations"][0]);
}

fn refused(text: &str, message: &str, at: &str) {
    let (code, r) = verify("1", &[], text);
    assert_eq!(code, 2, "{r:#}");
    let error = r["error"].as_str().unwrap_or("");
    assert!(error.contains(message), "{error}");
    assert!(error.contains(at), "{error}");
}

#[test]
fn malformed_formulas_are_refused_with_their_position() {
    let with = |formula: &str| COUNTER.replace("FORMULA", &format!("#pragma TASS ltl p {formula}"));
    refused(&with("G F {x == 1"), "expected `}`", ":2:31");
    refused(&with("G {x == 1} U"), "expected an LTL formula", ":2:32");
    refused(
        &with("F PROC[0]@nowhere"),
        "no statement is labelled `nowhere:`",
        ":2:22",
    );
    refused(&with("F {y > 0}"), "unknown identifier `y`", ":2:23");
    refused(
        &with("F PROC[3]@loop"),
        "PROC[3] in an ltl formula names no process",
        ":2:27",
    );
    refused(
        "int x;\nint main(void) {\n#pragma TASS ltl p G {x == 0}\n  return 0;\n}\n",
        "must be at file scope",
        ":3:13",
    );
}
