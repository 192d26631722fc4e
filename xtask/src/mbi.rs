//! `cargo xtask mbi`: tass on the MPI Bugs Initiative (MBI) suite, scored as MBI scores tools.
//!
//! ```text
//! cargo xtask mbi --dir DIR [--filter SUBSTR] [--timeout SECS] [--jobs N]
//!                 [--tsv PATH] [--no-build] [--tass PATH] [--tass-arg ARG]...
//! ```
//!
//! MBI is a public set of Python generators that write small C/MPI programs, each with a
//! header naming how to run it and what it contains; nothing of MBI lives in this
//! repository. To obtain the programs (see docs/ACCURACY.md):
//!
//! ```text
//! git clone https://gitlab.com/MpiCorrectnessBenchmark/mpicorrectnessbenchmark.git mbi
//! mkdir gencodes && cd gencodes
//! for g in ../mbi/scripts/*Generator.py; do python3 "$g"; done
//! cargo xtask mbi --dir gencodes
//! ```
//!
//! Each `.c` file's header lists its tests between `BEGIN_MBI_TESTS` and `END_MBI_TESTS`:
//! a line `$ mpirun -np N ${EXE}` followed by `| OK` or `| ERROR: Kind`. Every such line is
//! one test: `tass verify -n N --format json --timeout SECS FILE`, with `--deadlock
//! potential` when the command asks for zero buffering (the word `zero_buffer`, as in
//! `$ mpirun -np 2 $zero_buffer ${EXE}`: a standard send may wait for its receive, tass's
//! default) and `--deadlock absolute` for `infty_buffer`. Words after `${EXE}` are the
//! program's arguments, given to tass after `--` (`$ mpirun -np 2 ${EXE} 1` runs
//! `tass verify -n 2 ... FILE -- 1`: `argc` 2, `argv[1]` "1").
//!
//! Scoring follows MBI: a test labelled with an error is a true positive when tass reports
//! a violation (any property) and a false negative when tass says "holds"; a test labelled
//! OK is a true negative on "holds" and a false positive on a violation. Everything else —
//! a refusal (exit 2), an inconclusive search, the time limit, a crash — is an *error*,
//! which counts as wrong in the accuracy (TP+TN)/all. The table is printed per MBI error
//! category and overall, the refusals are grouped by the first name tass does not know,
//! and every test is written to a TSV (file, np, expected, got, class, seconds, message).
//! The exit status is 0 when the suite ran (whatever the score), 2 on a usage or
//! header error.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use serde_json::Value;

use crate::fevs;

const USAGE: &str = "\
usage: cargo xtask mbi --dir DIR [OPTIONS]
  --dir DIR          the folder of MBI-generated .c files (see xtask/src/mbi.rs)
  --filter SUBSTR    only files whose name contains SUBSTR
  --timeout SECS     tass's time limit per test (default 60; the harness kills at SECS+10)
  --max-memory MB    tass's memory limit per test (default 2048)
  --jobs N           tests run at once (default 2)
  --tsv PATH         where to write the per-test TSV (default target/mbi/results.tsv)
  --no-build         do not run `cargo build --release -p tass-cli` first
  --tass PATH        use this tass binary (implies --no-build)
  --tass-arg ARG     pass ARG to every tass run too (repeatable), e.g. --tass-arg=--por=off";

/// What an MBI header says a test must find.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Expected {
    Ok,
    /// The error kind of the header's `ERROR:` line (`CallMatching`, `InvalidRoot`, ...).
    Error(String),
}

impl Expected {
    pub fn label(&self) -> &str {
        match self {
            Expected::Ok => "OK",
            Expected::Error(kind) => kind,
        }
    }
}

/// The MPI buffering a test's command asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Buffering {
    /// No request: tass's default (`--deadlock potential`).
    Unstated,
    /// `zero_buffer`: a standard send may wait for its receive.
    Zero,
    /// `infty_buffer`: standard sends always buffer.
    Infinite,
}

/// One test of an MBI file: one `$ mpirun ...` line of its header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MbiTest {
    pub procs: u32,
    pub buffering: Buffering,
    pub expected: Expected,
    /// The program's command-line arguments: the words after `${EXE}`, as in
    /// `$ mpirun -np 2 ${EXE} 1` (given to tass after `--`).
    pub program_args: Vec<String>,
}

impl MbiTest {
    /// tass's options for this test (besides the file and the output format).
    pub fn tass_options(&self) -> Vec<String> {
        let mut options = vec!["-n".to_string(), self.procs.to_string()];
        let deadlock = match self.buffering {
            Buffering::Unstated | Buffering::Zero => "potential",
            Buffering::Infinite => "absolute",
        };
        options.extend(["--deadlock".to_string(), deadlock.to_string()]);
        options
    }

