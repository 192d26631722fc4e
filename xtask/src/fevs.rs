//! `cargo xtask fevs`: runs the FEVS benchmark suite in `fevs/` and checks every verdict.
//!
//! `fevs/manifest.toml` lists the runs (a tass command line, the expected verdict and,
//! for violations, the property and line). For each selected run the harness calls
//! `tass <cmd> --format json --stats <args>` from `fevs/`, reads DESIGN.md's JSON object,
//! compares it with the manifest and prints a table in the style of the TASS paper's
//! Fig. 10 (time, states seen / saved, prover calls, symbolic values, memory), with the
//! paper's figures beside ours where the manifest records them.
//!
//! ```text
//! cargo xtask fevs [--quick] [--filter SUBSTR] [--issue N] [--allow-unsupported]
//!                  [--no-build] [--tass PATH] [--run-timeout SECS] [--list]
//!                  [--tass-arg ARG]...   (ARG given to every run, e.g. --tass-arg=--jobs=2)
//! cargo xtask fevs --crosscheck [--filter SUBSTR] [--issue N] [--no-build] [--tass PATH]
//! cargo xtask fevs --replay [--quick] [--filter SUBSTR] [--issue N] [--no-build] [--tass PATH]
//! ```
//!
//! `--replay` runs every selected run that expects a violation with `--trace` and
//! replays the trace concretely with `tass replay` (`fevs/replay.rs`): one line per
//! run, reproduced / not reproduced / cannot replay.
//!
//! A run whose feature tass does not implement yet (exit 2 with "unsupported" or "not
//! yet supported" / "not implemented") is counted apart as *unsupported*; that is still
//! a failure unless `--allow-unsupported` is given. Every other mismatch — wrong
//! verdict, property, line, an exit status that contradicts the verdict, no JSON, a
//! crash, the harness's time limit — is a failure. Exit status: 0 all good, 1 some run
//! failed, 2 usage, manifest or build error.
//!
//! `--crosscheck` runs the programs with `mpirun_procs` concretely: each is compiled
//! with `mpicc -DFEVS_CONCRETE` (the concrete build fills input arrays and prints its
//! outputs as `OUT name = value`), the implementation runs under `mpirun`, the
//! specification of a compare pair on its own, and their OUT lines must agree with
//! each other and with `expect_out`. tass's side of the check (the same program, the
//! same fixed inputs) is compared when tass's JSON carries an `outputs` object;
//! otherwise the report says so. Without OpenMPI the cross-check is skipped with a
//! reason, or fails when `TASS_REQUIRE_MPI=1`.

use serde::Deserialize;
use std::collections::BTreeMap;

mod replay;
use std::fmt::Write as _;
use std::io::{IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Property IDs of DESIGN.md ("JSON output"); a manifest may only expect these.
const PROPERTY_IDS: &[&str] = &[
    "assertion",
    "out-of-bounds",
    "invalid-pointer",
    "division-by-zero",
    "memory-leak",
    "mpi-init-finalize",
    "deadlock",
    "mpi-count",
    "mpi-rank",
    "mpi-type",
    "unreceived-message",
    "buffer-overflow",
    "collective-mismatch",
    "not-equivalent",
    "collective-assertion",
    "invariant",
    "resource-leak",
    "local-concurrency",
    "epoch",
    "rma-race",
    "ltl",
    "mpi-tag",
];

/// Phrases by which tass says a construct or command is not implemented yet.
const UNSUPPORTED_PHRASES: &[&str] = &[
    "unsupported",
    "not yet supported",
    "not supported",
    "not implemented",
    "implemented yet",
];

const USAGE: &str = "\
usage: cargo xtask fevs [OPTIONS]
  --quick               only the quick subset (quick = true in the manifest)
  --filter SUBSTR       only runs whose name contains SUBSTR
  --issue N             only runs of issue N (4: sequential, 5: MPI)
  --allow-unsupported   runs tass reports as unsupported do not fail the suite
  --crosscheck          run the concrete programs under mpirun instead (see fevs/README.md)
  --replay              replay every violating run concretely (`tass replay`) instead
  --no-build            do not run `cargo build --release -p tass-cli` first
  --tass PATH           use this tass binary (implies --no-build)
  --run-timeout SECS    harness time limit per run (default 600)
  --tass-arg ARG        pass ARG to every tass run too (repeatable), e.g. --tass-arg=--jobs=2
  --list                list the selected runs and exit";

// ---------------------------------------------------------------------------------
// The manifest
// ---------------------------------------------------------------------------------

/// An expected verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Verdict {
    Holds,
    Violated,
    Inconclusive,
}

impl Verdict {
    fn as_str(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::Violated => "violated",
            Verdict::Inconclusive => "inconclusive",
        }
    }

    /// The exit status DESIGN.md gives this verdict.
    fn exit_status(self) -> i32 {
        match self {
            Verdict::Holds => 0,
            Verdict::Violated => 1,
            Verdict::Inconclusive => 3,
        }
    }
}

/// Published figures for the same configuration (TASS paper Fig. 10 by default).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Paper {
    pub source: Option<String>,
    pub bounds: String,
    pub nprocs: u32,
    pub time_s: f64,
    pub seen: u64,
    pub saved: Option<u64>,
    pub values: Option<u64>,
    pub proofs: Option<u64>,
    pub mem_mb: Option<u64>,
}

/// One `[[run]]` of the manifest.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    pub name: String,
    pub args: Vec<String>,
    pub expect: Verdict,
    pub property: Option<String>,
    pub line: Option<u64>,
    pub file: Option<String>,
    pub quick: bool,
    pub issue: u32,
    #[serde(default)]
    pub bounds: String,
    pub note: Option<String>,
    pub paper: Option<Paper>,
    pub mpirun_procs: Option<u32>,
    #[serde(default)]
    pub fixed_inputs: BTreeMap<String, toml::Value>,
    #[serde(default)]
    pub expect_out: BTreeMap<String, toml::Value>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ManifestFile {
    run: Vec<Entry>,
}

impl Entry {
    /// `verify` or `compare`.
    fn command(&self) -> &str {
        self.args.first().map(String::as_str).unwrap_or("")
    }

    /// The C files named on the command line, in order.
    pub fn c_files(&self) -> Vec<&str> {
        self.args
            .iter()
            .map(String::as_str)
            .filter(|a| a.ends_with(".c"))
            .collect()
    }

    /// (specification, implementation) of a compare run; `None` for verify.
    pub fn compare_pair(&self) -> Option<(&str, &str)> {
        if self.command() != "compare" {
            return None;
        }
        let value_of = |flag: &str| {
            self.args
                .windows(2)
                .find(|w| w[0] == flag)
                .map(|w| w[1].as_str())
        };
        if let (Some(spec), Some(imp)) = (value_of("--spec"), value_of("--impl")) {
            return Some((spec, imp));
        }
        match self.c_files().as_slice() {
            [spec, imp] => Some((spec, imp)),
            _ => None,
        }
    }

    /// The file a violation's line refers to.
    pub fn line_file(&self) -> Option<&str> {
        self.file
            .as_deref()
            .or_else(|| self.c_files().last().copied())
    }

    /// The number of processes of the checked program (the implementation for compare).
    pub fn procs(&self) -> u32 {
        let mut procs = 1;
        let mut it = self.args.iter().peekable();
        while let Some(arg) = it.next() {
            let parsed = match arg.as_str() {
                "-n" | "--procs" | "--impl-procs" => it.peek().and_then(|v| v.parse().ok()),
                a => ["-np=", "-np2=", "--procs=", "--impl-procs="]
                    .iter()
                    .find_map(|p| a.strip_prefix(p))
                    .and_then(|v| v.parse().ok()),
            };
            if let Some(p) = parsed {
                procs = p;
            }
        }
        procs
    }

    /// The expectation as one table cell: `holds`, `violated:assertion@31`.
    fn expect_cell(&self) -> String {
        let mut s = self.expect.as_str().to_string();
        if let Some(p) = &self.property {
            let _ = write!(s, ":{p}");
        }
        if let Some(l) = self.line {
            let _ = write!(s, "@{l}");
        }
        s
    }
}

