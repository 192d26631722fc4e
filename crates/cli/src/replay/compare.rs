//! Replaying a `not-equivalent` comparison: both programs built with the witness's
//! inputs and their outputs printed (`TASS-OUTPUT name = value`), each run once, and
//! the outputs compared. Reproduced only when a printed output differs.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{json, Value};

use super::concrete::{self, Buffering, Launch};
use super::harness::OUTPUT_MARK;
use super::judge::Outcome;
use super::{build, Invocation, Purpose, ReplaySettings, Target};

/// The outputs a run printed, by name (`a[2]` for array elements).
fn printed_outputs(output: &str) -> BTreeMap<String, String> {
    output
        .lines()
        .filter_map(|l| l.trim().strip_prefix(OUTPUT_MARK))
        .filter_map(|l| l.split_once(" = "))
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

/// Builds and runs one side; its printed outputs, or why there are none.
fn run_side(
    target: &Target,
    role: &str,
    values: &BTreeMap<String, String>,
    invocation: &Invocation,
    settings: &ReplaySettings,
    dir: &Path,
) -> Result<BTreeMap<String, String>, Outcome> {
    let sub = dir.join(role);
    let built = build(target, values, invocation, &sub)?;
    for line in &built.notes {
        settings.say(&format!("replay: note: {role}: {line}"));
    }
    settings.say(&format!(
        "replay: {role} built with: {}",
        built.compile_line
    ));
    let launch = match built.launch {
        Launch::Mpi { procs, .. } => Launch::Mpi {
            procs,
            buffering: Buffering::LibraryDefault,
        },
        sequential => sequential,
    };
    let run = concrete::run(launch, &sub, settings.limit, &[]);
    settings.say(&format!("replay: {role} run: {}", run.command));
    if run.timed_out {
        return Err(Outcome::NotReproduced(format!(
            "the {role} run hung (no end within {} s)",
            settings.limit.as_secs()
        )));
    }
    if run.exit != Some(0) {
        let first = run
            .output
            .lines()
            .find(|l| !l.starts_with(OUTPUT_MARK))
            .unwrap_or("");
        return Err(Outcome::NotReproduced(format!(
            "the {role} run failed (exit status {:?}): {first}",
            run.exit
        )));
    }
    Ok(printed_outputs(&run.output))
}

/// Runs the specification and the implementation on the witness and compares outputs.
pub(super) fn replay_comparison(
    trace: &Value,
    invocation: &Invocation,
    values: &BTreeMap<String, String>,
    settings: &ReplaySettings,
    dir: &Path,
) -> Outcome {
    settings.say(&format!("replay: harnesses in {}", dir.display()));
    let spec_trace = json!({ "trace": trace["spec_trace"].clone() });
    let mut sides = Vec::new();
    for (role, files, procs) in &invocation.programs {
        let target = Target {
            trace: if role == "spec" { &spec_trace } else { trace },
            files,
            procs: *procs,
            purpose: Purpose::Outputs,
        };
        match run_side(&target, role, values, invocation, settings, dir) {
            Ok(outputs) => sides.push(outputs),
            Err(outcome) => return outcome,
        }
    }
    let [spec, imp] = sides.as_slice() else {
        return Outcome::Unreplayable("a comparison needs two programs".into());
    };
    let mut differences = Vec::new();
    for key in spec
        .keys()
        .chain(imp.keys().filter(|k| !spec.contains_key(*k)))
    {
        let (s, i) = (spec.get(key), imp.get(key));
        if s != i {
            let show = |v: Option<&String>| v.cloned().unwrap_or_else(|| "(not printed)".into());
            differences.push(format!("{key}: spec {}, impl {}", show(s), show(i)));
        }
    }
    for d in &differences {
        settings.say(&format!("replay: differing output {d}"));
    }
    if differences.is_empty() {
        let same: Vec<String> = spec.iter().map(|(k, v)| format!("{k} = {v}")).collect();
        Outcome::NotReproduced(format!(
            "both programs printed the same outputs: {}",
            if same.is_empty() {
                "(none)".to_string()
            } else {
                same.join(", ")
            }
        ))
    } else {
        Outcome::Reproduced(format!("the outputs differ: {}", differences.join("; ")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_lines_are_read_by_name() {
        let out = "noise\nTASS-OUTPUT s = 6\nTASS-OUTPUT a[1] = 0.5\n";
        let m = printed_outputs(out);
        assert_eq!(m["s"], "6");
        assert_eq!(m["a[1]"], "0.5");
        assert_eq!(m.len(), 2);
    }
}
