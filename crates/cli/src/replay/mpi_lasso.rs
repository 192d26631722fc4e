//! Replaying the lasso of an MPI program: every rank of the real program runs
//! under its own gdb (`mpirun -np N sh -c 'exec gdb ... -x
//! tass_replay_lasso_$OMPI_COMM_WORLD_RANK.gdb ./harness'`), and the lasso is
//! read rank by rank.
//!
//! A real MPI run has no global state to stop in, but each rank's own run is
//! what the lasso fixes: the lasso's steps of rank r, its stem and then its
//! cycle, again and again. The ranks' runs are driven into the lasso's
//! schedule where MPI leaves a choice (the source of each wildcard receive,
//! stem then cycle over and over, by the PMPI layer of `wildcard.rs`); the
//! rest of a rank's run is fixed by its inputs and the messages it gets. So:
//! - every rank's MPI calls are recorded (a gdb breakpoint on each MPI
//!   function the program names) and must be the lasso's, in order: the
//!   rank's calls in the stem, then in the cycle again and again;
//! - a rank that moves in the cycle stops (a gdb breakpoint) at its first
//!   cycle step's line, as often as its stem and [`PASSES`] passes of its
//!   cycle reach it, and each pass must start in the first pass's call stack
//!   with the same values of the atoms that read this rank alone; then gdb
//!   holds it there (a held rank stops no other: a rank needs of the others
//!   only the steps before its own stop);
//! - a rank that takes no step in the cycle (the trace's cycle mark says
//!   where it stays: blocked in an MPI call at a line, or terminated) must be
//!   found there once the moving ranks are held: its inferior is interrupted
//!   (SIGINT to the pid its gdb wrote) and its stack read.
//!
//! Which MPI call of which rank each step is part of, and its phase, is read
//! from the steps' `mpi` marks (`mpi_calls.rs`): an `MPI_Ssend` is two steps
//! (post, complete), an `MPI_Sendrecv` up to three, a collective one step of
//! one member that every member's call is part of. Only programs whose MPI
//! calls are among [`FOLLOWED_CALLS`] are replayed (others are refused by
//! name). The polls' outcomes (`MPI_Test`, `MPI_Testall`, `MPI_Iprobe`) are
//! forced to the lasso's by a PMPI layer built into the harness.
//!
//! Atoms over several ranks (`PROC[0]@cs && PROC[1]@cs`, `{PROC[0].a ==
//! PROC[1].a}`) hold in global states a real run never stops in: they are
//! not checked, and the outcome says so by name.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use super::judge::Outcome;
use super::lasso::{
    condition_atoms, frame_function, judge_passes, parse_stops, Place, Stop, PASSES,
};
use super::mpi_calls::{self, CallMark, FOLLOWED_CALLS};
use super::{ReplaySettings, Target};

/// The least time the ranks get to reach their last stops.
const MIN_LIMIT: Duration = Duration::from_secs(30);

/// How long the ranks that stay put get, once the others are held, to make
/// the MPI calls that bring them there.
const STILL_GRACE: Duration = Duration::from_secs(10);

/// One step of the trace, with its rank.
#[derive(Clone)]
pub(super) struct RankStep {
    pub place: Place,
    pub source: String,
    pub process: usize,
    /// The MPI calls the step is part of (the trace's `mpi` marks).
    pub marks: Vec<CallMark>,
}

/// The trace's lasso, split at the cycle mark; the mark's notes of the ranks
/// that take no step in the cycle (`process K` -> where it stays).
pub(super) struct MpiLasso<'a> {
    pub stem: &'a [RankStep],
    pub cycle: &'a [RankStep],
    pub still: BTreeMap<usize, String>,
}

/// What one rank is checked for.
enum RankPlan {
    /// It moves in the cycle: break at `anchor`, stop `needed` times.
    Moving {
        /// The MPI calls it makes up to its last stop.
        calls: Vec<String>,
        anchor: Place,
        /// Stops before the first pass's start.
        before: usize,
        /// Stops per pass.
        per_pass: usize,
        atoms: Vec<String>,
    },
    /// It stays where the cycle mark says (`None`: the trace does not say),
    /// after the MPI calls of its stem.
    Still(Option<String>, Vec<String>),
}

