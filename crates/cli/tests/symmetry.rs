//! `tass compare --symmetry ARRAYS` (issue 18): the hypotheses of the symmetry
//! reduction theorem (comparative paper, Sec. 3.2) are decided with the prover and
//! reported as a warning; they are never assumed, and the verdict never rests on
//! them (the implementation is explored in full).
//!
//! Every program reads three points `(rx[i], ry[i])`. Concrete confirmations (gcc
//! -g -fsanitize=address,undefined -I fevs/include, the points from argv, each
//! program printing `inside`), inputs `x0 y0 x1 y1 x2 y2`:
//!   count_up / count_down:        0.1 0.1 2 2 2 2 -> 1 / 1;  2 2 0.5 0.5 0.3 0.2 -> 2 / 2;
//!                                 0.1 0.1 0.9 0.9 0.2 0.2 -> 2 / 2 (equivalent: holds)
//!   weighted_up / weighted_down:  0.1 1.0 0.2 3.0 0.3 0.7 (tass's witness) -> 3 / 1
//!   first_point / last_point:     0.1 1.0 0.2 3.0 0.3 0.7 (tass's witness) -> 0 / 1
//!   fevs/mpi/montecarlo_{seq,par}.c with -DFEVS_CONCRETE (NPTS = 3): gcc and
//!   `mpirun --allow-run-as-root --oversubscribe -np 3` both print inside = 2,
//!   pi_est = 2.6666666666666665.

mod common;

use std::process::Command;

use serde_json::Value;

/// A program over three points whose loop header is `header` and which adds
/// `weight * delta(|p_i|^2, 1)` to `inside`, printing `inside` under gcc.
fn counting(header: &str, weight: &str) -> String {
    format!(
        "#include <stdio.h>\n#include <stdlib.h>\n#include <tass.h>\n\
         #pragma TASS input\ndouble rx[3];\n#pragma TASS input\ndouble ry[3];\n\
         #pragma TASS output\nint inside;\n\
         int main(int argc, char *argv[]) {{\n    int i;\n#ifndef __TASS__\n\
         \x20   for (i = 0; i < 3; i++) {{ rx[i] = atof(argv[1 + 2 * i]); ry[i] = atof(argv[2 + 2 * i]); }}\n\
         #endif\n    inside = 0;\n    {header}\n\
         \x20       inside += {weight}delta(rx[i] * rx[i] + ry[i] * ry[i], 1.0);\n\
         #ifndef __TASS__\n    printf(\"%d\\n\", inside);\n#endif\n    return 0;\n}}\n"
    )
}

/// `inside` is 1 when point `k` lies in the unit disc (branching on it).
fn one_point(k: usize) -> String {
    format!(
        "#include <stdio.h>\n#include <stdlib.h>\n\
         #pragma TASS input\ndouble rx[3];\n#pragma TASS input\ndouble ry[3];\n\
         #pragma TASS output\nint inside;\n\
         int main(int argc, char *argv[]) {{\n#ifndef __TASS__\n    int i;\n\
         \x20   for (i = 0; i < 3; i++) {{ rx[i] = atof(argv[1 + 2 * i]); ry[i] = atof(argv[2 + 2 * i]); }}\n\
         #endif\n    if (rx[{k}] * rx[{k}] + ry[{k}] * ry[{k}] < 1.0)\n        inside = 1;\n\
         \x20   else\n        inside = 0;\n\
         #ifndef __TASS__\n    printf(\"%d\\n\", inside);\n#endif\n    return 0;\n}}\n"
    )
}

const UP: &str = "for (i = 0; i < 3; i++)";
const DOWN: &str = "for (i = 2; i >= 0; i--)";

fn compare(extra: &[&str], spec: &str, imp: &str) -> (i32, Value) {
    let (s, i) = (common::inline(spec), common::inline(imp));
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .arg("compare")
        .args(extra)
        .arg(&s)
        .arg(&i)
        .args(["--format", "json"])
        .output()
        .expect("run tass");
    common::report(out)
}

/// The one `--symmetry` warning of a report.
fn symmetry_warning(report: &Value) -> String {
    let warnings: Vec<&str> = report["warnings"]
        .as_array()
        .expect("warnings")
        .iter()
        .filter_map(|w| w.as_str())
        .filter(|w| w.starts_with("--symmetry"))
        .collect();
    assert_eq!(warnings.len(), 1, "{report:#}");
    warnings[0].to_string()
}

fn assert_not_equivalent(code: i32, report: &Value) {
    common::assert_violated(code, report, "not-equivalent", None);
}

