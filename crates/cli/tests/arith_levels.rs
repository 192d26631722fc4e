//! `--arith real|ieee|herbrand` (issue 18; comparative symbolic execution paper,
//! Sec. 2.2): `verify` and `compare` at each level, both verdicts, every identity
//! the ieee level uses and the non-identities it must not use.
//!
//! Each provable difference comes with double inputs that tass confirmed by
//! evaluating in IEEE doubles; the tests run them again for real: the programs are
//! compiled with `gcc -g -fsanitize=address,undefined` with the inputs set to the
//! witness, and the outputs (printed with `%a`) compared, or the assertion seen to
//! fail. The non-identities whose counterexamples are special values tass does not
//! search (-0, infinities, NaN) were run by hand with gcc 12 (x86-64, SSE, round
//! to nearest), `volatile` operands:
//!
//! ```text
//! x+0 at x=-0: 0 vs x: -0          (x + 0 == x is not an identity)
//! x*0 at x=inf: -nan vs 0          (x * 0 == 0 is not)
//! x*0 at x=-0: -0 vs 0
//! x-x at x=inf: -nan vs 0          (x - x == 0 is not)
//! x/x at x=0: -nan vs 1            (x / x == 1 is not)
//! 0-x at x=0: 0 vs -x: -0          (0 - x == -x is not)
//! x==x at NaN: 0                   (so `assert(x*1 == x)` can fail)
//! !(a<b) -> a>=b at a=NaN: 1 0     (no trichotomy for doubles)
//! (a+b)+c=0x1.3333333333334p-1 a+(b+c)=0x1.3333333333333p-1   at 0.1, 0.2, 0.3
//! 0.1+0.2 == 0.3: 0
//! ```

mod common;

use std::process::Command;

use serde_json::Value;

/// A program with double inputs `a`, `b`, `c` and output `s = EXPR`, which prints
/// `s` (in hexadecimal, exactly) when compiled by gcc.
fn program(expr: &str) -> String {
    format!(
        "#include <stdio.h>\n#pragma TASS input\ndouble a;\n#pragma TASS input\ndouble b;\n\
         #pragma TASS input\ndouble c;\n#pragma TASS output\ndouble s;\n\
         int main(void) {{\n    s = {expr};\n#ifndef __TASS__\n    printf(\"%a\\n\", s);\n#endif\n    return 0;\n}}\n"
    )
}

fn tass(args: &[&str]) -> (i32, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(args)
        .args(["--format", "json"])
        .output()
        .expect("run tass");
    common::report(out)
}

fn compare(level: &str, spec: &str, imp: &str) -> (i32, Value) {
    let s = common::inline(&program(spec));
    let i = common::inline(&program(imp));
    let (s, i) = (s.to_string_lossy(), i.to_string_lossy());
    tass(&["compare", "--arith", level, &s, &i])
}

fn verify(level: &str, text: &str) -> (i32, Value) {
    let file = common::inline(text);
    tass(&["verify", "--arith", level, &file.to_string_lossy()])
}

/// `text` with each `double NAME;` input given its witness value.
fn with_inputs(text: &str, witness: &Value) -> String {
    let mut out = text.to_string();
    for (name, value) in witness.as_object().expect("a witness") {
        let value = match value {
            Value::String(s) => s.clone(),
            v => v.to_string(),
        };
        out = out.replace(
            &format!("double {name};"),
            &format!("double {name} = {value};"),
        );
    }
    out
}

/// Compiles and runs `text` with gcc (sanitizers on): (exit success, stdout).
fn run_c(text: &str) -> (bool, String) {
    let ran = common::gcc_run(text, &[]);
    (
        ran.status.success(),
        String::from_utf8_lossy(&ran.stdout).into_owned(),
    )
}

fn first_violation(r: &Value) -> &Value {
    &r["violations"][0]
}

