//! Deadlocks hidden behind polling loops (issue 14, item 4): a state from
//! which no process can make progress although steps are enabled, because
//! every step left is an `MPI_Test`/`MPI_Testall`/`MPI_Iprobe` that finds
//! nothing or local code leading back to one. tass reports it as `deadlock`
//! (under the same `--deadlock` switch), and the correct twins, whose loops
//! end in every schedule, hold. Each program runs with the reduction on and
//! off (`--por off`), which must agree.
//!
//! Every expected verdict was confirmed by running the program for real:
//! `mpicc` then `mpirun --allow-run-as-root --oversubscribe -np 2` under
//! `timeout 20`, with the default configuration and with the zero-buffer one
//! (`--mca btl self,tcp --mca btl_tcp_eager_limit 56 --mca
//! btl_tcp_rndv_eager_limit 56`).
//! The status of each run is in the comment of its program. A hang under
//! the zero-buffer configuration and not under the default one is what
//! `--deadlock potential` reports and `--deadlock absolute` does not.

mod common;

use common::{inline, reduced_and_full, verify_reduced};

/// Runs `text` on 2 processes with `--deadlock MODE`, reduced and full: a
/// `deadlock` at `line` ("no process can make progress"), or holds.
fn expect(text: &str, mode: &str, line: Option<u64>) {
    expect_on("2", text, mode, line);
}

/// [`expect`] on `procs` processes.
fn expect_on(procs: &str, text: &str, mode: &str, line: Option<u64>) {
    let extra = ["--deadlock", mode];
    match line {
        None => {
            reduced_and_full(procs, &extra, text, "holds", "");
        }
        Some(line) => {
            reduced_and_full(procs, &extra, text, "violated", "deadlock");
            let file = inline(text);
            for reduced in [true, false] {
                let (_, r) = verify_reduced(procs, &extra, &file, reduced);
                let v = &r["violations"][0];
                assert_eq!(v["line"], line, "mode {mode}, reduced {reduced}: {r:#}");
                let message = v["message"].as_str().unwrap_or("");
                assert!(message.starts_with("no process can make progress"), "{r:#}");
            }
        }
    }
}