    /// What follows the file on tass's command line: `-- ARG...` when the test
    /// runs the program with arguments, nothing otherwise.
    pub fn tass_program_args(&self) -> Vec<String> {
        if self.program_args.is_empty() {
            return Vec::new();
        }
        std::iter::once("--".to_string())
            .chain(self.program_args.iter().cloned())
            .collect()
    }

    /// The process count and the arguments, for reports: `2` or `2 -- 1`.
    pub fn run_text(&self) -> String {
        let mut text = self.procs.to_string();
        for word in self.tass_program_args() {
            text.push(' ');
            text.push_str(&word);
        }
        text
    }
}

/// The error kinds MBI knows, each with the category its tables group it under (MBI's
/// own grouping: one call, one process, several processes).
const CATEGORIES: &[(&str, &[&str])] = &[
    (
        "Invalid parameter",
        &[
            "InvalidBuffer",
            "InvalidCommunicator",
            "InvalidDatatype",
            "InvalidRoot",
            "InvalidTag",
            "InvalidWindow",
            "InvalidOperator",
            "InvalidOtherArg",
            "ActualDatatype",
            "InvalidSrcDest",
        ],
    ),
    (
        "Resource leak",
        &[
            "CommunicatorLeak",
            "DatatypeLeak",
            "GroupLeak",
            "OperatorLeak",
            "TypeLeak",
            "RequestLeak",
        ],
    ),
    ("Request lifecycle", &["MissingStart", "MissingWait"]),
    ("Epoch lifecycle", &["MissingEpoch", "DoubleEpoch"]),
    ("Local concurrency", &["LocalConcurrency"]),
    (
        "Parameter matching",
        &[
            "CommunicatorMatching",
            "DatatypeMatching",
            "OperatorMatching",
            "RootMatching",
            "TagMatching",
        ],
    ),
    ("Message race", &["MessageRace"]),
    ("Call ordering", &["CallMatching"]),
    ("Global concurrency", &["GlobalConcurrency"]),
    ("Buffering hazard", &["BufferingHazard"]),
    ("Input hazard", &["IHCallMatching"]),
    ("Correct programs", &["OK"]),
];

/// The MBI category of an expected outcome, or `None` for an error kind MBI does not list.
pub fn category(expected: &Expected) -> Option<&'static str> {
    let label = expected.label();
    CATEGORIES
        .iter()
        .find(|(_, kinds)| kinds.contains(&label))
        .map(|(name, _)| *name)
}

/// Reads the tests of one MBI file from its header, as MBI's own runner does: each line
/// `$ COMMAND` between `BEGIN_MBI_TESTS` and `END_MBI_TESTS` is a test, and the line
/// after it says `OK` or `ERROR: Kind`.
pub fn parse_header(text: &str) -> Result<Vec<MbiTest>, String> {
    let mut lines = text.lines().enumerate();
    let mut inside = false;
    let mut seen_end = false;
    let mut tests = Vec::new();
    while let Some((index, line)) = lines.next() {
        let number = index + 1;
        if line.contains("BEGIN_MBI_TESTS") {
            if inside || seen_end {
                return Err(format!("line {number}: a second BEGIN_MBI_TESTS"));
            }
            inside = true;
            continue;
        }
        if line.contains("END_MBI_TESTS") {
            if !inside {
                return Err(format!("line {number}: END_MBI_TESTS without BEGIN"));
            }
            inside = false;
            seen_end = true;
            continue;
        }
        let trimmed = line.trim_start();
        if !inside || !trimmed.starts_with('$') || trimmed.len() == line.len() {
            continue;
        }
        let command = trimmed[1..].trim();
        let outcome = lines.next().map(|(_, l)| l).unwrap_or("");
        tests.push(parse_test(command, outcome).map_err(|e| format!("line {number}: {e}"))?);
    }
    if inside {
        return Err("BEGIN_MBI_TESTS is never closed by END_MBI_TESTS".into());
    }
    if !seen_end {
        return Err("no BEGIN_MBI_TESTS ... END_MBI_TESTS header".into());
    }
    if tests.is_empty() {
        return Err("the MBI header lists no test (`$ mpirun -np N ${EXE}`)".into());
    }
    Ok(tests)
}

fn parse_test(command: &str, outcome: &str) -> Result<MbiTest, String> {
    let words: Vec<&str> = command.split_whitespace().collect();
    let procs = words
        .iter()
        .position(|w| *w == "-np" || *w == "-n")
        .and_then(|i| words.get(i + 1))
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|n| *n > 0)
        .ok_or_else(|| format!("no process count (`-np N`) in `{command}`"))?;
    let buffering = if command.contains("zero_buffer") {
        Buffering::Zero
    } else if command.contains("infty_buffer") {
        Buffering::Infinite
    } else {
        Buffering::Unstated
    };
    let program_args = words
        .iter()
        .position(|w| *w == "${EXE}" || *w == "$EXE")
        .map(|i| words[i + 1..].iter().map(|w| w.to_string()).collect())
        .unwrap_or_default();
    let label = outcome.trim_start_matches([' ', '|', '\t']);
    let expected = if label.starts_with("OK") {
        Expected::Ok
    } else if let Some(kind) = label.strip_prefix("ERROR:") {
        let kind = kind.split_whitespace().next().unwrap_or("");
        if kind.is_empty() {
            return Err(format!("`ERROR:` without a kind after `{command}`"));
        }
        Expected::Error(kind.to_string())
    } else {
        return Err(format!(
            "`{command}` is not followed by `| OK` or `| ERROR: Kind` but by `{}`",
            outcome.trim()
        ));
    };
    Ok(MbiTest {
        procs,
        buffering,
        expected,
        program_args,
    })
}

