//! Loop-invariant symbolic execution (LISE) of one process: `#pragma TASS
//! collective invariant ID EXPR` before a loop makes tass explore the loop once
//! for every iteration count (check on entry, fresh values for what the loop
//! writes, assume, one arbitrary iteration, check preservation, cut).
//!
//! Every expected verdict was confirmed by running the program for real:
//! each file was compiled with `gcc -g -fsanitize=address,undefined
//! -Dmain=prog_main` and linked with a driver setting the input `n` (and `m`)
//! from the command line, then run for the counts listed at each test.
//! A program whose invariant is only too weak runs clean for real: tass must
//! then report a *possible* violation, never "holds" and never "provable".

mod common;

use common::{assert_holds, assert_violated, inline, verify, verify_reduced};
use serde_json::Value;

/// `s` doubles the counter; `n` has no upper bound.
const SUM: &str = r#"#include <assert.h>
#pragma TASS input {n >= 0}
int n;
int main(void) {
  int i = 0, s = 0;
#pragma TASS collective invariant L 0 <= i && i <= n && s == 2 * i
  while (i < n) { s += 2; i++; }
  assert(s == 2 * n);
  return 0;
}
"#;

fn first(report: &Value) -> &Value {
    &report["violations"][0]
}

/// gcc+ASan/UBSan, n = 0, 1, 2, 5, 7, 8, 20, 100: all pass. With no upper
/// bound on `n` the run finishes, and says so for every `n`.
#[test]
fn unbounded_loop_with_invariant_holds() {
    let (code, r) = verify("1", &[], SUM);
    assert_holds(code, &r);
}

/// The same program without the pragma unrolls the loop once per value of
/// `n`: it cannot end, and a state budget makes it inconclusive.
#[test]
fn without_the_invariant_the_search_does_not_end() {
    let plain = SUM.replace(
        "#pragma TASS collective invariant L 0 <= i && i <= n && s == 2 * i\n",
        "",
    );
    let (code, r) = verify("1", &["--max-states", "3000"], &plain);
    assert_eq!(r["verdict"], "inconclusive", "{r:#}");
    assert_eq!(code, 3, "{r:#}");
}

/// gcc, n = 0..100: all pass (the program is right), but the invariant
/// `s <= 2 * i` is too weak for the assertion: tass may not say "holds", and
/// since the counterexample is over values the invariant allows but no run
/// reaches, the violation is only possible.
#[test]
fn too_weak_invariant_gives_a_possible_violation_never_holds() {
    let weak = SUM.replace("s == 2 * i\n", "s >= 0 && s <= 2 * i\n");
    let (code, r) = verify("1", &[], &weak);
    assert_eq!(r["verdict"], "violated", "{r:#}");
    assert_eq!(code, 1);
    assert_eq!(first(&r)["property"], "assertion");
    assert_eq!(first(&r)["certainty"], "possible", "{r:#}");
    assert_eq!(first(&r)["line"], 8);
}

/// gcc: n = 0..7 pass, n = 8, 20, 100 fail the assertion (s = 17 after the
/// iteration with i == 7): the invariant is not preserved.
#[test]
fn invariant_not_preserved_is_reported_at_the_pragma() {
    let bad = SUM.replace("s += 2; i++;", "s += 2; if (i == 7) s++; i++;");
    let (code, r) = verify("1", &[], &bad);
    assert_violated(code, &r, "invariant", Some(6));
    let message = first(&r)["message"].as_str().unwrap_or("");
    assert!(message.contains("`L` is not preserved"), "{message}");
    // the iteration came back from the body's last statement (`i++`, line 7)
    assert!(
        message.contains("comes back to the loop head from line 7"),
        "{message}"
    );
    assert_eq!(first(&r)["certainty"], "possible");
}

