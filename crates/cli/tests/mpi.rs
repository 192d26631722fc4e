//! End-to-end tests of MPI verification: run the built `tass` binary on the
//! fevs/mpi programs and on small inline programs, and check the verdict, the
//! property and the line of the first violation.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU32, Ordering};

use serde_json::Value;

fn fevs(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fevs/mpi")
        .join(name)
}

/// Runs `tass ARGS --format json` and returns (exit status, JSON report).
fn tass(args: &[&str]) -> (i32, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(args)
        .args(["--format", "json"])
        .output()
        .expect("run tass");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let json = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}):\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap_or(-1), json)
}

fn verify(procs: &str, extra: &[&str], file: &Path) -> (i32, Value) {
    let mut args = vec!["verify", "-n", procs];
    args.extend_from_slice(extra);
    let file = file.to_string_lossy().to_string();
    args.push(&file);
    tass(&args)
}

fn assert_holds(code: i32, report: &Value) {
    assert_eq!(report["verdict"], "holds", "{report:#}");
    assert_eq!(code, 0);
}

fn assert_violated(code: i32, report: &Value, property: &str, line: Option<u64>) {
    assert_eq!(report["verdict"], "violated", "{report:#}");
    assert_eq!(code, 1);
    let v = &report["violations"][0];
    assert_eq!(v["property"], property, "{report:#}");
    if let Some(line) = line {
        assert_eq!(v["line"], line, "{report:#}");
    }
}

/// A C file with `text` in a fresh folder.
fn inline(text: &str) -> PathBuf {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "tass-mpi-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::SeqCst)
    ));
    std::fs::create_dir_all(&dir).expect("create scratch folder");
    let path = dir.join("prog.c");
    std::fs::write(&path, text).expect("write program");
    path
}

#[test]
fn ring_holds() {
    let (code, r) = verify("3", &["-i", "BR=2"], &fevs("ring_ok.c"));
    assert_holds(code, &r);
}

#[test]
fn ring_bad_is_a_potential_deadlock_but_not_an_absolute_one() {
    let (code, r) = verify("3", &["-i", "BR=2"], &fevs("ring_bad.c"));
    assert_violated(code, &r, "deadlock", Some(38));
    let message = r["violations"][0]["message"].as_str().unwrap_or("");
    assert!(message.contains("MPI_Send"), "{message}");
    let (code, r) = verify(
        "3",
        &["-i", "BR=2", "--deadlock", "absolute"],
        &fevs("ring_bad.c"),
    );
    assert_holds(code, &r);
}

#[test]
fn receive_before_send_deadlocks() {
    let (code, r) = verify("2", &[], &fevs("deadlock_recv_bad.c"));
    assert_violated(code, &r, "deadlock", Some(30));
    let (code, r) = verify("2", &[], &fevs("deadlock_recv_ok.c"));
    assert_holds(code, &r);
}

#[test]
fn bad_rank_is_reported() {
    let (code, r) = verify("3", &[], &fevs("rank_bad.c"));
    assert_violated(code, &r, "mpi-rank", Some(28));
}

#[test]
fn negative_count_is_reported() {
    let (code, r) = verify("2", &["-i", "B=3"], &fevs("count_bad.c"));
    assert_violated(code, &r, "mpi-count", Some(40));
}

#[test]
fn overflow_and_type_mismatch_are_reported() {
    let (code, r) = verify("2", &["-i", "B=2"], &fevs("overflow_bad.c"));
    assert_violated(code, &r, "buffer-overflow", Some(44));
    let (code, r) = verify("2", &["-i", "B=2"], &fevs("type_bad.c"));
    assert_violated(code, &r, "mpi-type", Some(39));
}

#[test]
fn collective_mismatch_is_reported() {
    let (code, r) = verify("3", &[], &fevs("collective_bad.c"));
    assert_violated(code, &r, "collective-mismatch", None);
    let (code, r) = verify("3", &[], &fevs("collective_ok.c"));
    assert_holds(code, &r);
}

