//! What a verification run hands back: the verdict, the violations with their traces
//! and witnesses, and the statistics; rendered as text, as DESIGN.md's JSON object, or
//! as SARIF.

use std::fmt::Write as _;

use serde_json::Value;
use tass_model::api::SnippetColour;

mod condition;
mod documents;
mod found;

pub(crate) use found::{complete_witness, violation_report};

pub(crate) use condition::readable_condition;

/// The answer of a run. Its [`Verdict::exit_code`] is the exit status of `tass`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// The search completed, nothing was violated and nothing was left undecided.
    Holds,
    /// At least one violation was found (provable or possible).
    Violated,
    /// A bound, limit or time-out was reached, or the prover could not decide
    /// something, and nothing was violated.
    Inconclusive,
    /// Usage or input error (unreadable file, syntax error, unsupported construct).
    Error,
}

impl Verdict {
    /// The JSON spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Holds => "holds",
            Verdict::Violated => "violated",
            Verdict::Inconclusive => "inconclusive",
            Verdict::Error => "error",
        }
    }

    /// The exit status DESIGN.md prescribes: 0 holds, 1 violated, 2 error,
    /// 3 inconclusive.
    pub fn exit_code(self) -> i32 {
        match self {
            Verdict::Holds => 0,
            Verdict::Violated => 1,
            Verdict::Error => 2,
            Verdict::Inconclusive => 3,
        }
    }
}

/// How sure a violation is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Certainty {
    /// The prover showed the bad case is satisfiable under the path condition.
    Provable,
    /// The prover could not rule the bad case out (it answered "maybe").
    Possible,
}

impl Certainty {
    /// The JSON spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Certainty::Provable => "provable",
            Certainty::Possible => "possible",
        }
    }
}

/// The property IDs of DESIGN.md (stable: users and tests depend on the
/// spelling): the engine's list, so reports and engine agree by construction.
pub use tass_semantics::api::{Property, SnapshotPosition, SnapshotReport};

/// One variable a step changed, with its new (pretty-printed, symbolic) value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    /// The variable (or lvalue, e.g. `a[2]`, `p->x`).
    pub variable: String,
    /// Its new value, pretty-printed (macros by name, symbolic constants by name).
    pub value: String,
}

/// One step of a counterexample trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TraceStep {
    /// In compare mode: `"spec"` or `"impl"`; `None` in verify mode.
    pub model: Option<String>,
    /// Source file of the statement.
    pub file: String,
    /// Line of the statement.
    pub line: u32,
    /// Column of the statement.
    pub column: u32,
    /// The process (rank) that took the step.
    pub process: usize,
    /// The statement's source text.
    pub source: String,
    /// The variables it changed.
    pub changes: Vec<Change>,
    /// A new execution of the statement of the step before (the same
    /// transition taken again, as in a one-statement loop of an ltl lasso):
    /// never merged into it by [`condensed`], so that the trace keeps the
    /// cycle's length (`tass replay` counts it).
    pub repeated: bool,
    /// The MPI calls the step is part of: which process's call, and which
    /// phase of it (a replay counts each rank's calls by the steps that enter
    /// one). Empty for steps that are no MPI call's.
    pub mpi_calls: Vec<MpiCall>,
}

/// One process's MPI call that a trace step is part of.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MpiCall {
    /// The process whose call it is (a blocking receive or a collective
    /// returns in another process's step).
    pub process: usize,
    /// The MPI function, e.g. `MPI_Ssend`.
    pub call: String,
    /// `call` (entered and returned in this step), `post` (entered, returns
    /// later), `match` (a middle part, or MPI's progress on a posted
    /// receive), `complete` (returns).
    pub phase: String,
    /// What a poll found: `flag 1` or `flag 0` (`MPI_Test`, `MPI_Testall`,
    /// `MPI_Iprobe`).
    pub outcome: Option<String>,
}

/// Concrete input values that drive the program into a violation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Witness {
    /// One `(input name, value)` per input, values in C-like syntax (`3`, `-1/2`,
    /// `2.5`) that `-i NAME=VALUE` accepts.
    Values(Vec<(String, String)>),
    /// No witness, and why (e.g. "the built-in prover gives none").
    Unavailable(String),
}

