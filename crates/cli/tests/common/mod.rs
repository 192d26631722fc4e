//! Helpers shared by the MPI end-to-end tests (`mpi.rs`, `mpi_collectives.rs`,
//! `mpi_nonblocking_collectives.rs`, `por.rs`, `por_nonblocking.rs`,
//! `por_synchronous.rs`, `por_outputs.rs`): write an inline program, run `tass`
//! and read its JSON report, run it with the reduction on and off, check
//! verdicts, and build MPI programs around a body.
#![allow(dead_code)] // each test file uses its own subset

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU32, Ordering};

use serde_json::Value;

/// Runs `tass verify -n PROCS ARGS FILE --format json`: (exit status, report).
pub fn verify(procs: &str, extra: &[&str], text: &str) -> (i32, Value) {
    let file = inline(text);
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "-n", procs])
        .args(extra)
        .arg(&file)
        .args(["--format", "json"])
        .output()
        .expect("run tass");
    report(out)
}

/// Runs `tass verify -n PROCS EXTRA FILE --format json --stats` with the
/// partial-order reduction on (`reduced`) or off (`--por off`).
pub fn verify_reduced(procs: &str, extra: &[&str], file: &PathBuf, reduced: bool) -> (i32, Value) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_tass"));
    cmd.args(["verify", "-n", procs, "--format", "json", "--stats"])
        .args(extra)
        // Reduced: the default (`--por urgent` given explicitly is refused
        // with an ltl formula that uses `X`).
        .args(if reduced {
            &[][..]
        } else {
            &["--por", "off"][..]
        })
        .arg(file);
    report(cmd.output().expect("run tass"))
}

/// Runs `text` reduced and unreduced, asserts both end with `verdict` and (when
/// violated) that the first violation's property is one of `properties`
/// (separated by `|`: the two searches may meet different violations first);
/// returns the states seen by the reduced and the full search.
pub fn reduced_and_full(
    procs: &str,
    extra: &[&str],
    text: &str,
    verdict: &str,
    properties: &str,
) -> (u64, u64) {
    let file = inline(text);
    let mut seen = Vec::new();
    for reduced in [true, false] {
        let (code, r) = verify_reduced(procs, extra, &file, reduced);
        assert_eq!(r["verdict"], verdict, "reduced: {reduced}\n{r:#}");
        if verdict == "holds" {
            assert_eq!(code, 0, "{r:#}");
        } else {
            assert_eq!(code, 1, "{r:#}");
            let property = r["violations"][0]["property"].as_str().unwrap_or("");
            assert!(properties.split('|').any(|p| p == property), "{r:#}");
        }
        seen.push(r["stats"]["states_seen"].as_u64().expect("stats"));
    }
    (seen[0], seen[1])
}

/// Program `text` asserts `strict` where only `either` is guaranteed (an
/// order MPI allows that the program's synchronisation does not force):
/// reduced and full, `text` is violated (`assertion`, at line `line` for the
/// reduced search, whose first path is fixed) and its twin with `strict`
/// replaced by `either` holds.
pub fn violated_but_either_holds(
    procs: &str,
    text: &str,
    (strict, either): (&str, &str),
    line: u64,
) {
    assert!(text.contains(strict), "{strict}");
    let twin = inline(&text.replace(strict, either));
    let file = inline(text);
    for reduced in [true, false] {
        let (code, r) = verify_reduced(procs, &[], &file, reduced);
        assert_violated(code, &r, "assertion", reduced.then_some(line));
        let (code, r) = verify_reduced(procs, &[], &twin, reduced);
        assert_holds(code, &r);
    }
}

/// The exit status and the JSON report of a finished `tass ... --format json`.
pub fn report(out: Output) -> (i32, Value) {
    let stdout = String::from_utf8_lossy(&out.stdout);
    let json = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "stdout is not JSON ({e}):\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap_or(-1), json)
}

/// What a run of a fevs program says, for tests that compare two runs of it
/// (`--jobs 1` against `--jobs 2`, a whole run against its shards): the
/// verdict, the exit status and every violation (property, line), sorted.
pub type Outcome = (String, i32, Vec<(String, u64)>);

