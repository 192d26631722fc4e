//! An adversarial probe of `--arith real|herbrand|ieee` (issue 18): programs aimed
//! at the identities that fail for `-0`, NaN and infinities, at rounding of
//! literals and conversions, and at conversions of doubles to integers.
//!
//! Every expected verdict was confirmed by running the program for real, with gcc
//! 12 on x86-64 (`gcc -g -O0 -fsanitize=address,undefined -frounding-math`, values
//! printed with `%a`); the sequential programs are also compiled and run by the
//! tests themselves ([`fails_for_real`], [`passes_for_real`]). The MPI program was
//! run with `mpirun --allow-run-as-root --oversubscribe -np 3`.
//!
//! The one wrong "holds" the probe found (fixed): a floating value converted to an
//! integer type whose range does not hold its truncation (undefined, C11 6.3.1.4)
//! was the mathematical truncation, so `(int)1e10 > 0` held at every level, while
//! x86-64 gives `INT_MIN` (and `-fsanitize=undefined` says nothing).

mod common;

use serde_json::Value;

const LEVELS: [&str; 3] = ["real", "herbrand", "ieee"];

fn verify(level: &str, text: &str) -> (i32, Value) {
    common::verify("1", &["--arith", level], text)
}

/// `main` with `body`, including `<assert.h>`, `<math.h>` and `<stdio.h>`.
fn seq(body: &str) -> String {
    format!(
        "#include <assert.h>\n#include <math.h>\n#include <stdio.h>\n\
         int main(void) {{\n{body}\n    return 0;\n}}\n"
    )
}

/// Compiles `text` with gcc (sanitizers on) and runs it: whether it exited normally.
fn runs_ok(text: &str) -> bool {
    common::gcc_run(text, &["-O0", "-frounding-math"])
        .status
        .success()
}

fn fails_for_real(text: &str) {
    assert!(
        !runs_ok(text),
        "the assertion was expected to fail:\n{text}"
    );
}

fn passes_for_real(text: &str) {
    assert!(runs_ok(text), "the program was expected to pass:\n{text}");
}

/// Not "holds" at `level`: an assertion violation, provable or possible.
fn assertion_can_fail(level: &str, text: &str) {
    let (code, r) = verify(level, text);
    common::assert_violated(code, &r, "assertion", None);
}

fn holds(level: &str, text: &str) {
    let (code, r) = verify(level, text);
    assert_eq!(r["verdict"], "holds", "at {level}: {r:#}");
    assert_eq!(code, 0);
}

// ---- The wrong "holds" found and fixed: out-of-range conversions to integers ----

/// `(int)1e10`: gcc prints -2147483648 and the assertion fails. tass said "holds"
/// at every level (the truncation 10000000000 is positive); now a violation.
#[test]
fn double_to_int_out_of_range_is_not_its_truncation() {
    let text = seq("    volatile double d = 1e10;\n    int k = (int)d;\n    assert(k > 0);");
    fails_for_real(&text);
    for level in LEVELS {
        assertion_can_fail(level, &text);
    }
}

/// `(int)((double)INT_MAX + 1)`: gcc gives -2147483648; tass said "holds".
#[test]
fn int_max_plus_one_in_double_back_to_int() {
    let text = seq(
        "    int n = 2147483647;\n    double d = n;\n    d = d + 1;\n    int m = (int)d;\n    \
         assert(m > 0);",
    );
    fails_for_real(&text);
    for level in LEVELS {
        assertion_can_fail(level, &text);
    }
}

/// `(unsigned)-1.0` is undefined (its truncation -1 is not an `unsigned`); gcc
/// gives 0 here, not 4294967295. tass reduced -1 modulo 2^32 and said "holds".
#[test]
fn negative_double_to_unsigned_does_not_wrap() {
    let text = seq("    unsigned u = (unsigned)-1.0;\n    assert(u == 4294967295u);");
    fails_for_real(&text);
    for level in LEVELS {
        assertion_can_fail(level, &text);
    }
}

/// `(short)40000.0`: gcc gives -25536 (through `int`), so `s == 40000` fails;
/// tass kept 40000 in a `short` and said "holds".
#[test]
fn double_to_short_out_of_range() {
    let text = seq("    short s = (short)40000.0;\n    assert(s == 40000);");
    fails_for_real(&text);
    for level in LEVELS {
        assertion_can_fail(level, &text);
    }
}

/// In-range conversions still truncate exactly: `(int)2.9 == 2`, `(int)-2.9 ==
/// -2`, `(unsigned)-0.5 == 0` pass for real and hold at every level.
#[test]
fn in_range_conversions_truncate() {
    let text = seq(
        "    int k = (int)2.9;\n    int m = (int)-2.9;\n    unsigned u = (unsigned)-0.5;\n    \
         assert(k == 2 && m == -2 && u == 0);",
    );
    passes_for_real(&text);
    for level in LEVELS {
        holds(level, &text);
    }
}

// ---- Cases where tass already agreed with the machine (regressions) ----

/// `long` 2^53 + 1 converts to 2^53 (ties to even), and the literal
/// 9007199254740993.0 rounds to it as well: passes for real, holds at herbrand and
/// ieee (the reals keep 2^53 + 1: violated there, as documented).
#[test]
fn long_beyond_the_mantissa_rounds_to_even() {
    let text = seq(
        "    long n = 9007199254740993L;\n    double d = (double)n;\n    \
         assert(d == 9007199254740992.0);\n    assert(d == 9007199254740993.0);",
    );
    passes_for_real(&text);
    holds("herbrand", &text);
    holds("ieee", &text);
    let back = seq(
        "    long n = 9007199254740993L;\n    double d = (double)n;\n    assert((long)d == n);",
    );
    fails_for_real(&back);
    assertion_can_fail("herbrand", &back);
    assertion_can_fail("ieee", &back);
}