/// For `not-equivalent`: which output differs and how.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputDifference {
    /// The output variable (or element, e.g. `c[1]`).
    pub output: String,
    /// Its value in the specification.
    pub spec_value: String,
    /// Its value in the implementation.
    pub impl_value: String,
    /// The specification's trace (the violation's `trace` is the implementation's).
    pub spec_trace: Vec<TraceStep>,
}

/// A violation found by the search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ViolationReport {
    /// Which property.
    pub property: Property,
    /// Provable or possible.
    pub certainty: Certainty,
    /// What went wrong, in words.
    pub message: String,
    /// Where (file, line, column).
    pub file: String,
    pub line: u32,
    pub column: u32,
    /// The process that violated it.
    pub process: usize,
    /// The steps from the initial state to the violation.
    pub trace: Vec<TraceStep>,
    /// The path condition at the violation, pretty-printed.
    pub path_condition: String,
    /// The claim that can fail (e.g. `i < N`), pretty-printed.
    pub claim: String,
    /// Concrete inputs, or why there are none.
    pub witness: Witness,
    /// Inputs the prover's model gave no value for (arrays, or inputs that did not
    /// occur in the query).
    pub witness_missing: Vec<String>,
    /// For `not-equivalent`: the differing output.
    pub difference: Option<OutputDifference>,
    /// For a collective or joint assertion: the assertion, the occurrence and
    /// each process's snapshot, its step numbered as in `trace` (condensed).
    pub snapshots: Option<SnapshotReport>,
}

/// The statistics of a run (the columns of the paper's Fig. 10).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Stats {
    pub states_seen: u64,
    pub states_saved: u64,
    pub transitions: u64,
    pub prover_calls: u64,
    pub smt_calls: u64,
    pub symbolic_values: u64,
    pub time_s: f64,
    pub memory_mb: f64,
    /// Loop-invariant checks (entry and preservation) and the prover
    /// questions they asked.
    pub invariant_checks: u64,
    pub invariant_prover_calls: u64,
    /// Arrival steps at invariant loop heads among `transitions` (the LISE
    /// paper counts them as part of its loop transitions: Fig. 5's
    /// comparable figure is `transitions - loop_arrivals`).
    pub loop_arrivals: u64,
}

impl Stats {
    /// Adds the counters of one part of a split search (`--jobs`): each part
    /// has its own prover, so its calls add up; the expressions are shared.
    pub(crate) fn absorb_part(&mut self, other: &Stats) {
        self.states_seen += other.states_seen;
        self.states_saved += other.states_saved;
        self.transitions += other.transitions;
        self.prover_calls += other.prover_calls;
        self.smt_calls += other.smt_calls;
        self.symbolic_values = self.symbolic_values.max(other.symbolic_values);
        self.invariant_checks += other.invariant_checks;
        self.invariant_prover_calls += other.invariant_prover_calls;
        self.loop_arrivals += other.loop_arrivals;
        self.memory_mb = self.memory_mb.max(other.memory_mb);
    }

    /// Adds the counters of another search (compare mode runs several).
    pub fn absorb(&mut self, other: &Stats) {
        self.states_seen += other.states_seen;
        self.states_saved += other.states_saved;
        self.transitions += other.transitions;
        self.prover_calls = self.prover_calls.max(other.prover_calls);
        self.smt_calls = self.smt_calls.max(other.smt_calls);
        self.symbolic_values = self.symbolic_values.max(other.symbolic_values);
        self.invariant_checks += other.invariant_checks;
        self.invariant_prover_calls += other.invariant_prover_calls;
        self.loop_arrivals += other.loop_arrivals;
    }
}

/// The peak resident memory of this process in MB (`VmHWM`), 0 where unknown.
pub fn peak_memory_mb() -> f64 {
    let Ok(status) = std::fs::read_to_string("/proc/self/status") else {
        return 0.0;
    };
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmHWM:"))
        .and_then(|rest| {
            rest.trim()
                .trim_end_matches("kB")
                .trim()
                .parse::<f64>()
                .ok()
        })
        .map(|kb| kb / 1024.0)
        .unwrap_or(0.0)
}

