//! Helpers shared by the integration tests: finding solvers, writing fake solvers.
#![allow(dead_code)]

use std::path::PathBuf;
use std::time::Duration;

use tass_prove::api::{SmtSolver, SolverKind};

/// The time limit the tests give each query.
pub const LIMIT: Duration = Duration::from_secs(10);

/// True when `TASS_REQUIRE_SMT=1`: a missing z3 is then a failure, not a skip.
pub fn smt_required() -> bool {
    std::env::var("TASS_REQUIRE_SMT").is_ok_and(|v| v == "1")
}

/// A back end for `kind` if its program is installed. Otherwise prints why the test
/// is skipped and returns `None` (or fails, for z3 under `TASS_REQUIRE_SMT=1`).
pub fn solver(kind: SolverKind, test: &str) -> Option<SmtSolver> {
    match SmtSolver::new(kind, None, LIMIT) {
        Ok(s) => Some(s),
        Err(e) => {
            if kind == SolverKind::Z3 && smt_required() {
                panic!("TASS_REQUIRE_SMT=1 but z3 is unavailable: {e}");
            }
            eprintln!("skipped {test} for {kind}: {e}");
            None
        }
    }
}

/// Every installed solver (z3 required under `TASS_REQUIRE_SMT=1`).
pub fn all_solvers(test: &str) -> Vec<SmtSolver> {
    [SolverKind::Z3, SolverKind::Cvc5, SolverKind::Yices]
        .into_iter()
        .filter_map(|k| solver(k, test))
        .collect()
}

/// Writes an executable shell script `name` with `body` into a fresh temporary
/// directory and returns its path.
pub fn fake_solver(name: &str, body: &str) -> PathBuf {
    use std::os::unix::fs::PermissionsExt;
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("tass-prove-test-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("create temp dir");
    let path = dir.join(name);
    std::fs::write(&path, format!("#!/bin/sh\n{body}\n")).expect("write fake solver");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).expect("chmod");
    path
}