/// Single precision: 2^24 + 1 is 2^24 in a `float`, `int` 16777217 to `float`
/// rounds, and a `float` literal between two floats is rounded once, directly
/// (1.00000005960464477550f is 0x1.000002p+0; rounding through the double
/// 1 + 2^-24 would give 1.0f).
#[test]
fn single_precision_rounding() {
    for body in [
        "    float a = 16777216.0f;\n    float b = a + 1.0f;\n    assert(b != a);",
        "    int i = 16777217;\n    float f = i;\n    assert((int)f == i);",
        "    float f = 1.00000005960464477550f;\n    assert(f == 1.0f);",
        "    float s = 0;\n    for (int i = 0; i < 10; i++) s += 0.1f;\n    assert(s == 1.0f);",
    ] {
        let text = seq(body);
        fails_for_real(&text);
        assertion_can_fail("herbrand", &text);
        assertion_can_fail("ieee", &text);
    }
}

/// Increments, compound assignments, returns and parameters round to their type:
/// `1e16 + 1` is `1e16`, a `float` parameter or result of 0.1 is not 0.1.
#[test]
fn assignments_and_calls_round() {
    for body in [
        "    double d = 1e16;\n    d++;\n    assert(d != 1e16);",
        "    double d = 1e16;\n    d += 1;\n    assert(d != 1e16);",
        "    float f = 0;\n    f += 0.1;\n    assert(f == 0.1);",
        "    int c = 1;\n    double x = c ? 0.1f : 0.2;\n    assert(x == 0.1);",
        "    double s = 0;\n    for (int i = 0; i < 10; i++) s += 0.1;\n    assert(s == 1.0);",
    ] {
        let text = seq(body);
        fails_for_real(&text);
        assertion_can_fail("herbrand", &text);
        assertion_can_fail("ieee", &text);
        // The reals have no round-off: these hold there (as documented).
        holds("real", &text);
    }
    let text = "#include <assert.h>\nfloat g(double x) { return x; }\n\
                int main(void) { assert(g(0.1) == 0.1); return 0; }\n";
    fails_for_real(text);
    assertion_can_fail("herbrand", text);
    assertion_can_fail("ieee", text);
}

/// NaN: `n == n` and `!(n < 1) -> n >= 1` fail for `n = sqrt(-1)`; tass never
/// says "holds" at herbrand/ieee (possible violations).
#[test]
fn nan_breaks_reflexivity_and_trichotomy() {
    for body in [
        "    double n = sqrt(-1.0);\n    assert(n == n);",
        "    double n = sqrt(-1.0);\n    if (!(n < 1.0)) assert(n >= 1.0);",
        "    double big = 1e308;\n    double y = big * 10;\n    assert(!(y > big));",
    ] {
        let text = seq(body);
        fails_for_real(&text);
        assertion_can_fail("herbrand", &text);
        assertion_can_fail("ieee", &text);
    }
}

/// Two MPI sums of the same values are the same tree, but NaN is not equal to
/// itself: `r1 == r2` fails with mpirun -np 3 (prints `-nan -nan`), and tass does
/// not say "holds" at herbrand/ieee.
#[test]
fn equal_reductions_of_nan_are_not_equal() {
    let text = common::program(
        "#include <math.h>",
        "    double x, r1 = 0, r2 = 0;\n    x = rank == 1 ? sqrt(-1.0) : 1.0;\n    \
         MPI_Allreduce(&x, &r1, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);\n    \
         MPI_Allreduce(&x, &r2, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);\n    assert(r1 == r2);",
    );
    for level in ["herbrand", "ieee"] {
        let (code, r) = common::verify("3", &["--arith", level], &text);
        common::assert_violated(code, &r, "assertion", None);
    }
}

/// `t = (int)d` for any double input `d`: `t - d < 1 && d - t < 1` fails for
/// `d = 1e10` (gcc: `t` is -2147483648, the assertion fails). `soundness.rs`
/// expected "holds" for it at the default level; now the assertion can fail, and
/// holds only when `d` is in `int`'s range.
#[test]
fn truncation_bound_needs_the_range_of_int() {
    let text = "#include <assert.h>\n#pragma TASS input double\ndouble d;\n\
                int main(void) {\n  int t = (int)d;\n  assert(t - d < 1 && d - t < 1);\n  return 0;\n}\n";
    fails_for_real(&text.replace("double d;", "double d = 1e10;"));
    assertion_can_fail("real", text);
    let guarded = text
        .replace("  int t", "  if (d > -1e9 && d < 1e9) {\n  int t")
        .replace("1);\n", "1);\n  }\n");
    holds("real", &guarded);
}

/// `(long)9.3e18` (above 2^63): gcc gives -9223372036854775808, the assertion
/// fails; tass said "holds" at every level.
#[test]
fn double_to_long_out_of_range() {
    let text = seq("    volatile double d = 9.3e18;\n    long l = (long)d;\n    assert(l > 0);");
    fails_for_real(&text);
    for level in LEVELS {
        assertion_can_fail(level, &text);
    }
    // 1e19 is below 2^64: in the range of `unsigned long`, converted exactly.
    let text =
        seq("    unsigned long u = (unsigned long)1e19;\n    assert(u == 10000000000000000000UL);");
    passes_for_real(&text);
    for level in LEVELS {
        holds(level, &text);
    }
}