/// Why tass gave no verdict.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Failure {
    /// Exit 2: tass refused the program (an unknown function, type, construct, ...).
    Refused,
    /// tass's own time or memory limit, or another inconclusive end of the search.
    Inconclusive,
    /// The harness's time limit.
    Timeout,
    /// A crash or an output that is not tass's JSON report.
    Crash,
}

impl Failure {
    fn name(self) -> &'static str {
        match self {
            Failure::Refused => "refused",
            Failure::Inconclusive => "inconclusive",
            Failure::Timeout => "timeout",
            Failure::Crash => "crash",
        }
    }
}

/// tass's answer on one test.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Answer {
    Holds,
    Violated {
        property: String,
        line: u64,
        message: String,
    },
    NoVerdict {
        failure: Failure,
        message: String,
    },
}

impl Answer {
    /// The TSV's `got` column.
    pub fn got(&self) -> String {
        match self {
            Answer::Holds => "holds".into(),
            Answer::Violated { property, line, .. } => format!("violated:{property}@{line}"),
            Answer::NoVerdict { failure, .. } => failure.name().into(),
        }
    }

    pub fn message(&self) -> &str {
        match self {
            Answer::Holds => "",
            Answer::Violated { message, .. } | Answer::NoVerdict { message, .. } => message,
        }
    }
}

/// Reads tass's answer from its exit status and JSON report.
pub fn read_answer(exit: Option<i32>, stdout: &str, stderr: &str) -> Answer {
    let crash = |why: &str| Answer::NoVerdict {
        failure: Failure::Crash,
        message: one_line(&format!("{why}; stderr: {}", stderr.trim())),
    };
    let Ok(report) = serde_json::from_str::<Value>(stdout) else {
        return crash(&format!("no JSON report (exit {exit:?})"));
    };
    match (report["verdict"].as_str(), exit) {
        (Some("holds"), Some(0)) => Answer::Holds,
        (Some("violated"), Some(1)) => {
            let first = &report["violations"][0];
            Answer::Violated {
                property: first["property"].as_str().unwrap_or("?").to_string(),
                line: first["line"].as_u64().unwrap_or(0),
                message: one_line(first["message"].as_str().unwrap_or("")),
            }
        }
        (Some("error"), Some(2)) => Answer::NoVerdict {
            failure: Failure::Refused,
            message: one_line(report["error"].as_str().unwrap_or("")),
        },
        (Some(verdict @ ("inconclusive" | "unknown")), _) => Answer::NoVerdict {
            failure: Failure::Inconclusive,
            message: one_line(&format!(
                "{verdict}: {}",
                report["reason"]
                    .as_str()
                    .or(report["error"].as_str())
                    .unwrap_or("")
            )),
        },
        (verdict, _) => crash(&format!(
            "verdict {verdict:?} with exit status {exit:?} (tass's exit status must match its verdict)"
        )),
    }
}

fn one_line(text: &str) -> String {
    let first = text.lines().next().unwrap_or("").trim();
    first.replace('\t', " ")
}

/// MBI's classes of a test's result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    TruePositive,
    TrueNegative,
    FalsePositive,
    FalseNegative,
    Error,
}

impl Class {
    pub fn short(self) -> &'static str {
        match self {
            Class::TruePositive => "TP",
            Class::TrueNegative => "TN",
            Class::FalsePositive => "FP",
            Class::FalseNegative => "FN",
            Class::Error => "Error",
        }
    }
}

/// Scores one answer as MBI does: any violation counts as finding the labelled error.
pub fn classify(expected: &Expected, answer: &Answer) -> Class {
    match (expected, answer) {
        (Expected::Ok, Answer::Holds) => Class::TrueNegative,
        (Expected::Ok, Answer::Violated { .. }) => Class::FalsePositive,
        (Expected::Error(_), Answer::Holds) => Class::FalseNegative,
        (Expected::Error(_), Answer::Violated { .. }) => Class::TruePositive,
        (_, Answer::NoVerdict { .. }) => Class::Error,
    }
}

/// The counts of one table row.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub true_positives: usize,
    pub true_negatives: usize,
    pub false_positives: usize,
    pub false_negatives: usize,
    pub errors: usize,
}

