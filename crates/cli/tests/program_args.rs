//! The command line a program's `main` receives: `tass verify FILE -- ARG...`
//! (as MBI runs its input-hazard programs: `mpirun -np 2 ${EXE} 1`).
//!
//! Each expectation was confirmed by a real run (gcc 12, OpenMPI 4.1):
//! `gcc -g -fsanitize=address,undefined` for the sequential programs, and
//! `mpicc -g -fsanitize=address,undefined` run with `ASAN_OPTIONS=detect_leaks=0
//! timeout 10 mpirun --allow-run-as-root --oversubscribe -np 2 ./hazard ARG`, by
//! default and with `--mca btl self,tcp --mca btl_tcp_eager_limit 56 --mca
//! btl_tcp_rndv_eager_limit 56`: with argument 1 rc 0 both ways, with 2 both hang
//! (rc 124 from `timeout`).

mod common;

use std::process::Command;

use common::{assert_holds, assert_violated, inline, report};

/// `tass verify -n PROCS FILE --format json -- ARGS` (no `--` when `args` is None).
fn verify_with(procs: &str, text: &str, args: Option<&[&str]>) -> (i32, serde_json::Value) {
    let file = inline(text);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tass"));
    cmd.args(["verify", "-n", procs, "--format", "json"])
        .arg(&file);
    if let Some(args) = args {
        cmd.arg("--").args(args);
    }
    report(cmd.output().expect("run tass"))
}

/// Real run: `./seq_ok 12 abc` rc 0 (ASan/UBSan quiet).
const SEQ_OK: &str = r#"#include <assert.h>
#include <stdlib.h>
#include <string.h>
int main(int argc, char **argv) {
  assert(argc == 3);
  assert(argv[0] != NULL && argv[3] == NULL);
  int n = atoi(argv[1]);
  assert(n == 12);
  assert(strlen(argv[2]) == 3);
  argv[2][0] = 'x';
  assert(argv[2][0] == 'x' && argv[2][3] == '\0');
  return 0;
}
"#;

#[test]
fn main_gets_the_arguments_after_the_double_dash() {
    let (code, r) = verify_with("1", SEQ_OK, Some(&["12", "abc"]));
    assert_holds(code, &r);
    // Other arguments, other facts: the length check fails.
    let (code, r) = verify_with("1", SEQ_OK, Some(&["12", "abcd"]));
    assert_violated(code, &r, "assertion", Some(9));
    // Without `--`, argc is 1 (and argv NULL), as before.
    let (code, r) = verify_with("1", SEQ_OK, None);
    assert_violated(code, &r, "assertion", Some(5));
}

#[test]
fn the_strings_of_the_command_line_are_bounded_owned_and_no_leak() {
    // Reading past the NUL of "ab": outside its object (a real run reads the next
    // string of the command line: undefined behaviour that ASan does not see).
    let past_end = "int main(int argc, char **argv) {\n  if (argc < 2) return 1;\n  \
                    return argv[1][3] == 'z';\n}\n";
    let (code, r) = verify_with("1", past_end, Some(&["ab"]));
    assert_violated(code, &r, "out-of-bounds", Some(3));
    let (code, r) = verify_with("1", past_end, Some(&["abcz"]));
    assert_holds(code, &r);
    // The strings were not allocated by malloc: freeing one is an error, and
    // not freeing them is no leak (the holds above).
    let frees = "#include <stdlib.h>\nint main(int argc, char *argv[]) {\n  \
                 if (argc > 1) free(argv[1]);\n  return 0;\n}\n";
    let (code, r) = verify_with("1", frees, Some(&["1"]));
    assert_violated(code, &r, "invalid-pointer", Some(3));
}

/// An input hazard: rank 0 skips the barrier when the argument is even.
const HAZARD: &str = r#"#include <mpi.h>
#include <stdlib.h>
int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int n = atoi(argv[1]);
  if (rank != 0 || n % 2 != 0)
    MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn every_process_gets_the_same_command_line() {
    let (code, r) = verify_with("2", HAZARD, Some(&["1"]));
    assert_holds(code, &r);
    let (code, r) = verify_with("2", HAZARD, Some(&["2"]));
    assert_violated(code, &r, "deadlock", Some(9));
    // Without arguments argv is NULL: reported, not a silent pass.
    let (code, r) = verify_with("2", HAZARD, None);
    assert_violated(code, &r, "invalid-pointer", Some(7));
}

#[test]
fn the_trace_keeps_the_command_line_for_replay() {
    let file = inline(HAZARD);
    let trace = file.with_file_name("trace.json");
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "-n", "2", "--format", "json", "--trace"])
        .arg(&trace)
        .arg(&file)
        .args(["--", "2"])
        .output()
        .expect("run tass");
    let (code, r) = report(out);
    assert_violated(code, &r, "deadlock", Some(9));
    let text = std::fs::read_to_string(&trace).expect("trace written");
    let trace: serde_json::Value = serde_json::from_str(&text).expect("trace is JSON");
    assert_eq!(
        trace["invocation"]["program_args"],
        serde_json::json!(["2"]),
        "{trace:#}"
    );
}
