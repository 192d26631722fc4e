//! Generalized active target (`MPI_Win_post`/`start`/`complete`/`wait`),
//! `MPI_Win_sync`, and the epoch checks MBI's EpochLifecycle and
//! InvalidBufferWinCreate programs exercise (a lock inside a fence epoch, a
//! window exposing memory at a NULL base).
//!
//! Every expectation was confirmed with Open MPI 4.1 (`mpicc -g
//! -fsanitize=address,undefined`, `ASAN_OPTIONS=detect_leaks=0 mpirun
//! --allow-run-as-root --oversubscribe -np N` with `--mca osc ucx`, and with
//! `--mca osc pt2pt --mca btl self,tcp --mca btl_tcp_eager_limit 56 --mca
//! btl_tcp_rndv_eager_limit 56`); each test says what the runs showed.

mod common;

use std::path::{Path, PathBuf};

use common::{assert_holds, assert_violated, inline, verify_reduced, violated_but_either_holds};

fn fevs(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fevs/mpi")
        .join(name)
}

/// Runs `file` with the reduction on and off: both give the verdict, and a
/// violation's property (its line when reduced, if given).
fn check_both(procs: &str, file: &PathBuf, property: Option<&str>, line: Option<u64>) {
    for reduced in [true, false] {
        let (code, r) = verify_reduced(procs, &[], file, reduced);
        match property {
            None => assert_holds(code, &r),
            Some(p) => assert_violated(code, &r, p, if reduced { line } else { None }),
        }
    }
}

/// mpirun -np 2 and 3, default, osc ucx, osc pt2pt zero-buffer: every assert holds.
#[test]
fn fevs_a_ring_of_post_start_complete_wait_holds() {
    check_both("2", &fevs("rma_pscw_ok.c"), None, None);
    check_both("3", &fevs("rma_pscw_ok.c"), None, None);
}

/// mpirun -np 2 (all three setups): "seen 0, then 42": the read raced the put.
#[test]
fn fevs_the_target_reading_exposed_memory_before_its_wait_is_local_concurrency() {
    check_both(
        "2",
        &fevs("rma_pscw_target_read_bad.c"),
        Some("local-concurrency"),
        Some(22),
    );
}

/// mpirun -np 3: x = 2 by default and with osc ucx, x = 1 with osc pt2pt.
#[test]
fn fevs_two_origins_putting_to_one_location_race() {
    check_both(
        "3",
        &fevs("rma_pscw_race_bad.c"),
        Some("rma-race"),
        Some(27),
    );
}

/// mpirun -np 2 hangs in all three setups (rc 124 from `timeout 15`).
#[test]
fn fevs_starting_before_the_peer_posts_deadlocks() {
    check_both(
        "2",
        &fevs("rma_pscw_start_first_bad.c"),
        Some("deadlock"),
        Some(20),
    );
}

/// Two processes with a two-int window each, `peer` the group of the other;
/// `body` runs after the window is created.
fn two_process(body: &str) -> String {
    format!(
        "#include <mpi.h>\n#include <stdio.h>\nint main(int argc, char *argv[]) {{\n\
         int rank, buf[2] = {{0, 0}}, value = 42, got = -1;\n\
         MPI_Group world, peer;\nMPI_Win win;\nMPI_Init(&argc, &argv);\n\
         MPI_Comm_rank(MPI_COMM_WORLD, &rank);\nint other = 1 - rank;\n\
         MPI_Comm_group(MPI_COMM_WORLD, &world);\nMPI_Group_incl(world, 1, &other, &peer);\n\
         MPI_Win_create(buf, 2 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);\n\
         {body}\
         MPI_Win_free(&win);\nMPI_Group_free(&peer);\nMPI_Group_free(&world);\n\
         MPI_Finalize();\nreturn 0;\n}}\n"
    )
}

/// The line of `body`'s line `k` (from 1) in [`two_process`].
fn line(k: u64) -> Option<u64> {
    Some(12 + k)
}

fn verify_both(text: &str, property: Option<&str>, at: Option<u64>) {
    check_both("2", &inline(text), property, at);
}

