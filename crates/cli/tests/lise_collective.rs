//! Collective loop invariants over several processes (the aligned form of
//! LISE, `crates/state/src/loop_sync.rs`, issue 17): verdicts at the weak
//! points of the alignment, each in the reduced (default) and the full
//! (`--por off`) search, which must agree.
//!
//! Every input `N` is unbounded (`{N >= 0}`): a verdict is for all N, and a
//! "holds" here is a run that finished with no bound on the loop count.
//!
//! How the verdicts were confirmed: each program prints its loop-head
//! arrivals (`SNAP`) and final values (`END`) under `#ifdef CONCRETE`; built
//! with `mpicc -std=c99 -DCONCRETE` with `N` replaced by 0, 1, 3, 4 and run
//! with `mpirun --allow-run-as-root --oversubscribe -np 2`, in the default
//! (eager) mode and in zero-buffer mode (`--mca btl self,tcp --mca
//! btl_tcp_eager_limit 56 --mca btl_tcp_rndv_eager_limit 56`), under
//! `timeout 20`. The comments give what the runs printed.

mod common;

use common::{inline, report};
use serde_json::Value;
use std::process::Command;

const SEARCHES: &[&[&str]] = &[&[], &["--por", "off"]];

fn run(procs: &str, search: &[&str], text: &str) -> (i32, Value) {
    let file = inline(text);
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "-n", procs, "--timeout", "120"])
        .args(search)
        .arg(&file)
        .args(["--format", "json"])
        .output()
        .expect("run tass");
    report(out)
}

/// Both searches: `violated`, first violation's property `property`, its message
/// containing `says`.
fn expect_violated(procs: &str, text: &str, property: &str, says: &str) {
    for search in SEARCHES {
        let (code, r) = run(procs, search, text);
        assert_eq!(r["verdict"], "violated", "{search:?}\n{r:#}");
        assert_eq!(code, 1, "{r:#}");
        let v = &r["violations"][0];
        assert_eq!(v["property"], property, "{search:?}\n{r:#}");
        let message = v["message"].as_str().unwrap_or_default();
        assert!(message.contains(says), "{search:?}: {message}");
    }
}

fn expect_holds(procs: &str, text: &str) {
    for search in SEARCHES {
        let (code, r) = run(procs, search, text);
        assert_eq!(r["verdict"], "holds", "{search:?}\n{r:#}");
        assert_eq!(code, 0, "{r:#}");
    }
}

/// Both searches refuse the run (exit 2) with a message containing `says`
/// and the pragma's or call's position.
fn expect_refused(procs: &str, text: &str, says: &str) {
    for search in SEARCHES {
        let (code, r) = run(procs, search, text);
        assert_eq!(r["verdict"], "error", "{search:?}\n{r:#}");
        assert_eq!(code, 2, "{r:#}");
        let message = r["error"].as_str().unwrap_or_default();
        assert!(message.contains(says), "{search:?}: {message}");
        assert!(message.contains("prog.c:"), "{message}");
    }
}

/// Only rank 0 runs the invariant loop. mpirun -np 2, eager and zero-buffer, N = 1, 3,
/// 4: rank 0 prints N arrivals, rank 1 none (`END 1 i=0`): the k-th arrivals never
/// compose. The paper requires every process's loop to take part.
const NOT_EVERY_PROCESS: &str = r#"#include <mpi.h>
#include <stdio.h>
#pragma TASS input {N >= 0} int
#define N 3
int main(int argc, char *argv[]) {
    int rank, i = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
#pragma TASS collective invariant L 0 <= i && i <= N
        while (i < N) {
#ifdef CONCRETE
            printf("SNAP L %d i=%d\n", rank, i);
#endif
            i++;
        }
    }
#ifdef CONCRETE
    printf("END %d i=%d\n", rank, i);
#endif
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn a_process_that_never_reaches_the_loop_is_an_invariant_violation() {
    expect_violated(
        "2",
        NOT_EVERY_PROCESS,
        "invariant",
        "has ended without arriving",
    );
}