/// gcc: s starts at 1, every n in 0..100 fails the assertion; the invariant is
/// false before the first iteration: a provable violation (no loop values yet).
#[test]
fn invariant_false_on_entry_is_provable() {
    let bad = SUM.replace("int i = 0, s = 0;", "int i = 0, s = 1;");
    let (code, r) = verify("1", &[], &bad);
    assert_violated(code, &r, "invariant", Some(6));
    let message = first(&r)["message"].as_str().unwrap_or("");
    assert!(message.contains("does not hold on entry"), "{message}");
    assert_eq!(first(&r)["certainty"], "provable");
}

/// The reduction changes nothing here (one process), and both searches end.
#[test]
fn reduced_and_full_searches_agree() {
    let file = inline(SUM);
    for reduced in [true, false] {
        let (code, r) = verify_reduced("1", &[], &file, reduced);
        assert_holds(code, &r);
    }
    let bad = inline(&SUM.replace("s += 2; i++;", "s += 2; if (i == 7) s++; i++;"));
    for reduced in [true, false] {
        let (code, r) = verify_reduced("1", &[], &bad, reduced);
        assert_violated(code, &r, "invariant", Some(6));
    }
}

const NESTED: &str = r#"#include <assert.h>
#pragma TASS input {n >= 0}
int n;
#pragma TASS input {m >= 0}
int m;
int main(void) {
  int i = 0, c = 0;
#pragma TASS collective invariant OUTER 0 <= i && i <= n && c == i * m
  while (i < n) {
    int j = 0;
#pragma TASS collective invariant INNER 0 <= j && j <= m && c == i * m + j
    while (j < m) { c++; j++; }
    i++;
  }
  assert(c == n * m);
  return 0;
}
"#;

/// gcc, (n, m) in {0, 1, 3} x {0, 2, 5}: all pass.
#[test]
fn nested_invariant_loops_hold() {
    let (code, r) = verify("1", &[], NESTED);
    assert_holds(code, &r);
}

/// gcc: `c += 2` makes c == 2 n m, the assertion fails for n = 1, m = 2
/// (and every n, m > 0); the inner invariant is not preserved.
#[test]
fn nested_inner_not_preserved() {
    let bad = NESTED.replace("c++; j++;", "c += 2; j++;");
    let (code, r) = verify("1", &[], &bad);
    assert_violated(code, &r, "invariant", Some(11));
}

/// The loop is in a function and writes through its pointer parameter: the
/// whole array it points to gets fresh values.
const FILL: &str = r#"#include <assert.h>
#pragma TASS input {n >= 1 && n <= 1000}
int n;
void fill(int *a, int len) {
  int i;
#pragma TASS collective invariant F 0 <= i && i <= len && forall {int k | 0 <= k && k < i} a[k] == 3
  for (i = 0; i < len; i++) a[i] = 3;
}
int main(void) {
  int a[1000] = {0};
  fill(a, n);
  assert(a[n - 1] == 3);
  return 0;
}
"#;

/// gcc, n = 1, 2, 5, 6, 7, 8, 20, 100: all pass.
#[test]
fn writes_through_a_pointer_parameter_hold() {
    let (code, r) = verify("1", &[], FILL);
    assert_holds(code, &r);
}

/// gcc: a[5] = 4; n = 6 fails the assertion.
#[test]
fn writes_through_a_pointer_parameter_violated() {
    let bad = FILL.replace("a[i] = 3;", "a[i] = (i == 5) ? 4 : 3;");
    let (code, r) = verify("1", &[], &bad);
    assert_violated(code, &r, "invariant", Some(6));
}

