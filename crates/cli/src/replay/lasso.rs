//! Replaying an `ltl` violation: a lasso (the trace's stem, the cycle marker,
//! the cycle's steps) run as the real compiled program under gdb.
//!
//! A sequential program's run is fixed by its inputs, so the harness (inputs
//! set to the witness) is the lasso's run if the witness drives it. gdb stops
//! at the line of the cycle's first step every time it is reached; the stem
//! reaches it as often as the stem's steps name that line, each pass of the
//! cycle as often as the cycle's steps do. The replay runs the stem and
//! [`PASSES`] passes, and at the start of each pass reads the control state
//! (the call stack: functions and lines) and the value of every `{EXPR}` atom
//! of the formula; the lasso is reproduced when the run reached every pass
//! and each pass started in the control state and with the atom values of
//! the first. A cycle of a set-matched lasso may come back to the same
//! *data* only after several passes (`l = (l + 2) % R`), so the data itself
//! is not compared, the atoms are. A lasso whose cycle is the stutter step of
//! a terminated program is reproduced by a run that ends normally.
//!
//! An MPI program's lasso is replayed rank by rank (`mpi_lasso.rs`).

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use serde_json::Value;

use super::judge::Outcome;
use super::mpi_lasso::{self, MpiLasso, RankStep};
use super::{build_and_say, concrete, Invocation, ReplaySettings, Target};

/// How many passes of the cycle the replay runs after the stem.
pub(crate) const PASSES: usize = 3;

/// The mark a trace puts between a lasso's stem and its cycle.
const CYCLE_MARK: &str = "(cycle";
/// The cycle of a terminated run.
const TERMINATED_MARK: &str = "(every process has terminated";

/// One step of the trace: file name (last component) and line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Place {
    pub file: String,
    pub line: u64,
}

/// What gdb saw at one stop: the call stack (functions and places) and the
/// atoms' values as gdb printed them.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub(super) struct Stop {
    stack: Vec<String>,
    atoms: Vec<String>,
}

/// Replays the lasso of `trace` on the program `files`.
pub(super) fn replay_lasso(
    target: &Target,
    values: &BTreeMap<String, String>,
    invocation: &Invocation,
    settings: &ReplaySettings,
    dir: &Path,
) -> Outcome {
    let trace = target.trace;
    let raw: &[Value] = trace["trace"].as_array().map(Vec::as_slice).unwrap_or(&[]);
    let steps: Vec<(Place, String)> = raw.iter().map(step_of).collect();
    let Some(mark) = steps.iter().position(|(_, s)| s.starts_with(CYCLE_MARK)) else {
        return Outcome::Unreplayable("the ltl trace has no cycle mark".into());
    };
    let (stem, cycle) = (&steps[..mark], &steps[mark + 1..]);
    let mpi = target
        .files
        .iter()
        .any(|f| std::fs::read_to_string(f).is_ok_and(|t| t.contains("<mpi.h>")));
    let terminated = cycle.iter().any(|(_, s)| s.starts_with(TERMINATED_MARK));
    if mpi && !terminated {
        // Refused before anything is built.
        if let Some(why) = mpi_lasso::unfollowed_calls(target) {
            return Outcome::Unreplayable(why);
        }
    }
    let built = match build_and_say(target, values, invocation, settings, dir) {
        Ok(b) => b,
        Err(outcome) => return outcome,
    };
    if terminated {
        let program_args = invocation.program_args.as_deref().unwrap_or_default();
        let run = concrete::run(built.launch, dir, settings.limit, program_args);
        settings.say(&format!("replay: run 1: {}", run.command));
        return match run.exit {
            Some(0) => Outcome::Reproduced(
                "the run ended normally: its final state repeats forever (the lasso's \
                 cycle is the stutter step of a terminated run)"
                    .into(),
            ),
            _ if run.timed_out => Outcome::NotReproduced("the run did not end".into()),
            other => Outcome::NotReproduced(format!(
                "the run ended with exit status {other:?}: {}",
                first_line(&run.output)
            )),
        };
    }
    if mpi {
        let ranked: Vec<RankStep> = raw
            .iter()
            .zip(&steps)
            .map(|(step, (place, source))| RankStep {
                place: place.clone(),
                source: source.clone(),
                process: step["process"].as_u64().unwrap_or(0) as usize,
                marks: super::mpi_calls::marks_of(step),
            })
            .collect();
        let still = raw[mark]["changes"]
            .as_object()
            .map(|notes| {
                notes
                    .iter()
                    .filter_map(|(k, v)| {
                        let rank = k.strip_prefix("process ")?.parse().ok()?;
                        Some((rank, v.as_str()?.to_string()))
                    })
                    .collect()
            })
            .unwrap_or_default();
        let lasso = MpiLasso {
            stem: &ranked[..mark],
            cycle: &ranked[mark + 1..],
            still,
        };
        let program_args = invocation.program_args.as_deref().unwrap_or_default();
        return mpi_lasso::replay(target, &lasso, program_args, settings, dir);
    }
    let Some((first, _)) = cycle.first() else {
        return Outcome::Unreplayable("the lasso's cycle has no step".into());
    };
    let stem_stops = stem.iter().filter(|(p, _)| p == first).count();
    let pass_stops = cycle.iter().filter(|(p, _)| p == first).count();
    let atoms = condition_atoms(trace["claim"].as_str().unwrap_or(""));
    let needed = stem_stops + PASSES * pass_stops + 1;
    let script = gdb_script(first, &atoms, needed);
    let program_args = invocation.program_args.as_deref().unwrap_or_default();
    let run = run_gdb(dir, &script, settings, program_args);
    settings.say(&format!("replay: run 1: {}", run.command));
    if let Some(landed) = run.landed {
        if landed != first.line {
            return Outcome::Unreplayable(format!(
                "gdb puts the breakpoint for {}:{} at line {landed}: the cycle's first step has \
                 no code of its own",
                first.file, first.line
            ));
        }
    }
    judge_passes(&run.stops, (stem_stops, pass_stops), first, &atoms)
}