#[test]
fn a_symmetric_count_is_proved_invariant_at_every_level() {
    for level in ["real", "ieee", "herbrand"] {
        let args = ["--arith", level, "--symmetry", "rx,ry"];
        let (code, r) = compare(&args, &counting(UP, ""), &counting(DOWN, ""));
        common::assert_holds(code, &r);
        let warning = symmetry_warning(&r);
        assert!(warning.contains("proved that"), "{level}: {warning}");
        assert!(warning.contains("3 elements of rx, ry"), "{warning}");
        assert!(warning.contains("explored in full"), "{warning}");
    }
}

#[test]
fn path_conditions_permuted_among_paths_are_matched() {
    // Branching on each point: 8 paths, each mapped onto another one by a
    // permutation of the points (the set of paths is invariant, no single path is).
    let branching = "#pragma TASS input\ndouble rx[3];\n#pragma TASS input\ndouble ry[3];\n\
                     #pragma TASS output\nint inside;\nint main(void) {\n    int i;\n    inside = 0;\n\
                     \x20   for (i = 0; i < 3; i++)\n        if (rx[i] * rx[i] + ry[i] * ry[i] < 1.0)\n\
                     \x20           inside++;\n    return 0;\n}\n";
    for level in ["real", "ieee"] {
        let args = ["--arith", level, "--symmetry", "rx,ry"];
        let (code, r) = compare(&args, branching, branching);
        common::assert_holds(code, &r);
        assert!(symmetry_warning(&r).contains("proved that"), "{r:#}");
    }
}

#[test]
fn an_asymmetric_output_fails_hypothesis_2_and_the_difference_is_still_found() {
    // Point i weighs i + 1 in the specification, 3 - i in the implementation.
    for level in ["real", "ieee", "herbrand"] {
        let args = ["--arith", level, "--symmetry", "rx,ry"];
        let spec = counting(UP, "(i + 1) * ");
        let (code, r) = compare(&args, &spec, &counting(UP, "(3 - i) * "));
        assert_not_equivalent(code, &r);
        let warning = symmetry_warning(&r);
        assert!(warning.contains("not established"), "{warning}");
        assert!(
            warning.contains("hypothesis 2 (output `inside`"),
            "{warning}"
        );
        assert!(
            warning.contains("running without the reduction"),
            "{warning}"
        );
    }
}

#[test]
fn an_asymmetric_path_condition_fails_hypothesis_1_and_the_difference_is_still_found() {
    let args = ["--arith", "ieee", "--symmetry", "rx,ry"];
    let (code, r) = compare(&args, &one_point(0), &one_point(2));
    assert_not_equivalent(code, &r);
    let warning = symmetry_warning(&r);
    assert!(warning.contains("hypothesis 1"), "{warning}");
    assert!(
        warning.contains("running without the reduction"),
        "{warning}"
    );
}

#[test]
fn permuting_one_coordinate_alone_is_not_a_symmetry() {
    // Swapping rx[0] and rx[1] but not ry[0] and ry[1] moves points.
    let args = ["--arith", "ieee", "--symmetry", "rx"];
    let (code, r) = compare(&args, &counting(UP, ""), &counting(DOWN, ""));
    common::assert_holds(code, &r);
    let warning = symmetry_warning(&r);
    assert!(warning.contains("hypothesis 2"), "{warning}");
}

#[test]
fn unknown_arrays_and_symbolic_lengths_are_named() {
    let args = ["--symmetry", "rz"];
    let (code, r) = compare(&args, &counting(UP, ""), &counting(DOWN, ""));
    common::assert_holds(code, &r);
    assert!(
        symmetry_warning(&r).contains("`rz` is not an input of the specification"),
        "{r:#}"
    );
    // montecarlo's arrays have the input length NPTS: not fixed, no group.
    let fevs = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fevs/mpi/");
    let spec = format!("{fevs}montecarlo_seq.c");
    let imp = format!("{fevs}montecarlo_par.c");
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args([
            "compare",
            "--symmetry",
            "rx,ry",
            "--spec",
            &spec,
            "--impl",
            &imp,
        ])
        .args(["--impl-procs", "3", "-i", "BP=3", "--format", "json"])
        .output()
        .expect("run tass");
    let (code, r) = common::report(out);
    common::assert_holds(code, &r);
    assert!(
        symmetry_warning(&r).contains("the length of `rx` is not a constant"),
        "{r:#}"
    );
}

#[test]
fn montecarlo_spec_is_symmetric_in_its_points() {
    let fevs = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fevs/mpi/");
    let spec = format!("{fevs}montecarlo_seq.c");
    let imp = format!("{fevs}montecarlo_par.c");
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["compare", "--arith", "ieee", "--symmetry", "rx,ry"])
        .args(["--spec", &spec, "--impl", &imp, "--impl-procs", "3"])
        .args(["-i", "BP=3", "-i", "NPTS=3", "--format", "json"])
        .output()
        .expect("run tass");
    let (code, r) = common::report(out);
    common::assert_holds(code, &r);
    assert!(symmetry_warning(&r).contains("proved that"), "{r:#}");
}
