//! Collective loop invariants with lagged loop records (issue 17, the paper's `stagger`):
//! `crates/state/src/loop_lag.rs`. When the aligned form gets stuck (a process must run
//! iterations ahead) or sees a message cross the loop head, or finds only possible
//! violations, tass runs the program again with lagged records.
//!
//! Every expected verdict was confirmed by running the program for real (built with
//! `-DFEVS_CONCRETE -fsanitize=address,undefined`, printing `SNAP I rank i=.. x=..` at each
//! arrival; `mpirun --allow-run-as-root --oversubscribe -np 2`, eager and with
//! `--mca btl self,tcp --mca btl_tcp_eager_limit 56 --mca btl_tcp_rndv_eager_limit 56`,
//! N = 0, 1, 2, 3, `timeout 15`, ASAN_OPTIONS=detect_leaks=0 for Open MPI's own leaks);
//! the invariant was evaluated on the k-th arrivals of both ranks. What the runs showed is
//! in the comment above each program.

mod common;

use common::{fevs_mpi, inline, report};
use serde_json::Value;
use std::process::Command;

fn run(extra: &[&str], text: &str) -> (i32, Value) {
    let file = inline(text);
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "-n", "2", "--timeout", "120"])
        .args(extra)
        .arg(&file)
        .args(["--format", "json"])
        .output()
        .expect("run tass");
    report(out)
}

fn expect_violated(extra: &[&str], text: &str, properties: &[&str]) -> Value {
    let (code, r) = run(extra, text);
    assert_eq!(r["verdict"], "violated", "{extra:?}\n{r:#}");
    assert_eq!(code, 1, "{r:#}");
    let property = r["violations"][0]["property"].as_str().unwrap_or_default();
    assert!(
        properties.contains(&property),
        "{extra:?}: {property}\n{r:#}"
    );
    r
}

fn expect_holds(extra: &[&str], text: &str) -> Value {
    let (code, r) = run(extra, text);
    assert_eq!(r["verdict"], "holds", "{extra:?}\n{r:#}");
    assert_eq!(code, 0, "{r:#}");
    r
}

/// The paper's Fig. 2 as fevs has it (`fevs/mpi/lise_stagger.c`), and its buggy twin.
fn stagger() -> String {
    std::fs::read_to_string(fevs_mpi("lise_stagger.c")).expect("read fevs/mpi/lise_stagger.c")
}

fn stagger_bad() -> String {
    std::fs::read_to_string(fevs_mpi("lise_stagger_bad.c"))
        .expect("read fevs/mpi/lise_stagger_bad.c")
}

/// `lise_stagger.c` with `line` (a whole line of it, without its newline) replaced by
/// `by`: the variants below differ from the fevs program in one line each.
fn stagger_with(line: &str, by: &str) -> String {
    let text = stagger();
    let old = format!("{line}\n");
    assert_eq!(
        text.matches(&old).count(),
        1,
        "`{line}` is not one line of lise_stagger.c"
    );
    text.replace(&old, &format!("{by}\n"))
}

const SEND: &str = "            MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);";
const RECV: &str = "            MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);";

/// The paper's Fig. 2 (runs: the invariant at every composed arrival, x == 2N, exit 0,
/// both modes, every N). No bound on N: the run ends (the weakened states repeat), and
/// the invariant was checked at the records' completions.
#[test]
fn stagger_holds_for_every_n_and_the_run_ends() {
    let r = expect_holds(&[], &stagger());
    let checks = r["stats"]["invariant_checks"].as_u64().unwrap_or(0);
    assert!(checks >= 4, "{r:#}");
}

/// Rank 1 sends i instead of i + 1 (runs, N >= 1: the invariant fails at the second
/// composed arrival, rank 0 x = 1 at i = 1; the assertion aborts, exit 134; N = 0 fine).
#[test]
fn stagger_off_by_one_value_is_refuted() {
    let r = expect_violated(&[], &stagger_bad(), &["invariant"]);
    let message = r["violations"][0]["message"].as_str().unwrap_or_default();
    assert!(message.contains("not preserved"), "{message}");
}

/// Rank 1 skips its last send (runs, N >= 1: rank 0 hangs in its last MPI_Recv, both
/// modes; N = 0 exits 0).
fn lost_last_message() -> String {
    stagger_with(
        SEND,
        &format!(
            "            if (i < 2 * N - 1) /* BUG: the last message is never sent */\n    {SEND}"
        ),
    )
}

