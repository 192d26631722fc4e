//! `tass compare --symmetry ARRAYS` (issue 18): the hypotheses of the symmetry
//! reduction theorem (comparative paper, Sec. 3.2) are decided with the prover and
//! reported as a warning; they are never assumed. When they hold the
//! implementation's search goes on from one representative per orbit; when they
//! fail (also in subtle ways: outputs symmetric but not the path conditions, one
//! generator of the group symmetric but not the other) it is explored in full and
//! the difference is found.
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
        assert!(
            warning.contains("one representative per orbit"),
            "{warning}"
        );
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

/// Three points counted with `delta` into `n`, then `body` sets `inside`.
fn three_points(body: &str) -> String {
    format!(
        "#include <stdio.h>\n#include <stdlib.h>\n#include <tass.h>\n\
         #pragma TASS input\ndouble rx[3];\n#pragma TASS input\ndouble ry[3];\n\
         #pragma TASS output\nint inside;\n\
         int main(int argc, char *argv[]) {{\n    int i, n = 0;\n#ifndef __TASS__\n\
         \x20   for (i = 0; i < 3; i++) {{ rx[i] = atof(argv[1 + 2 * i]); ry[i] = atof(argv[2 + 2 * i]); }}\n\
         #endif\n    for (i = 0; i < 3; i++)\n\
         \x20       n += delta(rx[i] * rx[i] + ry[i] * ry[i], 1.0);\n    {body}\n\
         #ifndef __TASS__\n    printf(\"%d\\n\", inside);\n#endif\n    return 0;\n}}\n"
    )
}

/// The witness's values of `rx` and `ry` as the programs' arguments.
fn witness_points(report: &Value) -> String {
    format!("{:#}", report["violations"][0]["witness"])
}

#[test]
fn symmetric_outputs_under_an_asymmetric_path_condition_are_not_enough() {
    // Both of the specification's paths compute the symmetric count, but they
    // split on point 0 alone: no path has the permuted path condition.
    // gcc (tass.h's delta): `0.1 0.1 2 2 2 2` -> spec 1, impl 2 (point 0 counted
    // twice when rx[0] < 0.5); `0.9 0.1 2 2 2 2` -> 1 / 1; tass's witness
    // rx = {0.3, 0.7, -1.0}, ry = {0.2, -1.0, 0.1} -> 1 / 2.
    let spec = three_points("if (rx[0] < 0.5)\n        inside = n;\n    else\n        inside = n;");
    let imp = three_points(
        "if (rx[0] < 0.5)\n        inside = n + delta(rx[0] * rx[0] + ry[0] * ry[0], 1.0);\n    else\n        inside = n;",
    );
    let args = ["--arith", "ieee", "--symmetry", "rx,ry"];
    let (code, r) = compare(&args, &spec, &imp);
    assert_not_equivalent(code, &r);
    let warning = symmetry_warning(&r);
    assert!(warning.contains("hypothesis 1"), "{warning}");
    assert!(
        warning.contains("running without the reduction"),
        "{warning}"
    );
    assert!(!witness_points(&r).is_empty(), "{r:#}");
}

#[test]
fn a_spec_symmetric_under_one_generator_only_is_not_symmetric() {
    // Point 2 counts twice: swapping points 0 and 1 changes nothing, the cycle
    // 0 -> 1 -> 2 does. The implementation counts point 0 twice instead.
    // gcc: `2 2 2 2 0.1 0.1` -> spec 2, impl 1; `0.1 0.1 2 2 2 2` -> 1 / 2;
    // tass's witness rx = {0.1, 0.2, 0.3}, ry = {1.0, 3.0, 0.7} -> 2 / 1.
    let spec = three_points("inside = n + delta(rx[2] * rx[2] + ry[2] * ry[2], 1.0);");
    let imp = three_points("inside = n + delta(rx[0] * rx[0] + ry[0] * ry[0], 1.0);");
    for level in ["ieee", "real"] {
        let args = ["--arith", level, "--symmetry", "rx,ry"];
        let (code, r) = compare(&args, &spec, &imp);
        assert_not_equivalent(code, &r);
        let warning = symmetry_warning(&r);
        assert!(warning.contains("hypothesis 2"), "{level}: {warning}");
        assert!(warning.contains("[1 2 0]"), "{level}: {warning}");
        assert!(
            warning.contains("running without the reduction"),
            "{warning}"
        );
    }
}

