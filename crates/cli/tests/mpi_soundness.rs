//! Wrong verdicts once given on MPI programs (issue 14, items 2, 3 and 8),
//! each kept as a regression test next to its correct twin, and the corners
//! that could share the same bug. Every expected verdict was confirmed by a
//! real run: `mpicc -g`, then `mpirun --allow-run-as-root --oversubscribe -np
//! N` (the "default" run) and the same with `--mca btl self,tcp --mca
//! btl_tcp_eager_limit 56 --mca btl_tcp_rndv_eager_limit 56` (the
//! "zero-buffer" run, standard sends not buffered), under `timeout 20`
//! (exit 124: it hung). The outcome of each is in the test's comment.
//!
//! Each program is checked with the partial-order reduction on and off
//! (`common::reduced_and_full`), so a reduction that hides the behaviour is
//! caught too.

mod common;

use common::reduced_and_full;

// ----- item 2: probes see a pending synchronous send ------------------------

/// A manager that learns the length of a worker's message from a probe
/// (`probe`, ending with `status` set) and asserts it is `expected`; the
/// worker sends two ints with `send`.
fn probe_program(send: &str, probe: &str, expected: u32) -> String {
    format!(
        "#include <mpi.h>\n#include <assert.h>\nint main(int argc, char *argv[]) {{\n    \
         int rank;\n    MPI_Init(&argc, &argv);\n    MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n    \
         if (rank == 0) {{\n        int flag = 0, count, buf[2];\n        MPI_Status status;\n        \
         {probe}\n        MPI_Get_count(&status, MPI_INT, &count);\n        \
         assert(count == {expected});\n        \
         MPI_Recv(buf, 2, MPI_INT, status.MPI_SOURCE, status.MPI_TAG, MPI_COMM_WORLD, \
         MPI_STATUS_IGNORE);\n    }} else {{\n        int data[2] = {{rank, rank}};\n        \
         {send}\n    }}\n    MPI_Finalize();\n    return 0;\n}}\n"
    )
}

const SPIN_ANY: &str =
    "while (!flag) MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &status);";
const SPIN_ONE: &str = "while (!flag) MPI_Iprobe(1, 5, MPI_COMM_WORLD, &flag, &status);";
const PROBE_ANY: &str = "MPI_Probe(MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);";
const SSEND: &str = "MPI_Ssend(data, 2, MPI_INT, 0, 5, MPI_COMM_WORLD);";
const ISSEND_WAIT: &str = "MPI_Request req; MPI_Issend(data, 2, MPI_INT, 0, 5, \
                           MPI_COMM_WORLD, &req); MPI_Wait(&req, MPI_STATUS_IGNORE);";

/// The property of the count assertion's violation.
const ASSERTION: &str = "assertion";

/// Item 2: a manager spinning on `MPI_Iprobe(MPI_ANY_SOURCE, MPI_ANY_TAG)`
/// sees the envelope of a worker's `MPI_Ssend` (count 2). tass used to say
/// "holds" (the `MPI_Ssend` moved only once its receiver waited in a
/// receive, which a spinning `MPI_Iprobe` never is). Real runs, -np 2:
/// default and zero-buffer both abort with "Assertion `count == 1' failed".
#[test]
fn iprobe_sees_a_pending_ssend() {
    reduced_and_full(
        "2",
        &[],
        &probe_program(SSEND, SPIN_ANY, 1),
        "violated",
        ASSERTION,
    );
}

/// Twin of [`iprobe_sees_a_pending_ssend`]: real runs, -np 2: default and
/// zero-buffer both exit 0.
#[test]
fn iprobe_sees_a_pending_ssend_twin_holds() {
    reduced_and_full("2", &[], &probe_program(SSEND, SPIN_ANY, 2), "holds", "");
}

/// The same with `MPI_Iprobe(1, 5, ...)` (a specific source and tag). Real
/// runs, -np 2: default and zero-buffer both abort with "Assertion `count ==
/// 1' failed"; with `count == 2` both exit 0.
#[test]
fn iprobe_with_source_and_tag_sees_a_pending_ssend() {
    reduced_and_full(
        "2",
        &[],
        &probe_program(SSEND, SPIN_ONE, 1),
        "violated",
        ASSERTION,
    );
    reduced_and_full("2", &[], &probe_program(SSEND, SPIN_ONE, 2), "holds", "");
}