/// `compare` at `level` finds a provable difference whose witness, run with gcc,
/// makes the two programs print different doubles.
fn confirmed_difference(level: &str, spec: &str, imp: &str) {
    let (code, r) = compare(level, spec, imp);
    assert_eq!(
        (code, r["verdict"].as_str()),
        (1, Some("violated")),
        "{r:#}"
    );
    let v = first_violation(&r);
    assert_eq!(v["property"], "not-equivalent", "{r:#}");
    assert_eq!(v["certainty"], "provable", "{r:#}");
    let w = &v["witness"];
    let (ok_s, out_s) = run_c(&with_inputs(&program(spec), w));
    let (ok_i, out_i) = run_c(&with_inputs(&program(imp), w));
    assert!(ok_s && ok_i);
    assert_ne!(out_s, out_i, "the witness {w} gives the same doubles");
}

/// `compare` at `level` says only *possibly* different (no provable verdict).
fn possible_difference(level: &str, spec: &str, imp: &str) {
    let (code, r) = compare(level, spec, imp);
    assert_eq!(
        (code, r["verdict"].as_str()),
        (1, Some("violated")),
        "{r:#}"
    );
    assert_eq!(first_violation(&r)["certainty"], "possible", "{r:#}");
}

fn equivalent(level: &str, spec: &str, imp: &str) {
    let (code, r) = compare(level, spec, imp);
    assert_eq!(
        (code, r["verdict"].as_str()),
        (0, Some("holds")),
        "{spec} vs {imp}: {r:#}"
    );
}

const ASSOCIATIVITY: &str = "#include <assert.h>\n#pragma TASS input\ndouble a;\n\
    #pragma TASS input\ndouble b;\n#pragma TASS input\ndouble c;\n\
    int main(void) {\n    double l = (a + b) + c;\n    double r = a + (b + c);\n    assert(l == r);\n    return 0;\n}\n";

#[test]
fn associativity_holds_over_the_reals_only() {
    let (code, r) = verify("real", ASSOCIATIVITY);
    assert_eq!((code, r["verdict"].as_str()), (0, Some("holds")), "{r:#}");
    for level in ["ieee", "herbrand"] {
        let (code, r) = verify(level, ASSOCIATIVITY);
        assert_eq!(
            (code, r["verdict"].as_str()),
            (1, Some("violated")),
            "{r:#}"
        );
        let v = first_violation(&r);
        assert_eq!(
            (v["property"].as_str(), v["certainty"].as_str()),
            (Some("assertion"), Some("provable"))
        );
        // gcc: the assertion fails at the witness (a = 0.1, b = 0.2, c = 0.3).
        let (ok, _) = run_c(&with_inputs(ASSOCIATIVITY, &v["witness"]));
        assert!(!ok, "the witness {} does not fail under gcc", v["witness"]);
    }
    confirmed_difference("ieee", "(a + b) + c", "a + (b + c)");
    confirmed_difference("herbrand", "(a + b) + c", "a + (b + c)");
    equivalent("real", "(a + b) + c", "a + (b + c)");
}

#[test]
fn distributivity_is_not_an_ieee_identity() {
    confirmed_difference("ieee", "a * (b + c)", "a * b + a * c");
    equivalent("real", "a * (b + c)", "a * b + a * c");
}

/// Each identity the ieee level applies: equivalent at ieee (and real), not at
/// herbrand, where the trees differ (only possibly: the two sides are equal on
/// every double, so no witness exists).
#[test]
fn every_ieee_identity_holds_at_ieee_and_not_at_herbrand() {
    let identities = [
        ("a + b", "b + a"),
        ("a * b", "b * a"),
        ("a * 1", "a"),
        ("1.0 * a", "a"),
        ("a / 1", "a"),
        ("a * -1", "-a"),
        ("a / -1.0", "-a"),
        ("a - 0.0", "a"),
        ("a + -0.0", "a"),
        ("-(-a)", "a"),
        ("a - b", "a + (-b)"),
        ("(-a) * b", "-(a * b)"),
        ("a * (-b)", "-(a * b)"),
        ("(-a) / 3.0", "-(a / 3.0)"),
        ("a / -3.0", "-(a / 3.0)"),
        ("a * -3.0", "-(3.0 * a)"),
        ("(a + b) * c", "c * (b + a)"),
    ];
    for (spec, imp) in identities {
        equivalent("ieee", spec, imp);
        equivalent("real", spec, imp);
        possible_difference("herbrand", spec, imp);
    }
}

