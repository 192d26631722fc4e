//! `tass replay TRACE.json` and `tass verify --replay`: a violation's witness turned
//! into a concrete run of the real program, which says whether the violation is real.
//!
//! The trace file (`--trace FILE`) carries the violation (property, line, witness)
//! and the command that found it (`invocation`: files, processes, `-i`, `-D`, `-I`).
//! The harness (`harness.rs`) is each program file with the inputs fixed to the
//! witness; it is built with gcc and sanitizers, or mpicc, and run under a time limit
//! (`concrete.rs`). The run's symptom is then compared with the property: the same
//! assertion line, a sanitizer report at the violation's line, a hang for a deadlock,
//! an MPI error for an MPI usage property. Only that is "reproduced"; anything else is
//! said plainly as not reproduced.

mod blocked;
mod compare;
mod concrete;
mod harness;
mod judge;
mod lasso;
mod mpi_calls;
mod mpi_lasso;
mod wildcard;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Value};

use crate::args::ReplayArgs;
use concrete::{Buffering, Launch};
use judge::Outcome;

/// The command a violation was found by: enough to rebuild its programs.
#[derive(Debug, Clone, Default)]
pub(crate) struct Invocation {
    /// `verify` or `compare`.
    pub command: String,
    /// The programs: (role, files, processes); one for verify, spec then impl for compare.
    pub programs: Vec<(String, Vec<PathBuf>, usize)>,
    pub inputs: Vec<(String, String)>,
    pub defines: Vec<String>,
    pub include_dirs: Vec<PathBuf>,
    /// The command line given to `main` (`verify FILE -- ARG...`), passed to
    /// the concrete run.
    pub program_args: Option<Vec<String>>,
}

fn absolute(path: &Path) -> PathBuf {
    std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf())
}

impl Invocation {
    pub fn to_json(&self) -> Value {
        let paths = |ps: &[PathBuf]| -> Vec<String> {
            ps.iter()
                .map(|p| absolute(p).display().to_string())
                .collect()
        };
        json!({
            "command": self.command,
            "programs": self.programs.iter().map(|(role, files, procs)| json!({
                "role": role, "files": paths(files), "procs": procs,
            })).collect::<Vec<_>>(),
            "inputs": self.inputs.iter().map(|(k, v)| json!([k, v])).collect::<Vec<_>>(),
            "defines": self.defines,
            "include_dirs": paths(&self.include_dirs),
            "program_args": self.program_args,
        })
    }

    fn from_json(value: &Value) -> Option<Invocation> {
        let strings = |v: &Value| -> Vec<String> {
            v.as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|s| s.as_str().map(String::from))
                        .collect()
                })
                .unwrap_or_default()
        };
        let mut programs = Vec::new();
        for p in value["programs"].as_array()? {
            let files = strings(&p["files"])
                .into_iter()
                .map(PathBuf::from)
                .collect();
            programs.push((
                p["role"].as_str()?.to_string(),
                files,
                usize::try_from(p["procs"].as_u64()?).ok()?,
            ));
        }
        let inputs = value["inputs"]
            .as_array()?
            .iter()
            .filter_map(|pair| Some((pair[0].as_str()?.into(), pair[1].as_str()?.into())))
            .collect();
        Some(Invocation {
            command: value["command"].as_str()?.to_string(),
            programs,
            inputs,
            defines: strings(&value["defines"]),
            include_dirs: strings(&value["include_dirs"])
                .into_iter()
                .map(PathBuf::from)
                .collect(),
            program_args: value["program_args"]
                .as_array()
                .map(|_| strings(&value["program_args"])),
        })
    }
}

/// How a replay is run.
#[derive(Debug, Clone)]
pub(crate) struct ReplaySettings {
    /// Where the harness is written (kept, so that the user can run it again).
    pub dir: Option<PathBuf>,
    /// The time limit of one concrete run: a run still going then is a hang.
    pub limit: Duration,
    /// How many times an MPI run is tried (schedules differ from run to run).
    pub attempts: usize,
    /// Where the replay's lines go.
    pub channel: Channel,
}

/// Where the replay's lines are printed: stdout, or stderr when stdout carries a
/// JSON or SARIF document that must stay parseable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Channel {
    Stdout,
    Stderr,
}

impl ReplaySettings {
    /// Prints one line of the replay.
    fn say(&self, line: &str) {
        match self.channel {
            Channel::Stdout => println!("{line}"),
            Channel::Stderr => eprintln!("{line}"),
        }
    }

    /// Where the harness goes: the given directory, or one of this process's.
    fn harness_dir(&self) -> PathBuf {
        self.dir.clone().unwrap_or_else(|| {
            std::env::temp_dir().join(format!("tass-replay-{}", std::process::id()))
        })
    }
}