/// gcc: n = 0 passes, n = 1, 2, 5, ... fail: the callee writes the global
/// `total`, so the write set must hold it (were it left out, `total` would
/// keep its entry value 0 and tass would wrongly say "holds").
#[test]
fn a_global_written_by_a_callee_is_in_the_write_set() {
    let text = r#"#include <assert.h>
#pragma TASS input {n >= 0}
int n;
int total;
void bump(void) { total = total + 1; }
int main(void) {
  int i = 0;
#pragma TASS collective invariant G 0 <= i && i <= n
  while (i < n) { bump(); i++; }
  assert(total == 0);
  return 0;
}
"#;
    let (code, r) = verify("1", &[], text);
    assert_violated(code, &r, "assertion", Some(10));
    // the invariant says nothing of `total`: what follows is only possible
    assert_eq!(first(&r)["certainty"], "possible");
    let fixed = text
        .replace("G 0 <= i && i <= n", "G 0 <= i && i <= n && total == i")
        .replace("assert(total == 0);", "assert(total == n);");
    let (code, r) = verify("1", &[], &fixed);
    assert_holds(code, &r);
}

/// gcc, n = 0..100: pass. A `break` leaves from the arbitrary iteration.
#[test]
fn break_out_of_an_endless_for_holds() {
    let text = r#"#include <assert.h>
#pragma TASS input {n >= 0}
int n;
int main(void) {
  int i = 0;
#pragma TASS collective invariant B 0 <= i && i <= n
  for (;;) {
    if (i >= n) break;
    i++;
  }
  assert(i == n);
  return 0;
}
"#;
    let (code, r) = verify("1", &[], text);
    assert_holds(code, &r);
    let (code, r) = verify(
        "1",
        &[],
        &text.replace("assert(i == n);", "assert(i == n + 1);"),
    );
    assert_violated(code, &r, "assertion", Some(11));
}

const CONTINUE: &str = r#"#include <assert.h>
#pragma TASS input {n >= 0}
int n;
int main(void) {
  int i = 0, s = 0;
#pragma TASS collective invariant C 0 <= i && i <= n && 0 <= s && s <= i
  while (i < n) {
    i++;
    if (i % 2) continue;
    s++;
  }
  assert(s <= n);
  return 0;
}
"#;

/// A `continue` is a back edge too: its arrival is checked and cut.
/// gcc, n = 0, 1, 2, 5, 8, 100: pass; with `s += 2` before the `continue`,
/// n = 1, 2, 5, 8, 100 fail the assertion (n = 0 passes).
#[test]
fn continue_is_a_back_edge() {
    let (code, r) = verify("1", &[], CONTINUE);
    assert_holds(code, &r);
    let bad = CONTINUE.replace("if (i % 2) continue;", "if (i % 2) { s += 2; continue; }");
    let (code, r) = verify("1", &[], &bad);
    assert_violated(code, &r, "invariant", Some(6));
}

/// Writes the write set must catch, each confirmed for real (gcc+ASan/UBSan):
/// a callee writing through `&c`; a callee's static local; a heap block
/// written through a pointer the loop does not assign. Were one left out,
/// the object would keep its entry value and the assertion would "hold".
/// n = 0 passes, n = 1, 2, 5 fail the assertion (heap: n >= 1 by constraint).
#[test]
fn writes_the_analysis_must_see_are_havocked() {
    let through_address = r#"#include <assert.h>
#pragma TASS input {n >= 0}
int n;
void inc(int *p) { *p = *p + 1; }
int main(void) {
  int i = 0, c = 0;
#pragma TASS collective invariant A 0 <= i && i <= n
  while (i < n) { inc(&c); i++; }
  assert(c == 0);
  return 0;
}
"#;
    let (code, r) = verify("1", &[], through_address);
    assert_violated(code, &r, "assertion", Some(9));
    // with `c == i` in the invariant and the right assertion: n = 1, 2, 5, 100 pass
    let fixed = through_address
        .replace("i <= n\n  while", "i <= n && c == i\n  while")
        .replace("assert(c == 0);", "assert(c == n);");
    let (code, r) = verify("1", &[], &fixed);
    assert_holds(code, &r);

    let static_local = r#"#include <assert.h>
#pragma TASS input {n >= 0}
int n;
int next(void) { static int k; k = k + 1; return k; }
int main(void) {
  int i = 0;
#pragma TASS collective invariant A 0 <= i && i <= n
  while (i < n) { next(); i++; }
  assert(next() == 1);
  return 0;
}
"#;
    let (code, r) = verify("1", &[], static_local);
    assert_violated(code, &r, "assertion", Some(9));

    let heap = r#"#include <assert.h>
#include <stdlib.h>
#pragma TASS input {n >= 1}
int n;
int main(void) {
  int i = 0;
  int *a = calloc(n, sizeof(int));
#pragma TASS collective invariant A 0 <= i && i <= n
  while (i < n) { a[i] = 1; i++; }
  assert(a[0] == 0);
  free(a);
  return 0;
}
"#;
    let (code, r) = verify("1", &[], heap);
    assert_violated(code, &r, "assertion", Some(10));
    // n = 1, 2, 5, 100 pass
    let fixed = heap
        .replace(
            "i <= n\n  while",
            "i <= n && forall {int k | 0 <= k && k < i} a[k] == 1\n  while",
        )
        .replace("assert(a[0] == 0);", "assert(a[0] == 1 && a[n - 1] == 1);");
    let (code, r) = verify("1", &[], &fixed);
    assert_holds(code, &r);
}

