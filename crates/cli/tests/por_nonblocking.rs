//! The partial-order reduction on programs with nonblocking operations
//! (`MPI_Irecv`, `MPI_Issend`, the nonblocking collectives, `MPI_Test`,
//! `MPI_Waitany`): each program's bug shows only under some interleavings or
//! buffering choices. Every program runs twice, reduced and with the reduction
//! switched off (`--por off`): the verdicts, properties and lines must agree,
//! and match the verdict worked out by hand.

mod common;

use common::{assert_holds, assert_violated, inline, verify_reduced};
use serde_json::Value;

/// Verdict, first property and line of a report.
fn outcome(code: i32, r: &Value) -> (i32, Value, Value, Value) {
    let v = &r["violations"][0];
    (
        code,
        r["verdict"].clone(),
        v["property"].clone(),
        v["line"].clone(),
    )
}

/// Runs `text` reduced and unreduced; asserts they agree; returns the reduced
/// run's (exit status, report) and the two runs' states seen.
fn both(procs: &str, extra: &[&str], text: &str) -> (i32, Value, (u64, u64)) {
    let file = inline(text);
    let (code, reduced) = verify_reduced(procs, extra, &file, true);
    let (full_code, full) = verify_reduced(procs, extra, &file, false);
    assert_eq!(
        outcome(code, &reduced),
        outcome(full_code, &full),
        "reduced:\n{reduced:#}\nfull:\n{full:#}"
    );
    let seen = |r: &Value| r["stats"]["states_seen"].as_u64().unwrap_or(0);
    let counts = (seen(&reduced), seen(&full));
    (code, reduced, counts)
}

/// The properties and lines of every violation of a `--max-violations 0` report.
fn all_violations(r: &Value) -> Vec<(String, u64)> {
    r["violations"]
        .as_array()
        .map(|vs| {
            vs.iter()
                .map(|v| {
                    let property = v["property"].as_str().unwrap_or("").to_string();
                    (property, v["line"].as_u64().unwrap_or(0))
                })
                .collect()
        })
        .unwrap_or_default()
}

/// Runs `text` reduced and unreduced with `--max-violations 0`: both report
/// the access to a pending receive's buffer at `access` first
/// (`local-concurrency`) and, since the path goes on after it, the race the
/// access causes too (`assertion` at `assertion`).
fn race_and_access(procs: &str, extra: &[&str], text: &str, access: u64, assertion: u64) {
    let mut args = vec!["--max-violations", "0"];
    args.extend_from_slice(extra);
    let (code, r, _) = both(procs, &args, text);
    assert_violated(code, &r, "local-concurrency", Some(access));
    let found = all_violations(&r);
    assert!(
        found.contains(&("assertion".to_string(), assertion)),
        "{found:?}\n{r:#}"
    );
}