/// Real identities that fail for some doubles (see the gcc runs at the top): never
/// "holds" at ieee, though the reals prove them.
#[test]
fn real_identities_that_fail_in_ieee_are_not_used() {
    for (spec, imp) in [
        ("a + 0.0", "a"),
        ("a * 0.0", "0.0"),
        ("a - a", "0.0"),
        ("0.0 - a", "-a"),
        ("a + (-a)", "0.0"),
    ] {
        possible_difference("ieee", spec, imp);
        equivalent("real", spec, imp);
    }
}

#[test]
fn integers_keep_the_ring_identities_at_every_level() {
    let int_program = |expr: &str| {
        format!(
            "#pragma TASS input\nint a;\n#pragma TASS input\nint b;\n#pragma TASS input\nint c;\n\
             #pragma TASS output\nint s;\nint main(void) {{ s = {expr}; return 0; }}\n"
        )
    };
    for level in ["real", "ieee", "herbrand"] {
        let s = common::inline(&int_program("(a + b) * c"));
        let i = common::inline(&int_program("c * b + a * c"));
        let (code, r) = tass(&[
            "compare",
            "--arith",
            level,
            &s.to_string_lossy(),
            &i.to_string_lossy(),
        ]);
        assert_eq!(
            (code, r["verdict"].as_str()),
            (0, Some("holds")),
            "{level}: {r:#}"
        );
    }
}

/// Constants are folded where IEEE fixes the result: `0.1 + 0.2` is the double
/// 0x1.3333333333334p-2, not 0.3 (gcc: `0.1+0.2 == 0.3: 0`).
#[test]
fn constants_fold_to_their_ieee_values() {
    let text = "#include <assert.h>\nint main(void) { double a = 0.1 + 0.2; assert(a == 0.3); return 0; }\n";
    let (code, r) = verify("real", text);
    assert_eq!((code, r["verdict"].as_str()), (0, Some("holds")), "{r:#}");
    for level in ["ieee", "herbrand"] {
        let (code, r) = verify(level, text);
        assert_eq!(
            (code, r["verdict"].as_str()),
            (1, Some("violated")),
            "{r:#}"
        );
        assert_eq!(first_violation(&r)["certainty"], "provable");
    }
    let (ok, _) = run_c(text);
    assert!(!ok, "gcc: the assertion fails");
}

/// No trichotomy on doubles: `!(a < b)` does not give `a >= b` (a = NaN; gcc:
/// `!(a<b) -> a>=b at a=NaN: 1 0`). Both branches of a comparison are explored.
#[test]
fn comparisons_are_ieee_predicates() {
    let text =
        "#include <assert.h>\n#pragma TASS input\ndouble a;\n#pragma TASS input\ndouble b;\n\
        int main(void) { if (!(a < b)) assert(a >= b); return 0; }\n";
    let (code, r) = verify("real", text);
    assert_eq!((code, r["verdict"].as_str()), (0, Some("holds")), "{r:#}");
    for level in ["ieee", "herbrand"] {
        let (code, r) = verify(level, text);
        assert_eq!(
            (code, r["verdict"].as_str()),
            (1, Some("violated")),
            "{r:#}"
        );
        assert_eq!(first_violation(&r)["certainty"], "possible", "{r:#}");
    }
    // A path condition that decides a comparison is used: division after a test.
    let guarded = "#pragma TASS input\ndouble x;\n#pragma TASS output\ndouble r;\n\
        int main(void) { r = 0; if (x != 0) r = 1 / x; return 0; }\n";
    for level in ["real", "ieee", "herbrand"] {
        let (code, r) = verify(level, guarded);
        assert_eq!(
            (code, r["verdict"].as_str()),
            (0, Some("holds")),
            "{level}: {r:#}"
        );
    }
}