/// Both setups: rc 0, no "WRONG" line (the put landed, the get read 7);
/// the origin reuses its buffer after MPI_Win_complete, the target its
/// memory after MPI_Win_wait.
#[test]
fn buffers_and_memory_are_free_again_after_complete_and_wait() {
    let body = "if (rank == 0) {\n\
                MPI_Win_start(peer, 0, win);\n\
                MPI_Put(&value, 1, MPI_INT, 1, 0, 1, MPI_INT, win);\n\
                MPI_Get(&got, 1, MPI_INT, 1, 1, 1, MPI_INT, win);\n\
                MPI_Win_complete(win);\n\
                value = 5;\n\
                if (got != 7) printf(\"WRONG got %d\\n\", got);\n\
                } else {\n\
                buf[1] = 7;\n\
                MPI_Win_post(peer, 0, win);\n\
                MPI_Win_wait(win);\n\
                if (buf[0] != 42) printf(\"WRONG buf %d\\n\", buf[0]);\n\
                buf[0] = 1;\n\
                }\n";
    verify_both(&two_process(body), None, None);
    // The target touching other memory of its window during the epoch is fine.
    let body = "if (rank == 0) {\n\
                MPI_Win_start(peer, 0, win);\n\
                MPI_Put(&value, 1, MPI_INT, 1, 0, 1, MPI_INT, win);\n\
                MPI_Win_complete(win);\n\
                } else {\n\
                MPI_Win_post(peer, 0, win);\n\
                buf[1] = 3;\n\
                MPI_Win_wait(win);\n\
                }\n";
    verify_both(&two_process(body), None, None);
}

/// Both setups print "got -1": the get had not landed when it was read.
#[test]
fn reading_a_get_result_before_complete_is_local_concurrency() {
    let body = "if (rank == 0) {\n\
                MPI_Win_start(peer, 0, win);\n\
                MPI_Get(&got, 1, MPI_INT, 1, 1, 1, MPI_INT, win);\n\
                printf(\"got %d\\n\", got);\n\
                MPI_Win_complete(win);\n\
                } else {\n\
                buf[1] = 7;\n\
                MPI_Win_post(peer, 0, win);\n\
                MPI_Win_wait(win);\n\
                }\n";
    verify_both(&two_process(body), Some("local-concurrency"), line(4));
}

/// Every case: MPI_ERR_RMA_SYNC with osc pt2pt and with osc ucx (the
/// put without a start: rc 47 with both).
#[test]
fn misplaced_synchronisation_calls_are_epoch_errors() {
    // A put with no access epoch, though the target exposes its window.
    let body = "if (rank == 0) {\n\
                MPI_Put(&value, 1, MPI_INT, 1, 0, 1, MPI_INT, win);\n\
                } else {\n\
                MPI_Win_post(peer, 0, win);\n\
                MPI_Win_wait(win);\n\
                }\n";
    verify_both(&two_process(body), Some("epoch"), line(2));
    let double_post = "if (rank == 1) {\n\
                       MPI_Win_post(peer, 0, win);\n\
                       MPI_Win_post(peer, 0, win);\n\
                       MPI_Win_wait(win);\n\
                       }\n";
    verify_both(&two_process(double_post), Some("epoch"), line(3));
    let wait_alone = "if (rank == 1)\nMPI_Win_wait(win);\n";
    verify_both(&two_process(wait_alone), Some("epoch"), line(2));
    let complete_alone = "if (rank == 0)\nMPI_Win_complete(win);\n";
    verify_both(&two_process(complete_alone), Some("epoch"), line(2));
}

/// osc pt2pt: rc 1 at MPI_Win_free (osc ucx accepts it; MPI does not).
#[test]
fn freeing_a_window_with_an_open_exposure_epoch_is_an_epoch_error() {
    let body = "if (rank == 1)\nMPI_Win_post(peer, 0, win);\n";
    let (code, r) = verify_reduced("2", &[], &inline(&two_process(body)), true);
    assert_violated(code, &r, "epoch", None);
    let message = r["violations"][0]["message"].as_str().unwrap_or("");
    assert!(message.contains("MPI_Win_wait"), "{message}");
}

/// MPI_Win_sync inside a passive-target epoch: rc 0 with osc ucx and pt2pt
/// (osc ucx refuses MPI_Win_sync outside one, MPI_ERR_RMA_SYNC; the
/// standard does not, and tass accepts it anywhere on a valid window).
#[test]
fn win_sync_checks_only_its_window() {
    let body = "MPI_Win_lock_all(0, win);\nMPI_Win_sync(win);\nMPI_Win_unlock_all(win);\n";
    verify_both(&two_process(body), None, None);
    let freed = "MPI_Win w2 = win;\nMPI_Win_free(&w2);\nMPI_Win_sync(win);\n\
                 MPI_Win_create(buf, 2 * sizeof(int), sizeof(int), MPI_INFO_NULL, \
                 MPI_COMM_WORLD, &win);\n";
    verify_both(&two_process(freed), Some("invalid-pointer"), line(3));
}

