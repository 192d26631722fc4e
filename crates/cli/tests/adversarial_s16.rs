//! Session 16's adversarial probe (docs/TESTING.md, "Session 16 probe"): the
//! sharpest of its programs, kept so that the verdicts they found right stay
//! right. Each expected verdict was confirmed by a real run, noted at the test.

mod common;

use std::process::Command;

use common::{assert_holds, assert_violated, program, verify};
use serde_json::Value;

fn tass(args: &[&str]) -> (i32, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(args)
        .args(["--format", "json"])
        .output()
        .expect("run tass");
    common::report(out)
}

/// A program with double inputs `x`, `y` and an int output `flag` set by `body`.
fn flag_program(body: &str) -> String {
    format!(
        "#pragma TASS input\ndouble x;\n#pragma TASS input\ndouble y;\n\
         #pragma TASS output\nint flag;\nint main(void) {{\n    flag = 0;\n    {body}\n    return 0;\n}}\n"
    )
}

/// The third branch of `x < y` / `x >= y` is taken only by a NaN: a
/// specification and an implementation that differ there alone are not
/// equivalent at herbrand or ieee (`!(x < y)` is not `x >= y`). gcc over
/// {±0, ±1, ±inf, NaN, 0.1, 1e308, 4.9e-324, -2.5, 3}: the outputs differ for
/// every pair with a NaN (276 of 1,728 triples).
#[test]
fn a_branch_only_nan_takes_is_not_dropped_by_the_pairing() {
    let spec = common::inline(&flag_program(
        "if (x < y) flag = 1; else if (x >= y) flag = 2; else flag = 3;",
    ));
    let imp = common::inline(&flag_program(
        "if (x < y) flag = 1; else if (x >= y) flag = 2; else flag = 4;",
    ));
    let (spec, imp) = (spec.to_string_lossy(), imp.to_string_lossy());
    for level in ["herbrand", "ieee"] {
        let (code, r) = tass(&["compare", "--arith", level, "--spec", &spec, "--impl", &imp]);
        assert_eq!(r["verdict"], "violated", "{level}: {r:#}");
        assert_eq!(code, 1);
    }
    // The same two programs with the third branches alike are equivalent.
    let same = common::inline(&flag_program(
        "if (x < y) flag = 1; else if (x >= y) flag = 2; else flag = 3;",
    ));
    let same = same.to_string_lossy();
    for level in ["herbrand", "ieee"] {
        let (code, r) = tass(&[
            "compare", "--arith", level, "--spec", &spec, "--impl", &same,
        ]);
        assert_holds(code, &r);
    }
}

/// A collective assertion whose `PROC[N]` is read only where `N == 1` is
/// false (`||`, `?:`, `!(... && ...)`): the rank is open over {0, 2} there,
/// never fixed to 1 by the condition's wrong polarity. mpirun -np 3 with the
/// assertion replaced by an MPI_Allgather and a C assert, N = 0, 1, 2: fails
/// at N = 2 only (rank 2 holds 0).
#[test]
fn a_rank_under_a_condition_is_split_on_the_side_the_condition_leaves() {
    let decls = "#pragma TASS input {0 <= N && N <= 2}\nint N;\nint x;";
    for assertion in [
        "N == 1 || PROC[N].x == N * N",
        "N == 1 ? 1 : PROC[N].x == N * N",
        "!(N != 1 && PROC[N].x != N * N)",
    ] {
        let body = format!(
            "    x = (rank == 2 && N == 2) ? 0 : N * rank;\n#pragma TASS collective assert A {assertion}\n"
        );
        let (code, r) = verify("3", &[], &program(decls, &body));
        assert_violated(code, &r, "collective-assertion", None);
        let fixed = body.replace("(rank == 2 && N == 2) ? 0 : ", "");
        let (code, r) = verify("3", &[], &program(decls, &fixed));
        assert_holds(code, &r);
    }
}

/// A `PROC[N - 2]` read only where `N >= 2` (the enclosing `||` or `?:`):
/// the rank names a process wherever it is read, so the check is split over
/// ranks 0..2 (it was refused: the range was asked of the path condition
/// alone, although the guide promised the enclosing conditions). mpirun -np 3
/// with an MPI_Allgather and a C assert, N = 0..4: the fixed program passes,
/// the other fails at N = 3 only; read before its guard (`PROC[N - 2].x ==
/// ... || N < 2`) the rank is -2 at N = 0 and stays refused.
#[test]
fn a_rank_the_enclosing_condition_keeps_in_range_is_split() {
    let decls = "#pragma TASS input {0 <= N && N <= 4}\nint N;\nint x;";
    for assertion in [
        "N < 2 || PROC[N - 2].x == (N - 2) * N",
        "N >= 2 ? PROC[N - 2].x == (N - 2) * N : 1",
        "!(N >= 2 && PROC[N - 2].x != (N - 2) * N)",
    ] {
        let body = format!(
            "    x = (rank == 1 && N == 3) ? 1 : N * rank;\n#pragma TASS collective assert A {assertion}\n"
        );
        let (code, r) = verify("3", &[], &program(decls, &body));
        assert_violated(code, &r, "collective-assertion", None);
        let fixed = body.replace("(rank == 1 && N == 3) ? 1 : ", "");
        let (code, r) = verify("3", &[], &program(decls, &fixed));
        assert_holds(code, &r);
    }
    let after = "    x = N * rank;\n#pragma TASS collective assert A PROC[N - 2].x == (N - 2) * N || N < 2\n";
    let (code, r) = verify("3", &[], &program(decls, after));
    assert_eq!(r["verdict"], "error", "{r:#}");
    assert_eq!(code, 2);
}