/// `delta(a, b)` (tass.h) counts without branching; the integer sums cancel at
/// every level. gcc (with fevs/include/tass.h) runs it clean for the inputs
/// set to 0.1..0.8 and 0.9: `in + out == 8`.
#[test]
fn delta_counts_without_branching() {
    let text = "#include <assert.h>\n#include <tass.h>\n#pragma TASS input\ndouble x[8];\n\
        #pragma TASS input\ndouble y[8];\nint main(void) {\n    int in = 0, out = 0;\n\
        for (int i = 0; i < 8; i++) {\n        in += delta(x[i]*x[i] + y[i]*y[i], 1.0);\n\
        out += 1 - delta(x[i]*x[i] + y[i]*y[i], 1.0);\n    }\n\
        assert(in + out == 8);\n    assert(0 <= in && in <= 8);\n    return 0;\n}\n";
    for level in ["real", "ieee", "herbrand"] {
        let file = common::inline(text);
        let (code, r) = tass(&[
            "verify",
            "--arith",
            level,
            "--stats",
            &file.to_string_lossy(),
        ]);
        assert_eq!(
            (code, r["verdict"].as_str()),
            (0, Some("holds")),
            "{level}: {r:#}"
        );
        // One path: 8 iterations of a few steps each, no split per point.
        let states = r["stats"]["states_seen"].as_u64().expect("stats");
        assert!(states < 100, "{level}: {states} states");
    }
    let concrete = text
        .replace(
            "double x[8];",
            "double x[8] = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8};",
        )
        .replace(
            "double y[8];",
            "double y[8] = {0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9, 0.9};",
        );
    assert!(run_c(&concrete).0);
}

#[test]
fn unknown_levels_are_refused() {
    let file = common::inline(ASSOCIATIVITY);
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "--arith", "float"])
        .arg(&file)
        .output()
        .expect("run tass");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("real"));
}

/// A sum over an input array in the two directions: the witness search fills the
/// array; gcc runs both with it and prints different doubles.
#[test]
fn array_inputs_get_confirmed_witnesses() {
    let sum = |order: &str| {
        format!(
            "#include <stdio.h>\n#pragma TASS input\ndouble a[4];\n#pragma TASS output\ndouble s;\n\
             int main(void) {{\n    s = 0;\n    for ({order}) s += a[i];\n\
             \n#ifndef __TASS__\n    printf(\"%a\\n\", s);\n#endif\n    return 0;\n}}\n"
        )
    };
    let (up, down) = (sum("int i = 0; i < 4; i++"), sum("int i = 3; i >= 0; i--"));
    let (s, i) = (common::inline(&up), common::inline(&down));
    let (code, r) = tass(&[
        "compare",
        "--arith",
        "ieee",
        &s.to_string_lossy(),
        &i.to_string_lossy(),
    ]);
    assert_eq!(
        (code, r["verdict"].as_str()),
        (1, Some("violated")),
        "{r:#}"
    );
    let v = first_violation(&r);
    assert_eq!(v["certainty"], "provable", "{r:#}");
    let values = v["witness"]["a"]
        .as_str()
        .expect("an array witness")
        .to_string();
    let with = |text: &str| text.replace("double a[4];", &format!("double a[4] = {values};"));
    let (out_up, out_down) = (run_c(&with(&up)).1, run_c(&with(&down)).1);
    assert_ne!(out_up, out_down, "a = {values}");
    let (code, r) = tass(&[
        "compare",
        "--arith",
        "real",
        &s.to_string_lossy(),
        &i.to_string_lossy(),
    ]);
    assert_eq!((code, r["verdict"].as_str()), (0, Some("holds")), "{r:#}");
}

#[test]
fn a_fixed_floating_input_is_the_nearest_double_at_herbrand_and_ieee() {
    // gcc -fsanitize=address,undefined, x = atof("0.1"): the assertion passes
    // (the double nearest 0.1 plus the double nearest 0.2 is exactly the double
    // 0.30000000000000004). Over the reals 0.1 + 0.2 is 0.3, so it fails there.
    let text = "#include <assert.h>\n#pragma TASS input\ndouble x;\nint main(void) {\n    \
                assert(x + 0.2 == 0.30000000000000004);\n    return 0;\n}\n";
    let file = common::inline(text);
    let file = file.to_string_lossy();
    for level in ["herbrand", "ieee"] {
        let (code, r) = tass(&["verify", "--arith", level, "-i", "x=0.1", &file]);
        common::assert_holds(code, &r);
    }
    let (code, r) = tass(&["verify", "--arith", "real", "-i", "x=0.1", &file]);
    common::assert_violated(code, &r, "assertion", None);
}

