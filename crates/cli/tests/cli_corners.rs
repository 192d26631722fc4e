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