/// The result of `tass verify` / `tass compare`.
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The verdict.
    pub verdict: Verdict,
    /// Violations found, deduplicated by (property, location), in the order found.
    pub violations: Vec<ViolationReport>,
    /// For verdict `Error`: what went wrong.
    pub error: Option<String>,
    /// Why the verdict is inconclusive (the limit reached, the undecided query).
    pub inconclusive_reason: Option<String>,
    /// The search stopped at `max_violations` violations and more may exist.
    pub stopped_early: bool,
    /// The violation limit that stopped it (for the hint in the text output).
    pub max_violations: usize,
    /// Warnings (e.g. `assumption-vacuous`).
    pub warnings: Vec<String>,
    /// `verify` only: the value of each output element (`sum`, `c[0][1]`) at the end
    /// of the runs, printed exactly (`5`, `115/2`); `None` when no run completed. An
    /// element whose value differs between runs is printed as `(differs between runs)`.
    pub outputs: Option<std::collections::BTreeMap<String, String>>,
    /// Counters.
    pub stats: Stats,
    /// The split of a sharded (`--shard`) or parallel (`--jobs`) search.
    pub split: Option<crate::options::ShardReport>,
    /// `verify` of a program with collective loop invariants over several
    /// processes: both runs' figures and what became of the second run.
    pub loop_runs: Option<LoopRuns>,
    /// The run refused a state where processes wait for each other at an
    /// invariant loop's head, or a message crosses the head (the aligned
    /// form's refusals a run with lagged loop records may decide).
    pub(crate) aligned_loops_stuck: bool,
}

/// The two runs of `verify` on a program with collective loop invariants
/// over several processes (`real/lagged.rs`): the aligned run, and the
/// second run with lagged loop records when the first needs it.
#[derive(Clone, Debug, PartialEq)]
pub struct LoopRuns {
    /// The aligned run's counters.
    pub aligned: Stats,
    /// The second run's counters, if it ran.
    pub lagged: Option<Stats>,
    /// Why the second run was started or skipped, and what became of it
    /// (stopped by a limit, decided, ...), in words.
    pub second_run: String,
}

impl Report {
    /// A report for a usage or input error.
    pub fn error(message: impl Into<String>) -> Report {
        Report {
            verdict: Verdict::Error,
            violations: Vec::new(),
            error: Some(message.into()),
            inconclusive_reason: None,
            stopped_early: false,
            max_violations: 1,
            warnings: Vec::new(),
            outputs: None,
            stats: Stats {
                memory_mb: peak_memory_mb(),
                ..Stats::default()
            },
            split: None,
            loop_runs: None,
            aligned_loops_stuck: false,
        }
    }

    /// The exit status of `tass`.
    pub fn exit_code(&self) -> i32 {
        self.verdict.exit_code()
    }

