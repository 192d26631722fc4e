//! Running the commands: load the programs, hand them to `tass-verify`, print the
//! report in the chosen format, and return the exit status.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use tass_model::api::{render_model, Model};
use tass_verify::api::{
    check_signatures, compare, verify, Options, Report, SignedOverflow, UrgentChoice,
};

use crate::args::{CheckArgs, Cli, Command, CompareArgs, Format, ShowArgs, SourceArgs, VerifyArgs};
use crate::frontend::load_program;

/// Runs the parsed command line; returns the exit status.
pub(crate) fn run(cli: Cli) -> i32 {
    match cli.command {
        Command::Show(args) => show(args),
        Command::Verify(args) => run_verify(args),
        Command::Compare(args) => run_compare(args),
    }
}

fn show(args: ShowArgs) -> i32 {
    match load_program(&args.files, &args.source) {
        Ok(model) => {
            // `tass show x.c | head` closes stdout early: not an error worth a panic.
            let _ = write!(std::io::stdout(), "{}", render_model(&model));
            0
        }
        Err(message) => {
            eprintln!("{message}");
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

fn options(check: &CheckArgs) -> Result<Options, String> {
    let mut inputs = Vec::new();
    for binding in &check.inputs {
        let Some((name, value)) = binding.split_once('=') else {
            return Err(format!(
                "error: `--input {binding}` is not of the form NAME=VALUE (e.g. -i N=10)"
            ));
        };
        let (name, value) = (name.trim(), value.trim());
        if name.is_empty() || value.is_empty() {
            return Err(format!(
                "error: `--input {binding}` needs a name and a value (e.g. -i N=10)"
            ));
        }
        inputs.push((name.to_string(), value.to_string()));
    }
    let timeout = match check.timeout {
        None => None,
        Some(t) if t.is_finite() && t > 0.0 => Some(Duration::from_secs_f64(t)),
        Some(t) => {
            return Err(format!(
                "error: --timeout {t}: give a positive number of seconds"
            ))
        }
    };
    Ok(Options {
        procs: 1,
        spec_procs: 1,
        impl_procs: 1,
        inputs,
        deadlock: check.deadlock,
        prover: check.prover,
        arith: check.arith,
        signed_overflow: if check.signed_overflow {
            SignedOverflow::Checked
        } else {
            SignedOverflow::Unchecked
        },
        reduction: check.por,
        urgent_choice: if check.cqmin {
            UrgentChoice::ShortestSnapshotQueue
        } else {
            UrgentChoice::First
        },
        max_states: check.max_states,
        timeout,
        max_violations: check.max_violations,
        cancel: Some(cancel_flag()),
    })
}

fn check_procs(what: &str, n: usize) -> Result<usize, String> {
    if n == 0 {
        Err(format!("error: {what} must be at least 1"))
    } else {
        Ok(n)
    }
}

fn run_verify(args: VerifyArgs) -> i32 {
    let check = &args.check;
    let prepared = (|| {
        let mut options = options(check)?;
        options.procs = check_procs("--procs", args.procs)?;
        let model = load_program(&args.files, &check.source)?;
        Ok::<_, String>((options, model))
    })();
    let report = match prepared {
        Ok((options, model)) => {
            if check.verbose {
                describe_model("program", &model);
            }
            verify(&model, &options)
        }
        Err(message) => Report::error(message),
    };
    emit(&report, check)
}

fn compare_files(args: &CompareArgs) -> Result<(Vec<PathBuf>, Vec<PathBuf>), String> {
    let named = !args.spec.is_empty() || !args.implementation.is_empty();
    if named {
        if !args.files.is_empty() {
            return Err(format!(
                "error: give the programs either as --spec FILE... --impl FILE... or as \
                 SPEC.c IMPL.c, not both (extra: {})",
                show_paths(&args.files)
            ));
        }
        if args.spec.is_empty() {
            return Err(
                "error: --impl given without --spec: name the specification's \
                        files with --spec FILE..."
                    .into(),
            );
        }
        if args.implementation.is_empty() {
            return Err(
                "error: --spec given without --impl: name the implementation's \
                        files with --impl FILE..."
                    .into(),
            );
        }
        return Ok((args.spec.clone(), args.implementation.clone()));
    }
    match args.files.as_slice() {
        [spec, imp] => Ok((vec![spec.clone()], vec![imp.clone()])),
        files => Err(format!(
            "error: tass compare needs two programs: `tass compare SPEC.c IMPL.c` or \
             `tass compare --spec FILE... --impl FILE...` (got {} file{})",
            files.len(),
            if files.len() == 1 { "" } else { "s" }
        )),
    }
}

fn show_paths(paths: &[PathBuf]) -> String {
    paths
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn run_compare(args: CompareArgs) -> i32 {
    let check = &args.check;
    let prepared = (|| {
        let mut options = options(check)?;
        let both = args.procs.unwrap_or(1);
        options.spec_procs = check_procs("--spec-procs", args.spec_procs.unwrap_or(both))?;
        options.impl_procs = check_procs("--impl-procs", args.impl_procs.unwrap_or(both))?;
        let (spec_files, impl_files) = compare_files(&args)?;
        let spec = load_program(&spec_files, &check.source)?;
        let imp = load_program(&impl_files, &check.source)?;
        check_signatures(&spec, &imp)?;
        Ok::<_, String>((options, spec, imp))
    })();
    let report = match prepared {
        Ok((options, spec, imp)) => {
            if check.verbose {
                describe_model("specification", &spec);
                describe_model("implementation", &imp);
            }
            compare(&spec, &imp, &options)
        }
        Err(message) => Report::error(message),
    };
    emit(&report, check)
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

/// Prints the report, writes `--trace`, and returns the exit status.
fn emit(report: &Report, check: &CheckArgs) -> i32 {
    let mut code = report.exit_code();
    if let Some(path) = &check.trace {
        if let Err(message) = write_trace(report, path) {
            eprintln!("{message}");
            if code == 0 {
                code = 2;
            }
        }
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let printed = match check.format {
        Format::Json => writeln!(out, "{}", pretty_json(&report.to_json())),
        Format::Sarif => writeln!(out, "{}", pretty_json(&report.to_sarif())),
        Format::Text => {
            // Errors go to stderr (file:line:column: error: ...); the rest to stdout.
            if let Some(error) = &report.error {
                eprintln!("{error}");
                let mut quiet = report.clone();
                quiet.error = None;
                write!(out, "{}", quiet.to_text(check.stats, check.quiet))
            } else {
                write!(out, "{}", report.to_text(check.stats, check.quiet))
            }
        }
    };
    // A closed stdout (e.g. `| head`) must not turn into a panic.
    let _ = printed;
    let _ = out.flush();
    code
}

fn pretty_json(value: &serde_json::Value) -> String {
    serde_json::to_string_pretty(value).unwrap_or_else(|_| value.to_string())
}

fn write_trace(report: &Report, path: &Path) -> Result<(), String> {
    let value = report.trace_json().unwrap_or(serde_json::Value::Null);
    std::fs::write(path, pretty_json(&value) + "\n")
        .map_err(|e| format!("error: cannot write the trace to {}: {e}", path.display()))
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