#[test]
fn a_message_lost_on_the_last_iteration_is_a_deadlock() {
    expect_violated(&[], &lost_last_message(), &["deadlock"]);
}

/// Rank 1 leaves the loop one iteration early (runs, N >= 1: rank 1 has one arrival
/// fewer, x == 2N - 2 on rank 1, the assertion aborts the job, exit 134).
fn exits_early() -> String {
    stagger_with(
        "    while (i < 2 * N) {",
        "    while (i < 2 * N - myrank) { /* BUG: rank 1 leaves one iteration early */",
    )
}

#[test]
fn a_process_leaving_one_iteration_early_is_refuted() {
    let r = expect_violated(&[], &exits_early(), &["invariant"]);
    let message = r["violations"][0]["message"].as_str().unwrap_or_default();
    assert!(message.contains("leave the loop"), "{message}");
}

/// Rank 0 receives on odd iterations: no lag at all, while the invariant says rank 0 is a
/// message ahead (runs, N >= 1: the invariant fails at the second composed arrival, rank 0
/// i = 1 x = 0; the program itself ends with x == 2N, exit 0).
fn no_lag() -> String {
    stagger_with(
        "        if (myrank == 0 && i % 2 == 0) {",
        "        if (myrank == 0 && i % 2 == 1) { /* BUG: no lag, the invariant (lag 1) is wrong */",
    )
}

#[test]
fn an_invariant_claiming_the_wrong_lag_is_refuted() {
    expect_violated(&[], &no_lag(), &["invariant"]);
}

// ---- against the lagged records: bugs far out, a receive skipped, a tag changed ----
//
// Confirmed with -DFEVS_CONCRETE -fsanitize=address,undefined, mpirun -np 2, eager and
// zero-buffer (btl_tcp_eager_limit 56), `timeout 60`, the invariant evaluated on the k-th
// arrivals of both ranks (SNAP lines), N as listed.

/// A wrong value at iteration 2001 only: N = 0, 1, 3, 1000 fine (exit 0); N = 1001, 1500:
/// at the arrival with i = 2001 rank 0 has x = 2003 != 2002 (both modes); N = 1001 the
/// final assertion aborts (exit 134), N = 1500 ends with exit 0 (the value is overwritten).
fn wrong_value_far_out() -> String {
    stagger_with(
        "            x = i + 1;",
        "            x = i + 1 + (i == 2001); /* BUG: a wrong value at iteration 2001 only */",
    )
}

/// The receive of iteration 40 is skipped: N = 0, 1, 3, 20 fine; N = 21, 30: at the
/// arrival with i = 41 rank 0 has x = 40 != 42 and the final assertion aborts (exit 134),
/// both modes.
fn skipped_receive() -> String {
    stagger_with(
        RECV,
        &format!("            if (i != 40) /* BUG: the receive of iteration 40 is skipped */\n    {RECV}"),
    )
}

/// Rank 1 sends with tag 1 at iteration 7: N = 0, 3 fine; N = 4, 5, 8 hang (rank 0 waits
/// for a tag-0 message that never comes; zero-buffer: rank 1's tag-1 send never matches),
/// both modes; eager N = 5, 8: at the arrival with i = 7 rank 0 has x = 10 != 8.
fn changed_tag() -> String {
    stagger_with(
        SEND,
        "            MPI_Send(&x, 1, MPI_INT, 0, i == 7 ? 1 : 0, MPI_COMM_WORLD); /* BUG: tag 1 at iteration 7 */",
    )
}

#[test]
fn a_wrong_value_at_iteration_2001_is_refuted() {
    expect_violated(&[], &wrong_value_far_out(), &["invariant", "assertion"]);
}

#[test]
fn a_skipped_receive_is_refuted() {
    expect_violated(
        &[],
        &skipped_receive(),
        &["invariant", "assertion", "deadlock"],
    );
}

#[test]
fn a_changed_tag_is_refuted() {
    expect_violated(&[], &changed_tag(), &["invariant", "deadlock"]);
}

/// A message crosses the loop head at every arrival (runs: invariant at every composed
/// arrival, x == N on both ranks, exit 0, every N, both modes). The aligned form reports a
/// possible deadlock (its state after entry has nothing in flight); the lagged records
/// prove the program.
const PIPELINE: &str = r#"/* rank 1 sends i + 1 in every iteration i; rank 0 receives it one iteration later
 * (iterations 1 .. N-1) and the last one after the loop: a message crosses the loop
 * head at every arrival. Holds for all N. */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS input {N >= 0} int
