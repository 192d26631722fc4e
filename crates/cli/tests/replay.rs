//! `tass replay TRACE.json` and `tass verify --replay` (issue 22, part 1): each test
//! finds a real violation with `tass verify --trace`, replays it concretely and checks
//! the replay's verdict line. The concrete runs are the replays themselves (gcc with
//! AddressSanitizer/UBSan, or mpicc and mpirun); a test is skipped, with the reason
//! printed, only when gcc (or mpicc/mpirun) is not installed.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn fevs(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fevs")
        .join(path)
}

fn installed(tools: &[&str]) -> bool {
    for tool in tools {
        let ok = Command::new(tool)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success());
        if !ok {
            // CI installs every tool (.ci/run): there a missing one fails the test.
            assert!(
                std::env::var_os("CI").is_none(),
                "{tool} is not installed (CI installs gcc, gdb, mpicc and mpirun)"
            );
            eprintln!("skipped: {tool} is not installed");
            return false;
        }
    }
    true
}

/// `tass verify ARGS --trace T` (must find a violation), then `tass replay T`:
/// (replay's exit status, its stdout).
fn verify_then_replay(args: &[&str], file: &Path) -> (i32, String) {
    verify_then_replay_with(args, file, &[])
}

fn verify_then_replay_with(args: &[&str], file: &Path, replay_args: &[&str]) -> (i32, String) {
    let mut all: Vec<String> = vec!["verify".into()];
    all.extend(args.iter().map(|a| a.to_string()));
    all.push(file.display().to_string());
    check_then_replay(&all, replay_args)
}

/// `tass ARGS --trace T` (must find a violation), then `tass replay T REPLAY_ARGS`.
fn check_then_replay(args: &[String], replay_args: &[&str]) -> (i32, String) {
    let dir = file_dir();
    let trace = dir.join("trace.json");
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(args)
        .arg("--trace")
        .arg(&trace)
        .output()
        .expect("run tass verify");
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .arg("replay")
        .arg(&trace)
        .arg("--dir")
        .arg(dir.join("harness"))
        .args(replay_args)
        .output()
        .expect("run tass replay");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.code().unwrap_or(-1), text)
}

fn file_dir() -> PathBuf {
    common::inline("")
        .parent()
        .expect("scratch folder")
        .to_path_buf()
}

fn assert_reproduced(code: i32, text: &str, symptom: &str) {
    assert_eq!(code, 1, "{text}");
    let line = text
        .lines()
        .find(|l| l.starts_with("replay: reproduced: "))
        .unwrap_or_else(|| panic!("no reproduced line:\n{text}"));
    assert!(line.contains(symptom), "{text}");
}

// gcc -fsanitize=address,undefined: `factorial_bad.c` with B=5 fails
// `assert(result >= 1)` at line 34 (the overflowed product), as tass says.
#[test]
fn a_sequential_assertion_is_reproduced_at_its_line() {
    if !installed(&["gcc"]) {
        return;
    }
    let (code, text) = verify_then_replay(&["-i", "B=5"], &fevs("seq/factorial_bad.c"));
    assert_reproduced(code, &text, "factorial_bad.c:34");
    assert!(text.contains("Assertion"), "{text}");
}

// UBSan: `prefix_sum_bad.c` reads a[-1] at line 32 ("index -1 out of bounds").
#[test]
fn a_sequential_out_of_bounds_read_is_caught_by_the_sanitizer() {
    if !installed(&["gcc"]) {
        return;
    }
    let (code, text) = verify_then_replay(&["-i", "B=4"], &fevs("seq/prefix_sum_bad.c"));
    assert_reproduced(code, &text, "out of bounds");
    assert!(text.contains("prefix_sum_bad.c:32"), "{text}");
}

