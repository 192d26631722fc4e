//! End-to-end tests of the nonblocking collectives' semantics: a member posts
//! its part and moves on; the operation completes once every member of the
//! communicator has posted it; the results reach the receive buffers at the
//! wait that completes the request. Correct programs assert exact results in
//! C; erroneous ones must be reported with the right property.

mod common;

use common::{assert_holds, assert_violated, program, verify, BODY};
use serde_json::Value;

/// The deadlock report's message.
fn message(report: &Value) -> String {
    report["violations"][0]["message"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// The pattern of the MPI standard's own example: a nonblocking collective does
/// not wait for the other members, so a message sent after it can be the one
/// another member needs before it reaches the collective.
#[test]
fn a_send_between_ibarrier_and_its_wait_is_no_deadlock() {
    let prog = program(
        "",
        r#"    MPI_Request req;
    int v = 7, w = 0;
    if (rank == 0) {
        MPI_Ibarrier(MPI_COMM_WORLD, &req);
        MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&w, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Ibarrier(MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        assert(w == 7);
    }"#,
    );
    let (code, r) = verify("2", &[], &prog);
    assert_holds(code, &r);
    // Also with zero buffering ruled out (standard sends always buffered).
    let (code, r) = verify("2", &["--deadlock", "absolute"], &prog);
    assert_holds(code, &r);
}

/// The same with data: an MPI_Iallreduce overlapped with a ring shift whose
/// receive comes before the collective on one side; the result is exact.
#[test]
fn an_iallreduce_overlapped_with_point_to_point_gives_the_exact_sum() {
    let prog = program(
        "",
        r#"    MPI_Request req;
    int x = rank + 1, sum = -1, got = -1, next = (rank + 1) % size, prev = (rank + size - 1) % size;
    if (rank == 0) {
        MPI_Iallreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
        MPI_Send(&x, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
        MPI_Recv(&got, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&got, 1, MPI_INT, prev, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Iallreduce(&x, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
        MPI_Send(&x, 1, MPI_INT, next, 0, MPI_COMM_WORLD);
    }
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    assert(sum == size * (size + 1) / 2);
    assert(got == prev + 1);"#,
    );
    let (code, r) = verify("3", &[], &prog);
    assert_holds(code, &r);
    // A wrong expectation is still caught: the result is not guessed.
    let wrong = prog.replace(
        "assert(sum == size * (size + 1) / 2);",
        "assert(sum == size * size);",
    );
    let (code, r) = verify("3", &[], &wrong);
    assert_violated(code, &r, "assertion", None);
}

/// A real deadlock involving a nonblocking collective: process 0 waits for its
/// MPI_Ibarrier, which process 1 never posts (it is stuck in a receive nobody
/// sends). The report names the incomplete collective.
#[test]
fn waiting_for_an_ibarrier_another_process_never_reaches_is_a_deadlock() {
    let prog = program(
        "",
        r#"    MPI_Request req;
    int v = 0;
    if (rank == 1) MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);"#,
    );
    let (code, r) = verify("2", &[], &prog);
    assert_violated(code, &r, "deadlock", None);
    let m = message(&r);
    assert!(m.contains("MPI_Ibarrier"), "{m}");
    assert!(m.contains("not yet posted by process(es) 1"), "{m}");
}

/// A deadlock that needs zero buffering: both processes send to each other
/// before posting; with `--deadlock absolute` the sends buffer and it holds.
#[test]
fn a_potential_deadlock_around_an_ibcast_is_reported() {
    let prog = program(
        "",
        r#"    MPI_Request req;
    int v = rank, w = -1, b = rank == 0 ? 5 : 0;
    MPI_Send(&v, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD);
    MPI_Ibcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
    MPI_Recv(&w, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    assert(b == 5 && w == 1 - rank);"#,
    );
    let (code, r) = verify("2", &[], &prog);
    assert_violated(code, &r, "deadlock", None);
    let (code, r) = verify("2", &["--deadlock", "absolute"], &prog);
    assert_holds(code, &r);
}

/// Waiting for the collective before the message the other process needs to
/// reach the collective is a deadlock in every MPI.
#[test]
fn waiting_before_sending_what_the_other_member_needs_is_a_deadlock() {
    let prog = program(
        "",
        r#"    MPI_Request req;
    int v = 7, w = 0;
    if (rank == 0) {
        MPI_Ibarrier(MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&w, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Ibarrier(MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }"#,
    );
    let (code, r) = verify("2", &["--deadlock", "absolute"], &prog);
    assert_violated(code, &r, "deadlock", None);
    assert!(message(&r).contains("MPI_Ibarrier"), "{}", message(&r));
}

/// Nonblocking collectives on one communicator must be posted in the same
/// order by every member; blocking ones count in that order too.
#[test]
fn collectives_posted_in_different_orders_are_a_mismatch() {
    let cases = [
        r#"    MPI_Request req[2];
    int b = 1, x = rank, s;
    if (rank == 0) {
        MPI_Ibcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, &req[0]);
        MPI_Iallreduce(&x, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[1]);
    } else {
        MPI_Iallreduce(&x, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[1]);
        MPI_Ibcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, &req[0]);
    }
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);"#,
        r#"    MPI_Request req;
    if (rank == 0) MPI_Ibarrier(MPI_COMM_WORLD, &req);
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank != 0) MPI_Ibarrier(MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);"#,
        r#"    MPI_Request req;
    int b = 1;
    MPI_Ibcast(&b, 1, MPI_INT, rank == 2 ? 1 : 0, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);"#,
        r#"    MPI_Request req;
    int x[2] = {1, 2}, s[2];
    MPI_Iallreduce(x, s, rank == 1 ? 1 : 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);"#,
    ];
    for body in cases {
        let (code, r) = verify("3", &[], &program("", body));
        assert_violated(code, &r, "collective-mismatch", None);
    }
    // The same order everywhere, with a blocking collective in between: fine.
    let ok = r#"    MPI_Request req[2];
    int b = rank == 0 ? 4 : 0, x = rank, s = -1;
    MPI_Ibcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, &req[0]);
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Iallreduce(&x, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req[1]);
    MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
    assert(b == 4 && s == 3);"#;
    let (code, r) = verify("3", &[], &program("", ok));
    assert_holds(code, &r);
}

/// Until the wait, the receive buffer reads as uninitialised, also when every
/// member has posted already; MPI_Test polling sees completion only once all
/// have posted.
#[test]
fn results_appear_only_at_the_completing_wait_or_test() {
    let early = program(
        "",
        r#"    MPI_Request req;
    int x = 1, s = 0, t;
    MPI_Iallreduce(&x, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    MPI_Barrier(MPI_COMM_WORLD);
    t = s;
    MPI_Wait(&req, MPI_STATUS_IGNORE);"#,
    );
    let (code, r) = verify("2", &[], &early);
    assert_violated(code, &r, "invalid-pointer", Some(BODY + 4));
    let polled = program(
        "",
        r#"    MPI_Request req;
    int x = 1, s = 0, flag = 0, v = 3, w = 0;
    if (rank == 1) MPI_Recv(&w, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Iallreduce(&x, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    if (rank == 0) {
        MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
        assert(!flag);
        MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    }
    while (!flag) MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
    assert(s == 2);"#,
    );
    let (code, r) = verify("2", &[], &polled);
    assert_holds(code, &r);
}

/// MPI makes freeing the request of a nonblocking collective erroneous.
#[test]
fn freeing_the_request_of_a_nonblocking_collective_is_reported() {
    let prog = program(
        "",
        r#"    MPI_Request req;
    int b = rank == 0 ? 9 : 0;
    MPI_Ibcast(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, &req);
    MPI_Request_free(&req);"#,
    );
    let (code, r) = verify("2", &[], &prog);
    assert_violated(code, &r, "invalid-pointer", Some(BODY + 3));
}

/// A member that never posts the collective: the others' waits deadlock; a
/// member that posts but never waits leaks its request.
#[test]
fn a_member_that_skips_the_collective_is_caught() {
    let skip = program(
        "",
        r#"    MPI_Request req;
    if (rank != 1) {
        MPI_Ibarrier(MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }"#,
    );
    let (code, r) = verify("3", &[], &skip);
    // process 1 terminates; the others wait forever
    assert_violated(code, &r, "deadlock", None);
    // (`s` is global: it outlives the process that never waits.)
    let nowait = program(
        "int s;",
        r#"    MPI_Request req;
    int x = rank;
    MPI_Iallreduce(&x, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    if (rank != 1) MPI_Wait(&req, MPI_STATUS_IGNORE);"#,
    );
    let (code, r) = verify("3", &[], &nowait);
    assert_violated(code, &r, "memory-leak", Some(BODY + 2));
}

/// Several collectives in flight at once, completed in another order than
/// posted, with the members posting at different times.
#[test]
fn several_collectives_in_flight_complete_in_any_order() {
    let prog = program(
        "",
        r#"    MPI_Request req[3];
    int x[2] = {rank, 10 * rank}, s[2] = {0, 0}, g[6], b = rank == 2 ? 8 : 0, idx, k;
    MPI_Iallreduce(x, s, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD, &req[0]);
    MPI_Iallgather(x, 2, MPI_INT, g, 2, MPI_INT, MPI_COMM_WORLD, &req[1]);
    MPI_Ibcast(&b, 1, MPI_INT, 2, MPI_COMM_WORLD, &req[2]);
    MPI_Wait(&req[2], MPI_STATUS_IGNORE);
    assert(b == 8);
    for (k = 0; k < 2; k++) MPI_Waitany(2, req, &idx, MPI_STATUS_IGNORE);
    assert(s[0] == 2 && s[1] == 20);
    assert(g[0] == 0 && g[2] == 1 && g[3] == 10 && g[5] == 20);"#,
    );
    let (code, r) = verify("3", &[], &prog);
    assert_holds(code, &r);
}

/// MPI forbids writing the send buffer of a nonblocking collective before the
/// operation completes: a change seen when the operation is performed or at
/// the wait is reported; writing elsewhere in the array, or after the wait, is
/// fine.
#[test]
fn writing_the_send_buffer_before_the_wait_is_reported() {
    let before_wait = program(
        "",
        r#"    MPI_Request req;
    int x[2] = {rank, 1}, s[2];
    MPI_Iallreduce(x, s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    x[0] = 5;
    MPI_Wait(&req, MPI_STATUS_IGNORE);"#,
    );
    let (code, r) = verify("2", &[], &before_wait);
    assert_violated(code, &r, "invalid-pointer", None);
    let m = message(&r);
    assert!(m.contains("send buffer of the MPI_Iallreduce"), "{m}");
    let elsewhere = before_wait.replace("x[0] = 5;", "x[1] = 5;");
    let (code, r) = verify("2", &[], &elsewhere);
    assert_holds(code, &r);
    let after = before_wait.replace(
        "    x[0] = 5;\n    MPI_Wait(&req, MPI_STATUS_IGNORE);",
        "    MPI_Wait(&req, MPI_STATUS_IGNORE);\n    x[0] = 5;",
    );
    let (code, r) = verify("2", &[], &after);
    assert_holds(code, &r);
    // Send and receive parts of one array are fine (they do not overlap).
    let one_array = program(
        "",
        r#"    MPI_Request req;
    int a[4] = {rank, rank + 1, -1, -1};
    MPI_Iallreduce(a, a + 2, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    assert(a[0] == rank && a[2] == 1 && a[3] == 3);"#,
    );
    let (code, r) = verify("2", &[], &one_array);
    assert_holds(code, &r);
}

/// Pair datatypes in nonblocking collectives: `MAXLOC`/`MINLOC` on structs and
/// flat `int` pairs, a gather and a broadcast of structs. The results appear at
/// the wait; read before it, the receive buffer is undefined.
#[test]
fn pair_datatypes_in_nonblocking_collectives() {
    let prog = program(
        "struct dbl_int { double val; int rank; };",
        r#"    int a[2], b[2];
    struct dbl_int in[2], out[2], all[6];
    MPI_Request q[2];
    in[0].val = rank == 0 ? 0.5 : 2.5; in[0].rank = rank;
    in[1].val = rank; in[1].rank = 10 + rank;
    a[0] = rank % 2; a[1] = rank;
    MPI_Iallreduce(in, out, 2, MPI_DOUBLE_INT, MPI_MAXLOC, MPI_COMM_WORLD, &q[0]);
    MPI_Iallreduce(a, b, 1, MPI_2INT, MPI_MINLOC, MPI_COMM_WORLD, &q[1]);
    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    assert(out[0].val == 2.5 && out[0].rank == 1 && out[1].val == 2.0 && out[1].rank == 12);
    assert(b[0] == 0 && b[1] == 0);
    MPI_Igather(in, 2, MPI_DOUBLE_INT, all, 2, MPI_DOUBLE_INT, 1, MPI_COMM_WORLD, &q[0]);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    if (rank == 1) assert(all[4].val == 2.5 && all[5].rank == 12 && all[0].val == 0.5);
    MPI_Ibcast(in, 2, MPI_DOUBLE_INT, 2, MPI_COMM_WORLD, &q[0]);
    MPI_Wait(&q[0], MPI_STATUS_IGNORE);
    assert(in[1].val == 2 && in[0].rank == 2);"#,
    );
    let (code, r) = verify("3", &[], &prog);
    assert_holds(code, &r);
    // Read before the wait: undefined.
    let early = prog.replace(
        "    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);",
        "    b[0] = out[0].rank;\n    MPI_Waitall(2, q, MPI_STATUSES_IGNORE);",
    );
    assert_ne!(early, prog);
    let (code, r) = verify("3", &[], &early);
    assert_violated(code, &r, "invalid-pointer", Some(BODY + 8));
}
