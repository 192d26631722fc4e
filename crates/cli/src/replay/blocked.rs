//! Where each rank of a hung MPI run was: the harness gets a SIGALRM handler that,
//! a second before the time limit, writes the rank's stack (glibc's
//! `backtrace_symbols_fd`) to a file and lets the rank carry on; the frames in the
//! harness binary are then turned into source lines with `nm` and `addr2line`
//! (binutils), when installed. Files rather than stderr: mpirun stops forwarding
//! output while it tears a run down.

use std::collections::HashMap;
use std::path::Path;
use std::process::Command;

/// The C file added to an MPI harness (linked with `-rdynamic` for the names).
pub(crate) const WHERE_HANDLER: &str = r#"/* tass replay: a second before the time limit, each rank writes where it is to
 * tass_replay_where_RANK.txt and carries on (a hung rank stays hung). */
#include <execinfo.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static char tass_replay_where_file[64];
static void tass_replay_where(int sig) {
    void *frames[48];
    int n = backtrace(frames, 48);
    int fd = open(tass_replay_where_file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    (void)sig;
    if (fd >= 0) {
        backtrace_symbols_fd(frames, n, fd);
        close(fd);
    }
}
__attribute__((constructor)) static void tass_replay_install_where(void) {
    const char *rank = getenv("OMPI_COMM_WORLD_RANK");
    const char *after = getenv("TASS_REPLAY_WHERE_AFTER");
    struct sigaction action;
    snprintf(tass_replay_where_file, sizeof tass_replay_where_file,
             "tass_replay_where_%s.txt", rank ? rank : "x");
    memset(&action, 0, sizeof action);
    action.sa_handler = tass_replay_where;
    action.sa_flags = SA_RESTART;
    sigaction(SIGALRM, &action, NULL);
    if (after && atoi(after) > 0)
        alarm((unsigned)atoi(after));
}

/* An MPI error is written to tass_replay_mpi_error_RANK.txt before the abort:
 * mpirun often ends before the library's own message is forwarded. */
#include <mpi.h>
static void tass_replay_mpi_error(MPI_Comm *comm, int *code, ...) {
    char text[MPI_MAX_ERROR_STRING], name[64];
    const char *rank = getenv("OMPI_COMM_WORLD_RANK");
    int len = 0;
    FILE *file;
    (void)comm;
    PMPI_Error_string(*code, text, &len);
    snprintf(name, sizeof name, "tass_replay_mpi_error_%s.txt", rank ? rank : "x");
    file = fopen(name, "w");
    if (file) {
        fprintf(file, "%s\n", text);
        fclose(file);
    }
    PMPI_Abort(MPI_COMM_WORLD, *code);
}
int MPI_Init(int *argc, char ***argv) {
    int result = PMPI_Init(argc, argv);
    MPI_Errhandler handler;
    PMPI_Comm_create_errhandler(tass_replay_mpi_error, &handler);
    PMPI_Comm_set_errhandler(MPI_COMM_WORLD, handler);
    return result;
}
"#;

/// Function name -> address in the harness binary (from `nm`).
fn symbols(binary: &Path) -> HashMap<String, u64> {
    let Ok(out) = Command::new("nm").arg(binary).output() else {
        return HashMap::new();
    };
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let mut parts = l.split_whitespace();
            let addr = u64::from_str_radix(parts.next()?, 16).ok()?;
            let _kind = parts.next()?;
            Some((parts.next()?.to_string(), addr))
        })
        .collect()
}

/// `file:line` of the call before return address `FUNC+0xOFF` in the binary.
fn source_line(binary: &Path, symbols: &HashMap<String, u64>, frame: &str) -> Option<String> {
    let (func, offset) = frame.split_once("+0x")?;
    let offset = u64::from_str_radix(offset, 16).ok()?;
    let at = symbols.get(func)? + offset.checked_sub(1)?;
    let out = Command::new("addr2line")
        .arg("-e")
        .arg(binary)
        .arg(format!("{at:#x}"))
        .output()
        .ok()?;
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let place = Path::new(text.split(' ').next()?);
    let name = place.file_name()?.to_string_lossy().into_owned();
    (!name.starts_with("??")).then_some(name)
}

/// Removes the stack and MPI error files of an earlier run in `dir`.
pub(crate) fn clear(dir: &Path) {
    for prefix in ["tass_replay_where_", "tass_replay_mpi_error_"] {
        for (_, path) in rank_files(dir, prefix) {
            let _ = std::fs::remove_file(path);
        }
    }
}

/// The MPI errors the ranks wrote (`MPI_ERR_COUNT: invalid count argument (rank 0)`).
pub(crate) fn mpi_errors(dir: &Path) -> Vec<String> {
    rank_files(dir, "tass_replay_mpi_error_")
        .into_iter()
        .filter_map(|(rank, path)| {
            let text = std::fs::read_to_string(path).ok()?;
            Some(format!("{} (rank {rank})", text.trim()))
        })
        .collect()
}

fn stack_files(dir: &Path) -> Vec<(String, std::path::PathBuf)> {
    rank_files(dir, "tass_replay_where_")
}

fn rank_files(dir: &Path, prefix: &str) -> Vec<(String, std::path::PathBuf)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<(String, std::path::PathBuf)> = entries
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            let rank = name.strip_prefix(prefix)?.strip_suffix(".txt")?.to_string();
            Some((rank, e.path()))
        })
        .collect();
    files.sort();
    files
}

/// The program file a harness copy stands for (`harness_0_prog.c` -> `prog.c`).
fn original_name(name: &str) -> &str {
    name.strip_prefix("harness_")
        .and_then(|rest| rest.split_once('_'))
        .map_or(name, |(_, original)| original)
}

/// One line per rank that wrote its stack: the innermost program line and the MPI
/// function it was in (`rank 0 was at deadlock_recv_bad.c:30 in MPI_Recv`).
pub(crate) fn where_ranks_were(dir: &Path) -> Vec<String> {
    let binary = dir.join("harness");
    let symbols = symbols(&binary);
    let mut lines = Vec::new();
    for (rank, path) in stack_files(dir) {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let mut mpi_function = None;
        let mut place = None;
        for row in text.lines() {
            let Some((object, rest)) = row.split_once('(') else {
                continue;
            };
            let frame = rest.split(')').next().unwrap_or("");
            let function = frame.split('+').next().unwrap_or("");
            if function.starts_with("MPI_") || function.starts_with("PMPI_") {
                mpi_function = Some(function.trim_start_matches('P').to_string());
            }
            if object.ends_with("/harness") && !function.is_empty() {
                if let Some(p) = source_line(&binary, &symbols, frame) {
                    place = Some(p);
                    break;
                }
            }
        }
        let mut line = format!("rank {rank} was at ");
        line.push_str(place.as_deref().map_or("(no source line)", original_name));
        if let Some(f) = mpi_function {
            line.push_str(&format!(" in {f}"));
        }
        lines.push(line);
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn harness_copies_are_named_by_their_original() {
        assert_eq!(original_name("harness_0_prog.c:30"), "prog.c:30");
        assert_eq!(original_name("harness_12_my_prog.c:3"), "my_prog.c:3");
        assert_eq!(original_name("other.c:3"), "other.c:3");
    }
}
