//! Collective loop invariants over several processes: the second run with
//! lagged loop records (`tass_state`'s `loop_lag`).
//!
//! `tass verify` first runs the aligned form (processes wait for each other
//! at the invariant loops' heads). When it refused the run (a process must
//! run iterations ahead, a message crosses the head) or found only
//! *possible* violations (which its generic state with nothing in flight may
//! make up), the program is run again with lagged loop records, which are
//! sound on their own. The second run's report replaces a refusal when it
//! decides (holds or violated); after possible violations it is taken only
//! if it says `holds` (a proof for every reachable state): possible
//! violations are never replaced by anything weaker.
//!
//! The second run is bounded three ways, so that a program it cannot decide
//! costs little: the engine stops it as soon as one process runs more loop
//! arrivals ahead than it follows (the search could not end: `loop_lag`'s
//! `lag_limit`); after possible violations it stops at its first violation
//! (it can then only keep the first report); and it gets a budget of states
//! and of time ([`SecondRunBudget`]). Either way the report says what
//! happened ([`LoopRuns`]): `--stats` shows both runs' figures, `-v` why the
//! second run was started, skipped or stopped. The second run is the search
//! of one thread, also under `--jobs N`, so verdicts do not depend on `--jobs`.

use std::sync::Arc;
use std::time::Duration;

use tass_model::api::Model;
use tass_state::api::EngineError;

use super::{RunSetup, SetupError};
use crate::options::Options;
use crate::report::{Certainty, LoopRuns, Report, Verdict};
use crate::system::verify_with;

/// The limits of the second run.
struct SecondRunBudget {
    /// States: a lagged search that ends does so after a few hundred (the
    /// paper's `stagger`: 219); one that does not, grows without end.
    states: u64,
    /// Time, also when `--timeout` gives more.
    time: Duration,
}

impl SecondRunBudget {
    /// `--max-states` when given (the user's lever), else 40 times the
    /// first run's states (the lagged search explores the schedules the
    /// aligned one cut) and at least `MIN_STATES`; `--timeout` when given
    /// (the user's time budget, so a loaded machine can be given more), else
    /// `MAX_SECONDS` s. States, not time, are the budget that stops a run in
    /// practice: the verdict does not depend on the machine's load.
    fn after(first: &Report, options: &Options) -> SecondRunBudget {
        const MIN_STATES: u64 = 5_000;
        const STATES_PER_FIRST_RUN_STATE: u64 = 40;
        const MAX_SECONDS: u64 = 30;
        let states = first
            .stats
            .states_seen
            .saturating_mul(STATES_PER_FIRST_RUN_STATE)
            .max(MIN_STATES);
        let time = Duration::from_secs(MAX_SECONDS);
        SecondRunBudget {
            states: options.max_states.unwrap_or(states),
            time: options.timeout.unwrap_or(time),
        }
    }
}

/// What the first run's report leaves for a second run to do.
enum Need {
    /// The aligned run refused: a decided second report replaces it.
    Decision,
    /// The aligned run found only possible violations: a second `holds`
    /// replaces them.
    Proof,
}

