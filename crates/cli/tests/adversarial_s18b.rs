//! Session 18b's probe of real quotients as atoms (`--arith real`, the
//! default; docs/architecture.md "Real quotients as atoms"): forms of one
//! value built from different atoms, their false twins, and divisions by zero
//! hidden in sums of atoms. The probe found no wrong verdict; these guard the
//! cases, each run with the built-in prover alone (expansion of <= 10 atoms)
//! and with the default prover. Every expected verdict was checked with exact
//! rationals (python3 fractions, random inputs meeting the assumption; the
//! false twins have the counterexample noted) and the divisions by zero with
//! gcc -fsanitize=address,undefined,float-divide-by-zero at the inputs noted.

mod common;

use common::{assert_holds, assert_violated, verify};

/// A program with the double inputs `vars` that assumes `assume` and asserts
/// `claim`.
fn claim_program(vars: &[&str], assume: &str, claim: &str) -> String {
    let inputs: String = vars
        .iter()
        .map(|v| format!("#pragma TASS input\ndouble {v};\n"))
        .collect();
    format!(
        "#include <assert.h>\n{inputs}int main(void) {{\n#pragma TASS assume {assume}\n  \
         assert({claim});\n  return 0;\n}}\n"
    )
}

const PROVERS: [&[&str]; 2] = [&["--prover", "builtin"], &[]];

/// Equal values in different atom forms hold (exact: 3400..3900 samples
/// each); the twins that change a sign or a denominator are provable
/// violations (exact counterexamples: a = 1/7, b = 1, c = 2; x = 4/3, y = 2;
/// a = b = 1).
#[test]
fn different_atom_forms_of_one_value_hold_and_their_twins_fail() {
    let holding = [
        (&["a", "b", "c"][..], "b != 0 && c != 0", "a/(b/c) == a*c/b"),
        (&["a", "b"][..], "b != 0", "(a/b)*b == a"),
        (&["a", "b", "c"][..], "b != c", "a/(b-c) == -(a/(c-b))"),
        (&["x", "y"][..], "x != y", "(x*x - y*y)/(x-y) == x+y"),
        (
            &["a", "b"][..],
            "b != 0 && a != b",
            "((a/b)+1)/((a/b)-1) == (a+b)/(a-b)",
        ),
    ];
    let failing = [
        (&["a", "b", "c"][..], "b != c", "a/(b-c) == a/(c-b)"),
        (&["x", "y"][..], "x != y", "(x*x - y*y)/(x-y) == x-y"),
        (&["a", "b"][..], "b != 0", "a/(2*b) == a/b"),
    ];
    for prover in PROVERS {
        for (vars, assume, claim) in holding {
            let (code, r) = verify("1", prover, &claim_program(vars, assume, claim));
            assert_holds(code, &r);
        }
        for (vars, assume, claim) in failing {
            let (code, r) = verify("1", prover, &claim_program(vars, assume, claim));
            assert_violated(code, &r, "assertion", None);
            assert_eq!(
                r["violations"][0]["certainty"], "provable",
                "{claim}: {r:#}"
            );
        }
    }
}

/// A divisor that is zero only because atoms cancel is still a provable
/// division by zero (gcc float-divide-by-zero fires at b = 2; x = y = 2;
/// x = 2, y = 1), and the divisor of a nested quotient too (b = 0, c = 2).
#[test]
fn a_divisor_whose_atoms_cancel_is_a_division_by_zero() {
    let zero_divisors = [
        (&["a", "b"][..], "b != 0", "a/(1/b - 1/b) == 0"),
        (&["a", "x", "y"][..], "y != 0 && x == y", "a/(x/y - 1) == 0"),
        (
            &["x", "y"][..],
            "x != y && x != -y",
            "1/((x*x-y*y)/(x-y) - x - y) == 0",
        ),
        (&["a", "b", "c"][..], "c != 0", "a/(b/c) == 0"),
    ];
    for prover in PROVERS {
        for (vars, assume, claim) in zero_divisors {
            let (code, r) = verify("1", prover, &claim_program(vars, assume, claim));
            assert_violated(code, &r, "division-by-zero", None);
            assert_eq!(
                r["violations"][0]["certainty"], "provable",
                "{claim}: {r:#}"
            );
        }
    }
}