    /// DESIGN.md's JSON object. Keys beyond DESIGN's (`path_condition`, `claim`, and
    /// for `not-equivalent` `output`, `spec_value`, `impl_value`, `spec_trace`;
    /// top-level `warnings` and `reason`) are additions a consumer may ignore.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(documents::JsonReport::new(self)).unwrap_or(Value::Null)
    }

    /// The JSON of the first violation's trace (what `--trace FILE` writes), or
    /// `None` when there is no violation.
    pub fn trace_json(&self) -> Option<Value> {
        let v = self.violations.first()?;
        serde_json::to_value(documents::JsonTraceFile::new(v)).ok()
    }

    /// Human-readable text: each violation with its trace, path condition, claim
    /// and witness; the verdict; the statistics when `stats` is set or the verdict
    /// is inconclusive. `quiet` prints
    /// only the verdict line (and errors); `verbose` adds unchanged details.
    pub fn to_text(&self, stats: bool, quiet: bool) -> String {
        self.to_text_with(&TextStyle {
            stats,
            quiet,
            colour: Colour::Plain,
        })
    }

    /// [`Report::to_text`], in colour when `style.colour` says so.
    pub fn to_text_with(&self, style: &TextStyle) -> String {
        let TextStyle {
            stats,
            quiet,
            colour,
        } = *style;
        let mut out = String::new();
        if let Some(error) = &self.error {
            let _ = writeln!(out, "{error}");
        }
        if !quiet {
            for w in &self.warnings {
                let _ = writeln!(out, "warning: {w}");
            }
            for (i, v) in self.violations.iter().enumerate() {
                write_violation_text(&mut out, i + 1, v, colour);
            }
        }
        let verdict_paint = match self.verdict {
            Verdict::Holds => Paint::Holds,
            Verdict::Violated | Verdict::Error => Paint::Provable,
            Verdict::Inconclusive => Paint::Possible,
        };
        let _ = write!(
            out,
            "verdict: {}",
            colour.paint(verdict_paint, self.verdict.as_str())
        );
        match self.verdict {
            Verdict::Violated => {
                let n = self.violations.len();
                let possible = self
                    .violations
                    .iter()
                    .filter(|v| v.certainty == Certainty::Possible)
                    .count();
                let _ = write!(out, " ({n} violation{}", if n == 1 { "" } else { "s" });
                if possible > 0 {
                    let _ = write!(out, ", {possible} only possible");
                }
                let _ = write!(out, ")");
            }
            Verdict::Inconclusive => {
                if let Some(reason) = &self.inconclusive_reason {
                    let _ = write!(out, " ({reason})");
                }
            }
            _ => {}
        }
        let _ = writeln!(out);
        if self.stopped_early && !quiet {
            let _ = writeln!(
                out,
                "note: the search stopped after {} violation{}; more may exist \
                 (use --max-violations N for more, 0 for all)",
                self.max_violations,
                if self.max_violations == 1 { "" } else { "s" }
            );
        }
        // A search ended by a limit or Ctrl-C always shows how far it got.
        if stats || self.verdict == Verdict::Inconclusive {
            out.push_str(&stats_text(&self.stats));
            if let Some(runs) = self.loop_runs.as_ref().filter(|r| r.lagged.is_some()) {
                let _ = write!(out, "  aligned run: {}", stats_text(&runs.aligned));
                if let Some(lagged) = &runs.lagged {
                    let _ = write!(out, "  lagged run:  {}", stats_text(lagged));
                }
            }
        }
        out
    }

    /// A SARIF 2.1.0 log with one run; each violation a result with a code flow,
    /// an error or the reason of an inconclusive verdict a notification.
    pub fn to_sarif(&self) -> Value {
        serde_json::to_value(documents::SarifLog::new(self)).unwrap_or(Value::Null)
    }
}

fn stats_text(s: &Stats) -> String {
    let invariants = if s.invariant_checks > 0 || s.loop_arrivals > 0 {
        format!(
            ", invariant checks {} (prover calls {}), loop arrivals {}",
            s.invariant_checks, s.invariant_prover_calls, s.loop_arrivals
        )
    } else {
        String::new()
    };
    format!(
        "stats: states seen {}, saved {}, transitions {}, prover calls {} (smt {}), \
         symbolic values {}, time {:.3} s, memory {:.1} MB{invariants}\n",
        s.states_seen,
        s.states_saved,
        s.transitions,
        s.prover_calls,
        s.smt_calls,
        s.symbolic_values,
        s.time_s,
        s.memory_mb
    )
}

fn step_text(s: &TraceStep) -> String {
    let mut text = s.source.clone();
    if !s.changes.is_empty() {
        let changes: Vec<String> = s
            .changes
            .iter()
            .map(|c| format!("{} = {}", c.variable, c.value))
            .collect();
        let _ = write!(text, "   [{}]", changes.join(", "));
    }
    text
}

/// The trace with each statement's consecutive steps by one process merged into
/// one step (a declaration and its initialisation, a function's parameters, a
/// loop's test and increment), whose changes are all of theirs, the last value of
/// a variable winning: what text, JSON and SARIF show.
pub(crate) fn condensed(trace: &[TraceStep]) -> Vec<TraceStep> {
    let mut out: Vec<TraceStep> = Vec::with_capacity(trace.len());
    for s in trace {
        if let Some(last) = out.last_mut() {
            if continues(last, s) {
                for c in &s.changes {
                    match last.changes.iter_mut().find(|o| o.variable == c.variable) {
                        Some(old) => old.value = c.value.clone(),
                        None => last.changes.push(c.clone()),
                    }
                }
                last.mpi_calls.extend(s.mpi_calls.iter().cloned());
                continue;
            }
        }
        out.push(s.clone());
    }
    out
}