/// Whether the stops show the stem and [`PASSES`] passes of the cycle, each
/// pass starting in the first pass's control state with its atom values.
pub(super) fn judge_passes(
    stops: &[Stop],
    (stem_stops, pass_stops): (usize, usize),
    first: &Place,
    atoms: &[String],
) -> Outcome {
    let at = format!("{}:{}", first.file, first.line);
    let needed = stem_stops + PASSES * pass_stops + 1;
    if stops.len() < needed {
        return Outcome::NotReproduced(format!(
            "the run reached {at} {} time(s); the stem and {PASSES} passes of the cycle reach \
             it {needed} times",
            stops.len()
        ));
    }
    let start = &stops[stem_stops];
    for pass in 1..=PASSES {
        let here = &stops[stem_stops + pass * pass_stops];
        if here.stack != start.stack {
            return Outcome::NotReproduced(format!(
                "pass {pass} of the cycle starts in another call stack ({} instead of {})",
                here.stack.join(" <- "),
                start.stack.join(" <- ")
            ));
        }
        if here.atoms != start.atoms {
            return Outcome::NotReproduced(format!(
                "at the start of pass {pass} the atoms have other values ({} instead of {})",
                show_atoms(atoms, &here.atoms),
                show_atoms(atoms, &start.atoms)
            ));
        }
    }
    let values = if atoms.is_empty() {
        String::new()
    } else {
        format!(", atoms {}", show_atoms(atoms, &start.atoms))
    };
    Outcome::Reproduced(format!(
        "the run followed the lasso: after the stem, {PASSES} passes of the cycle each \
         started at {at} in the same call stack ({}){values}",
        start.stack.join(" <- ")
    ))
}