#[test]
fn missing_finalize_and_unreceived_messages_are_reported() {
    let (code, r) = verify("3", &["-i", "B=4"], &fevs("init_finalize_bad.c"));
    assert_violated(code, &r, "mpi-init-finalize", None);
    let (code, r) = verify("3", &["--deadlock", "none"], &fevs("unreceived_bad.c"));
    assert_violated(code, &r, "unreceived-message", None);
}

#[test]
fn wildcard_receive_considers_every_sender() {
    let (code, r) = verify("3", &[], &fevs("wildcard_race_bad.c"));
    assert_violated(code, &r, "assertion", Some(36));
}

#[test]
fn adder_compare() {
    let spec = fevs("adder_seq.c").to_string_lossy().to_string();
    let good = fevs("adder_par.c").to_string_lossy().to_string();
    let bad = fevs("adder_par_bad.c").to_string_lossy().to_string();
    let (code, r) = tass(&[
        "compare",
        "--spec",
        &spec,
        "--impl",
        &good,
        "--impl-procs",
        "3",
        "-i",
        "B=4",
    ]);
    assert_holds(code, &r);
    let (code, r) = tass(&[
        "compare",
        "--spec",
        &spec,
        "--impl",
        &bad,
        "--impl-procs",
        "3",
        "-i",
        "B=4",
    ]);
    assert_violated(code, &r, "not-equivalent", None);
}

#[test]
fn status_get_count_and_proc_null() {
    let prog = inline(
        r#"#include <mpi.h>
#include <assert.h>
int main(int argc, char *argv[]) {
    int rank, size, got, x[3] = {7, 8, 9}, y[3];
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    assert(size == 2);
    if (rank == 0) {
        MPI_Send(x, 2, MPI_INT, 1, 5, MPI_COMM_WORLD);
    } else {
        MPI_Recv(y, 3, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_INT, &got);
        assert(got == 2 && st.MPI_SOURCE == 0 && st.MPI_TAG == 5);
        assert(y[0] == 7 && y[1] == 8);
    }
    MPI_Send(x, 1, MPI_INT, MPI_PROC_NULL, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
"#,
    );
    let (code, r) = verify("2", &[], &prog);
    assert_holds(code, &r);
}

#[test]
fn collectives_compute_sums_and_broadcasts() {
    let prog = inline(
        r#"#include <mpi.h>
#include <assert.h>
int main(int argc, char *argv[]) {
    int rank, size, v, s = 0, b = 0, all[3], mine[2], back;
    double d, m;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    v = rank + 1;
    MPI_Allreduce(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    assert(s == 6);
    if (rank == 1) b = 42;
    MPI_Bcast(&b, 1, MPI_INT, 1, MPI_COMM_WORLD);
    assert(b == 42);
    d = rank;
    MPI_Reduce(&d, &m, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
    if (rank == 0) assert(m == 2.0);
    MPI_Gather(&v, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (rank == 0) assert(all[0] == 1 && all[1] == 2 && all[2] == 3);
    MPI_Scatter(all, 1, MPI_INT, &back, 1, MPI_INT, 0, MPI_COMM_WORLD);
    assert(back == v);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
"#,
    );
    let (code, r) = verify("3", &[], &prog);
    assert_holds(code, &r);
}

#[test]
fn unimplemented_mpi_function_is_an_error_naming_it() {
    let prog = inline(
        r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    MPI_Request req;
    int x = 1;
    MPI_Init(&argc, &argv);
    MPI_Isend(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
    MPI_Finalize();
    return 0;
}
"#,
    );
    let (code, r) = verify("1", &[], &prog);
    assert_eq!(code, 2, "{r:#}");
    assert_eq!(r["verdict"], "error");
    assert!(
        r["error"].as_str().unwrap_or("").contains("MPI_Isend"),
        "{r:#}"
    );
}

#[test]
fn call_before_init_is_reported() {
    let prog = inline(
        r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Init(&argc, &argv);
    MPI_Finalize();
    return 0;
}
"#,
    );
    let (code, r) = verify("2", &[], &prog);
    assert_violated(code, &r, "mpi-init-finalize", Some(4));
}
