//! Corners of the command line (issue 22): each checked by the exit status and the
//! message of the real `tass` binary.
//!
//! Concrete runs behind the expected verdicts:
//! - `SEQ` (below): `gcc -g -fsanitize=address,undefined` with `B` fixed to 3 aborts
//!   at the assertion (line 8); with `B = 1` or `B = 4` it exits 0.
//! - `RANKS`: `mpicc` then `mpirun --allow-run-as-root --oversubscribe -np 3` aborts
//!   at the assertion `size != 3`; `-np 2` exits 0.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// A sequential program whose assertion fails exactly when the input `B` is 3.
const SEQ: &str = r#"#include <stdio.h>
#include <assert.h>
#pragma TASS input
int B;
int main(void) {
  int x = B;
  printf("x=%d\n", x);
  assert(x != 3);
  return 0;
}
"#;

/// An MPI program whose assertion fails exactly at 3 processes.
const RANKS: &str = r#"#include <mpi.h>
#include <assert.h>
int main(int argc, char **argv) {
  int size;
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  assert(size != 3);
  MPI_Finalize();
  return 0;
}
"#;

fn tass(args: &[&str], file: &Path) -> (i32, String, String) {
    let out: Output = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(args)
        .arg(file)
        .output()
        .expect("run tass");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `text` written as `name` in a fresh folder.
fn file_named(text: &str, name: &str) -> PathBuf {
    let c = common::inline(text);
    let path = c.with_file_name(name);
    std::fs::rename(&c, &path).expect("rename");
    path
}

#[test]
fn civl_process_count_spelling_sets_the_process_count() {
    let file = common::inline(RANKS);
    let (code, out, err) = tass(&["verify", "-input_mpi_nprocs=3"], &file);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("verdict: violated"), "{out}");
    let (code, out, err) = tass(&["verify", "-input_mpi_nprocs=2"], &file);
    assert_eq!(code, 0, "{out}{err}");
    assert!(!err.contains("_mpi_nprocs"), "{err}");
}

#[test]
fn an_input_fixed_twice_is_an_error() {
    let file = common::inline(SEQ);
    let (code, out, err) = tass(&["verify", "-i", "B=1", "-i", "B=4"], &file);
    assert_eq!(code, 2, "{out}{err}");
    assert!(err.contains("input `B` is fixed twice"), "{err}");
    assert!(out.contains("verdict: error"), "{out}");
    // The same in the paper's spelling.
    let (code, _, err) = tass(&["verify", "-inputB=3", "--input", "B=3"], &file);
    assert_eq!(code, 2, "{err}");
}

#[test]
fn an_unwritable_trace_path_is_reported_before_the_search() {
    let file = common::inline(SEQ);
    let (code, out, err) = tass(&["verify", "--trace", "/nonexistent/dir/t.json"], &file);
    assert_eq!(code, 2, "{out}{err}");
    assert!(
        err.contains("cannot write the trace to /nonexistent/dir/t.json"),
        "{err}"
    );
    assert_eq!(err.matches("cannot write").count(), 1, "{err}");
    // No search ran: no violation, no success.
    assert!(!out.contains("violation"), "{out}");
    assert!(out.contains("verdict: error"), "{out}");
}

#[test]
fn quiet_prints_only_the_verdict_line() {
    let file = common::inline(SEQ);
    let (code, out, err) = tass(&["verify", "-q"], &file);
    assert_eq!(code, 1);
    assert_eq!(out, "verdict: violated (1 violation)\n", "{out}");
    assert!(err.is_empty(), "{err}");
    let (code, out, _) = tass(&["verify", "-q", "-i", "B=1"], &file);
    assert_eq!(code, 0);
    assert_eq!(out, "verdict: holds\n", "{out}");
}

#[test]
fn verbose_names_the_prover() {
    let file = common::inline(SEQ);
    let (code, _, err) = tass(&["verify", "-v", "--prover", "builtin"], &file);
    assert_eq!(code, 1);
    assert!(
        err.contains("tass: prover: built-in (--prover builtin)"),
        "{err}"
    );
    let (_, _, err) = tass(&["verify", "-v"], &file);
    assert!(err.contains("tass: prover: built-in"), "{err}");
}