/// Runs `tass ARGS --format json --max-violations 0 --jobs JOBS` in `fevs/`
/// and reads its [`Outcome`].
pub fn tass_json<S: AsRef<std::ffi::OsStr>>(args: &[S], jobs: &str) -> Outcome {
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .current_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fevs"))
        .args(args)
        .args(["--format", "json", "--max-violations", "0", "--jobs", jobs])
        .output()
        .expect("run tass");
    let (code, report) = report(out);
    let mut violations: Vec<(String, u64)> = report["violations"]
        .as_array()
        .map(|vs| {
            vs.iter()
                .map(|v| {
                    (
                        v["property"].as_str().unwrap_or("").to_string(),
                        v["line"].as_u64().unwrap_or(0),
                    )
                })
                .collect()
        })
        .unwrap_or_default();
    violations.sort();
    let verdict = report["verdict"].as_str().unwrap_or("").to_string();
    (verdict, code, violations)
}

/// A C file with `text` in a fresh folder.
pub fn inline(text: &str) -> PathBuf {
    static COUNTER: AtomicU32 = AtomicU32::new(0);
    let dir = std::env::temp_dir().join(format!(
        "tass-mpi-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::SeqCst)
    ));
    std::fs::create_dir_all(&dir).expect("create scratch folder");
    let path = dir.join("prog.c");
    std::fs::write(&path, text).expect("write program");
    path
}

/// The fevs program `fevs/mpi/NAME` (the tests that run a fevs program as it
/// is read it there rather than keep a copy).
pub fn fevs_mpi(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fevs/mpi")
        .join(name)
}

/// A clear refusal of a one-process program: exit 2, `named` in the message, at
/// `prog.c:LINE:`.
pub fn assert_refused(text: &str, named: &str, line: u64) {
    let (code, r) = verify("1", &[], text);
    assert_eq!(r["verdict"], "error", "{r:#}");
    assert_eq!(code, 2);
    let message = r["error"].as_str().unwrap_or("");
    assert!(message.contains(named), "{message}");
    assert!(message.contains(&format!("prog.c:{line}:")), "{message}");
}

pub fn assert_holds(code: i32, report: &Value) {
    assert_eq!(report["verdict"], "holds", "{report:#}");
    assert_eq!(code, 0);
}

pub fn assert_violated(code: i32, report: &Value, property: &str, line: Option<u64>) {
    assert_eq!(report["verdict"], "violated", "{report:#}");
    assert_eq!(code, 1);
    let v = &report["violations"][0];
    assert_eq!(v["property"], property, "{report:#}");
    if let Some(line) = line {
        assert_eq!(v["line"], line, "{report:#}");
    }
}

/// `main` of an MPI program: `rank`, `size` set, then `body`.
pub fn program(decls: &str, body: &str) -> String {
    format!(
        "#include <mpi.h>\n#include <assert.h>\n{decls}\nint main(int argc, char *argv[]) {{\n    \
         int rank, size;\n    MPI_Init(&argc, &argv);\n    \
         MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n    MPI_Comm_size(MPI_COMM_WORLD, &size);\n\
         {body}\n    MPI_Finalize();\n    return 0;\n}}\n"
    )
}

// Line numbers in the programs: `program` puts `body`'s first line on line 9.
pub const BODY: u64 = 9;

/// Compiles `text` with gcc (`-g -fsanitize=address,undefined -w`, fevs's
/// include folder, `-lm`, plus `flags`) in a fresh folder, asserts that it
/// builds, and runs it: the run's output (status, stdout, stderr). For
/// confirming a verdict by a real run.
pub fn gcc_run(text: &str, flags: &[&str]) -> Output {
    let dir = inline("").parent().expect("a folder").to_path_buf();
    let file = dir.join("concrete.c");
    std::fs::write(&file, text).expect("write");
    let include = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fevs/include");
    let binary = dir.join("concrete");
    let built = Command::new("gcc")
        .args(["-g", "-fsanitize=address,undefined", "-w", "-I", include])
        .args(flags)
        .arg(&file)
        .arg("-o")
        .arg(&binary)
        .arg("-lm")
        .output()
        .expect("run gcc");
    assert!(
        built.status.success(),
        "{}",
        String::from_utf8_lossy(&built.stderr)
    );
    Command::new(&binary).output().expect("run the program")
}