/// Parses and validates a manifest's text.
pub fn parse_manifest(text: &str) -> Result<Vec<Entry>, String> {
    let file: ManifestFile = toml::from_str(text).map_err(|e| format!("{e}"))?;
    let mut seen_names = std::collections::BTreeSet::new();
    for e in &file.run {
        let at = format!("run \"{}\"", e.name);
        if e.name.trim().is_empty() {
            return Err("a run has an empty name".into());
        }
        if !seen_names.insert(e.name.clone()) {
            return Err(format!("{at}: the name is used twice"));
        }
        if !matches!(e.command(), "verify" | "compare") {
            return Err(format!(
                "{at}: args must start with \"verify\" or \"compare\", not {:?}",
                e.command()
            ));
        }
        if e.c_files().is_empty() {
            return Err(format!("{at}: args name no .c file"));
        }
        if e.command() == "compare" && e.compare_pair().is_none() {
            return Err(format!(
                "{at}: a compare needs --spec FILE --impl FILE, or exactly two .c files"
            ));
        }
        if e.args.iter().any(|a| a == "--format" || a == "--stats") {
            return Err(format!(
                "{at}: leave --format and --stats out of args; the harness adds them"
            ));
        }
        match (e.expect, &e.property) {
            (Verdict::Violated, None) => {
                return Err(format!("{at}: expect = \"violated\" needs a property"))
            }
            (Verdict::Violated, Some(p)) if !PROPERTY_IDS.contains(&p.as_str()) => {
                return Err(format!(
                    "{at}: unknown property {p:?}; DESIGN.md's IDs are {}",
                    PROPERTY_IDS.join(", ")
                ))
            }
            (Verdict::Holds | Verdict::Inconclusive, Some(_)) => {
                return Err(format!(
                    "{at}: a property is only expected with \"violated\""
                ))
            }
            _ => {}
        }
        if e.line.is_some() && e.property.is_none() {
            return Err(format!("{at}: line without property"));
        }
        if e.line == Some(0) {
            return Err(format!("{at}: lines count from 1"));
        }
        if e.file.is_some() && e.line.is_none() {
            return Err(format!("{at}: file without line"));
        }
        if !matches!(e.issue, 4 | 5) {
            return Err(format!("{at}: issue must be 4 or 5"));
        }
        if e.mpirun_procs == Some(0) {
            return Err(format!("{at}: mpirun_procs must be at least 1"));
        }
        if e.mpirun_procs.is_none() && (!e.fixed_inputs.is_empty() || !e.expect_out.is_empty()) {
            return Err(format!(
                "{at}: fixed_inputs / expect_out need mpirun_procs (they describe the concrete run)"
            ));
        }
        for (k, v) in e.fixed_inputs.iter().chain(e.expect_out.iter()) {
            if scalar_text(v).is_none() {
                return Err(format!("{at}: {k} must be a number or a string"));
            }
        }
        if let Some(p) = &e.paper {
            if p.nprocs == 0 || p.time_s < 0.0 {
                return Err(format!("{at}: paper figures look wrong"));
            }
        }
    }
    Ok(file.run)
}

/// A TOML scalar as text (`-i NAME=VALUE`, OUT comparison).
fn scalar_text(v: &toml::Value) -> Option<String> {
    match v {
        toml::Value::Integer(i) => Some(i.to_string()),
        toml::Value::Float(f) => Some(f.to_string()),
        toml::Value::String(s) => Some(s.clone()),
        _ => None,
    }
}

// ---------------------------------------------------------------------------------
// tass's JSON answer and its judgement
// ---------------------------------------------------------------------------------

/// DESIGN.md's JSON object (lenient: unknown fields are ignored, missing ones default).
#[derive(Debug, Clone, Default, Deserialize)]
pub struct Report {
    pub verdict: String,
    #[serde(default)]
    pub violations: Vec<Violation>,
    pub error: Option<String>,
    pub stats: Option<Stats>,
    /// Not in DESIGN.md yet: the outputs' values, for the cross-check.
    pub outputs: Option<serde_json::Map<String, serde_json::Value>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Violation {
    pub property: String,
    pub certainty: Option<String>,
    pub message: Option<String>,
    pub file: Option<String>,
    pub line: Option<u64>,
    pub process: Option<i64>,
}

#[derive(Debug, Clone, Default, Deserialize)]
pub struct Stats {
    pub states_seen: Option<u64>,
    pub states_saved: Option<u64>,
    pub transitions: Option<u64>,
    pub prover_calls: Option<u64>,
    pub smt_calls: Option<u64>,
    pub symbolic_values: Option<u64>,
    pub time_s: Option<f64>,
    pub memory_mb: Option<f64>,
}

/// What became of one run.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Pass,
    /// tass answered, but not what the manifest expects.
    Fail(String),
    /// tass says the feature is not implemented yet.
    Unsupported(String),
    /// No usable answer: crash, no JSON, harness time limit, tass error.
    Error(String),
}

/// The raw result of running tass once.
#[derive(Debug, Clone, Default)]
pub struct RawRun {
    pub exit: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    pub elapsed: Duration,
    pub timed_out: bool,
}

fn looks_unsupported(text: &str) -> bool {
    let lower = text.to_lowercase();
    UNSUPPORTED_PHRASES.iter().any(|p| lower.contains(p))
}

fn first_line(text: &str) -> &str {
    text.lines()
        .map(str::trim)
        .find(|l| !l.is_empty())
        .unwrap_or("")
}

/// A message without its leading `error:` and `file:line:column:` location, so that
/// the same missing feature met in different files reads the same.
fn without_location(msg: &str) -> &str {
    let mut rest = msg.trim();
    rest = rest.strip_prefix("error:").unwrap_or(rest).trim_start();
    // "path:12:5: text" -> "text"
    let mut parts = rest.splitn(4, ':');
    if let (Some(_), Some(line), Some(col), Some(text)) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    {
        if line.trim().parse::<u64>().is_ok() && col.trim().parse::<u64>().is_ok() {
            rest = text.trim_start();
        }
    }
    rest
}

fn basename(path: &str) -> &str {
    Path::new(path)
        .file_name()
        .and_then(|f| f.to_str())
        .unwrap_or(path)
}

/// Finds DESIGN.md's JSON object on tass's stdout: the whole output, or else its last
/// line that parses (in case something was printed before it).
pub fn parse_report(stdout: &str) -> Option<Report> {
    if let Ok(r) = serde_json::from_str::<Report>(stdout.trim()) {
        return Some(r);
    }
    stdout
        .lines()
        .rev()
        .filter(|l| l.trim_start().starts_with('{'))
        .find_map(|l| serde_json::from_str::<Report>(l.trim()).ok())
}

fn describe_violation(v: &Violation) -> String {
    let mut s = v.property.clone();
    if let Some(l) = v.line {
        match &v.file {
            Some(f) => {
                let _ = write!(s, " at {}:{l}", basename(f));
            }
            None => {
                let _ = write!(s, " at line {l}");
            }
        }
    }
    let mut extra: Vec<String> = Vec::new();
    if let Some(c) = &v.certainty {
        extra.push(c.clone());
    }
    if let Some(p) = v.process {
        extra.push(format!("process {p}"));
    }
    if let Some(m) = &v.message {
        extra.push(m.clone());
    }
    if !extra.is_empty() {
        let _ = write!(s, " ({})", extra.join(", "));
    }
    s
}

/// Compares tass's answer with the manifest's expectation.
pub fn judge(entry: &Entry, run: &RawRun, limit: Duration) -> (Outcome, Option<Report>) {
    if run.timed_out {
        return (
            Outcome::Error(format!(
                "no answer within {} s (the harness's limit; raise it with --run-timeout)",
                limit.as_secs()
            )),
            None,
        );
    }
    let exit_text = run
        .exit
        .map_or_else(|| "killed by a signal".to_string(), |c| format!("exit {c}"));
    let Some(report) = parse_report(&run.stdout) else {
        let why = first_line(&run.stderr).to_string();
        if run.exit == Some(2) && looks_unsupported(&run.stderr) {
            return (Outcome::Unsupported(why), None);
        }
        let why = if why.is_empty() {
            first_line(&run.stdout).to_string()
        } else {
            why
        };
        return (
            Outcome::Error(format!("no JSON object on stdout ({exit_text}): {why}")),
            None,
        );
    };
    let outcome = judge_report(entry, &report, run.exit, &run.stderr);
    (outcome, Some(report))
}

