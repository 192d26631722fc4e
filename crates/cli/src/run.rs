//! Running the commands: load the programs, hand them to `tass-verify`, print the
//! report in the chosen format, and return the exit status.

use std::io::{IsTerminal as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use tass_model::api::{render_model, Model};
use tass_prove::api::{solvers_on_path, SolverKind, AUTO_ORDER};
use tass_verify::api::{
    check_signatures, compare, verify, Arith, Colour, MatchMode, Options, ProverChoice, Reduction,
    Report, Shard, SignedOverflow, TextStyle, UrgentChoice,
};

use crate::args::{
    CheckArgs, Cli, ColorChoice, Command, CompareArgs, Format, ShowArgs, SourceArgs, VerifyArgs,
};
use crate::bounds::unbounded_loop_inputs;
use crate::error::{ArgumentError, RunError, TraceWriteError};
use crate::frontend::load_program;
use crate::progress::ProgressLine;
use crate::replay::{replay, Channel, Invocation, ReplaySettings};

/// Runs the parsed command line; returns the exit status.
pub(crate) fn run(cli: Cli) -> i32 {
    match cli.command {
        Command::Show(args) => show(args),
        Command::Verify(args) => run_verify(args),
        Command::Compare(args) => run_compare(args),
        Command::Replay(args) => crate::replay::run_replay(args),
        Command::Merge(args) => crate::merge::run_merge(&args),
    }
}

fn show(args: ShowArgs) -> i32 {
    match load_program(&args.files, &args.source) {
        Ok(model) => {
            // `tass show x.c | head` closes stdout early: not an error worth a panic.
            let _ = write!(std::io::stdout(), "{}", render_model(&model));
            0
        }
        Err(error) => {
            eprintln!("{}", error.report_text());
            2
        }
    }
}

/// The Ctrl-C flag, installed once: the first Ctrl-C ends the search (inconclusive,
/// statistics printed); a second one exits at once.
fn cancel_flag() -> Arc<AtomicBool> {
    static FLAG: OnceLock<Arc<AtomicBool>> = OnceLock::new();
    FLAG.get_or_init(|| {
        let flag = Arc::new(AtomicBool::new(false));
        let handler_flag = Arc::clone(&flag);
        // Failing to install the handler only loses the graceful Ctrl-C.
        let _ = ctrlc::set_handler(move || {
            if handler_flag.swap(true, Ordering::SeqCst) {
                eprintln!("tass: interrupted twice, exiting");
                std::process::exit(3);
            }
            eprintln!("tass: interrupted; finishing with the statistics so far");
        });
        flag
    })
    .clone()
}

fn options(check: &CheckArgs) -> Result<Options, ArgumentError> {
    let mut inputs = Vec::new();
    for binding in &check.inputs {
        let Some((name, value)) = binding.split_once('=') else {
            return Err(ArgumentError::InputNotNameValue {
                binding: binding.clone(),
            });
        };
        let (name, value) = (name.trim(), value.trim());
        if name.is_empty() || value.is_empty() {
            return Err(ArgumentError::InputMissingPart {
                binding: binding.clone(),
            });
        }
        if let Some((_, first)) = inputs.iter().find(|(n, _): &&(String, String)| n == name) {
            return Err(ArgumentError::InputTwice {
                name: name.to_string(),
                first: first.clone(),
                second: value.to_string(),
            });
        }
        inputs.push((name.to_string(), value.to_string()));
    }
    let timeout = match check.timeout {
        None => None,
        Some(t) if t.is_finite() && t > 0.0 => Some(Duration::from_secs_f64(t)),
        Some(t) => return Err(ArgumentError::Timeout(t)),
    };
    let max_memory = match check.max_memory {
        None => None,
        Some(0) => return Err(ArgumentError::MemoryLimitZero),
        Some(_) if tass_verify::api::resident_bytes().is_none() => {
            return Err(ArgumentError::MemoryUnmeasurable)
        }
        Some(mb) => Some(mb.saturating_mul(1024 * 1024)),
    };
    Ok(Options {
        procs: 1,
        spec_procs: 1,
        impl_procs: 1,
        inputs,
        program_args: None,
        deadlock: check.deadlock,
        prover: check.prover,
        arith: check.arith,
        signed_overflow: if check.signed_overflow {
            SignedOverflow::Checked
        } else {
            SignedOverflow::Unchecked
        },
        reduction: check.por.unwrap_or(Reduction::Urgent),
        urgent_choice: if check.cqmin {
            UrgentChoice::ShortestSnapshotQueue
        } else {
            UrgentChoice::First
        },
        fairness: check.fairness,
        matching: MatchMode::Syntactic,
        max_states: check.max_states,
        max_lag: match check.max_lag {
            Some(0) => return Err(ArgumentError::MaxLagZero),
            k => k,
        },
        timeout,
        max_memory,
        max_violations: check.max_violations,
        cancel: Some(cancel_flag()),
        progress: None,
        symmetry: Vec::new(),
        worker_symmetry: check.worker_symmetry,
        shard: check.shard.as_deref().map(parse_shard).transpose()?,
        jobs: match check.jobs {
            0 => return Err(ArgumentError::JobsZero),
            n => n,
        },
    })
}

/// `--shard K/N`.
fn parse_shard(text: &str) -> Result<Shard, ArgumentError> {
    let parsed = text
        .split_once('/')
        .and_then(|(k, n)| Some((k.trim().parse::<u64>().ok()?, n.trim().parse::<u64>().ok()?)));
    match parsed {
        Some((index, count)) if index < count => Ok(Shard { index, count }),
        _ => Err(ArgumentError::Shard(text.to_string())),
    }
}

fn check_procs(option: &'static str, n: usize) -> Result<usize, ArgumentError> {
    if n == 0 {
        Err(ArgumentError::NoProcesses { option })
    } else {
        Ok(n)
    }
}

fn run_verify(args: VerifyArgs) -> i32 {
    let check = &args.check;
    let prepared = (|| {
        let mut options = options(check)?;
        options.procs = check_procs("--procs", args.procs)?;
        options.matching = args.matching;
        options.program_args = args.program_args.clone();
        let model = load_program(&args.files, &check.source)?;
        check_forced_reduction(&model, check)?;
        check_trace_writable(check)?;
        Ok::<_, RunError>((options, model))
    })();
    // The command line is part of what was searched: shards of runs with
    // different ones do not merge.
    let procs_and_args = match &args.program_args {
        Some(argv) => format!("{} -- {argv:?}", args.procs),
        None => format!("{}", args.procs),
    };
    let key = |models: &[&Model]| run_key("verify", &procs_and_args, (&args.files, models), check);
    let (report, key) = match prepared {
        Ok((options, model)) => {
            if check.verbose {
                describe_model("program", &model);
                describe_prover(check);
                for p in model.ltl.iter().filter(|p| p.formula.uses_next()) {
                    eprintln!(
                        "tass: ltl formula `{}` uses X: its search runs without the \
                         partial-order reduction",
                        p.id
                    );
                }
            }
            warn_unbounded(&model, &options, check);
            warn_negative_zero(&model, &options, check);
            warn_many_processes("-n", options.procs, check);
            let key = key(&[&model]);
            let report = with_progress_line(options, check, |options| verify(&model, options));
            if let (true, Some(runs)) = (check.verbose, &report.loop_runs) {
                // collective loop invariants: why a second run with lagged
                // loop records was made or not, and what became of it
                eprintln!(
                    "tass: second run with lagged loop records: {}",
                    runs.second_run
                );
            }
            (report, key)
        }
        Err(error) => (Report::error(error.report_text()), key(&[])),
    };
    let invocation = Invocation {
        command: "verify".into(),
        programs: vec![("program".into(), args.files.clone(), args.procs)],
        program_args: args.program_args.clone(),
        ..invocation_common(check)
    };
    emit(&report, check, &invocation, &key)
}

/// `--por urgent` given explicitly with an ltl formula that uses `X`: the
/// reduction could change its truth (it is not invariant under stuttering),
/// so the formula is checked unreduced by default and refused when the
/// reduction is asked for.
fn check_forced_reduction(model: &Model, check: &CheckArgs) -> Result<(), RunError> {
    if check.por != Some(Reduction::Urgent) {
        return Ok(());
    }
    let Some(property) = model.ltl.iter().find(|p| p.formula.uses_next()) else {
        return Ok(());
    };
    let span = &property.span;
    Err(RunError::Front(tass_front::api::Diagnostics(vec![
        tass_front::api::Diagnostic {
            file: PathBuf::from(span.file.to_string()),
            line: span.start_line,
            column: span.start_column,
            message: format!(
                "ltl formula `{}` uses `X` (next), which the partial-order reduction \
                 does not preserve: drop `--por urgent` (tass then checks this formula \
                 unreduced) or state it without `X`",
                property.id
            ),
            source_line: std::fs::read_to_string(span.file.to_string())
                .ok()
                .and_then(|text| {
                    text.lines()
                        .nth(span.start_line.saturating_sub(1) as usize)
                        .map(str::to_string)
                }),
        },
    ])))
}

/// Runs `search` with a progress line on stderr when it is a terminal
/// (`crate::progress`), erased before the report is printed.
fn with_progress_line(
    mut options: Options,
    check: &CheckArgs,
    search: impl FnOnce(&Options) -> Report,
) -> Report {
    let Some((progress, line)) = ProgressLine::start(check) else {
        return search(&options);
    };
    options.progress = Some(progress);
    let report = search(&options);
    line.finish();
    report
}

/// The parts of the command a replay needs that verify and compare share.
fn invocation_common(check: &CheckArgs) -> Invocation {
    Invocation {
        inputs: options(check).map(|o| o.inputs).unwrap_or_default(),
        defines: check.source.defines.clone(),
        include_dirs: check.source.include_dirs.clone(),
        ..Invocation::default()
    }
}

fn compare_files(args: &CompareArgs) -> Result<(Vec<PathBuf>, Vec<PathBuf>), ArgumentError> {
    let named = !args.spec.is_empty() || !args.implementation.is_empty();
    if named {
        if !args.files.is_empty() {
            return Err(ArgumentError::ProgramsTwice {
                extra: args.files.clone(),
            });
        }
        if args.spec.is_empty() {
            return Err(ArgumentError::ImplWithoutSpec);
        }
        if args.implementation.is_empty() {
            return Err(ArgumentError::SpecWithoutImpl);
        }
        return Ok((args.spec.clone(), args.implementation.clone()));
    }
    match args.files.as_slice() {
        [spec, imp] => Ok((vec![spec.clone()], vec![imp.clone()])),
        files => Err(ArgumentError::ProgramCount(files.len())),
    }
}

fn run_compare(args: CompareArgs) -> i32 {
    let check = &args.check;
    let prepared = (|| {
        let mut options = options(check)?;
        let both = args.procs.unwrap_or(1);
        options.spec_procs = check_procs("--spec-procs", args.spec_procs.unwrap_or(both))?;
        options.impl_procs = check_procs("--impl-procs", args.impl_procs.unwrap_or(both))?;
        options.symmetry = args.symmetry.clone();
        let (spec_files, impl_files) = compare_files(&args)?;
        let spec = load_program(&spec_files, &check.source)?;
        let imp = load_program(&impl_files, &check.source)?;
        check_signatures(&spec, &imp)?;
        check_trace_writable(check)?;
        Ok::<_, RunError>((options, spec, imp))
    })();
    let procs = format!("{:?}", (args.procs, args.spec_procs, args.impl_procs));
    let files: Vec<PathBuf> = [&args.spec, &args.implementation, &args.files]
        .into_iter()
        .flatten()
        .cloned()
        .collect();
    let key = |models: &[&Model]| run_key("compare", &procs, (&files, models), check);
    let (report, key) = match prepared {
        Ok((options, spec, imp)) => {
            if check.verbose {
                describe_model("specification", &spec);
                describe_model("implementation", &imp);
                describe_prover(check);
            }
            warn_unbounded(&spec, &options, check);
            warn_unbounded(&imp, &options, check);
            warn_negative_zero(&spec, &options, check);
            warn_many_processes("--spec-procs", options.spec_procs, check);
            warn_many_processes("--impl-procs", options.impl_procs, check);
            let key = key(&[&spec, &imp]);
            let report =
                with_progress_line(options, check, |options| compare(&spec, &imp, options));
            (report, key)
        }
        Err(error) => (Report::error(error.report_text()), key(&[])),
    };
    let both = args.procs.unwrap_or(1);
    let (spec_files, impl_files) = compare_files(&args).unwrap_or_default();
    let invocation = Invocation {
        command: "compare".into(),
        programs: vec![
            ("spec".into(), spec_files, args.spec_procs.unwrap_or(both)),
            ("impl".into(), impl_files, args.impl_procs.unwrap_or(both)),
        ],
        ..invocation_common(check)
    };
    emit(&report, check, &invocation, &key)
}

fn describe_model(role: &str, model: &Model) {
    let names = |ids: &[tass_model::api::VarId]| {
        ids.iter()
            .map(|&v| model.var(v).name.clone())
            .collect::<Vec<_>>()
            .join(", ")
    };
    eprintln!(
        "tass: {role} {}: inputs [{}], outputs [{}]",
        model.name,
        names(&model.inputs),
        names(&model.outputs)
    );
}

/// `-v`: which prover `--prover` stands for on this machine (`auto` asks the
/// built-in prover first, then the first two installed solvers of its order;
/// a third one, cvc5, first about nonlinear queries).
fn describe_prover(check: &CheckArgs) {
    let installed: Vec<SolverKind> = solvers_on_path().into_iter().map(|(k, _)| k).collect();
    let helper = match check.prover {
        ProverChoice::Auto if AUTO_ORDER.iter().all(|k| installed.contains(k)) => {
            format!("; {} first for nonlinear queries", AUTO_ORDER[2].name())
        }
        _ => String::new(),
    };
    let solvers: Vec<&str> = match check.prover {
        ProverChoice::Builtin => Vec::new(),
        ProverChoice::Auto => AUTO_ORDER
            .into_iter()
            .filter(|k| installed.contains(k))
            .take(2)
            .map(SolverKind::name)
            .collect(),
        ProverChoice::Z3 => vec![SolverKind::Z3.name()],
        ProverChoice::Cvc5 => vec![SolverKind::Cvc5.name()],
        ProverChoice::Yices => vec![SolverKind::Yices.name()],
    };
    if solvers.is_empty() {
        eprintln!("tass: prover: built-in (--prover {})", check.prover);
    } else {
        eprintln!(
            "tass: prover: built-in, then {}{helper} (--prover {})",
            solvers.join(", then "),
            check.prover
        );
    }
}

/// Warns (on stderr, not with `-q`) about each input a loop tests that nothing
/// bounds above: the search may then not end.
fn warn_unbounded(model: &Model, options: &Options, check: &CheckArgs) {
    if check.quiet {
        return;
    }
    let fixed: Vec<String> = options.inputs.iter().map(|(n, _)| n.clone()).collect();
    for name in unbounded_loop_inputs(model, &fixed) {
        eprintln!(
            "warning: input `{name}` bounds a loop and has no upper bound: the search may \
             not end; bound it with -i {name}=VALUE or a constraint \
             (#pragma TASS input {{{name} <= ...}})"
        );
    }
}

/// Warns (on stderr, not with `-q`) about each floating input fixed to a
/// negative zero (`-i x=-0.0`) under `--arith real`: the reals have one zero, so
/// the sign is dropped there; herbrand and ieee keep it.
fn warn_negative_zero(model: &Model, options: &Options, check: &CheckArgs) {
    if check.quiet || options.arith != Arith::Real {
        return;
    }
    for (name, text) in &options.inputs {
        let floating = model.inputs.iter().any(|&v| {
            let var = model.var(v);
            var.name == *name && matches!(var.ty, tass_model::api::Type::Real(_))
        });
        let t = text.trim();
        let negative_zero =
            t.starts_with('-') && t[1..].parse::<f64>().is_ok_and(|d| d == 0.0) && !t.contains('/');
        if floating && negative_zero {
            eprintln!(
                "warning: -i {name}={text}: under --arith real the floating values are the \
                 real numbers, which have one zero, so `{name}` is 0 (its sign is lost); use \
                 --arith ieee or herbrand to run with IEEE's negative zero"
            );
        }
    }
}

/// Above this many processes a warning says the search may take long (the
/// paper's largest runs used 15 processes).
const MANY_PROCESSES: usize = 16;

/// Warns (on stderr, not with `-q`) when `option` asks for more than
/// [`MANY_PROCESSES`] processes: the interleavings grow exponentially with them.
fn warn_many_processes(option: &str, procs: usize, check: &CheckArgs) {
    if check.quiet || procs <= MANY_PROCESSES {
        return;
    }
    eprintln!(
        "warning: {option} {procs}: the states grow exponentially with the processes, so the \
         search may take very long or not end; try a few processes first, and bound the run \
         with --timeout or --max-states"
    );
}

/// `--trace FILE` is created before the search, so that a path that cannot be
/// written is an error at once, not after a long search.
fn check_trace_writable(check: &CheckArgs) -> Result<(), RunError> {
    let Some(path) = &check.trace else {
        return Ok(());
    };
    std::fs::File::create(path).map(|_| ()).map_err(|source| {
        RunError::Trace(TraceWriteError {
            path: path.clone(),
            source,
        })
    })
}

/// What names one search for `tass merge`: the command, the process counts,
/// the options that change the search (not the output's: format, colour,
/// trace, statistics; not `--shard`), the program files' names and contents,
/// and the models built from them (which cover the files they include and the
/// `-D` macros: two shards of one split must explore the same program).
fn run_key(
    command: &str,
    procs: &str,
    (files, models): (&[PathBuf], &[&Model]),
    check: &CheckArgs,
) -> String {
    use std::hash::{Hash, Hasher};
    let mut search_options = check.clone();
    search_options.shard = None;
    search_options.format = Format::Text;
    search_options.color = ColorChoice::Auto;
    search_options.trace = None;
    search_options.stats = false;
    search_options.quiet = false;
    search_options.verbose = false;
    search_options.replay = false;
    // `DefaultHasher::new` has fixed keys: the same key on every machine.
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (command, procs, format!("{search_options:?}")).hash(&mut hasher);
    for file in files {
        file.hash(&mut hasher);
        std::fs::read(file).unwrap_or_default().hash(&mut hasher);
    }
    for model in models {
        render_model(model).hash(&mut hasher);
    }
    format!("{:016x}", hasher.finish())
}

/// Prints the report, writes `--trace`, replays the violation with `--replay`, and
/// returns the exit status (the verdict's; the replay only adds its lines).
/// `run_key` names the search in a `--shard` report's JSON.
fn emit(report: &Report, check: &CheckArgs, invocation: &Invocation, run_key: &str) -> i32 {
    let mut code = report.exit_code();
    // An error report has no trace (and an unwritable path was its error).
    let trace = check.trace.as_ref().filter(|_| code != 2);
    if let Some(path) = trace {
        if let Err(error) = write_trace(report, path, invocation) {
            eprintln!("error: {error}");
            if code == 0 {
                code = 2;
            }
        }
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let printed = match check.format {
        Format::Json => {
            let mut json = report.to_json();
            if let Some(shard) = json.get_mut("shard").and_then(|s| s.as_object_mut()) {
                shard.insert("run".into(), run_key.into());
            }
            writeln!(out, "{}", pretty_json(&json))
        }
        Format::Sarif => writeln!(out, "{}", pretty_json(&report.to_sarif())),
        Format::Text => {
            // Errors go to stderr (file:line:column: error: ...); the rest to stdout.
            let style = TextStyle {
                stats: check.stats,
                quiet: check.quiet,
                colour: colour(check.color),
            };
            if let Some(error) = &report.error {
                eprintln!("{}", paint_error(error, stderr_colour(check.color)));
                let mut quiet = report.clone();
                quiet.error = None;
                write!(out, "{}", quiet.to_text_with(&style))
            } else {
                write!(out, "{}", report.to_text_with(&style))
            }
        }
    };
    // A closed stdout (e.g. `| head`) must not turn into a panic.
    let _ = printed;
    let _ = out.flush();
    drop(out);
    if check.replay {
        if let Some(trace) = traced(report, invocation) {
            let settings = ReplaySettings {
                dir: None,
                limit: Duration::from_secs(10),
                attempts: 3,
                channel: match check.format {
                    Format::Text => Channel::Stdout,
                    Format::Json | Format::Sarif => Channel::Stderr,
                },
            };
            replay(&trace, invocation, &settings);
        }
    }
    code
}

/// `--color` for what goes to stderr (errors): as [`colour`], with stderr's terminal.
fn stderr_colour(choice: ColorChoice) -> Colour {
    match choice {
        ColorChoice::Auto
            if !(std::io::stderr().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())) =>
        {
            Colour::Plain
        }
        ColorChoice::Auto | ColorChoice::Always => Colour::Ansi,
        ColorChoice::Never => Colour::Plain,
    }
}

/// An error report (`file:line:column: error: ...`, the source snippet) in
/// colour: the word `error` and the caret line red, as the violations' are.
fn paint_error(text: &str, colour: Colour) -> String {
    if colour == Colour::Plain {
        return text.to_string();
    }
    const RED: &str = "\x1b[1;31m";
    const RESET: &str = "\x1b[0m";
    let mut out = Vec::new();
    for line in text.lines() {
        let gutter_end = line.find('|').map(|i| i + 1);
        let after_gutter = gutter_end.map(|i| line[i..].trim());
        if let (Some(i), Some(rest)) = (gutter_end, after_gutter) {
            if !rest.is_empty() && rest.chars().all(|c| c == '^' || c == '-' || c == ' ') {
                out.push(format!("{}{RED}{}{RESET}", &line[..i], &line[i..]));
                continue;
            }
        }
        match line.split_once(": error: ") {
            Some((at, message)) => out.push(format!("{at}: {RED}error{RESET}: {message}")),
            None => out.push(line.to_string()),
        }
    }
    out.join("\n")
}

/// `--color`: `auto` colours a terminal's output unless `NO_COLOR` is set to
/// anything but the empty string (no-color.org's convention).
fn colour(choice: ColorChoice) -> Colour {
    let wanted = match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::io::stdout().is_terminal()
                && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }
    };
    if wanted {
        Colour::Ansi
    } else {
        Colour::Plain
    }
}

/// The `--trace` document: the first violation and the command that found it.
fn traced(report: &Report, invocation: &Invocation) -> Option<serde_json::Value> {
    let mut value = report.trace_json()?;
    if let Some(object) = value.as_object_mut() {
        object.insert("invocation".into(), invocation.to_json());
    }
    Some(value)
}

fn pretty_json(value: &serde_json::Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}

fn write_trace(
    report: &Report,
    path: &Path,
    invocation: &Invocation,
) -> Result<(), TraceWriteError> {
    let value = traced(report, invocation).unwrap_or(serde_json::Value::Null);
    std::fs::write(path, pretty_json(&value) + "\n").map_err(|source| TraceWriteError {
        path: path.to_path_buf(),
        source,
    })
}

/// Parses `-D NAME[=VALUE]` options into pairs.
pub(crate) fn defines(source: &SourceArgs) -> Vec<(String, Option<String>)> {
    source
        .defines
        .iter()
        .map(|d| match d.split_once('=') {
            Some((n, v)) => (n.to_string(), Some(v.to_string())),
            None => (d.clone(), None),
        })
        .collect()
}
