//! Assumptions and the partial-order reduction (`RealEngine::assumption_alone`,
//! `verify/src/real/por.rs`). An `assume` ends the executions in which its
//! condition is false, so it does not commute with the other processes' steps
//! in general; it is explored alone only when the path condition implies it,
//! or when every other process can only make the same assumption. Each program
//! below is written so that a looser rule loses a violation; each runs with the
//! reduction on and off (`--por off`) and both must reach the verdict of a real
//! run (`mpicc -g`, `mpirun --allow-run-as-root --oversubscribe -np 3`, the input
//! `d` replaced by the value named at each program; the assumption pragma is
//! ignored by the C compiler, so the real run is the execution in which the
//! violating process moves before the assumption).

mod common;

use common::reduced_and_full;

/// Rank 0 assumes `d != 0` while the other ranks divide by `d`. A run in which
/// rank 1 divides before rank 0 assumes divides by zero. Real run, d = 0:
/// SIGFPE (integer divide-by-zero), exit 136.
const DIVIDES_BEFORE_ANOTHER_ASSUMES: &str = r#"#include <mpi.h>
#pragma TASS input int
int d;
int main(int argc, char *argv[]) {
    int rank, y = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
#pragma TASS assume d != 0
        y = 1;
    } else {
        y = 100 / d;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return y == 7;
}
"#;

#[test]
fn an_assumption_is_not_taken_before_another_process_divides() {
    reduced_and_full(
        "3",
        &[],
        DIVIDES_BEFORE_ANOTHER_ASSUMES,
        "violated",
        "division-by-zero",
    );
}

/// Ranks 0 and 1 stand at the same assumption while rank 2 divides by `d`
/// before making it: "every other process stands at the same assumption" does
/// not hold, so neither of theirs is taken alone. Real run, d = 0: rank 2
/// SIGFPE, exit 136.
const ONE_RANK_DIVIDES_FIRST: &str = r#"#include <mpi.h>
#pragma TASS input int
int d;
int main(int argc, char *argv[]) {
    int rank, y = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 2)
        y = 100 / d;
#pragma TASS assume d != 0
    y = y + 100 / d;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return y == 7;
}
"#;

#[test]
fn the_same_assumption_elsewhere_does_not_cover_a_process_that_divides_first() {
    reduced_and_full(
        "3",
        &[],
        ONE_RANK_DIVIDES_FIRST,
        "violated",
        "division-by-zero",
    );
}

