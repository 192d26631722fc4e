//! Outputs are per process, as every global of a real MPI program is: a
//! `#pragma TASS output` (which a C compiler ignores) must not make the ranks
//! share a variable. The program's output is rank 0's copy. Inputs stay shared
//! and read-only: a write into one, however it is reached, is an error.
//!
//! Each expected verdict was confirmed with a real run (`mpicc -g`, then
//! `mpirun --allow-run-as-root --oversubscribe -np N`; sequential programs with
//! `gcc -g -fsanitize=address,undefined`), as recorded at each program.

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::{assert_holds, assert_violated, inline, reduced_and_full, report, verify};
use serde_json::Value;

/// Rank 1 writes 42 into the output `result`; after a barrier rank 0 asserts
/// it sees 42. Rank 0's copy is still 0, so the assertion fails on every run.
/// (With shared outputs tass said "holds".)
///
/// Real run: `mpicc -g rank0.c && mpirun -np 2 ./a.out` prints
/// `rank 0: result = 0`, then `Assertion `result == 42' failed` (exit 134).
const RANK0_READS_ITS_OWN_COPY: &str = r#"#include <mpi.h>
#include <assert.h>
#include <stdio.h>
#pragma TASS output
int result;
int main(int argc, char *argv[]) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 1)
        result = 42;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        printf("rank 0: result = %d\n", result);
        assert(result == 42);
    }
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn rank_0_does_not_see_an_output_another_rank_wrote() {
    let (code, r) = verify("2", &[], RANK0_READS_ITS_OWN_COPY);
    assert_violated(code, &r, "assertion", Some(15));
    assert_eq!(r["violations"][0]["process"], 0, "{r:#}");
    // The reduction explores the same verdict as the full search.
    reduced_and_full("2", &[], RANK0_READS_ITS_OWN_COPY, "violated", "assertion");
}

/// Ranks 0 and 1 each write their own copy of the output `a`, rank 2 writes
/// `b`; after a barrier rank 0 checks its own value, whatever the order of the
/// writes. (With shared outputs this was the test that the two writes to `a`
/// race, in `por_outputs.rs`, with `assert(a == 2)` violated in one order.)
///
/// Real run: `mpirun -np 3` ends normally (exit 0) every time.
const EACH_RANK_ITS_OWN_COPY: &str = r#"#include <mpi.h>
#include <assert.h>
#pragma TASS output
int a;
#pragma TASS output
int b;
int main(int argc, char *argv[]) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        a = 1;
    if (rank == 1)
        a = 2;
    if (rank == 2)
        b = 3;
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        assert(a == 1 && b == 0);
    if (rank == 1)
        assert(a == 2 && b == 0);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn each_rank_reads_its_own_writes_to_an_output() {
    let (reduced, full) = reduced_and_full("3", &[], EACH_RANK_ITS_OWN_COPY, "holds", "");
    // Writes to outputs are local steps now: the reduced search is one
    // interleaving of the three ranks' local code around the barrier.
    assert!(reduced <= full, "reduced {reduced} vs full {full}");
}

/// The specification of the scratch pair: `result` is the sum of the four
/// inputs. With `-DFEVS_CONCRETE` the inputs are `i * 1.5 + 0.25`.
///
/// Real run: `gcc -g -fsanitize=address,undefined -DFEVS_CONCRETE spec.c &&
/// ./a.out` prints `result = 10`.
const SUM_SPEC: &str = r#"#include <stdio.h>
#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double a[4];
#pragma TASS output
double result;
int main(void) {
    int i;
#ifdef FEVS_CONCRETE
    for (i = 0; i < 4; i++)
        a[i] = i * 1.5 + 0.25;
#endif
    result = 0.0;
    for (i = 0; i < 4; i++)
        result += a[i];
    printf("result = %.17g\n", result);
    return 0;
}
"#;

