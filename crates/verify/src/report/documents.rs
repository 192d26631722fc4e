//! The JSON and SARIF documents, as serde types: what a report serializes to.
//! Field order is key order (serde_json's `preserve_order`), DESIGN.md's first.

use serde::Serialize;
use serde_json::{Map, Value};

use super::{
    condensed, step_text, Certainty, Report, SnapshotPosition, SnapshotReport, Stats, TraceStep,
    Verdict, ViolationReport, Witness,
};
use tass_semantics::api::Property;

/// DESIGN.md's JSON object (`tass ... --format json`).
#[derive(Serialize)]
pub(super) struct JsonReport<'a> {
    verdict: &'static str,
    violations: Vec<JsonViolation<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    reason: Option<&'a str>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    warnings: &'a [String],
    #[serde(skip_serializing_if = "Option::is_none")]
    outputs: Option<&'a std::collections::BTreeMap<String, String>>,
    stats: JsonStats,
    #[serde(skip_serializing_if = "Option::is_none")]
    shard: Option<JsonShard>,
    #[serde(skip_serializing_if = "Option::is_none")]
    loop_runs: Option<JsonLoopRuns<'a>>,
}

/// `verify` with collective loop invariants over several processes: the
/// aligned run's and the lagged second run's counters (`stats` is their
/// sum) and what became of the second run.
#[derive(Serialize)]
struct JsonLoopRuns<'a> {
    aligned: JsonStats,
    #[serde(skip_serializing_if = "Option::is_none")]
    lagged: Option<JsonStats>,
    second_run: &'a str,
}

impl<'a> JsonLoopRuns<'a> {
    fn new(runs: &'a crate::report::LoopRuns) -> JsonLoopRuns<'a> {
        JsonLoopRuns {
            aligned: JsonStats::new(&runs.aligned),
            lagged: runs.lagged.as_ref().map(JsonStats::new),
            second_run: &runs.second_run,
        }
    }
}

/// `--shard K/N`: which part of which split this report is (`tass merge`
/// checks that its inputs are the parts of one split).
#[derive(Serialize)]
struct JsonShard {
    index: u64,
    count: u64,
    depth: u64,
    items: u64,
    digest: String,
    parts: u64,
}

impl JsonShard {
    fn new(split: &crate::options::ShardReport) -> Option<JsonShard> {
        let shard = split.shard?;
        Some(JsonShard {
            index: shard.index,
            count: shard.count,
            depth: split.depth,
            items: split.items,
            digest: format!("{:016x}", split.digest),
            parts: split.parts,
        })
    }
}

impl<'a> JsonReport<'a> {
    pub(super) fn new(r: &'a Report) -> JsonReport<'a> {
        JsonReport {
            verdict: r.verdict.as_str(),
            violations: r.violations.iter().map(JsonViolation::new).collect(),
            error: r.error.as_deref(),
            reason: r.inconclusive_reason.as_deref(),
            warnings: &r.warnings,
            outputs: r.outputs.as_ref(),
            stats: JsonStats::new(&r.stats),
            shard: r.split.as_ref().and_then(JsonShard::new),
            loop_runs: r.loop_runs.as_ref().map(JsonLoopRuns::new),
        }
    }
}

/// The fields a JSON violation and a `--trace FILE` start with: which
/// property, how certain, and where (one struct so the two documents cannot
/// drift apart).
#[derive(Serialize)]
struct JsonViolationHead<'a> {
    property: &'static str,
    certainty: &'static str,
    message: &'a str,
    file: &'a str,
    line: u32,
    column: u32,
    process: usize,
}

impl<'a> JsonViolationHead<'a> {
    fn new(v: &'a ViolationReport) -> JsonViolationHead<'a> {
        JsonViolationHead {
            property: v.property.id(),
            certainty: v.certainty.as_str(),
            message: &v.message,
            file: &v.file,
            line: v.line,
            column: v.column,
            process: v.process,
        }
    }
}

#[derive(Serialize)]
struct JsonViolation<'a> {
    #[serde(flatten)]
    head: JsonViolationHead<'a>,
    trace: Vec<JsonStep>,
    witness: Option<Map<String, Value>>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    witness_missing: &'a [String],
    path_condition: &'a str,
    claim: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    output: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    spec_value: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    impl_value: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    spec_trace: Option<Vec<JsonStep>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    snapshots: Option<JsonSnapshots<'a>>,
}

/// A collective or joint assertion's snapshots: `snapshots` of a JSON
/// violation, `properties.snapshots` of a SARIF result.
#[derive(Serialize)]
struct JsonSnapshots<'a> {
    assertion: &'a str,
    occurrence: u64,
    processes: Vec<JsonSnapshot<'a>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    specification: Option<JsonSnapshot<'a>>,
}