/// Whether raw trace step `s` is merged into the condensed step before it.
fn continues(last: &TraceStep, s: &TraceStep) -> bool {
    !s.repeated
        && last.model == s.model
        && last.process == s.process
        && last.file == s.file
        && last.line == s.line
        && last.source == s.source
}

/// A collective or joint assertion's `snapshots` as the report shows them:
/// each process's step (a 1-based position in the raw `trace`, as the engine
/// counts a path's steps) renumbered to the position of that step in the
/// [`condensed`] trace that text, JSON and SARIF show. The specification's
/// snapshot of a joint assertion counts the specification's path, not
/// `trace`: it is kept.
pub(crate) fn snapshots_in_trace(
    snapshots: Option<Box<SnapshotReport>>,
    trace: &[TraceStep],
) -> Option<SnapshotReport> {
    let mut snapshots = *snapshots?;
    // position[i]: the condensed position of raw step i + 1.
    let mut position = Vec::with_capacity(trace.len());
    let mut count = 0u64;
    for (i, s) in trace.iter().enumerate() {
        if i == 0 || !continues(&trace[i - 1], s) {
            count += 1;
        }
        position.push(count);
    }
    for p in &mut snapshots.processes {
        let raw = usize::try_from(p.step).ok().and_then(|n| n.checked_sub(1));
        if let Some(&n) = raw.and_then(|i| position.get(i)) {
            p.step = n;
        }
    }
    Some(snapshots)
}

/// `message` followed by the snapshot positions in words (`; snapshots:
/// process 0 at line 9, step 7; ...`), as text, JSON and SARIF messages show
/// them; the same positions are structured fields of the JSON and SARIF.
pub(crate) fn message_with_snapshots(
    message: String,
    snapshots: Option<&SnapshotReport>,
) -> String {
    let Some(s) = snapshots else {
        return message;
    };
    let processes: Vec<String> = s
        .processes
        .iter()
        .map(|p| format!("process {} at line {}, step {}", p.process, p.line, p.step))
        .collect();
    let mut out = format!("{message}; snapshots: {}", processes.join("; "));
    if let Some(spec) = &s.specification {
        let _ = write!(
            out,
            "; the specification at line {}, step {}",
            spec.line, spec.step
        );
    }
    out
}

fn write_trace_text(out: &mut String, trace: &[TraceStep]) {
    for s in condensed(trace) {
        let model = s
            .model
            .as_deref()
            .map(|m| format!("{m} "))
            .unwrap_or_default();
        let _ = writeln!(
            out,
            "  {model}{}:{} p{}: {}",
            s.file,
            s.line,
            s.process,
            step_text(&s)
        );
    }
}

/// The report of a program refused before the search (a pragma the engine
/// cannot check: a rank out of range, an ID given two expressions, ...): as the
/// front end shows its errors, `file:line:column: error: message`, then the
/// source line and a caret.
pub(crate) fn refusal(error: &tass_semantics::api::EngineError) -> Report {
    use tass_semantics::api::EngineError;
    match error {
        EngineError::Invalid {
            message,
            span: Some(span),
        } => {
            let snippet = source_snippet(
                &span.file,
                span.start_line,
                span.start_column,
                Colour::Plain,
            );
            Report::error(format!(
                "{span}: error: {message}\n{}",
                snippet.trim_end_matches('\n')
            ))
        }
        other => Report::error(other.to_string()),
    }
}

/// The source line `line` of `file` and a caret under `column`, drawn as the
/// front end draws its errors (`tass_model::api::source_snippet`), ending in a
/// newline; nothing when the file or the line cannot be read.
fn source_snippet(file: &str, line: u32, column: u32, colour: Colour) -> String {
    let Ok(text) = std::fs::read_to_string(file) else {
        return String::new();
    };
    let Some(src) = text.lines().nth((line.max(1) - 1) as usize) else {
        return String::new();
    };
    let colour = match colour {
        Colour::Plain => SnippetColour::Plain,
        Colour::Ansi => SnippetColour::Ansi,
    };
    format!(
        "{}\n",
        tass_model::api::source_snippet(src, line, column, colour)
    )
}

/// Whether text output uses ANSI colours (`--color`; the CLI decides from the
/// terminal and `NO_COLOR`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Colour {
    /// Plain text.
    #[default]
    Plain,
    /// ANSI colours.
    Ansi,
}