/// Runs the lagged second run when `first` (the aligned run's report, of
/// one thread or of `--jobs N`) needs it, and returns the report to give
/// the user with [`Report::loop_runs`] filled in. Models without collective
/// loop invariants over several processes come back unchanged.
pub(super) fn second_run_if_needed(
    setup: &RunSetup,
    model: &Arc<Model>,
    options: &Options,
    first: Report,
) -> Result<Report, SetupError> {
    let mut lagged = setup.engine(Arc::clone(model), options.procs)?;
    if !lagged.engine.aligns_loops() {
        return Ok(first);
    }
    let runs = |second_run: String, lagged: Option<crate::report::Stats>| LoopRuns {
        aligned: first.stats,
        lagged,
        second_run,
    };
    let need = match first.verdict {
        Verdict::Error if first.aligned_loops_stuck => Need::Decision,
        Verdict::Violated
            if first
                .violations
                .iter()
                .all(|v| v.certainty == Certainty::Possible) =>
        {
            Need::Proof
        }
        verdict => {
            let why = match verdict {
                Verdict::Holds => "not needed: the aligned run proved the program",
                Verdict::Violated => "not needed: the aligned run found a certain violation",
                Verdict::Inconclusive => {
                    "skipped: the aligned run reached a limit (a lagged run explores more)"
                }
                Verdict::Error => "skipped: the aligned run stopped at an error of its own",
            };
            let mut report = first.clone();
            report.loop_runs = Some(runs(why.to_string(), None));
            return Ok(report);
        }
    };
    if options.shard.is_some() && lagged.engine.set_lagged_loops() {
        let loop_runs = runs(
            "not made: --shard (the second run is not split into shards)".to_string(),
            None,
        );
        return Ok(refused_under_shard(&first, &need, loop_runs));
    }
    lagged.engine.set_max_lag(options.max_lag);
    if !lagged.engine.set_lagged_loops() {
        let mut report = first.clone();
        report.loop_runs = Some(runs(
            "skipped: lagged loop records are for collective invariants in verify only \
             (the program has a joint invariant)"
                .to_string(),
            None,
        ));
        return Ok(report);
    }
    let budget = SecondRunBudget::after(&first, options);
    let mut bounded = options.clone();
    bounded.timeout = Some(budget.time);
    bounded.max_states = Some(budget.states);
    // one thread (also after `--jobs N`); a `--shard K/N` run searches its part
    bounded.jobs = 1;
    if let Need::Proof = need {
        // only a proof helps: the first violation ends the run
        bounded.max_violations = 1;
    }
    let started_because = match need {
        Need::Decision => "started: the aligned run refused the program (a process waits at \
                           a loop head for another, or a message crosses the head); lagged \
                           records may decide"
            .to_string(),
        Need::Proof => "started: the aligned run found only possible violations; lagged \
                        records may prove the program"
            .to_string(),
    };
    let second = verify_with(&mut lagged, &bounded, options.procs);
    let decided = match second.verdict {
        Verdict::Holds => true,
        Verdict::Violated => matches!(need, Need::Decision),
        _ => false,
    };
    let outcome = second_outcome(&second, decided, &budget);
    let mut stats = first.stats;
    stats.absorb_part(&second.stats);
    stats.time_s = first.stats.time_s + second.stats.time_s;
    let loop_runs = runs(format!("{started_because}; {outcome}"), Some(second.stats));
    let mut report = if decided { second.clone() } else { first };
    if !decided && matches!(need, Need::Decision) {
        report.warnings.push(format!(
            "a second run with lagged loop records (processes may be iterations apart) did not \
             decide either: {}",
            second
                .inconclusive_reason
                .clone()
                .or(second.error.clone())
                .unwrap_or_else(|| "no verdict".to_string())
        ));
    }
    report.stats = stats;
    report.loop_runs = Some(loop_runs);
    Ok(report)
}

/// `--shard K/N` when the program needs the second run: refused by name.
///
/// A shard's aligned run searches its part of the aligned search, but the
/// aligned form is sound only if *no* part gets stuck, and a second run on
/// one part of the lagged search (whose tree, and so whose parts, differ
/// from the aligned one's) would leave the other parts of the lagged search
/// to shards that never run it: merged, the shards could say `holds` where
/// the whole run did not prove it, or differ from the whole run's verdict.
/// So the shard's report is an error (exit 2), which `tass merge` keeps;
/// shards whose aligned run decided alone stay as they are (merged, they
/// cover the whole aligned search).
fn refused_under_shard(first: &Report, need: &Need, runs: LoopRuns) -> Report {
    let why = match need {
        Need::Decision => {
            "its aligned run refused the program (a process waits at a loop head \
                           for another, or a message crosses the head)"
        }
        Need::Proof => "its aligned run found only possible violations",
    };
    let mut report = crate::report::refusal(&EngineError::invalid(
        format!(
            "--shard: {why}, and the second run with lagged loop records that would decide \
             it searches the program whole (a part of the lagged search cannot be checked \
             on its own, and the shards split the aligned search, not the lagged one); \
             run the program without --shard (--jobs N runs the first search in parallel)"
        ),
        None,
    ));
    report.stats = first.stats;
    // the shard's part, so that `tass merge` takes the report (and keeps the error)
    report.split = first.split.clone();
    report.loop_runs = Some(runs);
    report
}

/// What became of the second run, in words (for `-v`).
fn second_outcome(second: &Report, decided: bool, budget: &SecondRunBudget) -> String {
    let verdict = second.verdict.as_str();
    if decided {
        return format!("it decided ({verdict}) and its report is given");
    }
    let why = match second.verdict {
        Verdict::Violated => {
            "it found violations too (they may stem from its widened states); the first \
             report is kept"
                .to_string()
        }
        Verdict::Inconclusive => format!(
            "it was stopped ({}; its budget: {} states, {} s; --max-states N sets it); the \
             first report is kept",
            second.inconclusive_reason.as_deref().unwrap_or("a limit"),
            budget.states,
            budget.time.as_secs()
        ),
        _ => format!(
            "it was stopped ({}); the first report is kept",
            second
                .error
                .as_deref()
                .unwrap_or("an error")
                .trim_start_matches("error: ")
        ),
    };
    format!("it did not decide: {why}")
}