#[test]
fn cplusplus_is_refused_by_name() {
    let cpp = file_named(SEQ, "prog.cpp");
    let (code, _, err) = tass(&["verify"], &cpp);
    assert_eq!(code, 2);
    assert!(
        err.contains("prog.cpp: error: C++ is not supported"),
        "{err}"
    );
    let cc = file_named(SEQ, "prog.cc");
    let (code, _, err) = tass(&["verify"], &cc);
    assert_eq!(code, 2);
    assert!(err.contains("C++ is not supported"), "{err}");
    for (text, construct) in [
        (
            "int main(void) {\n  int *p = new int;\n  return 0;\n}\n",
            "prog.c:2:1: error: C++ is not supported (`new` is C++)",
        ),
        (
            "#include <cstdio>\nint main(void) { return 0; }\n",
            "prog.c:1:1: error: C++ is not supported (`<cstdio>` is C++)",
        ),
        (
            "int main(void) {\n  return A::b;\n}\n",
            "prog.c:2:1: error: C++ is not supported (`::` is C++)",
        ),
    ] {
        let (code, _, err) = tass(&["verify"], &common::inline(text));
        assert_eq!(code, 2, "{err}");
        assert!(err.contains(construct), "{err}");
    }
    let class = common::inline("class A { public: int x; };\nint main(void) { return 0; }\n");
    let (code, _, err) = tass(&["verify"], &class);
    assert_eq!(code, 2);
    assert!(
        err.contains("prog.c:1:1: error: C++ is not supported (`class` is C++)"),
        "{err}"
    );
}

#[test]
fn an_unreadable_file_has_no_position() {
    let (code, out, err) = tass(&["verify"], Path::new("nosuch.c"));
    assert_eq!(code, 2, "{out}");
    assert!(
        err.starts_with("nosuch.c: error: cannot read the file:"),
        "{err}"
    );
    assert!(!err.contains(":0:0"), "{err}");
    let (code, _, err) = tass(&["show"], Path::new("nosuch.c"));
    assert_eq!(code, 2);
    assert!(err.starts_with("nosuch.c: error:"), "{err}");
}

/// An `MPI_Alltoallv` where rank r sends r+1 copies of `100*r + j` to rank j, and
/// every rank prints and checks what it received. `mpicc` + `mpirun -np 5`: exits 0
/// and prints 75 lines (rank j gets i+1 values from each rank i).
const ALLTOALLV: &str = r#"#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <assert.h>
int main(int argc, char **argv) {
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int *sendcounts = malloc(size * sizeof(int));
  int *sdispls = malloc(size * sizeof(int));
  int *recvcounts = malloc(size * sizeof(int));
  int *rdispls = malloc(size * sizeof(int));
  int stotal = 0, rtotal = 0;
  for (int j = 0; j < size; j++) {
    sendcounts[j] = rank + 1;
    sdispls[j] = stotal;
    stotal += rank + 1;
    recvcounts[j] = j + 1;
    rdispls[j] = rtotal;
    rtotal += j + 1;
  }
  int *sendbuf = malloc(stotal * sizeof(int));
  int *recvbuf = malloc(rtotal * sizeof(int));
  for (int j = 0; j < size; j++)
    for (int k = 0; k < rank + 1; k++)
      sendbuf[sdispls[j] + k] = 100 * rank + j;
  MPI_Alltoallv(sendbuf, sendcounts, sdispls, MPI_INT,
                recvbuf, recvcounts, rdispls, MPI_INT, MPI_COMM_WORLD);
  for (int i = 0; i < size; i++)
    for (int k = 0; k < i + 1; k++) {
      printf("rank %d got %d from %d\n", rank, recvbuf[rdispls[i] + k], i);
      assert(recvbuf[rdispls[i] + k] == 100 * i + rank);
    }
  free(sendbuf); free(recvbuf); free(sendcounts); free(sdispls);
  free(recvcounts); free(rdispls);
  MPI_Finalize();
  return 0;
}
"#;

