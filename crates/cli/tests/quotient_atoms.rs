//! Real quotients kept as atoms (issue 18, jacobi at Table I's size): under
//! `--arith real` a quotient with a non-constant denominator is one atom of
//! the polynomial normal form (`tass-symbolic`'s `quotient.rs`). Equal forms
//! prove equality; different forms must not be taken for different values.
//! Each pair is checked in both directions: an equal pair written so that the
//! atoms differ holds (by the expanded rational functions or the SMT prover),
//! and a nearby unequal pair is a provable difference whose witness, compiled
//! with `gcc -fsanitize=address,undefined` and run, prints different doubles.
//!
//! Run by hand with gcc (x86-64, `-fsanitize=address,undefined`, volatile
//! operands): `a/b + c/b` and `(a+c)/b` at a=1, b=3, c=1 print
//! 0x1.5555555555555p-1 both; `a/b` and `a/c` at a=1, b=1, c=2 print 0x1p+0 and
//! 0x1p-1; `(a*b)/b` and `a` at a=0.1, b=0.3 print 0x1.999999999999ap-4 both;
//! `a/a` at a=3 prints 0x1p+0. (The equalities are real-number identities; in
//! doubles they may round differently, which `--arith real` does not claim.)

mod common;

use std::process::Command;

use serde_json::Value;

/// The inputs of most tests: doubles `a`, `b`, `c`, with `b`, `c` assumed
/// non-zero.
const ABC: &[(&str, &str)] = &[("a", ""), ("b", "{b != 0}"), ("c", "{c != 0}")];

/// A program with the double `inputs` (name, condition) and output
/// `s = EXPR`, printed in hexadecimal by the gcc build.
fn program(inputs: &[(&str, &str)], expr: &str) -> String {
    let mut text = String::from("#include <stdio.h>\n");
    for (name, condition) in inputs {
        text += &format!("#pragma TASS input {condition}\ndouble {name};\n");
    }
    text += &format!(
        "#pragma TASS output\ndouble s;\n\
         int main(void) {{\n    s = {expr};\n#ifndef __TASS__\n    printf(\"%a\\n\", s);\n#endif\n    return 0;\n}}\n"
    );
    text
}

fn compare_with(inputs: &[(&str, &str)], spec: &str, imp: &str) -> (i32, Value) {
    let s = common::inline(&program(inputs, spec));
    let i = common::inline(&program(inputs, imp));
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["compare", "--arith", "real", "--format", "json"])
        .arg(&s)
        .arg(&i)
        .output()
        .expect("run tass");
    common::report(out)
}

fn equivalent_with(inputs: &[(&str, &str)], spec: &str, imp: &str) {
    let (code, r) = compare_with(inputs, spec, imp);
    assert_eq!(
        (code, r["verdict"].as_str()),
        (0, Some("holds")),
        "{spec} vs {imp}: {r:#}"
    );
}

fn equivalent(spec: &str, imp: &str) {
    equivalent_with(ABC, spec, imp);
}

/// `text` with each `double NAME;` input given its witness value (a rational
/// `p/q` is written `(double)p/q`, not C's integer division).
fn with_inputs(text: &str, witness: &Value) -> String {
    let mut out = text.to_string();
    for (name, value) in witness.as_object().expect("a witness") {
        let value = match value {
            Value::String(s) => s.clone(),
            v => v.to_string(),
        };
        let value = match value.split_once('/') {
            Some((p, q)) => format!("(double){p}/{q}"),
            None => value,
        };
        out = out.replace(
            &format!("double {name};"),
            &format!("double {name} = {value};"),
        );
    }
    out
}

/// Compiles and runs `text` with gcc (sanitizers on): its output.
fn run_c(text: &str) -> String {
    let ran = common::gcc_run(text, &[]);
    assert!(
        ran.status.success(),
        "{}",
        String::from_utf8_lossy(&ran.stderr)
    );
    String::from_utf8_lossy(&ran.stdout).into_owned()
}

