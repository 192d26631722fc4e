//! The concrete oracle: compiling a program with gcc (sanitizers) or mpicc, and running
//! it over given input values, under `mpirun` in the default and the zero-buffer
//! configuration, with random per-rank delays.

use crate::fevs::run_with_limit;
use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

/// Gives the generated programs their input values and delays in a concrete build
/// (`-include dt_prelude.h`); tass never sees it.
pub const PRELUDE_SEQ: &str = r#"/* difftest's concrete prelude: inputs come from DT_<name> environment variables. */
#include <stdio.h>
#include <stdlib.h>
static int dt_input(const char *name) {
    char key[64];
    snprintf(key, sizeof key, "DT_%s", name);
    const char *value = getenv(key);
    if (!value) {
        fprintf(stderr, "difftest: input %s is not set (set %s)\n", name, key);
        exit(99);
    }
    return atoi(value);
}
#define DT_INPUT(n) dt_input(#n)
"#;

pub const PRELUDE_MPI_DELAY: &str = r#"/* With DT_SEED set and nonzero, DT_DELAY(k) sleeps 0-9 ms, by seed, rank and point. */
#include <mpi.h>
#include <unistd.h>
static void dt_delay(int k) {
    const char *seed = getenv("DT_SEED");
    if (!seed || atoi(seed) == 0) return;
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    unsigned h = (unsigned)atoi(seed) * 2654435761u ^ (unsigned)(rank * 97 + k) * 40503u;
    h ^= h >> 13; h *= 0x5bd1e995u; h ^= h >> 15;
    usleep((h % 4) * 3000);
}
#define DT_DELAY(k) dt_delay(k)
"#;

/// The two buffering configurations of the concrete MPI runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum MpiConfig {
    /// OpenMPI's defaults: small messages are buffered (eager).
    Default,
    /// TCP with eager limits below any message: a standard send waits for its receive.
    ZeroBuffer,
}

impl MpiConfig {
    pub fn name(self) -> &'static str {
        match self {
            MpiConfig::Default => "default",
            MpiConfig::ZeroBuffer => "zero-buffer",
        }
    }

    fn mca(self) -> &'static [&'static str] {
        match self {
            MpiConfig::Default => &[],
            MpiConfig::ZeroBuffer => &[
                "--mca",
                "btl",
                "self,tcp",
                "--mca",
                "btl_tcp_eager_limit",
                "56",
                "--mca",
                "btl_tcp_rndv_eager_limit",
                "56",
                // Open MPI's default one-sided component needs a shared-memory
                // transport; over tcp alone osc ucx (or else pt2pt) makes windows.
                "--mca",
                "osc",
                "ucx,pt2pt",
            ],
        }
    }
}

/// What one concrete run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Behaviour {
    Ok,
    /// Assertion, sanitizer report, MPI error, nonzero exit: the first telling line.
    Failed(String),
    /// No end within the time limit: a deadlock.
    Hang,
    /// The harness could not run it (exit 99: an input was not given).
    HarnessError(String),
}

impl Behaviour {
    pub fn is_failure(&self) -> bool {
        matches!(self, Behaviour::Failed(_) | Behaviour::Hang)
    }

    pub fn describe(&self) -> String {
        match self {
            Behaviour::Ok => "ok".into(),
            Behaviour::Failed(why) => format!("fails: {why}"),
            Behaviour::Hang => "hangs (deadlock)".into(),
            Behaviour::HarnessError(why) => format!("harness error: {why}"),
        }
    }
}

/// One concrete run: its command line (for a reproducer), its behaviour, its output.
#[derive(Debug, Clone)]
pub struct ConcreteRun {
    pub command: String,
    pub behaviour: Behaviour,
    pub output: String,
}

pub const GCC_FLAGS: &[&str] = &[
    "-std=gnu99",
    "-g",
    "-O0",
    "-fsanitize=address,undefined",
    "-fno-sanitize-recover=all",
    "-Wno-unknown-pragmas",
];

pub const MPICC_FLAGS: &[&str] = &["-std=gnu99", "-g", "-O0", "-Wno-unknown-pragmas"];

/// Compiles `src` (in `dir`) to `dir/prog`; returns the command line.
pub fn compile(
    compiler: &str,
    flags: &[&str],
    extra: &[String],
    dir: &Path,
    src: &str,
) -> Result<String, String> {
    let mut cmd = Command::new(compiler);
    cmd.args(flags)
        .args(extra)
        .args(["-o", "prog", src, "-lm"])
        .current_dir(dir);
    let line = format!(
        "{compiler} {} {} -o prog {src} -lm",
        flags.join(" "),
        extra.join(" ")
    );
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {compiler}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{line} failed:\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(line)
}

