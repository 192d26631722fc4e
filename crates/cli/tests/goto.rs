//! C statement labels and `goto`: forward and backward jumps, out of nested
//! loops, into a loop body and into a `switch` case, in MPI code under the
//! partial-order reduction, and the bad inputs (unknown label, duplicate label,
//! a jump into the scope of a variable-length array), each an exit-2 error
//! with its position.
//!
//! Every verdict was confirmed by compiling the program with
//! `gcc -g -fsanitize=address,undefined -fno-sanitize-recover=all` for each
//! input value in the pragma's range (the input declared with that value) and
//! running it; the MPI ones with `mpicc` and
//! `mpirun --allow-run-as-root --oversubscribe -np 2` (under `timeout 20`).
//! The outcomes are in each test's comment.

mod common;

use common::{reduced_and_full, verify};

fn violated_at(text: &str, property: &str, line: u64) {
    let (code, r) = verify("1", &[], text);
    assert_eq!(code, 1, "{r:#}");
    assert_eq!(r["verdict"], "violated", "{r:#}");
    let v = &r["violations"][0];
    assert_eq!(v["property"], property, "{r:#}");
    assert_eq!(v["line"], line, "{r:#}");
}

fn holds(text: &str) -> serde_json::Value {
    let (code, r) = verify("1", &["--stats"], text);
    assert_eq!(r["verdict"], "holds", "{r:#}");
    assert_eq!(code, 0, "{r:#}");
    r
}

fn refused(text: &str, message: &str, line_col: &str) {
    let (code, r) = verify("1", &[], text);
    assert_eq!(code, 2, "{r:#}");
    assert_eq!(r["verdict"], "error", "{r:#}");
    let error = r["error"].as_str().unwrap_or("");
    assert!(error.contains(message), "{error}");
    assert!(error.contains(line_col), "{error}");
}

/// A backward `goto` as a loop, then a forward one over dead code.
/// gcc: n = 0..5 all exit 0.
const BACKWARD_AND_FORWARD: &str = "#include <assert.h>
#pragma TASS input {0 <= n && n <= 5}
int n;
int main(void) {
  int i = 0, s = 0;
again:
  if (i < n) { s += i; i++; goto again; }
  assert(s == n * (n - 1) / 2);
  goto done;
  s = 99;
done:
  assert(s != 99);
  return 0;
}
";

#[test]
fn backward_and_forward_gotos_hold() {
    holds(BACKWARD_AND_FORWARD);
}

/// gcc: n = 0..3 exit 0; n = 4 and 5 abort at `assert(s < 6)`.
#[test]
fn backward_goto_loop_finds_the_failing_input() {
    let text = BACKWARD_AND_FORWARD
        .replace("assert(s == n * (n - 1) / 2);", "assert(s < 6);")
        .replace("  assert(s != 99);\n", "");
    violated_at(&text, "assertion", 8);
    let (_, r) = verify("1", &[], &text);
    assert_eq!(r["violations"][0]["witness"]["n"], 4, "{r:#}");
}

/// Leaving two nested loops at once. gcc: n = 3 aborts (i = 1, j = 3 gives
/// 13); n = 0, 1, 2, 4 exit 0. The twin asserting that the pair found
/// multiplies to n exits 0 for n = 0..4.
#[test]
fn goto_out_of_nested_loops() {
    let text = "#include <assert.h>
#pragma TASS input {0 <= n && n <= 4}
int n;
int main(void) {
  int found = -1;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++)
      if (i * j == n && i < j) { found = i * 10 + j; goto out; }
out:
  assert(found != 13);
  return 0;
}
";
    violated_at(text, "assertion", 10);
    let (_, r) = verify("1", &[], text);
    assert_eq!(r["violations"][0]["witness"]["n"], 3, "{r:#}");
    holds(&text.replace(
        "found != 13",
        "found == -1 || (found / 10) * (found % 10) == n",
    ));
}

/// Into the middle of a `while` body from outside it. gcc: n = 0, 1 exit 0
/// (k ends at 6); n = 2, 3 abort (k ends at 7).
#[test]
fn goto_into_a_loop_body() {
    let text = "#include <assert.h>
#pragma TASS input {0 <= n && n <= 3}
int n;
int main(void) {
  int k = 0;
  if (n > 1) goto inside;
  while (k < 5) {
    k += 2;
  inside:
    k++;
  }
  assert(k == 6 || n <= 1);
  return 0;
}
";
    violated_at(text, "assertion", 12);
    holds(&text.replace("k == 6 || n <= 1", "k == 6 || k == 7"));
}