/// `tass replay TRACE.json`: exit 1 if the violation was reproduced, 3 if not (or it
/// could not be replayed), 2 on a bad trace file.
pub(crate) fn run_replay(args: ReplayArgs) -> i32 {
    let text = match std::fs::read_to_string(&args.trace) {
        Ok(t) => t,
        Err(e) => {
            eprintln!(
                "{}: error: cannot read the trace: {e}",
                args.trace.display()
            );
            return 2;
        }
    };
    let trace: Value = match serde_json::from_str(&text) {
        Ok(v) => v,
        Err(e) => {
            eprintln!(
                "{}: error: not a tass trace (JSON: {e}); write one with `tass verify --trace FILE`",
                args.trace.display()
            );
            return 2;
        }
    };
    if trace.is_null() {
        eprintln!(
            "{}: error: the trace holds no violation (the run it came from found none)",
            args.trace.display()
        );
        return 2;
    }
    let Some(invocation) = Invocation::from_json(&trace["invocation"]) else {
        eprintln!(
            "{}: error: the trace has no `invocation` (which program, how many processes); \
             write it again with this tass's `--trace FILE`",
            args.trace.display()
        );
        return 2;
    };
    let settings = ReplaySettings {
        dir: args.dir.clone(),
        limit: Duration::from_secs_f64(args.time_limit.max(1.0)),
        attempts: args.attempts.max(1),
        channel: Channel::Stdout,
    };
    replay(&trace, &invocation, &settings).exit_code()
}

/// Replays the violation of `trace` (a `--trace` document) and prints what happened.
pub(crate) fn replay(trace: &Value, invocation: &Invocation, settings: &ReplaySettings) -> Outcome {
    let outcome = replay_quietly(trace, invocation, settings);
    settings.say(&outcome.text());
    outcome
}

fn replay_quietly(trace: &Value, invocation: &Invocation, settings: &ReplaySettings) -> Outcome {
    let property = trace["property"].as_str().unwrap_or("");
    let mut values: BTreeMap<String, String> = BTreeMap::new();
    for (k, v) in &invocation.inputs {
        values.insert(k.clone(), v.clone());
    }
    if let Some(witness) = trace["witness"].as_object() {
        for (k, v) in witness {
            match harness::c_value(v) {
                Some(c) => {
                    values.insert(k.clone(), c);
                }
                None => {
                    return Outcome::Unreplayable(format!(
                        "the witness value {k} = {v} is not a number"
                    ))
                }
            }
        }
    }
    if property == "ltl" {
        return replay_ltl(trace, invocation, &values, settings);
    }
    if let Some(why) = judge::Expected::from_trace(trace).cannot_replay() {
        if !(invocation.command == "compare" && property == "not-equivalent") {
            return Outcome::Unreplayable(why);
        }
    }
    let dir = settings.harness_dir();
    if invocation.command == "compare" && property == "not-equivalent" {
        return compare::replay_comparison(trace, invocation, &values, settings, &dir);
    }
    // A violation of one program of a comparison is replayed on that program.
    let file_name = |p: &Path| p.file_name().map(|n| n.to_os_string());
    let violating = trace["file"].as_str().map(Path::new).and_then(file_name);
    let program = invocation
        .programs
        .iter()
        .find(|(_, files, _)| files.iter().any(|f| file_name(f) == violating))
        .or(invocation.programs.first());
    let target = match Target::violation(trace, program) {
        Ok(target) => target,
        Err(outcome) => return outcome,
    };
    let built = match build_and_say(&target, &values, invocation, settings, &dir) {
        Ok(b) => b,
        Err(outcome) => return outcome,
    };
    let launch = match built.launch {
        Launch::Mpi { procs, .. } => Launch::Mpi {
            procs,
            // A potential deadlock needs sends that wait for their receive.
            buffering: if property == "deadlock" {
                Buffering::ZeroBuffer
            } else {
                Buffering::LibraryDefault
            },
        },
        sequential => sequential,
    };
    if property == "memory-leak" && matches!(launch, Launch::Mpi { .. }) {
        return Outcome::Unreplayable(
            "MPI harnesses are built without the leak checker (the MPI library's own \
             allocations would be reported)"
                .into(),
        );
    }
    let attempts = match launch {
        Launch::Sequential => 1,
        Launch::Mpi { .. } => settings.attempts,
    };
    let expected = judge::Expected::from_trace(trace);
    let mut last = None;
    for attempt in 1..=attempts {
        blocked::clear(&dir);
        let program_args = invocation.program_args.as_deref().unwrap_or_default();
        let mut run = concrete::run(launch, &dir, settings.limit, program_args);
        // The MPI errors the ranks wrote come first: the judge reads the first one.
        let errors = blocked::mpi_errors(&dir);
        if !errors.is_empty() {
            run.output = format!("{}\n{}", errors.join("\n"), run.output);
        }
        settings.say(&format!("replay: run {attempt}: {}", run.command));
        if run.timed_out && matches!(launch, Launch::Mpi { .. }) {
            for place in blocked::where_ranks_were(&dir) {
                settings.say(&format!("replay: at the time limit, {place}"));
            }
        }
        let outcome = judge::judge(&expected, &run, settings.limit);
        if matches!(outcome, Outcome::Reproduced(_)) {
            return outcome;
        }
        last = Some(outcome);
    }
    last.unwrap_or_else(|| Outcome::Unreplayable("no run".into()))
}