/// Output is local to a process: the printing program explores about as many
/// states as the same program without its `printf` (1,177 against 1,102 at 5
/// processes: one more state per call, never a new interleaving).
#[test]
fn printf_does_not_multiply_the_states() {
    let printing = common::inline(ALLTOALLV);
    let silent = common::inline(&ALLTOALLV.replace(
        "printf(\"rank %d got %d from %d\\n\", rank, recvbuf[rdispls[i] + k], i);",
        "",
    ));
    let mut seen = Vec::new();
    for (file, extra) in [
        (&printing, &[][..]),
        (&silent, &[][..]),
        (&printing, &["--no-printf"][..]),
        (&printing, &["-enablePrintf=false"][..]),
    ] {
        let (code, r) = common::verify_reduced("5", extra, file, true);
        common::assert_holds(code, &r);
        seen.push(r["stats"]["states_seen"].as_u64().expect("stats"));
    }
    // One state per printf call executed (5 ranks x 15 values), no more.
    assert!(seen[0] <= seen[1] + 75, "{seen:?}");
    assert_eq!(seen[0], seen[2], "{seen:?}");
    assert_eq!(seen[0], seen[3], "{seen:?}");
}

/// The violation shows its source line with a caret under the column; every
/// statement of the trace appears once per consecutive run (`main`'s parameters
/// are one step); the claim of a leak is said in the leak's words. `gcc -g
/// -fsanitize=address` on this program with `n = 2`: LeakSanitizer reports the
/// 8-byte block allocated at line 6.
const LEAK: &str = r#"#include <stdlib.h>
#pragma TASS input {0 <= n && n <= 3}
int n;
int main(int argc, char **argv) {
  int k = n;
  int *p = malloc(2 * sizeof(int));
  if (k > 1)
    return 1;
  free(p);
  return 0;
}
"#;

#[test]
fn violation_text_shows_the_line_with_a_caret_and_no_repeated_steps() {
    let file = common::inline(LEAK);
    let (code, out, _) = tass(&["verify", "--color", "never"], &file);
    assert_eq!(code, 1, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    let head = lines
        .iter()
        .position(|l| l.contains("violation 1: memory-leak"))
        .expect("headline");
    // rustc style: an empty gutter line, `8 |   return 1;`, the caret line
    assert_eq!(lines[head + 1].trim(), "|", "{out}");
    assert!(lines[head + 2].starts_with("8 |"), "{out}");
    assert!(lines[head + 2].contains("return 1;"), "{out}");
    let caret = lines[head + 3];
    assert_eq!(caret.trim_start_matches([' ', '|']), "^", "{out}");
    assert_eq!(
        caret.find('^'),
        lines[head + 2].find("return"),
        "caret under the column: {out}"
    );
    assert_eq!(
        out.matches("int main(int argc, char **argv)").count(),
        1,
        "{out}"
    );
    assert!(
        out.contains("violated: every allocated block is freed"),
        "{out}"
    );
    assert!(!out.contains('\x1b'), "{out}");
}

#[test]
fn colour_follows_the_option_and_no_color() {
    let file = common::inline(LEAK);
    let (_, out, _) = tass(&["verify", "--color", "always"], &file);
    assert!(out.contains("\x1b[1;31mviolation 1: memory-leak"), "{out}");
    // the shared source snippet is coloured too: its caret line carries escapes
    let caret = out.lines().find(|l| l.contains('^')).expect("caret line");
    assert!(caret.contains('\x1b'), "{out}");
    // Not a terminal: auto is plain, and so is NO_COLOR.
    let (_, out, _) = tass(&["verify"], &file);
    assert!(!out.contains('\x1b'), "{out}");
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "--color", "auto"])
        .arg(&file)
        .env("NO_COLOR", "1")
        .output()
        .expect("run tass");
    assert!(!String::from_utf8_lossy(&out.stdout).contains('\x1b'));
    // Front-end errors on stderr follow the option too.
    let bad = common::inline("int main(void) {\n  return zz;\n}\n");
    let (_, _, err) = tass(&["verify", "--color", "always"], &bad);
    assert!(
        err.contains("\x1b[1;31merror\x1b[0m: unknown identifier"),
        "{err}"
    );
    let caret = err.lines().find(|l| l.contains('^')).expect("caret line");
    assert!(caret.contains('\x1b'), "{err}");
    let (_, _, err) = tass(&["verify", "--color", "never"], &bad);
    assert!(
        !err.contains('\x1b') && err.contains(": error: unknown identifier"),
        "{err}"
    );
}