// UBSan (float-divide-by-zero): `div_avg_bad.c` with the witness N = 0 divides by
// count = 0 at line 40.
#[test]
fn a_division_by_zero_is_reproduced_with_the_witness_input() {
    if !installed(&["gcc"]) {
        return;
    }
    let (code, text) = verify_then_replay(&["-i", "B=3"], &fevs("seq/div_avg_bad.c"));
    assert_reproduced(code, &text, "division by zero");
    assert!(text.contains("div_avg_bad.c:40"), "{text}");
}

// `assert(y != 4)` with y = 2x fails only for x == 2: tass's witness is x = 2 and the
// replay reproduces it; the same trace edited to x = 3 (as a spurious witness would
// be) runs clean, and the replay says so plainly.
#[test]
fn a_run_that_does_not_fail_is_said_plainly() {
    if !installed(&["gcc"]) {
        return;
    }
    let file = common::inline(
        "#include <assert.h>\n#pragma TASS input {0 <= x && x < 5}\nint x;\n\
         int main(void) {\n    int y = x * 2;\n    assert(y != 4);\n    return 0;\n}\n",
    );
    let dir = file.parent().unwrap().to_path_buf();
    let trace = dir.join("trace.json");
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "--trace"])
        .arg(&trace)
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let mut t: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).unwrap();
    assert_eq!(t["witness"]["x"], 2, "{t:#}");
    let (code, text) = replay_trace(&t, &dir);
    assert_reproduced(code, &text, "prog.c:6");
    t["witness"]["x"] = 3.into();
    let (code, text) = replay_trace(&t, &dir);
    assert_eq!(code, 3, "{text}");
    assert!(
        text.contains("possible violation: the concrete run did not reproduce it"),
        "{text}"
    );
}

fn replay_trace(trace: &serde_json::Value, dir: &Path) -> (i32, String) {
    let path = dir.join("edited.json");
    std::fs::write(&path, trace.to_string()).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .arg("replay")
        .arg(&path)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

// mpirun with the zero-buffer configuration: both ranks of `deadlock_recv_bad.c`
// block in MPI_Recv at line 30; the run hangs until the time limit.
#[test]
fn an_mpi_deadlock_hangs() {
    if !installed(&["mpicc", "mpirun"]) {
        return;
    }
    let (code, text) = verify_then_replay(&["-n", "2"], &fevs("mpi/deadlock_recv_bad.c"));
    assert_reproduced(code, &text, "the run hung");
    // Each rank's stack, written a second before the limit: both wait in MPI_Recv.
    for rank in ["0", "1"] {
        let line = format!("rank {rank} was at deadlock_recv_bad.c:30 in MPI_Recv");
        assert!(text.contains(&line), "{text}");
    }
}

// OpenMPI reports MPI_ERR_COUNT for `count_bad.c`'s negative count and aborts (exit
// status 2); the harness's error handler writes the message to a file first, since
// mpirun often ends before forwarding the library's own.
#[test]
fn an_mpi_argument_error_is_reported_by_the_library() {
    if !installed(&["mpicc", "mpirun"]) {
        return;
    }
    let (code, text) = verify_then_replay(&["-n", "2", "-i", "B=3"], &fevs("mpi/count_bad.c"));
    assert_reproduced(
        code,
        &text,
        "MPI_ERR_COUNT: invalid count argument (rank 0)",
    );
}

// `verify --replay` prints the verdict, then the replay; the exit status stays the
// verdict's.
#[test]
fn verify_replay_replays_in_one_command() {
    if !installed(&["gcc"]) {
        return;
    }
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "-q", "--replay", "-i", "B=5"])
        .arg(fevs("seq/factorial_bad.c"))
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    assert!(text.contains("verdict: violated"), "{text}");
    assert!(text.contains("replay: reproduced: "), "{text}");
}