/// Two persistent broadcasts (roots 0 and 1) started and waited for one at a
/// time in opposite orders on the two ranks: each waits for a broadcast the
/// other has not started. mpirun -np 2 (Open MPI 4.1, MPIX_Bcast_init), default
/// and zero-buffer: hangs every run. Started both before one MPI_Waitall: exit 0.
#[test]
fn persistent_broadcasts_waited_in_opposite_orders_deadlock() {
    let decls = "#if defined(OPEN_MPI) && MPI_VERSION < 4\n#include <mpi-ext.h>\n\
                 #define MPI_Bcast_init MPIX_Bcast_init\n#endif";
    let body = "    int a = 1, b = 2; MPI_Request c[2];\n\
        MPI_Bcast_init(&a, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &c[0]);\n\
        MPI_Bcast_init(&b, 1, MPI_INT, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &c[1]);\n\
        if (rank == 0) { MPI_Start(&c[1]); MPI_Wait(&c[1], MPI_STATUS_IGNORE);\n\
                         MPI_Start(&c[0]); MPI_Wait(&c[0], MPI_STATUS_IGNORE); }\n\
        else { MPI_Start(&c[0]); MPI_Wait(&c[0], MPI_STATUS_IGNORE);\n\
               MPI_Start(&c[1]); MPI_Wait(&c[1], MPI_STATUS_IGNORE); }\n\
        MPI_Request_free(&c[0]); MPI_Request_free(&c[1]);";
    let (code, r) = verify("2", &[], &program(decls, body));
    assert_violated(code, &r, "deadlock", None);
    let both = "    int a = 1, b = 2; MPI_Request c[2];\n\
        if (rank == 0) a = 10; else b = 20;\n\
        MPI_Bcast_init(&a, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &c[0]);\n\
        MPI_Bcast_init(&b, 1, MPI_INT, 1, MPI_COMM_WORLD, MPI_INFO_NULL, &c[1]);\n\
        if (rank == 0) { MPI_Start(&c[1]); MPI_Start(&c[0]); }\n\
        else { MPI_Start(&c[0]); MPI_Start(&c[1]); }\n\
        MPI_Waitall(2, c, MPI_STATUSES_IGNORE);\n\
        assert(a == 10 && b == 20);\n\
        MPI_Request_free(&c[0]); MPI_Request_free(&c[1]);";
    let (code, r) = verify("2", &[], &program(decls, both));
    assert_holds(code, &r);
}

/// C quotients and remainders at INT_MIN and by negative divisors, with the
/// built-in prover alone and with the default: gcc -fsanitize=undefined over
/// the whole input box agrees with each verdict.
#[test]
fn quotients_at_int_min_and_by_negative_divisors() {
    let one = |constraint: &str, claim: &str| {
        format!(
            "#include <assert.h>\n#pragma TASS input {{{constraint}}}\nint x;\n\
             int main(void) {{\n    {claim}\n    return 0;\n}}\n"
        )
    };
    let int_min = "-2147483648 <= x && x <= -2147483640";
    let small = "-1000 <= x && x <= 1000";
    let holding = [
        one(
            int_min,
            "assert(x / 2 < -1073741810); assert(x % 2 == 0 || x % 2 == -1);",
        ),
        one(
            small,
            "assert(x / -3 == -(x / 3)); assert(x % -3 == x % 3);",
        ),
        one(
            small,
            "int r = ((x % 10) + 10) % 10; int a[10] = {0}; a[r] = 1; assert(a[r] == 1);",
        ),
    ];
    // gcc: fails at x = -2147483647 (x / 2 * 2 == -2147483646), at x = 1
    // (x % -3 == 1) and at x = -9 (index -9).
    let failing = [
        (one(int_min, "assert(x / 2 * 2 == x);"), "assertion"),
        (one(small, "assert(x % -3 <= 0);"), "assertion"),
        (
            one(small, "int a[10] = {0}; a[x % 10] = 1;"),
            "out-of-bounds",
        ),
    ];
    for prover in [&[][..], &["--prover", "builtin"][..]] {
        for text in &holding {
            let (code, r) = verify("1", prover, text);
            assert_holds(code, &r);
        }
        for (text, property) in &failing {
            let (code, r) = verify("1", prover, text);
            assert_violated(code, &r, property, None);
        }
    }
}