fn judge_report(entry: &Entry, report: &Report, exit: Option<i32>, stderr: &str) -> Outcome {
    let got = match report.verdict.as_str() {
        "holds" => Verdict::Holds,
        "violated" => Verdict::Violated,
        "inconclusive" => Verdict::Inconclusive,
        "error" => {
            let msg = report
                .error
                .clone()
                .unwrap_or_else(|| first_line(stderr).to_string());
            if looks_unsupported(&msg) || (msg.is_empty() && looks_unsupported(stderr)) {
                return Outcome::Unsupported(msg);
            }
            return Outcome::Error(format!("tass reported an error: {msg}"));
        }
        other => return Outcome::Error(format!("unknown verdict {other:?} in tass's JSON")),
    };
    if let Some(v) = report
        .violations
        .iter()
        .find(|v| v.property == "unsupported")
    {
        return Outcome::Unsupported(describe_violation(v));
    }
    if exit != Some(got.exit_status()) {
        return Outcome::Fail(format!(
            "verdict \"{}\" but exit status {} (DESIGN.md: {})",
            got.as_str(),
            exit.map_or_else(|| "none".to_string(), |c| c.to_string()),
            got.exit_status()
        ));
    }
    if got != entry.expect {
        let detail = match report.violations.first() {
            Some(v) if got == Verdict::Violated => format!(": {}", describe_violation(v)),
            _ => String::new(),
        };
        return Outcome::Fail(format!(
            "expected {}, got {}{detail}",
            entry.expect.as_str(),
            got.as_str()
        ));
    }
    if got != Verdict::Violated {
        return Outcome::Pass;
    }
    let Some(property) = &entry.property else {
        return Outcome::Pass;
    };
    let matching: Vec<&Violation> = report
        .violations
        .iter()
        .filter(|v| &v.property == property)
        .collect();
    if matching.is_empty() {
        let got: Vec<String> = report.violations.iter().map(describe_violation).collect();
        return Outcome::Fail(format!(
            "expected a {property} violation, got [{}]",
            got.join("; ")
        ));
    }
    let Some(line) = entry.line else {
        return Outcome::Pass;
    };
    let want_file = entry.line_file().map(basename);
    let at_line = matching.iter().any(|v| {
        v.line == Some(line)
            && match (&v.file, want_file) {
                (Some(f), Some(w)) => basename(f) == w,
                _ => true,
            }
    });
    if at_line {
        Outcome::Pass
    } else {
        let got: Vec<String> = matching.iter().map(|v| describe_violation(v)).collect();
        Outcome::Fail(format!(
            "{property} expected at {}:{line}, reported [{}]",
            want_file.unwrap_or("?"),
            got.join("; ")
        ))
    }
}

// ---------------------------------------------------------------------------------
// Running
// ---------------------------------------------------------------------------------

#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    pub quick: bool,
    pub filter: Option<String>,
    pub issue: Option<u32>,
    pub allow_unsupported: bool,
    pub crosscheck: bool,
    pub replay: bool,
    pub build: bool,
    pub tass: Option<PathBuf>,
    pub run_timeout: Duration,
    pub list: bool,
    /// `--tass-arg ARG`: passed to every tass run after the manifest's
    /// arguments (e.g. `--tass-arg=--jobs=2`: the suite with the parallel search).
    pub tass_args: Vec<String>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            quick: false,
            filter: None,
            issue: None,
            allow_unsupported: false,
            crosscheck: false,
            replay: false,
            build: true,
            tass: None,
            run_timeout: Duration::from_secs(600),
            list: false,
            tass_args: Vec::new(),
        }
    }
}

pub fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut o = Options::default();
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |what: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{arg} needs {what}"))
        };
        match arg.as_str() {
            "--quick" => o.quick = true,
            "--filter" => o.filter = Some(value("a substring")?),
            "--issue" => {
                let v = value("a number")?;
                o.issue = Some(
                    v.parse()
                        .map_err(|_| format!("--issue takes 4 or 5, not {v:?}"))?,
                );
            }
            "--allow-unsupported" => o.allow_unsupported = true,
            "--crosscheck" => o.crosscheck = true,
            "--replay" => o.replay = true,
            "--no-build" => o.build = false,
            "--tass" => {
                o.tass = Some(PathBuf::from(value("a path")?));
                o.build = false;
            }
            "--run-timeout" => {
                let v = value("seconds")?;
                let secs: u64 = v
                    .parse()
                    .map_err(|_| format!("--run-timeout takes whole seconds, not {v:?}"))?;
                o.run_timeout = Duration::from_secs(secs.max(1));
            }
            "--list" => o.list = true,
            "--tass-arg" => o.tass_args.push(value("an argument")?),
            other if other.starts_with("--tass-arg=") => {
                o.tass_args
                    .push(other.trim_start_matches("--tass-arg=").to_string());
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown option {other:?}")),
        }
    }
    Ok(o)
}

fn selected<'a>(entries: &'a [Entry], o: &Options) -> Vec<&'a Entry> {
    entries
        .iter()
        .filter(|e| !o.quick || e.quick)
        .filter(|e| {
            o.filter
                .as_ref()
                .is_none_or(|f| e.name.contains(f.as_str()))
        })
        .filter(|e| o.issue.is_none_or(|i| e.issue == i))
        .filter(|e| !o.crosscheck || e.mpirun_procs.is_some())
        .collect()
}

pub fn fevs_dir() -> PathBuf {
    crate::deps::repo_root().join("fevs")
}

pub fn load_manifest() -> Result<Vec<Entry>, String> {
    let path = fevs_dir().join("manifest.toml");
    let text = std::fs::read_to_string(&path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    parse_manifest(&text).map_err(|e| format!("{}: {e}", path.display()))
}

pub fn target_dir() -> PathBuf {
    let root = crate::deps::repo_root();
    match std::env::var_os("CARGO_TARGET_DIR") {
        Some(d) => {
            let d = PathBuf::from(d);
            if d.is_absolute() {
                d
            } else {
                root.join(d)
            }
        }
        None => root.join("target"),
    }
}

/// Builds tass in release mode and returns the binary's path.
pub fn build_tass() -> Result<PathBuf, String> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    println!("fevs: cargo build --release -p tass-cli");
    let status = Command::new(&cargo)
        .args(["build", "--release", "-p", "tass-cli"])
        .current_dir(crate::deps::repo_root())
        .status()
        .map_err(|e| format!("cannot run {cargo}: {e}"))?;
    if !status.success() {
        return Err(format!("building tass failed ({status})"));
    }
    Ok(release_binary())
}

pub fn release_binary() -> PathBuf {
    target_dir()
        .join("release")
        .join(format!("tass{}", std::env::consts::EXE_SUFFIX))
}

/// Runs a program with a time limit, collecting its output.
pub fn run_with_limit(cmd: &mut Command, limit: Duration) -> Result<RawRun, String> {
    let start = Instant::now();
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {:?}: {e}", cmd.get_program()))?;
    let drain = |pipe: Option<Box<dyn Read + Send>>| {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            String::from_utf8_lossy(&buf).into_owned()
        })
    };
    let out = drain(
        child
            .stdout
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let err = drain(
        child
            .stderr
            .take()
            .map(|p| Box::new(p) as Box<dyn Read + Send>),
    );
    let mut timed_out = false;
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if start.elapsed() >= limit => {
                timed_out = true;
                let _ = child.kill();
                break child.wait().ok();
            }
            Ok(None) => std::thread::sleep(Duration::from_millis(20)),
            Err(e) => return Err(format!("waiting for {:?}: {e}", cmd.get_program())),
        }
    };
    Ok(RawRun {
        exit: status.and_then(|s| s.code()),
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
        elapsed: start.elapsed(),
        timed_out,
    })
}

/// The tass command line of a run: the subcommand, the harness's options, the rest.
pub fn tass_args(entry: &Entry) -> Vec<String> {
    let mut args = vec![entry.command().to_string()];
    args.extend(["--format", "json", "--stats"].map(String::from));
    args.extend(entry.args.iter().skip(1).cloned());
    args
}

struct Row<'a> {
    entry: &'a Entry,
    outcome: Outcome,
    report: Option<Report>,
    elapsed: Duration,
}

