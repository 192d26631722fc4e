//! End-to-end tests of one-sided communication (RMA, issue 20 part C): the
//! fevs/mpi/rma_*.c programs with the reduction on and off, and small inline
//! programs. Every expected verdict was confirmed with Open MPI 4.1.4
//! (`mpirun --allow-run-as-root --oversubscribe -np N`, and for the
//! zero-buffer mode `--mca osc pt2pt --mca btl self,tcp --mca
//! btl_tcp_eager_limit 56 --mca btl_tcp_rndv_eager_limit 56`: the default
//! one-sided component needs a shared-memory transport); races were run many
//! times, as each comment says.

mod common;

use std::path::{Path, PathBuf};

use common::{assert_holds, assert_violated, inline, verify, verify_reduced};
use serde_json::Value;

fn fevs(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fevs/mpi")
        .join(name)
}

/// Runs `file` on `procs` processes with the reduction on and off; both must
/// give `verdict`, and for a violation `property` at `line` (when given).
fn check_both(
    procs: &str,
    file: &PathBuf,
    verdict: &str,
    property: Option<&str>,
    line: Option<u64>,
) -> Value {
    let mut last = Value::Null;
    for reduced in [true, false] {
        let (code, r) = verify_reduced(procs, &[], file, reduced);
        match property {
            None => {
                assert_eq!(verdict, "holds");
                assert_holds(code, &r);
            }
            Some(p) => assert_violated(code, &r, p, if reduced { line } else { None }),
        }
        last = r;
    }
    last
}

/// mpirun -np 2 and 3, default and zero-buffer: every assert holds.
#[test]
fn fevs_fence_epochs_hold() {
    check_both("3", &fevs("rma_fence_ok.c"), "holds", None, None);
}

/// mpirun -np 2 and 3, default and zero-buffer: counter = n(n+1)/2.
#[test]
fn fevs_accumulates_with_one_operation_hold() {
    check_both("3", &fevs("rma_accumulate_ok.c"), "holds", None, None);
}

/// mpirun -np 2 and 3, default and zero-buffer: every assert holds.
#[test]
fn fevs_disjoint_local_accesses_hold() {
    check_both("2", &fevs("rma_disjoint_ok.c"), "holds", None, None);
}

/// mpirun -np 3, 40 runs: x = 1 17 times, x = 2 23 times.
#[test]
fn fevs_two_puts_to_one_location_race() {
    check_both(
        "3",
        &fevs("rma_race_bad.c"),
        "violated",
        Some("rma-race"),
        Some(18),
    );
}

/// mpirun -np 3: MPI_ERR_RMA_SYNC.
#[test]
fn fevs_put_before_the_first_fence_is_an_epoch_error() {
    check_both(
        "2",
        &fevs("rma_no_epoch_bad.c"),
        "violated",
        Some("epoch"),
        Some(15),
    );
}

/// mpirun -np 3 runs to the end: Open MPI does not report it.
#[test]
fn fevs_a_window_never_freed_leaks() {
    check_both(
        "2",
        &fevs("rma_leak_bad.c"),
        "violated",
        Some("resource-leak"),
        Some(9),
    );
}

/// mpirun -np 3: MPI_ERR_RMA_RANGE.
#[test]
fn fevs_a_put_past_the_window_is_out_of_bounds() {
    check_both(
        "2",
        &fevs("rma_oob_bad.c"),
        "violated",
        Some("out-of-bounds"),
        Some(16),
    );
}

/// mpirun -np 2: x = 1 in 30 runs (osc rdma and pt2pt); MPI may read the buffer up to the fence, so 2 is allowed too.
#[test]
fn fevs_writing_a_put_origin_before_the_fence_is_local_concurrency() {
    check_both(
        "2",
        &fevs("rma_origin_write_bad.c"),
        "violated",
        Some("local-concurrency"),
        Some(20),
    );
}

/// mpirun -np 2: got = 42 in 20 runs with osc rdma, got = 0 in 10 runs with osc pt2pt.
#[test]
fn fevs_reading_a_get_result_before_the_fence_is_local_concurrency() {
    check_both(
        "2",
        &fevs("rma_get_read_bad.c"),
        "violated",
        Some("local-concurrency"),
        Some(20),
    );
}