/// Both ranks `MPI_Isend` to each other and wait before receiving: under zero
/// buffering each wait needs the other's receive, a potential deadlock; with
/// buffered standard sends it holds. Each rank also does some local work first,
/// which the reduction orders.
const ISEND_WAIT_BEFORE_RECV: &str = r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    int rank, x, y = 0, k, acc = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (k = 0; k < 3; k++) acc += k * rank;
    x = acc;
    MPI_Isend(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Recv(&y, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn isend_waited_before_the_receive_is_a_potential_deadlock() {
    let (code, r, _) = both("2", &[], ISEND_WAIT_BEFORE_RECV);
    assert_violated(code, &r, "deadlock", Some(10));
    let (code, r, _) = both("2", &["--deadlock", "absolute"], ISEND_WAIT_BEFORE_RECV);
    assert_holds(code, &r);
}

/// Both ranks send (standard) before posting their receives: a potential
/// deadlock; posting the receives first fixes it in every mode.
#[test]
fn sends_before_the_irecv_is_posted_are_a_potential_deadlock() {
    let late = r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    int rank, x = 1, y = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Send(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
    MPI_Irecv(&y, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
"#;
    let (code, r, _) = both("2", &[], late);
    assert_violated(code, &r, "deadlock", Some(7));
    let early = late.replace(
        "    MPI_Send(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);\n    MPI_Irecv(&y, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &req);\n",
        "    MPI_Irecv(&y, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &req);\n    MPI_Send(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);\n",
    );
    let (code, r, _) = both("2", &[], &early);
    assert_holds(code, &r);
}

/// A wildcard `MPI_Irecv` takes whichever message comes first: the program
/// wrongly assumes rank 1's.
#[test]
fn wildcard_irecv_race_is_found() {
    let prog = r#"#include <mpi.h>
#include <assert.h>
int main(int argc, char *argv[]) {
    int rank, y = -1, z = -1;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Irecv(&y, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Recv(&z, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(y == 1);
    } else {
        MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;
    let (code, r, _) = both("3", &[], prog);
    assert_violated(code, &r, "assertion", Some(12));
    let (code, r, _) = both("3", &["--deadlock", "absolute"], prog);
    assert_violated(code, &r, "assertion", Some(12));
}

/// Reading an `MPI_Irecv` buffer before the wait sees the old value or the
/// message, depending on when the receive is matched: both are explored. (The
/// read itself is `local-concurrency`, reported first.)
#[test]
fn a_read_racing_with_the_progress_of_a_posted_receive_is_found() {
    let prog = r#"#include <mpi.h>
#include <assert.h>
int main(int argc, char *argv[]) {
    int rank, x = 5, y = 0, z, k, acc = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Irecv(&y, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &req);
        for (k = 0; k < 2; k++) acc += k;
        z = y;
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        assert(z == 0);
    } else {
        for (k = 0; k < 2; k++) acc += k;
        MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;
    race_and_access("2", &[], prog, 11, 13);
}

/// `MPI_Test` on an `MPI_Issend` reports completion only once the receiver
/// has matched the message, which the receiver decides: a program that
/// assumes it never completes at once is caught.
#[test]
fn a_test_of_an_issend_sees_the_receiver_match_it() {
    let prog = r#"#include <mpi.h>
#include <assert.h>
int main(int argc, char *argv[]) {
    int rank, x = 5, y = 0, flag = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Issend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &req);
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        assert(!flag);
        if (!flag) MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
"#;
    let (code, r, _) = both("2", &[], prog);
    assert_violated(code, &r, "assertion", Some(11));
}

/// `MPI_Test` on a nonblocking collective completes once every member has
/// posted it, which the other members decide.
#[test]
fn a_test_of_a_nonblocking_collective_sees_the_others_post_it() {
    let prog = r#"#include <mpi.h>
#include <assert.h>
int main(int argc, char *argv[]) {
    int rank, flag = 0, k, acc = 0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (k = 0; k < 2; k++) acc += k;
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    if (rank == 0) assert(!flag);
    if (!flag) MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
"#;
    let (code, r, _) = both("3", &[], prog);
    assert_violated(code, &r, "assertion", Some(11));
}

/// `MPI_Waitany` over receives from two senders: either may complete first.
#[test]
fn waitany_order_is_explored() {
    let prog = r#"#include <mpi.h>
#include <assert.h>
int main(int argc, char *argv[]) {
    int rank, a = 0, b = 0, idx = -1, one = 1;
    MPI_Request req[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Irecv(&a, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(&b, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, &req[1]);
        MPI_Waitany(2, req, &idx, MPI_STATUS_IGNORE);
        assert(idx == 0);
        MPI_Waitany(2, req, &idx, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(&one, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;
    let (code, r, _) = both("3", &[], prog);
    assert_violated(code, &r, "assertion", Some(12));
}

/// A halo exchange with posted receives and local work: the verdict is the
/// same and the reduced search visits fewer states.
#[test]
fn a_halo_exchange_is_reduced_and_still_holds() {
    let prog = r#"#include <mpi.h>
#include <assert.h>
int main(int argc, char *argv[]) {
    int rank, size, left, right, k, mine[2], halo[2] = {-1, -1}, sum = 0;
    MPI_Request req[4];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = (rank + size - 1) % size;
    right = (rank + 1) % size;
    for (k = 0; k < 2; k++) mine[k] = 10 * rank + k;
    MPI_Irecv(&halo[0], 1, MPI_INT, left, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&halo[1], 1, MPI_INT, right, 1, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&mine[1], 1, MPI_INT, right, 0, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&mine[0], 1, MPI_INT, left, 1, MPI_COMM_WORLD, &req[3]);
    for (k = 0; k < 2; k++) sum += mine[k];
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    assert(halo[0] == 10 * left + 1 && halo[1] == 10 * right);
    MPI_Finalize();
    return 0;
}
"#;
    let (code, r, (reduced, full)) = both("3", &[], prog);
    assert_holds(code, &r);
    assert!(reduced < full, "reduced {reduced} states, full {full}");
    // A wrong expectation is still caught.
    let wrong = prog.replace("halo[1] == 10 * right", "halo[1] == 10 * left");
    let (code, r, _) = both("3", &[], &wrong);
    assert_violated(code, &r, "assertion", Some(18));
}

/// A pointer to an output points into the process's own copy (outputs are per
/// process, as in the compiled program), so writes through it are local steps
/// and no other rank can change what rank 0 reads back. Real run (`mpicc -g`,
/// `mpirun --allow-run-as-root --oversubscribe -np 2`, three runs): exit 0.
/// (With shared outputs rank 1's `*p = 2` could land between rank 0's write
/// and read, and this test expected that race at line 12.)
#[test]
fn a_pointer_to_an_output_points_into_the_process_own_copy() {
    let prog = r#"#include <mpi.h>
#include <assert.h>
#pragma TASS output
int out;
int main(int argc, char *argv[]) {
    int rank, x, *p = &out;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        *p = 1;
        x = *p;
        assert(x == 1);
    } else {
        *p = 2;
    }
    MPI_Finalize();
    return 0;
}
"#;
    let (code, r, (reduced, full)) = both("2", &[], prog);
    assert_holds(code, &r);
    assert!(reduced < full, "reduced {reduced} states, full {full}");
}

/// Heap blocks belong to their process: loops over `malloc`ed arrays are
/// reduced, with the same verdicts.
#[test]
fn work_on_heap_arrays_is_reduced() {
    let prog = r#"#include <mpi.h>
#include <assert.h>
#include <stdlib.h>
int main(int argc, char *argv[]) {
    int rank, size, k, *a, *all;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    a = malloc(2 * sizeof(int));
    all = malloc(2 * size * sizeof(int));
    for (k = 0; k < 2; k++) a[k] = 2 * rank + k;
    MPI_Allgather(a, 2, MPI_INT, all, 2, MPI_INT, MPI_COMM_WORLD);
    for (k = 0; k < 2 * size; k++) assert(all[k] == k);
    free(a);
    free(all);
    MPI_Finalize();
    return 0;
}
"#;
    let (code, r, (reduced, full)) = both("3", &[], prog);
    assert_holds(code, &r);
    assert!(reduced < full, "reduced {reduced} states, full {full}");
    let wrong = prog.replace("assert(all[k] == k)", "assert(all[k] == k + (k == 5))");
    let (code, r, _) = both("3", &[], &wrong);
    assert_violated(code, &r, "assertion", Some(13));
}

/// `MPI_Test` on a nonblocking collective may also find it not complete: the
/// other members' posts must not all be taken before it.
#[test]
fn a_test_of_a_nonblocking_collective_may_see_it_incomplete() {
    let prog = r#"#include <mpi.h>
#include <assert.h>
int main(int argc, char *argv[]) {
    int rank, flag = 0;
    double mine = 1.0, sum = 0.0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Iallreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
    if (rank == 0) {
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        if (!flag)
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        assert(flag == 1);
    } else {
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    assert(sum == 3.0);
    MPI_Finalize();
    return 0;
}
"#;
    let (code, r, _) = both("3", &[], prog);
    assert_violated(code, &r, "assertion", Some(14));
    let fixed = prog.replace("assert(flag == 1);", "");
    let (code, r, _) = both("3", &[], &fixed);
    assert_holds(code, &r);
}

/// Without `MPI_Test` in the program, a member's post of a nonblocking
/// collective is explored alone (the posts commute; only a test could tell
/// who posted last): the members' work around an `MPI_Iallreduce` is not
/// interleaved, and the states grow with the processes, not with their orders.
#[test]
fn nonblocking_collective_posts_are_not_interleaved() {
    let prog = r#"#include <mpi.h>
#include <assert.h>
#pragma TASS input
double x[8];
int main(int argc, char *argv[]) {
    int rank, size, i;
    double mine, sum, expected = 0.0, local = 0.0;
    MPI_Request req;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mine = x[rank];
    MPI_Iallreduce(&mine, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &req);
    for (i = 0; i < 3; i++)
        local += x[i] * rank;
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    for (i = 0; i < size; i++)
        expected += x[i];
    assert(sum == expected);
    MPI_Finalize();
    return 0;
}
"#;
    let (code, r, (reduced, full)) = both("3", &[], prog);
    assert_holds(code, &r);
    // The full search sees some 120,000 states; taking posts only with the
    // others, 283 (629 with four processes); taking them alone, 130 (185).
    assert!(reduced < 200, "reduced {reduced} states, full {full}");
    let wrong = prog.replace("assert(sum == expected)", "assert(sum == expected - x[2])");
    let (code, r, _) = both("3", &[], &wrong);
    assert_violated(code, &r, "assertion", Some(19));
}

/// A halo exchange on heap arrays: each rank posts its two receives, then its
/// two sends, then waits. The sends read other elements than the pending
/// receives write, and the two receives write different elements, so each
/// rank's posts and progress steps are taken alone: the states grow with the
/// processes, not with the orders of their posts.
const HALO: &str = r#"#include <mpi.h>
#include <stdlib.h>
#include <assert.h>
#pragma TASS input {1 <= N && N <= 3} int
#define N 2
#pragma TASS input
double u0[16];
int main(int argc, char *argv[]) {
    int rank, size, i, left, right;
    double *u;
    MPI_Request req[4];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    left = rank > 0 ? rank - 1 : MPI_PROC_NULL;
    right = rank < size - 1 ? rank + 1 : MPI_PROC_NULL;
    u = (double *) malloc((N + 2) * sizeof(double));
    u[0] = -1.0;
    u[N + 1] = -1.0;
    for (i = 1; i <= N; i++) u[i] = u0[rank * N + i - 1];
    MPI_Irecv(&u[0], 1, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Irecv(&u[N + 1], 1, MPI_DOUBLE, right, 1, MPI_COMM_WORLD, &req[1]);
    MPI_Isend(&u[SEND_FIRST], 1, MPI_DOUBLE, left, 1, MPI_COMM_WORLD, &req[2]);
    MPI_Isend(&u[N], 1, MPI_DOUBLE, right, 0, MPI_COMM_WORLD, &req[3]);
    MPI_Waitall(4, req, MPI_STATUSES_IGNORE);
    if (rank > 0) assert(u[0] == u0[rank * N - 1]);
    if (rank < size - 1) assert(u[N + 1] == u0[rank * N + N]);
    free(u);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn a_halo_exchange_of_posts_is_not_interleaved() {
    let prog = HALO.replace("SEND_FIRST", "1");
    let (code, r, (reduced, full)) = both("3", &[], &prog);
    assert_holds(code, &r);
    assert!(reduced * 10 < full, "reduced {reduced} states, full {full}");
    // Grows with the processes: 316 states at np 4 with N = 2 (120,369 when a
    // rank with a receive still waiting for its message never moved alone,
    // and `&u[N + 1]`, N an input, counted as taking the input's address).
    let file = inline(&prog);
    let (code, r) = verify_reduced("4", &["-i", "N=2"], &file, true);
    assert_holds(code, &r);
    let seen = r["stats"]["states_seen"].as_u64().unwrap_or(u64::MAX);
    assert!(seen < 1000, "{seen} states\n{r:#}");
}

/// The same exchange, but the left send reads `u[0]`, the element the left
/// receive writes: what it sends depends on whether the neighbour's message
/// arrived first. The reduction must keep both orders. (The send from the
/// pending receive's buffer is `local-concurrency`, reported first.)
#[test]
fn a_send_from_a_pending_receive_buffer_is_interleaved() {
    for claim in ["u[N + 1] == -1.0", "u[N + 1] != -1.0"] {
        let prog = HALO
            .replace("SEND_FIRST", "0")
            .replace("u[N + 1] == u0[rank * N + N]", claim);
        race_and_access("3", &["-i", "N=1"], &prog, 23, 27);
    }
}

/// Two receives posted into overlapping buffers: the element they share ends
/// up with whichever message is taken last. (The second post into the first's
/// buffer is `local-concurrency`, reported first.)
#[test]
fn receives_into_overlapping_buffers_are_interleaved() {
    let prog = r#"#include <mpi.h>
#include <assert.h>
int main(int argc, char *argv[]) {
    int rank, u[3] = {0, 0, 0}, v[2];
    MPI_Request req[2];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Irecv(&u[0], 2, MPI_INT, 1, 0, MPI_COMM_WORLD, &req[0]);
        MPI_Irecv(&u[1], 2, MPI_INT, 2, 0, MPI_COMM_WORLD, &req[1]);
        MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
        assert(u[1] == 2);
    } else {
        v[0] = rank;
        v[1] = rank;
        MPI_Send(v, 2, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;
    race_and_access("3", &[], prog, 10, 12);
}