#[test]
fn json_trace_repeats_no_step_and_sarif_says_why_inconclusive() {
    let file = common::inline(LEAK);
    let (code, r) = common::verify("1", &[], LEAK);
    assert_eq!(code, 1, "{r:#}");
    let trace = r["violations"][0]["trace"].as_array().expect("trace");
    for pair in trace.windows(2) {
        assert!(
            pair[0]["line"] != pair[1]["line"] || pair[0]["source"] != pair[1]["source"],
            "{r:#}"
        );
    }
    // main's two parameters are one step with both changes.
    assert!(trace[0]["changes"].get("argc").is_some(), "{r:#}");
    assert!(trace[0]["changes"].get("argv").is_some(), "{r:#}");
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "--format", "sarif", "--max-states", "3"])
        .arg(&file)
        .output()
        .expect("run tass");
    assert_eq!(out.status.code(), Some(3));
    let sarif: serde_json::Value = serde_json::from_slice(&out.stdout).expect("SARIF");
    let note = &sarif["runs"][0]["invocations"][0]["toolExecutionNotifications"][0];
    assert_eq!(note["level"], "warning", "{sarif:#}");
    assert!(
        note["message"]["text"]
            .as_str()
            .unwrap_or("")
            .contains("--max-states"),
        "{sarif:#}"
    );
    assert_eq!(sarif["runs"][0]["properties"]["verdict"], "inconclusive");
}

/// A loop bounded by an input nothing bounds: a warning before the search, none
/// once `-i` or a constraint bounds it. `gcc -fsanitize=address,undefined` with
/// `N = 3`: exits 0.
const UNBOUNDED: &str = r#"#include <assert.h>
#pragma TASS input
int N;
int main(void) {
  int s = 0;
  for (int i = 0; i < N; i++)
    s += 2;
  assert(s % 2 == 0);
  return 0;
}
"#;

#[test]
fn an_input_bounding_a_loop_without_upper_bound_is_warned_about() {
    let file = common::inline(UNBOUNDED);
    let (code, out, err) = tass(&["verify", "--max-states", "500"], &file);
    assert_eq!(code, 3, "{out}{err}");
    assert!(
        err.contains("warning: input `N` bounds a loop and has no upper bound"),
        "{err}"
    );
    let (code, _, err) = tass(&["verify", "-i", "N=3"], &file);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("warning"), "{err}");
    let bounded =
        common::inline(&UNBOUNDED.replace("#pragma TASS input\n", "#pragma TASS input {N <= 4}\n"));
    let (code, _, err) = tass(&["verify"], &bounded);
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("warning"), "{err}");
}

/// A token ring over a symbolic counter that never repeats a state: `l` grows
/// into an ever deeper expression ((l0 + 2) % 4 + 2) % 4 ..., which the
/// simplifier and the canonicaliser recurse over. On the main thread's 8 MB
/// stack this crashed with "stack overflow" before the state limit was reached
/// (the release binary of 9196835 at `--max-states 30000` and `40000`); the run
/// must end inconclusive at the limit. The real program (l0 = 1) runs forever:
/// mpirun -np 3 killed by `timeout 5`, exit 124.
#[test]
fn an_ever_deeper_symbolic_value_ends_at_the_state_limit_not_in_a_crash() {
    let ring = "#include <mpi.h>\n#define R 4\n#pragma TASS input {0 <= l0 && l0 < R}\nint l0;\n\
                int l;\nint main(int argc, char **argv) {\n  int rank, size;\n  \
                MPI_Init(&argc, &argv);\n  MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n  \
                MPI_Comm_size(MPI_COMM_WORLD, &size);\n  l = l0;\n  if (rank != 0)\n    \
                MPI_Recv(&l, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, \
                MPI_STATUS_IGNORE);\n  for (;;) {\n    l = (l + 2) % R;\n    \
                MPI_Send(&l, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD);\n    \
                MPI_Recv(&l, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, \
                MPI_STATUS_IGNORE);\n  }\n  MPI_Finalize();\n  return 0;\n}\n";
    let (code, r) = common::verify("3", &["--max-states", "40000"], ring);
    assert_eq!(r["verdict"], "inconclusive", "{r:#}");
    assert_eq!(code, 3, "{r:#}");
}