// `wildcard_race_bad.c` at 3 processes: rank 0's round-0 wildcard receive takes rank
// 1's round-1 message in tass's trace. Unenforced, mpirun passes the assertion in
// some runs (seen: run 1 passed, run 2 failed); with the PMPI layer making rank 0's
// two receives take rank 1's messages, the first and only run fails the assertion at
// line 36.
#[test]
fn a_wildcard_race_is_reproduced_with_the_traced_sender_enforced() {
    if !installed(&["mpicc", "mpirun"]) {
        return;
    }
    let (code, text) = verify_then_replay_with(
        &["-n", "3"],
        &fevs("mpi/wildcard_race_bad.c"),
        &["--attempts", "1"],
    );
    assert!(text.contains("rank 0 from [1, 1]"), "{text}");
    assert_reproduced(code, &text, "wildcard_race_bad.c:36");
}

// The comparison of fevs's adder_seq.c with adder_par_bad.c (3 processes, B = 4):
// tass's witness is n = 1, a[0] = 1 (an input array element); the sequential sum is
// 1, the parallel one 0 (rank 0's block of n / P = 0 elements). gcc and mpirun print
// exactly these outputs.
#[test]
fn a_comparison_prints_the_differing_outputs_of_both_programs() {
    if !installed(&["gcc", "mpicc", "mpirun"]) {
        return;
    }
    let args: Vec<String> = [
        "compare",
        "--impl-procs",
        "3",
        "-i",
        "B=4",
        "--spec",
        &fevs("mpi/adder_seq.c").display().to_string(),
        "--impl",
        &fevs("mpi/adder_par_bad.c").display().to_string(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let (code, text) = check_then_replay(&args, &[]);
    assert!(
        text.contains("differing output sum: spec 1, impl 0"),
        "{text}"
    );
    assert_reproduced(code, &text, "the outputs differ");
}

// Sequential comparison: factorial_rec_bad.c's recursion returns 0 for n = 0 where
// the iterative specification returns 1 (gcc runs print result 1 and 0).
#[test]
fn a_sequential_comparison_is_reproduced() {
    if !installed(&["gcc"]) {
        return;
    }
    let args: Vec<String> = [
        "compare",
        "-i",
        "B=5",
        &fevs("seq/factorial_iter.c").display().to_string(),
        &fevs("seq/factorial_rec_bad.c").display().to_string(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let (code, text) = check_then_replay(&args, &[]);
    assert!(
        text.contains("differing output result: spec 1, impl 0"),
        "{text}"
    );
    assert_reproduced(code, &text, "the outputs differ");
}

// A trace file that is not JSON, or holds no violation (`null`: the run found
// none), is refused with exit status 2 and the file named.
#[test]
fn a_bad_trace_file_is_a_clear_error() {
    let dir = file_dir();
    for (name, text, said) in [
        ("garbage.json", "not json", "not a tass trace"),
        ("null.json", "null\n", "holds no violation"),
        (
            "old.json",
            "{\"property\": \"assertion\"}",
            "no `invocation`",
        ),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let out = Command::new(env!("CARGO_BIN_EXE_tass"))
            .arg("replay")
            .arg(&path)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{err}");
        assert!(err.contains(name) && err.contains(said), "{err}");
    }
}

// With `--format json`, stdout stays one JSON document: the replay's lines go to
// stderr.
#[test]
fn verify_replay_keeps_json_output_parseable() {
    if !installed(&["gcc"]) {
        return;
    }
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "--replay", "--format", "json", "-i", "B=5"])
        .arg(fevs("seq/factorial_bad.c"))
        .output()
        .unwrap();
    let (code, report) = common::report(out.clone());
    assert_eq!(code, 1);
    assert_eq!(report["verdict"], "violated");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("replay: reproduced: "), "{err}");
}

/// An ltl violation is an infinite run (a lasso): replay runs the harness
/// under gdb, the stem and then 3 passes of the cycle, and checks that each
/// pass starts at the cycle's first line in the same call stack with the
/// same atom values. The counter program is `ltl.rs`'s: x cycles 0..3
/// forever, so `G {x < 3}` fails (its gcc run printed 0 1 2 3 0 1 2 3 ...).
#[test]
fn an_ltl_lasso_is_replayed_pass_by_pass() {
    if !installed(&["gcc", "gdb"]) {
        return;
    }
    let file = common::inline(
        "int x;\n#pragma TASS ltl p G {x < 3}\nint main(void) {\nloop:\n  x = (x + 1) % 4;\n  goto loop;\n}\n",
    );
    let (code, text) = verify_then_replay(&[], &file);
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("replay: reproduced: the run followed the lasso: after the stem, 3 passes of the cycle each started at prog.c:5"),
        "{text}"
    );
}