impl Tally {
    pub fn add(&mut self, class: Class) {
        let slot = match class {
            Class::TruePositive => &mut self.true_positives,
            Class::TrueNegative => &mut self.true_negatives,
            Class::FalsePositive => &mut self.false_positives,
            Class::FalseNegative => &mut self.false_negatives,
            Class::Error => &mut self.errors,
        };
        *slot += 1;
    }

    pub fn total(&self) -> usize {
        self.true_positives
            + self.true_negatives
            + self.false_positives
            + self.false_negatives
            + self.errors
    }

    /// (TP+TN)/all, errors counted as wrong.
    pub fn accuracy(&self) -> f64 {
        ratio(self.true_positives + self.true_negatives, self.total())
    }

    /// (TP+TN) over the tests tass answered.
    pub fn answered_accuracy(&self) -> f64 {
        ratio(
            self.true_positives + self.true_negatives,
            self.total() - self.errors,
        )
    }
}

fn ratio(part: usize, whole: usize) -> f64 {
    if whole == 0 {
        0.0
    } else {
        part as f64 / whole as f64
    }
}

/// One test's result.
#[derive(Debug, Clone)]
pub struct Outcome {
    pub file: String,
    pub test: MbiTest,
    pub answer: Answer,
    pub seconds: f64,
}

impl Outcome {
    pub fn class(&self) -> Class {
        classify(&self.test.expected, &self.answer)
    }

    pub fn category(&self) -> &'static str {
        category(&self.test.expected).unwrap_or("Other")
    }
}

/// The rows of the table: each category met, in MBI's order, then "Overall".
pub fn tally(outcomes: &[Outcome]) -> Vec<(String, Tally)> {
    let mut rows: Vec<(String, Tally)> = CATEGORIES
        .iter()
        .map(|(name, _)| (name.to_string(), Tally::default()))
        .chain([("Other".to_string(), Tally::default())])
        .collect();
    let mut overall = Tally::default();
    for outcome in outcomes {
        let name = outcome.category();
        if let Some((_, row)) = rows.iter_mut().find(|(n, _)| n == name) {
            row.add(outcome.class());
        }
        overall.add(outcome.class());
    }
    rows.retain(|(_, t)| t.total() > 0);
    rows.push(("Overall".to_string(), overall));
    rows
}

/// The name a refusal says tass lacks (`unknown function `MPI_Start``), if it says one.
pub fn missing_name(message: &str) -> Option<&str> {
    let rest = [
        "unknown function `",
        "unknown type name `",
        "unknown identifier `",
    ]
    .iter()
    .find_map(|prefix| message.split_once(prefix).map(|(_, rest)| rest))?;
    rest.split('`').next().filter(|name| !name.is_empty())
}

/// The refusals grouped by the missing name (or by the message when it names none),
/// most frequent first.
pub fn refusals_by_name(outcomes: &[Outcome]) -> Vec<(String, usize)> {
    let mut groups: BTreeMap<String, usize> = BTreeMap::new();
    for outcome in outcomes {
        if let Answer::NoVerdict {
            failure: Failure::Refused,
            message,
        } = &outcome.answer
        {
            let key = match missing_name(message) {
                Some(name) => name.to_string(),
                None => message
                    .split_once("error: ")
                    .map_or(message.as_str(), |(_, m)| m)
                    .chars()
                    .take(70)
                    .collect(),
            };
            *groups.entry(key).or_default() += 1;
        }
    }
    let mut sorted: Vec<(String, usize)> = groups.into_iter().collect();
    sorted.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    sorted
}

/// The printed table.
pub fn render_table(rows: &[(String, Tally)]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{:<20} {:>6} {:>5} {:>5} {:>4} {:>4} {:>6} {:>9} {:>9}",
        "category", "tests", "TP", "TN", "FP", "FN", "Error", "accuracy", "answered"
    );
    for (name, t) in rows {
        let _ = writeln!(
            out,
            "{:<20} {:>6} {:>5} {:>5} {:>4} {:>4} {:>6} {:>9.3} {:>9.3}",
            name,
            t.total(),
            t.true_positives,
            t.true_negatives,
            t.false_positives,
            t.false_negatives,
            t.errors,
            t.accuracy(),
            t.answered_accuracy()
        );
    }
    out
}

/// The TSV: a header line, then one line per test.
pub fn render_tsv(outcomes: &[Outcome]) -> String {
    let mut out = String::from("file\tnp\texpected\tgot\tclass\tseconds\tmessage\n");
    for o in outcomes {
        let _ = writeln!(
            out,
            "{}\t{}\t{}\t{}\t{}\t{:.2}\t{}",
            o.file,
            o.test.run_text(),
            o.test.expected.label(),
            o.answer.got(),
            o.class().short(),
            o.seconds,
            o.answer.message()
        );
    }
    out
}