#[derive(Serialize)]
struct JsonSnapshot<'a> {
    process: usize,
    assertion: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    file: &'a str,
    line: u32,
    step: u64,
}

impl<'a> JsonSnapshots<'a> {
    fn new(s: &'a SnapshotReport) -> JsonSnapshots<'a> {
        let one = |p: &'a SnapshotPosition| JsonSnapshot {
            process: p.process,
            assertion: &p.assertion,
            file: &p.file,
            line: p.line,
            step: p.step,
        };
        JsonSnapshots {
            assertion: &s.assertion,
            occurrence: s.occurrence,
            processes: s.processes.iter().map(one).collect(),
            specification: s.specification.as_ref().map(one),
        }
    }
}

impl<'a> JsonViolation<'a> {
    fn new(v: &'a ViolationReport) -> JsonViolation<'a> {
        let d = v.difference.as_ref();
        JsonViolation {
            head: JsonViolationHead::new(v),
            trace: json_trace(&v.trace),
            witness: witness_map(&v.witness),
            witness_missing: &v.witness_missing,
            path_condition: &v.path_condition,
            claim: &v.claim,
            output: d.map(|d| d.output.as_str()),
            spec_value: d.map(|d| d.spec_value.as_str()),
            impl_value: d.map(|d| d.impl_value.as_str()),
            spec_trace: d.map(|d| json_trace(&d.spec_trace)),
            snapshots: v.snapshots.as_ref().map(JsonSnapshots::new),
        }
    }
}

/// What `--trace FILE` holds: the first violation and its trace.
#[derive(Serialize)]
pub(super) struct JsonTraceFile<'a> {
    #[serde(flatten)]
    head: JsonViolationHead<'a>,
    #[serde(skip_serializing_if = "Option::is_none")]
    spec_trace: Option<Vec<JsonStep>>,
    trace: Vec<JsonStep>,
    path_condition: &'a str,
    claim: &'a str,
    witness: Option<Map<String, Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    snapshots: Option<JsonSnapshots<'a>>,
}