/// The set-matched lasso of `ltl_witness.rs` (y steps by 2 modulo 10, only
/// odd x never meet y == 0): its confirmed witness replays; the same trace
/// with an even x does not (the gcc run of x = 2 meets y == 0 every fifth
/// pass, so an atom changes between passes).
#[test]
fn a_set_matched_lasso_replays_with_its_witness_only() {
    if !installed(&["gcc", "gdb"]) {
        return;
    }
    let file = common::inline(
        "#pragma TASS input {0 <= x && x < 10}\nint x;\nint y;\n#pragma TASS ltl zero G F {y == 0}\n\
         int main(void) {\n  y = x;\n  for (;;) {\n    y = (y + 2) % 10;\n  }\n}\n",
    );
    let dir = file_dir();
    let trace = dir.join("trace.json");
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "--match", "set"])
        .arg(&file)
        .arg("--trace")
        .arg(&trace)
        .output()
        .expect("run tass verify");
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let replay = |trace: &Path| {
        let out = Command::new(env!("CARGO_BIN_EXE_tass"))
            .arg("replay")
            .arg(trace)
            .arg("--dir")
            .arg(dir.join("harness"))
            .output()
            .expect("run tass replay");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, text) = replay(&trace);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("the run followed the lasso"), "{text}");
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).unwrap();
    doc["witness"] = serde_json::json!({"x": 2});
    let even = dir.join("even.json");
    std::fs::write(&even, doc.to_string()).unwrap();
    let (code, text) = replay(&even);
    assert_eq!(code, Some(3), "{text}");
    assert!(text.contains("did not reproduce it"), "{text}");
}

/// An MPI lasso is replayed rank by rank, each rank under its own gdb under
/// mpirun (`replay/mpi_lasso.rs`). ltl_mutex_keep_bad.c with its confirmed
/// witness (l0 odd): rank 0 keeps the token, passes start at line 42 with
/// the same stack, its MPI calls are the lasso's (Init, Comm_rank,
/// Comm_size and no more), rank 1 is found blocked in MPI_Recv at line 47,
/// as the cycle mark says. The same trace with an even l0 is not reproduced:
/// rank 0 passes the token (its mpirun -np 2 -DROUNDS=6 run with l0 = 2
/// prints critical sections of both ranks; with l0 = 1 and 3 only rank 0's).
#[test]
fn an_mpi_lasso_is_replayed_rank_by_rank() {
    if !installed(&["mpicc", "mpirun", "gdb"]) {
        return;
    }
    let dir = file_dir();
    let trace = dir.join("trace.json");
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "-n", "2", "--match", "set"])
        .arg(fevs("mpi/ltl_mutex_keep_bad.c"))
        .arg("--trace")
        .arg(&trace)
        .output()
        .expect("run tass verify");
    assert_eq!(out.status.code(), Some(1));
    let replay = |trace: &Path| {
        let out = Command::new(env!("CARGO_BIN_EXE_tass"))
            .arg("replay")
            .arg(trace)
            .arg("--dir")
            .arg(dir.join("harness"))
            .output()
            .expect("run tass replay");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, text) = replay(&trace);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("replay: reproduced: the run followed the lasso rank by rank: rank 0: after the stem, 3 passes of the cycle each started at ltl_mutex_keep_bad.c:42"),
        "{text}"
    );
    assert!(
        text.contains("rank 1 stayed blocked in MPI_Recv at line 47"),
        "{text}"
    );
    let mut doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).unwrap();
    doc["witness"] = serde_json::json!({"l0": 2});
    let even = dir.join("even.json");
    std::fs::write(&even, doc.to_string()).unwrap();
    let (code, text) = replay(&even);
    assert_eq!(code, Some(3), "{text}");
    assert!(
        text.contains(
            "rank 0's MPI calls differ from the lasso's at call 4: the run made MPI_Send"
        ),
        "{text}"
    );
}