/// mpirun -np 2: buf[1] = 1 in 20 runs, buf[1] = 7 in 5 runs with a 200 ms sleep before the store.
#[test]
fn fevs_a_target_store_to_a_put_location_is_local_concurrency() {
    check_both(
        "2",
        &fevs("rma_target_store_bad.c"),
        "violated",
        Some("local-concurrency"),
        None,
    );
}

/// MPI_SUM and MPI_MAX into one location in one epoch. mpirun -np 3: x = 3 (sum first) 19 times, x = 4 (max first) 11 times in 30 runs (osc rdma and pt2pt).
#[test]
fn accumulates_with_different_operations_race() {
    let text = r#"#include <mpi.h>
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
int x = 0;
int v;
MPI_Win win;
int main(int argc, char *argv[]) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win_create(&x, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    v = 5 - 2 * rank;
    if (rank == 1)
        MPI_Accumulate(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
    if (rank == 2)
        MPI_Accumulate(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_MAX, win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        printf("x = %d\n", x);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
"#;
    check_both("3", &inline(text), "violated", Some("rma-race"), Some(19));
}

/// Two gets of one location in one epoch. mpirun -np 2 and 3, default and zero-buffer (osc pt2pt, 56-byte eager limit): every assert holds.
#[test]
fn two_gets_of_one_location_do_not_race() {
    let text = r#"#include <mpi.h>
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
int x = 7;
int got = 0;
MPI_Win win;
int main(int argc, char *argv[]) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win_create(&x, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank > 0)
        MPI_Get(&got, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (rank > 0)
        assert(got == 7);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
"#;
    check_both("3", &inline(text), "holds", None, None);
}

/// A put and a get of one location in one epoch. mpirun -np 3: got = 1 23 times, got = 7 7 times in 30 runs.
#[test]
fn a_put_and_a_get_of_one_location_race() {
    let text = r#"#include <mpi.h>
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
int x = 7;
int got = 0;
MPI_Win win;
int main(int argc, char *argv[]) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win_create(&x, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 1)
        MPI_Put(&rank, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    if (rank == 2)
        MPI_Get(&got, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    if (rank == 2)
        printf("got = %d\n", got);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
"#;
    check_both("3", &inline(text), "violated", Some("rma-race"), Some(18));
}

/// A malloc-ed window, one put per fence epoch in a loop (the pending operations and the heap renumbering keep the state canonical, so the search ends). mpirun -np 2 and 3, default and zero-buffer: every assert holds.
#[test]
fn a_heap_window_over_several_epochs_holds() {
    let text = r#"#include <mpi.h>
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
MPI_Win win;
int main(int argc, char *argv[]) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int vals[3] = {0, 1, 2};
    int *a = malloc(3 * sizeof(int));
    for (int i = 0; i < 3; i++)
        a[i] = -1;
    MPI_Win_create(a, 3 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    for (int i = 0; i < 3; i++) {
        MPI_Win_fence(0, win);
        if (rank == 1)
            MPI_Put(&vals[i], 1, MPI_INT, 0, i, 1, MPI_INT, win);
    }
    MPI_Win_fence(0, win);
    if (rank == 0)
        assert(a[0] == 0 && a[1] == 1 && a[2] == 2);
    MPI_Win_free(&win);
    free(a);
    MPI_Finalize();
    return 0;
}
"#;
    check_both("3", &inline(text), "holds", None, None);
}

/// MPI_Win_free right after a put, no fence: MPI requires the epoch to be closed. Open MPI does not report it (mpirun -np 2 exits 0).
#[test]
fn freeing_a_window_with_an_open_epoch_is_an_epoch_error() {
    let text = r#"#include <mpi.h>
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
int x = 0;
MPI_Win win;
int main(int argc, char *argv[]) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win_create(&x, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 1)
        MPI_Put(&rank, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
"#;
    check_both("2", &inline(text), "violated", Some("epoch"), Some(16));
}

/// MPI_PROC_NULL as target. mpirun -np 2 and 3, default and zero-buffer: every assert holds.
#[test]
fn a_put_to_proc_null_moves_nothing() {
    let text = r#"#include <mpi.h>
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
int x = 0;
MPI_Win win;
int main(int argc, char *argv[]) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win_create(&x, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    MPI_Put(&rank, 1, MPI_INT, MPI_PROC_NULL, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    assert(x == 0);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
"#;
    check_both("2", &inline(text), "holds", None, None);
}

/// Process 0 calls a second fence, the others go on to MPI_Win_free. mpirun -np 3 hangs (timeout 20 s, exit 124).
#[test]
fn a_fence_only_one_process_calls_deadlocks() {
    let text = r#"#include <mpi.h>
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
int x = 0;
MPI_Win win;
int main(int argc, char *argv[]) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win_create(&x, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
"#;
    check_both("2", &inline(text), "violated", Some("deadlock"), Some(15));
}

/// MPI_Put on the MPI_WIN_NULL that MPI_Win_free left. mpirun -np 3: MPI_Put reports an error (exit 53).
#[test]
fn a_put_on_a_freed_window_is_an_invalid_handle() {
    let text = r#"#include <mpi.h>
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
int x = 0;
MPI_Win win;
int main(int argc, char *argv[]) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win_create(&x, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Put(&rank, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    MPI_Finalize();
    return 0;
}
"#;
    check_both(
        "2",
        &inline(text),
        "violated",
        Some("invalid-pointer"),
        Some(16),
    );
}

/// MPI_PROD accumulates of doubles from every process. mpirun -np 2 and 3, default and zero-buffer: every assert holds.
#[test]
fn accumulate_of_doubles_with_prod_holds() {
    let text = r#"#include <mpi.h>
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
double x[2] = {1.0, 1.0};
double v[2];
MPI_Win win;
int main(int argc, char *argv[]) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win_create(x, 2 * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    v[0] = rank; v[1] = 2.0;
    MPI_Win_fence(0, win);
    MPI_Accumulate(v, 2, MPI_DOUBLE, 0, 0, 2, MPI_DOUBLE, MPI_PROD, win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        assert(x[0] == 0.0 && x[1] == (size == 2 ? 4.0 : 8.0));
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
"#;
    check_both("3", &inline(text), "holds", None, None);
}

/// The origin buffer is a block-scope variable declared again (a new lifetime) before the fence. mpirun -np 2 (gcc -O2): x = 10 in 15 runs (both osc); MPI may read the buffer up to the fence.
#[test]
fn a_block_variable_as_origin_buffer_ends_its_life_before_the_fence() {
    let text = r#"#include <mpi.h>
#include <stdio.h>
int x = 0;
MPI_Win win;
int main(int argc, char *argv[]) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(&x, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    for (int k = 0; k < 2; k++) {
        int v = k + 10;
        if (rank == 1 && k == 0)
            MPI_Put(&v, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    }
    MPI_Win_fence(0, win);
    if (rank == 0)
        printf("x = %d\n", x);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
"#;
    check_both(
        "2",
        &inline(text),
        "violated",
        Some("local-concurrency"),
        Some(12),
    );
}

/// `MPI_Win_allocate`: each process puts its rank into its right neighbour's
/// memory. mpirun -np 2 and 3, default and zero-buffer: every assert holds
/// (with -fsanitize=address only Open MPI's own leaks are reported).
#[test]
fn win_allocate_gives_memory_the_window_exposes() {
    let text = r#"#include <mpi.h>
#include <assert.h>
int main(int argc, char *argv[]) {
    int rank, size;
    int *base;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    for (int i = 0; i < 4; i++)
        base[i] = 0;
    MPI_Win_fence(0, win);
    MPI_Put(&rank, 1, MPI_INT, (rank + 1) % size, 1, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    assert(base[1] == (rank + size - 1) % size);
    assert(base[0] == 0);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
"#;
    check_both("3", &inline(text), "holds", None, None);
}

/// `MPI_Win_free` frees the memory of `MPI_Win_allocate`. mpirun -np 2 and 3
/// with -fsanitize=address: SEGV (osc rdma) or heap-use-after-free (osc pt2pt)
/// at the printf.
#[test]
fn win_allocate_memory_is_freed_with_the_window() {
    let text = r#"#include <mpi.h>
#include <stdio.h>
int main(int argc, char *argv[]) {
    double *base;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Win_allocate(2 * sizeof(double), sizeof(double), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
    base[0] = 1.5;
    MPI_Win_fence(0, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    printf("%f\n", base[0]);
    MPI_Finalize();
    return 0;
}
"#;
    check_both(
        "2",
        &inline(text),
        "violated",
        Some("invalid-pointer"),
        Some(12),
    );
}

/// mpirun -np 2 and 3, default and zero-buffer: every assert holds.
#[test]
fn fevs_exclusive_locks_hold() {
    check_both("3", &fevs("rma_lock_ok.c"), "holds", None, None);
}

/// mpirun -np 3: x = 1 8 times, x = 2 22 times in 30 runs (osc rdma and pt2pt).
#[test]
fn fevs_puts_under_shared_locks_race() {
    check_both(
        "3",
        &fevs("rma_lock_race_bad.c"),
        "violated",
        Some("rma-race"),
        Some(17),
    );
}

/// mpirun -np 3: x = 0 12 times, x = 1 18 times in 30 runs.
#[test]
fn fevs_an_unsynchronised_target_read_is_local_concurrency() {
    check_both(
        "2",
        &fevs("rma_lock_target_read_bad.c"),
        "violated",
        Some("local-concurrency"),
        Some(23),
    );
}

/// Exclusive locks serialise the two puts (x ends 1 or 2, both allowed). mpirun -np 2 and 3, default and zero-buffer: every assert holds.
#[test]
fn puts_to_one_location_under_exclusive_locks_do_not_race() {
    let text = r#"#include <mpi.h>
#include <assert.h>
#include <stdio.h>
int x = 0;
MPI_Win win;
int main(int argc, char *argv[]) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win_create(&x, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank > 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Put(&rank, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        assert(x >= 1 && x < size);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
"#;
    check_both("3", &inline(text), "holds", None, None);
}

/// mpirun -np 2 and 3: MPI_ERR_RMA_SYNC (exit 47).
#[test]
fn unlock_without_a_lock_is_an_epoch_error() {
    let text = r#"#include <mpi.h>
#include <assert.h>
#include <stdio.h>
int x = 0;
MPI_Win win;
int main(int argc, char *argv[]) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win_create(&x, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 1)
        MPI_Win_unlock(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
"#;
    check_both("2", &inline(text), "violated", Some("epoch"), Some(13));
}

/// mpirun -np 2 and 3 with osc pt2pt: MPI_ERR_RMA_CONFLICT (exit 46); osc rdma accepts it.
#[test]
fn locking_a_target_twice_is_an_epoch_error() {
    let text = r#"#include <mpi.h>
#include <assert.h>
#include <stdio.h>
int x = 0;
MPI_Win win;
int main(int argc, char *argv[]) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win_create(&x, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 1) {
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        MPI_Win_unlock(0, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
"#;
    check_both("2", &inline(text), "violated", Some("epoch"), Some(14));
}

/// MPI_Win_free while a lock is held. mpirun -np 2 with osc pt2pt hangs (timeout 20 s); osc rdma exits 0.
#[test]
fn a_lock_never_released_is_an_epoch_error() {
    let text = r#"#include <mpi.h>
#include <assert.h>
#include <stdio.h>
int x = 0;
MPI_Win win;
int main(int argc, char *argv[]) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win_create(&x, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 1) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Put(&rank, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
"#;
    check_both("2", &inline(text), "violated", Some("epoch"), Some(16));
}

/// lock_all, put, flush, get, flush_all, unlock_all. mpirun -np 2 and 3, default and zero-buffer: every assert holds.
#[test]
fn flush_and_lock_all_hold() {
    let text = r#"#include <mpi.h>
#include <assert.h>
#include <stdio.h>
int x[2] = {0, 0};
int got = -1;
MPI_Win win;
int main(int argc, char *argv[]) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win_create(x, 2 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 1) {
        MPI_Win_lock_all(0, win);
        MPI_Put(&rank, 1, MPI_INT, 0, 1, 1, MPI_INT, win);
        MPI_Win_flush(0, win);
        MPI_Get(&got, 1, MPI_INT, 0, 1, 1, MPI_INT, win);
        MPI_Win_flush_all(win);
        assert(got == 1);
        MPI_Win_unlock_all(win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        assert(x[1] == 1);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
"#;
    check_both("3", &inline(text), "holds", None, None);
}

/// MPI_Raccumulate's request never completed: a request leak, as for
/// MPI_Isend (was refused by name before issue 20's request-based
/// accumulates; more in mpi_rma_accumulate_request.rs).
#[test]
fn an_raccumulate_never_waited_for_leaks() {
    let text = r#"#include <mpi.h>
int main(int argc, char *argv[]) {
    int x = 0, one = 1; MPI_Request req;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Win_create(&x, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    MPI_Raccumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win, &req);
    MPI_Win_unlock(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
"#;
    let (code, r) = verify("1", &[], text);
    assert_violated(code, &r, "memory-leak", Some(8));
}

/// The target copies into its window with `memcpy` while a put into it is
/// pending: library functions are taken to touch the whole object their
/// pointer argument points into. mpirun -np 2: buf[1] = 1 in 13 runs, = 7 in
/// 3 runs with a 200 ms sleep before the memcpy.
#[test]
fn a_memcpy_into_window_memory_is_local_concurrency() {
    let text = r#"#include <mpi.h>
#include <stdio.h>
#include <string.h>
int buf[2] = {0, 0};
int src[2] = {7, 7};
MPI_Win win;
int main(int argc, char *argv[]) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, 2 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 1)
        MPI_Put(&rank, 1, MPI_INT, 0, 1, 1, MPI_INT, win);
    if (rank == 0)
        memcpy(buf, src, 2 * sizeof(int));
    MPI_Win_fence(0, win);
    if (rank == 0)
        printf("buf[1] = %d\n", buf[1]);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
"#;
    check_both(
        "2",
        &inline(text),
        "violated",
        Some("local-concurrency"),
        None,
    );
}

/// `MPI_Send` from the buffer of a pending get. mpirun -np 2: got = 5 in 8
/// runs (osc rdma), got = 0 in 5 runs (osc pt2pt).
#[test]
fn sending_from_a_pending_get_buffer_is_local_concurrency() {
    let text = r#"#include <mpi.h>
#include <stdio.h>
int x = 5;
int got = 0;
MPI_Win win;
int main(int argc, char *argv[]) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(&x, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 1) {
        MPI_Get(&got, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
        MPI_Send(&got, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    if (rank == 0) {
        MPI_Recv(&got, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("got = %d\n", got);
    }
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
"#;
    check_both(
        "2",
        &inline(text),
        "violated",
        Some("local-concurrency"),
        Some(14),
    );
}

/// One origin's own operations on the same target memory in one epoch:
/// MPI orders only accumulates (MPI 4.1 12.7, rule 2: a location an update
/// has started on is not accessed by another RMA operation until the update
/// completes), so a put then a get of the same element is an rma-race even
/// from one process (tass said holds before session 12). Open MPI 4.1 (-np 2;
/// default, osc pt2pt, osc ucx; 3 runs each) happened to return the put's 7
/// every time: the error is by the standard, not seen in those runs. Puts to
/// different elements, and two MPI_SUM accumulates to one element, hold
/// (mpirun: exit 0).
#[test]
fn one_origins_put_then_get_of_one_location_is_a_race() {
    let program = |ops: &str| {
        format!(
            "#include <mpi.h>\n#include <assert.h>\nint main(int argc, char **argv) {{\n\
             int rank, buf[2] = {{0, 0}}, v = 7, got = -1;\n  MPI_Win win;\n\
             MPI_Init(&argc, &argv);\n  MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n\
             MPI_Win_create(buf, 2 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);\n\
             MPI_Win_fence(0, win);\n  if (rank == 0) {{\n{ops}\n  }}\n  MPI_Win_fence(0, win);\n\
             (void)got;\n  MPI_Win_free(&win);\n  MPI_Finalize();\n  return 0;\n}}\n"
        )
    };
    let race = inline(&program(
        "    MPI_Put(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win);\n    MPI_Get(&got, 1, MPI_INT, 1, 0, 1, MPI_INT, win);",
    ));
    check_both("2", &race, "violated", Some("rma-race"), Some(12));
    let apart = inline(&program(
        "    MPI_Put(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, win);\n    MPI_Get(&got, 1, MPI_INT, 1, 1, 1, MPI_INT, win);",
    ));
    check_both("2", &apart, "holds", None, None);
    let summed = inline(&program(
        "    MPI_Accumulate(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, MPI_SUM, win);\n    MPI_Accumulate(&v, 1, MPI_INT, 1, 0, 1, MPI_INT, MPI_SUM, win);",
    ));
    check_both("2", &summed, "holds", None, None);
}
