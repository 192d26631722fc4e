//! `tass merge RESULT.json...`: the verdict of a search split with
//! `--shard K/N`, from the shards' JSON reports. Violated if a shard found a
//! violation (each is a real one of the same search); otherwise holds only if
//! all N shards of one split are there, once each, and every one held having
//! seen the same cut; a missing shard or an inconclusive one makes the verdict
//! inconclusive, a shard that failed or reports of different searches an error.

use std::collections::BTreeMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};

use serde_json::{json, Map, Value};

use crate::args::{Format, MergeArgs};

/// One shard's report, as read.
struct ShardResult {
    path: PathBuf,
    index: u64,
    report: Value,
}

/// The split all shards must agree on: its size, the search, the cut.
#[derive(PartialEq, Eq, Debug)]
struct SplitIdentity {
    count: u64,
    run: String,
    depth: u64,
    parts: u64,
}

/// The merged verdict with what explains it.
struct Merged {
    verdict: &'static str,
    violations: Vec<Value>,
    reason: Option<String>,
    warnings: Vec<String>,
    stats: Map<String, Value>,
    count: u64,
    /// Each output element's value at the end of the runs of every shard (as
    /// `verify` reports it for a whole run); `None` when no shard completed a run.
    outputs: Option<Map<String, Value>>,
}

pub(crate) fn run_merge(args: &MergeArgs) -> i32 {
    let merged = read_all(&args.results).and_then(|shards| merge(&shards));
    let merged = match merged {
        Ok(merged) => merged,
        Err(message) => {
            eprintln!("error: tass merge: {message}");
            return 2;
        }
    };
    let code = match merged.verdict {
        "holds" => 0,
        "violated" => 1,
        "error" => 2,
        _ => 3,
    };
    let out = match args.format {
        Format::Json => {
            let mut document = json!({
                "verdict": merged.verdict,
                "violations": merged.violations,
            });
            if let Some(reason) = &merged.reason {
                let key = if code == 2 { "error" } else { "reason" };
                document[key] = reason.clone().into();
            }
            if !merged.warnings.is_empty() {
                document["warnings"] = merged.warnings.clone().into();
            }
            document["stats"] = Value::Object(merged.stats.clone());
            if let Some(outputs) = &merged.outputs {
                document["outputs"] = Value::Object(outputs.clone());
            }
            document["shards"] = merged.count.into();
            serde_json::to_string_pretty(&document).unwrap_or_default() + "\n"
        }
        _ => text(&merged),
    };
    let _ = std::io::stdout().write_all(out.as_bytes());
    code
}

fn text(merged: &Merged) -> String {
    let mut out = String::new();
    for w in &merged.warnings {
        out.push_str(&format!("warning: {w}\n"));
    }
    for v in &merged.violations {
        let field = |k: &str| v.get(k).map(display).unwrap_or_default();
        out.push_str(&format!(
            "violation ({}, {}) at {}:{}:{}: {} [shard {}; its report has the trace]\n",
            field("property"),
            field("certainty"),
            field("file"),
            field("line"),
            field("column"),
            field("message"),
            field("shard"),
        ));
    }
    if let Some(reason) = &merged.reason {
        out.push_str(&format!("reason: {reason}\n"));
    }
    let stat = |k: &str| merged.stats.get(k).map(display).unwrap_or_default();
    out.push_str(&format!(
        "stats: {} shards; summed over them: {} states seen, {} saved, {} transitions, \
         {} prover calls; time: largest shard {} s, all shards {} s\n",
        merged.count,
        stat("states_seen"),
        stat("states_saved"),
        stat("transitions"),
        stat("prover_calls"),
        stat("max_shard_time_s"),
        stat("time_s"),
    ));
    out.push_str(&format!("verdict: {}\n", merged.verdict));
    out
}