/// A provable difference whose witness makes the gcc builds print different
/// doubles.
fn confirmed_difference_with(inputs: &[(&str, &str)], spec: &str, imp: &str) {
    let (code, r) = compare_with(inputs, spec, imp);
    assert_eq!(
        (code, r["verdict"].as_str()),
        (1, Some("violated")),
        "{spec} vs {imp}: {r:#}"
    );
    let v = &r["violations"][0];
    assert_eq!(v["property"], "not-equivalent", "{r:#}");
    assert_eq!(v["certainty"], "provable", "{r:#}");
    let w = &v["witness"];
    let out_s = run_c(&with_inputs(&program(inputs, spec), w));
    let out_i = run_c(&with_inputs(&program(inputs, imp), w));
    assert_ne!(out_s, out_i, "the witness {w} gives the same doubles");
}

fn confirmed_difference(spec: &str, imp: &str) {
    confirmed_difference_with(ABC, spec, imp);
}

#[test]
fn a_sum_over_one_denominator_is_its_combined_quotient() {
    equivalent("a / b + c / b", "(a + c) / b");
    equivalent("a / b - c / b", "(a - c) / b");
    confirmed_difference("a / b + c / b", "(a + c + 1) / b");
}

#[test]
fn quotients_by_different_denominators_differ() {
    confirmed_difference("a / b", "a / c");
    confirmed_difference("a / b + a / c", "(a + a) / (b * c)");
    equivalent("a / b + a / c", "a * (b + c) / (b * c)");
}

#[test]
fn common_factors_cancel_under_a_non_zero_divisor() {
    equivalent("(a * b) / b", "a");
    confirmed_difference("(a * b) / b", "b");
    // `(a/b) * b` is not cancelled when built; the prover must see it.
    equivalent("(a / b) * b", "a");
    confirmed_difference("(a / b) * c", "a");
}

#[test]
fn a_quotient_by_itself_is_one() {
    let inputs = &[("a", "{a != 0}"), ("b", ""), ("c", "")];
    let (code, r) = compare_with(inputs, "a / a", "1.0");
    assert_eq!((code, r["verdict"].as_str()), (0, Some("holds")), "{r:#}");
    let (code, r) = compare_with(inputs, "a / a", "a");
    assert_eq!(
        (code, r["verdict"].as_str()),
        (1, Some("violated")),
        "{r:#}"
    );
    assert_eq!(r["violations"][0]["certainty"], "provable", "{r:#}");
}

#[test]
fn scaled_and_nested_quotients_share_atoms() {
    equivalent("(2 * a) / b - a / b", "a / b");
    equivalent("(a / b) / c", "a / (b * c)");
    equivalent("-a / b", "a / -b");
    confirmed_difference("(a / b) / c", "a / (b * c * c)");
}

/// More atoms than the built-in prover expands (10): an equality the normal
/// forms do not show is left to the SMT prover with the quotients as `/`.
#[test]
fn many_atoms_are_decided_by_the_smt_prover() {
    let names: Vec<(String, String)> = (0..12)
        .map(|k| (format!("y{k}"), format!("{{y{k} != 0}}")))
        .collect();
    let mut inputs: Vec<(&str, &str)> = vec![("a", ""), ("c", "")];
    inputs.extend(names.iter().map(|(n, c)| (n.as_str(), c.as_str())));
    let others: String = (1..12).map(|k| format!(" + a / y{k}")).collect();
    let spec = format!("a / y0 + c / y0{others}");
    let imp = format!("(a + c) / y0{others}");
    equivalent_with(&inputs, &spec, &imp);
    confirmed_difference_with(&inputs, &spec, &format!("(a + c) / y1{others}"));
}

/// The error-term bug of the comparative paper (fevs jacobi_seq_bad.c) is
/// still found, and the fixed pair still holds.
#[test]
fn jacobi_verdicts_are_kept() {
    let run = |spec: &str| {
        common::tass_json(
            &[
                "compare",
                "--spec",
                spec,
                "--impl",
                "mpi/jacobi_par.c",
                "--impl-procs",
                "2",
                "-i",
                "BN=2",
                "--arith",
                "real",
            ],
            "1",
        )
    };
    let (verdict, code, violations) = run("mpi/jacobi_seq_bad.c");
    assert_eq!((verdict.as_str(), code), ("violated", 1), "{violations:?}");
    assert_eq!(violations[0].0, "not-equivalent");
    let (verdict, code, _) = run("mpi/jacobi_seq.c");
    assert_eq!((verdict.as_str(), code), ("holds", 0));
}
