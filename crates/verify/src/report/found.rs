//! A violation found by a search, as reported: its certainty, its witness
//! completed with the fixed inputs, its snapshots renumbered along the trace.
//! Safety searches (`system.rs`), `compare`'s joint assertions and ltl lassos
//! report through these.

use tass_semantics::api::{Certainty as EngineCertainty, Violation};

use super::{Certainty, Property, TraceStep, ViolationReport, Witness};

fn certainty_of(c: EngineCertainty) -> Certainty {
    match c {
        EngineCertainty::Provable => Certainty::Provable,
        EngineCertainty::Possible => Certainty::Possible,
    }
}

/// The witness of a violation: the prover's values, inputs first in declaration
/// order, then other symbolic constants (e.g. `rand()` results), which explain the
/// path too. Inputs the prover gave no value for are listed separately: they did not
/// occur in its query, or are of a kind it cannot print (arrays); no value is made up.
pub(crate) fn complete_witness(
    given: Option<Vec<(String, String)>>,
    inputs: &[String],
    fixed: &[(String, String)],
    reason: impl FnOnce() -> String,
) -> (Witness, Vec<String>) {
    match given {
        None => (Witness::Unavailable(reason()), Vec::new()),
        Some(values) => {
            let mut out = Vec::new();
            let mut missing = Vec::new();
            for name in inputs {
                if let Some((_, v)) = fixed.iter().find(|(n, _)| n == name) {
                    out.push((name.clone(), v.clone()));
                    continue;
                }
                match values.iter().find(|(n, _)| n == name) {
                    Some((_, v)) => out.push((name.clone(), v.clone())),
                    // An array input with element values (`a[0]`) is not missing:
                    // its elements come with the other values below.
                    None if values.iter().any(|(n, _)| is_element_of(n, name)) => {}
                    None => missing.push(name.clone()),
                }
            }
            for (n, v) in values {
                if !inputs.contains(&n) {
                    out.push((n, v));
                }
            }
            (Witness::Values(out), missing)
        }
    }
}

/// The report of `violation`, found at the end of `trace` under path
/// condition `path_condition` (pretty-printed); `witness` completes the
/// prover's witness (see [`complete_witness`]). Safety searches and the joint
/// assertions of `compare` report through it.
pub(crate) fn violation_report(
    violation: Violation,
    property: Property,
    trace: Vec<TraceStep>,
    path_condition: String,
    witness: impl FnOnce(Option<Vec<(String, String)>>) -> (Witness, Vec<String>),
) -> ViolationReport {
    let span = &violation.span;
    let snapshots = super::snapshots_in_trace(violation.snapshots, &trace);
    let (witness, witness_missing) = witness(violation.witness);
    ViolationReport {
        property,
        certainty: certainty_of(violation.certainty),
        message: super::message_with_snapshots(violation.message, snapshots.as_ref()),
        file: span.file.to_string(),
        line: span.start_line,
        column: span.start_column,
        process: violation.process,
        trace,
        path_condition,
        claim: violation.claim,
        witness,
        witness_missing,
        difference: None,
        snapshots,
    }
}

/// True if `key` names an element of the array `array` (`a[0]`, `a[1][2]`).
fn is_element_of(key: &str, array: &str) -> bool {
    key.strip_prefix(array)
        .is_some_and(|rest| rest.starts_with('['))
}