/// What a coloured piece of text is.
#[derive(Clone, Copy)]
enum Paint {
    Provable,
    Possible,
    Holds,
    Bold,
}

impl Colour {
    fn paint(self, what: Paint, text: &str) -> String {
        if self == Colour::Plain {
            return text.to_string();
        }
        let code = match what {
            Paint::Provable => "1;31",
            Paint::Possible => "1;33",
            Paint::Holds => "1;32",
            Paint::Bold => "1",
        };
        format!("\x1b[{code}m{text}\x1b[0m")
    }
}

/// How [`Report::to_text_with`] writes.
#[derive(Clone, Copy, Debug, Default)]
pub struct TextStyle {
    /// Print the statistics.
    pub stats: bool,
    /// Print only the verdict line (and errors).
    pub quiet: bool,
    /// Colours or plain text.
    pub colour: Colour,
}

fn write_violation_text(out: &mut String, index: usize, v: &ViolationReport, colour: Colour) {
    let paint = match v.certainty {
        Certainty::Provable => Paint::Provable,
        Certainty::Possible => Paint::Possible,
    };
    let what = colour.paint(
        paint,
        &format!(
            "violation {index}: {} ({})",
            v.property.id(),
            v.certainty.as_str()
        ),
    );
    let _ = writeln!(
        out,
        "{}: {what}, process {}: {}",
        colour.paint(Paint::Bold, &format!("{}:{}:{}", v.file, v.line, v.column)),
        v.process,
        colour.paint(Paint::Bold, &v.message)
    );
    out.push_str(&source_snippet(&v.file, v.line, v.column, colour));
    if let Some(d) = &v.difference {
        let _ = writeln!(out, "specification trace:");
        write_trace_text(out, &d.spec_trace);
        let _ = writeln!(out, "implementation trace:");
    } else {
        let _ = writeln!(out, "trace:");
    }
    write_trace_text(out, &v.trace);
    let _ = writeln!(out, "path condition: {}", v.path_condition);
    if let Some(d) = &v.difference {
        let _ = writeln!(
            out,
            "output {} differs: specification {}, implementation {}",
            d.output, d.spec_value, d.impl_value
        );
    }
    let _ = writeln!(out, "violated: {}", v.claim);
    match &v.witness {
        Witness::Values(values) if values.is_empty() => {
            if v.witness_missing.is_empty() {
                let _ = writeln!(out, "witness: (the program has no inputs)");
            }
        }
        Witness::Values(values) => {
            let parts: Vec<String> = values.iter().map(|(n, x)| format!("{n} = {x}")).collect();
            let _ = writeln!(out, "witness: {}", parts.join(", "));
        }
        Witness::Unavailable(reason) => {
            let _ = writeln!(out, "no witness: {reason}");
        }
    }
    if !v.witness_missing.is_empty() {
        let _ = writeln!(
            out,
            "note: the prover gave no value for {} (any value may not do)",
            v.witness_missing.join(", ")
        );
    }
    let _ = writeln!(out);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Report {
        Report {
            verdict: Verdict::Violated,
            violations: vec![ViolationReport {
                property: Property::Assertion,
                certainty: Certainty::Provable,
                message: "assertion `x < 3` can fail".into(),
                file: "a.c".into(),
                line: 7,
                column: 3,
                process: 0,
                trace: vec![TraceStep {
                    model: None,
                    file: "a.c".into(),
                    line: 5,
                    column: 3,
                    process: 0,
                    source: "x = N + 1".into(),
                    changes: vec![Change {
                        variable: "x".into(),
                        value: "N+1".into(),
                    }],
                    repeated: false,
                    mpi_calls: Vec::new(),
                }],
                path_condition: "N >= 2".into(),
                claim: "x < 3".into(),
                witness: Witness::Values(vec![
                    ("N".into(), "2".into()),
                    ("r".into(), "1/2".into()),
                ]),
                witness_missing: vec![],
                difference: None,
                snapshots: None,
            }],
            error: None,
            inconclusive_reason: None,
            stopped_early: true,
            max_violations: 1,
            warnings: vec![],
            outputs: None,
            stats: Stats::default(),
            split: None,
            loop_runs: None,
            aligned_loops_stuck: false,
        }
    }

    #[test]
    fn json_has_designs_keys_in_order() {
        let json = sample().to_json();
        let keys: Vec<&String> = json.as_object().unwrap().keys().collect();
        assert_eq!(keys, ["verdict", "violations", "stats"]);
        let v = &json["violations"][0];
        assert_eq!(v["property"], "assertion");
        assert_eq!(v["certainty"], "provable");
        assert_eq!(v["line"], 7);
        assert_eq!(v["witness"]["N"], 2);
        assert_eq!(v["witness"]["r"], "1/2");
        assert_eq!(v["trace"][0]["changes"]["x"], "N+1");
        for key in [
            "states_seen",
            "states_saved",
            "transitions",
            "prover_calls",
            "smt_calls",
            "symbolic_values",
            "time_s",
            "memory_mb",
        ] {
            assert!(json["stats"].get(key).is_some(), "{key}");
        }
    }

    #[test]
    fn text_names_location_property_and_hint() {
        let text = sample().to_text(false, false);
        assert!(text.contains("a.c:7:3: violation 1: assertion (provable)"));
        assert!(text.contains("witness: N = 2, r = 1/2"));
        assert!(text.contains("--max-violations"));
        assert!(text.contains("verdict: violated (1 violation)"));
    }

    #[test]
    fn error_report_exits_2_and_sarif_is_well_formed() {
        let r = Report::error("a.c:1:1: error: expected `;`");
        assert_eq!(r.exit_code(), 2);
        assert_eq!(r.to_json()["verdict"], "error");
        let s = sample().to_sarif();
        assert_eq!(s["version"], "2.1.0");
        assert_eq!(s["runs"][0]["results"][0]["ruleId"], "assertion");
    }

    #[test]
    fn a_statements_consecutive_steps_are_one() {
        let step = |line: u32, process: usize, var: &str, value: &str| TraceStep {
            model: None,
            file: "a.c".into(),
            line,
            column: 1,
            process,
            source: format!("line {line}"),
            changes: vec![Change {
                variable: var.into(),
                value: value.into(),
            }],
            repeated: false,
            mpi_calls: Vec::new(),
        };
        let trace = vec![
            step(1, 0, "argc", "1"),
            step(1, 0, "argv", "NULL"),
            step(1, 1, "argc", "1"),
            step(2, 1, "i", "0"),
            step(2, 1, "i", "1"),
            step(1, 1, "argc", "2"),
        ];
        let position = |raw: u64, process: usize| SnapshotPosition {
            process,
            assertion: "A".into(),
            file: "a.c".into(),
            line: 1,
            step: raw,
        };
        let raw = SnapshotReport {
            assertion: "A".into(),
            occurrence: 1,
            processes: vec![position(2, 0), position(5, 1)],
            specification: Some(position(2, 0)),
            specification_path: None,
        };
        let shown = snapshots_in_trace(Some(Box::new(raw)), &trace).expect("snapshots");
        assert_eq!(shown.processes[0].step, condensed(&trace[..2]).len() as u64);
        assert_eq!(shown.processes[1].step, condensed(&trace[..5]).len() as u64);
        assert_eq!(shown.specification.as_ref().map(|s| s.step), Some(2));
        assert_eq!(
            message_with_snapshots("x".into(), Some(&shown)),
            format!(
                "x; snapshots: process 0 at line 1, step {}; process 1 at line 1, step {}; the \
                 specification at line 1, step 2",
                shown.processes[0].step, shown.processes[1].step
            )
        );
        let merged = condensed(&trace);
        assert_eq!(merged.len(), 4);
        assert_eq!(merged[0].changes.len(), 2);
        assert_eq!(merged[2].changes[0].value, "1");
        assert_eq!(merged[3].line, 1);
    }

    #[test]
    fn exit_codes_follow_design() {
        assert_eq!(Verdict::Holds.exit_code(), 0);
        assert_eq!(Verdict::Violated.exit_code(), 1);
        assert_eq!(Verdict::Error.exit_code(), 2);
        assert_eq!(Verdict::Inconclusive.exit_code(), 3);
        assert_eq!(
            Property::from_id("out-of-bounds"),
            Some(Property::OutOfBounds)
        );
    }
}