/// The token ring whose process 1 keeps the token (l0 = 1): rank 1 spins at
/// `hold`, ranks 0 and 2 stay blocked in their MPI_Recv (mpirun -np 3
/// -DROUNDS=4 with l0 = 1: one critical section each, then nothing). The
/// server whose worker 2 is never served: manager and worker 1 repeat their
/// exchange, worker 2 waits for its reply (mpirun -np 3 -DROUNDS=2: worker 1
/// gets replies 1, 2, 3, worker 2 none).
#[test]
fn mpi_lassos_of_the_token_ring_and_the_server_are_replayed() {
    if !installed(&["mpicc", "mpirun", "gdb"]) {
        return;
    }
    let (code, text) = verify_then_replay(
        &["-n", "3", "-i", "l0=1"],
        &fevs("mpi/ltl_token_ring_bad.c"),
    );
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains("rank 0 stayed blocked in MPI_Recv at line 47"),
        "{text}"
    );
    assert!(
        text.contains(
            "rank 1: after the stem, 3 passes of the cycle each started at ltl_token_ring_bad.c:37"
        ),
        "{text}"
    );
    assert!(
        text.contains("rank 2 stayed blocked in MPI_Recv at line 47"),
        "{text}"
    );
    let (code, text) = verify_then_replay(&["-n", "3"], &fevs("mpi/ltl_server_bad.c"));
    assert_eq!(code, 1, "{text}");
    assert!(
        text.contains(
            "rank 0: after the stem, 3 passes of the cycle each started at ltl_server_bad.c:27"
        ),
        "{text}"
    );
    assert!(
        text.contains("rank 2 stayed blocked in MPI_Recv at line 35"),
        "{text}"
    );
}

/// A starvation that needs the schedule forced: the server receiving with
/// MPI_ANY_SOURCE serves one worker forever in the lasso, which a real run
/// does not do by itself (mpirun -np 3 -DROUNDS=2 serves both workers). The
/// replay forces each wildcard receive's sender (stem, then the cycle over and
/// over) and reproduces the lasso; the same trace with the senders left out
/// of its steps is not reproduced (Open MPI matches the requests in arrival
/// order, so the other worker is served and its MPI calls go past the lasso's).
#[test]
fn an_mpi_lasso_with_wildcard_receives_replays_with_forced_senders() {
    if !installed(&["mpicc", "mpirun", "gdb"]) {
        return;
    }
    let dir = file_dir();
    let trace = dir.join("trace.json");
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "-n", "3"])
        .arg(fevs("mpi/ltl_server_any_bad.c"))
        .arg("--trace")
        .arg(&trace)
        .output()
        .expect("run tass verify");
    assert_eq!(out.status.code(), Some(1));
    let replay = |trace: &Path| {
        let out = Command::new(env!("CARGO_BIN_EXE_tass"))
            .arg("replay")
            .arg(trace)
            .arg("--dir")
            .arg(dir.join("harness"))
            .output()
            .expect("run tass replay");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
        )
    };
    let (code, text) = replay(&trace);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains("replay: note: wildcard matches enforced"),
        "{text}"
    );
    assert!(
        text.contains("the run followed the lasso rank by rank"),
        "{text}"
    );
    let unforced = std::fs::read_to_string(&trace)
        .unwrap()
        .replace("   (takes the message from process 1)", "")
        .replace("   (takes the message from process 2)", "");
    let unforced_path = dir.join("unforced.json");
    std::fs::write(&unforced_path, unforced).unwrap();
    let (code, text) = replay(&unforced_path);
    assert_eq!(code, Some(3), "{text}");
    assert!(text.contains("did not reproduce it"), "{text}");
}

