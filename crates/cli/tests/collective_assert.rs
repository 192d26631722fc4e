//! Collective assertions (`#pragma TASS collective assert ID EXPR`, issue 16):
//! both verdicts for each construct, bad input, the reduction against the
//! full search, `--cqmin`, and that the assertions add no synchronisation.
//!
//! How the expected verdicts were confirmed concretely (mpicc + `mpirun
//! --allow-run-as-root --oversubscribe -np N`): each pragma was replaced by a
//! `printf("SNAP ID k rank <the variables it reads>")` (a print, no
//! communication, so the run's behaviour is the program's), and a small
//! script evaluated the assertion on the k-th SNAP lines of all processes.
//! The details are in each test's comment.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{assert_holds, assert_violated, inline, reduced_and_full, report, verify};
use serde_json::Value;

/// The 1-based line of the first line of `text` containing `needle`.
fn line_of(text: &str, needle: &str) -> u64 {
    text.lines()
        .position(|l| l.contains(needle))
        .map(|k| k as u64 + 1)
        .unwrap_or_else(|| panic!("`{needle}` not in the program"))
}

/// `tass ARGS --format json` run in `fevs/`: (exit status, report).
fn tass_in_fevs(args: &[&str]) -> (i32, Value) {
    let fevs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fevs");
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .current_dir(fevs)
        .args(args)
        .args(["--format", "json", "--stats"])
        .output()
        .expect("run tass");
    report(out)
}

