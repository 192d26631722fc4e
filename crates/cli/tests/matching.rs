//! `--match syntactic|set|subsume`: the three modes against each other on
//! programs where they must agree (both verdicts), the default unchanged, the
//! paper's token-passing experiment with a symbolic counter (`set` ends where
//! only fixed inputs ended before), an input read again later (must stay in the
//! data part), and `subsume` refused with `ltl` pragmas.
//!
//! Concrete confirmations (gcc -fsanitize=address,undefined; mpicc and
//! mpirun --allow-run-as-root --oversubscribe -np 2, ASAN_OPTIONS=detect_leaks=0
//! for Open MPI's own leaks):
//! - `LIVE_INPUT` with l0 = 0, 1, 2 reaches `assert(0)` after 3 rounds.
//! - `CLAMP` with x = 100 (the largest y) keeps y = 10: `y <= 10` holds,
//!   `y <= 9` fails at once.
//! - `fevs/mpi/ltl_mutex_counter.c -DR=10 -DROUNDS=4`: 4 critical sections per
//!   rank for l0 = 0, 1, 2, 3; the buggy twin the same for l0 = 0 and 2, and a
//!   single critical section of rank 0 and then a hang (rank 1 spins at
//!   `hold`) for l0 = 1 and 3 (also with --mca btl self,tcp and 56-byte eager
//!   limits).

mod common;

use common::verify;
use serde_json::Value;

const MODES: [&str; 3] = ["syntactic", "set", "subsume"];

fn run(procs: &str, mode: &str, extra: &[&str], text: &str) -> (i32, Value) {
    let mut args = vec!["--match", mode, "--stats", "--timeout", "120"];
    args.extend_from_slice(extra);
    verify(procs, &args, text)
}

/// Every mode gives `verdict` (and, when violated, `property` first), on
/// one thread and on two (a parallel search's cut is found by trial searches
/// that must match as the search does: `jobs_agree.rs`).
fn modes_agree(procs: &str, extra: &[&str], text: &str, verdict: &str, property: &str) {
    for (mode, jobs) in MODES.iter().flat_map(|m| [(*m, "1"), (*m, "2")]) {
        let extra = [extra, &["--jobs", jobs]].concat();
        let (code, r) = run(procs, mode, &extra, text);
        assert_eq!(r["verdict"], verdict, "--match {mode} --jobs {jobs}\n{r:#}");
        match verdict {
            "holds" => assert_eq!(code, 0, "{r:#}"),
            _ => {
                assert_eq!(code, 1, "{r:#}");
                assert_eq!(r["violations"][0]["property"], property, "{mode}\n{r:#}");
            }
        }
    }
}

/// y takes the input x, then is clamped to 10 forever.
const CLAMP: &str = "#include <assert.h>
#pragma TASS input {0 <= x && x <= 100}
int x;
int main(void) {
  int y = x;
  while (1) {
    if (y > 10)
      y = 10;
    assert(y <= LIMIT);
  }
}
";

#[test]
fn modes_agree_on_a_clamped_input_both_verdicts() {
    modes_agree("1", &["-D", "LIMIT=10"], CLAMP, "holds", "");
    modes_agree("1", &["-D", "LIMIT=9"], CLAMP, "violated", "assertion");
    // A range too large to enumerate: the prover decides the set questions.
    let wide = CLAMP.replace("x <= 100}", "x <= 1000000}");
    modes_agree("1", &["-D", "LIMIT=10"], &wide, "holds", "");
    modes_agree("1", &["-D", "LIMIT=9"], &wide, "violated", "assertion");
}

/// Subsumption stores fewer states on the clamp: y = 10 under x > 10 is a
/// subset of y = x under 0 <= x <= 100, at the same loop head.
#[test]
fn subsumption_saves_fewer_states_than_set_equality() {
    let saved = |mode| {
        let (_, r) = run("1", mode, &["-D", "LIMIT=10"], CLAMP);
        r["stats"]["states_saved"].as_u64().expect("stats")
    };
    assert!(
        saved("subsume") < saved("set"),
        "subsume should store fewer"
    );
}

/// The input is read again in the loop, so it is part of the data: a state
/// with l = (l0 + 1) % 3 is not the state with l = l0, though the sets of
/// values of l alone are equal. Dropping l0 would close the loop after one
/// round and miss the assertion.
const LIVE_INPUT: &str = "#include <assert.h>
#pragma TASS input {0 <= l0 && l0 < 3}
int l0;
int main(void) {
  int l = l0;
  while (1) {
    l = (l + 1) % 3;
    if (l == l0)
      assert(0);
  }
}
";

#[test]
fn an_input_read_later_stays_in_the_data() {
    modes_agree("1", &[], LIVE_INPUT, "violated", "assertion");
}

/// An MPI program with a symbolic input, terminating: both verdicts, every
/// mode (the reduction is on).
const MPI_SUM: &str = "#include <mpi.h>
#include <assert.h>
#pragma TASS input {0 <= n && n < 5}
int n;
int main(int argc, char **argv) {
  int rank, v = 0, k;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (k = 0; k < n; k++)
    v += rank + 1;
  if (rank == 1)
    MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    MPI_Recv(&k, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    assert(k == 2 * n || n == BAD);
  }
  MPI_Finalize();
  return 0;
}
";

#[test]
fn modes_agree_on_an_mpi_program_both_verdicts() {
    modes_agree("2", &["-D", "BAD=-1"], MPI_SUM, "holds", "");
    let wrong = MPI_SUM.replace("k == 2 * n", "k == 2 * n + 1");
    modes_agree("2", &["-D", "BAD=0"], &wrong, "violated", "assertion");
}