/// From one `case` into the `default` part of the same switch, to a label
/// inside it. gcc: n = 0 aborts (x = 11); n = 1, 2, 3 exit 0.
#[test]
fn goto_between_switch_cases() {
    let text = "#include <assert.h>
#pragma TASS input {0 <= n && n <= 3}
int n;
int main(void) {
  int x = 0;
  switch (n) {
  case 0: x = 10; goto tail;
  case 1: x = 20; break;
  default:
  tail:
    x++;
  }
  assert(x != 11);
  return 0;
}
";
    violated_at(text, "assertion", 13);
    holds(&text.replace("x != 11", "x == 11 || x == 20 || x == 1"));
}

/// A label inside a nested block, reached from outside it (C allows it when
/// no variable-length array is in scope there); the variable declared in the
/// block is assigned after the label. gcc: exit 0.
#[test]
fn goto_into_a_nested_block() {
    holds(
        "#include <assert.h>
int main(void) {
  int r = 0;
  goto in;
  {
    int y = 5;
    r = y;
  in:
    y = 2;
    r += y;
  }
  assert(r == 2);
  return 0;
}
",
    );
}

/// An endless backward `goto` of one process: the state repeats, and the
/// search must end. A single process's states are saved only at loop heads
/// and labels (and, as a safety net, every 1024 steps), so without saving at
/// the label this search would run to the safety net (more than 1000 states).
/// gcc: the program never ends (`timeout 5` kills it); no assertion fails.
#[test]
fn an_endless_backward_goto_is_cut_at_its_label() {
    let r = holds(
        "#include <assert.h>
int main(void) {
  int x = 0;
flip:
  x = 1 - x;
  assert(x == 0 || x == 1);
  goto flip;
}
",
    );
    let seen = r["stats"]["states_seen"].as_u64().expect("stats");
    assert!(seen < 50, "{r:#}");
}

/// Sender and receiver loops written with `goto`, with the reduction on and
/// off. mpirun -np 2: exit 0 with three receives; with four, rank 1 waits
/// forever (timeout 20 kills it, exit 124).
const MPI_GOTO_LOOPS: &str = "#include <mpi.h>
#include <assert.h>
int main(int argc, char **argv) {
  int rank, i = 0, v = 0, sum = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
  send:
    MPI_Send(&i, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    if (++i < 3) goto send;
  } else if (rank == 1) {
  recv:
    MPI_Recv(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    sum += v;
    if (++i < RECEIVES) goto recv;
    assert(sum == 3);
  }
  MPI_Finalize();
  return 0;
}
";

#[test]
fn mpi_goto_loops_hold_reduced_and_full() {
    let text = MPI_GOTO_LOOPS.replace("RECEIVES", "3");
    let (reduced, full) = reduced_and_full("2", &[], &text, "holds", "");
    assert!(reduced <= full, "reduced {reduced}, full {full}");
}

#[test]
fn mpi_goto_loop_receiving_once_too_often_deadlocks() {
    let text = MPI_GOTO_LOOPS.replace("RECEIVES", "4");
    reduced_and_full("2", &[], &text, "violated", "deadlock");
}

/// gcc: "error: label 'nowhere' used but not defined".
#[test]
fn unknown_label_is_refused() {
    refused(
        "int main(void) {\n  int x = 0;\n  goto nowhere;\n  return x;\n}\n",
        "no label `nowhere:`",
        ":3:3",
    );
}

/// gcc: "error: duplicate label 'l'".
#[test]
fn duplicate_label_is_refused() {
    refused(
        "int main(void) {\n  int x = 0;\nl: x++;\n  { l: x--; }\n  return x;\n}\n",
        "duplicate label `l`",
        ":4:5",
    );
}

/// gcc: "error: jump into scope of identifier with variably modified type".
#[test]
fn jump_into_the_scope_of_a_vla_is_refused() {
    let text = "#pragma TASS input {1 <= n && n <= 4}
int n;
int main(void) {
  goto in;
  {
    double a[n];
  in:
    a[0] = 1;
  }
  return 0;
}
";
    refused(
        text,
        "jumps into the scope of the variable-length array `a`",
        ":4:3",
    );
    // the label before the declaration, jumped to backward from inside its
    // scope, is fine: gcc compiles it, and n = 1..4 exit 0.
    holds(
        "#include <assert.h>
#pragma TASS input {1 <= n && n <= 4}
int n;
int main(void) {
  int rounds = 0;
  {
  top:
    rounds++;
    double a[n];
    a[n - 1] = rounds;
    if (rounds < 2) goto top;
    assert(a[n - 1] == 2);
  }
  return 0;
}
",
    );
}