/// The line of a failed run's output that says what went wrong.
fn telling_line(text: &str) -> Option<String> {
    const MARKS: &[&str] = &[
        "Assertion",
        "AddressSanitizer",
        "LeakSanitizer",
        "runtime error",
        "MPI_ERR",
        "signal",
        "error",
    ];
    MARKS.iter().find_map(|m| {
        text.lines()
            .find(|l| l.contains(m))
            .map(|l| l.trim().chars().take(200).collect())
    })
}

fn judge_exit(exit: Option<i32>, timed_out: bool, output: &str) -> Behaviour {
    if timed_out || exit == Some(124) || exit == Some(137) {
        return Behaviour::Hang;
    }
    match exit {
        Some(0) => Behaviour::Ok,
        Some(99) => Behaviour::HarnessError(telling_line(output).unwrap_or_default()),
        other => {
            let code = other.map_or_else(|| "killed by a signal".into(), |c| format!("exit {c}"));
            Behaviour::Failed(match telling_line(output) {
                Some(l) => format!("{l} ({code})"),
                None => code,
            })
        }
    }
}

fn env_text(inputs: &BTreeMap<String, i64>) -> String {
    inputs
        .iter()
        .map(|(k, v)| format!("DT_{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Runs `dir/prog` sequentially with the given input values.
pub fn run_seq(dir: &Path, inputs: &BTreeMap<String, i64>, limit: Duration) -> ConcreteRun {
    let mut cmd = Command::new(dir.join("prog"));
    cmd.current_dir(dir).env("ASAN_OPTIONS", "detect_leaks=1");
    for (k, v) in inputs {
        cmd.env(format!("DT_{k}"), v.to_string());
    }
    let command = format!("{} ./prog", env_text(inputs));
    finish(command, run_with_limit(&mut cmd, limit))
}

/// Runs `dir/prog` under mpirun on `procs` processes.
pub fn run_mpi(
    dir: &Path,
    procs: u32,
    config: MpiConfig,
    inputs: &BTreeMap<String, i64>,
    delay_seed: u64,
    hang_after: Duration,
) -> ConcreteRun {
    let secs = hang_after.as_secs().max(1).to_string();
    let mut args: Vec<String> = vec!["-k".into(), "2".into(), secs.clone(), "mpirun".into()];
    args.extend(["--allow-run-as-root", "--oversubscribe"].map(String::from));
    args.extend(config.mca().iter().map(|s| s.to_string()));
    for (k, v) in inputs {
        args.extend(["-x".into(), format!("DT_{k}={v}")]);
    }
    args.extend(["-x".into(), format!("DT_SEED={delay_seed}")]);
    args.extend(["-np".into(), procs.to_string(), "./prog".into()]);
    let mut cmd = Command::new("timeout");
    cmd.args(&args)
        .current_dir(dir)
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
    let command = format!("timeout {}", args.join(" "));
    finish(
        command,
        run_with_limit(&mut cmd, hang_after + Duration::from_secs(10)),
    )
}

fn finish(command: String, raw: Result<crate::fevs::RawRun, String>) -> ConcreteRun {
    match raw {
        Ok(raw) => {
            let output = format!("{}{}", raw.stdout, raw.stderr);
            ConcreteRun {
                behaviour: judge_exit(raw.exit, raw.timed_out, &output),
                command,
                output,
            }
        }
        Err(e) => ConcreteRun {
            command,
            behaviour: Behaviour::HarnessError(e.clone()),
            output: e,
        },
    }
}

/// Every combination of the inputs' values, in order.
pub fn input_box(inputs: &[(String, i64, i64)]) -> Vec<BTreeMap<String, i64>> {
    let mut all = vec![BTreeMap::new()];
    for (name, lo, hi) in inputs {
        all = all
            .into_iter()
            .flat_map(|m| {
                (*lo..=*hi).map(move |v| {
                    let mut m = m.clone();
                    m.insert(name.clone(), v);
                    m
                })
            })
            .collect();
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_box_lists_every_combination() {
        let b = input_box(&[("x".into(), 0, 1), ("y".into(), -1, 1)]);
        assert_eq!(b.len(), 6);
        assert_eq!(b[5]["x"], 1);
        assert_eq!(b[5]["y"], 1);
    }

    #[test]
    fn exits_are_judged() {
        assert_eq!(judge_exit(Some(0), false, ""), Behaviour::Ok);
        assert_eq!(judge_exit(Some(124), false, ""), Behaviour::Hang);
        assert_eq!(judge_exit(None, true, ""), Behaviour::Hang);
        let b = judge_exit(
            Some(134),
            false,
            "prog: a.c:9: main: Assertion `x' failed.\n",
        );
        assert!(
            matches!(b, Behaviour::Failed(ref s) if s.contains("Assertion")),
            "{b:?}"
        );
    }
}
