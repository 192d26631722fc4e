//! `--jobs 2` gives what `--jobs 1` gives, read from the fevs manifest: every
//! entry whose program has an ltl formula, and the quick entries that choose
//! how states are matched or what the search reduces (`--match`,
//! `--symmetry`, `--worker-symmetry`, `--deadlock`). Verdict, exit status and
//! every violation (property, line) must agree, and equal the manifest's
//! expected verdict. Also the quick entries with collective loop invariants.
//!
//! Why: the split of a parallel search explores the prefix above its cut with
//! trial searches (`split::choose_cut`); those matched states syntactically
//! whatever `--match` said, and `ltl_mutex_counter.c` (whose counter is a new
//! expression every round unless rounds match by set equality) ran until
//! `--timeout` at `--jobs 2` while `--jobs 1` held in milliseconds.
//!
//! The expected verdicts are the manifest's (each confirmed there by a
//! concrete run, noted in the entry).

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

fn fevs() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../fevs")
}

/// One `[[run]]` entry of fevs/manifest.toml: its name, arguments and
/// expected verdict.
struct Entry {
    name: String,
    args: Vec<String>,
    expect: String,
    quick: bool,
}

/// The manifest's entries (the fields this test needs; `args` is a TOML array
/// of plain strings, which is also JSON).
fn manifest() -> Vec<Entry> {
    let text = std::fs::read_to_string(fevs().join("manifest.toml")).expect("read the manifest");
    let field = |block: &str, key: &str| -> Option<String> {
        block.lines().find_map(|line| {
            let rest = line.strip_prefix(key)?.trim_start().strip_prefix('=')?;
            Some(rest.trim().to_string())
        })
    };
    text.split("[[run]]")
        .skip(1)
        .filter_map(|block| {
            let unquote = |s: String| s.trim_matches('"').to_string();
            let args: Vec<String> = serde_json::from_str(&field(block, "args")?).ok()?;
            Some(Entry {
                name: unquote(field(block, "name")?),
                args,
                expect: unquote(field(block, "expect")?),
                quick: field(block, "quick").as_deref() == Some("true"),
            })
        })
        .collect()
}

/// Whether the entry's program (its last `.c` argument) contains `pragma`.
fn program_has(entry: &Entry, pragma: &str) -> bool {
    entry
        .args
        .iter()
        .rev()
        .find(|a| a.ends_with(".c"))
        .and_then(|file| std::fs::read_to_string(fevs().join(file)).ok())
        .is_some_and(|text| text.contains(pragma))
}

/// Whether the entry's program has an ltl formula.
fn has_ltl(entry: &Entry) -> bool {
    program_has(entry, "#pragma TASS ltl")
}

/// The outcome of one run; a run that diverges ends inconclusive instead of
/// hanging the test.
fn outcome(args: &[String], jobs: &str) -> common::Outcome {
    let bounded: Vec<&str> = args
        .iter()
        .map(String::as_str)
        .chain(["--timeout", "120"])
        .collect();
    common::tass_json(&bounded, jobs)
}

/// Runs `entries` at `--jobs 1` and `--jobs 2`; both must give the
/// manifest's verdict and the same violations.
fn agree(entries: &[&Entry]) {
    assert!(!entries.is_empty(), "no manifest entries selected");
    for entry in entries {
        let one = outcome(&entry.args, "1");
        assert_eq!(one.0, entry.expect, "{} --jobs 1: {one:?}", entry.name);
        let two = outcome(&entry.args, "2");
        assert_eq!(two, one, "{}: --jobs 2 against --jobs 1", entry.name);
    }
}

/// Every fevs ltl program (as the manifest runs it, `--match set` where it
/// says so).
#[test]
fn ltl_programs_agree_at_two_jobs() {
    let entries = manifest();
    let ltl: Vec<&Entry> = entries.iter().filter(|e| has_ltl(e)).collect();
    assert!(
        ltl.iter()
            .any(|e| e.args.iter().any(|a| a == "set") && e.expect == "holds"),
        "the manifest's --match set ltl entries are among those checked"
    );
    agree(&ltl);
}

/// The quick entries with an option that changes how states are matched or
/// reduced, or which deadlocks count.
#[test]
fn matching_and_reduction_options_agree_at_two_jobs() {
    const OPTIONS: [&str; 4] = ["--match", "--symmetry", "--worker-symmetry", "--deadlock"];
    let entries = manifest();
    let chosen: Vec<&Entry> = entries
        .iter()
        .filter(|e| e.quick && !has_ltl(e))
        .filter(|e| e.args.iter().any(|a| OPTIONS.contains(&a.as_str())))
        .collect();
    agree(&chosen);
}

/// The quick verify entries with collective loop invariants: at `--jobs 2`
/// the second run with lagged loop records runs after the parallel aligned
/// search (`verify/src/real/lagged.rs`); before, `lise_stagger.c` was refused
/// at `--jobs 2` (exit 2) and held at `--jobs 1`.
#[test]
fn collective_invariants_agree_at_two_jobs() {
    let entries = manifest();
    let chosen: Vec<&Entry> = entries
        .iter()
        .filter(|e| e.quick && e.args.first().is_some_and(|c| c == "verify"))
        .filter(|e| program_has(e, "#pragma TASS collective invariant"))
        .collect();
    assert!(
        chosen.iter().any(|e| e.name == "lise-stagger"),
        "lise-stagger is checked"
    );
    agree(&chosen);
}

/// The quick comparisons with joint assertions: at `--jobs 2` they are
/// searched on one thread (each part of a parallel comparison searched the
/// whole specification again: 6x one thread's CPU time on diffusion1d with 4
/// processes), and say so.
#[test]
fn joint_assertion_comparisons_agree_at_two_jobs() {
    let entries = manifest();
    let chosen: Vec<&Entry> = entries
        .iter()
        .filter(|e| e.quick && e.args.first().is_some_and(|c| c == "compare"))
        .filter(|e| program_has(e, "#pragma TASS joint assert"))
        .collect();
    assert!(
        chosen.iter().any(|e| e.name == "diffusion-joint"),
        "diffusion-joint is checked"
    );
    agree(&chosen);
    let joint = chosen
        .iter()
        .find(|e| e.name == "diffusion-joint")
        .expect("diffusion-joint");
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .current_dir(fevs())
        .args(&joint.args)
        .args(["--jobs", "2"])
        .output()
        .expect("run tass");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        format!("{stdout}{stderr}").contains("searched on one thread (joint assertions"),
        "the warning says why: {stdout}{stderr}"
    );
}