/// Rank 0 runs loop A then B, rank 1 B then A. mpirun -np 2, N = 1, 3, 4 (both modes):
/// rank 0's first arrival is at A, rank 1's at B (each rank's SNAP lines in order).
const LOOPS_IN_DIFFERENT_ORDERS: &str = r#"#include <mpi.h>
#include <stdio.h>
#pragma TASS input {N >= 0} int
#define N 3
static int a_loop(void) {
    int i = 0;
#pragma TASS collective invariant A 0 <= i && i <= N && i == PROC[0]@a_loop.i
    while (i < N) {
#ifdef CONCRETE
        printf("SNAP A i=%d\n", i);
#endif
        i++;
    }
    return i;
}
static int b_loop(void) {
    int j = 0;
#pragma TASS collective invariant B 0 <= j && j <= N && j == PROC[0]@b_loop.j
    while (j < N) {
#ifdef CONCRETE
        printf("SNAP B j=%d\n", j);
#endif
        j++;
    }
    return j;
}
int main(int argc, char *argv[]) {
    int rank, s;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        s = a_loop() + b_loop();
    else
        s = b_loop() + a_loop();
#ifdef CONCRETE
    printf("END %d s=%d\n", rank, s);
#endif
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn loops_met_in_different_orders_are_an_invariant_violation() {
    expect_violated(
        "2",
        LOOPS_IN_DIFFERENT_ORDERS,
        "invariant",
        "different orders",
    );
}

/// Rank 1 leaves the loop by `break` in its second round while rank 0 goes on. mpirun
/// -np 2, both modes: N = 0, 1 end with equal counts; N = 2, 3: rank 0 arrives at the head
/// N + 1 times, rank 1 twice and leaves from the body (END 1 i=1): the arrivals do not pair.
const BREAK_ON_ONE_RANK: &str = r#"#include <mpi.h>
#include <stdio.h>
#pragma TASS input {N >= 0} int
#define N 3
int main(int argc, char *argv[]) {
    int rank, i = 0, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#pragma TASS collective invariant L 0 <= i && i <= N && i == PROC[0]@main.i
    while (i < N) {
#ifdef CONCRETE
        printf("SNAP L %d i=%d\n", rank, i);
#endif
        if (rank == 1 && i == 1)
            break;
        i++;
    }
#ifdef CONCRETE
    printf("END %d i=%d\n", rank, i);
#endif
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn a_process_leaving_by_break_is_an_invariant_violation() {
    expect_violated(
        "2",
        BREAK_ON_ONE_RANK,
        "invariant",
        "has ended without arriving",
    );
}

/// Nested invariant loops around a collective call (`MPI_Allreduce` in the inner loop):
/// rank-aligned counters, s = N (N - 1) / 2 * nprocs after the loops.
/// mpirun -np 2, both modes, N = 0, 1, 3, 4: every OUT arrival has ok=1, s = 0, 0, 6, 12.
const NESTED: &str = r#"#include <assert.h>
#include <mpi.h>
#include <stdio.h>
#pragma TASS input {N >= 0} int
#define N 3
int main(int argc, char *argv[]) {
    int rank, nprocs, i = 0, j, s = 0, t = 0, got;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
#pragma TASS collective invariant OUT 0 <= i && i <= N && i == PROC[0]@main.i && s == i * (i - 1) / 2 * nprocs
    while (i < N) {
#ifdef CONCRETE
        printf("SNAP OUT %d i=%d s=%d ok=%d\n", rank, i, s, s == i * (i - 1) / 2 * nprocs);
#endif
        j = 0;
        t = 0;
#pragma TASS collective invariant IN 0 <= j && j <= i && j == PROC[0]@main.j && t == j * nprocs
        while (j < i) {
            MPI_Allreduce(&rank, &got, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            t = t + nprocs;
            j++;
        }
        s = s + t;
        i++;
    }
#ifdef CONCRETE
    printf("END %d s=%d\n", rank, s);
#endif
    assert(s == N * (N - 1) / 2 * nprocs);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn nested_invariant_loops_with_a_collective_hold_for_every_n() {
    expect_holds("2", NESTED);
}

/// The inner loop adds one more on its third round (j == 2): IN is not preserved.
/// mpirun -np 2, both modes: N = 0, 1, 3 pass (no third inner round); N = 4: s = 13 and
/// the assertion fails (exit 134).
const NESTED_BAD: &str = r#"#include <assert.h>
#include <mpi.h>
#include <stdio.h>
#pragma TASS input {N >= 0} int
#define N 3
int main(int argc, char *argv[]) {
    int rank, nprocs, i = 0, j, s = 0, t = 0, got;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
#pragma TASS collective invariant OUT 0 <= i && i <= N && i == PROC[0]@main.i && s == i * (i - 1) / 2 * nprocs
    while (i < N) {
#ifdef CONCRETE
        printf("SNAP OUT %d i=%d s=%d ok=%d\n", rank, i, s, s == i * (i - 1) / 2 * nprocs);
#endif
        j = 0;
        t = 0;
#pragma TASS collective invariant IN 0 <= j && j <= i && j == PROC[0]@main.j && t == j * nprocs
        while (j < i) {
            MPI_Allreduce(&rank, &got, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
            t = t + nprocs + (j == 2);
            j++;
        }
        s = s + t;
        i++;
    }
#ifdef CONCRETE
    printf("END %d s=%d\n", rank, s);
#endif
    assert(s == N * (N - 1) / 2 * nprocs);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn nested_inner_invariant_not_preserved() {
    expect_violated("2", NESTED_BAD, "invariant", "`IN` is not preserved");
}

/// A receive from MPI_ANY_SOURCE before the loop: which message it takes depends on the
/// schedule, which the alignment restricts (refused; it ends normally with mpirun).
const WILDCARD_BEFORE_THE_LOOP: &str = r#"#include <mpi.h>
#include <stdio.h>
#pragma TASS input {N >= 0} int
#define N 3
int main(int argc, char *argv[]) {
    int rank, i = 0, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Recv(&x, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    else if (rank == 1)
        MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
#pragma TASS collective invariant L 0 <= i && i <= N && i == PROC[0]@main.i
    while (i < N) {
        i++;
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn a_wildcard_receive_anywhere_is_refused() {
    expect_refused("2", WILDCARD_BEFORE_THE_LOOP, "MPI_ANY_SOURCE");
}

/// Rank 1 sends two messages a round, rank 0 receives one in the loop and the rest after
/// it: messages cross the loop head. mpirun -np 2, both modes, N = 0, 1, 3, 4: every run
/// ends (rank 0 x = 0, 0, 2, 3). tass cannot summarise the loop: it must not say holds
/// (it refuses at the head, or reports a possible deadlock on the exit path, where the
/// messages left in flight by earlier rounds are missing); never a certain violation.
const MESSAGES_CROSS_THE_HEAD: &str = r#"#include <mpi.h>
#include <stdio.h>
#pragma TASS input {N >= 0} int
#define N 3
int main(int argc, char *argv[]) {
    int rank, i = 0, x = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#pragma TASS collective invariant R 0 <= i && i <= N && i == PROC[0]@main.i
    while (i < N) {
        if (rank == 1) {
            MPI_Send(&i, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
            MPI_Send(&i, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        } else {
            MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        i++;
    }
    if (rank == 0)
        for (i = 0; i < N; i++)
            MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#ifdef CONCRETE
    printf("END %d x=%d\n", rank, x);
#endif
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn messages_crossing_the_loop_head_are_never_holds() {
    for search in SEARCHES {
        let (code, r) = run("2", search, MESSAGES_CROSS_THE_HEAD);
        match r["verdict"].as_str() {
            Some("error") => {
                assert_eq!(code, 2);
                let message = r["error"].as_str().unwrap_or_default();
                assert!(message.contains("loop head"), "{message}");
            }
            Some("violated") => {
                assert_eq!(code, 1);
                for v in r["violations"].as_array().expect("violations") {
                    assert_eq!(v["certainty"], "possible", "{r:#}");
                }
            }
            other => panic!("{search:?}: {other:?}\n{r:#}"),
        }
    }
}

// ---- against the reduction: arrivals run alone (`Access::Own`) ----

/// Rank 0 counts, broadcasts; every rank copies the value right after the collective (a
/// write the others' steps interleave with) and asserts it collectively in the loop body.
/// The reduced and the full search must agree. mpirun -np 3, both modes, N = 0, 1, 3, 4:
/// v = N on every rank, no assertion fails.
const BCAST_IN_THE_LOOP: &str = r#"#include <assert.h>
#include <mpi.h>
#include <stdio.h>
#pragma TASS input {N >= 0} int
#define N 3
int main(int argc, char *argv[]) {
    int rank, i = 0, v = 0, mine = 0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#pragma TASS collective invariant B 0 <= i && i <= N && i == PROC[0]@main.i && v == i && mine == v
    while (i < N) {
#ifdef CONCRETE
        printf("SNAP B %d i=%d v=%d mine=%d\n", rank, i, v, mine);
#endif
        if (rank == 0)
            v = v + 1;
        MPI_Bcast(&v, 1, MPI_INT, 0, MPI_COMM_WORLD);
        /* a write right after the collective, before the others read theirs */
        mine = v;
#pragma TASS collective assert SAME v == PROC[0]@main.v
        i++;
    }
#ifdef CONCRETE
    printf("END %d v=%d\n", rank, v);
#endif
    assert(v == N);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn broadcast_with_a_collective_assert_in_the_loop_holds_in_both_searches() {
    expect_holds("3", BCAST_IN_THE_LOOP);
}

/// Rank 0 adds one more on its third round: B is not preserved. mpirun -np 3, both modes:
/// N = 0, 1 pass; N = 3, 4: v = N + 1 on every rank, `assert(v == N)` fails (exit 134).
#[test]
fn broadcast_not_preserved_in_both_searches() {
    let bad = BCAST_IN_THE_LOOP.replace("v = v + 1;", "v = v + 1 + (i == 2);");
    assert_ne!(bad, BCAST_IN_THE_LOOP);
    expect_violated("3", &bad, "invariant", "`B` is not preserved");
}

// ---- the fevs programs (confirmed by fevs/lise_check.py, see their headers) ----

const COUNT: &str = include_str!("../../../fevs/mpi/lise_count.c");
const RING: &str = include_str!("../../../fevs/mpi/lise_ring.c");
const RACE: &str = include_str!("../../../fevs/mpi/lise_race.c");
const STAGGER: &str = include_str!("../../../fevs/mpi/lise_stagger.c");

/// lise_count.c at 10 processes, the paper's configuration (mpirun -np 10, N = 0, 1, 4, 9),
/// in the reduced search (the full one at 10 processes is the product of ten counters'
/// interleavings; adversarial_lise.rs compares both searches at 4).
#[test]
fn count_holds_at_ten_processes() {
    let (code, r) = run("10", &[], COUNT);
    assert_eq!(r["verdict"], "holds", "{r:#}");
    assert_eq!(code, 0, "{r:#}");
    // the run ended (no bound on N): entry, assumed values, agreement, return
    let checks = r["stats"]["invariant_checks"].as_u64().unwrap_or(0);
    assert!(checks >= 3, "{r:#}");
}

/// lise_ring.c: deadlock freedom for every N at 10 processes, the paper's configuration
/// (mpirun -np 3 and 10, N = 0, 1, 3, 8, eager and zero-buffer: every run ends). Reduced
/// search only: the full one is the product of the ring's interleavings (316,573
/// transitions at 4 processes); adversarial_lise.rs compares both searches at 3.
#[test]
fn ring_holds_at_ten_processes() {
    let (code, r) = run("10", &[], RING);
    assert_eq!(r["verdict"], "holds", "{r:#}");
    assert_eq!(code, 0, "{r:#}");
}

/// lise_race.c with the rounds tied in the invariant: the aligned form refuses the
/// wildcard receive (the race needs a process a round ahead), and the second run with
/// lagged loop records refutes the paper's race itself: `s == t` not preserved (mpirun
/// -np 3 with rank 0 waiting 0.2 s and ranks >= 2 0.4 s: rank 0's first round sums both
/// of rank 1's messages, s = 2 != 3 at the second arrival, N = 2, 3, 5; the tie on the
/// rounds holds at every composed arrival). Reduced search (the full one lets rank 1 run
/// ahead without bound).
#[test]
fn race_with_aligned_rounds_is_refuted_by_lagged_records() {
    let aligned = RACE.replace(
        "#pragma TASS collective invariant SUM s == t",
        "#pragma TASS collective invariant SUM s == t && round == PROC[0]@main.round",
    );
    assert_ne!(aligned, RACE);
    let (code, r) = run("3", &[], &aligned);
    assert_eq!(r["verdict"], "violated", "{r:#}");
    assert_eq!(code, 1, "{r:#}");
    let v = &r["violations"][0];
    assert_eq!(v["property"], "invariant", "{r:#}");
    let message = v["message"].as_str().unwrap_or_default();
    assert!(message.contains("not preserved"), "{message}");
}

/// lise_stagger.c: rank 1 must run a round ahead of rank 0 (mpirun -np 2 ends, x == 2N):
/// the alignment gets stuck, and the second run with lagged loop records
/// (state/src/loop_lag.rs) proves it for every N (reduced search; the full one lets
/// rank 1 run ahead without bound, the paper's Sec. 3: tests/lise_lagged.rs compares
/// both at fixed N).
#[test]
fn stagger_holds_with_lagged_records() {
    let (code, r) = run("2", &[], STAGGER);
    assert_eq!(r["verdict"], "holds", "{r:#}");
    assert_eq!(code, 0, "{r:#}");
}
