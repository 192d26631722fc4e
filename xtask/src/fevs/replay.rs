//! `cargo xtask fevs --replay`: every selected run that expects a violation is
//! run with `--trace`, and the trace is replayed concretely (`tass replay`:
//! gcc with sanitizers, or mpicc and mpirun). One line per run says whether
//! the concrete run reproduced the violation, could not replay it, or ran
//! without reproducing it; the figures go to docs/TESTING.md.

use std::path::Path;
use std::process::Command;

use super::{fevs_dir, run_with_limit, target_dir, tool_available, Entry, Options, Verdict};

/// What one replay showed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Replayed {
    Reproduced,
    NotReproduced,
    CannotReplay,
    /// No trace (tass did not report the violation) or a bad trace.
    Failed,
}

impl Replayed {
    fn as_str(self) -> &'static str {
        match self {
            Replayed::Reproduced => "reproduced",
            Replayed::NotReproduced => "not reproduced",
            Replayed::CannotReplay => "cannot replay",
            Replayed::Failed => "FAILED",
        }
    }
}

/// Runs the replays; exit status 0 unless a run could not be replayed at all
/// for a reason of the harness (no trace written), 1 then.
pub(super) fn replay_all(chosen: &[&Entry], tass: &Path, opts: &Options) -> i32 {
    let require = std::env::var("TASS_REQUIRE_MPI").is_ok_and(|v| v == "1");
    if !tool_available("mpicc") || !tool_available("mpirun") {
        let msg = "mpicc / mpirun not found (install openmpi-bin libopenmpi-dev)";
        if require {
            eprintln!("fevs --replay: {msg}, and TASS_REQUIRE_MPI=1");
            return 1;
        }
        println!("fevs --replay: skipped: {msg}");
        return 0;
    }
    let violating: Vec<&Entry> = chosen
        .iter()
        .copied()
        .filter(|e| e.expect == Verdict::Violated)
        .collect();
    let work_root = target_dir().join("fevs-replay");
    let mut counts = [0usize; 4];
    for e in &violating {
        let (outcome, detail) = replay_one(e, tass, &work_root.join(&e.name), opts);
        counts[outcome as usize] += 1;
        println!(
            "{:<34} {:<20} {:<15} {}",
            e.name,
            e.property.as_deref().unwrap_or("-"),
            outcome.as_str(),
            detail
        );
    }
    println!(
        "\n{} violating runs: {} reproduced, {} not reproduced, {} cannot replay, {} failed",
        violating.len(),
        counts[Replayed::Reproduced as usize],
        counts[Replayed::NotReproduced as usize],
        counts[Replayed::CannotReplay as usize],
        counts[Replayed::Failed as usize]
    );
    i32::from(counts[Replayed::Failed as usize] > 0)
}

/// `tass <args> --trace` then `tass replay`: the outcome and the replay's
/// last line (or what went wrong).
fn replay_one(e: &Entry, tass: &Path, work: &Path, opts: &Options) -> (Replayed, String) {
    if let Err(err) = std::fs::create_dir_all(work) {
        return (
            Replayed::Failed,
            format!("cannot create {}: {err}", work.display()),
        );
    }
    let trace = work.join("trace.json");
    let mut search = Command::new(tass);
    search
        .args(&e.args)
        .arg("--trace")
        .arg(&trace)
        .arg("-q")
        .current_dir(fevs_dir());
    match run_with_limit(&mut search, opts.run_timeout) {
        Ok(run) if run.exit == Some(1) => {}
        Ok(run) => {
            return (
                Replayed::Failed,
                format!("tass exited {:?}, not with a violation", run.exit),
            )
        }
        Err(err) => return (Replayed::Failed, err),
    }
    let mut replay = Command::new(tass);
    replay
        .arg("replay")
        .arg(&trace)
        .arg("--dir")
        .arg(work.join("harness"))
        .current_dir(fevs_dir());
    let run = match run_with_limit(&mut replay, opts.run_timeout) {
        Ok(run) => run,
        Err(err) => return (Replayed::Failed, err),
    };
    let last = run
        .stdout
        .lines()
        .chain(run.stderr.lines())
        .rfind(|l| is_outcome_line(l))
        .unwrap_or("")
        .trim_start_matches("replay: ")
        .to_string();
    let detail: String = last.chars().take(110).collect();
    let outcome = match run.exit {
        Some(1) => Replayed::Reproduced,
        Some(3) if last.contains("cannot replay") || last.starts_with("cannot") => {
            Replayed::CannotReplay
        }
        Some(3) => Replayed::NotReproduced,
        _ => Replayed::Failed,
    };
    (outcome, detail)
}

/// A line of `tass replay` that says how the replay ended (not a note, nor
/// where the harness is, how it was built or run).
fn is_outcome_line(line: &str) -> bool {
    let Some(rest) = line.strip_prefix("replay: ") else {
        return false;
    };
    !["note", "run ", "harness in", "built"]
        .iter()
        .any(|p| rest.starts_with(p))
}