fn message(r: &Value) -> String {
    r["violations"][0]["message"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

fn states(r: &Value) -> u64 {
    r["stats"]["states_seen"].as_u64().expect("stats")
}

/// A ring exchange: every process sends `x` right and receives `y` from the
/// left, twice, and asserts after each exchange what its neighbours hold.
/// Concretely (-np 3, SNAP RING k rank x y): occurrence 1 is (0,0,20),
/// (1,10,0), (2,20,10) and occurrence 2 is (0,1,21), (1,11,1), (2,21,11):
/// `y == PROC[left].x` holds at both, `y == PROC[right].x` fails at the
/// second (21 != 11 for rank 0).
const RING: &str = r#"#include <mpi.h>
int rank, nprocs, x, y;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  int right = (rank + 1) % nprocs;
  int left = (rank + nprocs - 1) % nprocs;
  x = rank * 10;
  MPI_Sendrecv(&x, 1, MPI_INT, right, 0, &y, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma TASS collective assert RING y == PROC[left].x && PROC[right].y == x
  x = x + 1;
  MPI_Sendrecv(&x, 1, MPI_INT, right, 0, &y, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma TASS collective assert RING2 y == PROC[left].x
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn proc_of_another_process_holds_on_a_ring() {
    for n in ["1", "2", "3", "4"] {
        let (code, r) = verify(n, &[], RING);
        assert_holds(code, &r);
    }
}

#[test]
fn proc_of_the_wrong_neighbour_fails_at_the_second_occurrence() {
    let bad = RING.replace("RING2 y == PROC[left].x\n", "RING2 y == PROC[right].x\n");
    let line = line_of(&bad, "RING2 y == PROC[right].x");
    let (code, r) = verify("3", &[], &bad);
    assert_violated(code, &r, "collective-assertion", Some(line));
    let m = message(&r);
    assert!(m.contains("`RING2` (occurrence 2)"), "{m}");
    // Every process's snapshot position: its line and its step in the trace.
    for p in 0..3 {
        assert!(
            m.contains(&format!("process {p} at line {line}, step ")),
            "{m}"
        );
    }
    // The step numbers are the positions of the pragma steps in the trace.
    let trace = r["violations"][0]["trace"].as_array().expect("trace");
    for (k, step) in trace.iter().enumerate() {
        if step["line"] == line {
            let p = step["process"].as_u64().unwrap();
            assert!(
                m.contains(&format!("process {p} at line {line}, step {}", k + 1)),
                "{m}"
            );
        }
    }
    // Two processes suffice to hold (left == right).
    let (code, r) = verify("2", &[], &bad);
    assert_holds(code, &r);
}

/// `PROC[e]@f.x`: a local of another process's frame of `exchange`.
/// Concretely (-np 3, SNAP X rank mine got): (0,100,102), (1,101,100),
/// (2,102,101): `got == PROC[left]@exchange.mine` holds everywhere,
/// `got == PROC[right]@exchange.mine` fails (102 != 101 for rank 0).
const FRAME: &str = r#"#include <mpi.h>
int rank, nprocs;
void exchange(int right, int left) {
  int mine = rank + 100;
  int got;
  MPI_Sendrecv(&mine, 1, MPI_INT, right, 0, &got, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma TASS collective assert X got == PROC[left]@exchange.mine
}
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  exchange((rank + 1) % nprocs, (rank + nprocs - 1) % nprocs);
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn proc_at_function_reads_a_local_of_the_snapshot() {
    let (code, r) = verify("3", &[], FRAME);
    assert_holds(code, &r);
    let bad = FRAME.replace("PROC[left]@exchange", "PROC[right]@exchange");
    let (code, r) = verify("3", &[], &bad);
    assert_violated(
        code,
        &r,
        "collective-assertion",
        Some(line_of(&bad, "#pragma TASS collective")),
    );
}

/// Rank 0 reaches `A` then `B`, the others only `B`: the first snapshots
/// come from different assertions. Concretely (-np 2, SNAP lines in order per
/// rank): rank 0 prints A then B, rank 1 prints B: the first occurrences
/// differ. With `A` reached by every process the order agrees.
const ORDER: &str = r#"#include <mpi.h>
int rank, x;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  x = rank;
  if (rank == 0) {
#pragma TASS collective assert A x == 0
  }
#pragma TASS collective assert B x == PROC[0].x + rank
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn assertions_reached_in_different_orders_are_a_violation() {
    let (code, r) = verify("2", &[], ORDER);
    assert_violated(code, &r, "collective-assertion", None);
    let m = message(&r);
    assert!(m.contains("different orders"), "{m}");
    assert!(m.contains("`A`") && m.contains("`B`"), "{m}");
    let line_a = line_of(ORDER, "assert A");
    assert!(m.contains(&format!("`A` (line {line_a})")), "{m}");
    // Every process reaches A first: the order agrees (A holds: x == PID == 0
    // only on rank 0, so A says `x == rank`).
    let fixed = ORDER
        .replace("  if (rank == 0) {\n", "  {\n")
        .replace("assert A x == 0", "assert A x == rank");
    let (code, r) = verify("2", &[], &fixed);
    assert_holds(code, &r);
}

/// Rank 1 reaches `B` twice, rank 0 once. Concretely (-np 2): rank 0 prints
/// one SNAP B line, rank 1 two.
const EXTRA: &str = r#"#include <mpi.h>
int rank, x;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  x = rank;
#pragma TASS collective assert B x == rank
  if (rank == 1) {
  #pragma TASS collective assert B x == rank
  }
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn snapshots_left_at_termination_are_a_violation() {
    let (code, r) = verify("2", &[], EXTRA);
    assert_violated(
        code,
        &r,
        "collective-assertion",
        Some(line_of(EXTRA, "  #pragma TASS collective assert B")),
    );
    let m = message(&r);
    assert!(m.contains("unmatched") && m.contains("process 1"), "{m}");
    // On one process the second assertion is never reached: nothing left.
    let (code, r) = verify("1", &[], EXTRA);
    assert_holds(code, &r);
}

/// One process: the queue of one is matched at once. Compiled with `gcc
/// -fsanitize=address,undefined` with the pragma turned into
/// `assert(2*s == i*(i+1))`, N = 0..5: passes; with `i*(i-1)` it aborts at
/// i = 1 (the second occurrence).
const SUM: &str = r#"#pragma TASS input {N >= 0 && N <= 5}
int N;
int s;
int main(void) {
  for (int i = 0; i < N; i++) {
    s = s + i;
#pragma TASS collective assert S 2*s == i*(i+1) && PROC[0].s == s && NPROCS == 1 && PID == 0
  }
  return 0;
}
"#;

#[test]
fn one_process_checks_each_snapshot_alone() {
    let (code, r) = verify("1", &[], SUM);
    assert_holds(code, &r);
    let bad = SUM.replace("i*(i+1)", "i*(i-1)");
    let (code, r) = verify("1", &[], &bad);
    assert_violated(code, &r, "collective-assertion", Some(7));
    assert!(message(&r).contains("(occurrence 2)"), "{}", message(&r));
}

/// Rank 1's synchronous send must be received before it reaches the
/// assertion, and rank 0 receives only after its own assertion: were the
/// assertion a barrier, this would deadlock. Concretely (-np 2, zero-buffer
/// btl settings of the preamble) it terminates.
const NO_BARRIER: &str = r#"#include <mpi.h>
int rank, x;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  x = 5;
  if (rank == 1) {
    MPI_Ssend(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
#pragma TASS collective assert C x == 5 && PROC[1 - rank].x == 5
  } else {
#pragma TASS collective assert C x == 5 && PROC[1 - rank].x == 5
    MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
"#;

/// Both ranks send first with `MPI_Send`: a potential deadlock (concretely,
/// -np 2 with the zero-buffer btl settings, the run hangs until `timeout 20`
/// kills it; with the default, buffering btl it ends and prints y = 1 on
/// rank 0 and y = 0 on rank 1: `y == PROC[1 - rank].x` holds).
const HEAD_TO_HEAD: &str = r#"#include <mpi.h>
int rank, x, y;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  x = rank;
#pragma TASS collective assert H x == rank
  MPI_Send(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
  MPI_Recv(&y, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma TASS collective assert H2 y == PROC[1 - rank].x
  MPI_Finalize();
  return 0;
}
"#;

/// The program without its pragmas, each pragma line replaced by a comment
/// (so the lines stay where they were).
fn without_pragmas(text: &str) -> String {
    text.lines()
        .map(|l| {
            if l.starts_with("#pragma TASS collective") {
                "/* (pragma removed) */"
            } else {
                l
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The trace of the first violation without the pragma steps:
/// (process, line) per step.
fn trace_without_pragmas(r: &Value) -> Vec<(u64, u64)> {
    r["violations"][0]["trace"]
        .as_array()
        .expect("trace")
        .iter()
        .filter(|s| !s["source"].as_str().unwrap_or("").starts_with("#pragma"))
        .map(|s| (s["process"].as_u64().unwrap(), s["line"].as_u64().unwrap()))
        .collect()
}

#[test]
fn assertions_add_no_synchronisation() {
    let (code, r) = verify("2", &[], NO_BARRIER);
    assert_holds(code, &r);
    let (code, r) = verify("2", &[], &without_pragmas(NO_BARRIER));
    assert_holds(code, &r);
    // The same deadlock, with the same trace, with and without the pragmas.
    let (code, with) = verify("2", &[], HEAD_TO_HEAD);
    assert_violated(code, &with, "deadlock", None);
    let (code, without) = verify("2", &[], &without_pragmas(HEAD_TO_HEAD));
    assert_violated(code, &without, "deadlock", None);
    assert_eq!(
        trace_without_pragmas(&with),
        trace_without_pragmas(&without)
    );
    // Buffered sends: no deadlock either way.
    for text in [HEAD_TO_HEAD.to_string(), without_pragmas(HEAD_TO_HEAD)] {
        let (code, r) = verify("2", &["--deadlock", "absolute"], &text);
        assert_holds(code, &r);
    }
}

/// Rank 1 changes `x` after its snapshot, while rank 0 may take its own
/// snapshot before or after: the snapshot keeps the value at the pragma.
/// Concretely (-np 2): SNAP lines show rank 1 with x = 1 at its pragma
/// whatever the timing (it prints before `x = 2`).
const LATER_WRITE: &str = r#"#include <mpi.h>
int rank, x;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  x = 1;
#pragma TASS collective assert S rank == 1 || PROC[1].x == 1
  x = 2;
  x = x + rank;
  MPI_Finalize();
  return 0;
}
"#;

/// Rank 0 receives two messages with wildcards; which comes first depends on
/// the schedule. Concretely (-np 3, rank 1 sleeping 1 s before its send):
/// rank 0 prints `first=2`, so `first == PROC[1].x` fails on that schedule;
/// `first + second == PROC[1].x + PROC[2].x` holds on every run.
const WILDCARD: &str = r#"#include <mpi.h>
int rank, x, first, second;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  x = rank;
  if (rank == 0) {
    MPI_Recv(&first, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&second, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  }
#pragma TASS collective assert W rank != 0 || first + second == PROC[1].x + PROC[2].x
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn reduced_search_agrees_with_the_full_search() {
    let (reduced, full) = reduced_and_full("2", &[], LATER_WRITE, "holds", "collective-assertion");
    assert!(reduced <= full, "{reduced} > {full}");
    let bad = LATER_WRITE.replace("PROC[1].x == 1", "PROC[1].x == 2");
    reduced_and_full("2", &[], &bad, "violated", "collective-assertion");
    let (reduced, full) = reduced_and_full("3", &[], WILDCARD, "holds", "collective-assertion");
    assert!(reduced < full, "{reduced} >= {full}");
    let bad = WILDCARD.replace(
        "first + second == PROC[1].x + PROC[2].x",
        "first == PROC[1].x",
    );
    reduced_and_full("3", &[], &bad, "violated", "collective-assertion");
    // Out of order and left over, on three processes.
    reduced_and_full("3", &[], ORDER, "violated", "collective-assertion");
    reduced_and_full("3", &[], EXTRA, "violated", "collective-assertion");
    // And the same with --cqmin.
    reduced_and_full("3", &["--cqmin"], &bad, "violated", "collective-assertion");
    reduced_and_full("3", &["--cqmin"], WILDCARD, "holds", "collective-assertion");
}

/// fevs/mpi/wildcard_gather.c (the paper's Sec. 4.4 example). Concretely
/// (-np 3, the pragmas turned into SNAP prints, the root sleeping 1 s before
/// its first receive so both of rank 1's messages are there): one run of
/// three printed `a[1]=1 a[2]=-1` at the first call (rank 2's entry still
/// -1, its x is 2); the `_tags` twin printed `a[1]=1 a[2]=2` on every run.
#[test]
fn wildcard_gather_fails_only_off_the_barrier_schedules() {
    let (code, r) = tass_in_fevs(&["verify", "-n", "3", "mpi/wildcard_gather.c"]);
    let text = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fevs/mpi/wildcard_gather.c"),
    )
    .expect("read wildcard_gather.c");
    assert_violated(
        code,
        &r,
        "collective-assertion",
        Some(line_of(&text, "GATHER x == PROC[0]")),
    );
    // The schedule: some worker sends twice before the root's snapshot of
    // the first call.
    let trace = r["violations"][0]["trace"].as_array().expect("trace");
    let root_snapshot = trace
        .iter()
        .position(|s| s["process"] == 0 && s["source"].as_str().unwrap().contains("GATHER 1"))
        .expect("root's snapshot in the trace");
    let sends_before = |p: u64| {
        trace[..root_snapshot]
            .iter()
            .filter(|s| s["process"] == p && s["source"].as_str().unwrap().contains("MPI_Send"))
            .count()
    };
    assert!(sends_before(1) == 2 || sends_before(2) == 2, "{r:#}");
    for n in ["2", "3", "4"] {
        let (code, r) = tass_in_fevs(&["verify", "-n", n, "mpi/wildcard_gather_tags.c"]);
        assert_holds(code, &r);
    }
}

/// fevs/mpi/diffusion1d_ca.c, the ghost-cell assertion. Concretely (-np 3,
/// NX = 8, NT = 3, the pragma turned into SNAP prints of v[1], v[nlocal] and
/// the ghost cells per time step, checked by a script): no failure for the
/// program, four for the twin (e.g. t = 0: rank 0's last cell 6 but rank 1's
/// left ghost 0).
#[test]
fn diffusion_ghost_cells_with_and_without_cqmin() {
    let args = ["verify", "-n", "3", "-i", "NXB=6", "-i", "NTB=2"];
    let run = |extra: &[&str], file: &str| {
        let mut all: Vec<&str> = args.to_vec();
        all.extend_from_slice(extra);
        all.push(file);
        tass_in_fevs(&all)
    };
    let (code, plain) = run(&[], "mpi/diffusion1d_ca.c");
    assert_holds(code, &plain);
    let (code, cqmin) = run(&["--cqmin"], "mpi/diffusion1d_ca.c");
    assert_holds(code, &cqmin);
    assert!(
        states(&cqmin) <= states(&plain),
        "{} > {}",
        states(&cqmin),
        states(&plain)
    );
    for extra in [&[][..], &["--cqmin"][..]] {
        let (code, r) = run(extra, "mpi/diffusion1d_ca_bug.c");
        assert_violated(code, &r, "collective-assertion", None);
        assert!(message(&r).contains("`GHOSTS` (occurrence 1)"), "{r:#}");
    }
}

#[test]
fn reports_carry_the_id_and_the_snapshot_positions() {
    let bad = RING.replace("RING2 y == PROC[left].x\n", "RING2 y == PROC[right].x\n");
    let file: PathBuf = inline(&bad);
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "-n", "3", "--format", "sarif"])
        .arg(&file)
        .output()
        .expect("run tass");
    let sarif: Value = serde_json::from_slice(&out.stdout).expect("SARIF is JSON");
    let result = &sarif["runs"][0]["results"][0];
    assert_eq!(result["ruleId"], "collective-assertion");
    let text = result["message"]["text"].as_str().unwrap_or_default();
    assert!(
        text.contains("`RING2`") && text.contains("process 2 at line"),
        "{text}"
    );
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "-n", "3"])
        .arg(&file)
        .output()
        .expect("run tass");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("collective-assertion") && text.contains("`RING2` (occurrence 2)"));
}

/// Bad input: exit 2 with file:line:column and what to do.
fn assert_bad(procs: &str, text: &str, named: &str, at: &str) {
    let (code, r) = verify(procs, &[], text);
    assert_eq!(r["verdict"], "error", "{r:#}");
    assert_eq!(code, 2);
    let m = r["error"].as_str().unwrap_or("");
    assert!(m.contains(named), "{m}");
    assert!(m.contains(at), "{m}");
}

#[test]
fn bad_input_is_refused_with_its_position() {
    let mpi = |pragma: &str| {
        format!(
            "#include <mpi.h>\nint rank, x;\nint main(int argc, char **argv) {{\n  \
             MPI_Init(&argc, &argv);\n  MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n  x = rank;\n\
             {pragma}\n  MPI_Finalize();\n  return 0;\n}}\n"
        )
    };
    // A constant rank that names no process (line 7, the column of `3`).
    assert_bad(
        "2",
        &mpi("#pragma TASS collective assert B x == PROC[3].x"),
        "PROC[3] names no process",
        "prog.c:7:",
    );
    // A computed rank out of range is refused when evaluated.
    assert_bad(
        "2",
        &mpi("#pragma TASS collective assert B x == PROC[rank + 1].x - 1"),
        "PROC[2] names no process",
        "prog.c:7:",
    );
    // One ID, two expressions (a pragma `1` only marks a point: allowed).
    let two = |second: &str| {
        mpi(&format!(
            "#pragma TASS collective assert B x == rank\n#pragma TASS collective assert B {second}"
        ))
    };
    assert_bad("2", &two("x >= 0"), "another expression", "prog.c:8:");
    let (code, r) = verify("2", &[], &two("1"));
    assert_holds(code, &r);
    // `spec.x` outside joint assertions.
    assert_bad(
        "1",
        &mpi("#pragma TASS collective assert B x == spec.x"),
        "spec.x",
        "prog.c:7:",
    );
    // `PROC[e].x` in an ordinary assertion.
    assert_bad(
        "2",
        &mpi("#pragma TASS assert x == PROC[0].x"),
        "only in collective and joint assertions",
        "prog.c:7:",
    );
}

#[test]
fn joint_assertions_are_ignored_by_verify() {
    let text = "#pragma TASS output\nint x;\nint main(void) {\n  x = 1;\n#pragma TASS joint assert J x == spec.x\n  return 0;\n}\n";
    let (code, r) = verify("1", &[], text);
    assert_holds(code, &r);
}

/// `PID == NPROCS - 1 || PROC[PID + 1].x ...`: for the last rank the right
/// operand is evaluated in a context that cannot hold, where `PROC[NPROCS]`
/// names no process; that is not an error. Concretely (-np 3, SNAP C1 rank
/// x): x = 0, 2, 4: each right neighbour holds x + 2, not x + 1.
const NEIGHBOUR: &str = r#"#include <mpi.h>
int rank, nprocs, x;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  x = 2 * rank;
#pragma TASS collective assert C1 x == 2 * PID && (PID == NPROCS - 1 || PROC[PID + 1].x == x + 2)
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn a_rank_out_of_range_in_a_dead_operand_is_no_error() {
    for n in ["1", "3"] {
        let (code, r) = verify(n, &[], NEIGHBOUR);
        assert_holds(code, &r);
    }
    let bad = NEIGHBOUR.replace("x + 2)", "x + 1)");
    let (code, r) = verify("3", &[], &bad);
    assert_violated(code, &r, "collective-assertion", Some(8));
    // One process: the last rank is the only one, the operand is dead.
    let (code, r) = verify("1", &[], &bad);
    assert_holds(code, &r);
}

/// `tass compare` with joint assertions: fevs/seq/mean_sum_joint.c against
/// mean_running_joint.c (the paper's Fig. 5). Concretely (gcc
/// -fsanitize=address,undefined -DFEVS_CONCRETE, a[i] = 0.5 i - 1, N = 10,
/// the pragmas as prints): the specification's x after each step and the
/// implementation's x * i agree (-1, -1.5, -1.5, -1, 0, ...; m = 1.25 both);
/// the buggy twin prints -2.25 against -1.5 at the third step.
#[test]
fn joint_assertions_relate_each_iteration_to_the_specification() {
    let compare = |imp: &str, extra: &[&str]| {
        let mut args = vec!["compare", "--spec", "seq/mean_sum_joint.c", "--impl", imp];
        args.extend_from_slice(extra);
        tass_in_fevs(&args)
    };
    let (code, r) = compare("seq/mean_running_joint.c", &["-i", "B=10"]);
    assert_holds(code, &r);
    let (code, r) = compare("seq/mean_running_joint_bad.c", &["-i", "B=5"]);
    assert_violated(code, &r, "collective-assertion", Some(42));
    let m = message(&r);
    assert!(m.contains("`STEP` (occurrence 3)"), "{m}");
    assert!(m.contains("the specification at line 36, step"), "{m}");
}

/// Joint assertions out of step, an unknown ID, a specification on several
/// processes, and a specification pragma that is not a label.
#[test]
fn joint_assertions_bad_input_and_mismatched_counts() {
    let fevs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fevs/seq");
    let spec = std::fs::read_to_string(fevs.join("mean_sum_joint.c")).expect("spec");
    let imp = std::fs::read_to_string(fevs.join("mean_running_joint.c")).expect("impl");
    let run = |spec: &str, imp: &str, extra: &[&str]| {
        let (s, i) = (inline(spec), inline(imp));
        let out = Command::new(env!("CARGO_BIN_EXE_tass"))
            .args(["compare", "--format", "json", "-i", "B=4", "--spec"])
            .arg(&s)
            .arg("--impl")
            .arg(&i)
            .args(extra)
            .output()
            .expect("run tass");
        report(out)
    };
    // The implementation reaches FINAL twice: out of step at occurrence N + 2.
    let twice = imp.replace(
        "#pragma TASS joint assert FINAL m == spec.m\n",
        "#pragma TASS joint assert FINAL m == spec.m\n#pragma TASS joint assert FINAL m == spec.m\n",
    );
    let (code, r) = run(&spec, &twice, &[]);
    assert_violated(code, &r, "collective-assertion", None);
    assert!(message(&r).contains("out of step"), "{r:#}");
    // An ID the specification does not have.
    let (code, r) = run(&spec, &imp.replace("STEP x", "STEPX x"), &[]);
    assert_eq!(code, 2, "{r:#}");
    assert!(r["error"]
        .as_str()
        .unwrap_or("")
        .contains("unknown joint assertion ID `STEPX`"));
    // The specification on two processes.
    let (code, r) = run(&spec, &imp, &["--spec-procs", "2"]);
    assert_eq!(code, 2, "{r:#}");
    assert!(r["error"].as_str().unwrap_or("").contains("--spec-procs 1"));
    // The specification's joint assertions only mark points.
    let (code, r) = run(&spec.replace("STEP true", "STEP x > 0"), &imp, &[]);
    assert_eq!(code, 2, "{r:#}");
    assert!(r["error"]
        .as_str()
        .unwrap_or("")
        .contains("only marks a point"));
}

/// fevs/mpi/laplace_seq_joint.c against laplace_par_joint.c: the global error
/// of every sweep. Concretely (gcc / mpicc -DFEVS_CONCRETE, the pragmas as
/// prints, mpirun -np 3): 131.25, 28.90625, 10.0830078125 on both sides; the
/// twin's MPI_MAX gives 56.25 at the first sweep.
#[test]
fn joint_assertion_on_the_global_error_of_each_sweep() {
    let compare = |imp: &str, por: &str| {
        tass_in_fevs(&[
            "compare",
            "--spec",
            "mpi/laplace_seq_joint.c",
            "--impl",
            imp,
            "--impl-procs",
            "2",
            "-i",
            "BX=3",
            "-i",
            "BY=4",
            "-i",
            "NX=3",
            "-i",
            "NY=4",
            "-i",
            "BT=2",
            "--por",
            por,
        ])
    };
    // The reduced and the full search agree (1,054 against 70,922 states).
    for por in ["urgent", "off"] {
        let (code, r) = compare("mpi/laplace_par_joint.c", por);
        assert_holds(code, &r);
        let (code, r) = compare("mpi/laplace_par_joint_bad.c", por);
        assert_violated(code, &r, "collective-assertion", Some(132));
        assert!(message(&r).contains("`ERR` (occurrence 1)"), "{r:#}");
    }
}

/// `PROC[e]` with a rank the path leaves open (it depends on the input `N`):
/// the check is split on the ranks the path allows (it was an "is not one
/// number on this path" error). Confirmed with mpirun -np 2 for N = 0..10,
/// the assertion computed from an MPI_Allgather of `x`: it never fails, and
/// with BAD it fails on rank 1 at N = 3 only.
#[test]
fn a_rank_the_path_leaves_open_splits_the_check() {
    const SPLIT: &str = r#"#include <mpi.h>
#pragma TASS input {0 <= N && N <= 10} int
int N;
int x, myrank;
int main(int argc, char **argv) {
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    x = 2 * N;
#pragma TASS collective assert SAME x == PROC[(N > 5) ? 1 : 0].x
    MPI_Finalize();
    return 0;
}
"#;
    let (code, r) = verify("2", &[], SPLIT);
    assert_holds(code, &r);
    let bad = SPLIT.replace(
        "x = 2 * N;",
        "x = (myrank == 0 && N == 3) ? 7 : 2 * N; /* BAD */",
    );
    let (code, r) = verify("2", &[], &bad);
    assert_violated(code, &r, "collective-assertion", Some(9));
    assert_eq!(r["violations"][0]["process"], 1, "{r}");
    assert_eq!(r["violations"][0]["witness"]["N"], 3, "{r}");
    // A rank the path allows outside 0..NPROCS stays an error, never a pass.
    let outside = SPLIT.replace("? 1 : 0]", "? 2 : 0]");
    let (code, r) = verify("2", &[], &outside);
    assert_eq!(code, 2, "{r}");
    assert!(
        r["error"]
            .as_str()
            .unwrap_or_default()
            .contains("is not one number"),
        "{r}"
    );
}