/// `--stats` counts the invariant checks: one on entry, one at the end of the
/// arbitrary iteration; each asked the prover at most once.
#[test]
fn stats_count_invariant_checks() {
    let file = inline(SUM);
    let (code, r) = verify_reduced("1", &[], &file, true);
    assert_holds(code, &r);
    let checks = r["stats"]["invariant_checks"]
        .as_u64()
        .expect("invariant_checks");
    assert_eq!(checks, 2, "{r:#}");
    let calls = r["stats"]["invariant_prover_calls"].as_u64().unwrap_or(0);
    assert!(calls <= 2, "{r:#}");
}

fn assert_error(text: &str, procs: &str, named: &str, line: u64) {
    let (code, r) = verify(procs, &[], text);
    assert_eq!(r["verdict"], "error", "{r:#}");
    assert_eq!(code, 2);
    let message = r["error"].as_str().unwrap_or("");
    assert!(message.contains(named), "{message}");
    assert!(message.contains(&format!("prog.c:{line}:")), "{message}");
}

#[test]
fn invariant_not_before_a_loop_is_refused() {
    let text = "int main(void) {\n  int i = 0;\n#pragma TASS collective invariant L i >= 0\n  i = 1;\n  return 0;\n}\n";
    assert_error(
        text,
        "1",
        "must be immediately followed by a while, do or for loop",
        4,
    );
}

#[test]
fn invariant_naming_a_variable_out_of_scope_is_refused() {
    let text = "int main(void) {\n  int i = 0;\n#pragma TASS collective invariant L i <= k\n  while (i < 3) { int k = 1; i += k; }\n  return 0;\n}\n";
    assert_error(text, "1", "unknown identifier `k`", 3);
}

#[test]
fn write_through_an_unpinned_pointer_is_refused() {
    let text = "int a[4], b[4];\nint main(void) {\n  int i = 0; int *p = a;\n#pragma TASS collective invariant L 0 <= i && i <= 4\n  while (i < 4) { *p = 1; p = b; i++; }\n  return 0;\n}\n";
    assert_error(text, "1", "also assigns it", 4);
}

#[test]
fn allocation_in_an_invariant_loop_is_refused() {
    let text = "#include <stdlib.h>\nint main(void) {\n  int i = 0;\n#pragma TASS collective invariant L 0 <= i && i <= 4\n  while (i < 4) { int *p = malloc(sizeof(int)); free(p); i++; }\n  return 0;\n}\n";
    assert_error(text, "1", "may not allocate or free", 5);
}

