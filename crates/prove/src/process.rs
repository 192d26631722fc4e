//! One running solver process: spawned through rsmt2, watched by a per-query watchdog.
//!
//! rsmt2 owns the child process and its pipes but does not reveal the process id, which
//! the watchdog needs to kill a solver that ignores its own time limit (cvc5 on nonlinear
//! real queries, a solver that hangs). The solver is therefore started through a tiny
//! `sh` wrapper that prints its PID on the first line and then `exec`s the solver, so the
//! PID is the solver's own. The process stays our unreaped child until rsmt2 drops it,
//! so the PID cannot be reused while the watchdog may still signal it.

use std::io::Write;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::sexp::{Sexp, SexpError, SexpReader};

/// The wrapper: print our PID; become the leader of a new session (so the watchdog can
/// kill the solver together with any helper processes it started, which would otherwise
/// keep the output pipe open); silence stderr (nobody reads it, and a full pipe would
/// block the solver); become the solver.
const WRAPPER: &str = "echo $$; if command -v setsid >/dev/null 2>&1; \
    then exec setsid \"$0\" \"$@\" 2>/dev/null; else exec \"$0\" \"$@\" 2>/dev/null; fi";

/// How a conversation with a solver process failed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProcessError {
    /// The process could not be started.
    Spawn(String),
    /// Writing to the solver failed (it has exited).
    Write(String),
    /// The solver's answer could not be read or parsed.
    Read(SexpError),
    /// The watchdog killed the solver after the time limit.
    Killed,
    /// Reading or writing panicked inside a dependency; the process is discarded.
    Panicked,
}

impl std::fmt::Display for ProcessError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ProcessError::Spawn(m) => write!(f, "could not start the solver: {m}"),
            ProcessError::Write(m) => write!(f, "could not send the query to the solver: {m}"),
            ProcessError::Read(e) => write!(f, "{e}"),
            ProcessError::Killed => {
                f.write_str("the solver exceeded its time limit and was killed")
            }
            ProcessError::Panicked => f.write_str("talking to the solver failed unexpectedly"),
        }
    }
}

/// A live solver process.
pub struct SolverProcess {
    solver: rsmt2::Solver<()>,
    pid: u32,
    reader: SexpReader,
    killed: bool,
}

impl SolverProcess {
    /// Starts `program args...` behind the PID-printing wrapper.
    pub fn spawn(program: &Path, args: &[String]) -> Result<SolverProcess, ProcessError> {
        // The yices-2 style of rsmt2 adds no options of its own and sends nothing at start.
        let mut conf = rsmt2::SmtConf::yices_2("/bin/sh");
        conf.option("-c")
            .option(WRAPPER)
            .option(program.display().to_string());
        for a in args {
            conf.option(a.clone());
        }
        let solver = rsmt2::Solver::new(conf, ())
            .map_err(|e| ProcessError::Spawn(format!("{}: {e}", program.display())))?;
        let mut process = SolverProcess {
            solver,
            pid: 0,
            reader: SexpReader::new(),
            killed: false,
        };
        let line = process
            .reader
            .read_line(&mut process.solver)
            .map_err(|e| ProcessError::Spawn(format!("{}: {e}", program.display())))?;
        process.pid = line.trim().parse().map_err(|_| {
            ProcessError::Spawn(format!(
                "{}: the `sh` wrapper printed {line:?} instead of a process id",
                program.display()
            ))
        })?;
        Ok(process)
    }

    /// Sends `script`, then reads `answers` S-expressions, all under one time limit.
    /// After any error the process must be discarded (its state is unknown).
    pub fn exchange(
        &mut self,
        script: &str,
        answers: usize,
        limit: Duration,
    ) -> Result<Vec<Sexp>, ProcessError> {
        let (done_tx, done_rx) = mpsc::channel::<()>();
        let pid = self.pid;
        let watchdog = std::thread::spawn(move || {
            if let Err(mpsc::RecvTimeoutError::Timeout) = done_rx.recv_timeout(limit) {
                kill(pid);
                true
            } else {
                false
            }
        });
        let result = catch_unwind(AssertUnwindSafe(|| self.talk(script, answers)))
            .unwrap_or(Err(ProcessError::Panicked));
        // Tell the watchdog we are done and wait for it, so that it never signals after
        // this point (the process may be reaped and its PID reused later).
        let _ = done_tx.send(());
        let killed = watchdog.join().unwrap_or(false);
        self.killed |= killed;
        match result {
            Err(_) if killed => Err(ProcessError::Killed),
            other => other,
        }
    }

    /// True once the watchdog has killed the process (even if the answer it was
    /// waiting for had arrived just in time): it must not be used again.
    pub fn is_killed(&self) -> bool {
        self.killed
    }

    fn talk(&mut self, script: &str, answers: usize) -> Result<Vec<Sexp>, ProcessError> {
        self.solver
            .write_all(script.as_bytes())
            .and_then(|()| self.solver.flush())
            .map_err(|e| ProcessError::Write(e.to_string()))?;
        let mut out = Vec::with_capacity(answers);
        for _ in 0..answers {
            out.push(
                self.reader
                    .read(&mut self.solver)
                    .map_err(ProcessError::Read)?,
            );
        }
        Ok(out)
    }
}

impl Drop for SolverProcess {
    fn drop(&mut self) {
        // rsmt2 kills the solver itself when its `Solver` drops right after this; the
        // group kill also ends helpers a wrapper script may have started.
        if self.pid != 0 {
            kill(self.pid);
        }
    }
}

/// Sends SIGKILL to the process group led by `pid` and to `pid` itself (through `sh`'s
/// built-in `kill`: no `unsafe`, no extra crate).
fn kill(pid: u32) {
    let _ = Command::new("/bin/sh")
        .arg("-c")
        .arg(format!(
            "kill -9 -{pid} 2>/dev/null; kill -9 {pid} 2>/dev/null"
        ))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status();
}

/// Resolves a solver command: a path (containing `/`) must name an executable file;
/// a bare name is looked up on `PATH`.
pub fn resolve_program(command: &str) -> Option<PathBuf> {
    let is_exec = |p: &Path| {
        use std::os::unix::fs::PermissionsExt;
        p.metadata()
            .map(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
            .unwrap_or(false)
    };
    if command.contains('/') {
        let p = PathBuf::from(command);
        return is_exec(&p).then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(command))
        .find(|p| is_exec(p))
}