/// A pragma only reads the state: `++`, `--` and the assignments are refused by
/// name at their column (`g++` used to read as `g + +`, a parser message).
#[test]
fn a_changing_operator_in_a_pragma_is_refused_by_name() {
    let program = |pragma: &str| {
        format!(
            "#include <mpi.h>\nint g;\nint main(int argc, char **argv) {{\n  MPI_Init(&argc, &argv);\n\
             #pragma TASS {pragma}\n  MPI_Finalize();\n  return 0;\n}}\n"
        )
    };
    for (pragma, op, column) in [
        ("collective assert A PROC[1].g++ == 0", "++", 43),
        ("assert g-- == 0", "--", 22),
        ("assert (g = 1)", "=", 24),
        ("assert g += 1", "+=", 23),
        ("collective assert B PROC[0].g <<= 1", "<<=", 44),
    ] {
        let file = common::inline(&program(pragma));
        let (code, out, err) = tass(&["verify", "-n", "2"], &file);
        assert_eq!(code, 2, "{pragma}: {out}{err}");
        let expected = format!(
            "prog.c:5:{column}: error: `{op}` is not allowed in a pragma expression (it has side effects)"
        );
        assert!(err.contains(&expected), "{pragma}: {err}");
    }
    // Comparisons stay comparisons.
    let file = common::inline(&program(
        "collective assert A PROC[0].g == 0 && g <= 0 && g >= 0 && g != 1",
    ));
    let (code, out, err) = tass(&["verify", "-n", "2"], &file);
    assert_eq!(code, 0, "{out}{err}");
}

/// `#pragma TASS input int N` (the name on the pragma's line) says where the
/// name goes.
#[test]
fn an_input_pragma_with_the_name_on_its_line_says_where_it_goes() {
    let file = common::inline("#pragma TASS input int N\nint N;\nint main(void) { return 0; }\n");
    let (code, _, err) = tass(&["verify"], &file);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("prog.c:1:24: error: expected the end of the pragma, found `N`: the input pragma stands alone"),
        "{err}"
    );
}

/// Many processes: a warning before the search (not with `-q`); the run itself
/// goes on (here to its time limit or its verdict).
#[test]
fn many_processes_are_warned_about() {
    let file = common::inline(RANKS);
    let (_, _, err) = tass(&["verify", "-n", "20", "--timeout", "5"], &file);
    assert!(
        err.contains("warning: -n 20: the states grow exponentially"),
        "{err}"
    );
    let (_, out, err) = tass(&["verify", "-n", "20", "--timeout", "5", "-q"], &file);
    assert!(!err.contains("warning"), "{out}{err}");
    let (_, _, err) = tass(&["verify", "-n", "4"], &file);
    assert!(!err.contains("warning"), "{err}");
}

/// A pragma the engine refuses before the search is shown as the front end's
/// errors are: `file:line:column: error: ...`, the source line and a caret.
#[test]
fn an_engine_refusal_shows_the_pragma_line_with_a_caret() {
    let file = common::inline(
        "#include <mpi.h>\nint x;\nint main(int argc, char **argv) {\n  MPI_Init(&argc, &argv);\n\
         #pragma TASS collective assert A PROC[5].x == 0\n  MPI_Finalize();\n  return 0;\n}\n",
    );
    let (code, out, err) = tass(&["verify", "-n", "3"], &file);
    assert_eq!(code, 2, "{out}{err}");
    let expected = format!(
        "prog.c:5:39: error: PROC[5] names no process: ranks run from 0 to 2 with 3 process(es) (-n)\n  \
         |\n5 | #pragma TASS collective assert A PROC[5].x == 0\n  |{}^\n",
        " ".repeat(39)
    );
    assert!(err.contains(&expected), "{err}");
}
