//! A loop with no invariant where other processes run a collective invariant
//! loop (issue 17, "bad input"): refused before the run (exit 2) at the loop's
//! position, by `crates/verify/src/loop_participation.rs`; programs that only look
//! similar are not refused.

mod common;

use common::{inline, report};
use serde_json::Value;
use std::process::Command;

fn verify(procs: &str, text: &str) -> (i32, Value) {
    let file = inline(text);
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "-n", procs, "--timeout", "120"])
        .arg(&file)
        .args(["--format", "json"])
        .output()
        .expect("run tass");
    report(out)
}

/// Rank 0 sends N messages in a loop with invariant I, rank 1 receives them in a loop
/// without one. As MPI the program is fine (mpirun -np 2, eager and zero-buffer, with
/// a printf added: `END 0 i=3 j=0`, `END 1 i=0 j=3`), but the invariant's loop records
/// need rank 1 at I's head, where it never arrives: refused, not run.
const RANK_ZERO_ONLY: &str = BAD;

const BAD: &str = r#"#include <mpi.h>
#pragma TASS input {N >= 0} int
#define N 3
int main(int argc, char *argv[]) {
    int rank, i = 0, j = 0, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
#pragma TASS collective invariant I 0 <= i && i <= N
        while (i < N) {
            MPI_Send(&i, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
            i++;
        }
    } else if (rank == 1) {
        while (j < N) {
            MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            j++;
        }
    }
    MPI_Finalize();
    return 0;
}
"#;

/// `BAD`'s loop of rank 0, with the invariant.
const RANK_ZERO_LOOP: &str = "#pragma TASS collective invariant I 0 <= i && i <= N\n        while (i < N) {\n            MPI_Send(&i, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);\n            i++;\n        }\n";

/// `BAD`'s loop of rank 1, without one.
const RANK_ONE_LOOP: &str = "        while (j < N) {\n            MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n            j++;\n        }\n";

/// `base` with each `(from, to)` replaced; every `from` must be in it.
fn variant(base: &str, edits: &[(&str, &str)]) -> String {
    edits.iter().fold(base.to_string(), |text, (from, to)| {
        assert!(text.contains(from), "{from}");
        text.replace(from, to)
    })
}

#[test]
fn loop_without_the_invariant_on_the_other_side_of_a_rank_test_is_refused() {
    for procs in ["2", "3"] {
        let (code, r) = verify(procs, RANK_ZERO_ONLY);
        assert_eq!(code, 2, "{r:#}");
        let message = r["error"].as_str().unwrap_or_default();
        assert!(message.contains("prog.c:15:9:"), "{message}");
        assert!(
            message.contains("has no `#pragma TASS collective invariant I`"),
            "{message}"
        );
        assert!(message.contains("rank test at line 8"), "{message}");
    }
}

/// With one process the other side is never taken: not refused (the run goes on and
/// finds the send to rank 1, which does not exist).
#[test]
fn one_process_is_not_refused() {
    let (code, r) = verify("1", RANK_ZERO_ONLY);
    assert_eq!(r["verdict"], "violated", "{r:#}");
    assert_eq!(code, 1);
}

/// Both sides carry invariant I (tied by PROC[0]/PROC[1]): not refused, holds for
/// every N with 2 processes.
#[test]
fn both_sides_with_the_invariant_hold() {
    let both = variant(
        BAD,
        &[
            ("I 0 <= i && i <= N\n", "I 0 <= i && i <= N && (NPROCS < 2 || i == PROC[1]@main.j)\n"),
            ("    } else if (rank == 1) {\n", "    } else if (rank == 1) {\n#pragma TASS collective invariant I 0 <= j && j <= N && j == PROC[0]@main.i\n"),
        ],
    );
    let (code, r) = verify("2", &both);
    assert_eq!(r["verdict"], "holds", "{r:#}");
    assert_eq!(code, 0);
}

/// The branch tests an input, not the rank: every process takes the same side, the
/// loop without an invariant is an ordinary loop (bounded by M <= 3). Not refused.
#[test]
fn a_test_of_an_input_is_not_a_rank_test() {
    let text = BAD
        .replace("#define N 3\n", "#define N 3\n#pragma TASS input {M >= 0 && M <= 3} int\n#define M 2\n")
        .replace("if (rank == 0) {", "if (M == 0) {")
        .replace("} else if (rank == 1) {", "} else {")
        .replace("while (j < N) {\n            MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);", "while (j < M) {");
    let (code, r) = verify("2", &text);
    assert_ne!(code, 2, "{r:#}");
}

/// `rank < 5` with 2 processes: every process takes the invariant's side; the other
/// side is dead. Not refused: the run goes on (and reports that the invariant does not
/// tie the two ranks' loop conditions).
#[test]
fn a_rank_test_every_process_passes_is_not_refused() {
    let text = BAD.replace("if (rank == 0) {", "if (rank < 5) {");
    let (code, r) = verify("2", &text);
    assert_ne!(code, 2, "{r:#}");
}