#[derive(Debug, Clone, PartialEq)]
struct Options {
    dir: PathBuf,
    filter: Option<String>,
    timeout_secs: u64,
    max_memory_mb: u64,
    jobs: usize,
    tsv: Option<PathBuf>,
    build: bool,
    tass: Option<PathBuf>,
    extra_tass_args: Vec<String>,
}

fn parse_options(args: &[String]) -> Result<Options, String> {
    let mut dir = None;
    let mut o = Options {
        dir: PathBuf::new(),
        filter: None,
        timeout_secs: 60,
        max_memory_mb: 2048,
        jobs: 2,
        tsv: None,
        build: true,
        tass: None,
        extra_tass_args: Vec::new(),
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let mut value = |what: &str| {
            it.next()
                .cloned()
                .ok_or_else(|| format!("{arg} needs {what}"))
        };
        let number = |v: String| {
            v.parse::<u64>()
                .ok()
                .filter(|n| *n > 0)
                .ok_or_else(|| format!("{arg} takes a positive whole number, not {v:?}"))
        };
        match arg.as_str() {
            "--dir" => dir = Some(PathBuf::from(value("a folder")?)),
            "--filter" => o.filter = Some(value("a substring")?),
            "--timeout" => o.timeout_secs = number(value("seconds")?)?,
            "--max-memory" => o.max_memory_mb = number(value("megabytes")?)?,
            "--jobs" => o.jobs = number(value("a count")?)? as usize,
            "--tsv" => o.tsv = Some(PathBuf::from(value("a path")?)),
            "--no-build" => o.build = false,
            "--tass-arg" => o.extra_tass_args.push(value("an argument")?),
            other if other.starts_with("--tass-arg=") => {
                o.extra_tass_args
                    .push(other["--tass-arg=".len()..].to_string());
            }
            "--tass" => {
                o.tass = Some(PathBuf::from(value("a path")?));
                o.build = false;
            }
            "-h" | "--help" => return Err(String::new()),
            other => return Err(format!("unknown option {other:?}")),
        }
    }
    o.dir = dir.ok_or("--dir DIR is required: the folder of MBI-generated .c files")?;
    Ok(o)
}

/// The tests of every selected `.c` file of `dir`, in file-name order.
fn collect_tests(dir: &Path, filter: Option<&str>) -> Result<Vec<(PathBuf, MbiTest)>, String> {
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .filter(|p| {
            filter.is_none_or(|f| {
                p.file_name()
                    .is_some_and(|n| n.to_string_lossy().contains(f))
            })
        })
        .collect();
    files.sort();
    let mut tests = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file)
            .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
        let header = parse_header(&text).map_err(|e| format!("{}: {e}", file.display()))?;
        tests.extend(header.into_iter().map(|t| (file.clone(), t)));
    }
    Ok(tests)
}

fn run_one(tass: &Path, file: &Path, test: &MbiTest, o: &Options) -> Outcome {
    let mut cmd = Command::new(tass);
    cmd.arg("verify")
        .args(test.tass_options())
        .args(["--format", "json"])
        .args(["--timeout", &o.timeout_secs.to_string()])
        .args(["--max-memory", &o.max_memory_mb.to_string()])
        .args(&o.extra_tass_args)
        .arg(file)
        .args(test.tass_program_args());
    let limit = Duration::from_secs(o.timeout_secs + 10);
    let (answer, seconds) = match fevs::run_with_limit(&mut cmd, limit) {
        Ok(run) if run.timed_out => (
            Answer::NoVerdict {
                failure: Failure::Timeout,
                message: format!("no answer within {}s", limit.as_secs()),
            },
            run.elapsed.as_secs_f64(),
        ),
        Ok(run) => (
            read_answer(run.exit, &run.stdout, &run.stderr),
            run.elapsed.as_secs_f64(),
        ),
        Err(e) => (
            Answer::NoVerdict {
                failure: Failure::Crash,
                message: e,
            },
            0.0,
        ),
    };
    Outcome {
        file: file
            .file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned()),
        test: test.clone(),
        answer,
        seconds,
    }
}