/// The file names the runs write in the harness directory.
fn file(dir: &Path, what: &str, rank: usize) -> std::path::PathBuf {
    dir.join(format!("tass_replay_lasso_{what}_{rank}"))
}

/// Replays `lasso` of the MPI program built in `dir` (`./harness`).
pub(super) fn replay(
    target: &Target,
    lasso: &MpiLasso,
    program_args: &[String],
    settings: &ReplaySettings,
    dir: &Path,
) -> Outcome {
    if !super::concrete::available("gdb") {
        return Outcome::Unreplayable("gdb is not installed (needed to replay a lasso)".into());
    }
    let formula = target.trace["claim"].as_str().unwrap_or("");
    let (atoms_by_rank, unread) = rank_atoms(formula, target.procs);
    let names = mpi_functions(&program_texts(target));
    if !mpi_calls::has_marks(lasso.stem) && !mpi_calls::has_marks(lasso.cycle) {
        return Outcome::Unreplayable(
            "the trace's steps do not say which MPI call each is part of (a trace of an older \
             tass): verify the program again and replay the new trace"
                .into(),
        );
    }
    let Some(turn) = mpi_calls::cycle_start(lasso.cycle, target.procs) else {
        return Outcome::Unreplayable(
            "no step of the cycle is a start where every rank that moves in it is held before \
             its own line (some rank moves only inside other ranks' steps, a collective or a \
             receive they complete): read the stem and the cycle in the trace"
                .into(),
        );
    };
    // The same lasso with its cycle started at `turn` (the stem takes the
    // steps before it): each rank's first move in the cycle is a line of its own.
    let stem: Vec<RankStep> = lasso
        .stem
        .iter()
        .chain(&lasso.cycle[..turn])
        .cloned()
        .collect();
    let cycle: Vec<RankStep> = lasso.cycle[turn..]
        .iter()
        .chain(&lasso.cycle[..turn])
        .cloned()
        .collect();
    let lasso = &MpiLasso {
        stem: &stem,
        cycle: &cycle,
        still: lasso.still.clone(),
    };
    let mut plans = Vec::new();
    for (rank, atoms) in atoms_by_rank.iter().enumerate() {
        let plan = plan_rank(rank, lasso, atoms);
        if let RankPlan::Still(Some(note), _) = &plan {
            if note.ends_with("never moves") {
                return Outcome::Unreplayable(format!(
                    "process {rank} is enabled and never moves in the cycle ({note}): a run \
                     without fairness, which a real MPI run cannot be held to"
                ));
            }
        }
        plans.push(plan);
    }
    for (rank, plan) in plans.iter().enumerate() {
        let script = gdb_script(rank, plan, &names, dir);
        let path = dir.join(format!("tass_replay_lasso_{rank}.gdb"));
        if let Err(e) = std::fs::write(&path, script) {
            return Outcome::Unreplayable(format!("{}: {e}", path.display()));
        }
    }
    let run = run_ranks(target.procs, &plans, program_args, settings, dir);
    settings.say(&format!("replay: run 1: {}", run.command));
    let mut findings = Vec::new();
    for (rank, plan) in plans.iter().enumerate() {
        let log = std::fs::read_to_string(file(dir, "log", rank)).unwrap_or_default();
        match judge_rank(rank, plan, &log) {
            Ok(finding) => findings.push(finding),
            Err(outcome) => return outcome,
        }
    }
    if let Some(why) = mpi_calls::poll_contradicts_progress(target.trace, dir, target.procs) {
        return Outcome::NotReproduced(why);
    }
    let mut text = format!(
        "the run followed the lasso rank by rank: {}",
        findings.join("; ")
    );
    if !unread.is_empty() {
        text.push_str(&format!(
            " (not checked: atoms over several ranks, which hold in global states a real \
             run never stops in: {})",
            unread
                .iter()
                .map(|a| format!("{{{a}}}"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
    }
    Outcome::Reproduced(text)
}

fn program_texts(target: &Target) -> Vec<String> {
    target
        .files
        .iter()
        .filter_map(|f| std::fs::read_to_string(f).ok())
        .collect()
}

/// Why the lasso of this program is not replayed, if it calls MPI
/// functions the replay does not follow (by name).
pub(super) fn unfollowed_calls(target: &Target) -> Option<String> {
    let names = mpi_functions(&program_texts(target));
    let unfollowed: Vec<&str> = names
        .iter()
        .map(String::as_str)
        .filter(|n| !FOLLOWED_CALLS.contains(n))
        .collect();
    (!unfollowed.is_empty()).then(|| {
        format!(
            "the program calls {}: the lasso replay follows each rank's MPI calls only for \
             {}; read the stem and the cycle in the trace",
            unfollowed.join(", "),
            FOLLOWED_CALLS.join(", ")
        )
    })
}

/// The breakpoint and the stop counts of `rank`, or where it stays.
fn plan_rank(rank: usize, lasso: &MpiLasso, atoms: &[String]) -> RankPlan {
    // The rank's steps that run code at their line (not the completion of a
    // call it entered before, not MPI's progress on its posted receives).
    let line_steps = |steps: &[RankStep]| -> Vec<Place> {
        steps
            .iter()
            .filter(|s| mpi_calls::reaches_line(s, rank))
            .map(|s| s.place.clone())
            .collect()
    };
    let stem = line_steps(lasso.stem);
    let cycle: Vec<(usize, &RankStep)> = lasso
        .cycle
        .iter()
        .enumerate()
        .filter(|(_, s)| mpi_calls::reaches_line(s, rank))
        .collect();
    if cycle.is_empty() {
        let mut calls = mpi_calls::calls_entered(lasso.stem, rank);
        // A call entered in the stem that never returns is the one the
        // rank stays in (the cycle mark names it again).
        if mpi_calls::call_left_open(lasso.stem, rank) {
            calls.pop();
        }
        return RankPlan::Still(lasso.still.get(&rank).cloned(), calls);
    }
    // A label's own step has no code of its own for gdb to stop at.
    let j = cycle
        .iter()
        .position(|(_, s)| !is_label_step(&s.source))
        .unwrap_or(0);
    let anchor = cycle[j].1.place.clone();
    // The cycle split at the anchor (the calls other ranks' steps complete
    // for this one sit between its own steps).
    let (head, tail) = lasso.cycle.split_at(cycle[j].0);
    let mut calls = mpi_calls::calls_entered(lasso.stem, rank);
    calls.extend(mpi_calls::calls_entered(head, rank));
    for _ in 0..PASSES {
        calls.extend(mpi_calls::calls_entered(tail, rank));
        calls.extend(mpi_calls::calls_entered(head, rank));
    }
    let at = |places: &mut dyn Iterator<Item = &Place>| places.filter(|p| **p == anchor).count();
    RankPlan::Moving {
        before: at(&mut stem.iter()) + at(&mut cycle[..j].iter().map(|(_, s)| &s.place)),
        per_pass: at(&mut cycle.iter().map(|(_, s)| &s.place)),
        anchor,
        atoms: atoms.to_vec(),
        calls,
    }
}

/// The MPI function a step calls (`MPI_Recv` of `MPI_Recv(&x, ...);`).
fn mpi_call_name(source: &str) -> Option<String> {
    let at = source.find("MPI_")?;
    let name: String = source[at..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    source[at + name.len()..]
        .trim_start()
        .starts_with('(')
        .then_some(name)
}

/// The MPI functions the program's text calls, each once.
fn mpi_functions(texts: &[String]) -> Vec<String> {
    let mut names: Vec<String> = texts
        .iter()
        .flat_map(|t| t.match_indices("MPI_").map(move |(at, _)| &t[at..]))
        .filter_map(mpi_call_name)
        .collect();
    names.sort();
    names.dedup();
    names
}

/// `cs: l = ...`: the step of a label (the label's name, a colon, not `::`).
pub(super) fn is_label_step(source: &str) -> bool {
    let name: String = source
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
        .collect();
    !name.is_empty()
        && name != "default"
        && source[name.len()..].trim_start().starts_with(':')
        && !source[name.len()..].trim_start().starts_with("::")
}

/// The formula's `{EXPR}` atoms each rank can evaluate alone: `PROC[r].x`
/// as `x` on rank r, an atom without `PROC` on rank 0 (atoms are read as
/// process 0 sees the state); and the atoms naming several ranks.
fn rank_atoms(formula: &str, procs: usize) -> (Vec<Vec<String>>, Vec<String>) {
    let mut by_rank = vec![Vec::new(); procs];
    let mut unread = Vec::new();
    for atom in condition_atoms_raw(formula) {
        let ranks: Vec<usize> = (0..procs)
            .filter(|r| atom.contains(&format!("PROC[{r}]")))
            .collect();
        match ranks.as_slice() {
            [] if !atom.contains("PROC[") => {
                if let Some(first) = by_rank.first_mut() {
                    first.push(atom)
                }
            }
            [r] if atom.matches("PROC[").count()
                == atom.matches(&format!("PROC[{r}].")).count() =>
            {
                by_rank[*r].push(atom.replace(&format!("PROC[{r}]."), ""))
            }
            _ => unread.push(atom),
        }
    }
    (by_rank, unread)
}

/// The `{EXPR}` atoms as written (`condition_atoms` drops `PROC[0].`).
fn condition_atoms_raw(formula: &str) -> Vec<String> {
    // Mark PROC[0]. so that condition_atoms keeps it, then restore.
    condition_atoms(&formula.replace("PROC[0].", "PROC[0]\u{1}"))
        .into_iter()
        .map(|a| a.replace("PROC[0]\u{1}", "PROC[0]."))
        .collect()
}

/// The gdb commands of one rank: stop at `main` and write the pid; a moving
/// rank's breakpoint prints its stack and atoms and holds the rank after its
/// last stop; then (held, interrupted or ended) the rank's stack is printed,
/// a file says so, and gdb waits for the replay's "finish" file.
fn gdb_script(rank: usize, plan: &RankPlan, names: &[String], dir: &Path) -> String {
    let name = |what: &str| {
        file(dir, what, rank)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let mut s = format!(
        "set pagination off\nset confirm off\nset width 0\n\
         set logging file {log}\nset logging overwrite on\nset logging redirect on\n\
         set logging enabled on\nset $tass_stops = 0\nbreak main\nrun\n\
         eval \"shell echo %d > {pid}\", (int)getpid()\ndelete\n",
        log = name("log"),
        pid = name("pid"),
    );
    if let RankPlan::Moving {
        anchor,
        before,
        per_pass,
        atoms,
        ..
    } = plan
    {
        let needed = before + PASSES * per_pass + 1;
        s.push_str(&format!(
            "break {}:{}\ncommands\nsilent\nset $tass_stops = $tass_stops + 1\n\
             printf \"TASS-STOP\\n\"\nbacktrace\n",
            anchor.file, anchor.line
        ));
        for (k, atom) in atoms.iter().enumerate() {
            s.push_str(&format!("printf \"TASS-ATOM {k} %d\\n\", (int)({atom})\n"));
        }
        s.push_str(&format!(
            "if $tass_stops >= {needed}\nprintf \"TASS-ENOUGH\\n\"\nelse\ncontinue\nend\nend\n"
        ));
    }
    // A wrapper's call of the library's function (the harness's MPI_Init,
    // the wildcard layer's MPI_Recv) is not another call.
    for name in names {
        s.push_str(&format!(
            "break {name} if !$_caller_matches(\"^P?MPI_\")\ncommands\nsilent\nprintf \"TASS-CALL {name}\\n\"\ncontinue\nend\n"
        ));
    }
    s.push_str(&format!(
        "continue\nprintf \"TASS-WHERE\\n\"\nbacktrace\nprintf \"TASS-END\\n\"\n\
         shell touch {stopped}\n\
         shell while [ ! -e {finish} ]; do sleep 0.1; done\nkill\nquit\n",
        stopped = name("stopped"),
        finish = "tass_replay_lasso_finish",
    ));
    s
}

struct RanksRun {
    command: String,
}

/// Runs the ranks under gdb; once every moving rank is held (or at the time
/// limit), interrupts the others so that they print where they are, then
/// lets every gdb end.
fn run_ranks(
    procs: usize,
    plans: &[RankPlan],
    program_args: &[String],
    settings: &ReplaySettings,
    dir: &Path,
) -> RanksRun {
    for rank in 0..procs {
        let _ = std::fs::remove_file(dir.join(format!("tass_replay_lasso_polls_{rank}")));
        for what in ["log", "pid", "stopped"] {
            let _ = std::fs::remove_file(file(dir, what, rank));
        }
    }
    let finish = dir.join("tass_replay_lasso_finish");
    let _ = std::fs::remove_file(&finish);
    // Ranks under gdb start slowly on a loaded machine, and the run ends as
    // soon as every moving rank is held: the limit only bounds a run that
    // does not follow the lasso, so it is at least MIN_LIMIT.
    let limit = settings.limit.max(MIN_LIMIT);
    let secs = limit.as_secs().max(1);
    let launcher =
        "exec gdb -batch -nx -x tass_replay_lasso_$OMPI_COMM_WORLD_RANK.gdb --args ./harness \"$@\"";
    let mut args: Vec<String> = ["-k", "3"].map(String::from).to_vec();
    args.push((secs + 5).to_string());
    args.extend(["mpirun", "--allow-run-as-root", "--oversubscribe"].map(String::from));
    args.extend(["-x".into(), format!("TASS_REPLAY_WHERE_AFTER={}", secs + 4)]);
    args.extend(["-np".into(), procs.to_string()]);
    args.extend(["sh", "-c", launcher, "sh"].map(String::from));
    args.extend(program_args.iter().cloned());
    let command = format!(
        "timeout {}",
        args.iter()
            .map(|a| if a.contains(' ') {
                format!("'{a}'")
            } else {
                a.clone()
            })
            .collect::<Vec<_>>()
            .join(" ")
    );
    let child = Command::new("timeout")
        .args(&args)
        .current_dir(dir)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn();
    let mut child = match child {
        Ok(c) => c,
        Err(e) => {
            return RanksRun {
                command: format!("{command} (cannot start: {e})"),
            }
        }
    };
    let stopped = |rank: usize| file(dir, "stopped", rank).exists();
    let deadline = Instant::now() + limit;
    let moving: Vec<usize> = (0..procs)
        .filter(|&r| matches!(plans[r], RankPlan::Moving { .. }))
        .collect();
    wait_until(&mut child, deadline, || moving.iter().all(|&r| stopped(r)));
    // A rank that stays put may still be on its way there (the held ranks
    // need nothing of it): its MPI calls, the last the one it stays in, are
    // logged as it makes them; give it until it has made them all.
    let arrived = |rank: usize| {
        let log = std::fs::read_to_string(file(dir, "log", rank)).unwrap_or_default();
        log.lines().filter(|l| l.starts_with("TASS-CALL ")).count()
            >= expected_calls(&plans[rank]).len()
    };
    let grace = (Instant::now() + STILL_GRACE).min(deadline.max(Instant::now()));
    wait_until(&mut child, grace, || {
        (0..procs).all(|r| stopped(r) || arrived(r))
    });
    for rank in (0..procs).filter(|&r| !stopped(r)) {
        if let Ok(pid) = std::fs::read_to_string(file(dir, "pid", rank)) {
            let _ = Command::new("kill").args(["-INT", pid.trim()]).status();
        }
    }
    let grace = Instant::now() + Duration::from_secs(5);
    wait_until(&mut child, grace, || (0..procs).all(stopped));
    let _ = std::fs::write(&finish, "");
    let end = Instant::now() + Duration::from_secs(10);
    wait_until(&mut child, end, || false);
    let _ = child.kill();
    let _ = child.wait();
    RanksRun { command }
}

/// Polls `done` every 50 ms until it holds, the child ends, or `deadline`.
fn wait_until(child: &mut Child, deadline: Instant, mut done: impl FnMut() -> bool) {
    while Instant::now() < deadline && !done() {
        if matches!(child.try_wait(), Ok(Some(_))) {
            return;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// The MPI calls a rank makes up to its last stop, or up to the call it
/// stays in (that one included).
fn expected_calls(plan: &RankPlan) -> Vec<String> {
    match plan {
        RankPlan::Moving { calls, .. } => calls.clone(),
        RankPlan::Still(note, calls) => {
            let mut calls = calls.clone();
            if let Some(call) = note
                .as_deref()
                .and_then(|n| n.strip_prefix("blocked in "))
                .and_then(|n| n.split_whitespace().next())
            {
                calls.push(call.to_string());
            }
            calls
        }
    }
}

/// What rank `rank`'s log shows against its plan: a finding, or the outcome
/// that ends the replay.
fn judge_rank(rank: usize, plan: &RankPlan, log: &str) -> Result<String, Outcome> {
    let (stops_text, where_text) = log.split_once("TASS-WHERE").unwrap_or((log, ""));
    let made: Vec<&str> = stops_text
        .lines()
        .filter_map(|l| l.strip_prefix("TASS-CALL "))
        .collect();
    let expected = expected_calls(plan);
    if made != expected {
        let k = made
            .iter()
            .zip(&expected)
            .take_while(|(a, b)| *a == *b)
            .count();
        return Err(Outcome::NotReproduced(format!(
            "rank {rank}'s MPI calls differ from the lasso's at call {}: the run made {}, the \
             lasso {} ({} calls made, {} in the lasso up to the last pass)",
            k + 1,
            made.get(k).copied().unwrap_or("no more"),
            expected.get(k).map_or("no more", String::as_str),
            made.len(),
            expected.len()
        )));
    }
    match plan {
        RankPlan::Moving {
            anchor,
            before,
            per_pass,
            atoms,
            ..
        } => {
            if let Some(landed) = breakpoint_line(log) {
                if landed != anchor.line {
                    return Err(Outcome::Unreplayable(format!(
                        "rank {rank}: gdb puts the breakpoint for {}:{} at line {landed}: the \
                         cycle step has no code of its own",
                        anchor.file, anchor.line
                    )));
                }
            }
            let stops: Vec<Stop> = parse_stops(stops_text);
            match judge_passes(&stops, (*before, *per_pass), anchor, atoms) {
                Outcome::Reproduced(how) => Ok(format!(
                    "rank {rank}: {}",
                    how.trim_start_matches("the run followed the lasso: ")
                )),
                Outcome::NotReproduced(why) => {
                    Err(Outcome::NotReproduced(format!("rank {rank}: {why}")))
                }
                other => Err(other),
            }
        }
        RankPlan::Still(note, _) => judge_still(rank, note.as_deref(), where_text),
    }
}

/// A rank that takes no step in the cycle: where the interrupted run was.
fn judge_still(rank: usize, note: Option<&str>, where_text: &str) -> Result<String, Outcome> {
    let frames: Vec<&str> = where_text.lines().filter(|l| l.starts_with('#')).collect();
    let functions: Vec<String> = frames.iter().map(|f| frame_function(f)).collect();
    let in_call = |name: &str| {
        functions
            .iter()
            .any(|f| f == name || f.strip_prefix('P') == Some(name))
    };
    // The MPI library's own frames below its entry point say nothing.
    let entry = functions
        .iter()
        .position(|f| f.starts_with("MPI_") || f.starts_with("PMPI_"))
        .unwrap_or(0);
    let shown = super::lasso::frames_shown(&frames[entry..]);
    let expected_call = note
        .and_then(|n| n.strip_prefix("blocked in "))
        .and_then(|n| n.split_whitespace().next());
    if note == Some("terminated") {
        return if frames.is_empty() || in_call("MPI_Finalize") {
            Ok(format!(
                "rank {rank} has terminated (the lasso's rank ended; the real one is in \
                 MPI_Finalize or has exited)"
            ))
        } else {
            Err(Outcome::NotReproduced(format!(
                "rank {rank} should have terminated; it is at {shown}"
            )))
        };
    }
    let Some(call) = expected_call else {
        // No note (an older trace): inside some MPI call is all we can check.
        return if functions
            .iter()
            .any(|f| f.starts_with("MPI_") || f.starts_with("PMPI_"))
        {
            Ok(format!("rank {rank} stayed blocked at {shown}"))
        } else {
            Err(Outcome::NotReproduced(format!(
                "rank {rank} takes no step in the cycle, but the run found it at {shown}, in no \
                 MPI call"
            )))
        };
    };
    let line = note
        .and_then(|n| n.rsplit_once(" at "))
        .and_then(|(_, at)| at.split(':').nth(1))
        .and_then(|l| l.parse::<u64>().ok());
    // The caller of the MPI call: the first frame with a source place above
    // the library's entry point (libc's frames below it have places too).
    let program_line = frames[entry..]
        .iter()
        .find(|f| !frame_function(f).contains("MPI_") && f.contains(" at "))
        .and_then(|f| f.rsplit_once(':'))
        .and_then(|(_, l)| l.trim().parse::<u64>().ok());
    if in_call(call) && (line.is_none() || program_line == line) {
        Ok(format!(
            "rank {rank} stayed blocked in {call} at line {} (the trace: {})",
            program_line.map_or("?".to_string(), |l| l.to_string()),
            note.unwrap_or("")
        ))
    } else {
        Err(Outcome::NotReproduced(format!(
            "rank {rank} should stay {}; the run found it at {shown}",
            note.unwrap_or("")
        )))
    }
}

/// `Breakpoint 2 at 0x...: file p.c, line 42.`: the line of the (second)
/// breakpoint, the first after `main`'s.
fn breakpoint_line(log: &str) -> Option<u64> {
    let line = log.lines().find(|l| l.starts_with("Breakpoint 2 at"))?;
    let rest = line.rsplit_once("line ")?.1;
    rest.trim_end_matches('.').trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atoms_go_to_the_rank_they_read() {
        let (by_rank, unread) = rank_atoms(
            "G F {PROC[1].l < 3} && G {x > 0} && G {PROC[0].a == PROC[1].a} && G F {PROC[0].y}",
            2,
        );
        assert_eq!(by_rank[0], ["x > 0", "y"]);
        assert_eq!(by_rank[1], ["l < 3"]);
        assert_eq!(unread, ["PROC[0].a == PROC[1].a"]);
    }

    #[test]
    fn label_steps_and_mpi_frames_are_recognised() {
        assert!(is_label_step("cs: l = (l + 2) % 10;"));
        assert!(!is_label_step("l = (l + 2) % 10;"));
        assert!(!is_label_step("std::x = 1;"));
        assert_eq!(
            frame_function("#3  0x00007ffff7f01135 in PMPI_Recv () from /lib/libmpi.so.40"),
            "PMPI_Recv"
        );
        assert_eq!(
            frame_function("#4  0x000055 in main (argc=1, argv=0x7f) at p.c:47"),
            "main"
        );
        let blocked = "#3  0x00007ffff7f01135 in PMPI_Recv () from /lib/libmpi.so.40\n\
                       #4  0x000055 in main (argc=1, argv=0x7f) at p.c:47\n";
        assert!(judge_still(
            1,
            Some("blocked in MPI_Recv (MPI_Recv(...);) at p.c:47:5"),
            blocked
        )
        .is_ok());
        assert!(judge_still(
            1,
            Some("blocked in MPI_Recv (MPI_Recv(...);) at p.c:40:5"),
            blocked
        )
        .is_err());
        assert!(judge_still(
            1,
            Some("blocked in MPI_Send (MPI_Send(...);) at p.c:47:5"),
            blocked
        )
        .is_err());
        assert!(judge_still(1, Some("terminated"), "").is_ok());
        assert_eq!(
            mpi_call_name("MPI_Recv (&x, 1);").as_deref(),
            Some("MPI_Recv")
        );
        assert_eq!(mpi_call_name("int r = MPI_ANY_SOURCE;"), None);
        assert_eq!(
            mpi_functions(&[
                "MPI_Init(&a, &b); MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD); MPI_Init(0,0);"
                    .into()
            ]),
            ["MPI_Init", "MPI_Send"]
        );
    }
}
