//! More point-to-point MPI (issue 20, part A): persistent requests, the
//! ownership of nonblocking send buffers, `MPI_Sendrecv` buffers,
//! `MPI_IN_PLACE`, matrices as message buffers, type signatures and the local
//! MPI calls, on the fevs `mpi_p2p_*` programs and small inline ones.
//!
//! Every expected verdict was confirmed by running the program for real:
//! `mpicc -g` (`-fsanitize=address` for the overruns, `ASAN_OPTIONS=detect_leaks=0`)
//! and `mpirun --allow-run-as-root --oversubscribe -np N`, in the default mode and
//! in the zero-buffer one (`--mca btl self,tcp --mca btl_tcp_eager_limit 56
//! --mca btl_tcp_rndv_eager_limit 56`); each test says what the runs showed.
//! Violations without a run-time symptom (a leak, overlapping buffers Open MPI
//! happens to copy in order) say so.

mod common;

use std::path::{Path, PathBuf};

use common::{assert_holds, assert_violated, program, verify, BODY};

fn fevs(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fevs/mpi")
        .join(name)
}

/// Runs `tass verify -n PROCS EXTRA fevs/mpi/NAME --format json`.
fn verify_fevs(procs: &str, extra: &[&str], name: &str) -> (i32, serde_json::Value) {
    let text = std::fs::read_to_string(fevs(name)).expect("read the fevs program");
    verify(procs, extra, &text)
}

