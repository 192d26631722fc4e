//! An adversarial probe of collective assertions (issue 16): programs aimed at
//! the weak points (snapshots whose values depend on message matching,
//! MPI_Iprobe / MPI_Test flags, receive buffers before their wait, loops with
//! different counts per process, states that differ only in their queued
//! snapshots, heap and array snapshots, recursion, claims that depend on the
//! other processes' branches, deadlocks with a snapshot pending, bad input).
//!
//! Each program is checked three ways, which must agree: the default
//! reduction, `--cqmin`, and the full search (`--por off`).
//!
//! How the expected verdicts were confirmed: each pragma was replaced by
//! `printf("SNAP ID rank <the variables it reads>")` (no communication), the
//! program built with mpicc and run with `mpirun --allow-run-as-root
//! --oversubscribe -np N` several times (with injected `sleep`s where a
//! schedule had to be forced, and the zero-buffer configuration `--mca btl
//! self,tcp --mca btl_tcp_eager_limit 56 --mca btl_tcp_rndv_eager_limit 56`
//! where buffering matters); the assertion was evaluated on the k-th SNAP lines
//! of all processes. Each test's comment gives what the runs printed.

mod common;

use std::process::Command;

use common::{inline, report, verify};
use serde_json::Value;

/// Runs `text` on `procs` processes with the default reduction, `--cqmin` and
/// `--por off`; each must end with `verdict` and (when violated) a first
/// violation of `property` whose message contains `message`.
fn three_modes(procs: &str, text: &str, verdict: &str, property: &str, message: &str) {
    for mode in [&[][..], &["--cqmin"][..], &["--por", "off"][..]] {
        let (code, r) = verify(procs, mode, text);
        assert_eq!(r["verdict"], verdict, "{mode:?}\n{r:#}");
        if verdict == "holds" {
            assert_eq!(code, 0, "{r:#}");
            continue;
        }
        assert_eq!(code, 1, "{r:#}");
        let v = &r["violations"][0];
        assert_eq!(v["property"], property, "{mode:?}\n{r:#}");
        let text = v["message"].as_str().unwrap_or_default();
        assert!(text.contains(message), "{mode:?}: {text}");
    }
}