/// Runs the tests with at most `o.jobs` tass processes at once, keeping their order.
fn run_all(tass: &Path, tests: &[(PathBuf, MbiTest)], o: &Options) -> Vec<Outcome> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Outcome>>> = Mutex::new(vec![None; tests.len()]);
    std::thread::scope(|scope| {
        for _ in 0..o.jobs.max(1) {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::SeqCst);
                let Some((file, test)) = tests.get(index) else {
                    break;
                };
                let outcome = run_one(tass, file, test, o);
                let finished = done.fetch_add(1, Ordering::SeqCst) + 1;
                if finished.is_multiple_of(100) || finished == tests.len() {
                    eprintln!("mbi: {finished}/{} tests", tests.len());
                }
                if let Ok(mut slots) = results.lock() {
                    slots[index] = Some(outcome);
                }
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_default()
        .into_iter()
        .flatten()
        .collect()
}

fn print_report(outcomes: &[Outcome]) {
    println!();
    print!("{}", render_table(&tally(outcomes)));
    let refusals = refusals_by_name(outcomes);
    if !refusals.is_empty() {
        println!("\nrefusals by the first name tass lacks (programs):");
        for (name, count) in &refusals {
            println!("  {count:>5}  {name}");
        }
    }
    for class in [Class::FalseNegative, Class::FalsePositive] {
        let wrong: Vec<&Outcome> = outcomes.iter().filter(|o| o.class() == class).collect();
        if wrong.is_empty() {
            continue;
        }
        println!("\n{} ({}):", class.short(), wrong.len());
        for o in wrong {
            println!(
                "  {} (np {}, {}): {} {}",
                o.file,
                o.test.run_text(),
                o.test.expected.label(),
                o.answer.got(),
                o.answer.message()
            );
        }
    }
    let other: Vec<&Outcome> = outcomes
        .iter()
        .filter(|o| {
            matches!(&o.answer, Answer::NoVerdict { failure, .. } if *failure != Failure::Refused)
        })
        .collect();
    if !other.is_empty() {
        println!("\nno verdict other than a refusal ({}):", other.len());
        for o in other {
            println!("  {}: {} {}", o.file, o.answer.got(), o.answer.message());
        }
    }
}

pub fn run(args: &[String]) -> i32 {
    let o = match parse_options(args) {
        Ok(o) => o,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("mbi: {e}");
            }
            eprintln!("{USAGE}");
            return 2;
        }
    };
    let tests = match collect_tests(&o.dir, o.filter.as_deref()) {
        Ok(t) if t.is_empty() => {
            eprintln!("mbi: no MBI test in {}", o.dir.display());
            return 2;
        }
        Ok(t) => t,
        Err(e) => {
            eprintln!("mbi: {e}");
            return 2;
        }
    };
    let tass = match (&o.tass, o.build) {
        (Some(path), _) => path.clone(),
        (None, true) => match fevs::build_tass() {
            Ok(path) => path,
            Err(e) => {
                eprintln!("mbi: {e}");
                return 2;
            }
        },
        (None, false) => fevs::release_binary(),
    };
    if !tass.is_file() {
        eprintln!("mbi: no tass binary at {}", tass.display());
        return 2;
    }
    eprintln!(
        "mbi: {} tests from {} with {} ({} at a time, {}s each)",
        tests.len(),
        o.dir.display(),
        tass.display(),
        o.jobs,
        o.timeout_secs
    );
    let outcomes = run_all(&tass, &tests, &o);
    let tsv = o
        .tsv
        .clone()
        .unwrap_or_else(|| fevs::target_dir().join("mbi").join("results.tsv"));
    if let Some(parent) = tsv.parent() {
        let _ = std::fs::create_dir_all(parent);
    }
    if let Err(e) = std::fs::write(&tsv, render_tsv(&outcomes)) {
        eprintln!("mbi: cannot write {}: {e}", tsv.display());
        return 2;
    }
    print_report(&outcomes);
    println!("\nmbi: per-test results in {}", tsv.display());
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    const HEADER: &str = "/* header
  Description: two tests in one file

BEGIN_MBI_TESTS
  $ mpirun -np 2 ${EXE}
  | ERROR: CallMatching
  | A collective mismatch.
  $ mpirun -np 4 ${EXE}
  | OK