/// `s = x` against `s = x + 0.0`, and assertions about `x`, for `-i x=-0.0`.
/// gcc -fsanitize=address,undefined (x86-64, SSE), `double x = -0.0;`: `s = x`
/// prints `-0x0p+0`, `s = x + 0.0` prints `0x0p+0` (with `x = 0.0` both print
/// `0x0p+0`); and `x == 0.0`, `!(x < 0.0)`, `x * 3.0 == 0.0` are all 1, while
/// `1.0 / x < 0` is 1 (which tass reports as a division by zero instead).
#[test]
fn a_negative_zero_input_keeps_its_sign_at_herbrand_and_ieee() {
    let spec = common::inline(&program("a"));
    let imp = common::inline(&program("a + 0.0"));
    let (spec, imp) = (spec.to_string_lossy(), imp.to_string_lossy());
    for level in ["herbrand", "ieee"] {
        let (code, r) = tass(&[
            "compare", "--arith", level, "-i", "a=-0.0", "-i", "b=0", "-i", "c=0", &spec, &imp,
        ]);
        common::assert_violated(code, &r, "not-equivalent", None);
        assert_eq!(r["violations"][0]["spec_value"], "f64_neg(0.0)", "{r:#}");
        // `-0` is a negative zero too for a floating input.
        let (code, r) = tass(&[
            "compare", "--arith", level, "-i", "a=-0", "-i", "b=0", "-i", "c=0", &spec, &imp,
        ]);
        common::assert_violated(code, &r, "not-equivalent", None);
        let (code, r) = tass(&[
            "compare", "--arith", level, "-i", "a=0.0", "-i", "b=0", "-i", "c=0", &spec, &imp,
        ]);
        assert_eq!((code, r["verdict"].as_str()), (0, Some("holds")), "{r:#}");
    }
    // The reals have one zero: equivalent, with a warning that the sign is lost.
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args([
            "compare", "--arith", "real", "-i", "a=-0.0", "-i", "b=0", "-i", "c=0",
        ])
        .args([&*spec, &*imp, "--format", "json"])
        .output()
        .expect("run tass");
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(stderr.contains("its sign is lost"), "{stderr}");
    let (code, r) = common::report(out);
    assert_eq!((code, r["verdict"].as_str()), (0, Some("holds")), "{r:#}");
}

#[test]
fn comparisons_of_a_negative_zero_input_fold_as_in_ieee() {
    // Folded with the sign: no branch on `x < 0.0` (an unfolded -0 would let
    // both outcomes through and report a violation that cannot happen).
    let text = "#include <assert.h>\n#pragma TASS input\ndouble x;\nint main(void) {\n    \
                assert(x == 0.0);\n    assert(!(x < 0.0));\n    double y = x * 3.0;\n    \
                assert(y == 0.0);\n    assert(-y == 0.0);\n    return 0;\n}\n";
    let file = common::inline(text);
    let file = file.to_string_lossy();
    for level in ["herbrand", "ieee", "real"] {
        let (code, r) = tass(&["verify", "--arith", level, "-i", "x=-0.0", &file]);
        common::assert_holds(code, &r);
    }
    // An integer input given `-0` is 0.
    let text = "#include <assert.h>\n#pragma TASS input\nint n;\nint main(void) {\n    \
                assert(n == 0);\n    return 0;\n}\n";
    let file = common::inline(text);
    let (code, r) = tass(&[
        "verify",
        "--arith",
        "ieee",
        "-i",
        "n=-0",
        &file.to_string_lossy(),
    ]);
    common::assert_holds(code, &r);
}