#define N 3

int main(int argc, char *argv[]) {
    int myrank, i = 0, x = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
#pragma TASS collective invariant I 0 <= i && i <= N && i == PROC[1 - PID]@main.i && (PID == 0 ? x == (i >= 2 ? i - 1 : 0) : x == i)
    while (i < N) {
#ifdef FEVS_CONCRETE
        printf("SNAP I %d i=%d x=%d\n", myrank, i, x);
#endif
        if (myrank == 1) {
            x = i + 1;
            MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        } else if (i >= 1) {
            MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        }
        i++;
    }
#ifdef FEVS_CONCRETE
    printf("SNAP I %d i=%d x=%d\n", myrank, i, x);
#endif
    if (myrank == 0 && N >= 1)
        MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    assert(x == N);
    MPI_Finalize();
    return 0;
}
"#;

#[test]
fn a_message_crossing_the_head_every_iteration_holds() {
    expect_holds(&[], PIPELINE);
}

/// Reduced and full search agree at a fixed N (the full search lets rank 1 run ahead
/// without bound when N is not fixed: the paper's Sec. 3).
#[test]
fn reduced_and_full_search_agree_at_fixed_n() {
    for search in [&["-i", "N=2"][..], &["-i", "N=2", "--por", "off"][..]] {
        expect_holds(search, &stagger());
        expect_holds(search, PIPELINE);
        expect_violated(search, &stagger_bad(), &["invariant"]);
        expect_violated(search, &lost_last_message(), &["deadlock"]);
        expect_violated(search, &exits_early(), &["invariant"]);
        expect_violated(search, &no_lag(), &["invariant"]);
    }
}

/// What decides a verdict here: the verdict, the first violation's property and
/// certainty.
fn outcome(r: &Value) -> (Value, Value, Value) {
    let v = &r["violations"][0];
    (
        r["verdict"].clone(),
        v["property"].clone(),
        v["certainty"].clone(),
    )
}

/// The verdicts that need the second run (the aligned run refuses stagger and its
/// variants: rank 1 must run ahead; it finds only possible violations in the pipeline)
/// are the same with `--jobs 2`: the second run runs there too.
#[test]
fn verdicts_with_the_second_run_do_not_depend_on_jobs() {
    let programs = [
        ("stagger", stagger()),
        ("stagger_bad", stagger_bad()),
        ("pipeline", PIPELINE.to_string()),
        ("lost last message", lost_last_message()),
        ("no lag", no_lag()),
        ("skipped receive", skipped_receive()),
        ("changed tag", changed_tag()),
    ];
    for (name, text) in programs {
        let (_, one) = run(&["--jobs", "1"], &text);
        let (_, two) = run(&["--jobs", "2"], &text);
        assert_eq!(outcome(&one), outcome(&two), "{name}\n{one:#}\n{two:#}");
        assert_ne!(one["verdict"], "error", "{name}: {one:#}");
        // the second run ran in both
        for r in [&one, &two] {
            let second = r["loop_runs"]["second_run"].as_str().unwrap_or_default();
            assert!(second.starts_with("started"), "{name}: {r:#}");
        }
    }
}

/// `--stats`' figures: both runs' counters, each with its invariant checks and their
/// prover calls, and the total as `stats`.
#[test]
fn both_runs_figures_are_reported() {
    let r = expect_holds(&[], &stagger());
    let runs = &r["loop_runs"];
    let figure = |run: &str, key: &str| runs[run][key].as_u64().unwrap_or(0);
    assert!(figure("aligned", "states_seen") > 0, "{r:#}");
    assert!(figure("aligned", "invariant_checks") > 0, "{r:#}");
    assert!(figure("lagged", "invariant_checks") >= 4, "{r:#}");
    assert!(figure("lagged", "invariant_prover_calls") > 0, "{r:#}");
    let total = r["stats"]["invariant_checks"].as_u64().unwrap_or(0);
    assert_eq!(
        total,
        figure("aligned", "invariant_checks") + figure("lagged", "invariant_checks"),
        "{r:#}"
    );
    let second = runs["second_run"].as_str().unwrap_or_default();
    assert!(second.contains("decided (holds)"), "{second}");
    // the text form shows both lines
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "-n", "2", "--stats", "-v", "--timeout", "120"])
        .arg(inline(&stagger()))
        .output()
        .expect("run tass");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.contains("  aligned run: stats:"), "{stdout}");
    assert!(stdout.contains("  lagged run:  stats:"), "{stdout}");
    assert!(
        stderr.contains("second run with lagged loop records: started: the aligned run refused"),
        "{stderr}"
    );
}

