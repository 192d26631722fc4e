//! The buffer of a pending point-to-point receive (issue 20, "point-to-point
//! checks now missed"): from `MPI_Irecv` (or `MPI_Start` of an `MPI_Recv_init`)
//! until the wait or test that completes it, the process may neither read nor
//! write any element of the receive buffer, nor hand it to another MPI call
//! (`local-concurrency`). The programs are in `tests/pending_receive/`.
//!
//! Every verdict was checked with real runs: `mpicc -Wall`, `mpirun
//! --allow-run-as-root --oversubscribe -np N` (N = 2 and 3) by default and with
//! unbuffered sends (`--mca btl self,tcp --mca btl_tcp_eager_limit 56 --mca
//! btl_tcp_rndv_eager_limit 56`). The `_ok` programs exit 0 in both modes with
//! their assertions holding. The `_nok` programs also exit 0: Open MPI does not
//! check buffer ownership, so those verdicts are standard-based (MPI 4.1 §3.7.2:
//! the receiver must not access any part of the receive buffer after a
//! nonblocking receive is started until it completes). A race does show when the
//! message is already there at the post: with `sleep(1)` before rank 1's
//! `MPI_Recv_init`, recv_init_rounds_nok prints sum = 0 by default and sum = 3
//! with unbuffered sends, so the result depends on when the message lands.

use std::path::PathBuf;
use std::process::Command;

use serde_json::Value;

fn run(procs: &str, extra: &[&str], name: &str) -> (i32, Value) {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join("pending_receive")
        .join(name);
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "-n", procs, "--format", "json"])
        .args(extra)
        .arg(&file)
        .output()
        .expect("run tass");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let report = serde_json::from_str(&stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        )
    });
    (out.status.code().unwrap_or(-1), report)
}

fn holds(name: &str) {
    for procs in ["2", "3"] {
        for por in ["urgent", "off"] {
            let (code, r) = run(procs, &["--por", por], name);
            assert_eq!(
                r["verdict"], "holds",
                "{name} -n {procs} --por {por}: {r:#}"
            );
            assert_eq!(code, 0);
        }
    }
}

/// Violated with `local-concurrency` at `line`, the message containing `words`.
fn violated(name: &str, line: u64, words: &str) {
    for procs in ["2", "3"] {
        for por in ["urgent", "off"] {
            let (code, r) = run(procs, &["--por", por], name);
            assert_eq!(r["verdict"], "violated", "{name} -n {procs}: {r:#}");
            assert_eq!(code, 1);
            let v = &r["violations"][0];
            assert_eq!(v["property"], "local-concurrency", "{r:#}");
            assert_eq!(v["line"], line, "{r:#}");
            let message = v["message"].as_str().unwrap_or("");
            assert!(message.contains(words), "{message}");
        }
    }
}

#[test]
fn writing_the_buffer_of_a_pending_irecv_is_an_error() {
    violated(
        "write_before_wait_nok.c",
        13,
        "writes the receive buffer of its MPI_Irecv of line 12 before a wait or test",
    );
}

#[test]
fn reading_an_element_of_a_pending_receive_is_an_error() {
    violated(
        "read_before_wait_nok.c",
        14,
        "reads the receive buffer of its MPI_Irecv",
    );
}

#[test]
fn elements_outside_the_extent_are_free_before_the_wait_and_all_after() {
    holds("other_elements_ok.c");
    holds("halves_ok.c");
}

#[test]
fn a_receive_into_a_matrix_row_owns_that_row_and_what_it_runs_on_into() {
    holds("matrix_rows_ok.c");
    violated("matrix_rows_nok.c", 14, "writes the receive buffer");
}

#[test]
fn a_receive_into_a_heap_block_owns_its_elements_only() {
    violated(
        "heap_nok.c",
        17,
        "writes the receive buffer of its MPI_Irecv of line 15",
    );
}

#[test]
fn a_persistent_receive_owns_its_buffer_from_each_start_to_its_wait() {
    holds("recv_init_rounds_ok.c");
    violated(
        "recv_init_rounds_nok.c",
        17,
        "writes the receive buffer of its MPI_Startall of line 16",
    );
}

#[test]
fn test_testall_and_waitany_complete_the_receive() {
    holds("test_completes_ok.c");
}

/// MPI_PROC_NULL: the buffer is not modified, but the receive is complete
/// only at its wait (MPI 4.1 §3.7.2 and §3.11).
#[test]
fn a_receive_from_proc_null_owns_its_buffer_until_the_wait() {
    violated("proc_null_nok.c", 11, "reads the receive buffer");
    holds("proc_null_ok.c");
}

/// The message was matched (rank 0's MPI_Ssend returned and its next message
/// was received) but the receive completes only at the wait.
#[test]
fn a_delivered_receive_not_yet_waited_on_still_owns_its_buffer() {
    violated(
        "delivered_not_waited_nok.c",
        18,
        "reads the receive buffer of its MPI_Irecv of line 16",
    );
}

#[test]
fn handing_the_buffer_to_another_mpi_call_is_an_error() {
    violated(
        "mpi_calls_nok.c",
        15,
        "passes the receive buffer of its MPI_Irecv of line 14 to MPI_Send",
    );
    violated("second_irecv_nok.c", 14, "to MPI_Irecv");
}

/// MPI allows MPI_Request_free on an active receive, but then nothing tells
/// the program that the receive completed: the buffer may never be used again
/// (MPI 4.1 §3.7.3, advice to users). Both runs print 5 / exit 0.
#[test]
fn the_buffer_of_a_freed_active_receive_is_never_free_again() {
    violated(
        "freed_receive_nok.c",
        19,
        "whose active request MPI_Request_free released on line 15",
    );
}

/// A freed active receive whose buffer is never used again is correct: its
/// message arrives, and MPI completes the receive on its own (at the latest in
/// MPI_Finalize), so the message is not left unreceived (both runs exit 0).
#[test]
fn a_freed_receive_whose_buffer_is_left_alone_is_correct() {
    holds("freed_receive_untouched_ok.c");
}

/// A freed receive that no message ever matches never completes (both runs
/// exit 0: Open MPI does not check it, but MPI requires every communication to
/// complete before MPI_Finalize).
#[test]
fn a_freed_receive_that_nothing_matches_is_a_leak() {
    for procs in ["2", "3"] {
        let (code, r) = run(procs, &[], "freed_never_matched_nok.c");
        assert_eq!(r["verdict"], "violated", "{r:#}");
        assert_eq!(code, 1);
        assert_eq!(r["violations"][0]["property"], "memory-leak", "{r:#}");
        assert_eq!(r["violations"][0]["line"], 11, "{r:#}");
    }
}