/// Different assumptions in different ranks: rank 0 asserts `d != 3` after its
/// own assumption `d != 1`, which holds only if rank 1's `d > 5` came first.
/// Taking rank 1's assumption alone would lose the failure. Real run, d = 3:
/// `Assertion 'd != 3' failed`, exit 134.
const DIFFERENT_ASSUMPTIONS: &str = r#"#include <mpi.h>
#include <assert.h>
#pragma TASS input int
int d;
int main(int argc, char *argv[]) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
#pragma TASS assume d != 1
        assert(d != 3);
    } else {
#pragma TASS assume d > 5
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn different_assumptions_in_different_processes_are_interleaved() {
    reduced_and_full("3", &[], DIFFERENT_ASSUMPTIONS, "violated", "assertion");
}

/// Every rank makes the same assumption, then wildcard receives at rank 0 and
/// a broadcast: which sender comes first decides the assertion. Real run, d =
/// 1: exit 134 or 0 depending on the order (4 of 6 runs failed; with rank 1
/// delayed by `sleep(1)`: `Assertion 'first == d' failed`).
const SAME_ASSUMPTION_THEN_WILDCARDS: &str = r#"#include <mpi.h>
#include <assert.h>
#pragma TASS input int
int d;
int main(int argc, char *argv[]) {
    int rank, v = 0, first = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#pragma TASS assume d > 0
    if (rank == 0) {
        MPI_Recv(&first, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        v = rank * d;
        MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Bcast(&first, 1, MPI_INT, 0, MPI_COMM_WORLD);
    assert(first == d);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn the_same_assumption_with_wildcard_receives_and_a_collective() {
    let (reduced, full) = reduced_and_full(
        "3",
        &[],
        SAME_ASSUMPTION_THEN_WILDCARDS,
        "violated",
        "assertion",
    );
    assert!(reduced <= full, "reduced {reduced} vs full {full}");
}

/// Rank 0 blocks in a receive nobody answers (when `d > 10`) before the
/// collective the others wait in. Real run, d = 11: hangs (killed by
/// `timeout 20`, exit 124).
const DEADLOCK_BEFORE_THE_COLLECTIVE: &str = r#"#include <mpi.h>
#pragma TASS input int
int d;
int main(int argc, char *argv[]) {
    int rank, v = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#pragma TASS assume d > 0
    if (rank == 0 && d > 10)
        MPI_Recv(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Allreduce(&d, &v, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn a_process_that_deadlocks_before_the_collective_is_found() {
    reduced_and_full(
        "3",
        &[],
        DEADLOCK_BEFORE_THE_COLLECTIVE,
        "violated",
        "deadlock",
    );
}

/// Rank 1 calls the two collectives in the other order when `d == 5`. Real
/// run, d = 5: hangs (exit 124 under `timeout 20`).
const COLLECTIVES_IN_ANOTHER_ORDER: &str = r#"#include <mpi.h>
#pragma TASS input int
int d;
int main(int argc, char *argv[]) {
    int rank, v = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#pragma TASS assume d > 0
    v = d;
    if (rank == 1 && d == 5) {
        MPI_Barrier(MPI_COMM_WORLD);
        MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
    } else {
        MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
        MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn collectives_called_in_another_order_after_the_same_assumption() {
    reduced_and_full(
        "3",
        &[],
        COLLECTIVES_IN_ANOTHER_ORDER,
        "violated",
        "collective-mismatch",
    );
}

/// The same assumption in every rank, never true: both searches warn and
/// hold. Real run, d = 1: exit 0.
const VACUOUS_EVERYWHERE: &str = r#"#include <mpi.h>
#pragma TASS input {d > 0} int
int d;
int main(int argc, char *argv[]) {
    int rank, v = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#pragma TASS assume d < 0
    v = d;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn a_vacuous_assumption_is_reported_reduced_and_in_full() {
    let file = common::inline(VACUOUS_EVERYWHERE);
    for reduced in [true, false] {
        let (code, r) = common::verify_reduced("3", &[], &file, reduced);
        common::assert_holds(code, &r);
        let warned = r["warnings"]
            .as_array()
            .into_iter()
            .flatten()
            .any(|w| w.as_str().is_some_and(|w| w.contains("assumption-vacuous")));
        assert!(warned, "reduced: {reduced}\n{r:#}");
    }
}

/// An SPMD program whose processes all assume the same thing about the input
/// before working: the reduction takes the assumptions one process at a time
/// (the first because every other process stands at the same one, the rest
/// because the path condition then implies them), so the states grow linearly
/// with the processes. Real run, d = 7: exit 0.
const SPMD_ASSUMPTION: &str = r#"#include <mpi.h>
#include <assert.h>
#pragma TASS input int
int d;
int main(int argc, char *argv[]) {
    int rank, size, y, sum = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
#pragma TASS assume d > 0 && d < 1000
    y = 1000 / d;
    MPI_Allreduce(&y, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    assert(sum == size * y);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn the_same_assumption_in_every_process_is_explored_once() {
    let (reduced4, full4) = reduced_and_full("4", &[], SPMD_ASSUMPTION, "holds", "");
    let file = common::inline(SPMD_ASSUMPTION);
    let (code, r) = common::verify_reduced("8", &[], &file, true);
    common::assert_holds(code, &r);
    let reduced8 = r["stats"]["states_seen"].as_u64().expect("stats");
    // Measured: 62 and 122 states (linear); before the rule 2,154 at 8
    // processes (each assumption taken in every order); the full search at 4
    // processes sees thousands.
    assert!(
        reduced8 < 3 * reduced4,
        "np 4: {reduced4}, np 8: {reduced8}"
    );
    assert!(10 * reduced4 < full4, "reduced {reduced4} vs full {full4}");
}