pub fn run(args: &[String]) -> i32 {
    let opts = match parse_options(args) {
        Ok(o) => o,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("fevs: {e}");
            }
            eprintln!("{USAGE}");
            return 2;
        }
    };
    let entries = match load_manifest() {
        Ok(e) => e,
        Err(e) => {
            eprintln!("fevs: {e}");
            return 2;
        }
    };
    let chosen = selected(&entries, &opts);
    if opts.list {
        for e in &chosen {
            println!(
                "{:<28} {:<26} tass {}",
                e.name,
                e.expect_cell(),
                e.args.join(" ")
            );
        }
        return 0;
    }
    if chosen.is_empty() {
        eprintln!("fevs: no run matches the selection");
        return 2;
    }
    let tass = match (&opts.tass, opts.build) {
        (Some(p), _) => p.clone(),
        (None, true) => match build_tass() {
            Ok(p) => p,
            Err(e) => {
                eprintln!("fevs: {e}");
                return 2;
            }
        },
        (None, false) => release_binary(),
    };
    if opts.crosscheck {
        return crosscheck(&chosen, &tass, &opts);
    }
    if opts.replay {
        return replay::replay_all(&chosen, &tass, &opts);
    }
    if !tass.is_file() {
        eprintln!(
            "fevs: no tass binary at {} (build it, or drop --no-build)",
            tass.display()
        );
        return 2;
    }
    let dir = fevs_dir();
    let progress = std::io::stderr().is_terminal();
    let mut rows = Vec::new();
    for e in chosen {
        if progress {
            eprint!("fevs: {:<40}\r", e.name);
        }
        let mut cmd = Command::new(&tass);
        cmd.args(tass_args(e))
            .args(&opts.tass_args)
            .current_dir(&dir);
        let raw = match run_with_limit(&mut cmd, opts.run_timeout) {
            Ok(r) => r,
            Err(msg) => {
                rows.push(Row {
                    entry: e,
                    outcome: Outcome::Error(msg),
                    report: None,
                    elapsed: Duration::ZERO,
                });
                continue;
            }
        };
        let (outcome, report) = judge(e, &raw, opts.run_timeout);
        rows.push(Row {
            entry: e,
            outcome,
            report,
            elapsed: raw.elapsed,
        });
    }
    if progress {
        eprint!("{:<46}\r", "");
    }
    print!("{}", render_table(&rows));
    summarize(&rows, opts.allow_unsupported)
}

// ---------------------------------------------------------------------------------
// The table
// ---------------------------------------------------------------------------------

fn opt_u64(v: Option<u64>) -> String {
    v.map_or_else(|| "-".to_string(), |n| n.to_string())
}

fn got_cell(row: &Row) -> String {
    match (&row.outcome, &row.report) {
        (Outcome::Unsupported(_), _) => "unsupported".into(),
        (Outcome::Error(_), None) => "error".into(),
        (_, Some(r)) => {
            let mut s = r.verdict.clone();
            if let Some(v) = r.violations.first() {
                let _ = write!(s, ":{}", v.property);
                if let Some(l) = v.line {
                    let _ = write!(s, "@{l}");
                }
            }
            s
        }
        (_, None) => "-".into(),
    }
}

fn result_cell(o: &Outcome) -> &'static str {
    match o {
        Outcome::Pass => "ok",
        Outcome::Fail(_) => "FAIL",
        Outcome::Unsupported(_) => "unsup",
        Outcome::Error(_) => "ERROR",
    }
}

fn render_table(rows: &[Row]) -> String {
    let header = [
        "program",
        "bounds",
        "np",
        "time s",
        "seen",
        "saved",
        "trans",
        "prover all/smt",
        "values",
        "mem MB",
        "expected",
        "got",
        "result",
        "paper: bounds np time s seen saved values proofs mem",
    ];
    let mut cells: Vec<Vec<String>> = Vec::new();
    for row in rows {
        let e = row.entry;
        let stats = row.report.as_ref().and_then(|r| r.stats.clone());
        let st = stats.unwrap_or_default();
        let time = st.time_s.map_or_else(
            || format!("({:.2})", row.elapsed.as_secs_f64()),
            |t| format!("{t:.2}"),
        );
        let paper = e.paper.as_ref().map_or_else(String::new, |p| {
            format!(
                "{} | {} | {} | {} | {} | {} | {} | {}{}",
                p.bounds,
                p.nprocs,
                p.time_s,
                p.seen,
                opt_u64(p.saved),
                opt_u64(p.values),
                opt_u64(p.proofs),
                opt_u64(p.mem_mb),
                p.source
                    .as_ref()
                    .map_or_else(String::new, |s| format!(" [{s}]"))
            )
        });
        cells.push(vec![
            e.name.clone(),
            e.bounds.clone(),
            e.procs().to_string(),
            time,
            opt_u64(st.states_seen),
            opt_u64(st.states_saved),
            opt_u64(st.transitions),
            format!("{}/{}", opt_u64(st.prover_calls), opt_u64(st.smt_calls)),
            opt_u64(st.symbolic_values),
            st.memory_mb
                .map_or_else(|| "-".into(), |m| format!("{m:.1}")),
            e.expect_cell(),
            got_cell(row),
            result_cell(&row.outcome).into(),
            paper,
        ]);
    }
    let mut widths: Vec<usize> = header.iter().map(|h| h.len()).collect();
    for r in &cells {
        for (w, c) in widths.iter_mut().zip(r) {
            *w = (*w).max(c.chars().count());
        }
    }
    let mut out = String::new();
    let line = |out: &mut String, r: &[String]| {
        let last = r.len() - 1;
        for (i, (c, w)) in r.iter().zip(&widths).enumerate() {
            if i == last {
                let _ = write!(out, "{c}");
            } else {
                let _ = write!(out, "{c:<w$}  ");
            }
        }
        let trimmed = out.trim_end().len();
        out.truncate(trimmed);
        out.push('\n');
    };
    let head: Vec<String> = header.iter().map(|h| h.to_string()).collect();
    line(&mut out, &head);
    let rule: Vec<String> = widths.iter().map(|w| "-".repeat(*w)).collect();
    line(&mut out, &rule);
    for r in &cells {
        line(&mut out, r);
    }
    out.push_str(
        "time s: tass's own figure; (in parentheses) the harness's wall clock when tass gave none.\n\
         prover all/smt: prover queries / of which went to an SMT solver. paper: TASS (2011) Fig. 10 unless noted; \
         its proofs are CVC3 calls.\n",
    );
    out
}

fn summarize(rows: &[Row], allow_unsupported: bool) -> i32 {
    let count = |f: fn(&Outcome) -> bool| rows.iter().filter(|r| f(&r.outcome)).count();
    let passed = count(|o| matches!(o, Outcome::Pass));
    let failed = count(|o| matches!(o, Outcome::Fail(_)));
    let errors = count(|o| matches!(o, Outcome::Error(_)));
    let unsupported = count(|o| matches!(o, Outcome::Unsupported(_)));
    for (title, pick) in [
        (
            "failures",
            (|o: &Outcome| matches!(o, Outcome::Fail(_))) as fn(&Outcome) -> bool,
        ),
        ("errors", |o: &Outcome| matches!(o, Outcome::Error(_))),
    ] {
        let list: Vec<&Row> = rows.iter().filter(|r| pick(&r.outcome)).collect();
        if list.is_empty() {
            continue;
        }
        println!("\n{title}:");
        for r in list {
            let why = match &r.outcome {
                Outcome::Fail(m) | Outcome::Error(m) | Outcome::Unsupported(m) => m.as_str(),
                Outcome::Pass => "",
            };
            println!("  {:<28} {why}", r.entry.name);
            println!("  {:<28} tass {}", "", tass_args(r.entry).join(" "));
        }
    }
    // Unsupported runs, grouped by what tass said is missing (without the location).
    let mut missing: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    for r in rows {
        if let Outcome::Unsupported(m) = &r.outcome {
            missing
                .entry(without_location(m).to_string())
                .or_default()
                .push(&r.entry.name);
        }
    }
    if !missing.is_empty() {
        println!("\nunsupported (grouped by what tass reports missing):");
        for (why, names) in &missing {
            println!("  {why}");
            println!("    {} run(s): {}", names.len(), names.join(", "));
        }
    }
    let notes: Vec<&Row> = rows.iter().filter(|r| r.entry.note.is_some()).collect();
    if !notes.is_empty() {
        println!("\nnotes:");
        for r in notes {
            println!(
                "  {:<28} {}",
                r.entry.name,
                r.entry.note.as_deref().unwrap_or("")
            );
        }
    }
    println!(
        "\nfevs: {} runs: {passed} passed, {failed} failed, {errors} errors, {unsupported} unsupported{}",
        rows.len(),
        if unsupported > 0 && allow_unsupported {
            " (allowed by --allow-unsupported)"
        } else {
            ""
        }
    );
    let bad = failed + errors + if allow_unsupported { 0 } else { unsupported };
    i32::from(bad > 0)
}

