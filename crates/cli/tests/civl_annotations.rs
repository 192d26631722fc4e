//! CIVL-C annotations (`$input`, `$output`, `$assume`, `$assert`, `$forall`,
//! `$exists`) read as tass's own inputs, outputs, assumptions and assertions;
//! the rest of CIVL-C refused by name. The programs in `tests/civl/` are ours,
//! written in the style of CIVL-annotated code: the annotations under
//! `#ifdef _CIVL`, concrete values for a real compiler under `#else`.

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::{assert_holds, assert_refused, assert_violated, report, verify};

fn civl_file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/civl")
        .join(name)
}

/// `tass verify -D _CIVL -n PROCS EXTRA tests/civl/NAME --format json`.
fn verify_civl(name: &str, procs: &str, extra: &[&str]) -> (i32, serde_json::Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "-D", "_CIVL", "-n", procs])
        .args(extra)
        .arg(civl_file(name))
        .args(["--format", "json"])
        .output()
        .expect("run tass");
    report(out)
}

/// Real run: `gcc -g -fsanitize=address,undefined seq_max.c && ./a.out` exits 0
/// (a = {-3, -1, -2}); tass covers every array of 1 to 3 reals.
#[test]
fn seq_max_holds_for_every_input() {
    let (code, r) = verify_civl("seq_max.c", "1", &["-i", "NB=3"]);
    assert_holds(code, &r);
}

/// Real runs of the #else branch under gcc with sanitizers: a = {-3, -1, -2}
/// fails `assert(found)` (the `$exists` claim, line 38); with `N 1`,
/// a = {5} it fails `assert(a[k] <= largest)` (the `$forall` claim), which is
/// the one tass reports first (line 27, witness N = 1).
#[test]
fn seq_max_bad_fails_the_forall_assertion() {
    let (code, r) = verify_civl("seq_max_bad.c", "1", &["-i", "NB=3"]);
    assert_violated(code, &r, "assertion", Some(27));
}

/// Without `-D _CIVL` tass reads the #else branch, like gcc: holds.
#[test]
fn seq_max_without_civl_reads_the_concrete_branch() {
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .arg("verify")
        .arg(civl_file("seq_max.c"))
        .args(["--format", "json"])
        .output()
        .expect("run tass");
    let (code, r) = report(out);
    assert_holds(code, &r);
}

/// `tass show` lists the CIVL inputs with the file-scope `$assume` as the
/// constraint of the input declared just before it, the `$forall` domain
/// `0 .. N - 1` as a range, and the `$output`.
#[test]
fn seq_max_inputs_and_outputs_are_shown() {
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["show", "-D", "_CIVL"])
        .arg(civl_file("seq_max.c"))
        .output()
        .expect("run tass");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("input int NB\n"), "{text}");
    assert!(text.contains("input int N {1 <= N && N <= NB}"), "{text}");
    assert!(text.contains("input double a[N]"), "{text}");
    assert!(text.contains("output double largest"), "{text}");
}

/// Real runs: `mpicc mpi_weighted_sum.c; mpirun --allow-run-as-root
/// --oversubscribe -np 2` and `-np 3` exit 0 (W = 1).
#[test]
fn mpi_weighted_sum_holds() {
    for procs in ["2", "3"] {
        let (code, r) = verify_civl("mpi_weighted_sum.c", procs, &[]);
        assert_holds(code, &r);
    }
}

/// Real runs: `mpirun -np 2` and `-np 3` of mpi_weighted_sum_bad.c abort at the
/// assertion of line 24 (W = 1: 1 != 2, 3 != 4).
#[test]
fn mpi_weighted_sum_bad_fails_at_rank_0() {
    for procs in ["2", "3"] {
        let (code, r) = verify_civl("mpi_weighted_sum_bad.c", procs, &[]);
        assert_violated(code, &r, "assertion", Some(24));
    }
}

/// `#include <civlc.cvh>` defines `_CIVL`; a `$assume` in a body is an
/// assumption, and the message arguments of `$assert` are dropped. Real runs
/// (gcc with sanitizers, x from argv, `$assume(e)` as `if (!(e)) return 0;`,
/// `$assert(e, ...)` as `assert(e)`): x = -5, 0, 7, 999 exit 0.
#[test]
fn assume_in_a_body_restricts_the_paths() {
    let text = "#include <civlc.cvh>\n\
                #ifndef _CIVL\n#error no _CIVL\n#endif\n\
                $input int x;\n\
                int main(void) {\n  int y = x;\n  $assume(y > 0 && y < 1000);\n  \
                $assert(y + y > y, \"y = %d\", y);\n  return 0;\n}\n";
    let (code, r) = verify("1", &[], text);
    assert_holds(code, &r);
    // Without the assumption, x = 0 fails it (real run with x = 0: abort).
    let (code, r) = verify("1", &[], &text.replace("$assume(y > 0 && y < 1000);", ""));
    assert_violated(code, &r, "assertion", Some(9));
}

/// The rest of CIVL-C is refused by name, at its line.
#[test]
fn other_civl_constructs_are_refused_by_name() {
    let program = |body: &str| {
        format!("#include <civlc.cvh>\nint main(void) {{\n  {body}\n  return 0;\n}}\n")
    };
    assert_refused(&program("int x = $choose_int(3);"), "`$choose_int`", 3);
    assert_refused(&program("$when (1) ;"), "`$when`", 3);
    assert_refused(&program("$spawn f();"), "`$spawn`", 3);
    assert_refused(&program("$proc p;"), "`$proc`", 3);
    assert_refused(
        &program("int x = 0; if (x) $assert(x);"),
        "not a statement of a block",
        3,
    );
    assert_refused(
        "#include <civlc.cvh>\n$input int n = 3;\nint main(void) { return 0; }\n",
        "remove the initializer",
        2,
    );
    assert_refused(
        "#include <civlc.cvh>\n$assume(1 > 0);\nint main(void) { return 0; }\n",
        "declares no `$input`",
        2,
    );
    assert_refused(
        "int main(void) {\n  int x = 0;\n  x = $forall (int i | i > 0) i > 0;\n  return x;\n}\n",
        "`$forall` is allowed only inside",
        3,
    );
}

/// The refusal names the column of the `$` word.
#[test]
fn refusal_points_at_the_column() {
    let (_, r) = verify(
        "1",
        &[],
        "#include <civlc.cvh>\nint main(void) {\n  int x = $choose_int(3);\n  return x;\n}\n",
    );
    let message = r["error"].as_str().unwrap_or("");
    assert!(message.contains("prog.c:3:11:"), "{message}");
}

/// K&R parameter lists get a clear error instead of a parse failure.
#[test]
fn old_style_parameters_are_refused_clearly() {
    assert_refused(
        "int main(argc, argv)\n  int argc;\n  char **argv;\n{\n  return 0;\n}\n",
        "old-style (K&R) parameter `argc`",
        1,
    );
}
