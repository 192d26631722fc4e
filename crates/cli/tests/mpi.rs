//! End-to-end tests of MPI verification: run the built `tass` binary on the
//! fevs/mpi programs and on small inline programs, and check the verdict, the
//! property and the line of the first violation.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{assert_holds, assert_violated, inline, report};
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
    report(out)
}

fn verify(procs: &str, extra: &[&str], file: &Path) -> (i32, Value) {
    let mut args = vec!["verify", "-n", procs];
    args.extend_from_slice(extra);
    let file = file.to_string_lossy().to_string();
    args.push(&file);
    tass(&args)
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
fn unknown_mpi_function_is_an_error_naming_it() {
    let prog = inline(
        r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    MPI_Comm graph;
    int index[1] = {0}, edges[1] = {0};
    MPI_Init(&argc, &argv);
    MPI_Graph_create(MPI_COMM_WORLD, 1, index, edges, 0, &graph);
    MPI_Finalize();
    return 0;
}
"#,
    );
    let (code, r) = verify("1", &[], &prog);
    assert_eq!(code, 2, "{r:#}");
    assert_eq!(r["verdict"], "error");
    assert!(
        r["error"]
            .as_str()
            .unwrap_or("")
            .contains("MPI_Graph_create"),
        "{r:#}"
    );
}

/// A ring exchange with nonblocking calls: each process posts its receive from
/// the left, sends to the right, and completes both with `complete`.
fn nonblocking_ring(complete: &str) -> String {
    format!(
        r#"#include <mpi.h>
#include <assert.h>
int main(int argc, char **argv) {{
  int rank, size, left, right, got = -1, mine;
  MPI_Request reqs[2];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  right = (rank + 1) % size;
  left = (rank + size - 1) % size;
  mine = rank * 10;
  MPI_Irecv(&got, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &reqs[0]);
  MPI_Isend(&mine, 1, MPI_INT, right, 0, MPI_COMM_WORLD, &reqs[1]);
  {complete}
  assert(got == left * 10);
  MPI_Finalize();
  return 0;
}}
"#
    )
}

#[test]
fn nonblocking_ring_with_waitall_holds_under_zero_buffering() {
    let prog = inline(&nonblocking_ring(
        "MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);",
    ));
    let (code, r) = verify("3", &[], &prog);
    assert_holds(code, &r);
}

#[test]
fn nonblocking_ring_with_wait_and_test_loop_holds() {
    let prog = inline(&nonblocking_ring(
        "int done = 0, polls = 0;\n  MPI_Wait(&reqs[1], MPI_STATUS_IGNORE);\n  \
         while (!done && polls < 3) { MPI_Test(&reqs[0], &done, MPI_STATUS_IGNORE); polls++; }\n  \
         if (!done) MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);",
    ));
    let (code, r) = verify("2", &[], &prog);
    assert_holds(code, &r);
}

#[test]
fn a_request_never_completed_is_a_leak_at_its_call() {
    let prog = inline(&nonblocking_ring("MPI_Wait(&reqs[0], MPI_STATUS_IGNORE);"));
    let (code, r) = verify("2", &[], &prog);
    // the MPI_Isend on line 13 is never waited for
    assert_violated(code, &r, "memory-leak", Some(13));
    assert!(
        r["violations"][0]["message"]
            .as_str()
            .unwrap_or("")
            .contains("request leak"),
        "{r:#}"
    );
}

#[test]
fn reading_the_receive_buffer_too_early_is_caught() {
    // the value is read before MPI_Wait: the read itself is local-concurrency
    // (the pending receive owns `got`), and on some schedule it is still -1
    let prog = inline(&nonblocking_ring(
        "assert(got == left * 10);\n  MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);",
    ));
    let (code, r) = verify("2", &[], &prog);
    assert_violated(code, &r, "local-concurrency", Some(14));
    let (_, r) = verify("2", &["--max-violations", "0"], &prog);
    let properties: Vec<&str> = r["violations"]
        .as_array()
        .map(|vs| vs.iter().filter_map(|v| v["property"].as_str()).collect())
        .unwrap_or_default();
    assert!(properties.contains(&"assertion"), "{r:#}");
}

