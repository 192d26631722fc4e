//! Building and running the harness: gcc with AddressSanitizer and UBSan for a
//! sequential program, mpicc and `mpirun -np N` for an MPI one, each run under a
//! time limit (`timeout`), and reading what the run did.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

/// gcc's flags for a sequential harness: every sanitizer report is fatal, and a
/// floating-point division by zero is reported too (C leaves it defined as inf/NaN,
/// tass reports it).
const GCC_FLAGS: &[&str] = &[
    "-std=gnu99",
    "-g",
    "-O0",
    "-fsanitize=address,undefined,float-divide-by-zero",
    "-fno-sanitize-recover=all",
    "-Wno-unknown-pragmas",
];

/// mpicc's flags: UBSan only (AddressSanitizer's leak reports of the MPI library
/// itself would drown the program's).
const MPICC_FLAGS: &[&str] = &[
    "-std=gnu99",
    "-g",
    "-O0",
    "-fsanitize=undefined,float-divide-by-zero",
    "-fno-sanitize-recover=all",
    "-Wno-unknown-pragmas",
];

/// Which compiler and launcher a program needs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Launch {
    Sequential,
    /// `mpirun -np N`; `Buffering::ZeroBuffer` makes standard sends wait for their receive
    /// (OpenMPI's TCP transport with eager limits below any message).
    Mpi {
        procs: usize,
        buffering: Buffering,
    },
}

/// How the MPI library buffers standard-mode sends in the concrete run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Buffering {
    LibraryDefault,
    ZeroBuffer,
}

impl Launch {
    pub fn compiler(self) -> &'static str {
        match self {
            Launch::Sequential => "gcc",
            Launch::Mpi { .. } => "mpicc",
        }
    }
}

/// What the concrete run did.
#[derive(Debug, Clone)]
pub(crate) struct ConcreteRun {
    pub command: String,
    pub exit: Option<i32>,
    pub timed_out: bool,
    pub output: String,
}

/// True if `program` can be started (on PATH).
pub(crate) fn available(program: &str) -> bool {
    Command::new(program)
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success())
}

/// Compiles `sources` (in `dir`) into `dir/harness`; returns the command line.
pub(crate) fn compile(
    launch: Launch,
    dir: &Path,
    sources: &[PathBuf],
    extra: &[String],
) -> Result<String, String> {
    let compiler = launch.compiler();
    let flags = match launch {
        Launch::Sequential => GCC_FLAGS,
        Launch::Mpi { .. } => MPICC_FLAGS,
    };
    let prelude = [
        "-include", "stdio.h", "-include", "stdlib.h", "-include", "assert.h",
    ];
    let mut cmd = Command::new(compiler);
    cmd.args(flags)
        .args(prelude)
        .args(extra)
        .arg("-o")
        .arg(dir.join("harness"))
        .args(sources)
        .arg("-lm");
    let line = format!("{cmd:?}").replace('"', "");
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {compiler}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "{line}\n{}",
            String::from_utf8_lossy(&out.stderr).trim_end()
        ));
    }
    Ok(line)
}

/// Runs `dir/harness ARGS...` under `timeout`; a run still going after `limit`
/// is stopped.
pub(crate) fn run(
    launch: Launch,
    dir: &Path,
    limit: Duration,
    program_args: &[String],
) -> ConcreteRun {
    let secs = limit.as_secs().max(1).to_string();
    let mut args: Vec<String> = vec!["-k".into(), "3".into(), secs];
    match launch {
        Launch::Sequential => args.push("./harness".into()),
        Launch::Mpi { procs, buffering } => {
            args.extend(["mpirun", "--allow-run-as-root", "--oversubscribe"].map(String::from));
            if buffering == Buffering::ZeroBuffer {
                args.extend(
                    [
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
                    ]
                    .map(String::from),
                );
            }
            // Each rank writes where it is a second before the limit (blocked.rs).
            let where_after = limit.as_secs().saturating_sub(1).max(1);
            args.extend([
                "-x".into(),
                format!("TASS_REPLAY_WHERE_AFTER={where_after}"),
            ]);
            args.extend(["-np".into(), procs.to_string(), "./harness".into()]);
        }
    }
    args.extend(program_args.iter().cloned());
    let command = format!("timeout {}", args.join(" "));
    let out = Command::new("timeout")
        .args(&args)
        .current_dir(dir)
        .env("ASAN_OPTIONS", "detect_leaks=1")
        .env("UBSAN_OPTIONS", "print_stacktrace=1")
        .env("OMPI_ALLOW_RUN_AS_ROOT", "1")
        .env("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1")
        .output();
    match out {
        Ok(out) => {
            let exit = out.status.code();
            ConcreteRun {
                command,
                // `timeout` exits 124 when it stopped the run (137 after -k's KILL).
                timed_out: matches!(exit, Some(124) | Some(137)),
                exit,
                output: format!(
                    "{}{}",
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                ),
            }
        }
        Err(e) => ConcreteRun {
            command,
            exit: None,
            timed_out: false,
            output: format!("cannot run timeout: {e}"),
        },
    }
}