END_MBI_TESTS
*/
int main(void) { return 0; }
";

    #[test]
    fn every_dollar_line_of_the_header_is_one_test() {
        let tests = parse_header(HEADER).expect("parse");
        assert_eq!(
            tests,
            vec![
                MbiTest {
                    procs: 2,
                    buffering: Buffering::Unstated,
                    expected: Expected::Error("CallMatching".into()),
                    program_args: Vec::new(),
                },
                MbiTest {
                    procs: 4,
                    buffering: Buffering::Unstated,
                    expected: Expected::Ok,
                    program_args: Vec::new(),
                },
            ]
        );
        assert_eq!(category(&tests[0].expected), Some("Call ordering"));
        assert_eq!(category(&tests[1].expected), Some("Correct programs"));
    }

    #[test]
    fn buffering_words_choose_the_deadlock_mode() {
        let text =
            "BEGIN_MBI_TESTS\n  $ mpirun -np 2 $zero_buffer ${EXE}\n  | ERROR: BufferingHazard\n  \
                    $ infty_buffer mpirun -np 3 ${EXE}\n  | OK\nEND_MBI_TESTS\n";
        let tests = parse_header(text).expect("parse");
        assert_eq!(tests[0].buffering, Buffering::Zero);
        assert_eq!(tests[1].buffering, Buffering::Infinite);
        assert_eq!(
            tests[0].tass_options(),
            ["-n", "2", "--deadlock", "potential"]
        );
        assert_eq!(
            tests[1].tass_options(),
            ["-n", "3", "--deadlock", "absolute"]
        );
        assert_eq!(category(&tests[0].expected), Some("Buffering hazard"));
    }

    #[test]
    fn the_words_after_the_executable_are_the_program_arguments() {
        let text = "BEGIN_MBI_TESTS\n  $ mpirun -np 2 ${EXE} 1\n  | OK\n  \
                    $ mpirun -np 3 $zero_buffer ${EXE}\n  | OK\nEND_MBI_TESTS\n";
        let tests = parse_header(text).expect("parse");
        assert_eq!(tests[0].program_args, ["1"]);
        assert_eq!(tests[0].tass_program_args(), ["--", "1"]);
        assert_eq!(tests[0].run_text(), "2 -- 1");
        assert!(tests[1].program_args.is_empty());
        assert!(tests[1].tass_program_args().is_empty());
        assert_eq!(tests[1].run_text(), "3");
    }

    #[test]
    fn malformed_headers_are_refused_with_a_reason() {
        let no_header = parse_header("int main(void) { return 0; }").unwrap_err();
        assert!(no_header.contains("no BEGIN_MBI_TESTS"), "{no_header}");
        let unclosed = parse_header("BEGIN_MBI_TESTS\n  $ mpirun -np 2 x\n  | OK\n").unwrap_err();
        assert!(unclosed.contains("never closed"), "{unclosed}");
        let empty = parse_header("BEGIN_MBI_TESTS\nEND_MBI_TESTS\n").unwrap_err();
        assert!(empty.contains("no test"), "{empty}");
        let no_np = parse_header("BEGIN_MBI_TESTS\n  $ mpirun ${EXE}\n  | OK\nEND_MBI_TESTS\n")
            .unwrap_err();
        assert!(no_np.contains("line 2") && no_np.contains("-np"), "{no_np}");
        let no_label =
            parse_header("BEGIN_MBI_TESTS\n  $ mpirun -np 2 x\n  | maybe\nEND_MBI_TESTS\n")
                .unwrap_err();
        assert!(no_label.contains("`| OK` or `| ERROR: Kind`"), "{no_label}");
    }

    /// The MBI-style programs of crates/cli/tests/mbi_style (whose verdicts
    /// crates/cli/tests/mbi_style.rs checks with the real tass) parse as intended.
    #[test]
    fn the_mbi_style_programs_parse() {
        let dir = crate::deps::repo_root().join("crates/cli/tests/mbi_style");
        let tests = collect_tests(&dir, None).expect("mbi_style programs");
        let summary: Vec<String> = tests
            .iter()
            .map(|(file, t)| {
                let name = file.file_name().unwrap_or_default().to_string_lossy();
                format!("{name} {} {}", t.procs, t.tass_options()[3]) + " " + t.expected.label()
            })
            .collect();
        assert_eq!(
            summary,
            [
                "mbi_any_source_race_nok.c 3 potential MessageRace",
                "mbi_coll_order_nok.c 2 potential CallMatching",
                "mbi_fetch_race_nok.c 2 potential GlobalConcurrency",
                "mbi_ibcast_local_nok.c 2 potential LocalConcurrency",
                "mbi_input_hazard_nok.c 2 potential OK",
                "mbi_input_hazard_nok.c 2 potential IHCallMatching",
                "mbi_negative_tag_nok.c 2 potential InvalidTag",
                "mbi_ok_send_recv.c 2 potential OK",
                "mbi_op_create_ok.c 2 potential OK",
                "mbi_op_leak_nok.c 2 potential OperatorLeak",
                "mbi_recv_recv_nok.c 2 potential CallMatching",
                "mbi_root_nok.c 2 potential InvalidRoot",
                "mbi_send_send.c 2 potential BufferingHazard",
                "mbi_send_send.c 2 absolute OK",
                "mbi_type_mismatch_nok.c 2 potential DatatypeMatching",
                "mbi_type_signature_nok.c 2 potential DatatypeMatching",
            ]
        );
        assert!(tests.iter().all(|(_, t)| category(&t.expected).is_some()));
    }

    #[test]
    fn options_need_a_folder_and_pass_extra_tass_arguments() {
        let args = |list: &[&str]| list.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let missing = parse_options(&args(&["--jobs", "1"])).unwrap_err();
        assert!(missing.contains("--dir DIR is required"), "{missing}");
        let o = parse_options(&args(&[
            "--dir",
            "gencodes",
            "--tass-arg=--por=off",
            "--tass-arg",
            "--cqmin",
            "--tass",
            "/bin/tass",
        ]))
        .expect("options");
        assert_eq!(o.dir, PathBuf::from("gencodes"));
        assert_eq!(o.extra_tass_args, ["--por=off", "--cqmin"]);
        assert!(!o.build);
        let zero = parse_options(&args(&["--dir", "d", "--timeout", "0"])).unwrap_err();
        assert!(zero.contains("positive whole number"), "{zero}");
    }

    #[test]
    fn answers_are_read_from_the_exit_status_and_the_report() {
        let holds = read_answer(Some(0), r#"{"verdict":"holds","violations":[]}"#, "");
        assert_eq!(holds, Answer::Holds);
        let violated = read_answer(
            Some(1),
            r#"{"verdict":"violated","violations":[{"property":"deadlock","line":9,"message":"stuck\nmore"}]}"#,
            "",
        );
        assert_eq!(violated.got(), "violated:deadlock@9");
        assert_eq!(violated.message(), "stuck");
        let refused = read_answer(
            Some(2),
            r#"{"verdict":"error","violations":[],"error":"f.c:3:1: error: unknown function `MPI_Start` (x)\n  src"}"#,
            "",
        );
        assert_eq!(refused.got(), "refused");
        assert_eq!(missing_name(refused.message()), Some("MPI_Start"));
        let limit = read_answer(Some(3), r#"{"verdict":"inconclusive","reason":"time"}"#, "");
        assert_eq!(limit.got(), "inconclusive");
        assert_eq!(read_answer(None, "", "panicked").got(), "crash");
        // A verdict that contradicts the exit status is not trusted.
        assert_eq!(
            read_answer(Some(0), r#"{"verdict":"violated","violations":[]}"#, "").got(),
            "crash"
        );
    }

    #[test]
    fn missing_names_come_from_the_three_refusal_phrasings() {
        assert_eq!(
            missing_name("error: unknown type name `MPI_Win` (did you ...)"),
            Some("MPI_Win")
        );
        assert_eq!(
            missing_name("error: unknown identifier `MPI_DATATYPE_NULL` (tass's ...)"),
            Some("MPI_DATATYPE_NULL")
        );
        assert_eq!(missing_name("error: goto is not supported"), None);
    }

    fn outcome(file: &str, expected: Expected, answer: Answer) -> Outcome {
        Outcome {
            file: file.into(),
            test: MbiTest {
                procs: 2,
                buffering: Buffering::Unstated,
                expected,
                program_args: Vec::new(),
            },
            answer,
            seconds: 0.5,
        }
    }

    fn violation() -> Answer {
        Answer::Violated {
            property: "deadlock".into(),
            line: 3,
            message: "stuck".into(),
        }
    }

    fn refusal(name: &str) -> Answer {
        Answer::NoVerdict {
            failure: Failure::Refused,
            message: format!("a.c:1:1: error: unknown function `{name}` (tass's <mpi.h> ...)"),
        }
    }

    /// MBI's scoring: any violation finds the labelled error, and a program without a
    /// verdict counts as wrong in the accuracy.
    #[test]
    fn scoring_counts_errors_as_wrong() {
        let kind = || Expected::Error("CallMatching".into());
        let outcomes = vec![
            outcome("a.c", kind(), violation()),
            outcome("b.c", kind(), Answer::Holds),
            outcome("c.c", Expected::Ok, Answer::Holds),
            outcome("d.c", Expected::Ok, violation()),
            outcome("e.c", Expected::Ok, refusal("MPI_Win_create")),
            outcome(
                "f.c",
                Expected::Error("InvalidRoot".into()),
                refusal("MPI_Start"),
            ),
            outcome(
                "g.c",
                Expected::Error("InvalidRoot".into()),
                refusal("MPI_Start"),
            ),
        ];
        let classes: Vec<&str> = outcomes.iter().map(|o| o.class().short()).collect();
        assert_eq!(classes, ["TP", "FN", "TN", "FP", "Error", "Error", "Error"]);
        let rows = tally(&outcomes);
        let names: Vec<&str> = rows.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(
            names,
            [
                "Invalid parameter",
                "Call ordering",
                "Correct programs",
                "Overall"
            ]
        );
        let overall = rows[3].1;
        assert_eq!(overall.total(), 7);
        assert_eq!(overall.errors, 3);
        assert!((overall.accuracy() - 2.0 / 7.0).abs() < 1e-9);
        assert!((overall.answered_accuracy() - 0.5).abs() < 1e-9);
        assert_eq!(
            refusals_by_name(&outcomes),
            [
                ("MPI_Start".to_string(), 2),
                ("MPI_Win_create".to_string(), 1)
            ]
        );
        let table = render_table(&rows);
        assert!(table.contains("Overall"), "{table}");
        let tsv = render_tsv(&outcomes);
        let lines: Vec<&str> = tsv.lines().collect();
        assert_eq!(lines[0], "file\tnp\texpected\tgot\tclass\tseconds\tmessage");
        assert_eq!(lines[2], "b.c\t2\tCallMatching\tholds\tFN\t0.50\t");
        assert_eq!(lines.len(), 8);
    }
}