// ---------------------------------------------------------------------------------
// The concrete cross-check with a real MPI
// ---------------------------------------------------------------------------------

/// Reads `OUT name = value` lines (the concrete programs' output format).
pub fn parse_out_lines(stdout: &str) -> BTreeMap<String, String> {
    stdout
        .lines()
        .filter_map(|l| l.trim().strip_prefix("OUT "))
        .filter_map(|rest| rest.split_once('='))
        .map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect()
}

/// A number from text: a decimal / float, or an exact rational `p/q`.
fn number(text: &str) -> Option<f64> {
    let t = text.trim();
    if let Ok(v) = t.parse::<f64>() {
        return Some(v);
    }
    let (p, q) = t.split_once('/')?;
    let (p, q) = (p.trim().parse::<f64>().ok()?, q.trim().parse::<f64>().ok()?);
    (q != 0.0).then(|| p / q)
}

/// Two printed values agree: equal text, or numbers equal up to floating-point noise
/// (the programs agree over the reals, not necessarily bit for bit).
pub fn values_agree(a: &str, b: &str) -> bool {
    if a.trim() == b.trim() {
        return true;
    }
    match (number(a), number(b)) {
        (Some(x), Some(y)) => (x - y).abs() <= 1e-9 * x.abs().max(y.abs()).max(1.0),
        _ => false,
    }
}

/// Differences between two OUT maps, as sentences; empty when they agree.
pub fn compare_outputs(
    left_name: &str,
    left: &BTreeMap<String, String>,
    right_name: &str,
    right: &BTreeMap<String, String>,
) -> Vec<String> {
    let mut diffs = Vec::new();
    for (k, v) in left {
        match right.get(k) {
            None => diffs.push(format!("{k}: {left_name} prints {v}, {right_name} nothing")),
            Some(w) if !values_agree(v, w) => {
                diffs.push(format!("{k}: {left_name} = {v}, {right_name} = {w}"))
            }
            Some(_) => {}
        }
    }
    for (k, w) in right {
        if !left.contains_key(k) {
            diffs.push(format!("{k}: {right_name} prints {w}, {left_name} nothing"));
        }
    }
    diffs
}