/// `MPI_Iprobe` against an `MPI_Issend` before its wait. Real runs, -np 2:
/// default and zero-buffer both abort with "Assertion `count == 1' failed";
/// with `count == 2` both exit 0.
#[test]
fn iprobe_sees_an_issend_before_its_wait() {
    let bad = probe_program(ISSEND_WAIT, SPIN_ANY, 1);
    reduced_and_full("2", &[], &bad, "violated", ASSERTION);
    reduced_and_full(
        "2",
        &[],
        &probe_program(ISSEND_WAIT, SPIN_ANY, 2),
        "holds",
        "",
    );
}

/// Blocking `MPI_Probe` against `MPI_Ssend`. Real runs, -np 2: default and
/// zero-buffer both abort with "Assertion `count == 1' failed"; with `count
/// == 2` both exit 0.
#[test]
fn probe_sees_a_pending_ssend() {
    reduced_and_full(
        "2",
        &[],
        &probe_program(SSEND, PROBE_ANY, 1),
        "violated",
        ASSERTION,
    );
    reduced_and_full("2", &[], &probe_program(SSEND, PROBE_ANY, 2), "holds", "");
}

// ----- item 3: the send half of MPI_Sendrecv is a standard send -------------

/// Rank 0: `first` (a send-receive: send to 1 with tag 0, receive from 1
/// with tag 1), then `MPI_Send` to 1 with tag 2. Rank 1: `MPI_Isend` to 0
/// with tag 1, the two receives `receives`, then the wait.
fn sendrecv_program(first: &str, receives: &str) -> String {
    format!(
        "#include <mpi.h>\nint main(int argc, char *argv[]) {{\n    \
         int rank, a = 1, b = 0, c = 2, d = 0, e = 0;\n    MPI_Init(&argc, &argv);\n    \
         MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n    if (rank == 0) {{\n        {first}\n        \
         MPI_Send(&c, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);\n    }} else if (rank == 1) {{\n        \
         MPI_Request req;\n        MPI_Isend(&a, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, &req);\n        \
         {receives}\n        MPI_Wait(&req, MPI_STATUS_IGNORE);\n    }}\n    MPI_Finalize();\n    \
         return 0;\n}}\n"
    )
}

const SENDRECV: &str = "MPI_Sendrecv(&a, 1, MPI_INT, 1, 0, &b, 1, MPI_INT, 1, 1, \
                        MPI_COMM_WORLD, MPI_STATUS_IGNORE);";
const SENDRECV_REPLACE: &str =
    "MPI_Sendrecv_replace(&a, 1, MPI_INT, 1, 0, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);";
/// Tag 2 first: rank 0 reaches its tag-2 send only after its tag-0 send half
/// completed, which needs a buffer.
const TAG_2_FIRST: &str = "MPI_Recv(&d, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE); \
                           MPI_Recv(&e, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);";
const TAG_0_FIRST: &str = "MPI_Recv(&e, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); \
                           MPI_Recv(&d, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);";

/// Item 3: the send half of `MPI_Sendrecv` may wait for its receive, so this
/// is a potential deadlock; tass used to say "holds" (the send half always
/// buffered). Real runs, -np 2: default exits 0; zero-buffer hangs (124).
/// With `--deadlock absolute` (sends always buffer) it holds.
#[test]
fn sendrecv_send_half_may_wait_for_its_receive() {
    let text = sendrecv_program(SENDRECV, TAG_2_FIRST);
    reduced_and_full("2", &[], &text, "violated", "deadlock");
    reduced_and_full("2", &["--deadlock", "absolute"], &text, "holds", "");
}

/// Twin of [`sendrecv_send_half_may_wait_for_its_receive`]: rank 1 takes
/// tag 0 first. Real runs, -np 2: default and zero-buffer both exit 0.
#[test]
fn sendrecv_send_half_matched_twin_holds() {
    let text = sendrecv_program(SENDRECV, TAG_0_FIRST);
    reduced_and_full("2", &[], &text, "holds", "");
    reduced_and_full("2", &["--deadlock", "absolute"], &text, "holds", "");
}

/// The same with `MPI_Sendrecv_replace`. Real runs, -np 2: with tag 2
/// first, default exits 0 and zero-buffer hangs (124); with tag 0 first both
/// exit 0.
#[test]
fn sendrecv_replace_send_half_may_wait_for_its_receive() {
    let bad = sendrecv_program(SENDRECV_REPLACE, TAG_2_FIRST);
    reduced_and_full("2", &[], &bad, "violated", "deadlock");
    reduced_and_full("2", &["--deadlock", "absolute"], &bad, "holds", "");
    let ok = sendrecv_program(SENDRECV_REPLACE, TAG_0_FIRST);
    reduced_and_full("2", &[], &ok, "holds", "");
}