/// The second run's state budget (`--max-states` sets it) stops it: the first run's
/// refusal stays (never a verdict the second run did not reach), and the report says so.
#[test]
fn a_second_run_out_of_budget_keeps_the_first_report() {
    let (code, r) = run(&["--max-states", "100"], &stagger());
    assert_eq!(r["verdict"], "error", "{r:#}");
    assert_eq!(code, 2, "{r:#}");
    let second = r["loop_runs"]["second_run"].as_str().unwrap_or_default();
    assert!(second.contains("it was stopped"), "{second}");
    assert!(second.contains("100 states"), "{second}");
}

/// lise_race.c with the rounds tied, at 2 processes (correct: one sender; mpirun -np 2,
/// N = 0, 1, 3: every run ends). Rank 1's sends are buffered while rank 0 receives from
/// MPI_ANY_SOURCE: in the lagged search rank 1 runs ahead without bound. The second run
/// stops as soon as it is more records ahead than tass follows (it used to run 30 s),
/// and the refusal stays: never holds.
#[test]
fn a_process_running_ahead_without_bound_stops_the_second_run() {
    let race = std::fs::read_to_string(fevs_mpi("lise_race.c")).expect("read lise_race.c");
    let tied = race.replace(
        "#pragma TASS collective invariant SUM s == t\n",
        "#pragma TASS collective invariant SUM s == t && round == PROC[0]@main.round\n",
    );
    assert_ne!(tied, race);
    let (code, r) = run(&[], &tied);
    assert_eq!(r["verdict"], "error", "{r:#}");
    assert_eq!(code, 2, "{r:#}");
    let second = r["loop_runs"]["second_run"].as_str().unwrap_or_default();
    assert!(second.contains("incomplete records"), "{second}");
    assert!(
        r["loop_runs"]["lagged"]["states_seen"].as_u64().is_some(),
        "{r:#}"
    );
}

/// `fevs/mpi/lise_stagger_wide.c` (stride 6): rank 0 receives at i == 0 what rank 1
/// sends at i == 5; the lagged search needs 10 incomplete records (mpirun -np 2,
/// N = 0..3, eager and zero-buffer, `fevs/lise_check.py wide`: the invariant holds at
/// every composed arrival, x == 6N on both ranks, exit 0; the `_bad` twin, rank 1
/// sending i instead of i + 1: the invariant fails at the second composed arrival, rank 0
/// aborts, for N >= 1). By default the lagged run follows max(8, 2n + 4) = 8 incomplete
/// records: refused (an error naming `--max-lag`, never a verdict), also at 9;
/// `--max-lag 10` decides both.
#[test]
fn a_program_needing_lag_10_is_decided_only_with_max_lag_raised() {
    let wide = std::fs::read_to_string(fevs_mpi("lise_stagger_wide.c")).expect("read wide");
    let wide_bad =
        std::fs::read_to_string(fevs_mpi("lise_stagger_wide_bad.c")).expect("read wide bad");
    let (code, r) = run(&[], &wide);
    assert_eq!((code, &r["verdict"]), (2, &Value::from("error")), "{r:#}");
    let second = r["loop_runs"]["second_run"].as_str().unwrap_or_default();
    assert!(
        second.contains("incomplete records") && second.contains("--max-lag"),
        "{second}"
    );
    expect_holds(&["--max-lag", "10"], &wide);
    expect_violated(&["--max-lag", "10"], &wide_bad, &["invariant"]);
    // a limit below what the program needs is refused the same way
    let (code, r) = run(&["--max-lag", "9"], &wide);
    assert_eq!((code, &r["verdict"]), (2, &Value::from("error")), "{r:#}");
}

#[test]
fn max_lag_zero_is_a_usage_error() {
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "-n", "2", "--max-lag", "0"])
        .arg(fevs_mpi("lise_stagger.c"))
        .output()
        .expect("run tass");
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("--max-lag must be at least 1"), "{err}");
}
