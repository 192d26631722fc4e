//! `cargo xtask bench`: runs the criterion benchmarks of the crates that have them.
//!
//! Figures are printed by criterion; record them, with this command, in
//! `docs/PERFORMANCE.md`. Extra arguments are passed to criterion (e.g. `--quick`, or a
//! filter such as `intern`).

use std::process::Command;

/// Crates with a `benches/` folder, in bottom-up order.
const BENCHED_CRATES: &[&str] = &["tass-symbolic", "tass-simplify", "tass-prove", "tass-front"];

pub fn run(criterion_args: &[String]) -> i32 {
    let root = crate::deps::repo_root();
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let mut failed = Vec::new();
    for krate in BENCHED_CRATES {
        let dir = root
            .join("crates")
            .join(krate.trim_start_matches("tass-"))
            .join("benches");
        if !dir.is_dir() {
            println!("bench: {krate} has no benches/ folder yet; skipped");
            continue;
        }
        println!("== cargo bench -p {krate}");
        let status = Command::new(&cargo)
            .args(["bench", "-p", krate, "--"])
            .args(criterion_args)
            .current_dir(&root)
            .status();
        match status {
            Ok(status) if status.success() => {}
            Ok(status) => failed.push(format!("{krate} ({status})")),
            Err(e) => failed.push(format!("{krate} (cannot run cargo: {e})")),
        }
    }
    if failed.is_empty() {
        0
    } else {
        eprintln!("bench: failed: {}", failed.join(", "));
        1
    }
}