fn show_atoms(atoms: &[String], values: &[String]) -> String {
    atoms
        .iter()
        .zip(values)
        .map(|(a, v)| format!("{{{a}}} = {v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn step_of(step: &Value) -> (Place, String) {
    let file = step["file"].as_str().unwrap_or("");
    let file = Path::new(file)
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    (
        Place {
            file,
            line: step["line"].as_u64().unwrap_or(0),
        },
        step["source"].as_str().unwrap_or("").to_string(),
    )
}

/// The `{EXPR}` atoms of a formula, as C over one process (`PROC[0].x` is
/// `x`); location atoms are read from the call stack instead.
pub(super) fn condition_atoms(formula: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut current = String::new();
    for c in formula.chars() {
        match c {
            '{' => {
                if depth > 0 {
                    current.push(c);
                }
                depth += 1;
            }
            '}' if depth > 0 => {
                depth -= 1;
                if depth == 0 {
                    out.push(current.trim().replace("PROC[0].", ""));
                    current.clear();
                } else {
                    current.push(c);
                }
            }
            _ if depth > 0 => current.push(c),
            _ => {}
        }
    }
    out
}

/// The gdb commands: a breakpoint at `place` that prints the stack and the
/// atoms at every stop and ends the run after `stops` stops.
fn gdb_script(place: &Place, atoms: &[String], stops: usize) -> String {
    let mut s =
        String::from("set pagination off\nset confirm off\nset width 0\nset $tass_stops = 0\n");
    s.push_str(&format!(
        "break {}:{}\ncommands\nsilent\n",
        place.file, place.line
    ));
    s.push_str("set $tass_stops = $tass_stops + 1\nprintf \"TASS-STOP\\n\"\nbacktrace\n");
    for (k, atom) in atoms.iter().enumerate() {
        s.push_str(&format!("printf \"TASS-ATOM {k} %d\\n\", (int)({atom})\n"));
    }
    s.push_str(&format!(
        "if $tass_stops >= {stops}\nprintf \"TASS-ENOUGH\\n\"\nkill\nquit\nend\ncontinue\nend\nrun\nquit\n"
    ));
    s
}

struct GdbRun {
    command: String,
    stops: Vec<Stop>,
    /// The line gdb put the breakpoint at.
    landed: Option<u64>,
}

/// Runs `./harness PROGRAM_ARGS...` (the command line of `tass verify FILE --
/// ARG...`) under gdb with `script`.
fn run_gdb(dir: &Path, script: &str, settings: &ReplaySettings, program_args: &[String]) -> GdbRun {
    let script_path = dir.join("tass_replay_lasso.gdb");
    let secs = settings.limit.as_secs().max(1).to_string();
    let shown: String = program_args.iter().map(|a| format!(" {a}")).collect();
    let command = format!(
        "timeout -k 3 {secs} gdb -batch -nx -x tass_replay_lasso.gdb --args ./harness{shown}"
    );
    if let Err(e) = std::fs::write(&script_path, script) {
        return GdbRun {
            command: format!("{command} (cannot write the script: {e})"),
            stops: Vec::new(),
            landed: None,
        };
    }
    let out = Command::new("timeout")
        .args(["-k", "3", &secs, "gdb", "-batch", "-nx", "-x"])
        .arg("tass_replay_lasso.gdb")
        .args(["--args", "./harness"])
        .args(program_args)
        .current_dir(dir)
        // LeakSanitizer does not run under ptrace.
        .env("ASAN_OPTIONS", "detect_leaks=0")
        .output();
    let text = match out {
        Ok(out) => format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
        Err(e) => format!("cannot run gdb: {e}"),
    };
    GdbRun {
        command,
        stops: parse_stops(&text),
        landed: landed_line(&text),
    }
}

/// `Breakpoint 1 at 0x...: file odd.c, line 8.`
fn landed_line(text: &str) -> Option<u64> {
    let line = text.lines().find(|l| l.starts_with("Breakpoint 1 at"))?;
    let rest = line.rsplit_once("line ")?.1;
    rest.trim_end_matches('.').trim().parse().ok()
}

pub(super) fn parse_stops(text: &str) -> Vec<Stop> {
    let mut stops: Vec<Stop> = Vec::new();
    for line in text.lines() {
        if line == "TASS-STOP" {
            stops.push(Stop::default());
            continue;
        }
        let Some(stop) = stops.last_mut() else {
            continue;
        };
        if let Some(rest) = line.strip_prefix("TASS-ATOM ") {
            let value = rest.split_once(' ').map_or("?", |(_, v)| v);
            stop.atoms.push(value.to_string());
        } else if line.starts_with('#') {
            stop.stack.push(frame_place(line));
        }
    }
    stops
}

/// Backtrace lines as `f at p.c:12 <- main at p.c:30` (functions and
/// places; a frame without a source place keeps its library).
pub(super) fn frames_shown(frames: &[&str]) -> String {
    if frames.is_empty() {
        return "no stack (the process had ended)".into();
    }
    frames
        .iter()
        .map(|f| {
            let place = frame_place(f);
            match place.strip_suffix(" at ") {
                Some(function) => match f.rsplit_once(" from ") {
                    Some((_, library)) => format!("{function} in {}", library.trim()),
                    None => function.to_string(),
                },
                None => place,
            }
        })
        .collect::<Vec<_>>()
        .join(" <- ")
}

/// `#1  0x000055 in f (a=3) at p.c:12` -> `f at p.c:12` (arguments and
/// addresses left out: the control state is the functions and lines).
fn frame_place(frame: &str) -> String {
    let place = frame_body(frame)
        .rsplit_once(" at ")
        .map_or("", |(_, p)| p)
        .trim();
    format!("{} at {place}", frame_function(frame))
}

/// A backtrace line without its number and address: `#1  0x000055 in f (a=3)
/// at p.c:12` -> `f (a=3) at p.c:12`.
fn frame_body(frame: &str) -> &str {
    let body = frame
        .split_once(char::is_whitespace)
        .map_or(frame, |(_, rest)| rest)
        .trim();
    match body.split_once(" in ") {
        Some((address, rest)) if address.starts_with("0x") => rest,
        _ => body,
    }
}

/// The function of a backtrace line: `#3  0x7f in PMPI_Recv () from ...` ->
/// `PMPI_Recv`, `#4  main (argc=1) at p.c:47` -> `main`.
pub(super) fn frame_function(frame: &str) -> String {
    let body = frame_body(frame);
    body.split(" (").next().unwrap_or(body).trim().to_string()
}

fn first_line(text: &str) -> &str {
    text.lines().find(|l| !l.trim().is_empty()).unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn atoms_are_read_from_the_formula() {
        assert_eq!(
            condition_atoms("G F {y == 0} && G {PROC[0].x < 3} || PROC[0]@cs"),
            ["y == 0", "x < 3"]
        );
    }

    #[test]
    fn frames_keep_function_and_place() {
        assert_eq!(
            frame_place("#1  0x00005555 in step (a=3) at odd.c:12"),
            "step at odd.c:12"
        );
        assert_eq!(frame_place("#0  main () at odd.c:8"), "main at odd.c:8");
    }
}