#[test]
fn waiting_on_an_uninitialised_request_is_invalid() {
    let prog = inline(
        r#"#include <mpi.h>
int main(int argc, char **argv) {
  MPI_Request r;
  MPI_Init(&argc, &argv);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
"#,
    );
    let (code, r) = verify("2", &[], &prog);
    assert_violated(code, &r, "invalid-pointer", Some(5));
}

const ISEND_WAIT_THEN_RECV: &str = r#"#include <mpi.h>
int main(int argc, char **argv) {
  int rank, x = 1, y;
  MPI_Request r;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Isend(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Recv(&y, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn waiting_for_an_unreceived_isend_is_a_potential_deadlock_only() {
    let prog = inline(ISEND_WAIT_THEN_RECV);
    let (code, r) = verify("2", &[], &prog);
    assert_violated(code, &r, "deadlock", Some(8));
    let (code, r) = verify("2", &["--deadlock", "absolute"], &prog);
    assert_holds(code, &r);
}

#[test]
fn posted_receives_make_blocking_sends_safe() {
    // Each process posts its receive before a blocking send: no buffering needed.
    let prog = inline(
        r#"#include <mpi.h>
#include <assert.h>
int main(int argc, char **argv) {
  int rank, x, y = 0;
  MPI_Request r;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  x = rank + 5;
  MPI_Irecv(&y, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &r);
  MPI_Send(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  assert(y == 6 - rank);
  MPI_Finalize();
  return 0;
}
"#,
    );
    let (code, r) = verify("2", &[], &prog);
    assert_holds(code, &r);
}

#[test]
fn receives_posted_first_match_first() {
    // Two receives from process 0 with the same tag: MPI matches the first
    // posted one with the first message, whatever the order of the waits.
    let prog = inline(
        r#"#include <mpi.h>
#include <assert.h>
int main(int argc, char **argv) {
  int rank, a = -1, b = -1, one = 1, two = 2;
  MPI_Request r[2];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_Send(&one, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
    MPI_Send(&two, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
  } else {
    MPI_Irecv(&a, 1, MPI_INT, MPI_ANY_SOURCE, 7, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(&b, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &r[1]);
    MPI_Wait(&r[1], MPI_STATUS_IGNORE);
    MPI_Wait(&r[0], MPI_STATUS_IGNORE);
    assert(a == 1 && b == 2);
  }
  MPI_Finalize();
  return 0;
}
"#,
    );
    let (code, r) = verify("2", &[], &prog);
    assert_holds(code, &r);
}

#[test]
fn waitany_takes_whichever_request_is_done() {
    let prog = inline(
        r#"#include <mpi.h>
#include <assert.h>
int main(int argc, char **argv) {
  int rank, size, i, k, sum = 0, vals[4];
  MPI_Request r[4];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) {
    for (i = 1; i < size; i++)
      MPI_Irecv(&vals[i], 1, MPI_INT, i, 0, MPI_COMM_WORLD, &r[i - 1]);
    for (i = 1; i < size; i++) {
      MPI_Waitany(size - 1, r, &k, MPI_STATUS_IGNORE);
      assert(0 <= k && k < size - 1);
      sum += vals[k + 1];
    }
    MPI_Waitany(size - 1, r, &k, MPI_STATUS_IGNORE);
    assert(k == MPI_UNDEFINED);
    assert(sum == 1 + 4 + 9);
  } else {
    int sq = rank * rank;
    MPI_Send(&sq, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
"#,
    );
    let (code, r) = verify("4", &[], &prog);
    assert_holds(code, &r);
}

#[test]
fn probe_then_receive_a_message_of_unknown_length() {
    let prog = |slack: &str| {
        inline(&format!(
            r#"#include <mpi.h>
#include <stdlib.h>
#include <assert.h>
int main(int argc, char **argv) {{
  int rank, n, i;
  MPI_Status st;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {{
    int data[3] = {{4, 5, 6}};
    MPI_Send(data, 3, MPI_INT, 1, 2, MPI_COMM_WORLD);
  }} else {{
    MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    MPI_Get_count(&st, MPI_INT, &n);
    assert(n == 3 && st.MPI_SOURCE == 0 && st.MPI_TAG == 2);
    int *buf = (int *)malloc((n{slack}) * sizeof(int));
    MPI_Recv(buf, n{slack}, MPI_INT, st.MPI_SOURCE, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (i = 0; i < n{slack}; i++) assert(buf[i] == 4 + i);
    free(buf);
  }}
  MPI_Finalize();
  return 0;
}}
"#
        ))
    };
    let (code, r) = verify("2", &[], &prog(""));
    assert_holds(code, &r);
    let (code, r) = verify("2", &[], &prog(" - 1"));
    assert_violated(code, &r, "buffer-overflow", Some(17));
}

#[test]
fn iprobe_may_see_no_message_yet() {
    let prog = inline(
        r#"#include <mpi.h>
#include <assert.h>
int main(int argc, char **argv) {
  int rank, flag = 0, x = 3, y;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
  } else {
    MPI_Iprobe(0, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
    assert(flag);
    MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
"#,
    );
    let (code, r) = verify("2", &[], &prog);
    assert_violated(code, &r, "assertion", Some(11));
}

#[test]
fn sendrecv_replace_shifts_a_ring() {
    let prog = inline(
        r#"#include <mpi.h>
#include <assert.h>
int main(int argc, char **argv) {
  int rank, size, v[2];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  v[0] = rank; v[1] = 2 * rank;
  MPI_Sendrecv_replace(v, 2, MPI_INT, (rank + 1) % size, 0, (rank + size - 1) % size, 0,
                       MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  assert(v[0] == (rank + size - 1) % size && v[1] == 2 * v[0]);
  MPI_Finalize();
  return 0;
}
"#,
    );
    let (code, r) = verify("3", &[], &prog);
    assert_holds(code, &r);
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

#[test]
fn synchronous_sends_deadlock_even_when_sends_can_buffer() {
    // Both processes send first: with MPI_Send only a zero-buffer MPI deadlocks,
    // with MPI_Ssend / MPI_Issend + MPI_Wait every MPI does.
    let exchange = |send: &str| {
        inline(&format!(
            r#"#include <mpi.h>
int main(int argc, char **argv) {{
  int rank, x = 1, y;
  MPI_Request r;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  {send}
  MPI_Recv(&y, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}}
"#
        ))
    };
    let standard = exchange("MPI_Send(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);");
    let (code, r) = verify("2", &["--deadlock", "absolute"], &standard);
    assert_holds(code, &r);
    let (code, r) = verify("2", &[], &standard);
    assert_violated(code, &r, "deadlock", Some(7));
    // MPI_Bsend uses the program's attached buffer: it never waits (a
    // buffered send needs one attached: mpi_groups.rs; mpirun -np 2 of this
    // form, default and zero-buffer: exit 0)
    let buffered = exchange(
        "static char b[200]; MPI_Buffer_attach(b, 200); \
         MPI_Bsend(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);",
    );
    let (code, r) = verify("2", &[], &buffered);
    assert_holds(code, &r);
    for send in [
        "MPI_Ssend(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);",
        "MPI_Issend(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &r); MPI_Wait(&r, MPI_STATUS_IGNORE);",
    ] {
        let prog = exchange(send);
        for mode in ["absolute", "potential"] {
            let (code, r) = verify("2", &["--deadlock", mode], &prog);
            assert_violated(code, &r, "deadlock", Some(7));
        }
    }
}

#[test]
fn synchronous_send_to_a_waiting_receiver_holds() {
    let prog = inline(
        r#"#include <mpi.h>
#include <assert.h>
int main(int argc, char **argv) {
  int rank, x = 7, y = 0;
  MPI_Request r;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_Ssend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Issend(&x, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&y, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    assert(y == 7);
  }
  MPI_Finalize();
  return 0;
}
"#,
    );
    for mode in ["absolute", "potential"] {
        let (code, r) = verify("2", &["--deadlock", mode], &prog);
        assert_holds(code, &r);
    }
}

/// Polling loops (`MPI_Test`, `MPI_Iprobe`) revisit the same state until another
/// process moves: the reduction must not stop exploring there (cycle proviso),
/// or the bug after the loop would go unseen.
#[test]
fn bugs_after_unbounded_polling_loops_are_found() {
    let poll = |wait: &str| {
        inline(&format!(
            r#"#include <mpi.h>
#include <assert.h>
int main(int argc, char **argv) {{
  int rank, flag = 0, x = 0, y = 5;
  MPI_Request r;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {{
    {wait}
    assert(x != 5); /* BUG: x is 5 */
  }} else {{
    MPI_Send(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  }}
  MPI_Finalize();
  return 0;
}}
"#
        ))
    };
    for wait in [
        "MPI_Irecv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r); while (!flag) MPI_Test(&r, &flag, MPI_STATUS_IGNORE);",
        "while (!flag) MPI_Iprobe(1, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE); MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);",
    ] {
        let prog = poll(wait);
        for mode in ["potential", "absolute"] {
            let (code, r) = verify("2", &["--deadlock", mode], &prog);
            assert_violated(code, &r, "assertion", Some(10));
            if wait.contains("MPI_Test") {
                // the trace shows when the posted receive took its message
                let trace = r["violations"][0]["trace"].to_string();
                assert!(
                    trace.contains("the posted receive takes the message from process 1"),
                    "{trace}"
                );
            }
        }
    }
}

#[test]
fn comm_self_holds_just_the_calling_process() {
    let prog = inline(
        r#"#include <mpi.h>
#include <assert.h>
int main(int argc, char **argv) {
  int rank, me = -1, size = -1, x, y = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_rank(MPI_COMM_SELF, &me);
  MPI_Comm_size(MPI_COMM_SELF, &size);
  assert(me == 0 && size == 1);
  x = 10 + rank;
  MPI_Sendrecv(&x, 1, MPI_INT, 0, 3, &y, 1, MPI_INT, 0, 3, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  assert(y == 10 + rank);
  MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_SELF); /* BUG: rank 1 of a 1-process communicator */
  MPI_Finalize();
  return 0;
}
"#,
    );
    let (code, r) = verify("2", &[], &prog);
    assert_violated(code, &r, "mpi-rank", Some(13));
}

// ---------------------------------------------------------------------------
// Pair datatypes (MPI_DOUBLE_INT, MPI_2INT) in point-to-point calls
// ---------------------------------------------------------------------------

/// Structs, flat `int` pairs, a symbolic value, `MPI_Sendrecv`, `MPI_Isend` and
/// `MPI_Irecv`: the pairs arrive whole, in order.
#[test]
fn pair_datatypes_travel_point_to_point() {
    let prog = common::program(
        "#pragma TASS input\ndouble x;\nstruct dbl_int { double v; int i; };",
        r#"    struct dbl_int s[2], r[2];
    int a[4], b[4], n;
    MPI_Request req;
    MPI_Status st;
    if (rank == 0) {
        s[0].v = x; s[0].i = 7; s[1].v = 2.5; s[1].i = -1;
        a[0] = 1; a[1] = 2; a[2] = 3; a[3] = 4;
        MPI_Send(s, 2, MPI_DOUBLE_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Isend(a, 2, MPI_2INT, 1, 1, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Recv(r, 2, MPI_DOUBLE_INT, 0, 0, MPI_COMM_WORLD, &st);
        MPI_Get_count(&st, MPI_DOUBLE_INT, &n);
        assert(n == 2 && r[0].v == x && r[0].i == 7 && r[1].v == 2.5 && r[1].i == -1);
        MPI_Recv(b, 2, MPI_2INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(b[0] == 1 && b[1] == 2 && b[2] == 3 && b[3] == 4);
    }
    if (rank == 0) {
        MPI_Send(s, 2, MPI_DOUBLE_INT, 2, 3, MPI_COMM_WORLD);
    } else if (rank == 2) {
        MPI_Irecv(r, 2, MPI_DOUBLE_INT, 0, 3, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        assert(r[0].v == x && r[0].i == 7 && r[1].v == 2.5 && r[1].i == -1);
    }
    if (rank < 2) {
        s[0].v = rank; s[0].i = 10 * rank;
        MPI_Sendrecv(s, 1, MPI_DOUBLE_INT, 1 - rank, 2, r, 1, MPI_DOUBLE_INT, 1 - rank, 2,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(r[0].v == 1 - rank && r[0].i == 10 * (1 - rank));
    }"#,
    );
    let (code, r) = common::verify("3", &[], &prog);
    assert_holds(code, &r);
    // The same program with a wrong expectation about the symbolic value.
    let wrong = prog.replace(
        "r[0].v == x && r[0].i == 7",
        "r[0].v == x + 1 && r[0].i == 7",
    );
    assert_ne!(wrong, prog);
    let (code, r) = common::verify("3", &[], &wrong);
    // Two more lines of declarations than `BODY` counts on.
    common::assert_violated(code, &r, "assertion", Some(common::BODY + 2 + 13));
}

/// Pairs received as plain doubles, `MPI_2INT` as `MPI_DOUBLE_INT`, and more
/// pairs than the receive holds.
#[test]
fn pair_datatype_mismatches_and_overflows_are_reported() {
    let send = r#"    struct { double v; int i; } s[2], r[2];
    double d[4];
    s[0].v = 1; s[0].i = 1; s[1].v = 2; s[1].i = 2;
    if (rank == 0) MPI_Send(s, 2, MPI_DOUBLE_INT, 1, 0, MPI_COMM_WORLD);
"#;
    for (receive, property) in [
        (
            "    if (rank == 1) MPI_Recv(d, 4, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);",
            "mpi-type",
        ),
        (
            "    if (rank == 1) MPI_Recv(r, 2, MPI_2INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);",
            "mpi-type",
        ),
        (
            "    if (rank == 1) MPI_Recv(r, 1, MPI_DOUBLE_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);",
            "buffer-overflow",
        ),
    ] {
        let prog = common::program("", &format!("{send}{receive}"));
        let (code, r) = common::verify("2", &[], &prog);
        common::assert_violated(code, &r, property, Some(common::BODY + 4));
    }
}

/// `MPI_Abort` is reported (as an `assertion`: the program aborts) on the paths
/// that reach it, with the inputs that lead there; inputs constrained away
/// from it make the program hold.
#[test]
fn mpi_abort_is_a_violation_where_it_is_reached() {
    let program = |limit: u32| {
        format!(
            r#"#include <mpi.h>
#pragma TASS input {{0 <= n && n <= 4}} int
int n;
int main(int argc, char *argv[]) {{
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1 && n > {limit})
        MPI_Abort(MPI_COMM_WORLD, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}}
"#
        )
    };
    let (code, r) = verify("3", &[], &inline(&program(2)));
    assert_violated(code, &r, "assertion", Some(9));
    let v = &r["violations"][0];
    assert_eq!(v["process"], 1, "{r:#}");
    assert!(
        v["message"].as_str().unwrap_or("").contains("MPI_Abort"),
        "{r:#}"
    );
    let n = v["witness"]["n"].as_i64().unwrap_or(-1);
    assert!((3..=4).contains(&n), "{r:#}");
    let (code, r) = verify("3", &[], &inline(&program(4)));
    assert_holds(code, &r);
}

/// `MPI_Wtime` returns a fresh value that never decreases on a process: a later
/// call is at least the earlier one, but not necessarily larger.
#[test]
fn mpi_wtime_is_a_nondecreasing_input() {
    let program = |claim: &str| {
        format!(
            r#"#include <mpi.h>
#include <assert.h>
int main(int argc, char *argv[]) {{
    double t0, t1;
    MPI_Init(&argc, &argv);
    t0 = MPI_Wtime();
    MPI_Barrier(MPI_COMM_WORLD);
    t1 = MPI_Wtime();
    assert({claim});
    MPI_Finalize();
    return 0;
}}
"#
        )
    };
    let (code, r) = verify("2", &[], &inline(&program("t1 >= t0 && t0 >= 0")));
    assert_holds(code, &r);
    let (code, r) = verify("2", &[], &inline(&program("t1 > t0")));
    assert_violated(code, &r, "assertion", Some(9));
    // The report names one set of clock values: the claim's and the
    // witness's are those of the path condition (the trace is a second
    // execution, whose fresh values have other names than the search's).
    let v = &r["violations"][0];
    let names = |text: &str| -> Vec<String> {
        text.split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
            .filter(|w| w.starts_with("MPI_Wtime"))
            .map(str::to_string)
            .collect()
    };
    let pc = names(v["path_condition"].as_str().unwrap_or(""));
    let claim = names(v["claim"].as_str().unwrap_or(""));
    let witness: Vec<String> = v["witness"]
        .as_object()
        .map(|m| m.keys().cloned().collect())
        .unwrap_or_default();
    assert!(!claim.is_empty(), "{r:#}");
    for name in claim.iter().chain(&witness) {
        assert!(
            pc.contains(name),
            "{name} is not in the path condition\n{r:#}"
        );
    }
}

/// `MPI_Rsend` is a standard send: two ranks that both send first are a
/// potential deadlock (no buffering), not an absolute one.
#[test]
fn rsend_is_a_standard_send() {
    let file = inline(
        r#"#include <mpi.h>
#include <assert.h>
int main(int argc, char *argv[]) {
    int rank, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        x = 42;
        MPI_Rsend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Rsend(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(x == 42);
    }
    MPI_Finalize();
    return 0;
}
"#,
    );
    let (code, r) = verify("2", &[], &file);
    assert_violated(code, &r, "deadlock", None);
    let (code, r) = verify("2", &["--deadlock", "absolute"], &file);
    assert_holds(code, &r);
}

/// Rank 0 receives from `s` (an input) and then from the other worker; with
/// `s <= 3` on three processes it may wait for rank 2, which never sends.
fn receive_from_input(max: u32, both_send: bool) -> String {
    format!(
        r#"#include <mpi.h>
#pragma TASS input {{1 <= s && s <= {max}}} int
int s;
int main(int argc, char *argv[]) {{
    int rank, x = 7, y = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {{
        MPI_Recv(&y, 1, MPI_INT, s, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if ({both_send})
            MPI_Recv(&y, 1, MPI_INT, 3 - s, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }} else if ({both_send} || rank == 1) {{
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }}
    MPI_Finalize();
    return 0;
}}
"#,
        both_send = u8::from(both_send)
    )
}

/// A receive whose source depends on the inputs splits the path before any
/// message is matched: the deadlock test then sees one source per path. (With
/// one state for every source, a send that one source would take hid the
/// deadlock of another: rank 0 waiting for rank 2 was reported to hold with
/// absolute deadlocks, and a zero-buffer deadlock was reported where none is.)
#[test]
fn a_receive_from_an_input_rank_is_checked_per_rank() {
    let fine = inline(&receive_from_input(2, true));
    for mode in ["potential", "absolute"] {
        let (code, r) = verify("3", &["--deadlock", mode], &fine);
        assert_holds(code, &r);
    }
    let stuck = inline(&receive_from_input(2, false));
    for mode in ["potential", "absolute"] {
        let (code, r) = verify("3", &["--deadlock", mode], &stuck);
        assert_violated(code, &r, "deadlock", Some(9));
        assert_eq!(r["violations"][0]["witness"]["s"], 2, "{mode}: {r:#}");
    }
}

/// Tags that depend on the inputs (bounded): one path per value.
#[test]
fn input_dependent_tags_split_the_path() {
    let program = |receive_tag: &str, bound: bool| {
        let constraint = if bound { "{0 <= t && t <= 2} " } else { "" };
        inline(&format!(
            r#"#include <mpi.h>
#include <assert.h>
#pragma TASS input {constraint}int
int t;
int main(int argc, char *argv[]) {{
    int rank, x = 1;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Send(&x, 1, MPI_INT, 1, t, MPI_COMM_WORLD);
    else if (rank == 1) {{
        MPI_Recv(&x, 1, MPI_INT, 0, {receive_tag}, MPI_COMM_WORLD, &st);
        assert(st.MPI_TAG == t);
    }}
    MPI_Finalize();
    return 0;
}}
"#
        ))
    };
    for mode in ["potential", "absolute"] {
        for tag in ["MPI_ANY_TAG", "t"] {
            let (code, r) = verify("2", &["--deadlock", mode], &program(tag, true));
            assert_holds(code, &r);
        }
        // Tag 0 is received; 1 and 2 are not.
        let (code, r) = verify("2", &["--deadlock", mode], &program("0", true));
        assert_violated(code, &r, "deadlock", None);
        let t = r["violations"][0]["witness"]["t"].as_i64().unwrap_or(-1);
        assert!(t == 1 || t == 2, "{mode}: {r:#}");
        // The receive's tag depends on the inputs too: they meet only at t = 1.
        let (code, r) = verify("2", &["--deadlock", mode], &program("2 - t", true));
        assert_violated(code, &r, "deadlock", None);
        let t = r["violations"][0]["witness"]["t"].as_i64().unwrap_or(-1);
        assert!(t == 0 || t == 2, "{mode}: {r:#}");
    }
    // Unbounded: too many paths, said so.
    let (code, r) = verify("2", &[], &program("t", false));
    assert_eq!(code, 2, "{r:#}");
    let error = r["error"].as_str().unwrap_or("");
    assert!(error.contains("tag that depends on the inputs"), "{r:#}");
}

/// The jump out of a branch is labelled as the end of its `if`: a process
/// that skipped the branch is not shown executing the branch's last statement.
#[test]
fn a_trace_does_not_show_a_branch_the_process_skipped() {
    let file = inline(
        r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    int rank, x = 7;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Recv(&x, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#,
    );
    let (code, r) = verify("3", &["--deadlock", "absolute"], &file);
    assert_violated(code, &r, "deadlock", Some(7));
    let trace = r["violations"][0]["trace"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let sends = |p: u64| {
        trace
            .iter()
            .filter(|s| {
                s["process"] == p && s["source"].as_str().unwrap_or("").contains("MPI_Send")
            })
            .count()
    };
    assert_eq!(sends(2), 0, "{r:#}");
    assert_eq!(sends(1), 1, "{r:#}");
}