/// Synchronous sends (two trace steps each: post, complete) with wildcard
/// receives: rank 0 serves rank 1 forever in the lasso, rank 2's `MPI_Ssend`
/// is posted and never taken. The replay forces the senders, counts each
/// `MPI_Ssend` once, and finds rank 2 blocked in it (mpirun -np 3 alone
/// serves both: the starvation needs the forced matches).
#[test]
fn an_mpi_lasso_with_synchronous_sends_is_replayed() {
    if !installed(&["mpicc", "mpirun", "gdb"]) {
        return;
    }
    let file = common::inline(
        "#include <mpi.h>\nint x;\n#pragma TASS ltl served2 G F PROC[2]@done\n\
         int main(int argc, char **argv) {\n  int rank, v = 0;\n  MPI_Init(&argc, &argv);\n  \
         MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n  if (rank == 0) {\n    for (;;) {\n      \
         MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n      \
         x = (x + 1) % 3;\n    }\n  }\n  for (;;) {\n    \
         MPI_Ssend(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);\n  done:\n    v = (v + 1) % 2;\n  }\n}\n",
    );
    let (code, text) = verify_then_replay(&["-n", "3"], &file);
    assert_reproduced(code, &text, "the run followed the lasso rank by rank");
    assert!(
        text.contains("rank 2 stayed blocked in MPI_Ssend at line 15"),
        "{text}"
    );
}

/// The fevs lassos through the calls whose phases the trace marks:
/// `ltl_bcast_ssend_bad.c` (MPI_Bcast, MPI_Ssend, MPI_Barrier: worker 2 takes
/// part in every round but never works; mpirun -np 3 -DROUNDS=4, default and
/// zero-buffer: only rank 1 prints jobs) and `ltl_pipeline_isend_bad.c`
/// (MPI_Isend, MPI_Irecv, MPI_Issend, MPI_Wait: the consumer never gets
/// item 3; mpirun -np 3 -DROUNDS=9, default and zero-buffer: 0 1 2 0 1 2 0,
/// never 3). Every rank moves in both cycles.
#[test]
fn mpi_lassos_through_collectives_and_nonblocking_calls_are_replayed() {
    if !installed(&["mpicc", "mpirun", "gdb"]) {
        return;
    }
    let (code, text) = verify_then_replay(&["-n", "3"], &fevs("mpi/ltl_bcast_ssend_bad.c"));
    assert_reproduced(code, &text, "the run followed the lasso rank by rank");
    for rank in 0..3 {
        assert!(
            text.contains(&format!("rank {rank}: after the stem, 3 passes")),
            "{text}"
        );
    }
    let (code, text) = verify_then_replay(&["-n", "3"], &fevs("mpi/ltl_pipeline_isend_bad.c"));
    assert_reproduced(code, &text, "the run followed the lasso rank by rank");
    assert!(
        text.contains("rank 2: after the stem, 3 passes of the cycle each started at ltl_pipeline_isend_bad.c:65"),
        "{text}"
    );
    assert!(text.contains("{got == 3} = 0"), "{text}");
}