/// Both ranks `MPI_Isend` to each other and spin on `MPI_Test` of their send
/// before receiving (issue 14, item 4). With zero buffering neither send can
/// complete before its receive is posted, and no receive is posted: the tests
/// fail forever. With buffering the sends complete and the program ends.
///
/// mpirun, np 2: default: exits 0; zero-buffer: hangs (killed by timeout, status 124).
const ISEND_TEST_LOOP: &str = r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    int rank, x, y = 0, flag = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    x = rank;
    MPI_Isend(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &req);
    while (!flag)
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    MPI_Recv(&y, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
"#;

/// The same with two sends per rank and `MPI_Testall`.
///
/// mpirun, np 2: default: exits 0; zero-buffer: hangs (status 124).
const ISEND_TESTALL_LOOP: &str = r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    int rank, x[2], y[2], flag = 0;
    MPI_Request req[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    x[0] = rank; x[1] = -rank;
    MPI_Isend(&x[0], 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(&x[1], 1, MPI_INT, 1 - rank, 1, MPI_COMM_WORLD, &req[1]);
    while (!flag)
        MPI_Testall(2, req, &flag, MPI_STATUSES_IGNORE);
    MPI_Recv(&y[0], 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&y[1], 1, MPI_INT, 1 - rank, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
"#;

/// The correct twin: each rank posts its `MPI_Irecv` before its `MPI_Isend`,
/// then spins on `MPI_Testall` of both. The receives are posted, so the sends
/// complete even with zero buffering.
///
/// mpirun, np 2: default: exits 0; zero-buffer: exits 0.
const IRECV_FIRST_TEST_LOOP: &str = r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    int rank, x, y = 0, flag = 0;
    MPI_Request req[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    x = rank;
    MPI_Irecv(&y, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Isend(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &req[1]);
    while (!flag)
        MPI_Testall(2, req, &flag, MPI_STATUSES_IGNORE);
    MPI_Finalize();
    return 0;
}
"#;

/// A correct polling loop: rank 0 spins on `MPI_Test` of an `MPI_Irecv` while
/// rank 1 computes, then sends. The spinning cycle exists (rank 0 can test
/// forever while rank 1 computes) but rank 1 can still move: not a livelock.
///
/// mpirun, np 2: default: exits 0; zero-buffer: exits 0.
const IRECV_TEST_LOOP_LATE_SEND: &str = r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    int rank, x = 0, y = 0, flag = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Irecv(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &req);
        while (!flag)
            MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    } else {
        for (int i = 0; i < 5; i++)
            x += i;
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

/// Both ranks spin on `MPI_Test` of an `MPI_Irecv` whose message the other
/// sends only after its own loop: stuck whatever the buffering.
///
/// mpirun, np 2: default: hangs (status 124); zero-buffer: hangs (status 124).
const IRECV_TEST_LOOP_BOTH: &str = r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    int rank, x, y = 0, flag = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    x = rank;
    MPI_Irecv(&y, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &req);
    while (!flag)
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    MPI_Send(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
"#;

/// Rank 0 spins on `MPI_Iprobe` for tag 1; rank 1 sends tag 2: the probe never
/// finds a message.
///
/// mpirun, np 2: default: hangs (status 124); zero-buffer: hangs (status 124).
const IPROBE_WRONG_TAG: &str = r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    int rank, x = 7, y = 0, flag = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        while (!flag)
            MPI_Iprobe(1, 1, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        MPI_Recv(&y, 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(&x, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

/// The correct twin: rank 1 sends tag 1 with a blocking `MPI_Send`. With zero
/// buffering the send blocks, but it has started and the probe sees it (the
/// zero-buffer run ends), so it is no livelock in potential mode either.
///
/// mpirun, np 2: default: exits 0; zero-buffer: exits 0.
const IPROBE_RIGHT_TAG: &str = r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    int rank, x = 7, y = 0, flag = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        while (!flag)
            MPI_Iprobe(1, 1, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        MPI_Recv(&y, 1, MPI_INT, 1, MPI_ANY_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(&x, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

/// Rank 0 spins on `MPI_Test` of an `MPI_Ibarrier` that rank 1 posts only after
/// receiving a message rank 0 sends after its loop.
///
/// mpirun, np 2: default: hangs (status 124); zero-buffer: hangs (status 124).
const IBARRIER_TEST_LOOP: &str = r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    int rank, x = 3, y = 0, flag = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Ibarrier(MPI_COMM_WORLD, &req);
        while (!flag)
            MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Ibarrier(MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"#;

/// The correct twin: rank 1 posts its `MPI_Ibarrier` before receiving.
///
/// mpirun, np 2: default: exits 0; zero-buffer: exits 0.
const IBARRIER_TEST_LOOP_OK: &str = r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    int rank, x = 3, y = 0, flag = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Ibarrier(MPI_COMM_WORLD, &req);
        while (!flag)
            MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Ibarrier(MPI_COMM_WORLD, &req);
        MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"#;

/// Rank 0 spins on `MPI_Test` of its `MPI_Isend`, rank 1 waits for its own with
/// `MPI_Wait`; both receive afterwards. Neither the potential-deadlock test (a
/// test never blocks) nor a cycle of one process alone shows it: with zero
/// buffering rank 0 spins and rank 1 stays blocked.
///
/// mpirun, default: exits 0; zero-buffer: hangs (status 124).
const MIXED_WAIT_TEST: &str = r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    int rank, x, y = 0, flag = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    x = rank;
    MPI_Isend(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &req);
    if (rank == 0) {
        while (!flag)
            MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    } else {
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    MPI_Recv(&y, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
"#;

/// A ring of three: each rank `MPI_Isend`s to the next and spins on `MPI_Test`
/// (doing local work that comes back to the same values every three rounds)
/// before receiving from the previous one.
///
/// mpirun, np 3, default: exits 0; zero-buffer: hangs (status 124).
const RING_TEST_LOOP: &str = r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    int rank, size, x, y = 0, flag = 0, k = 1;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    x = rank;
    MPI_Isend(&x, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD, &req);
    while (!flag) {
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        k = (k * 2) % 7;
    }
    MPI_Recv(&y, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
"#;

/// A manager polls `MPI_Iprobe(MPI_ANY_SOURCE)` for `size` messages but only
/// `size - 1` workers send: after the last one it spins for ever.
///
/// mpirun, np 3, default: hangs (status 124); zero-buffer: hangs (status 124).
const ANY_SOURCE_IPROBE: &str = r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    int rank, size, x = 1, y = 0, flag = 0, got = 0;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        while (got < size) {
            flag = 0;
            while (!flag)
                MPI_Iprobe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &flag, &st);
            MPI_Recv(&y, 1, MPI_INT, st.MPI_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            got++;
        }
    } else {
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

/// The correct twin: the manager polls for `size - 1` messages. The workers'
/// blocking `MPI_Send`s need a buffer until the manager receives, but the probe
/// sees them.
///
/// mpirun, np 3, default: exits 0; zero-buffer: exits 0.
const ANY_SOURCE_IPROBE_OK: &str = r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    int rank, size, x = 1, y = 0, flag = 0, got = 0;
    MPI_Status st;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        while (got < size - 1) {
            flag = 0;
            while (!flag)
                MPI_Iprobe(MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &flag, &st);
            MPI_Recv(&y, 1, MPI_INT, st.MPI_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            got++;
        }
    } else {
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

/// No loop at all: each rank tests its `MPI_Isend` once and waits for it only
/// if the test found it incomplete, then receives. With zero buffering both
/// tests find nothing and both waits block; the search alone, which takes a
/// test of a buffered send as succeeding, would miss it (the wait is then on
/// `MPI_REQUEST_NULL`).
///
/// mpirun, np 2: default: exits 0; zero-buffer: hangs (status 124).
const TEST_THEN_WAIT: &str = r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    int rank, x, y = 0, flag = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    x = rank;
    MPI_Isend(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &req);
    MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    if (!flag)
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Recv(&y, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
"#;

/// Rank 0 loops for ever without communicating (`while (1);`) while rank 1
/// polls for its message with `MPI_Iprobe`: no process can make progress,
/// reported at rank 1's probe. (A sequential endless loop alone is not
/// reported: see `sequential_endless_loop_is_not_reported`.)
///
/// mpirun, np 2: default: hangs (status 124); zero-buffer: hangs (status 124).
const SPIN_NEXT_TO_POLL: &str = r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    int rank, flag = 0, y;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        while (1)
            ;
    else {
        while (!flag)
            MPI_Iprobe(0, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
        MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"#;

/// A sequential endless loop that communicates nothing. Today's behaviour,
/// kept: non-termination is not a property tass checks; the loop comes back
/// to a state it was in, so the search ends there, and the program holds.
///
/// `gcc -g -fsanitize=address,undefined`: runs until killed (`timeout 5`,
/// status 124), no sanitizer report.
const SEQUENTIAL_SPIN: &str = r#"int main(void) {
    int x = 0;
    while (1)
        ;
    return x;
}
"#;

#[test]
fn isend_test_loop_hides_a_potential_deadlock() {
    expect(ISEND_TEST_LOOP, "potential", Some(10));
    expect(ISEND_TEST_LOOP, "absolute", None);
    expect(ISEND_TEST_LOOP, "none", None);
}

#[test]
fn isend_testall_loop_hides_a_potential_deadlock() {
    expect(ISEND_TESTALL_LOOP, "potential", Some(11));
    expect(ISEND_TESTALL_LOOP, "absolute", None);
    expect(ISEND_TESTALL_LOOP, "none", None);
}

#[test]
fn test_loop_with_the_receive_posted_first_holds() {
    expect(IRECV_FIRST_TEST_LOOP, "potential", None);
    expect(IRECV_FIRST_TEST_LOOP, "absolute", None);
}

#[test]
fn test_loop_while_another_rank_still_moves_holds() {
    expect(IRECV_TEST_LOOP_LATE_SEND, "potential", None);
    expect(IRECV_TEST_LOOP_LATE_SEND, "absolute", None);
}

#[test]
fn irecv_test_loops_waiting_for_each_other_are_stuck_in_both_modes() {
    expect(IRECV_TEST_LOOP_BOTH, "potential", Some(10));
    expect(IRECV_TEST_LOOP_BOTH, "absolute", Some(10));
    expect(IRECV_TEST_LOOP_BOTH, "none", None);
}

#[test]
fn iprobe_loop_for_a_message_nobody_sends_is_stuck() {
    expect(IPROBE_WRONG_TAG, "potential", Some(8));
    expect(IPROBE_WRONG_TAG, "absolute", Some(8));
    expect(IPROBE_WRONG_TAG, "none", None);
}

#[test]
fn iprobe_loop_that_finds_its_message_holds() {
    expect(IPROBE_RIGHT_TAG, "potential", None);
    expect(IPROBE_RIGHT_TAG, "absolute", None);
}

#[test]
fn nonblocking_collective_test_loop_is_stuck() {
    expect(IBARRIER_TEST_LOOP, "potential", Some(10));
    expect(IBARRIER_TEST_LOOP, "absolute", Some(10));
    expect(IBARRIER_TEST_LOOP, "none", None);
}

#[test]
fn nonblocking_collective_test_loop_that_completes_holds() {
    expect(IBARRIER_TEST_LOOP_OK, "potential", None);
    expect(IBARRIER_TEST_LOOP_OK, "absolute", None);
}

#[test]
fn a_test_loop_next_to_a_blocked_wait_is_a_potential_deadlock() {
    expect_on("2", MIXED_WAIT_TEST, "potential", Some(11));
    expect_on("2", MIXED_WAIT_TEST, "absolute", None);
}

#[test]
fn ring_of_test_loops_is_a_potential_deadlock() {
    expect_on("3", RING_TEST_LOOP, "potential", Some(11));
    expect_on("3", RING_TEST_LOOP, "absolute", None);
}

#[test]
fn manager_polling_for_one_message_too_many_is_stuck() {
    expect_on("3", ANY_SOURCE_IPROBE, "potential", Some(12));
    expect_on("3", ANY_SOURCE_IPROBE, "absolute", Some(12));
}

#[test]
fn manager_polling_for_each_worker_holds() {
    expect_on("3", ANY_SOURCE_IPROBE_OK, "potential", None);
    expect_on("3", ANY_SOURCE_IPROBE_OK, "absolute", None);
}

#[test]
fn a_single_test_before_a_wait_is_a_potential_deadlock() {
    expect_on("2", TEST_THEN_WAIT, "potential", Some(9));
    expect_on("2", TEST_THEN_WAIT, "absolute", None);
}

#[test]
fn polling_next_to_an_endless_local_loop_is_stuck() {
    expect_on("2", SPIN_NEXT_TO_POLL, "potential", Some(11));
    expect_on("2", SPIN_NEXT_TO_POLL, "absolute", Some(11));
    expect_on("2", SPIN_NEXT_TO_POLL, "none", None);
}

#[test]
fn sequential_endless_loop_is_not_reported() {
    reduced_and_full("1", &[], SEQUENTIAL_SPIN, "holds", "");
}
