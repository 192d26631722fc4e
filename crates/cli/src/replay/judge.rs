//! Reading a concrete run against the violation: "reproduced" only when the run shows
//! the property's own symptom (at the violation's line where the symptom names one).

use std::time::Duration;

use serde_json::Value;

use super::concrete::ConcreteRun;
use super::harness::ASSUME_FAILED_EXIT;

/// What the replay concluded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// The concrete run showed the violation: how.
    Reproduced(String),
    /// The run did not show it: what it did instead.
    NotReproduced(String),
    /// No concrete run could be made: why.
    Unreplayable(String),
}

impl Outcome {
    pub fn text(&self) -> String {
        match self {
            Outcome::Reproduced(how) => format!("replay: reproduced: {how}"),
            Outcome::NotReproduced(what) => format!(
                "replay: possible violation: the concrete run did not reproduce it ({what})"
            ),
            Outcome::Unreplayable(why) => format!("replay: cannot replay: {why}"),
        }
    }

    /// 1: the violation is real; 3: not shown (inconclusive), as `verify`'s statuses.
    pub fn exit_code(&self) -> i32 {
        match self {
            Outcome::Reproduced(_) => 1,
            Outcome::NotReproduced(_) | Outcome::Unreplayable(_) => 3,
        }
    }
}

/// The symptom the violation's property has in a concrete run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Symptom {
    AssertionFails,
    /// AddressSanitizer or UBSan reports an error at the line.
    SanitizerError,
    LeakReport,
    Hang,
    /// The MPI library reports an error (or the run aborts in MPI).
    MpiError,
    /// No concrete symptom tass knows of (unreceived messages, resource leaks, ...).
    None,
}

/// The violation a replay looks for.
pub(crate) struct Expected {
    property: String,
    file_name: String,
    line: u64,
    symptom: Symptom,
}

impl Expected {
    pub fn from_trace(trace: &Value) -> Expected {
        let property = trace["property"].as_str().unwrap_or("").to_string();
        let file = trace["file"].as_str().unwrap_or("");
        let file_name = std::path::Path::new(file)
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let symptom = match property.as_str() {
            "assertion" => Symptom::AssertionFails,
            "out-of-bounds" | "invalid-pointer" | "division-by-zero" | "signed-overflow"
            | "buffer-overflow" => Symptom::SanitizerError,
            "memory-leak" => Symptom::LeakReport,
            "deadlock" => Symptom::Hang,
            "mpi-count" | "mpi-rank" | "mpi-type" | "mpi-init-finalize" | "collective-mismatch" => {
                Symptom::MpiError
            }
            _ => Symptom::None,
        };
        Expected {
            property,
            file_name,
            line: trace["line"].as_u64().unwrap_or(0),
            symptom,
        }
    }

    /// Why a violation of this property cannot be replayed at all (before
    /// anything is built): it has no symptom a finite concrete run shows.
    pub fn cannot_replay(&self) -> Option<String> {
        if self.symptom != Symptom::None {
            return None;
        }
        // (`ltl` lassos are replayed by `lasso.rs`, before this is asked.)
        Some(format!(
            "{} has no symptom a concrete run shows",
            self.property
        ))
    }

    fn place(&self) -> String {
        format!("{}:{}", self.file_name, self.line)
    }
}

/// The first `NAME:LINE` of `file_name` in `text`.
fn first_line_of(text: &str, file_name: &str) -> Option<u64> {
    let needle = format!("{file_name}:");
    let mut rest = text;
    while let Some(at) = rest.find(&needle) {
        let after = &rest[at + needle.len()..];
        let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
        if let Ok(n) = digits.parse() {
            return Some(n);
        }
        rest = after;
    }
    None
}

/// The text from the first line containing `marker` on.
fn from_marker<'a>(output: &'a str, marker: &str) -> Option<&'a str> {
    output.find(marker).map(|at| {
        let start = output[..at].rfind('\n').map_or(0, |n| n + 1);
        &output[start..]
    })
}

fn first_line(text: &str) -> String {
    text.lines()
        .next()
        .unwrap_or("")
        .trim()
        .chars()
        .take(200)
        .collect()
}