/// Rank 0 snapshots the value of its first MPI_ANY_SOURCE receive. mpirun -np 3 (8 runs):
/// `SNAP W 0 2` in 6 runs, `SNAP W 0 1` in 2: `y == 1` fails on the runs where rank 2's message matches first.
const WILDCARD_FIRST_MATCH_DECIDES_THE_SNAPSHOT: &str = r#"#include <mpi.h>
int rank, nprocs, y;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  int x = rank;
  if (rank == 0) {
    MPI_Recv(&y, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma TASS collective assert W rank != 0 || y == 1
    MPI_Recv(&y, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
#pragma TASS collective assert W 1
  }
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn wildcard_first_match_decides_the_snapshot() {
    three_modes(
        "3",
        WILDCARD_FIRST_MATCH_DECIDES_THE_SNAPSHOT,
        "violated",
        "collective-assertion",
        "`W` (occurrence 1) can fail for process 0",
    );
}

/// `y == PROC[1].x` after a wildcard receive. mpirun -np 3: 4 of 8 runs print `SNAP V 0 2` with
/// rank 1's x = 1: fails.
const WILDCARD_VALUE_AGAINST_A_REMOTE_SNAPSHOT: &str = r#"#include <mpi.h>
int rank, nprocs, y, x;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  x = rank;
  if (rank == 0) {
    MPI_Recv(&y, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma TASS collective assert V y == PROC[1].x
    MPI_Recv(&y, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma TASS collective assert V2 1
  } else {
#pragma TASS collective assert V 1
    MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
#pragma TASS collective assert V2 1
  }
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn wildcard_value_against_a_remote_snapshot() {
    three_modes(
        "3",
        WILDCARD_VALUE_AGAINST_A_REMOTE_SNAPSHOT,
        "violated",
        "collective-assertion",
        "`V` (occurrence 1) can fail for process 0",
    );
}

/// Both wildcard orders reach the same process states (rank 0 zeroes y and z) with rank 0's
/// snapshot still queued (ranks 1, 2 snapshot only after rank 0's go message): the queue
/// must keep the two states apart. mpirun -np 3: `SNAP M 0 1` 4 runs, `SNAP M 0 2` 2 runs.
const STATES_EQUAL_BUT_FOR_THE_QUEUED_SNAPSHOT_ARE_NOT_MERGED: &str = r#"#include <mpi.h>
int rank, nprocs, y, z, go;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  int x = rank;
  if (rank == 0) {
    MPI_Recv(&y, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma TASS collective assert M rank != 0 || y == 1
    MPI_Recv(&z, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    y = 0; z = 0;
    MPI_Send(&go, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    MPI_Send(&go, 1, MPI_INT, 2, 1, MPI_COMM_WORLD);
  } else {
    MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Recv(&go, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma TASS collective assert M 1
  }
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn states_equal_but_for_the_queued_snapshot_are_not_merged() {
    three_modes(
        "3",
        STATES_EQUAL_BUT_FOR_THE_QUEUED_SNAPSHOT_ARE_NOT_MERGED,
        "violated",
        "collective-assertion",
        "`M` (occurrence 1) can fail",
    );
}

/// p13 with the claim `y == 2`: the other match order is the failing one (same runs as p13).
const STATES_EQUAL_BUT_FOR_THE_QUEUED_SNAPSHOT_OTHER_ORDER: &str = r#"#include <mpi.h>
int rank, nprocs, y, z, go;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  int x = rank;
  if (rank == 0) {
    MPI_Recv(&y, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma TASS collective assert M rank != 0 || y == 2
    MPI_Recv(&z, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    y = 0; z = 0;
    MPI_Send(&go, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    MPI_Send(&go, 1, MPI_INT, 2, 1, MPI_COMM_WORLD);
  } else {
    MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Recv(&go, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma TASS collective assert M 1
  }
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn states_equal_but_for_the_queued_snapshot_other_order() {
    three_modes(
        "3",
        STATES_EQUAL_BUT_FOR_THE_QUEUED_SNAPSHOT_OTHER_ORDER,
        "violated",
        "collective-assertion",
        "`M` (occurrence 1) can fail",
    );
}

/// Ranks 0 and 1 each take a wildcard message from 2 or 3; the claim fails only when both
/// took rank 3's. mpirun -np 4 (6 runs): (3,3) 4 runs, (3,2) 1, (2,2) 1.
const TWO_WILDCARD_RECEIVERS_COMBINE_THEIR_CHOICES: &str = r#"#include <mpi.h>
int rank, nprocs, y, z;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  int x = rank;
  if (rank < 2) {
    MPI_Recv(&y, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#pragma TASS collective assert T PROC[0].y == 2 || PROC[1].y == 2
    MPI_Recv(&z, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
#pragma TASS collective assert T 1
  }
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn two_wildcard_receivers_combine_their_choices() {
    three_modes(
        "4",
        TWO_WILDCARD_RECEIVERS_COMBINE_THEIR_CHOICES,
        "violated",
        "collective-assertion",
        "`T` (occurrence 1) can fail",
    );
}

/// The flag of MPI_Iprobe is snapshotted. mpirun -np 2: flag 0 in 6 of 6 runs.
const IPROBE_FLAG_CAN_BE_0: &str = r#"#include <mpi.h>
int rank, nprocs, y, flag;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  int x = 5;
  if (rank == 0) {
    MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
#pragma TASS collective assert P 1
  } else if (rank == 1) {
    MPI_Iprobe(0, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
#pragma TASS collective assert P flag == 1
    MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
#pragma TASS collective assert P 1
  }
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn iprobe_flag_can_be_0() {
    three_modes(
        "2",
        IPROBE_FLAG_CAN_BE_0,
        "violated",
        "collective-assertion",
        "`P` (occurrence 1) can fail for process 1: `flag == 1`",
    );
}

/// mpirun -np 2 with `sleep(1)` before the MPI_Iprobe (and a second MPI_Iprobe after another
/// sleep when the first says 0, Open MPI's progress): flag 1 in 2 of 2 runs.
const IPROBE_FLAG_CAN_BE_1: &str = r#"#include <mpi.h>
int rank, nprocs, y, flag;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  int x = 5;
  if (rank == 0) {
    MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
#pragma TASS collective assert P 1
  } else if (rank == 1) {
    MPI_Iprobe(0, 0, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
#pragma TASS collective assert P flag == 0
    MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
#pragma TASS collective assert P 1
  }
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn iprobe_flag_can_be_1() {
    three_modes(
        "2",
        IPROBE_FLAG_CAN_BE_1,
        "violated",
        "collective-assertion",
        "`P` (occurrence 1) can fail for process 1: `flag == 0`",
    );
}

/// The receive buffer of a pending MPI_Irecv is snapshotted before MPI_Wait. mpirun -np 2:
/// y 0 in 6 of 6 runs; with `sleep(1)` before MPI_Irecv and an MPI_Test before the pragma:
/// y 5 in 3 of 3 runs.
const IRECV_BUFFER_SNAPSHOTTED_BEFORE_THE_WAIT: &str = r#"#include <mpi.h>
int rank, nprocs, y;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  int x = 5;
  MPI_Request req;
  if (rank == 0) {
    MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
#pragma TASS collective assert I 1
  } else if (rank == 1) {
    y = 0;
    MPI_Irecv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
#pragma TASS collective assert I y == 0
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  } else {
#pragma TASS collective assert I 1
  }
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn irecv_buffer_snapshotted_before_the_wait() {
    three_modes(
        "2",
        IRECV_BUFFER_SNAPSHOTTED_BEFORE_THE_WAIT,
        "violated",
        "collective-assertion",
        "`I` (occurrence 1) can fail for process 1: `y == 0`",
    );
}

/// The flag of MPI_Test on an MPI_Irecv. mpirun -np 2: flag 0 in 3 runs, 1 in 3 runs.
const MPI_TEST_FLAG_EITHER_WAY: &str = r#"#include <mpi.h>
int rank, nprocs, y, flag;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  int x = 5;
  MPI_Request req;
  if (rank == 0) {
    MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
#pragma TASS collective assert TS 1
  } else {
    MPI_Irecv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
    MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
#pragma TASS collective assert TS flag == 0
    if (!flag) MPI_Wait(&req, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn mpi_test_flag_either_way() {
    three_modes(
        "2",
        MPI_TEST_FLAG_EITHER_WAY,
        "violated",
        "collective-assertion",
        "`TS` (occurrence 1) can fail for process 1: `flag == 0`",
    );
}

/// As above with the claim `flag == 1` (flag 0 seen in 3 of 6 runs).
const MPI_TEST_FLAG_EITHER_WAY_OTHER_CLAIM: &str = r#"#include <mpi.h>
int rank, nprocs, y, flag;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  int x = 5;
  MPI_Request req;
  if (rank == 0) {
    MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
#pragma TASS collective assert TS 1
  } else {
    MPI_Irecv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
    MPI_Test(&req, &flag, MPI_STATUS_IGNORE);
#pragma TASS collective assert TS flag == 1
    if (!flag) MPI_Wait(&req, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn mpi_test_flag_either_way_other_claim() {
    three_modes(
        "2",
        MPI_TEST_FLAG_EITHER_WAY_OTHER_CLAIM,
        "violated",
        "collective-assertion",
        "`TS` (occurrence 1) can fail for process 1: `flag == 1`",
    );
}

/// Rank r loops r+1 times over the pragma. mpirun -np 2: rank 0 prints one SNAP L, rank 1 two.
const LOOP_COUNTS_PER_PROCESS_LEAVE_SNAPSHOTS: &str = r#"#include <mpi.h>
int rank, nprocs, i;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  for (i = 0; i < rank + 1; i++) {
#pragma TASS collective assert L i == PROC[0].i
  }
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn loop_counts_per_process_leave_snapshots() {
    three_modes(
        "2",
        LOOP_COUNTS_PER_PROCESS_LEAVE_SNAPSHOTS,
        "violated",
        "collective-assertion",
        "terminated with collective assertions unmatched: process 1 reached `L`",
    );
}

/// Rank 0 reaches A then B, rank 1 B then A (the program text; mpirun -np 2 prints both
/// orders each time).
const IDS_IN_DIFFERENT_ORDERS: &str = r#"#include <mpi.h>
int rank, nprocs, i;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  if (rank == 0) {
#pragma TASS collective assert A 1
#pragma TASS collective assert B 1
  } else {
#pragma TASS collective assert B 1
#pragma TASS collective assert A 1
  }
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn ids_in_different_orders() {
    three_modes(
        "2",
        IDS_IN_DIFFERENT_ORDERS,
        "violated",
        "collective-assertion",
        "reached in different orders",
    );
}

/// Rank 1 returns before E2. mpirun -np 2: E1 from both, E2 from rank 0 only.
const A_PROCESS_THAT_RETURNS_EARLY_LEAVES_SNAPSHOTS: &str = r#"#include <mpi.h>
#include <stdlib.h>
int rank, nprocs;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
#pragma TASS collective assert E1 1
  if (rank == 1) { MPI_Finalize(); return 0; }
#pragma TASS collective assert E2 1
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn a_process_that_returns_early_leaves_snapshots() {
    three_modes(
        "2",
        A_PROCESS_THAT_RETURNS_EARLY_LEAVES_SNAPSHOTS,
        "violated",
        "collective-assertion",
        "process 0 reached `E2`",
    );
}

/// p[1] and a[2] are overwritten (and p freed) right after the pragma. mpirun -np 2 (6 runs):
/// `SNAP H 0 100 0`, `SNAP H 1 101 3` every time: the claim holds.
const HEAP_AND_ARRAY_SNAPSHOTS_ARE_NOT_CHANGED_BY_LATER_WRITES: &str = r#"#include <mpi.h>
#include <stdlib.h>
int rank, nprocs;
int *p;
int a[3];
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  p = (int *)malloc(2 * sizeof(int));
  p[0] = rank; p[1] = rank + 100;
  a[2] = rank * 3;
#pragma TASS collective assert H PROC[(PID+1)%NPROCS].p[1] == (PID+1)%NPROCS + 100 && PROC[(PID+1)%NPROCS].a[2] == 3*((PID+1)%NPROCS)
  p[1] = 55; a[2] = 66;
  free(p);
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn heap_and_array_snapshots_are_not_changed_by_later_writes() {
    three_modes(
        "2",
        HEAP_AND_ARRAY_SNAPSHOTS_ARE_NOT_CHANGED_BY_LATER_WRITES,
        "holds",
        "",
        "",
    );
}

/// mpirun -np 2 (6 runs): at step k both print a[k] = rank + k and a[k+1] = 0: holds.
const ARRAY_SNAPSHOTS_IN_A_LOOP: &str = r#"#include <mpi.h>
int rank, nprocs, k;
int a[4];
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  for (k = 0; k < 3; k++) {
    a[k] = rank + k;
#pragma TASS collective assert AR PROC[(PID+1)%NPROCS].a[k] == (PID+1)%NPROCS + k && PROC[(PID+1)%NPROCS].a[k+1] == 0
  }
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn array_snapshots_in_a_loop() {
    three_modes("2", ARRAY_SNAPSHOTS_IN_A_LOOP, "holds", "", "");
}

/// rec(rank + 1) recurses down to d == 0, where loc = 0 in the innermost frame of both
/// processes. mpirun -np 2 (6 runs): `SNAP R 0 0 0`, `SNAP R 1 0 0`: holds.
const PROC_AT_FUNCTION_IN_RECURSION_READS_THE_INNERMOST_FRAME: &str = r#"#include <mpi.h>
int rank, nprocs;
int rec(int d) {
  int loc = d * 10;
  if (d == 0) {
#pragma TASS collective assert R PROC[(PID+1)%NPROCS]@rec.loc == 0
    return 0;
  }
  return rec(d - 1) + loc;
}
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  rec(rank + 1);
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn proc_at_function_in_recursion_reads_the_innermost_frame() {
    three_modes(
        "2",
        PROC_AT_FUNCTION_IN_RECURSION_READS_THE_INNERMOST_FRAME,
        "holds",
        "",
        "",
    );
}

/// `PROC[..].a[k+2]` with k = 2 reads a[4] of an int[4] (mpicc -fsanitize=address, mpirun -np 2, the
/// printf version: global-buffer-overflow at k = 2).
const OUT_OF_BOUNDS_READ_IN_A_REMOTE_SNAPSHOT: &str = r#"#include <mpi.h>
int rank, nprocs, k;
int a[4];
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  for (k = 0; k < 3; k++) {
    a[k] = rank + k;
#pragma TASS collective assert AR PROC[(PID+1)%NPROCS].a[k+2] >= 0
  }
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn out_of_bounds_read_in_a_remote_snapshot() {
    three_modes(
        "2",
        OUT_OF_BOUNDS_READ_IN_A_REMOTE_SNAPSHOT,
        "violated",
        "out-of-bounds",
        "index 4, extent 4",
    );
}

/// `10 / PROC[0].d` with rank 0's d = 0 (the printf version of `10 / d` under mpirun -np 2:
/// rank 0 gets SIGFPE).
const DIVISION_BY_ZERO_IN_AN_ASSERTION: &str = r#"#include <mpi.h>
int rank, nprocs, d;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  d = rank;
#pragma TASS collective assert DZ 10 / PROC[0].d >= 0
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn division_by_zero_in_an_assertion() {
    three_modes(
        "2",
        DIVISION_BY_ZERO_IN_AN_ASSERTION,
        "violated",
        "division-by-zero",
        "",
    );
}

/// Rank 1's f is 1 exactly when 0 < A <= 5; rank 0's claim `v > 0 || PROC[1].f == 0` holds
/// for every A (the printf version under mpirun -np 2 for A = -5, -4, -1, 0, 1, 5, 6, 8).
const CLAIM_TRUE_UNDER_EVERY_BRANCH_OF_THE_OTHER_PROCESS: &str = r#"#include <mpi.h>
#pragma TASS input
int A;
int rank, nprocs, f, v;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  if (rank == 0) {
    v = A;
#pragma TASS collective assert PC v > 0 || PROC[1].f == 0
  } else {
    if (A > 0) f = 1; else f = 0;
    if (A > 5) f = 0;
#pragma TASS collective assert PC 1
  }
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn claim_true_under_every_branch_of_the_other_process() {
    three_modes(
        "2",
        CLAIM_TRUE_UNDER_EVERY_BRANCH_OF_THE_OTHER_PROCESS,
        "holds",
        "",
        "",
    );
}

/// p21 with f = 2 when A < -3: for A = -5 and -4 the printf version prints v < 0, f = 2: fails.
const CLAIM_FALSE_ON_ONE_BRANCH_OF_THE_OTHER_PROCESS: &str = r#"#include <mpi.h>
#pragma TASS input
int A;
int rank, nprocs, f, v;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  if (rank == 0) {
    v = A;
#pragma TASS collective assert PC v > 0 || PROC[1].f == 0
  } else {
    if (A > 0) f = 1; else f = 0;
    if (A > 5) f = 0; if (A < -3) f = 2;
#pragma TASS collective assert PC 1
  }
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn claim_false_on_one_branch_of_the_other_process() {
    three_modes(
        "2",
        CLAIM_FALSE_ON_ONE_BRANCH_OF_THE_OTHER_PROCESS,
        "violated",
        "collective-assertion",
        "`PC` (occurrence 1) can fail",
    );
}

/// (A * B) % 7 != 3 fails for A = 1, B = 3 (the printf version under mpirun -np 2 prints v = 3).
const NONLINEAR_CLAIM_ON_INPUTS: &str = r#"#include <mpi.h>
#pragma TASS input
int A;
#pragma TASS input
int B;
int rank, nprocs;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  int v = (A * B) % 7;
#pragma TASS collective assert U v != 3
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn nonlinear_claim_on_inputs() {
    three_modes(
        "2",
        NONLINEAR_CLAIM_ON_INPUTS,
        "violated",
        "collective-assertion",
        "`U` (occurrence 1) can fail",
    );
}

/// Both ranks receive first; rank 0 has a snapshot queued. mpirun -np 2 (zero-buffer
/// configuration): hangs (timeout 20, exit 124) after rank 0's SNAP D.
const DEADLOCK_WITH_A_SNAPSHOT_PENDING: &str = r#"#include <mpi.h>
int rank, nprocs, y;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  if (rank == 0) {
#pragma TASS collective assert D 1
  }
  MPI_Recv(&y, 1, MPI_INT, (rank+1)%nprocs, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn deadlock_with_a_snapshot_pending() {
    three_modes(
        "2",
        DEADLOCK_WITH_A_SNAPSHOT_PENDING,
        "violated",
        "deadlock",
        "no process can move",
    );
}

/// Remote reads through a struct, an MPI_Status filled by MPI_Wait, a heap
/// pointer and a double. mpirun -np 2 (the printf version): rank 1 prints
/// MPI_SOURCE 0, MPI_TAG 3, s.b 0.5, *p 8, s.a 1; rank 0 s.arr[1] 1; dd * 3 is
/// 1 on both: holds.
const REMOTE_STRUCTS: &str = r#"#include <mpi.h>
#include <stdlib.h>
struct pt { int a; double b; int arr[2]; };
int rank, nprocs, y;
struct pt s;
int *p;
MPI_Status st;
MPI_Request req;
double dd;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  s.a = rank; s.b = rank * 0.5; s.arr[1] = rank + 1;
  p = (int *)malloc(sizeof(int)); *p = rank + 7;
  dd = 1.0 / 3.0;
  int x = rank;
  if (rank == 0) { MPI_Send(&x, 1, MPI_INT, 1, 3, MPI_COMM_WORLD); }
  else { MPI_Irecv(&y, 1, MPI_INT, 0, 3, MPI_COMM_WORLD, &req); MPI_Wait(&req, &st); }
#pragma TASS collective assert C PROC[1].st.MPI_SOURCE == 0 && PROC[1].st.MPI_TAG == 3 && PROC[0].s.arr[1] == 1 && PROC[1].s.b == 0.5 && *PROC[1].p == 8 && PROC[0].dd * 3 == 1.0 && PROC[1].s.a == 1
  free(p);
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn remote_struct_status_pointer_and_double_reads() {
    three_modes("2", REMOTE_STRUCTS, "holds", "", "");
}

/// A claim the built-in prover cannot decide (a quintic relation on three
/// inputs; z3 and yices time out on it too). It is in fact true (v == 0 would
/// need 0 == 7ABC + 12345678 with A, B, C >= 2), but an undecided claim must
/// never be `holds`: a *possible* violation. cvc5, which `--prover auto` asks
/// first about nonlinear claims, proves it: holds, which is right.
const UNDECIDED: &str = r#"#include <mpi.h>
#pragma TASS input
int A;
#pragma TASS input
int B;
#pragma TASS input
int C;
int rank, nprocs;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  int v = A * A * A * A * A + B * B * B * B * B - C * C * C * C * C;
#pragma TASS collective assert U PROC[1 - PID].rank >= 0 && (A <= 1 || B <= 1 || C <= 1 || v != 0 || A*B*C % 97 != 0 || v * v != 7 * A * B * C + 12345678)
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn an_undecided_claim_is_a_possible_violation() {
    let builtin = ["--prover", "builtin"];
    for mode in [&[][..], &["--cqmin"][..], &["--por", "off"][..]] {
        let args: Vec<&str> = builtin.iter().chain(mode).copied().collect();
        let (code, r) = verify("2", &args, UNDECIDED);
        assert_eq!(code, 1, "{mode:?}\n{r:#}");
        assert_eq!(
            r["violations"][0]["property"], "collective-assertion",
            "{r:#}"
        );
        assert_eq!(r["violations"][0]["certainty"], "possible", "{r:#}");
    }
}

/// `tass compare --spec SPEC --impl IMPL EXTRA --format json` on inline files.
fn compare(spec: &str, imp: &str, extra: &[&str]) -> (i32, Value) {
    let (s, i) = (inline(spec), inline(imp));
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["compare", "--format", "json", "--spec"])
        .arg(&s)
        .arg("--impl")
        .arg(&i)
        .args(extra)
        .output()
        .expect("run tass");
    report(out)
}

/// The specification of the joint probes: prefix sums of a[0..N) into x and
/// the local array s, N in 1..4 an input. Built with gcc -fsanitize=address,
/// undefined and the pragmas as prints of x, s[0..3], m (and the
/// implementations likewise, a[i] = 3 i + 1, N = 1..4).
const JOINT_SPEC: &str = r#"#pragma TASS input {1 <= N && N <= 4} int
#define N 4
#pragma TASS input
int a[4];
#pragma TASS output
int m;
int main(void) {
  int s[4];
  int i, x = 0;
  for (i = 0; i < 4; i++) s[i] = 0;
  for (i = 0; i < N; i++) {
    x = x + a[i];
    s[i] = x;
#pragma TASS joint assert STEP true
  }
  m = x;
#pragma TASS joint assert FINAL true
  return 0;
}
"#;

/// Relates the implementation's array t to the specification's local array
/// s element by element (`spec.s[i]`, `spec.s[i-1]`): the prints agree at every
/// step for N = 1..4: holds.
const JOINT_ARRAYS: &str = r#"#pragma TASS input {1 <= N && N <= 4} int
#define N 4
#pragma TASS input
int a[4];
#pragma TASS output
int m;
int main(void) {
  int t[4];
  int i, y = 0;
  for (i = 0; i < 4; i++) t[i] = 0;
  for (i = 0; i < N; i++) {
    y = y + a[i];
    t[i] = y;
#pragma TASS joint assert STEP t[i] == spec.s[i] && y == spec.x && (i == 0 || t[i-1] == spec.s[i-1])
  }
  m = y;
#pragma TASS joint assert FINAL m == spec.m
  return 0;
}
"#;

/// The loop stops one short and adds the last element after it: the same
/// output m, but N - 1 STEP points against the specification's N (the prints:
/// N = 1 gives FINAL where the specification prints STEP): out of step.
const JOINT_SHORT: &str = r#"#pragma TASS input {1 <= N && N <= 4} int
#define N 4
#pragma TASS input
int a[4];
#pragma TASS output
int m;
int main(void) {
  int i, y = 0;
  for (i = 0; i < N - 1; i++) {
    y = y + a[i];
#pragma TASS joint assert STEP y == spec.x
  }
  y = y + a[N - 1];
  m = y;
#pragma TASS joint assert FINAL m == spec.m
  return 0;
}
"#;

/// t[0] is off by one from the second step to the end of the loop only; the
/// output is right. The prints differ at occurrence 2 (t[0] = 2 against
/// s[0] = 1).
const JOINT_ARRAY_BAD: &str = r#"#pragma TASS input {1 <= N && N <= 4} int
#define N 4
#pragma TASS input
int a[4];
#pragma TASS output
int m;
int main(void) {
  int t[4];
  int i, y = 0;
  for (i = 0; i < 4; i++) t[i] = 0;
  for (i = 0; i < N; i++) {
    y = y + a[i];
    t[i] = y;
    if (i == 1) t[0] = t[0] + 1;
#pragma TASS joint assert STEP t[0] == spec.s[0]
  }
  t[0] = t[0] - 1;
  m = y;
#pragma TASS joint assert FINAL m == spec.m
  return 0;
}
"#;

/// The loop is capped at 3 steps; the output is right for every N, but for N =
/// 4 the implementation prints 3 STEP points against 4: out of step at
/// occurrence 4 (for N <= 3 the prints agree).
const JOINT_CAPPED: &str = r#"#pragma TASS input {1 <= N && N <= 4} int
#define N 4
#pragma TASS input
int a[4];
#pragma TASS output
int m;
int main(void) {
  int i, y = 0;
  for (i = 0; i < N && i < 3; i++) {
    y = y + a[i];
#pragma TASS joint assert STEP y == spec.x
  }
  if (N == 4) y = y + a[3];
  m = y;
#pragma TASS joint assert FINAL m == spec.m
  return 0;
}
"#;

/// Only rank 0 of the implementation reaches the STEP points (mpirun -np 2,
/// the prints: rank 1 prints FINAL first): out of step at occurrence 1.
const JOINT_ONE_RANK: &str = r#"#include <mpi.h>
#pragma TASS input {1 <= N && N <= 4} int
#define N 4
#pragma TASS input
int a[4];
#pragma TASS output
int m;
int main(int argc, char **argv) {
  int rank, i, y = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    for (i = 0; i < N; i++) {
      y = y + a[i];
#pragma TASS joint assert STEP y == spec.x
    }
  }
  MPI_Bcast(&y, 1, MPI_INT, 0, MPI_COMM_WORLD);
  m = y;
#pragma TASS joint assert FINAL m == spec.m
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn joint_assertions_on_arrays_and_loop_lengths() {
    for por in ["urgent", "off"] {
        let (code, r) = compare(JOINT_SPEC, JOINT_ARRAYS, &["--por", por]);
        common::assert_holds(code, &r);
        let (code, r) = compare(JOINT_SPEC, JOINT_SHORT, &["--por", por]);
        common::assert_violated(code, &r, "collective-assertion", Some(15));
        let m = r["violations"][0]["message"].as_str().unwrap_or_default();
        assert!(m.contains("out of step at occurrence 1"), "{m}");
        let (code, r) = compare(JOINT_SPEC, JOINT_ARRAY_BAD, &["--por", por]);
        common::assert_violated(code, &r, "collective-assertion", Some(15));
        let m = r["violations"][0]["message"].as_str().unwrap_or_default();
        assert!(m.contains("`STEP` (occurrence 2)"), "{m}");
        let (code, r) = compare(JOINT_SPEC, JOINT_CAPPED, &["--por", por]);
        common::assert_violated(code, &r, "collective-assertion", Some(15));
        let m = r["violations"][0]["message"].as_str().unwrap_or_default();
        assert!(m.contains("out of step at occurrence 4"), "{m}");
        let (code, r) = compare(JOINT_SPEC, JOINT_CAPPED, &["--por", por, "-i", "N=3"]);
        common::assert_holds(code, &r);
        let (code, r) = compare(
            JOINT_SPEC,
            JOINT_ONE_RANK,
            &["--por", por, "--impl-procs", "2"],
        );
        common::assert_violated(code, &r, "collective-assertion", Some(15));
        let m = r["violations"][0]["message"].as_str().unwrap_or_default();
        assert!(m.contains("out of step at occurrence 1"), "{m}");
    }
}

/// The index MPI_Waitany returns depends on which message arrives first.
/// mpirun -np 3 with `sleep(1)` before rank 1's send: rank 0 prints idx 1 (3 of
/// 3 runs), so `idx == 0` fails; with the sleep in rank 2 instead it prints
/// idx 0 (2 of 2 runs), so `idx == 1` fails too.
const WAITANY0: &str = r#"#include <mpi.h>
int rank, nprocs, idx, b[2];
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  MPI_Request r[2];
  if (rank == 0) {
    MPI_Irecv(&b[0], 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(&b[1], 1, MPI_INT, 2, 0, MPI_COMM_WORLD, &r[1]);
    MPI_Waitany(2, r, &idx, MPI_STATUS_IGNORE);
#pragma TASS collective assert WA idx == 0
    MPI_Wait(&r[1 - idx], MPI_STATUS_IGNORE);
  } else {
    MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
#pragma TASS collective assert WA 1
  }
  MPI_Finalize();
  return 0;
}
"#;
const WAITANY1: &str = r#"#include <mpi.h>
int rank, nprocs, idx, b[2];
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  MPI_Request r[2];
  if (rank == 0) {
    MPI_Irecv(&b[0], 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(&b[1], 1, MPI_INT, 2, 0, MPI_COMM_WORLD, &r[1]);
    MPI_Waitany(2, r, &idx, MPI_STATUS_IGNORE);
#pragma TASS collective assert WA idx == 1
    MPI_Wait(&r[1 - idx], MPI_STATUS_IGNORE);
  } else {
    MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
#pragma TASS collective assert WA 1
  }
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn waitany_index_either_way() {
    three_modes(
        "3",
        WAITANY0,
        "violated",
        "collective-assertion",
        "can fail for process 0: `idx == 0`",
    );
    three_modes(
        "3",
        WAITANY1,
        "violated",
        "collective-assertion",
        "can fail for process 0: `idx == 1`",
    );
}

/// `PROC[1]@main.t` names the `t` in scope at the pragma (the inner block's,
/// never assigned), not the `t` rank 1 set in an earlier block: reading it is
/// reading an uninitialised variable (in C the printf version reads an
/// indeterminate value).
const OUT_OF_SCOPE_LOCAL: &str = r#"#include <mpi.h>
int rank, nprocs;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  if (rank == 1) {
    int t = 3;
    t = t + 1;
  }
  {
    int t;
#pragma TASS collective assert SC PROC[1]@main.t == 4
  }
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn proc_at_function_reads_the_variable_in_scope_at_the_pragma() {
    three_modes(
        "2",
        OUT_OF_SCOPE_LOCAL,
        "violated",
        "invalid-pointer",
        "read of uninitialised `PROC[1]@main.t`",
    );
}

/// Two processes that never terminate and assert in every iteration; the k-th
/// snapshots of both hold the same c (the printf version with the loop cut at
/// 6 iterations, mpirun -np 2: 1, 0, 1, 0, 1, 0 on both ranks): the claim holds
/// on every execution. Rank 0 alone can run arbitrarily far ahead, so the full
/// space is infinite: `--por off` runs out of states, which is sound
/// (inconclusive); the reduction (by default as with `--cqmin`) never runs a
/// process alone while it is ahead at the assertions, which keeps the queues
/// short and proves it.
const ENDLESS_LOCKSTEP: &str = r#"#include <mpi.h>
int rank, nprocs, c;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  while (1) {
    c = 1 - c;
#pragma TASS collective assert Q c == PROC[1 - PID].c
  }
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn endless_loops_with_assertions_are_never_a_wrong_holds() {
    let (code, r) = verify(
        "2",
        &["--max-states", "3000", "--por", "off"],
        ENDLESS_LOCKSTEP,
    );
    assert_eq!(r["verdict"], "inconclusive", "{r:#}");
    assert_eq!(code, 3, "{r:#}");
    for mode in [&[][..], &["--cqmin"][..]] {
        let (code, r) = verify("2", mode, ENDLESS_LOCKSTEP);
        common::assert_holds(code, &r);
    }
}

/// Rank 0 asserts `1` forever, rank 1 asserts once a claim that is false
/// (x == 1 with x = 0). The printf version (rank 0's loop cut at 3 iterations,
/// mpirun -np 2) prints rank 1's x = 0 at occurrence 1: violated. Without a
/// reduction the depth-first search follows rank 0 into an ever longer queue,
/// so `--por off` is inconclusive (sound, but the violation is missed); the
/// reduction never runs a process alone while another candidate has a shorter
/// queue (by default as with `--cqmin`), so it runs rank 1 and finds it.
const ENDLESS_AHEAD: &str = r#"#include <mpi.h>
int rank, nprocs, x;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  if (rank == 0) {
    while (1) {
#pragma TASS collective assert A 1
    }
  } else {
#pragma TASS collective assert A x == 1
  }
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn a_process_running_ahead_forever_is_inconclusive_without_the_reduction() {
    let (code, r) = verify(
        "2",
        &["--max-states", "3000", "--por", "off"],
        ENDLESS_AHEAD,
    );
    assert_eq!(r["verdict"], "inconclusive", "{r:#}");
    assert_eq!(code, 3, "{r:#}");
    let (code, r) = verify("2", &["--cqmin"], ENDLESS_AHEAD);
    common::assert_violated(code, &r, "collective-assertion", Some(12));
}

/// The default reduction finds ENDLESS_AHEAD's violation too: rank 0, once a
/// snapshot ahead of rank 1, is not run alone while rank 1 may be
/// (`order_by_snapshot_queues` in verify/src/real/por.rs). Before that rule the
/// default search followed rank 0 forever and was inconclusive.
#[test]
fn a_process_running_ahead_forever_is_found_by_the_default_search() {
    let (code, r) = verify("2", &["--max-states", "100000", "--stats"], ENDLESS_AHEAD);
    common::assert_violated(code, &r, "collective-assertion", Some(12));
    let states = r["stats"]["states_seen"].as_u64().unwrap_or(u64::MAX);
    assert!(states < 100, "{r:#}");
}

/// One process: every snapshot is matched at once. mpirun -np 1 prints s = 0,
/// 1, 3: `s <= 1` fails at occurrence 3 (and only there).
const ONE_PROCESS: &str = r#"#include <mpi.h>
int rank, nprocs, i, s;
int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  for (i = 0; i < 3; i++) {
    s = s + i;
#pragma TASS collective assert O s == PROC[0].s && s <= 1 && NPROCS == 1 && PID == 0
  }
  MPI_Finalize();
  return 0;
}
"#;

#[test]
fn one_process_fails_at_the_third_occurrence() {
    three_modes(
        "1",
        ONE_PROCESS,
        "violated",
        "collective-assertion",
        "`O` (occurrence 3) can fail",
    );
}