fn tool_available(tool: &str) -> bool {
    Command::new(tool)
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

fn uses_mpi(source: &str) -> bool {
    source.contains("#include <mpi.h>")
}

/// Compiles `src` with mpicc and -DFEVS_CONCRETE and runs it (under mpirun on `procs`
/// processes when it is an MPI program); returns its OUT lines.
pub fn run_concrete(
    src: &Path,
    work: &Path,
    procs: u32,
) -> Result<BTreeMap<String, String>, String> {
    let text =
        std::fs::read_to_string(src).map_err(|e| format!("cannot read {}: {e}", src.display()))?;
    std::fs::create_dir_all(work).map_err(|e| format!("cannot create {}: {e}", work.display()))?;
    let stem = src.file_stem().and_then(|s| s.to_str()).unwrap_or("prog");
    let exe = work.join(stem);
    // fevs/include holds a C version of <tass.h> (`delta`) for the concrete runs.
    let cc = Command::new("mpicc")
        .args(["-std=c99", "-O1", "-DFEVS_CONCRETE", "-I"])
        .arg(fevs_dir().join("include"))
        .arg("-o")
        .arg(&exe)
        .arg(src)
        .arg("-lm")
        .output()
        .map_err(|e| format!("cannot run mpicc: {e}"))?;
    if !cc.status.success() {
        return Err(format!(
            "mpicc {} failed: {}",
            src.display(),
            first_line(&String::from_utf8_lossy(&cc.stderr))
        ));
    }
    let mut cmd = if uses_mpi(&text) {
        let mut c = Command::new("mpirun");
        c.args(["--allow-run-as-root", "--oversubscribe", "-np"])
            .arg(procs.to_string())
            .arg(&exe);
        c
    } else {
        Command::new(&exe)
    };
    cmd.env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .env("OMPI_MCA_rmaps_base_oversubscribe", "1");
    let raw = run_with_limit(&mut cmd, Duration::from_secs(120))?;
    if raw.timed_out {
        return Err(format!("{stem} did not finish within 120 s (hang?)"));
    }
    if raw.exit != Some(0) {
        return Err(format!(
            "{stem} exited with {:?}: {}",
            raw.exit,
            first_line(&raw.stderr)
        ));
    }
    let outs = parse_out_lines(&raw.stdout);
    if outs.is_empty() {
        return Err(format!("{stem} printed no OUT lines"));
    }
    Ok(outs)
}

/// The concrete half of the cross-check for one entry: the program(s) under a real
/// MPI, against each other and against `expect_out`. Returns the implementation's
/// outputs, or what went wrong.
pub fn concrete_check(entry: &Entry, work: &Path) -> Result<BTreeMap<String, String>, Vec<String>> {
    let dir = fevs_dir();
    let procs = entry.mpirun_procs.unwrap_or(1);
    let program = match entry.compare_pair() {
        Some((_, imp)) => imp,
        None => entry.c_files().last().copied().unwrap_or(""),
    };
    let outs = run_concrete(&dir.join(program), work, procs).map_err(|e| vec![e])?;
    let mut problems = Vec::new();
    if let Some((spec, _)) = entry.compare_pair() {
        match run_concrete(&dir.join(spec), &work.join("spec"), 1) {
            Ok(spec_outs) => problems.extend(compare_outputs("spec", &spec_outs, "impl", &outs)),
            Err(e) => problems.push(e),
        }
    }
    for (k, v) in &entry.expect_out {
        let want = scalar_text(v).unwrap_or_default();
        match outs.get(k) {
            Some(got) if values_agree(got, &want) => {}
            Some(got) => problems.push(format!("{k} = {got}, manifest expects {want}")),
            None => problems.push(format!("{k} not printed (manifest expects {want})")),
        }
    }
    if problems.is_empty() {
        Ok(outs)
    } else {
        Err(problems)
    }
}

/// tass's half: the same program with FEVS_CONCRETE defined and every input fixed.
fn tass_outputs(
    entry: &Entry,
    tass: &Path,
    work: &Path,
    limit: Duration,
) -> Result<BTreeMap<String, String>, String> {
    if !tass.is_file() {
        return Err(format!("no tass binary at {}", tass.display()));
    }
    let program = match entry.compare_pair() {
        Some((_, imp)) => imp,
        None => entry.c_files().last().copied().unwrap_or(""),
    };
    let src = fevs_dir().join(program);
    let text =
        std::fs::read_to_string(&src).map_err(|e| format!("cannot read {}: {e}", src.display()))?;
    // A loop invariant summarises its loop: what the program prints after it
    // is not one concrete value, so there is nothing to compare.
    if text.contains("#pragma TASS collective invariant")
        || text.contains("#pragma TASS joint invariant")
    {
        return Err(
            "the program has loop invariants: its outputs after the loop are not concrete".into(),
        );
    }
    let copy = work.join(format!("concrete_{}", basename(program)));
    std::fs::write(&copy, format!("#define FEVS_CONCRETE 1\n{text}"))
        .map_err(|e| format!("cannot write {}: {e}", copy.display()))?;
    let mut cmd = Command::new(tass);
    cmd.args(["verify", "--format", "json", "-n"])
        .arg(entry.mpirun_procs.unwrap_or(1).to_string());
    for (k, v) in &entry.fixed_inputs {
        cmd.arg("-i")
            .arg(format!("{k}={}", scalar_text(v).unwrap_or_default()));
    }
    cmd.arg(&copy);
    let raw = run_with_limit(&mut cmd, limit)?;
    let Some(report) = parse_report(&raw.stdout) else {
        return Err(format!(
            "tass gave no JSON (exit {:?}): {}",
            raw.exit,
            first_line(&raw.stderr)
        ));
    };
    if report.verdict == "error" {
        return Err(format!(
            "tass: {}",
            report
                .error
                .unwrap_or_else(|| first_line(&raw.stderr).into())
        ));
    }
    let Some(outputs) = report.outputs else {
        return Err("tass does not yet print outputs (no \"outputs\" object in its JSON)".into());
    };
    Ok(outputs
        .into_iter()
        .map(|(k, v)| {
            let text = match v {
                serde_json::Value::String(s) => s,
                other => other.to_string(),
            };
            (k, text)
        })
        .collect())
}

fn crosscheck(chosen: &[&Entry], tass: &Path, opts: &Options) -> i32 {
    let require = std::env::var("TASS_REQUIRE_MPI").is_ok_and(|v| v == "1");
    if !tool_available("mpicc") || !tool_available("mpirun") {
        let msg = "mpicc / mpirun not found (install openmpi-bin libopenmpi-dev)";
        if require {
            eprintln!("fevs --crosscheck: {msg}, and TASS_REQUIRE_MPI=1");
            return 1;
        }
        println!("fevs --crosscheck: skipped: {msg}");
        return 0;
    }
    let work_root = target_dir().join("fevs-crosscheck");
    let mut failed = 0;
    let mut compared = 0;
    let mut not_compared = Vec::new();
    for e in chosen {
        let work = work_root.join(&e.name);
        let procs = e.mpirun_procs.unwrap_or(1);
        match concrete_check(e, &work) {
            Err(problems) => {
                failed += 1;
                println!("{:<24} np={procs:<3} FAIL (concrete run)", e.name);
                for p in problems {
                    println!("    {p}");
                }
            }
            Ok(outs) => {
                let shown: Vec<String> = outs
                    .iter()
                    .take(4)
                    .map(|(k, v)| format!("{k} = {v}"))
                    .collect();
                let more = if outs.len() > 4 {
                    format!(" (+{} more)", outs.len() - 4)
                } else {
                    String::new()
                };
                let pair = if e.compare_pair().is_some() {
                    "spec = impl; "
                } else {
                    ""
                };
                println!(
                    "{:<24} np={procs:<3} ok: {pair}{}{more}",
                    e.name,
                    shown.join(", ")
                );
                match tass_outputs(e, tass, &work, opts.run_timeout) {
                    Ok(t) => {
                        compared += 1;
                        let diffs = compare_outputs("mpirun", &outs, "tass", &t);
                        if diffs.is_empty() {
                            println!("    tass agrees");
                        } else {
                            failed += 1;
                            for d in diffs {
                                println!("    tass disagrees: {d}");
                            }
                        }
                    }
                    Err(why) => {
                        println!("    not compared with tass: {why}");
                        not_compared.push(e.name.clone());
                    }
                }
            }
        }
    }
    println!(
        "\nfevs --crosscheck: {} programs; {failed} failed; {compared} compared with tass, {} not compared",
        chosen.len(),
        not_compared.len()
    );
    i32::from(failed > 0)
}

// ---------------------------------------------------------------------------------
// Tests
// ---------------------------------------------------------------------------------

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(toml_run: &str) -> Entry {
        let text = format!("[[run]]\n{toml_run}");
        match parse_manifest(&text) {
            Ok(mut v) => v.remove(0),
            Err(e) => panic!("test manifest rejected: {e}"),
        }
    }

    const HOLDS: &str = r#"name = "x"
args = ["verify", "seq/a.c"]
expect = "holds"
quick = true
issue = 4"#;

    const VIOLATED_AT: &str = r#"name = "x"
args = ["verify", "-i", "B=3", "seq/div_bad.c"]
expect = "violated"
property = "division-by-zero"
line = 38
quick = true
issue = 4"#;

    fn raw(exit: i32, stdout: &str) -> RawRun {
        RawRun {
            exit: Some(exit),
            stdout: stdout.into(),
            ..RawRun::default()
        }
    }

    fn verdict_of(e: &Entry, r: &RawRun) -> Outcome {
        judge(e, r, Duration::from_secs(10)).0
    }

    // ---- manifest parser ----

    #[test]
    fn the_real_manifest_parses_and_covers_both_issues() {
        let entries = load_manifest().unwrap_or_else(|e| panic!("{e}"));
        assert!(entries.iter().any(|e| e.issue == 4 && e.quick));
        assert!(entries.iter().any(|e| e.issue == 5 && e.quick));
        // Every property of the issues has a buggy program expected to violate it.
        for p in [
            "assertion",
            "out-of-bounds",
            "memory-leak",
            "invalid-pointer",
            "division-by-zero",
            "not-equivalent",
            "deadlock",
            "mpi-count",
            "mpi-rank",
            "mpi-type",
            "unreceived-message",
            "buffer-overflow",
            "collective-mismatch",
            "mpi-init-finalize",
        ] {
            assert!(
                entries.iter().any(|e| e.property.as_deref() == Some(p)),
                "no run expects a {p} violation"
            );
        }
        // The paper's Fig. 10 rows are all there.
        let paper_rows = entries
            .iter()
            .filter(|e| e.paper.as_ref().is_some_and(|p| p.source.is_none()))
            .count();
        assert_eq!(paper_rows, 9);
    }

    #[test]
    fn parser_reads_every_field() {
        let e = entry(
            r#"name = "adder"
args = ["compare", "--spec", "mpi/s.c", "--impl", "mpi/p.c", "--impl-procs", "4", "-i", "B=8"]
expect = "holds"
quick = false
issue = 5
bounds = "n <= 8"
note = "a note"
mpirun_procs = 4
fixed_inputs = { B = 10, K = 0.25, S = "x" }
expect_out = { sum = 57.5 }
paper = { bounds = "n <= 200", nprocs = 30, time_s = 443.0, seen = 411044, saved = 6832 }"#,
        );
        assert_eq!(e.expect, Verdict::Holds);
        assert_eq!(e.compare_pair(), Some(("mpi/s.c", "mpi/p.c")));
        assert_eq!(e.procs(), 4);
        assert_eq!(e.mpirun_procs, Some(4));
        assert_eq!(scalar_text(&e.fixed_inputs["K"]).as_deref(), Some("0.25"));
        assert_eq!(scalar_text(&e.fixed_inputs["B"]).as_deref(), Some("10"));
        let p = e.paper.as_ref().map(|p| (p.nprocs, p.seen, p.values));
        assert_eq!(p, Some((30, 411044, None)));
    }

    #[test]
    fn parser_rejects_bad_manifests() {
        let bad = [
            (HOLDS.replace("holds", "passes"), "unknown variant"),
            (
                HOLDS.replace("issue = 4", "issue = 4\nexpected = 1"),
                "unknown field",
            ),
            (HOLDS.replace("quick = true\n", ""), "missing field"),
            (
                VIOLATED_AT.replace("property = \"division-by-zero\"\n", ""),
                "needs a property",
            ),
            (
                VIOLATED_AT.replace("division-by-zero", "div0"),
                "unknown property",
            ),
            (HOLDS.replace("\"verify\"", "\"check\""), "must start with"),
            (HOLDS.replace("seq/a.c", "seq/a.h"), "no .c file"),
            (HOLDS.replace("issue = 4", "issue = 6"), "issue must be"),
            (
                format!("{HOLDS}\nproperty = \"assertion\""),
                "only expected with",
            ),
            (
                format!("{HOLDS}\nfixed_inputs = {{ N = 3 }}"),
                "need mpirun_procs",
            ),
            (
                HOLDS.replace("\"seq/a.c\"", "\"--format\", \"seq/a.c\""),
                "harness adds",
            ),
            (
                HOLDS.replace("[\"verify\", \"seq/a.c\"]", "[\"compare\", \"seq/a.c\"]"),
                "compare needs",
            ),
        ];
        for (text, why) in bad {
            let err = parse_manifest(&format!("[[run]]\n{text}"))
                .err()
                .unwrap_or_else(|| panic!("accepted a manifest that should fail with {why:?}"));
            assert!(err.contains(why), "error {err:?} does not mention {why:?}");
        }
        let twice = format!("[[run]]\n{HOLDS}\n[[run]]\n{HOLDS}");
        assert!(parse_manifest(&twice).is_err_and(|e| e.contains("used twice")));
    }

    #[test]
    fn procs_come_from_every_spelling() {
        let with = |args: &str| entry(&HOLDS.replace(r#"["verify", "seq/a.c"]"#, args)).procs();
        assert_eq!(with(r#"["verify", "seq/a.c"]"#), 1);
        assert_eq!(with(r#"["verify", "-n", "3", "seq/a.c"]"#), 3);
        assert_eq!(with(r#"["verify", "--procs", "5", "seq/a.c"]"#), 5);
        assert_eq!(
            with(r#"["compare", "-np2=30", "-inputB=200", "a.c", "b.c"]"#),
            30
        );
    }

    #[test]
    fn harness_options_go_right_after_the_subcommand() {
        let e = entry(&HOLDS.replace(
            r#"["verify", "seq/a.c"]"#,
            r#"["compare", "-np2=3", "a.c", "b.c"]"#,
        ));
        assert_eq!(
            tass_args(&e),
            ["compare", "--format", "json", "--stats", "-np2=3", "a.c", "b.c"]
        );
    }

    #[test]
    fn options_parse() {
        let args: Vec<String> = [
            "--quick",
            "--filter",
            "adder",
            "--issue",
            "5",
            "--allow-unsupported",
        ]
        .map(String::from)
        .to_vec();
        let o = parse_options(&args).unwrap_or_default();
        assert!(o.quick && o.allow_unsupported && o.build);
        assert_eq!((o.filter.as_deref(), o.issue), (Some("adder"), Some(5)));
        assert!(parse_options(&["--tass".into(), "/x/tass".into()]).is_ok_and(|o| !o.build));
        assert!(parse_options(&["--issue".into(), "four".into()]).is_err());
        assert!(parse_options(&["--filter".into()]).is_err());
        assert!(parse_options(&["--frobnicate".into()]).is_err());
    }

    // ---- judging tass's JSON ----

    #[test]
    fn holds_with_exit_0_passes_and_keeps_the_stats() {
        let e = entry(HOLDS);
        let json = r#"{"verdict": "holds", "violations": [],
            "stats": {"states_seen": 120, "states_saved": 7, "transitions": 130,
                      "prover_calls": 9, "smt_calls": 2, "symbolic_values": 40,
                      "time_s": 0.05, "memory_mb": 3.5}}"#;
        let (o, report) = judge(&e, &raw(0, json), Duration::from_secs(1));
        assert_eq!(o, Outcome::Pass);
        let stats = report.and_then(|r| r.stats).unwrap_or_default();
        assert_eq!((stats.states_seen, stats.smt_calls), (Some(120), Some(2)));
    }

    #[test]
    fn violation_at_the_expected_property_and_line_passes() {
        let e = entry(VIOLATED_AT);
        let json = r#"{"verdict": "violated", "violations": [{"property": "division-by-zero",
            "certainty": "provable", "message": "count may be 0", "file": "/abs/fevs/seq/div_bad.c",
            "line": 38, "column": 16, "process": 0, "trace": [], "witness": {"N": 0}}]}"#;
        assert_eq!(verdict_of(&e, &raw(1, json)), Outcome::Pass);
    }

    #[test]
    fn wrong_line_wrong_file_or_wrong_property_fails() {
        let e = entry(VIOLATED_AT);
        let at = |prop: &str, file: &str, line: u32| {
            format!(
                r#"{{"verdict": "violated", "violations": [{{"property": "{prop}",
                "file": "{file}", "line": {line}}}]}}"#
            )
        };
        let o = verdict_of(&e, &raw(1, &at("division-by-zero", "seq/div_bad.c", 37)));
        assert!(matches!(&o, Outcome::Fail(m) if m.contains("expected at div_bad.c:38")));
        let o = verdict_of(&e, &raw(1, &at("division-by-zero", "seq/other.c", 38)));
        assert!(matches!(o, Outcome::Fail(_)));
        let o = verdict_of(&e, &raw(1, &at("out-of-bounds", "seq/div_bad.c", 38)));
        assert!(matches!(&o, Outcome::Fail(m) if m.contains("expected a division-by-zero")));
    }

    #[test]
    fn wrong_verdict_fails_and_says_what_was_found() {
        let e = entry(HOLDS);
        let json =
            r#"{"verdict": "violated", "violations": [{"property": "assertion", "line": 9}]}"#;
        let o = verdict_of(&e, &raw(1, json));
        assert!(
            matches!(&o, Outcome::Fail(m) if m.contains("expected holds, got violated: assertion at line 9")),
            "{o:?}"
        );
        let e = entry(VIOLATED_AT);
        let o = verdict_of(&e, &raw(0, r#"{"verdict": "holds", "violations": []}"#));
        assert!(matches!(&o, Outcome::Fail(m) if m.contains("expected violated, got holds")));
        let o = verdict_of(&e, &raw(3, r#"{"verdict": "inconclusive"}"#));
        assert!(matches!(&o, Outcome::Fail(m) if m.contains("got inconclusive")));
    }

    #[test]
    fn an_exit_status_that_contradicts_the_verdict_fails() {
        let e = entry(HOLDS);
        let o = verdict_of(&e, &raw(1, r#"{"verdict": "holds", "violations": []}"#));
        assert!(matches!(&o, Outcome::Fail(m) if m.contains("exit status 1")));
    }

    #[test]
    fn unsupported_features_are_counted_apart() {
        let e = entry(HOLDS);
        let json = r#"{"verdict": "error", "violations": [],
            "error": "seq/a.c:3:5: MPI_Ialltoallw is not yet supported"}"#;
        assert!(matches!(
            verdict_of(&e, &raw(2, json)),
            Outcome::Unsupported(_)
        ));
        // No JSON at all, exit 2 and a message on stderr (today's stub CLI).
        let stub = RawRun {
            exit: Some(2),
            stderr: "tass: no command is implemented yet\n".into(),
            ..RawRun::default()
        };
        assert!(
            matches!(verdict_of(&e, &stub), Outcome::Unsupported(m) if m.contains("no command"))
        );
        // A violation with the `unsupported` property.
        let json = r#"{"verdict": "violated", "violations": [{"property": "unsupported",
            "message": "setjmp"}]}"#;
        assert!(matches!(
            verdict_of(&e, &raw(1, json)),
            Outcome::Unsupported(_)
        ));
    }

    #[test]
    fn errors_crashes_and_time_outs_are_errors() {
        let e = entry(HOLDS);
        let json = r#"{"verdict": "error", "error": "cannot read seq/a.c: no such file"}"#;
        assert!(
            matches!(verdict_of(&e, &raw(2, json)), Outcome::Error(m) if m.contains("cannot read"))
        );
        let crash = RawRun {
            exit: Some(101),
            stderr: "thread 'main' panicked at src/x.rs:1:1".into(),
            ..RawRun::default()
        };
        assert!(matches!(verdict_of(&e, &crash), Outcome::Error(m) if m.contains("exit 101")));
        let slow = RawRun {
            timed_out: true,
            ..RawRun::default()
        };
        assert!(matches!(verdict_of(&e, &slow), Outcome::Error(m) if m.contains("within 10 s")));
        let odd = verdict_of(&e, &raw(0, r#"{"verdict": "maybe"}"#));
        assert!(matches!(odd, Outcome::Error(m) if m.contains("unknown verdict")));
    }

    #[test]
    fn unsupported_messages_group_without_their_location() {
        let a = "error: mpi/a.c:45:5: not yet supported: MPI_Init";
        let b = "error: mpi/b_par.c:3:1: not yet supported: MPI_Init";
        assert_eq!(without_location(a), "not yet supported: MPI_Init");
        assert_eq!(without_location(a), without_location(b));
        assert_eq!(
            without_location("setjmp: unsupported"),
            "setjmp: unsupported"
        );
    }

    #[test]
    fn the_json_object_is_found_after_other_output() {
        let out = "progress: 10 states\n{\"verdict\": \"holds\", \"violations\": []}\n";
        assert_eq!(parse_report(out).map(|r| r.verdict), Some("holds".into()));
        assert!(parse_report("no json here").is_none());
    }

    #[test]
    fn summary_fails_on_unsupported_unless_allowed() {
        let e = entry(HOLDS);
        let rows = vec![Row {
            entry: &e,
            outcome: Outcome::Unsupported("x".into()),
            report: None,
            elapsed: Duration::ZERO,
        }];
        assert_eq!(summarize(&rows, false), 1);
        assert_eq!(summarize(&rows, true), 0);
        let table = render_table(&rows);
        assert!(table.contains("unsup") && table.contains("program"));
    }

    // ---- the concrete output format ----

    #[test]
    fn out_lines_parse_and_compare_over_floating_point_noise() {
        let a = parse_out_lines("OUT sum = 57.5\nnoise\nOUT c[0][1] = -2\n");
        assert_eq!(a.get("sum").map(String::as_str), Some("57.5"));
        assert_eq!(a.get("c[0][1]").map(String::as_str), Some("-2"));
        let b = parse_out_lines("OUT sum = 57.500000000000007\nOUT c[0][1] = -2.0\n");
        assert!(compare_outputs("a", &a, "b", &b).is_empty());
        let c = parse_out_lines("OUT sum = 57.6\n");
        let diffs = compare_outputs("a", &a, "c", &c);
        assert_eq!(diffs.len(), 2, "{diffs:?}");
        assert!(values_agree("115/2", "57.5"));
        assert!(!values_agree("x", "57.5"));
    }

    // ---- the suite's files ----

    fn all_c_files() -> Vec<PathBuf> {
        let mut files = Vec::new();
        for sub in ["seq", "mpi"] {
            let dir = fevs_dir().join(sub);
            let list = std::fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
            for f in list.flatten() {
                let p = f.path();
                if p.extension().is_some_and(|x| x == "c") {
                    files.push(p);
                }
            }
        }
        files.sort();
        files
    }

    #[test]
    fn every_listed_file_exists_and_every_program_is_listed() {
        let entries = load_manifest().unwrap_or_else(|e| panic!("{e}"));
        let dir = fevs_dir();
        let mut listed = std::collections::BTreeSet::new();
        for e in &entries {
            for f in e.c_files() {
                assert!(dir.join(f).is_file(), "run {}: {f} does not exist", e.name);
                listed.insert(dir.join(f));
            }
        }
        for f in all_c_files() {
            assert!(listed.contains(&f), "{} is in no manifest run", f.display());
        }
        // Stray C files elsewhere in fevs/ would be missed by both loops above.
        for f in std::fs::read_dir(&dir).into_iter().flatten().flatten() {
            assert!(
                f.path().extension().is_none_or(|x| x != "c"),
                "{}: put programs in fevs/seq or fevs/mpi",
                f.path().display()
            );
        }
    }

    #[test]
    fn expected_lines_point_at_a_bug_comment() {
        let entries = load_manifest().unwrap_or_else(|e| panic!("{e}"));
        for e in entries.iter().filter(|e| e.line.is_some()) {
            let (Some(file), Some(line)) = (e.line_file(), e.line) else {
                continue;
            };
            let text = std::fs::read_to_string(fevs_dir().join(file)).unwrap_or_default();
            let lines: Vec<&str> = text.lines().collect();
            let idx = usize::try_from(line).unwrap_or(usize::MAX) - 1;
            let here = lines.get(idx).copied().unwrap_or("");
            let above = idx
                .checked_sub(1)
                .and_then(|i| lines.get(i))
                .copied()
                .unwrap_or("");
            assert!(
                here.contains("BUG") || above.contains("BUG"),
                "run {}: {file}:{line} is `{here}`, with no BUG comment on it or above it",
                e.name
            );
        }
    }

    #[test]
    fn every_program_has_a_header_with_its_expected_verdict() {
        for f in all_c_files() {
            let text = std::fs::read_to_string(&f).unwrap_or_default();
            let name = f.file_name().and_then(|n| n.to_str()).unwrap_or("");
            assert!(
                text.starts_with("/* fevs/")
                    && text.lines().next().is_some_and(|l| l.contains(name)),
                "{}: must start with a /* fevs/...{name} header comment",
                f.display()
            );
            assert!(
                text.contains("Expected verdict"),
                "{}: header states no expected verdict",
                f.display()
            );
            if name.contains("_bad") {
                assert!(
                    text.contains("BUG"),
                    "{}: a buggy twin explains its BUG",
                    f.display()
                );
            }
        }
    }

    #[test]
    fn fixed_inputs_are_the_sources_defaults() {
        let entries = load_manifest().unwrap_or_else(|e| panic!("{e}"));
        for e in entries.iter().filter(|e| !e.fixed_inputs.is_empty()) {
            for file in e.c_files() {
                let text = std::fs::read_to_string(fevs_dir().join(file)).unwrap_or_default();
                for (name, value) in &e.fixed_inputs {
                    let want = scalar_text(value).unwrap_or_default();
                    let found = text.lines().find_map(|l| {
                        let l = l.trim();
                        l.strip_prefix(&format!("#define {name} "))
                            .or_else(|| {
                                l.strip_prefix(&format!("{name} = "))
                                    .map(|v| v.trim_end_matches(';'))
                            })
                            .map(str::trim)
                    });
                    let found = found.unwrap_or_else(|| {
                        panic!("run {}: {file} has no default for input {name}", e.name)
                    });
                    assert!(
                        values_agree(found, &want),
                        "run {}: {file} sets {name} = {found}, manifest says {want}",
                        e.name
                    );
                }
            }
        }
    }

    fn compile_all(tool: &str, files: &[PathBuf]) {
        let mut failures = Vec::new();
        for f in files {
            for concrete in [false, true] {
                let mut cmd = Command::new(tool);
                // fevs/include: the C version of <tass.h> (`delta`).
                cmd.arg("-I").arg(fevs_dir().join("include"));
                cmd.args([
                    "-std=c99",
                    "-fsyntax-only",
                    "-Wall",
                    "-Wextra",
                    "-Wno-unknown-pragmas",
                    // Labels may be there only for `#pragma TASS ltl` location atoms
                    // (`PROC[0]@cs`), which the C compiler does not see.
                    "-Wno-unused-label",
                    "-Werror",
                ]);
                if concrete {
                    cmd.arg("-DFEVS_CONCRETE");
                }
                match cmd.arg(f).output() {
                    Ok(out) if out.status.success() => {}
                    Ok(out) => failures.push(format!(
                        "{tool}{} {}:\n{}",
                        if concrete { " -DFEVS_CONCRETE" } else { "" },
                        f.display(),
                        String::from_utf8_lossy(&out.stderr)
                    )),
                    Err(e) => failures.push(format!("cannot run {tool}: {e}")),
                }
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    fn mpi_required() -> bool {
        std::env::var("TASS_REQUIRE_MPI").is_ok_and(|v| v == "1")
    }

    #[test]
    fn sequential_programs_compile_with_gcc() {
        if !tool_available("gcc") {
            eprintln!("skipped: gcc not found");
            return;
        }
        let files: Vec<PathBuf> = all_c_files()
            .into_iter()
            .filter(|f| !uses_mpi(&std::fs::read_to_string(f).unwrap_or_default()))
            .collect();
        assert!(
            files.len() >= 20,
            "only {} sequential programs",
            files.len()
        );
        compile_all("gcc", &files);
    }

    #[test]
    fn mpi_programs_compile_with_mpicc() {
        if !tool_available("mpicc") {
            assert!(!mpi_required(), "mpicc not found and TASS_REQUIRE_MPI=1");
            eprintln!("skipped: mpicc not found (set TASS_REQUIRE_MPI=1 to make this fail)");
            return;
        }
        let files: Vec<PathBuf> = all_c_files()
            .into_iter()
            .filter(|f| uses_mpi(&std::fs::read_to_string(f).unwrap_or_default()))
            .collect();
        assert!(files.len() >= 25, "only {} MPI programs", files.len());
        compile_all("mpicc", &files);
    }

    /// Issue 5's cross-check, concrete half: every program with `mpirun_procs` runs
    /// under a real MPI, the parallel implementation prints the same outputs as its
    /// sequential specification, and `expect_out` holds.
    #[test]
    fn concrete_runs_under_mpirun_agree() {
        if !tool_available("mpicc") || !tool_available("mpirun") {
            assert!(
                !mpi_required(),
                "mpicc/mpirun not found and TASS_REQUIRE_MPI=1"
            );
            eprintln!("skipped: mpicc/mpirun not found (set TASS_REQUIRE_MPI=1 to make this fail)");
            return;
        }
        let entries = load_manifest().unwrap_or_else(|e| panic!("{e}"));
        let work =
            std::env::temp_dir().join(format!("tass-fevs-crosscheck-{}", std::process::id()));
        let mut failures = Vec::new();
        let mut checked = 0;
        for e in entries.iter().filter(|e| e.mpirun_procs.is_some()) {
            checked += 1;
            if let Err(problems) = concrete_check(e, &work.join(&e.name)) {
                failures.push(format!("{}: {}", e.name, problems.join("; ")));
            }
        }
        let _ = std::fs::remove_dir_all(&work);
        assert!(checked >= 10, "only {checked} runs have mpirun_procs");
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }

    /// The quick subset against the real tass binary. Ignored by default because it
    /// builds tass in release mode; CI runs `cargo xtask fevs --quick` instead.
    #[test]
    #[ignore = "builds tass --release; run `cargo xtask fevs --quick` (or this test with --ignored)"]
    fn quick_subset_verdicts() {
        let code = run(&["--quick".to_string()]);
        assert_eq!(code, 0, "some quick fevs run failed; see the table above");
    }
}