fn montecarlo_sym(extra: &[&str], imp: &std::path::Path) -> (i32, Value) {
    let fevs = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fevs/mpi/");
    let spec = format!("{fevs}montecarlo_sym_seq.c");
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["compare", "--arith", "ieee"])
        .args(extra)
        .arg("--spec")
        .arg(&spec)
        .arg("--impl")
        .arg(imp)
        .args([
            "--impl-procs",
            "4",
            "-i",
            "NPTS=4",
            "--format",
            "json",
            "--stats",
        ])
        .output()
        .expect("run tass");
    common::report(out)
}

#[test]
fn the_reduction_explores_fewer_states_of_montecarlo_and_still_holds() {
    let imp = std::path::PathBuf::from(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../fevs/mpi/montecarlo_sym_par.c"
    ));
    let (code, full) = montecarlo_sym(&[], &imp);
    common::assert_holds(code, &full);
    let (code, reduced) = montecarlo_sym(&["--symmetry", "rx,ry"], &imp);
    common::assert_holds(code, &reduced);
    assert!(
        symmetry_warning(&reduced).contains("one representative per orbit"),
        "{reduced:#}"
    );
    let seen = |r: &Value| r["stats"]["states_seen"].as_u64().expect("stats");
    assert!(seen(&reduced) < seen(&full), "{reduced:#}\n{full:#}");
}

#[test]
fn a_difference_found_under_the_reduction_is_searched_again_in_full() {
    // The server serves one point fewer. With -DFEVS_CONCRETE (points from the
    // fixed generator; the last one lies inside the disc), `mpirun
    // --allow-run-as-root --oversubscribe -np 4` of this variant prints
    // inside = 2, gcc of montecarlo_sym_seq.c inside = 3 (the unchanged
    // montecarlo_sym_par.c: 3 at -np 4, and at -np 9 with unbuffered sends).
    let fevs = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fevs/mpi/");
    let text = std::fs::read_to_string(format!("{fevs}montecarlo_sym_par.c")).expect("read");
    let buggy = text.replace(
        "k = NPTS - next < BLOCK ? NPTS - next : BLOCK;",
        "k = NPTS - 1 - next < BLOCK ? NPTS - 1 - next : BLOCK;",
    );
    assert_ne!(buggy, text);
    let imp = common::inline(&buggy);
    let (code, r) = montecarlo_sym(&["--symmetry", "rx,ry"], &imp);
    assert_not_equivalent(code, &r);
    let warnings = format!("{:#}", r["warnings"]);
    assert!(
        warnings.contains("a violation was found under the reduction"),
        "{warnings}"
    );
}

#[test]
fn an_input_read_again_after_the_reduction_consumed_it_is_searched_again_in_full() {
    // Rank 0 counts the points again from the inputs after the workers have:
    // under the reduction those elements are consumed (unknowns), so the
    // comparison cannot be proved there and the full search decides: holds.
    // `mpirun --allow-run-as-root --oversubscribe -np 3` of this variant with
    // -DFEVS_CONCRETE prints inside = 3, as gcc of montecarlo_sym_seq.c does.
    let fevs = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fevs/mpi/");
    let text = std::fs::read_to_string(format!("{fevs}montecarlo_sym_par.c")).expect("read");
    let again = text.replace(
        "        inside = total_in;",
        "        { int j; inside = 0; for (j = 0; j < NPTS; j++) \
         inside += delta(rx[j] * rx[j] + ry[j] * ry[j], 1.0); }",
    );
    assert_ne!(again, text);
    let imp = common::inline(&again);
    let (code, r) = montecarlo_sym(&["--symmetry", "rx,ry"], &imp);
    common::assert_holds(code, &r);
    let warnings = format!("{:#}", r["warnings"]);
    assert!(
        warnings.contains("a violation was found under the reduction"),
        "{warnings}"
    );
}

#[test]
fn an_implementation_with_assumptions_is_not_reduced() {
    // The implementation assumes point 0 lies left of point 1: it has no path
    // for the other inputs, which the search must still see (coverage), so the
    // reduction is refused and the full search reports it.
    let imp = counting(UP, "").replace(
        "    inside = 0;\n",
        "    inside = 0;\n#pragma TASS assume rx[0] < rx[1]\n",
    );
    assert!(imp.contains("assume"));
    let args = ["--arith", "ieee", "--symmetry", "rx,ry"];
    let (code, r) = compare(&args, &counting(UP, ""), &imp);
    assert_eq!(r["verdict"], "inconclusive", "{r:#}");
    assert_eq!(code, 3);
    let warning = symmetry_warning(&r);
    assert!(warning.contains("it has assumptions"), "{warning}");
    assert!(warning.contains("explored in full"), "{warning}");
}