/// The default is syntactic matching, state for state.
#[test]
fn syntactic_is_the_default() {
    for (procs, text) in [("1", CLAMP), ("2", MPI_SUM)] {
        let extra = ["-D", "LIMIT=10", "-D", "BAD=-1"];
        let (_, default) = verify(procs, &[extra.as_slice(), &["--stats"]].concat(), text);
        let (_, explicit) = run(procs, "syntactic", &extra, text);
        for counter in ["states_seen", "states_saved", "states_matched"] {
            assert_eq!(
                default["stats"][counter], explicit["stats"][counter],
                "{counter}\n{default:#}\n{explicit:#}"
            );
        }
    }
}

fn fevs(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../fevs/mpi/{name}.c",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("fevs program")
}

/// The paper's experiment (R = 4 to keep it short): with the counter's
/// input symbolic, `--match set` ends with the verdict of every fixed input
/// (each fixed input checked with syntactic matching); the buggy twin fails
/// liveness for odd l0 only, and under `set` its violation is found.
#[test]
fn token_passing_with_a_symbolic_counter_set_agrees_with_every_fixed_input() {
    let ring = fevs("ltl_mutex_counter");
    let bad = fevs("ltl_mutex_counter_bad");
    for l0 in 0..4 {
        let fixed = format!("l0={l0}");
        let (code, r) = verify("2", &["-D", "R=4", "-i", &fixed], &ring);
        assert_eq!((code, r["verdict"].as_str()), (0, Some("holds")), "{r:#}");
        let (code, r) = verify("2", &["-D", "R=4", "-i", &fixed], &bad);
        let expected = if l0 % 2 == 1 { "violated" } else { "holds" };
        assert_eq!(r["verdict"], expected, "l0 = {l0}\n{r:#}");
        assert_eq!(code, if l0 % 2 == 1 { 1 } else { 0 });
    }
    let (code, r) = run("2", "set", &["-D", "R=4"], &ring);
    assert_eq!((code, r["verdict"].as_str()), (0, Some("holds")), "{r:#}");
    let (code, r) = run("2", "set", &["-D", "R=4"], &bad);
    assert_eq!(code, 1, "{r:#}");
    assert_eq!(r["violations"][0]["property"], "ltl", "{r:#}");
}

/// The same with R = 1000: the search stays small (the counter's values are
/// not enumerated), which only a set-based match of the rounds can do.
#[test]
fn the_symbolic_counter_does_not_grow_the_search() {
    let ring = fevs("ltl_mutex_counter");
    let (code, small) = run("2", "set", &["-D", "R=4"], &ring);
    assert_eq!(code, 0, "{small:#}");
    let (code, large) = run("2", "set", &["-D", "R=1000"], &ring);
    assert_eq!(code, 0, "{large:#}");
    assert_eq!(
        small["stats"]["states_seen"], large["stats"]["states_seen"],
        "{small:#}\n{large:#}"
    );
}

/// A lasso whose cycle closes only by set equality gets its witness from the
/// backward pruning (`ltl_witness.rs` has the adversarial cases): the inputs
/// of its last state need not drive it, so a candidate drawn from the pruned
/// lasso is run through the product again before the violation is certain.
/// (`PROC[0].l == 7` never holds with R = 4: the counter stays in 0..3, so
/// every l0 violates; the fixed-input syntactic search agrees on the witness.)
#[test]
fn a_lasso_closed_by_set_equality_gets_a_confirmed_witness() {
    let text = fevs("ltl_mutex_counter").replace(
        "#pragma TASS ltl mutex",
        "#pragma TASS ltl seven G F {PROC[0].l == 7}\n#pragma TASS ltl mutex",
    );
    let (code, r) = run("2", "set", &["-D", "R=4"], &text);
    assert_eq!(code, 1, "{r:#}");
    let v = &r["violations"][0];
    assert_eq!(v["property"], "ltl", "{r:#}");
    assert_eq!(v["certainty"], "provable", "{r:#}");
    assert!(
        v["message"].as_str().unwrap_or("").contains("confirmed"),
        "{r:#}"
    );
    let l0 = v["witness"]["l0"].as_i64().expect("witness l0");
    let fixed = format!("l0={l0}");
    let (code, r) = run("2", "syntactic", &["-D", "R=4", "-i", &fixed], &text);
    assert_eq!(code, 1, "with the witness fixed the lasso is real\n{r:#}");
    assert_eq!(r["violations"][0]["certainty"], "provable", "{r:#}");
}

#[test]
fn subsume_is_refused_with_ltl_pragmas() {
    let ring = fevs("ltl_mutex_counter");
    let (code, r) = run("2", "subsume", &["-i", "l0=1"], &ring);
    assert_eq!(code, 2, "{r:#}");
    let error = r["error"].as_str().unwrap_or("");
    assert!(error.contains("--match subsume is for safety"), "{error}");
    assert!(error.contains("prog.c:17:"), "{error}");
}

/// The three-process ring of `ltl.rs` (counter advanced by 2 modulo 4), with
/// its input symbolic: before `--match`, it ran only with `-i l0=V`. Its twin
/// fails liveness for odd l0 only (mpirun, noted in fevs/manifest.toml), and
/// the witness is odd.
#[test]
fn the_three_process_ring_with_a_symbolic_counter() {
    let (code, r) = run("3", "set", &[], &fevs("ltl_token_ring"));
    assert_eq!((code, r["verdict"].as_str()), (0, Some("holds")), "{r:#}");
    let (code, r) = run("3", "set", &[], &fevs("ltl_token_ring_bad"));
    assert_eq!(code, 1, "{r:#}");
    let v = &r["violations"][0];
    assert_eq!(v["property"], "ltl", "{r:#}");
    let l0 = v["witness"]["l0"].as_i64().expect("a witness for l0");
    assert_eq!(l0 % 2, 1, "{r:#}");
}