fn display(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn read_all(paths: &[PathBuf]) -> Result<Vec<ShardResult>, String> {
    paths.iter().map(|p| read_one(p)).collect()
}

fn read_one(path: &Path) -> Result<ShardResult, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    let report: Value = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{}:{}:{}: not a JSON report ({e}); give the output of \
             `tass verify --shard K/N --format json`",
            path.display(),
            e.line(),
            e.column()
        )
    })?;
    if report.get("verdict").and_then(Value::as_str).is_none() {
        return Err(format!("{}: no verdict: not a tass report", path.display()));
    }
    let index = report
        .pointer("/shard/index")
        .and_then(Value::as_u64)
        .ok_or_else(|| {
            format!(
                "{}: not the report of a shard (run tass with --shard K/N --format json)",
                path.display()
            )
        })?;
    Ok(ShardResult {
        path: path.to_path_buf(),
        index,
        report,
    })
}

fn identity(shard: &ShardResult) -> Result<SplitIdentity, String> {
    let number = |key: &str| {
        shard
            .report
            .pointer(&format!("/shard/{key}"))
            .and_then(Value::as_u64)
            .ok_or_else(|| format!("{}: its `shard` has no `{key}`", shard.path.display()))
    };
    Ok(SplitIdentity {
        count: number("count")?,
        run: shard
            .report
            .pointer("/shard/run")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        depth: number("depth")?,
        parts: number("parts")?,
    })
}

/// The cut a shard saw (items and digest): equal in shards that held.
fn cut_seen(shard: &ShardResult) -> (Option<u64>, Option<String>) {
    let r = &shard.report;
    (
        r.pointer("/shard/items").and_then(Value::as_u64),
        r.pointer("/shard/digest")
            .and_then(Value::as_str)
            .map(str::to_string),
    )
}

/// The outputs of the runs of all shards together: a value all shards that
/// completed a run agree on, else `(differs between runs)`, as for one run.
fn merged_outputs(by_index: &BTreeMap<u64, &ShardResult>) -> Option<Map<String, Value>> {
    let mut merged: Option<Map<String, Value>> = None;
    for shard in by_index.values() {
        let Some(values) = shard.report.get("outputs").and_then(Value::as_object) else {
            continue;
        };
        let seen = merged.get_or_insert_with(Map::new);
        for (name, value) in values {
            let entry = seen.entry(name.clone()).or_insert_with(|| value.clone());
            if entry != value {
                *entry = Value::String("(differs between runs)".into());
            }
        }
    }
    merged
}