/// MBI's EpochLifecycle_RMA_doubleEpoch_Win_fence_Win_lock_*: Open MPI runs
/// them to the end (rc 0 with every osc component): it does not check.
#[test]
fn a_lock_inside_a_fence_epoch_is_an_epoch_error() {
    let body = "MPI_Win_fence(0, win);\n\
                if (rank == 0) {\n\
                MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);\n\
                MPI_Put(&value, 1, MPI_INT, 1, 0, 1, MPI_INT, win);\n\
                MPI_Win_unlock(1, win);\n\
                }\n\
                MPI_Win_fence(0, win);\n";
    verify_both(&two_process(body), Some("epoch"), line(7));
    // Locks after the last fence are in no fence epoch (MPI: a fence opens
    // one only if another fence closes it).
    let body = "MPI_Win_fence(0, win);\n\
                MPI_Win_fence(0, win);\n\
                if (rank == 0) {\n\
                MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);\n\
                MPI_Put(&value, 1, MPI_INT, 1, 0, 1, MPI_INT, win);\n\
                MPI_Win_unlock(1, win);\n\
                }\n\
                MPI_Barrier(MPI_COMM_WORLD);\n";
    verify_both(&two_process(body), None, None);
}

/// MBI's InvalidParam_InvalidBufferWinCreate_*: Open MPI runs them to the
/// end (rc 0): nothing touches the window.
#[test]
fn a_window_of_positive_size_at_a_null_base_is_invalid() {
    let text = "#include <mpi.h>\nint main(int argc, char *argv[]) {\n\
                MPI_Win win;\nint *base = NULL;\nMPI_Init(&argc, &argv);\n\
                MPI_Win_create(base, 4 * sizeof(int), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);\n\
                MPI_Win_free(&win);\nMPI_Finalize();\nreturn 0;\n}\n";
    verify_both(text, Some("invalid-pointer"), Some(6));
    let empty = text.replace("4 * sizeof(int)", "0");
    verify_both(&empty, None, None);
}

/// MBI's InvalidParam_{Datatype,DatatypeNull,...}_Win_*: mpirun -np 2 aborts
/// with MPI_ERR_TYPE (rc 3). A freed derived datatype's handle is
/// MPI_DATATYPE_NULL, as MPI_Type_free leaves it.
#[test]
fn an_rma_operation_with_a_null_datatype_is_mpi_type() {
    let body = "MPI_Datatype t;\n\
                MPI_Type_contiguous(2, MPI_INT, &t);\n\
                MPI_Type_commit(&t);\n\
                MPI_Type_free(&t);\n\
                MPI_Win_fence(0, win);\n\
                if (rank == 0)\n\
                MPI_Put(&value, 1, MPI_INT, 1, 0, 1, t, win);\n\
                MPI_Win_fence(0, win);\n";
    verify_both(&two_process(body), Some("mpi-type"), line(7));
    let body = "MPI_Win_fence(0, win);\n\
                if (rank == 0)\n\
                MPI_Get(&got, 1, MPI_DATATYPE_NULL, 1, 0, 1, MPI_INT, win);\n\
                MPI_Win_fence(0, win);\n";
    verify_both(&two_process(body), Some("mpi-type"), line(3));
}

/// Rank 2's MPI_Accumulate in its access epoch is pending (its
/// MPI_Win_complete comes only after rank 1's message) when rank 1's
/// MPI_Win_complete performs its MPI_Fetch_and_op: MPI may have applied rank
/// 2's +10 first, so `old` is 0 or 10. Open MPI 4.1.4, `mpirun -np 3` (osc
/// default): "old=10" and the assertion fails (2 runs of 2). The twin
/// asserting `old == 0 || old == 10` holds.
#[test]
fn another_origins_pending_update_may_be_applied_before_a_fetch_at_complete() {
    let program = r#"#include <mpi.h>
#include <assert.h>
int main(int argc, char **argv) {
  int rank, buf = 0, one = 1, ten = 10, old = -1, tok = 0;
  MPI_Win win; MPI_Group world, g0, g12;
  int r0[1] = {0}, r12[2] = {1, 2};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, 1, r0, &g0);
  MPI_Group_incl(world, 2, r12, &g12);
  MPI_Win_create(&buf, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  if (rank == 0) { MPI_Win_post(g12, 0, win); MPI_Win_wait(win); }
  if (rank == 2) {
    MPI_Win_start(g0, 0, win);
    MPI_Accumulate(&ten, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
    MPI_Send(&tok, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Recv(&tok, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Win_complete(win);
  } else if (rank == 1) {
    MPI_Win_start(g0, 0, win);
    MPI_Recv(&tok, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Fetch_and_op(&one, &old, MPI_INT, 0, 0, MPI_SUM, win);
    MPI_Win_complete(win);
    MPI_Send(&tok, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
    assert(old == 0);
  }
  MPI_Win_free(&win);
  MPI_Group_free(&g0); MPI_Group_free(&g12); MPI_Group_free(&world);
  MPI_Finalize();
  return 0;
}
"#;
    let either = ("assert(old == 0);", "assert(old == 0 || old == 10);");
    violated_but_either_holds("3", program, either, 26);
}