/// A correct implementation that uses the output `result` as per-rank scratch:
/// each of two ranks sums its half of `a` in its own copy, rank 1 sends its
/// sum to rank 0, which adds it to its own. (With shared outputs the two
/// ranks summed into one variable and tass said "not-equivalent".)
///
/// Real run: `mpicc -g -DFEVS_CONCRETE impl.c && mpirun -np 2 ./a.out`
/// prints `result = 10` (rank 0), as the specification does.
const SUM_SCRATCH: &str = r#"#include <mpi.h>
#include <stdio.h>
#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double a[4];
#pragma TASS output
double result;
int main(int argc, char *argv[]) {
    int rank, i;
    double other;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#ifdef FEVS_CONCRETE
    for (i = 0; i < 4; i++)
        a[i] = i * 1.5 + 0.25;
#endif
    result = 0.0;
    for (i = 2 * rank; i < 2 * rank + 2; i++)
        result += a[i];
    if (rank == 1) {
        MPI_Send(&result, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
    } else {
        MPI_Recv(&other, 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        result += other;
        printf("result = %.17g\n", result);
    }
    MPI_Finalize();
    return 0;
}
"#;

/// The same specification as an MPI program: rank 0 computes the sum, rank 1
/// overwrites its own copy of `result` with -1. The program's output is rank
/// 0's copy, so it computes what `SUM_SPEC` does.
///
/// Real run: `mpicc -g -DFEVS_CONCRETE spec2.c && mpirun -np 2 ./a.out`
/// prints `rank 0: result = 10` and `rank 1: result = -1`.
const SUM_SPEC_TWO_RANKS: &str = r#"#include <mpi.h>
#include <stdio.h>
#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double a[4];
#pragma TASS output
double result;
int main(int argc, char *argv[]) {
    int rank, i;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#ifdef FEVS_CONCRETE
    for (i = 0; i < 4; i++)
        a[i] = i * 1.5 + 0.25;
#endif
    if (rank == 0) {
        result = 0.0;
        for (i = 0; i < 4; i++)
            result += a[i];
    } else {
        result = -1.0;
    }
    printf("rank %d: result = %.17g\n", rank, result);
    MPI_Finalize();
    return 0;
}
"#;

/// Runs `tass compare --spec SPEC --impl IMPL EXTRA --format json`.
fn compare(spec: &PathBuf, imp: &PathBuf, extra: &[&str]) -> (i32, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .arg("compare")
        .arg("--spec")
        .arg(spec)
        .arg("--impl")
        .arg(imp)
        .args(extra)
        .args(["--format", "json"])
        .output()
        .expect("run tass");
    report(out)
}

#[test]
fn an_output_used_as_per_rank_scratch_is_equivalent() {
    let spec = inline(SUM_SPEC);
    let imp = inline(SUM_SCRATCH);
    let (code, r) = compare(&spec, &imp, &["--impl-procs", "2"]);
    assert_holds(code, &r);
    // The implementation alone has no violation either.
    let (code, r) = verify("2", &[], SUM_SCRATCH);
    assert_holds(code, &r);
}

#[test]
fn a_parallel_specification_outputs_rank_0s_copy() {
    let spec = inline(SUM_SPEC_TWO_RANKS);
    let imp = inline(SUM_SPEC);
    let (code, r) = compare(&spec, &imp, &["--spec-procs", "2"]);
    assert_holds(code, &r);
    // Both sides parallel: rank 0's copies are compared.
    let imp = inline(SUM_SCRATCH);
    let (code, r) = compare(&spec, &imp, &["--spec-procs", "2", "--impl-procs", "2"]);
    assert_holds(code, &r);
}

/// The scratch implementation without the gathering: rank 0's copy holds only
/// its half of the sum, so the program's output differs from the
/// specification's, and the message says whose copies were compared.
///
/// Real run: `mpicc -g -DFEVS_CONCRETE impl.c && mpirun -np 2 ./a.out`
/// prints `result = 2` (rank 0), where the specification prints `result = 10`.
const SCRATCH_NOT_GATHERED: &str = r#"#include <mpi.h>
#include <stdio.h>
#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double a[4];
#pragma TASS output
double result;
int main(int argc, char *argv[]) {
    int rank, i;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#ifdef FEVS_CONCRETE
    for (i = 0; i < 4; i++)
        a[i] = i * 1.5 + 0.25;
#endif
    result = 0.0;
    for (i = 2 * rank; i < 2 * rank + 2; i++)
        result += a[i];
    if (rank == 0)
        printf("result = %.17g\n", result);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn an_output_only_partly_computed_on_rank_0_is_not_equivalent() {
    let spec = inline(SUM_SPEC);
    let imp = inline(SCRATCH_NOT_GATHERED);
    let (code, r) = compare(&spec, &imp, &["--impl-procs", "2"]);
    assert_violated(code, &r, "not-equivalent", Some(8));
    let message = r["violations"][0]["message"].as_str().unwrap_or("");
    assert!(
        message.contains("the implementation a[0] + a[1] (rank 0's copies)"),
        "{r:#}"
    );
}

/// Output values in a `verify` report are rank 0's copy too.
#[test]
fn reported_outputs_are_rank_0s_copy() {
    let (code, r) = verify("2", &[], SUM_SPEC_TWO_RANKS);
    assert_holds(code, &r);
    // Shared, the output was -1 on some runs: "(differs between runs)".
    assert_eq!(r["outputs"]["result"], "a[0] + a[1] + a[2] + a[3]", "{r:#}");
}

/// An input written through a pointer: a compiled program changes its own copy
/// of the global; tass shares one value of each input between the processes,
/// so it refuses the write instead.
const INPUT_THROUGH_POINTER: &str = r#"#pragma TASS input
int N;
#pragma TASS output
int r;
int main(void) {
    int *p = &N;
    *p = 5;
    r = N;
    return 0;
}
"#;

/// Rank 1 receives into the input `N`.
const INPUT_AS_RECEIVE_BUFFER: &str = r#"#include <mpi.h>
#pragma TASS input
int N;
#pragma TASS output
int r;
int main(int argc, char *argv[]) {
    int rank, x = 7;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Send(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    else
        MPI_Recv(&N, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    r = N;
    MPI_Finalize();
    return 0;
}
"#;

/// An element of an input array assigned directly.
const INPUT_ELEMENT_ASSIGNED: &str = r#"#pragma TASS input
int a[2];
#pragma TASS output
int r;
int main(void) {
    a[0] = 5;
    r = a[0];
    return 0;
}
"#;

fn assert_error(code: i32, r: &Value, at: &str, says: &str) {
    assert_eq!(r["verdict"], "error", "{r:#}");
    assert_eq!(code, 2, "{r:#}");
    let error = r["error"].as_str().unwrap_or("");
    assert!(error.contains(at) && error.contains(says), "{r:#}");
}

#[test]
fn inputs_are_never_written() {
    let (code, r) = verify("1", &[], INPUT_THROUGH_POINTER);
    assert_error(code, &r, "prog.c:7:5", "writes into input `N`");
    let (code, r) = verify("2", &[], INPUT_AS_RECEIVE_BUFFER);
    assert_error(code, &r, "prog.c:13:9", "writes into input `N`");
    let (code, r) = verify("1", &[], INPUT_ELEMENT_ASSIGNED);
    assert_error(code, &r, "prog.c:6:5", "cannot modify input `a`");
}