/// A loop that communicates changes the message queues, which no fresh value
/// stands for (a message consumed in the first iteration would still be there
/// in the arbitrary one): the collective form checks at the loop head that no
/// message crosses it. Here each round sends to itself and never receives:
/// with synchronous sends a deadlock (mpirun -np 1 zero-buffer, n = 1: hangs);
/// with buffered ones (`--deadlock absolute`) the message is still in flight
/// at the head: refused, never holds.
#[test]
fn communication_in_an_invariant_loop_is_checked_at_the_head() {
    let text = r#"#include <mpi.h>
#pragma TASS input {n >= 0}
int n;
int main(int argc, char **argv) {
  int rank, i = 0, x = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#pragma TASS collective invariant L 0 <= i && i <= n
  while (i < n) { MPI_Send(&i, 1, MPI_INT, 0, 0, MPI_COMM_WORLD); i++; }
  MPI_Finalize();
  return 0;
}
"#;
    let (code, r) = verify("1", &[], text);
    assert_eq!(r["verdict"], "violated", "{r:#}");
    assert_eq!(code, 1);
    assert_eq!(r["violations"][0]["property"], "deadlock", "{r:#}");
    let (code, r) = verify("1", &["--deadlock", "absolute"], text);
    assert_eq!(r["verdict"], "error", "{r:#}");
    assert_eq!(code, 2);
    let message = r["error"].as_str().unwrap_or("");
    assert!(message.contains("still in flight"), "{message}");
    assert!(message.contains("prog.c:8:"), "{message}");
}

/// Several processes: the collective form. The invariant must tie the
/// processes' rounds together (`i == PROC[0]@main.i`), or one process could
/// leave the loop while another enters it (a possible `invariant` violation).
/// mpirun -np 2, n = 0, 1, 5: every arrival has x == i, equal on both ranks.
#[test]
fn several_processes_need_their_rounds_tied() {
    let text = r#"#include <mpi.h>
#include <assert.h>
#pragma TASS input {n >= 0}
int n;
int main(int argc, char **argv) {
  int rank, i = 0, x = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
#pragma TASS collective invariant L 0 <= i && i <= n && x == i
  while (i < n) { x++; i++; }
  assert(x == n);
  MPI_Finalize();
  return 0;
}
"#;
    // one process: classic LISE (mpirun -np 1, n = 0, 1, 5: pass)
    let (code, r) = verify("1", &[], text);
    assert_holds(code, &r);
    let (code, r) = verify("2", &[], text);
    assert_eq!(r["verdict"], "violated", "{r:#}");
    assert_eq!(code, 1);
    let message = r["violations"][0]["message"].as_str().unwrap_or("");
    assert!(message.contains("loop conditions agree"), "{message}");
    let tied = text.replace("x == i\n", "x == i && i == PROC[0]@main.i\n");
    assert_ne!(tied, text);
    let (code, r) = verify("2", &[], &tied);
    assert_holds(code, &r);
}

#[test]
fn proc_in_a_loop_invariant_is_refused() {
    let text = SUM.replace("s == 2 * i\n", "s == 2 * PROC[0]@main.i\n");
    assert_error(&text, "1", "PROC[e].x needs the collective form", 6);
}

#[test]
fn joint_invariant_is_refused_by_verify() {
    let text = SUM.replace("collective invariant", "joint invariant");
    assert_error(
        &text,
        "1",
        "joint invariants relate the two programs of `tass compare",
        6,
    );
}

/// `tass compare` with a collective loop invariant: refused (exit 2), never a
/// verdict (the two programs' loops are related by joint invariants).
#[test]
fn invariant_in_compare_is_refused() {
    let with_output = SUM
        .replace("int n;\n", "int n;\n#pragma TASS output\nint total;\n")
        .replace("  return 0;", "  total = s;\n  return 0;");
    let spec = inline(&with_output);
    let imp = inline(&with_output);
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tass"))
        .arg("compare")
        .arg(&spec)
        .arg(&imp)
        .args(["--format", "json"])
        .output()
        .expect("run tass");
    let (code, r) = common::report(out);
    assert_eq!(code, 2, "{r:#}");
    assert_eq!(r["verdict"], "error");
    let message = r["error"].as_str().unwrap_or("");
    assert!(
        message.contains("collective loop invariants are not supported in tass compare"),
        "{message}"
    );
}