/// A lasso that is no run of MPI is not reproduced: tass lets an `MPI_Test`
/// find nothing even when its receive has taken the message (as a test may,
/// for a while), so its cycle can be rank 1 testing forever with flag 0. The
/// replay forces those tests to 0 and asks MPI, without completing anything,
/// whether the request is ready (`MPI_Request_get_status`): it is, every time,
/// and MPI's progress rule says a repeated test then finds it (mpirun -np 2
/// with a printf after the loop: rank 1 consumes every item).
#[test]
fn a_lasso_whose_test_misses_a_ready_request_forever_is_not_reproduced() {
    if !installed(&["mpicc", "mpirun", "gdb"]) {
        return;
    }
    let file = common::inline(
        "#include <mpi.h>\nint got;\n#pragma TASS ltl consumes G F PROC[1]@consume\n\
         int main(int argc, char **argv) {\n  int rank, item = 0, flag = 0;\n  MPI_Request request;\n  \
         MPI_Init(&argc, &argv);\n  MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n  if (rank == 0) {\n    \
         for (;;) {\n      MPI_Ssend(&item, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);\n      \
         item = (item + 1) % 2;\n    }\n  }\n  for (;;) {\n    \
         MPI_Irecv(&got, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &request);\n    do\n      \
         MPI_Test(&request, &flag, MPI_STATUS_IGNORE);\n    while (!flag);\n  consume:\n    \
         got = got + 1;\n  }\n}\n",
    );
    let (code, text) = verify_then_replay(&["-n", "2"], &file);
    assert_eq!(code, 3, "{text}");
    assert!(
        text.contains("replay: note: poll outcomes forced"),
        "{text}"
    );
    // Which difference the run shows first depends on the lasso tass picks
    // (since MPI's progress rule prunes some cycles, rank 0's calls may
    // differ first); either way the lasso is not reproduced.
    assert!(
        text.contains("but MPI had its operation ready")
            || text.contains("the concrete run did not reproduce it"),
        "{text}"
    );
}

/// MPI_Sendrecv (up to three steps of its rank) and MPI_Allreduce (one step
/// of all members) on a ring of 3: the sum of the parities passed round is
/// always 1, never 3 or more (mpirun -np 3 with a printf of total: 1 every
/// round).
#[test]
fn an_mpi_lasso_through_sendrecv_and_allreduce_is_replayed() {
    if !installed(&["mpicc", "mpirun", "gdb"]) {
        return;
    }
    let file = common::inline(
        "#include <mpi.h>\nint total;\n#pragma TASS ltl big G F {PROC[0].total >= 3}\n\
         int main(int argc, char **argv) {\n  int rank, size, v, left;\n  MPI_Init(&argc, &argv);\n  \
         MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n  MPI_Comm_size(MPI_COMM_WORLD, &size);\n  \
         v = rank;\n  for (;;) {\n    \
         MPI_Sendrecv(&v, 1, MPI_INT, (rank + 1) % size, 0, &left, 1, MPI_INT,\n                 \
         (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n    \
         v = left % 2;\n    \
         MPI_Allreduce(&v, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);\n  }\n}\n",
    );
    let (code, text) = verify_then_replay(&["-n", "3"], &file);
    assert_reproduced(code, &text, "the run followed the lasso rank by rank");
    assert!(text.contains("{total >= 3} = 0"), "{text}");
}

/// MPI_Iprobe polled until it finds the message (its outcomes forced),
/// MPI_Probe, MPI_Waitall on an MPI_Isend/MPI_Irecv pair and MPI_Reduce:
/// rank 1 sees only 0 and 1, never 2 (mpirun -np 2 with a printf of seen:
/// 0 1 0 1 ...).
#[test]
fn an_mpi_lasso_through_probes_waitall_and_reduce_is_replayed() {
    if !installed(&["mpicc", "mpirun", "gdb"]) {
        return;
    }
    let file = common::inline(
        "#include <mpi.h>\nint seen;\n#pragma TASS ltl two G F {PROC[1].seen == 2}\n\
         int main(int argc, char **argv) {\n  int rank, x = 0, y = 0, sum = 0, flag = 0;\n  \
         MPI_Request r[2];\n  MPI_Init(&argc, &argv);\n  MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n  \
         for (;;) {\n    if (rank == 0) {\n      \
         MPI_Isend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r[0]);\n      \
         MPI_Irecv(&y, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &r[1]);\n      \
         MPI_Waitall(2, r, MPI_STATUSES_IGNORE);\n      \
         MPI_Reduce(&x, &sum, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);\n      \
         x = (x + 1) % 2;\n    } else {\n      \
         do\n        MPI_Iprobe(0, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);\n      \
         while (!flag);\n      \
         MPI_Probe(0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n      \
         MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n      \
         MPI_Send(&y, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);\n      \
         MPI_Reduce(&y, &sum, 1, MPI_INT, MPI_MAX, 0, MPI_COMM_WORLD);\n      \
         seen = y;\n    }\n  }\n}\n",
    );
    let (code, text) = verify_then_replay(&["-n", "2"], &file);
    assert_reproduced(code, &text, "the run followed the lasso rank by rank");
    assert!(
        text.contains("replay: note: poll outcomes forced"),
        "{text}"
    );
}