// Through calls (verify/src/loop_participation.rs follows user calls). Every program
// below runs correctly as MPI (mpirun -np 2 with N = 0, 1, 3, eager and with 56-byte
// eager limits over tcp: exit 0 everywhere); what is tested is only whether tass
// refuses it before the run.

/// Rank 1 runs the loop without an invariant inside `drain`, which only it calls.
fn plain_loop_in_callee() -> String {
    variant(
        BAD,
        &[
            ("#define N 3\n", "#define N 3\nvoid drain(int n) {\n    int j = 0, x = 0;\n    while (j < n) {\n        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n        j++;\n    }\n}\n"),
            ("int rank, i = 0, j = 0, x = 0;", "int rank, i = 0;"),
            (RANK_ONE_LOOP, "        drain(N);\n"),
        ],
    )
}

#[test]
fn a_loop_without_the_invariant_in_a_called_function_is_refused() {
    let (code, r) = verify("2", &plain_loop_in_callee());
    assert_eq!(code, 2, "{r:#}");
    let message = r["error"].as_str().unwrap_or_default();
    assert!(message.contains("prog.c:6:5:"), "{message}");
    assert!(
        message.contains("(in `drain`, which those processes call)"),
        "{message}"
    );
    assert!(message.contains("rank test at line 15"), "{message}");
}

/// The invariant's loop is in `produce`, which rank 0 calls on every path; rank 1
/// runs a loop without one in `main`.
fn invariant_in_callee() -> String {
    variant(
        BAD,
        &[
            ("#define N 3\n", "#define N 3\nvoid produce(int n) {\n    int i = 0;\n#pragma TASS collective invariant I 0 <= i && i <= n\n    while (i < n) {\n        MPI_Send(&i, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);\n        i++;\n    }\n}\n"),
            ("int rank, i = 0, j = 0, x = 0;", "int rank, j = 0, x = 0;"),
            (RANK_ZERO_LOOP, "        produce(N);\n"),
        ],
    )
}

#[test]
fn an_invariant_loop_in_a_called_function_makes_the_other_side_refused() {
    let (code, r) = verify("2", &invariant_in_callee());
    assert_eq!(code, 2, "{r:#}");
    let message = r["error"].as_str().unwrap_or_default();
    assert!(message.contains("prog.c:19:9:"), "{message}");
    assert!(
        message.contains("loop at line 7 (in `produce`)"),
        "{message}"
    );
}

/// Rank 1 runs a loop without an invariant (`warmup`) but then reaches the invariant
/// loop through `helper`: both ranks take part. Not refused; holds for every N.
const BOTH_THROUGH_CALLS: &str = r#"#include <mpi.h>
#pragma TASS input {N >= 0} int
#define N 3
void rounds(int rank, int n) {
    int i = 0, x = 0;
#pragma TASS collective invariant I 0 <= i && i <= n && i == PROC[1 - PID]@rounds.i
    while (i < n) {
        if (rank == 0)
            MPI_Send(&i, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        else
            MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        i++;
    }
}
int warmup(void) {
    int k, s = 0;
    for (k = 0; k < 2; k++)
        s += k;
    return s;
}
void helper(int n) {
    rounds(1, n);
}
int main(int argc, char *argv[]) {
    int rank, s = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        rounds(0, N);
    } else {
        s = warmup();
        helper(N);
    }
    MPI_Finalize();
    return s == 1 || rank == 0 ? 0 : 1;
}
"#;

#[test]
fn the_invariant_loop_reached_through_a_wrapper_is_not_refused() {
    let (code, r) = verify("2", BOTH_THROUGH_CALLS);
    assert_eq!(r["verdict"], "holds", "{r:#}");
    assert_eq!(code, 0);
}

/// `produce` may call `exit` before its loop (N == 0), so rank 0 need not arrive:
/// the rule does not apply and the run decides (here: rank 0 waits at the head while
/// rank 1 waits for a message, refused at run time by the aligned form). Without
/// treating `exit` as the end of a path the rule would refuse the loop in `main`.
fn exit_before_the_loop() -> String {
    variant(
        &invariant_in_callee(),
        &[
            ("#include <mpi.h>\n", "#include <mpi.h>\n#include <stdlib.h>\n"),
            ("    int i = 0;\n", "    int i = 0;\n    if (n == 0) {\n        MPI_Finalize();\n        exit(0);\n    }\n"),
        ],
    )
}

#[test]
fn a_possible_exit_before_the_invariant_loop_is_not_refused_statically() {
    let (_, r) = verify("2", &exit_before_the_loop());
    let message = r["error"].as_str().unwrap_or_default();
    assert!(
        !message.contains("has no `#pragma TASS collective invariant"),
        "{r:#}"
    );
    assert_ne!(r["verdict"], "holds", "{r:#}");
}
