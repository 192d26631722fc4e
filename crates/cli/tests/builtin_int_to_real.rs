//! The built-in prover reads `(double) n` of an integer `n` as `n` itself (one integer
//! unknown, `crates/prove/src/linear.rs`): `1.0 / N` under `N >= 1` is decided without
//! an SMT solver (the LISE paper's `mean` divides by `N`). The weak points tried here:
//! integrality carried over to the real side (`2.0 * N != 3.0` holds, `N / 2.0 != 1.0`
//! does not), and a bound that does not exclude 0 (`N >= 0`: division by zero).
//!
//! Every expected verdict was confirmed by running the program for real: gcc
//! -fsanitize=address,undefined,float-divide-by-zero, the same body with N = v for N = 0, 1, 2, 3, 7
//! (each program's comment says what the runs showed).

mod common;

use common::{assert_holds, assert_violated, verify};

const BUILTIN: &[&str] = &["--prover", "builtin", "--timeout", "60"];

fn program(bound: &str, body: &str) -> String {
    format!(
        "#include <assert.h>\n#pragma TASS input {{{bound}}} int\n#define N 3\n\n\n\
         int main(void) {{\n{body}\n    return 0;\n}}\n"
    )
}

/// N = 1, 2, 3, 7: no division by zero (the sanitizer is silent), exit 0.
#[test]
fn dividing_by_an_integer_at_least_one_holds_with_the_builtin_prover() {
    let text = program("N >= 1", "    double d = 1.0 / N;\n    (void)d;");
    let (code, r) = verify("1", BUILTIN, &text);
    assert_holds(code, &r);
}

/// N = 0: "runtime error: division by zero" (float-divide-by-zero); N = 1, 2: silent.
#[test]
fn dividing_by_an_integer_that_may_be_zero_is_a_violation() {
    let text = program("N >= 0", "    double d = 1.0 / N;\n    (void)d;");
    let (code, r) = verify("1", BUILTIN, &text);
    assert_violated(code, &r, "division-by-zero", Some(7));
    let (code, r) = verify("1", &["--timeout", "60"], &text);
    assert_violated(code, &r, "division-by-zero", Some(7));
}

/// N = 1, 2, 3, 7: both assertions pass (2N is even, never 3; N >= 1 > 1/2).
#[test]
fn integrality_carries_over_to_the_converted_value() {
    let text = program(
        "N >= 1",
        "    double n = N;\n    assert(2.0 * n != 3.0);\n    assert(n > 0.5);",
    );
    let (code, r) = verify("1", BUILTIN, &text);
    assert_holds(code, &r);
}

/// N = 2: the assertion fails (abort); N = 1, 3, 7: exit 0.
#[test]
fn a_converted_value_is_not_made_more_than_an_integer() {
    let text = program("N >= 1", "    double n = N;\n    assert(n / 2.0 != 1.0);");
    let (code, r) = verify("1", BUILTIN, &text);
    assert_violated(code, &r, "assertion", Some(8));
    // with the SMT solver too, and its witness is the failing run's N
    let (code, r) = verify("1", &["--timeout", "60"], &text);
    assert_violated(code, &r, "assertion", Some(8));
}
