//! Session 17b adversarial probe (`/work/probe/s17b/`): a pending receive's
//! buffer read behind a short-circuit operator. `step_touches`
//! (`state/src/mpi/receive_buffer.rs`) took every lvalue of a guard as read,
//! so `if (flag && v == 1)` after an `MPI_Test` that found nothing was a
//! *provable* `local-concurrency` violation although C never reads `v` there.
//! The check now conditions each access on the operands before it
//! (`rma::local::transition_touches`). Each program runs reduced and with
//! `--por off`; real runs: `mpicc -g`, `mpirun --allow-run-as-root
//! --oversubscribe -np 2`, default and zero-buffer (`--mca btl self,tcp --mca
//! btl_tcp_eager_limit 56 --mca btl_tcp_rndv_eager_limit 56`).

mod common;

use common::reduced_and_full;

/// Reads `v` only when the test says the receive completed. Real runs
/// (default and zero-buffer): exit 0. Before the fix: violated,
/// local-concurrency (provable) at the `if`.
const READ_BEHIND_AND: &str = r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    int rank, v = 0, flag = 0, y = 0;
    MPI_Request r;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Irecv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r);
        while (!flag) {
            MPI_Test(&r, &flag, MPI_STATUS_IGNORE);
            if (flag && v == 1) y = 1;
        }
    } else if (rank == 1) {
        v = 1;
        MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return y == 7;
}
"#;

#[test]
fn a_buffer_read_skipped_by_and_is_no_conflict() {
    reduced_and_full("2", &[], READ_BEHIND_AND, "holds", "");
}

/// The same read behind `||` happens exactly when the test found nothing: a
/// real conflict (MPI forbids reading the buffer before completion; the run
/// itself exits 0, as the read is of a stale value).
#[test]
fn a_buffer_read_behind_or_is_still_a_conflict() {
    let text = READ_BEHIND_AND.replace("flag && v == 1", "flag || v == 1");
    reduced_and_full("2", &[], &text, "violated", "local-concurrency");
}

/// `?:` reads only the arm it takes: `!flag ? 1 : v` reads `v` after
/// completion only (holds), `flag ? 1 : v` before it (violated).
#[test]
fn a_conditional_reads_only_the_arm_it_takes() {
    let ok = READ_BEHIND_AND.replace("if (flag && v == 1) y = 1;", "y = !flag ? 1 : v;");
    reduced_and_full("2", &[], &ok, "holds", "");
    let bad = READ_BEHIND_AND.replace("if (flag && v == 1) y = 1;", "y = flag ? 1 : v;");
    reduced_and_full("2", &[], &bad, "violated", "local-concurrency");
}

/// The same for window memory (`rma/local.rs`): rank 0 reads its window
/// memory behind `z && ...` in the fence epoch in which rank 1 puts into it.
/// With `z == 0` C never reads it (real run, default: exit 0; before the fix:
/// violated, local-concurrency provable); with `z == 1` it does (violated).
const WINDOW_READ_BEHIND_AND: &str = r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    int rank, buf = 0, one = 1, y = 0, z = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(&buf, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 1) MPI_Put(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    if (rank == 0 && z && buf == 1) y = 1;
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return y == 7;
}
"#;

#[test]
fn a_window_read_skipped_by_and_is_no_conflict() {
    reduced_and_full("2", &[], WINDOW_READ_BEHIND_AND, "holds", "");
    let taken = WINDOW_READ_BEHIND_AND.replace("z = 0;", "z = 1;");
    reduced_and_full("2", &[], &taken, "violated", "local-concurrency");
}