/// A ring of send-receives never deadlocks (MPI guarantees it: the send and
/// receive halves proceed together). Real runs, -np 3: default and
/// zero-buffer both exit 0.
#[test]
fn sendrecv_ring_holds() {
    let text = "#include <mpi.h>\n#include <assert.h>\nint main(int argc, char *argv[]) {\n    \
                int rank, size, x, y = -1;\n    MPI_Init(&argc, &argv);\n    \
                MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n    \
                MPI_Comm_size(MPI_COMM_WORLD, &size);\n    x = rank;\n    \
                MPI_Sendrecv(&x, 1, MPI_INT, (rank + 1) % size, 0, &y, 1, MPI_INT,\n                 \
                (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n    \
                assert(y == (rank + size - 1) % size);\n    MPI_Finalize();\n    return 0;\n}\n";
    reduced_and_full("3", &[], text, "holds", "");
}

/// The receive half goes on while the send half waits: rank 0's send half
/// waits for rank 1, which first waits for rank 2, which first needs rank
/// 0's receive half (an `MPI_Ssend`). Real runs, -np 3: default and
/// zero-buffer both exit 0.
#[test]
fn sendrecv_receive_half_proceeds_while_the_send_half_waits() {
    let text = "#include <mpi.h>\nint main(int argc, char *argv[]) {\n    \
                int rank, a = 1, b = 0, c = 2;\n    MPI_Init(&argc, &argv);\n    \
                MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n    if (rank == 0) {\n        \
                MPI_Sendrecv(&a, 1, MPI_INT, 1, 0, &b, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, \
                MPI_STATUS_IGNORE);\n    } else if (rank == 1) {\n        \
                MPI_Recv(&b, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n        \
                MPI_Recv(&b, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n    \
                } else if (rank == 2) {\n        \
                MPI_Ssend(&c, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);\n        \
                MPI_Send(&c, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);\n    }\n    \
                MPI_Finalize();\n    return 0;\n}\n";
    reduced_and_full("3", &[], text, "holds", "");
    reduced_and_full("3", &["--deadlock", "absolute"], text, "holds", "");
}

// ----- item 8: a pending nonblocking collective owns only its elements ------

/// Each rank posts `call` (on `sbuf`, two ints, and `rbuf`, five ints),
/// reads `rbuf[read]` while it is pending, runs `meanwhile`, waits, prints
/// what it read and checks `check`.
fn pending_collective_program(call: &str, read: u32, meanwhile: &str, check: &str) -> String {
    format!(
        "#include <mpi.h>\n#include <stdio.h>\n#include <assert.h>\n\
         int main(int argc, char *argv[]) {{\n    int rank, x;\n    MPI_Request req;\n    \
         MPI_Init(&argc, &argv);\n    MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n    \
         int sbuf[2] = {{rank + 1, rank + 1}};\n    \
         int rbuf[5] = {{rank + 5, rank + 6, 0, 0, 7}};\n    {call}\n    x = rbuf[{read}];\n    \
         {meanwhile}\n    MPI_Wait(&req, MPI_STATUS_IGNORE);\n    \
         printf(\"rank %d read %d\\n\", rank, x);\n    {check}\n    MPI_Finalize();\n    \
         return 0;\n}}\n"
    )
}

/// The line of `x = rbuf[read];` in [`pending_collective_program`].
const READ_LINE: u64 = 12;

/// Runs the program reduced and unreduced; for "violated", the first
/// violation is the `invalid-pointer` read on [`READ_LINE`].
fn check_pending(text: &str, verdict: &str) {
    reduced_and_full("2", &[], text, verdict, "invalid-pointer");
    if verdict == "violated" {
        let (_, r) = common::verify("2", &[], text);
        let v = &r["violations"][0];
        assert_eq!(v["line"], READ_LINE, "{r:#}");
        let message = v["message"].as_str().unwrap_or("");
        assert!(message.contains("uninitialised"), "{r:#}");
    }
}

const IBCAST: &str = "MPI_Ibcast(rbuf, 2, MPI_INT, 0, MPI_COMM_WORLD, &req);";
const IREDUCE: &str = "MPI_Ireduce(sbuf, rbuf, 2, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD, &req);";
const IALLREDUCE: &str = "MPI_Iallreduce(sbuf, rbuf, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);";
const IGATHER: &str = "MPI_Igather(sbuf, 2, MPI_INT, rbuf, 2, MPI_INT, 0, MPI_COMM_WORLD, &req);";