impl<'a> JsonTraceFile<'a> {
    pub(super) fn new(v: &'a ViolationReport) -> JsonTraceFile<'a> {
        JsonTraceFile {
            head: JsonViolationHead::new(v),
            spec_trace: v.difference.as_ref().map(|d| json_trace(&d.spec_trace)),
            trace: json_trace(&v.trace),
            path_condition: &v.path_condition,
            claim: &v.claim,
            witness: witness_map(&v.witness),
            snapshots: v.snapshots.as_ref().map(JsonSnapshots::new),
        }
    }
}

#[derive(Serialize)]
struct JsonStep {
    #[serde(skip_serializing_if = "Option::is_none")]
    model: Option<String>,
    file: String,
    line: u32,
    column: u32,
    process: usize,
    source: String,
    changes: Map<String, Value>,
    /// The MPI calls the step is part of (an addition to DESIGN.md's step:
    /// which process's call, its phase, a poll's outcome).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    mpi: Vec<Value>,
}

/// The trace as JSON steps, a statement's consecutive steps merged into one.
fn json_trace(trace: &[TraceStep]) -> Vec<JsonStep> {
    condensed(trace)
        .into_iter()
        .map(|s| JsonStep {
            changes: s
                .changes
                .iter()
                .map(|c| (c.variable.clone(), Value::String(c.value.clone())))
                .collect(),
            mpi: s
                .mpi_calls
                .iter()
                .map(|m| {
                    let mut call = Map::new();
                    call.insert("process".into(), Value::from(m.process));
                    call.insert("call".into(), Value::from(m.call.clone()));
                    call.insert("phase".into(), Value::from(m.phase.clone()));
                    if let Some(outcome) = &m.outcome {
                        call.insert("outcome".into(), Value::from(outcome.clone()));
                    }
                    Value::Object(call)
                })
                .collect(),
            model: s.model,
            file: s.file,
            line: s.line,
            column: s.column,
            process: s.process,
            source: s.source,
        })
        .collect()
}

/// A witness value as JSON: integers as numbers, everything else as strings.
fn witness_value(value: &str) -> Value {
    if let Ok(i) = value.parse::<i64>() {
        return Value::from(i);
    }
    if value.contains('.') || value.contains('e') {
        if let Ok(f) = value.parse::<f64>() {
            if f.is_finite() && f.to_string() == value {
                return Value::from(f);
            }
        }
    }
    Value::String(value.to_string())
}

fn witness_map(w: &Witness) -> Option<Map<String, Value>> {
    match w {
        Witness::Values(values) => Some(
            values
                .iter()
                .map(|(name, value)| (name.clone(), witness_value(value)))
                .collect(),
        ),
        Witness::Unavailable(_) => None,
    }
}

#[derive(Serialize)]
struct JsonStats {
    states_seen: u64,
    states_saved: u64,
    transitions: u64,
    prover_calls: u64,
    smt_calls: u64,
    symbolic_values: u64,
    time_s: f64,
    memory_mb: f64,
    #[serde(skip_serializing_if = "is_zero")]
    invariant_checks: u64,
    #[serde(skip_serializing_if = "is_zero")]
    invariant_prover_calls: u64,
    #[serde(skip_serializing_if = "is_zero")]
    loop_arrivals: u64,
}

fn is_zero(n: &u64) -> bool {
    *n == 0
}

impl JsonStats {
    fn new(s: &Stats) -> JsonStats {
        JsonStats {
            states_seen: s.states_seen,
            states_saved: s.states_saved,
            transitions: s.transitions,
            prover_calls: s.prover_calls,
            smt_calls: s.smt_calls,
            symbolic_values: s.symbolic_values,
            time_s: (s.time_s * 1000.0).round() / 1000.0,
            memory_mb: (s.memory_mb * 10.0).round() / 10.0,
            invariant_checks: s.invariant_checks,
            invariant_prover_calls: s.invariant_prover_calls,
            loop_arrivals: s.loop_arrivals,
        }
    }
}

/// A SARIF 2.1.0 log with one run.
#[derive(Serialize)]
pub(super) struct SarifLog<'a> {
    #[serde(rename = "$schema")]
    schema: &'static str,
    version: &'static str,
    runs: [SarifRun<'a>; 1],
}

#[derive(Serialize)]
struct SarifRun<'a> {
    tool: SarifTool,
    invocations: [SarifInvocation<'a>; 1],
    results: Vec<SarifResult<'a>>,
    properties: SarifRunProperties,
}

#[derive(Serialize)]
struct SarifTool {
    driver: SarifDriver,
}

#[derive(Serialize)]
struct SarifDriver {
    name: &'static str,
    version: &'static str,
    rules: Vec<SarifRule>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifRule {
    id: &'static str,
    short_description: SarifMessage,
}

#[derive(Serialize)]
struct SarifMessage {
    text: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifInvocation<'a> {
    execution_successful: bool,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    tool_execution_notifications: Vec<SarifNotification<'a>>,
}

#[derive(Serialize)]
struct SarifNotification<'a> {
    level: &'static str,
    message: SarifText<'a>,
}

#[derive(Serialize)]
struct SarifText<'a> {
    text: &'a str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResult<'a> {
    rule_id: &'static str,
    level: &'static str,
    message: SarifMessage,
    locations: [SarifLocation; 1],
    /// A collective assertion's snapshots, one location each.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    related_locations: Vec<SarifRelatedLocation>,
    properties: SarifResultProperties<'a>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    code_flows: Vec<SarifCodeFlow>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifLocation {
    physical_location: SarifPhysicalLocation,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifRelatedLocation {
    physical_location: SarifPhysicalLocation,
    message: SarifMessage,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifPhysicalLocation {
    artifact_location: SarifArtifact,
    region: SarifRegion,
}

#[derive(Serialize)]
struct SarifArtifact {
    uri: String,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifRegion {
    start_line: u32,
    start_column: u32,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifResultProperties<'a> {
    certainty: &'static str,
    process: usize,
    path_condition: &'a str,
    witness: Option<Map<String, Value>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    snapshots: Option<JsonSnapshots<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifCodeFlow {
    thread_flows: [SarifThreadFlow; 1],
}

#[derive(Serialize)]
struct SarifThreadFlow {
    locations: Vec<SarifFlowLocation>,
}

#[derive(Serialize)]
struct SarifFlowLocation {
    location: SarifFlowStep,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct SarifFlowStep {
    physical_location: SarifPhysicalLocation,
    message: SarifMessage,
}

#[derive(Serialize)]
struct SarifRunProperties {
    verdict: &'static str,
    stats: JsonStats,
}

fn physical(file: &str, line: u32, column: u32) -> SarifPhysicalLocation {
    SarifPhysicalLocation {
        artifact_location: SarifArtifact {
            uri: file.to_string(),
        },
        region: SarifRegion {
            start_line: line.max(1),
            start_column: column.max(1),
        },
    }
}

impl<'a> SarifResult<'a> {
    fn new(v: &'a ViolationReport) -> SarifResult<'a> {
        let steps: Vec<SarifFlowLocation> = condensed(&v.trace)
            .iter()
            .map(|s| SarifFlowLocation {
                location: SarifFlowStep {
                    physical_location: physical(&s.file, s.line, s.column),
                    message: SarifMessage { text: step_text(s) },
                },
            })
            .collect();
        let code_flows = if steps.is_empty() {
            Vec::new()
        } else {
            vec![SarifCodeFlow {
                thread_flows: [SarifThreadFlow { locations: steps }],
            }]
        };
        SarifResult {
            rule_id: v.property.id(),
            level: match v.certainty {
                Certainty::Provable => "error",
                Certainty::Possible => "warning",
            },
            message: SarifMessage {
                text: format!("{} ({})", v.message, v.certainty.as_str()),
            },
            locations: [SarifLocation {
                physical_location: physical(&v.file, v.line, v.column),
            }],
            related_locations: snapshot_locations(v),
            properties: SarifResultProperties {
                certainty: v.certainty.as_str(),
                process: v.process,
                path_condition: &v.path_condition,
                witness: witness_map(&v.witness),
                snapshots: v.snapshots.as_ref().map(JsonSnapshots::new),
            },
            code_flows,
        }
    }
}

/// Each process's snapshot of a collective or joint assertion violation as a
/// SARIF related location (in the violation's file; the step is the position
/// in the result's code flow).
fn snapshot_locations(v: &ViolationReport) -> Vec<SarifRelatedLocation> {
    let Some(s) = &v.snapshots else {
        return Vec::new();
    };
    s.processes
        .iter()
        .map(|p| SarifRelatedLocation {
            physical_location: physical(&p.file, p.line, 1),
            message: SarifMessage {
                text: format!(
                    "process {}'s snapshot at `{}` (occurrence {}), step {}",
                    p.process, p.assertion, s.occurrence, p.step
                ),
            },
        })
        .collect()
}

impl<'a> SarifLog<'a> {
    pub(super) fn new(r: &'a Report) -> SarifLog<'a> {
        let rules = Property::ALL
            .iter()
            .map(|p| SarifRule {
                id: p.id(),
                short_description: SarifMessage {
                    text: p.description().to_string(),
                },
            })
            .collect();
        // An error, and the reason a run is inconclusive, are notifications of
        // the invocation: a code-scanning viewer shows them with the run.
        let mut notifications = Vec::new();
        if let Some(error) = &r.error {
            notifications.push(SarifNotification {
                level: "error",
                message: SarifText { text: error },
            });
        }
        if let Some(reason) = &r.inconclusive_reason {
            notifications.push(SarifNotification {
                level: "warning",
                message: SarifText { text: reason },
            });
        }
        SarifLog {
            schema: "https://json.schemastore.org/sarif-2.1.0.json",
            version: "2.1.0",
            runs: [SarifRun {
                tool: SarifTool {
                    driver: SarifDriver {
                        name: "tass",
                        version: env!("CARGO_PKG_VERSION"),
                        rules,
                    },
                },
                invocations: [SarifInvocation {
                    execution_successful: r.verdict != Verdict::Error,
                    tool_execution_notifications: notifications,
                }],
                results: r.violations.iter().map(SarifResult::new).collect(),
                properties: SarifRunProperties {
                    verdict: r.verdict.as_str(),
                    stats: JsonStats::new(&r.stats),
                },
            }],
        }
    }
}