fn merge(shards: &[ShardResult]) -> Result<Merged, String> {
    let first = shards.first().ok_or("no reports given")?;
    let split = identity(first)?;
    let mut by_index: BTreeMap<u64, &ShardResult> = BTreeMap::new();
    for shard in shards {
        let other = identity(shard)?;
        if other.count != split.count || other.run != split.run {
            return Err(format!(
                "{} and {} are not shards of one search (different N, program or \
                 options): give the N reports of one split",
                first.path.display(),
                shard.path.display()
            ));
        }
        if shard.index >= split.count {
            return Err(format!(
                "{}: shard {} of {}",
                shard.path.display(),
                shard.index,
                split.count
            ));
        }
        if let Some(earlier) = by_index.insert(shard.index, shard) {
            return Err(format!(
                "shard {} given twice ({} and {})",
                shard.index,
                earlier.path.display(),
                shard.path.display()
            ));
        }
    }
    let verdict_of = |s: &ShardResult| {
        s.report
            .get("verdict")
            .and_then(Value::as_str)
            .unwrap_or("error")
            .to_string()
    };
    let mut merged = Merged {
        verdict: "holds",
        violations: Vec::new(),
        reason: None,
        warnings: Vec::new(),
        stats: summed_stats(&by_index),
        count: split.count,
        outputs: merged_outputs(&by_index),
    };
    let mut keys = std::collections::HashSet::new();
    for (index, shard) in &by_index {
        for w in list(&shard.report, "warnings") {
            let w = display(w);
            if !merged.warnings.contains(&w) {
                merged.warnings.push(w);
            }
        }
        for v in list(&shard.report, "violations") {
            let key: Vec<String> = ["property", "file", "line", "column"]
                .iter()
                .map(|k| v.get(*k).map(display).unwrap_or_default())
                .collect();
            if keys.insert(key) {
                let mut v = v.clone();
                v["shard"] = (*index).into();
                merged.violations.push(v);
            }
        }
    }
    if !merged.violations.is_empty() {
        merged.verdict = "violated";
        return Ok(merged);
    }
    let failed: Vec<String> = by_index
        .values()
        .filter(|s| verdict_of(s) == "error")
        .map(|s| {
            let why = s.report.get("error").map(display).unwrap_or_default();
            format!("shard {} failed: {why}", s.index)
        })
        .collect();
    let open: Vec<String> = by_index
        .values()
        .filter(|s| verdict_of(s) != "holds" && verdict_of(s) != "error")
        .map(|s| {
            let why = s.report.get("reason").map(display).unwrap_or_default();
            format!("shard {} is inconclusive: {why}", s.index)
        })
        .collect();
    let missing: Vec<String> = (0..split.count)
        .filter(|k| !by_index.contains_key(k))
        .map(|k| k.to_string())
        .collect();
    let cuts: std::collections::BTreeSet<_> = by_index.values().map(|s| cut_seen(s)).collect();
    let same_split = by_index
        .values()
        .all(|s| identity(s).is_ok_and(|i| i == split));
    if !failed.is_empty() {
        merged.verdict = "error";
        merged.reason = Some(failed.join("; "));
    } else if !same_split || cuts.len() > 1 || cuts.iter().any(|(i, d)| i.is_none() || d.is_none())
    {
        merged.verdict = "error";
        merged.reason = Some(
            "the shards split the search differently (different cuts): was the \
             program or a tool changed between them? Run them again with one tass"
                .into(),
        );
    } else if !open.is_empty() || !missing.is_empty() {
        merged.verdict = "inconclusive";
        let mut reasons = open;
        if !missing.is_empty() {
            reasons.push(format!(
                "shards {} of {} are missing: give every shard's report",
                missing.join(", "),
                split.count
            ));
        }
        merged.reason = Some(reasons.join("; "));
    }
    Ok(merged)
}

/// The shards' counters summed (the prefix above the cut counts once per
/// shard), their time summed and the largest shard's time.
fn summed_stats(shards: &BTreeMap<u64, &ShardResult>) -> Map<String, Value> {
    let mut sums: Map<String, Value> = Map::new();
    let mut max_time = 0.0f64;
    let mut total_time = 0.0f64;
    let mut memory = 0.0f64;
    for shard in shards.values() {
        let Some(stats) = shard.report.get("stats").and_then(Value::as_object) else {
            continue;
        };
        for (key, value) in stats {
            match (key.as_str(), value.as_f64()) {
                ("time_s", Some(t)) => {
                    max_time = max_time.max(t);
                    total_time += t;
                }
                ("memory_mb", Some(m)) => memory = memory.max(m),
                (_, Some(_)) if value.is_u64() => {
                    let sum = sums.get(key).and_then(Value::as_u64).unwrap_or(0);
                    sums.insert(key.clone(), (sum + value.as_u64().unwrap_or(0)).into());
                }
                _ => {}
            }
        }
    }
    sums.insert(
        "time_s".into(),
        ((total_time * 1000.0).round() / 1000.0).into(),
    );
    sums.insert(
        "max_shard_time_s".into(),
        ((max_time * 1000.0).round() / 1000.0).into(),
    );
    sums.insert("max_memory_mb".into(), memory.into());
    sums
}

/// The elements of the JSON array `report[key]` (none when it is absent or
/// not an array), read the same way for every list a shard reports.
fn list<'r>(report: &'r Value, key: &str) -> impl Iterator<Item = &'r Value> {
    report
        .get(key)
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
}