/// Replays an ltl violation's lasso (`lasso.rs`).
fn replay_ltl(
    trace: &Value,
    invocation: &Invocation,
    values: &BTreeMap<String, String>,
    settings: &ReplaySettings,
) -> Outcome {
    let dir = settings.harness_dir();
    match Target::violation(trace, invocation.programs.first()) {
        Ok(target) => lasso::replay_lasso(&target, values, invocation, settings, &dir),
        Err(outcome) => outcome,
    }
}

/// What a harness is built for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Purpose {
    /// To show the violation.
    Violation,
    /// To print the outputs (one side of a comparison).
    Outputs,
}

/// One program to build: its trace (for the wildcard matches), files and processes.
struct Target<'a> {
    trace: &'a Value,
    files: &'a [PathBuf],
    procs: usize,
    purpose: Purpose,
}

impl<'a> Target<'a> {
    /// The violation `trace` reports, on `program` (role, files, processes)
    /// of the invocation; an outcome saying why not when there is none.
    fn violation(
        trace: &'a Value,
        program: Option<&'a (String, Vec<PathBuf>, usize)>,
    ) -> Result<Target<'a>, Outcome> {
        let Some((_, files, procs)) = program else {
            return Err(Outcome::Unreplayable("the trace names no program".into()));
        };
        Ok(Target {
            trace,
            files,
            procs: *procs,
            purpose: Purpose::Violation,
        })
    }
}

struct Built {
    launch: Launch,
    compile_line: String,
    notes: Vec<String>,
}

/// [`build`], and says what was built: its notes, where, and how.
fn build_and_say(
    target: &Target,
    values: &BTreeMap<String, String>,
    invocation: &Invocation,
    settings: &ReplaySettings,
    dir: &Path,
) -> Result<Built, Outcome> {
    let built = build(target, values, invocation, dir)?;
    for line in &built.notes {
        settings.say(&format!("replay: note: {line}"));
    }
    settings.say(&format!("replay: harness in {}", dir.display()));
    settings.say(&format!("replay: built with: {}", built.compile_line));
    Ok(built)
}