/// What a failed run showed: a one-line description and, if it names one, the line.
fn failure(output: &str, file_name: &str) -> Option<(Symptom, String, Option<u64>)> {
    let markers = [
        ("Assertion `", Symptom::AssertionFails),
        ("ERROR: LeakSanitizer", Symptom::LeakReport),
        ("ERROR: AddressSanitizer", Symptom::SanitizerError),
        ("runtime error:", Symptom::SanitizerError),
        ("MPI_ERR", Symptom::MpiError),
        ("MPI_ABORT", Symptom::MpiError),
    ];
    markers.iter().find_map(|(marker, symptom)| {
        from_marker(output, marker).map(|text| {
            let line = match symptom {
                Symptom::AssertionFails => first_line_of(&first_line(text), file_name),
                _ => first_line_of(text, file_name),
            };
            (*symptom, first_line(text), line)
        })
    })
}

/// Compares the run with the violation.
pub(crate) fn judge(expected: &Expected, run: &ConcreteRun, limit: Duration) -> Outcome {
    if expected.symptom == Symptom::None {
        return Outcome::Unreplayable(format!(
            "{} has no symptom a concrete run shows",
            expected.property
        ));
    }
    if run.timed_out {
        let hung = format!("the run hung: no end within {} s, stopped", limit.as_secs());
        // A collective called differently by the ranks may hang instead of failing.
        let hang_expected =
            expected.symptom == Symptom::Hang || expected.property == "collective-mismatch";
        return if hang_expected {
            Outcome::Reproduced(format!(
                "{hung} ({} at {})",
                expected.property,
                expected.place()
            ))
        } else {
            Outcome::NotReproduced(hung)
        };
    }
    let exit = run.exit;
    if exit == Some(ASSUME_FAILED_EXIT) {
        return Outcome::NotReproduced(
            "the witness does not satisfy the program's assumption".into(),
        );
    }
    if exit == Some(0) {
        return Outcome::NotReproduced("the program ran to completion, exit status 0".into());
    }
    let status = exit.map_or_else(
        || "killed by a signal".into(),
        |c| format!("exit status {c}"),
    );
    let Some((symptom, text, line)) = failure(&run.output, &expected.file_name) else {
        let how =
            format!("the run failed with {status} and no assertion, sanitizer or MPI message");
        // Without the MPI library's message nothing shows it was the property.
        return Outcome::NotReproduced(how);
    };
    // MPI reports a receive buffer too small for the message as a truncation.
    let truncated = expected.property == "buffer-overflow"
        && symptom == Symptom::MpiError
        && text.contains("MPI_ERR_TRUNCATE");
    let same_kind = symptom == expected.symptom
        || truncated
        || (expected.symptom == Symptom::MpiError && symptom == Symptom::SanitizerError);
    let line_matters = matches!(symptom, Symptom::AssertionFails | Symptom::SanitizerError);
    let same_line = !line_matters || line == Some(expected.line);
    if same_kind && same_line {
        let at = match line {
            Some(l) if line_matters => format!(" at {}:{l}", expected.file_name),
            _ => String::new(),
        };
        return Outcome::Reproduced(format!("{text}{at} ({status})"));
    }
    let at = line.map_or_else(String::new, |l| format!(" at line {l}"));
    Outcome::NotReproduced(format!(
        "it failed differently{at}: {text}; tass reported {} at {}",
        expected.property,
        expected.place()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(exit: i32, output: &str) -> ConcreteRun {
        ConcreteRun {
            command: String::new(),
            exit: Some(exit),
            timed_out: false,
            output: output.into(),
        }
    }

    fn expected(property: &str, line: u64) -> Expected {
        Expected::from_trace(&serde_json::json!({
            "property": property, "file": "/x/p.c", "line": line
        }))
    }

    #[test]
    fn the_same_assertion_line_is_reproduced_another_is_not() {
        let out = "harness: /x/p.c:12: main: Assertion `x < 3' failed.\n";
        let r = judge(
            &expected("assertion", 12),
            &run(134, out),
            Duration::from_secs(5),
        );
        assert!(matches!(r, Outcome::Reproduced(_)), "{r:?}");
        let r = judge(
            &expected("assertion", 13),
            &run(134, out),
            Duration::from_secs(5),
        );
        assert!(matches!(r, Outcome::NotReproduced(_)), "{r:?}");
    }

    #[test]
    fn a_clean_run_and_a_hang_are_said_plainly() {
        let r = judge(
            &expected("assertion", 3),
            &run(0, ""),
            Duration::from_secs(5),
        );
        assert!(r
            .text()
            .contains("possible violation: the concrete run did not reproduce it"));
        let hang = ConcreteRun {
            command: String::new(),
            exit: Some(124),
            timed_out: true,
            output: String::new(),
        };
        let r = judge(&expected("deadlock", 3), &hang, Duration::from_secs(5));
        assert!(
            r.text().contains("reproduced: the run hung"),
            "{}",
            r.text()
        );
    }
}