/// Item 8: `rbuf[3]` is not part of `MPI_Ibcast(rbuf, 2, ...)`: reading it,
/// and writing `rbuf[4]`, while the broadcast is pending is fine. tass used
/// to report the read as invalid-pointer (it held back the whole array).
/// Real runs, -np 2: default and zero-buffer both exit 0 (both ranks read
/// 0).
#[test]
fn ibcast_leaves_the_rest_of_the_array_to_the_program() {
    let text = pending_collective_program(
        IBCAST,
        3,
        "rbuf[4] = 9;",
        "assert(rbuf[0] == 5 && rbuf[1] == 6 && rbuf[3] == 0 && rbuf[4] == 9);",
    );
    check_pending(&text, "holds");
}

/// Twin: `rbuf[1]` is part of the broadcast; reading it before the wait is
/// reported. Real runs, -np 2: both exit 0, and rank 1 reads 7, its value
/// before the broadcast, not the 6 it receives (MPI leaves it undefined).
#[test]
fn ibcast_owns_its_elements_until_the_wait() {
    let text = pending_collective_program(IBCAST, 1, "", "assert(rbuf[0] == 5 && rbuf[1] == 6);");
    check_pending(&text, "violated");
}

/// `MPI_Ireduce` to root 0 owns `rbuf[0..2)` at the root. Real runs, -np 2:
/// reading `rbuf[2]` (and writing `rbuf[4]`), both exit 0 and read 0;
/// reading `rbuf[0]`, both exit 0 and the root reads 5, not the sum 3.
#[test]
fn ireduce_owns_only_count_elements() {
    let ok = pending_collective_program(
        IREDUCE,
        2,
        "rbuf[4] = 9;",
        "assert(rank != 0 || (rbuf[0] == 3 && rbuf[1] == 3 && rbuf[4] == 9));",
    );
    check_pending(&ok, "holds");
    let bad = pending_collective_program(IREDUCE, 0, "", "assert(rank != 0 || rbuf[0] == 3);");
    check_pending(&bad, "violated");
}

/// `MPI_Iallreduce` owns `rbuf[0..2)` everywhere. Real runs, -np 2: reading
/// `rbuf[2]` (and writing `rbuf[4]`), both exit 0 and read 0; reading
/// `rbuf[1]`, both exit 0 and the ranks read 6 and 7, not the sum 3.
#[test]
fn iallreduce_owns_only_count_elements() {
    let ok = pending_collective_program(
        IALLREDUCE,
        2,
        "rbuf[4] = 9;",
        "assert(rbuf[0] == 3 && rbuf[1] == 3 && rbuf[2] == 0 && rbuf[4] == 9);",
    );
    check_pending(&ok, "holds");
    let bad = pending_collective_program(IALLREDUCE, 1, "", "assert(rbuf[1] == 3);");
    check_pending(&bad, "violated");
}

/// `MPI_Igather` of two ints from each of two ranks owns `rbuf[0..4)` at the
/// root. Real runs, -np 2: reading `rbuf[4]` (then writing it), both exit 0
/// and read 7; reading `rbuf[3]`, both exit 0 and the root reads 0, not the
/// 2 it gathers.
#[test]
fn igather_owns_only_the_gathered_elements() {
    let ok = pending_collective_program(
        IGATHER,
        4,
        "rbuf[4] = 9;",
        "assert(rank != 0 || (rbuf[0] == 1 && rbuf[3] == 2 && rbuf[4] == 9));",
    );
    check_pending(&ok, "holds");
    let bad = pending_collective_program(IGATHER, 3, "", "assert(rank != 0 || rbuf[3] == 2);");
    check_pending(&bad, "violated");
}

/// A buffer in a row of a two-dimensional array: only its elements are held.
/// Real runs, -np 2: default and zero-buffer both exit 0.
#[test]
fn ibcast_into_a_row_holds_only_its_elements() {
    let text = "#include <mpi.h>\n#include <assert.h>\nint main(int argc, char *argv[]) {\n    \
                int rank, x;\n    MPI_Request req;\n    MPI_Init(&argc, &argv);\n    \
                MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n    \
                int a[2][3] = {{1, 2, 3}, {rank, rank, 4}};\n    \
                MPI_Ibcast(&a[1][0], 2, MPI_INT, 0, MPI_COMM_WORLD, &req);\n    \
                x = a[0][1] + a[1][2];\n    a[0][0] = 9;\n    \
                MPI_Wait(&req, MPI_STATUS_IGNORE);\n    \
                assert(x == 6 && a[1][0] == 0 && a[1][1] == 0 && a[0][0] == 9 && a[1][2] == 4);\n    \
                MPI_Finalize();\n    return 0;\n}\n";
    reduced_and_full("2", &[], text, "holds", "");
}