fn message(r: &serde_json::Value) -> String {
    r["violations"][0]["message"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// fevs mpi_p2p_persistent_ok.c (MPI_Send_init, MPI_Recv_init, MPI_Startall,
/// MPI_Waitall, MPI_Request_free): mpirun -np 3, both modes, R = 3: OUT last = 2, exit 0.
#[test]
fn persistent_requests_shift_a_ring_in_rounds() {
    let (code, r) = verify_fevs("3", &["-i", "BR=2"], "mpi_p2p_persistent_ok.c");
    assert_holds(code, &r);
    let (code, r) = verify_fevs(
        "2",
        &["-i", "BR=2", "--deadlock", "potential"],
        "mpi_p2p_persistent_ok.c",
    );
    assert_holds(code, &r);
}

/// fevs mpi_p2p_persistent_restart_bad.c: mpirun -np 2, both modes: rank 1's
/// assertion fails in the third round (the value went twice).
#[test]
fn starting_an_active_persistent_request_is_an_error() {
    let (code, r) = verify_fevs("2", &[], "mpi_p2p_persistent_restart_bad.c");
    assert_violated(code, &r, "invalid-pointer", Some(33));
    assert!(message(&r).contains("active persistent request"), "{r:#}");
}

/// fevs mpi_p2p_persistent_leak_bad.c: mpirun -np 2, both modes: exit 0 (a leak
/// has no run-time symptom).
#[test]
fn a_persistent_request_never_freed_is_a_resource_leak() {
    let (code, r) = verify_fevs("2", &[], "mpi_p2p_persistent_leak_bad.c");
    assert_violated(code, &r, "resource-leak", Some(27));
    assert!(message(&r).contains("never freed"), "{r:#}");
}

/// fevs persist_modes_ok.c (MPI_Ssend_init, MPI_Bsend_init with an attached
/// buffer, MPI_Rsend_init against receives posted before a barrier, two
/// rounds): mpirun -np 2 and 3, default and tcp without eager limits: exit 0.
/// (With zero buffering Open MPI 4.1.4 resends round 0's data for the restarted
/// buffered request: its defect, see the program's comment.)
#[test]
fn persistent_synchronous_buffered_and_ready_sends_run_in_rounds() {
    for (procs, mode) in [("2", "absolute"), ("3", "absolute"), ("2", "potential")] {
        let (code, r) = verify_fevs(procs, &["--deadlock", mode], "persist_modes_ok.c");
        assert_holds(code, &r);
    }
}

/// fevs persist_bsend_small_bad.c: the attached buffer has room for one int,
/// the MPI_Bsend_init request sends two. Open MPI does not check the room for
/// a persistent buffered send (mpirun -np 2: exit 0); MPI makes it erroneous.
#[test]
fn a_started_buffered_request_without_room_overflows_the_attached_buffer() {
    let (code, r) = verify_fevs("2", &[], "persist_bsend_small_bad.c");
    assert_violated(code, &r, "buffer-overflow", Some(40));
    assert!(
        message(&r).contains("MPI_Bsend_init request needs"),
        "{r:#}"
    );
}

/// A started MPI_Bsend_init request with no buffer attached is a
/// buffer-overflow (MPI: erroneous). Open MPI 4.1.4, mpirun -np 2: exit 0 by
/// default (below its eager limit the message leaves at once); with zero
/// buffering the run hangs (killed by `timeout 30`, rc 124).
#[test]
fn a_buffered_request_started_with_no_buffer_attached_is_an_error() {
    let text = program(
        "",
        "    int x = 5, y = 0;\n\
    MPI_Request r;\n\
    if (rank == 0) {\n\
        MPI_Bsend_init(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);\n\
        MPI_Start(&r);\n\
        MPI_Wait(&r, MPI_STATUS_IGNORE);\n\
        MPI_Request_free(&r);\n\
    } else if (rank == 1) {\n\
        MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n\
        assert(y == 5);\n\
    }",
    );
    let (code, r) = verify("2", &[], &text);
    assert_violated(code, &r, "buffer-overflow", None);
    assert!(message(&r).contains("no buffer attached"), "{r:#}");
}

/// MPI: a wait on an inactive persistent request returns at once with an empty
/// status and leaves the handle; MPI_Request_free makes it MPI_REQUEST_NULL.
/// mpirun -np 2, both modes: exit 0.
#[test]
fn a_wait_on_an_inactive_persistent_request_returns_at_once() {
    let text = program(
        "",
        "    int x = 5, y = 0;\n\
    MPI_Request r;\n\
    if (rank == 0) {\n\
        MPI_Send_init(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);\n\
        MPI_Wait(&r, MPI_STATUS_IGNORE);\n\
        MPI_Start(&r);\n\
        MPI_Wait(&r, MPI_STATUS_IGNORE);\n\
        assert(r != MPI_REQUEST_NULL);\n\
        MPI_Request_free(&r);\n\
        assert(r == MPI_REQUEST_NULL);\n\
    } else if (rank == 1) {\n\
        MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n\
        assert(y == 5);\n\
    }",
    );
    let (code, r) = verify("2", &[], &text);
    assert_holds(code, &r);
}

/// After MPI_Wait the request of an MPI_Isend is MPI_REQUEST_NULL. mpirun -np 2,
/// both modes: Open MPI stops with an error in MPI_Start.
#[test]
fn starting_a_request_that_is_not_persistent_is_an_error() {
    let text = program(
        "",
        "    int x = 5, y = 0;\n\
    MPI_Request r;\n\
    if (rank == 0) {\n\
        MPI_Isend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);\n\
        MPI_Wait(&r, MPI_STATUS_IGNORE);\n\
        MPI_Start(&r);\n\
    } else if (rank == 1) {\n\
        MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n\
    }",
    );
    let (code, r) = verify("2", &[], &text);
    assert_violated(code, &r, "invalid-pointer", Some(BODY + 5));
    assert!(
        message(&r).contains("MPI_Start on MPI_REQUEST_NULL"),
        "{r:#}"
    );
}

/// A chain of MPI_Ssend_init / MPI_Recv_init, MPI_PROC_NULL at the ends, started
/// twice with MPI_Startall. mpirun -np 3, both modes: exit 0.
#[test]
fn persistent_synchronous_sends_and_proc_null_complete() {
    let text = program(
        "",
        "    int x = rank, y = -1, i;\n\
    MPI_Request r[2];\n\
    int right = rank + 1 < size ? rank + 1 : MPI_PROC_NULL;\n\
    int left = rank > 0 ? rank - 1 : MPI_PROC_NULL;\n\
    MPI_Ssend_init(&x, 1, MPI_INT, right, 0, MPI_COMM_WORLD, &r[0]);\n\
    MPI_Recv_init(&y, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &r[1]);\n\
    for (i = 0; i < 2; i++) {\n\
        MPI_Startall(2, r);\n\
        MPI_Waitall(2, r, MPI_STATUSES_IGNORE);\n\
        assert(rank == 0 ? y == -1 : y == rank - 1);\n\
    }\n\
    MPI_Request_free(&r[0]);\n\
    MPI_Request_free(&r[1]);",
    );
    let (code, r) = verify("3", &[], &text);
    assert_holds(code, &r);
    let (code, r) = verify("3", &["--deadlock", "potential"], &text);
    assert_holds(code, &r);
}

/// Ranks 0 and 1 each start an MPI_Ssend_init'ed send to the other and wait for
/// it before receiving. mpirun -np 2: hangs in both modes (timeout 10 s).
#[test]
fn two_started_synchronous_sends_to_each_other_deadlock() {
    let text = program(
        "",
        "    int x = rank, y = -1;\n\
    MPI_Request r;\n\
    if (rank < 2) {\n\
        MPI_Ssend_init(&x, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, &r);\n\
        MPI_Start(&r);\n\
        MPI_Wait(&r, MPI_STATUS_IGNORE);\n\
        MPI_Recv(&y, 1, MPI_INT, 1 - rank, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n\
        MPI_Request_free(&r);\n\
    }",
    );
    let (code, r) = verify("2", &[], &text);
    assert_violated(code, &r, "deadlock", None);
}

/// fevs mpi_p2p_free_pending_bad.c (for X <= 0 nothing is sent to the freed
/// receive): mpirun -np 2 with X = 0, both modes: exit 0 (no symptom).
/// And an active persistent receive freed before its message arrives, its buffer
/// never used again: correct, since the freed receive takes its message at the
/// latest in MPI_Finalize (MPI 4.1 §11.2.2 asks only that the request be freed
/// and the matching receive posted); mpirun -np 2, both modes: exit 0.
#[test]
fn a_freed_receive_that_may_never_complete_is_reported() {
    let (code, r) = verify_fevs("2", &[], "mpi_p2p_free_pending_bad.c");
    assert_violated(code, &r, "memory-leak", Some(28));
    assert!(message(&r).contains("never completes"), "{r:#}");
    let text = program(
        "",
        "    int x = 7, y = 0;\n\
    MPI_Request r;\n\
    if (rank == 0) {\n\
        MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);\n\
    } else if (rank == 1) {\n\
        MPI_Recv_init(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &r);\n\
        MPI_Start(&r);\n\
        MPI_Request_free(&r);\n\
    }\n\
    MPI_Barrier(MPI_COMM_WORLD);",
    );
    let (code, r) = verify("2", &[], &text);
    assert_holds(code, &r);
}

/// fevs mpi_p2p_isend_write_bad.c: mpirun -np 2 zero-buffer mode: rank 1's
/// assertion fails (it gets the new value); default mode: exit 0.
#[test]
fn a_send_buffer_written_before_the_wait_is_local_concurrency() {
    let (code, r) = verify_fevs("2", &[], "mpi_p2p_isend_write_bad.c");
    assert_violated(code, &r, "local-concurrency", Some(30));
    assert!(message(&r).contains("MPI_Isend of line 28"), "{r:#}");
}

/// MPI_Issend, and a started MPI_Send_init, then `x = 4` before MPI_Wait:
/// mpirun -np 2 zero-buffer mode: rank 1's assertion `y == 3` fails in both;
/// default mode: exit 0.
#[test]
fn an_issend_or_started_send_buffer_written_before_the_wait_is_reported() {
    for (body, wait_line) in [
        (
            "    int x = 3, y = 0;\n\
    MPI_Request r;\n\
    if (rank == 0) {\n\
        MPI_Issend(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);\n\
        x = 4;\n\
        MPI_Wait(&r, MPI_STATUS_IGNORE);\n\
    } else if (rank == 1) {\n\
        MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n\
        assert(y == 3);\n\
    }",
            BODY + 5,
        ),
        (
            "    int x = 3, y = 0;\n\
    MPI_Request r;\n\
    if (rank == 0) {\n\
        MPI_Send_init(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);\n\
        MPI_Start(&r);\n\
        x = 4;\n\
        MPI_Wait(&r, MPI_STATUS_IGNORE);\n\
        MPI_Request_free(&r);\n\
    } else if (rank == 1) {\n\
        MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n\
        assert(y == 3);\n\
    }",
            BODY + 6,
        ),
    ] {
        let (code, r) = verify("2", &[], &program("", body));
        assert_violated(code, &r, "local-concurrency", Some(wait_line));
    }
}

/// MPI allows reading a send buffer while the send is pending. mpirun -np 2,
/// both modes: exit 0.
#[test]
fn reading_a_send_buffer_before_the_wait_and_writing_it_after_is_fine() {
    let text = program(
        "",
        "    int x[2] = {rank, 1}, y[2], s = 0;\n\
    MPI_Request r;\n\
    if (rank == 0) {\n\
        MPI_Isend(x, 2, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);\n\
        s = x[0] + x[1];\n\
        MPI_Wait(&r, MPI_STATUS_IGNORE);\n\
        x[1] = 9;\n\
        assert(s == 1);\n\
    } else if (rank == 1) {\n\
        MPI_Recv(y, 2, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n\
        assert(y[0] == 0 && y[1] == 1);\n\
    }",
    );
    let (code, r) = verify("2", &[], &text);
    assert_holds(code, &r);
}

/// fevs mpi_p2p_sendrecv_overlap_bad.c (blocks overlap for K > 2) and one scalar
/// as both buffers: mpirun -np 2, both modes: exit 0 (Open MPI copies the send
/// data out first; no symptom). MPI_Sendrecv_replace, the call for one buffer:
/// mpirun -np 2 and 3, both modes: exit 0.
#[test]
fn sendrecv_buffers_must_be_disjoint() {
    let (code, r) = verify_fevs("2", &[], "mpi_p2p_sendrecv_overlap_bad.c");
    assert_violated(code, &r, "local-concurrency", Some(27));
    let (code, r) = verify("2", &[], &program("", "    int v = rank;\n\
    MPI_Sendrecv(&v, 1, MPI_INT, (rank + 1) % size, 0, &v, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);"));
    assert_violated(code, &r, "local-concurrency", Some(BODY + 1));
    let (code, r) = verify("3", &[], &program("", "    int v = rank;\n\
    MPI_Sendrecv_replace(&v, 1, MPI_INT, (rank + 1) % size, 0, (rank + size - 1) % size, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);\n\
    assert(v == (rank + size - 1) % size);"));
    assert_holds(code, &r);
}

/// fevs mpi_p2p_in_place_ok.c: mpirun -np 3, both modes: OUT total = 21, exit 0.
/// MPI_Scan and MPI_Reduce_scatter in place: mpirun -np 3, both modes: exit 0.
#[test]
fn collectives_take_mpi_in_place() {
    let (code, r) = verify_fevs("3", &[], "mpi_p2p_in_place_ok.c");
    assert_holds(code, &r);
    let (code, r) = verify_fevs("2", &[], "mpi_p2p_in_place_ok.c");
    assert_holds(code, &r);
    let (code, r) = verify(
        "3",
        &[],
        &program(
            "",
            "    int v[2] = {rank, 1};\n\
    int w[3] = {1, 2, 3}, counts[3] = {1, 1, 1};\n\
    MPI_Scan(MPI_IN_PLACE, v, 2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);\n\
    assert(v[0] == rank * (rank + 1) / 2 && v[1] == rank + 1);\n\
    MPI_Reduce_scatter(MPI_IN_PLACE, w, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);\n\
    assert(w[0] == (rank + 1) * size);",
        ),
    );
    assert_holds(code, &r);
}

/// fevs mpi_p2p_in_place_bad.c (a non-root of MPI_Reduce) and MPI_Bcast:
/// mpirun -np 2, both modes: Open MPI stops with an error in the call.
#[test]
fn mpi_in_place_where_mpi_forbids_it_is_reported() {
    let (code, r) = verify_fevs("2", &[], "mpi_p2p_in_place_bad.c");
    assert_violated(code, &r, "invalid-pointer", Some(26));
    let (code, r) = verify(
        "2",
        &[],
        &program(
            "",
            "    int v = rank;\n\
    MPI_Bcast(MPI_IN_PLACE, 1, MPI_INT, 0, MPI_COMM_WORLD);",
        ),
    );
    assert_violated(code, &r, "invalid-pointer", Some(BODY + 1));
}

/// Not modelled yet: exit 2 naming the construct (mpirun -np 2: exit 0).
#[test]
fn mpi_in_place_in_a_nonblocking_collective_is_a_clear_refusal() {
    let (code, r) = verify(
        "2",
        &[],
        &program(
            "",
            "    int v = rank;\n\
    MPI_Request r;\n\
    MPI_Iallreduce(MPI_IN_PLACE, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);\n\
    MPI_Wait(&r, MPI_STATUS_IGNORE);",
        ),
    );
    assert_eq!(r["verdict"], "error", "{r:#}");
    assert_eq!(code, 2);
    let error = r["error"].as_str().unwrap_or("");
    assert!(error.contains("MPI_IN_PLACE in MPI_Iallreduce"), "{error}");
    assert!(error.contains(&format!("prog.c:{}:", BODY + 2)), "{error}");
}

/// fevs mpi_p2p_matrix_ok.c (`&b[0][0]` of `double b[3][3]` as 9 elements,
/// `&b[1][0]` as 6): mpirun -np 2, both modes: exit 0. mpi_p2p_matrix_bad.c
/// (6 elements from `&b[1][1]`): AddressSanitizer, both modes:
/// stack-buffer-overflow.
#[test]
fn a_matrix_is_one_message_buffer() {
    let (code, r) = verify_fevs("2", &[], "mpi_p2p_matrix_ok.c");
    assert_holds(code, &r);
    let (code, r) = verify_fevs("2", &[], "mpi_p2p_matrix_bad.c");
    assert_violated(code, &r, "out-of-bounds", Some(27));
    assert!(
        message(&r).contains("elements 4 to 9 of a buffer of 9 elements"),
        "{r:#}"
    );
}

/// fevs mpi_p2p_signature_ok.c (4 x MPI_INT as 2 x MPI_2INT and back):
/// mpirun -np 2, both modes: exit 0.
#[test]
fn type_signatures_match_not_datatype_names() {
    let (code, r) = verify_fevs("2", &[], "mpi_p2p_signature_ok.c");
    assert_holds(code, &r);
}

/// fevs mpi_p2p_local_ok.c (MPI_Init_thread, MPI_Query_thread,
/// MPI_Get_processor_name, MPI_Type_size, MPI_Aint, MPI_Reduce_local,
/// MPI_LONG_DOUBLE): mpirun -np 2 and 3, both modes: exit 0.
#[test]
fn local_mpi_calls_of_real_codes_are_modelled() {
    let (code, r) = verify_fevs("2", &[], "mpi_p2p_local_ok.c");
    assert_holds(code, &r);
    let (code, r) = verify_fevs("3", &[], "mpi_p2p_local_ok.c");
    assert_holds(code, &r);
}

/// MPI_Alltoallw with NULL arrays (modelled since issue 20: see mpi_alltoallw.rs):
/// Open MPI aborts with MPI_ERR_ARG (mpirun -np 2, rc 13).
#[test]
fn mpi_alltoallw_with_null_arrays_is_an_invalid_pointer() {
    let (code, r) = verify(
        "2",
        &[],
        &program(
            "",
            "    MPI_Alltoallw(0, 0, 0, 0, 0, 0, 0, 0, MPI_COMM_WORLD);",
        ),
    );
    assert_violated(code, &r, "invalid-pointer", Some(BODY));
}

/// A row `&m[R][0]` of `double m[3][N]` sent and received whole, at a
/// symbolic row `R` (laplace's halo rows; `-i N=3`: with a symbolic `N` too
/// the first assertion is only a possible violation, before this change as
/// well, at c66c94c and 00e99cc): the buffer is
/// the row (issue 21: through the whole matrix it was written element by
/// element, 7.2 GB on laplace np 5), and the values land where C puts them.
/// The twin sends and receives N + 1 elements from the row: they run into
/// the next row, or past the matrix for R = 2. Confirmed with mpicc
/// -fsanitize=address, mpirun -np 2, N = 1 and 3, R = 0 and 2: the first
/// exits 0 every time; the twin fails the next-row assertion (R = 0) or
/// AddressSanitizer reports a global-buffer-overflow (R = 2).
const ROW_PROGRAM: &str = "#include <mpi.h>
#include <assert.h>
#pragma TASS input {1 <= N && N <= 3} int
#define N 3
#pragma TASS input {0 <= R && R < 3} int
#define R 0
double m[3][N];
int main(int argc, char **argv) {
    int rank, i, j;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    for (i = 0; i < 3; i++)
        for (j = 0; j < N; j++)
            m[i][j] = rank * 10 + i + j;
    if (rank == 0) {
        MPI_Send(&m[R][0], COUNT, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&m[R][0], COUNT, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(m[R][N - 1] == R + N - 1);
        if (R + 1 < 3)
            assert(m[R + 1][0] == 10 + R + 1);
    }
    MPI_Finalize();
    return 0;
}
";

#[test]
fn a_row_at_a_symbolic_index_is_its_own_buffer() {
    let n3 = ["-i", "N=3"];
    let (code, r) = verify("2", &n3, &ROW_PROGRAM.replace("COUNT", "N"));
    assert_holds(code, &r);
    // Past the row the buffer is the whole matrix again (9 elements).
    let (code, r) = verify("2", &n3, &ROW_PROGRAM.replace("COUNT", "N + 1"));
    assert_violated(code, &r, "out-of-bounds", Some(16));
    assert!(message(&r).contains("of a buffer of 9 elements"), "{r:#}");
}