/// A lasso of a program with a call the replay does not follow is refused
/// by name, not replayed wrongly (gdb is not needed to refuse).
#[test]
fn an_mpi_lasso_with_an_unfollowed_call_is_refused_by_name() {
    let file = common::inline(
        "#include <mpi.h>\nint x;\n#pragma TASS ltl grows G F {PROC[0].x == 3}\n\
         int main(int argc, char **argv) {\n  int rank, v = 0, all[2];\n  MPI_Init(&argc, &argv);\n  \
         MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n  for (;;) {\n    \
         MPI_Gather(&v, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);\n    \
         if (rank == 0)\n      x = (all[1] + 1) % 2;\n  }\n}\n",
    );
    let (code, text) = verify_then_replay(&["-n", "2"], &file);
    assert_eq!(code, 3, "{text}");
    assert!(
        text.contains("replay: cannot replay: the program calls MPI_Gather"),
        "{text}"
    );
}

/// The JSON trace says which MPI call of which process each step is part of
/// (the optional `mpi` list): an `MPI_Ssend` is a `post` and a `complete`
/// step of its rank, a blocking collective one step whose list has every
/// member's `call`, a poll has its outcome. (No MPI installation needed.)
#[test]
fn trace_steps_say_which_mpi_call_and_phase_they_are() {
    let dir = file_dir();
    let trace = dir.join("marks.json");
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "-n", "3"])
        .arg(fevs("mpi/ltl_bcast_ssend_bad.c"))
        .arg("--trace")
        .arg(&trace)
        .output()
        .expect("run tass verify");
    assert_eq!(out.status.code(), Some(1));
    let doc: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&trace).unwrap()).unwrap();
    let marks: Vec<(u64, String, String)> = doc["trace"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["mpi"].as_array().cloned().unwrap_or_default())
        .map(|m| {
            (
                m["process"].as_u64().unwrap(),
                m["call"].as_str().unwrap().to_string(),
                m["phase"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let has = |p: u64, call: &str, phase: &str| marks.contains(&(p, call.into(), phase.into()));
    assert!(has(0, "MPI_Ssend", "post"), "{marks:?}");
    assert!(has(0, "MPI_Ssend", "complete"), "{marks:?}");
    assert!(has(1, "MPI_Recv", "call"), "{marks:?}");
    for p in 0..3 {
        assert!(has(p, "MPI_Barrier", "call"), "{marks:?}");
        assert!(has(p, "MPI_Bcast", "call"), "{marks:?}");
    }
    let file = common::inline(
        "#include <assert.h>\n#include <mpi.h>\nint main(int argc, char **argv) {\n  int rank, x = 0, flag = 0;\n  \
         MPI_Request r;\n  MPI_Init(&argc, &argv);\n  MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n  \
         if (rank == 0) {\n    MPI_Irecv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);\n    \
         MPI_Test(&r, &flag, MPI_STATUS_IGNORE);\n    if (!flag)\n      \
         MPI_Wait(&r, MPI_STATUS_IGNORE);\n    assert(flag);\n  } else\n    \
         MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);\n  MPI_Finalize();\n}\n",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "-n", "2", "--format", "json"])
        .arg(&file)
        .output()
        .expect("run tass verify");
    let doc: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let polls: Vec<&serde_json::Value> = doc["violations"][0]["trace"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|s| s["mpi"].as_array().into_iter().flatten())
        .filter(|m| m["call"] == "MPI_Test")
        .collect();
    assert_eq!(polls.len(), 1, "{doc}");
    assert_eq!(polls[0]["outcome"], "flag 0", "{doc}");
}