/// Writes the harness files of one program into `dir` and compiles them.
fn build(
    target: &Target,
    values: &BTreeMap<String, String>,
    invocation: &Invocation,
    dir: &Path,
) -> Result<Built, Outcome> {
    let (trace, files, procs) = (target.trace, target.files, target.procs);
    let cannot = |why: String| Outcome::Unreplayable(why);
    std::fs::create_dir_all(dir).map_err(|e| cannot(format!("{}: {e}", dir.display())))?;
    let mut sources = Vec::new();
    let mut notes = Vec::new();
    let mut extra: Vec<String> = invocation
        .defines
        .iter()
        .map(|d| format!("-D{d}"))
        .collect();
    for dir in &invocation.include_dirs {
        extra.push(format!("-I{}", dir.display()));
    }
    let texts = files
        .iter()
        .map(|f| std::fs::read_to_string(f).map_err(|e| cannot(format!("{}: {e}", f.display()))))
        .collect::<Result<Vec<_>, _>>()?;
    let mpi = texts.iter().any(|t| t.contains("<mpi.h>"));
    for (index, (file, text)) in files.iter().zip(&texts).enumerate() {
        // Outputs are printed once, by the first file (MPI_Finalize is wrapped once).
        let printing = match (target.purpose, mpi) {
            (Purpose::Outputs, _) if index > 0 => harness::OutputPrinting::Off,
            (Purpose::Outputs, true) => harness::OutputPrinting::AtMpiFinalize,
            (Purpose::Outputs, false) => harness::OutputPrinting::AtExit,
            (Purpose::Violation, _) => harness::OutputPrinting::Off,
        };
        let path = dir.join(format!(
            "harness_{index}_{}",
            file.file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "program.c".into())
        ));
        notes.extend(write_harness_file(text, file, values, printing, &path).map_err(cannot)?);
        // A bare file name's parent is "": `-I` alone would take the next flag.
        if let Some(parent) = file.parent() {
            let parent = if parent.as_os_str().is_empty() {
                Path::new(".")
            } else {
                parent
            };
            extra.push(format!("-I{}", parent.display()));
        }
        sources.push(path);
    }
    for name in harness::unused_values(&texts, values) {
        notes.push(format!(
            "the value of `{name}` is not used by the program text"
        ));
    }
    if mpi && texts.iter().any(|t| t.contains("MPI_ANY_SOURCE")) {
        match enforce_wildcards(trace, &texts, dir) {
            Ok((path, note)) => {
                sources.push(path);
                notes.push(note);
            }
            Err(note) => notes.push(note),
        }
    }
    if mpi && trace["property"] == "ltl" {
        match mpi_calls::enforce_polls(trace, dir) {
            Ok(Some((path, note))) => {
                sources.push(path);
                notes.push(note);
            }
            Ok(None) => {}
            Err(note) => notes.push(note),
        }
    }
    if mpi {
        // Where each rank is when the time limit stops a hung run.
        let path = dir.join("tass_replay_where.c");
        std::fs::write(&path, blocked::WHERE_HANDLER)
            .map_err(|e| cannot(format!("{}: {e}", path.display())))?;
        sources.push(path);
        extra.push("-rdynamic".into());
    }
    let launch = if mpi {
        Launch::Mpi {
            procs,
            buffering: Buffering::LibraryDefault,
        }
    } else {
        Launch::Sequential
    };
    if !concrete::available(launch.compiler()) {
        return Err(cannot(format!(
            "{} is not installed (needed to build the harness)",
            launch.compiler()
        )));
    }
    if mpi && !concrete::available("mpirun") {
        return Err(cannot("mpirun is not installed".into()));
    }
    let compile_line = concrete::compile(launch, dir, &sources, &extra)
        .map_err(|e| cannot(format!("the harness does not compile:\n{e}")))?;
    Ok(Built {
        launch,
        compile_line,
        notes,
    })
}

/// Writes the harness copy of one program file to `path`; returns the notes about it.
fn write_harness_file(
    text: &str,
    file: &Path,
    values: &BTreeMap<String, String>,
    printing: harness::OutputPrinting,
    path: &Path,
) -> Result<Vec<String>, String> {
    let h = harness::harness_file(text, &file.display().to_string(), values, printing)?;
    std::fs::write(path, &h.text).map_err(|e| format!("{}: {e}", path.display()))?;
    let unset = h.unset_inputs.iter().map(|name| {
        format!("the witness has no value for input `{name}`: the run uses the program's own value")
    });
    let unprinted = h.unprinted_outputs.iter().map(|name| {
        format!("output `{name}` is not printed (arrays of more than two dimensions are not)")
    });
    Ok(unset.chain(unprinted).collect())
}

/// Writes the PMPI layer that makes the wildcard receives take the trace's senders;
/// returns its path and a note saying what it enforces, or a note saying why not.
fn enforce_wildcards(
    trace: &Value,
    texts: &[String],
    dir: &Path,
) -> Result<(PathBuf, String), String> {
    if let Some(op) = wildcard::unenforceable(texts) {
        return Err(format!(
            "wildcard matches not enforced: the program uses {op}, which the replay cannot number"
        ));
    }
    // An ltl lasso's cycle repeats: so do its receives' senders.
    let (matches, cycle) = if trace["property"] == "ltl" {
        wildcard::lasso_matches(trace)
    } else {
        (wildcard::matches(trace), wildcard::Matches::new())
    };
    let layer = wildcard::pmpi_layer(&matches, &cycle)
        .ok_or_else(|| "wildcard matches not enforced: the trace names no sender".to_string())?;
    let path = dir.join("tass_replay_pmpi.c");
    std::fs::write(&path, layer).map_err(|e| format!("{}: {e}", path.display()))?;
    let chosen: Vec<String> = matches
        .iter()
        .map(|(rank, senders)| {
            let list: Vec<String> = senders
                .iter()
                .map(|s| s.map_or("any".to_string(), |s| s.to_string()))
                .collect();
            let repeated: Vec<String> = cycle
                .get(rank)
                .map(|c| {
                    c.iter()
                        .map(|s| s.map_or("any".to_string(), |s| s.to_string()))
                        .collect()
                })
                .unwrap_or_default();
            if repeated.is_empty() {
                format!("rank {rank} from [{}]", list.join(", "))
            } else {
                format!(
                    "rank {rank} from [{}] then [{}] repeated",
                    list.join(", "),
                    repeated.join(", ")
                )
            }
        })
        .collect();
    Ok((
        path,
        format!(
            "wildcard matches enforced (MPI_Recv k-th call: sender): {}",
            chosen.join("; ")
        ),
    ))
}
