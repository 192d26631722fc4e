//! Resource limits and start-up cost of the real `tass` binary: `--max-memory`
//! ends a run inconclusive (exit 3) with its statistics, and the SMT solvers
//! start only when a query reaches them.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

use common::{assert_holds, inline, report};
use serde_json::Value;

/// 3000 loop iterations (3001 states), then an assertion that holds.
/// Confirmed with `gcc -g -fsanitize=address,undefined`: exits 0.
const LOOP: &str = "#include <assert.h>
int main(void) {
  int s = 0;
  for (int i = 0; i < 3000; i++)
    s += i % 3;
  assert(s == 3000);
  return 0;
}
";

fn verify_json(file: &Path, extra: &[&str]) -> (i32, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .arg("verify")
        .args(extra)
        .arg(file)
        .args(["--format", "json", "--stats"])
        .output()
        .expect("run tass");
    report(out)
}

#[test]
fn memory_limit_below_the_process_size_ends_inconclusive_with_statistics() {
    let file = inline(LOOP);
    let (code, r) = verify_json(&file, &["--max-memory", "1"]);
    assert_eq!(r["verdict"], "inconclusive", "{r:#}");
    assert_eq!(code, 3);
    let reason = r["reason"].as_str().unwrap_or("");
    assert!(reason.contains("--max-memory 1"), "{reason}");
    assert!(reason.contains("memory limit"), "{reason}");
    // The statistics are the run's own: the process already used more than 1 MB.
    let memory = r["stats"]["memory_mb"].as_f64().expect("memory_mb");
    assert!(memory > 1.0, "{r:#}");
    assert!(r["stats"]["states_seen"].as_u64().expect("states_seen") < 3001);
}

#[test]
fn generous_memory_limit_changes_neither_verdict_nor_states() {
    let file = inline(LOOP);
    let (code, limited) = verify_json(&file, &["--max-memory", "100000"]);
    assert_holds(code, &limited);
    let (code, free) = verify_json(&file, &[]);
    assert_holds(code, &free);
    assert_eq!(
        limited["stats"]["states_seen"],
        free["stats"]["states_seen"]
    );
    assert_eq!(
        limited["stats"]["states_saved"],
        free["stats"]["states_saved"]
    );
}

#[test]
fn zero_memory_limit_is_refused_with_what_to_do() {
    let file = inline(LOOP);
    let (code, r) = verify_json(&file, &["--max-memory", "0"]);
    assert_eq!(r["verdict"], "error", "{r:#}");
    assert_eq!(code, 2);
    let message = r["error"].as_str().unwrap_or("");
    assert!(message.contains("--max-memory 0"), "{message}");
    assert!(
        message.contains("positive number of megabytes"),
        "{message}"
    );
}

#[test]
fn compare_with_a_tiny_memory_limit_is_inconclusive() {
    let spec = inline("#pragma TASS output\nint r;\nint main(void) { r = 2; return 0; }\n");
    let imp = inline("#pragma TASS output\nint r;\nint main(void) { r = 1 + 1; return 0; }\n");
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args([
            "compare",
            "--max-memory",
            "1",
            "--format",
            "json",
            "--stats",
        ])
        .arg(&spec)
        .arg(&imp)
        .output()
        .expect("run tass");
    let (code, r) = report(out);
    assert_eq!(r["verdict"], "inconclusive", "{r:#}");
    assert_eq!(code, 3);
    assert!(
        r["reason"]
            .as_str()
            .unwrap_or("")
            .contains("--max-memory 1"),
        "{r:#}"
    );
}

/// The real program `name` on `PATH`, if installed.
fn on_path(name: &str) -> Option<PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// A folder with wrappers named like the auto-chosen solvers (yices-smt2, z3,
/// and cvc5, which `auto` asks first about nonlinear queries): each appends its
/// name to `starts.log` in the folder, then runs the real one. `None` unless
/// yices-smt2 and z3 are installed.
fn logging_solvers() -> Option<PathBuf> {
    let dir = inline("").parent().expect("folder").join("bin");
    std::fs::create_dir_all(&dir).expect("create bin");
    on_path("yices-smt2")?;
    on_path("z3")?;
    for name in ["yices-smt2", "z3", "cvc5"] {
        let Some(real) = on_path(name) else {
            continue;
        };
        let script = dir.join(name);
        let log = dir.join("starts.log");
        std::fs::write(
            &script,
            format!(
                "#!/bin/sh\necho {name} >> '{}'\nexec '{}' \"$@\"\n",
                log.display(),
                real.display()
            ),
        )
        .expect("write wrapper");
        let status = Command::new("chmod")
            .arg("+x")
            .arg(&script)
            .status()
            .expect("chmod");
        assert!(status.success());
    }
    Some(dir)
}

fn verify_with_solvers_in(dir: &Path, text: &str) -> (i32, Value) {
    let mut path =
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()).collect::<Vec<_>>();
    path.insert(0, dir.to_path_buf());
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .env("PATH", std::env::join_paths(path).expect("PATH"))
        .arg("verify")
        .arg(inline(text))
        .args(["--format", "json", "--stats"])
        .output()
        .expect("run tass");
    report(out)
}

#[test]
fn smt_solvers_start_only_when_a_query_reaches_them() {
    let Some(dir) = logging_solvers() else {
        eprintln!("yices-smt2 or z3 is not installed: nothing to check");
        return;
    };
    let log = dir.join("starts.log");
    // Concrete: no prover query at all (gcc: exits 0).
    let (code, r) = verify_with_solvers_in(&dir, "int main(void) { int x = 1; return x - 1; }\n");
    assert_holds(code, &r);
    assert!(!log.exists(), "a solver started for a concrete program");
    // x*x == 2 has no solution (nor modulo 2^32: squares are 0, 1 or 4 mod 8);
    // gcc: x*x != 2 for every x in [-100000, 100000]. The query is nonlinear, so
    // it goes to an SMT solver.
    let (code, r) = verify_with_solvers_in(
        &dir,
        "#include <assert.h>\n#pragma TASS input int\nint x;\n\
         int main(void) { int y = x * x; assert(y != 2); return 0; }\n",
    );
    assert_holds(code, &r);
    assert!(
        r["stats"]["smt_calls"].as_u64().expect("smt_calls") >= 1,
        "{r:#}"
    );
    let starts = std::fs::read_to_string(&log).expect("a solver started");
    assert!(!starts.trim().is_empty(), "{starts}");
}
