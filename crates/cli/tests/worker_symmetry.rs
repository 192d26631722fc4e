//! `--worker-symmetry` (issue 18): states are matched modulo permutations of the
//! interchangeable processes when the taint analysis of the rank is clean
//! (`tass_state`'s `worker_taint.rs`), and refused with a warning otherwise.
//! Every program is run with and without the reduction, with the urgent POR on
//! and off: the verdicts and the first violation's property must agree.
//!
//! Programs written to break it (rank leaking through a pointer, MPI_BYTE,
//! arithmetic, parity, a floating reduction's rank order under herbrand; a
//! deadlock in one arrival order only). Confirmed with
//! `mpicc -g -fsanitize=address,undefined` and
//! `ASAN_OPTIONS=detect_leaks=0 mpirun --allow-run-as-root --oversubscribe -np 4`
//! (default and `--mca btl self,tcp --mca btl_tcp_eager_limit 56 --mca btl_tcp_rndv_eager_limit 56`):
//!   server_ok: exits 0;
//!   pointer_leak_bad / byte_leak_bad / arith_leak_bad: `Assertion v != 99 / b != 2 / v != 20 failed`;
//!   parity_order_bad with -DFORCE_EVEN_FIRST (odd workers sleep 1 s): `status.MPI_TAG == 1` fails;
//!   named_order_bad with -DFORCE_TWO_FIRST: `status.MPI_TAG == 1` fails;
//!   first_parity_bad with -DFORCE_EVEN_FIRST (odd workers sleep 1 s): `rank % 2 == 1` fails;
//!   deadlock_order_bad with -DFORCE_LAST (rank 1 sleeps 1 s): hangs (killed after 20 s);
//!     without it, exits 0 in the runs where rank 1 is not last;
//!   reduce_herbrand (x = 0.1): exits 0 (the fold in rank order equals the assertion's
//!     left-to-right sum in IEEE here; herbrand cannot prove it for every x: `possible`).

mod common;

use std::process::Command;

use serde_json::Value;

const SERVER_OK: &str = r#"/* clean server: requests by MPI_ANY_SOURCE, replies to status.MPI_SOURCE (admitted; holds) */
#include <mpi.h>
#include <assert.h>
int main(int argc, char *argv[]) {
    int rank, size, i, req = 7, reply = 0, total = 0, mine = 0;
    MPI_Status status;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        for (i = 1; i < size; i++) {
            MPI_Recv(&req, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &status);
            reply = i;
            MPI_Send(&reply, 1, MPI_INT, status.MPI_SOURCE, 2, MPI_COMM_WORLD);
        }
    } else {
        MPI_Send(&req, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        MPI_Recv(&mine, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &status);
        assert(mine >= 1 && mine < size);
    }
    MPI_Reduce(&mine, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        assert(total == (size - 1) * size / 2);
    MPI_Finalize();
    return 0;
}
"#;

const DEADLOCK_ORDER_BAD: &str = r#"/* BUG: the server waits for one more message from rank 1 when rank 1's request
 * came last: a deadlock in that arrival order only (rank 1 named, W = the rest). */
#include <mpi.h>
#include <unistd.h>
int main(int argc, char *argv[]) {
    int rank, size, i, last = 0, req = 1;
    MPI_Status status;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        for (i = 1; i < size; i++) {
            MPI_Recv(&req, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &status);
            last = status.MPI_SOURCE;
        }
        if (last == 1)
            MPI_Recv(&req, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &status);
    } else {
#ifdef FORCE_LAST
        if (rank == 1)
            sleep(1);
#endif
        MPI_Send(&req, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

const NAMED_ORDER_BAD: &str = r#"/* BUG: rank 2 (named by a literal, so not interchangeable) sends tag 2, the
 * others tag 1; the server asserts the first message has tag 1: violated when
 * rank 2 is first (admitted: W = the workers other than 2). */
#include <mpi.h>
#include <assert.h>
#include <unistd.h>
int main(int argc, char *argv[]) {
    int rank, size, i, v = 0;
    MPI_Status status;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        for (i = 1; i < size; i++) {
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
            if (i == 1)
                assert(status.MPI_TAG == 1);
        }
    } else if (rank == 2) {
        MPI_Send(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
    } else {
#ifdef FORCE_TWO_FIRST
        sleep(1);
#endif
        MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

const POINTER_LEAK_BAD: &str = r#"/* BUG: the rank leaks through a pointer; the worker of rank 2 sends 99, which
 * the server's assertion rejects (refused: the address of the rank is taken). */
#include <mpi.h>
#include <assert.h>
int main(int argc, char *argv[]) {
    int rank, size, i, v = 0, *p;
    MPI_Status status;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    p = &rank;
    if (rank == 0) {
        for (i = 1; i < size; i++) {
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &status);
            assert(v != 99);
        }
    } else {
        v = *p == 2 ? 99 : 1;
        MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

const BYTE_LEAK_BAD: &str = r#"/* BUG: each worker sends the first byte of its rank as an MPI_BYTE (the whole
 * rank on a little-endian machine, ranks < 256); the server rejects rank 2's
 * (refused: the address of the rank is taken as a send buffer). */
#include <mpi.h>
#include <assert.h>
int main(int argc, char *argv[]) {
    int rank, size, i;
    unsigned char b = 0;
    MPI_Status status;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        for (i = 1; i < size; i++) {
            MPI_Recv(&b, 1, MPI_BYTE, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &status);
            assert(b != 2);
        }
    } else {
        MPI_Send(&rank, 1, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

const ARITH_LEAK_BAD: &str = r#"/* BUG: each worker sends 10 * rank; the server rejects 20 (refused: arithmetic on the rank). */
#include <mpi.h>
#include <assert.h>
int main(int argc, char *argv[]) {
    int rank, size, i, v = 0;
    MPI_Status status;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        for (i = 1; i < size; i++) {
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &status);
            assert(v != 20);
        }
    } else {
        v = 10 * rank;
        MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

const PARITY_ORDER_BAD: &str = r#"/* BUG: odd workers send tag 1, even ones tag 2; the server asserts the first
 * message it takes has tag 1: violated when an even worker is first
 * (refused: the rank's parity is arithmetic). */
#include <mpi.h>
#include <assert.h>
#include <unistd.h>
int main(int argc, char *argv[]) {
    int rank, size, i, v = 0;
    MPI_Status status;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        for (i = 1; i < size; i++) {
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
            if (i == 1)
                assert(status.MPI_TAG == 1);
        }
    } else {
#ifdef FORCE_EVEN_FIRST
        if (rank % 2 == 1)
            sleep(1);
#endif
        MPI_Send(&v, 1, MPI_INT, 0, rank % 2 == 1 ? 1 : 2, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
"#;

const FIRST_PARITY_BAD: &str = r#"/* BUG: the server tells the first worker it served that it was first; that
 * worker asserts its rank is odd: violated when an even worker is served
 * first. (Refused: the rank's parity is arithmetic. A reduction that ignored
 * it would match "worker 1 served first" with "worker 2 served first".) */
#include <mpi.h>
#include <assert.h>
#include <unistd.h>
int main(int argc, char *argv[]) {
    int rank, size, i, req = 0, first = 0;
    MPI_Status status;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0) {
        for (i = 1; i < size; i++) {
            MPI_Recv(&req, 1, MPI_INT, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &status);
            first = i == 1;
            MPI_Send(&first, 1, MPI_INT, status.MPI_SOURCE, 2, MPI_COMM_WORLD);
        }
    } else {
#ifdef FORCE_EVEN_FIRST
        if (rank % 2 == 1)
            sleep(1);
#endif
        MPI_Send(&req, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        MPI_Recv(&first, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &status);
        if (first)
            assert(rank % 2 == 1);
    }
    MPI_Finalize();
    return 0;
}
"#;

const REDUCE_HERBRAND: &str = r#"/* Each worker contributes x (an input) to a floating MPI_SUM; rank 0 asserts
 * the total is ((x + x) + x) as written: holds over the reals, not provable
 * under herbrand (the fold's tree is in rank order). Refused: a floating
 * reduction folds in rank order. */
#include <mpi.h>
#include <assert.h>
#pragma TASS input
double x;
int main(int argc, char *argv[]) {
    int rank, size;
    double mine = 0.0, total = 0.0;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
#ifndef __TASS__
    x = 0.1;
#endif
    if (rank != 0)
        mine = x;
    MPI_Reduce(&mine, &total, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        assert(total == 0.0 + x + x + x);
    MPI_Finalize();
    return 0;
}
"#;

/// `tass verify -n PROCS EXTRA FILE --format json --stats`.
fn run(procs: &str, extra: &[&str], file: &std::path::Path) -> (i32, Value) {
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "-n", procs, "--format", "json", "--stats"])
        .args(extra)
        .arg(file)
        .output()
        .expect("run tass");
    common::report(out)
}

fn warning(r: &Value) -> String {
    r["warnings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .find(|w| w.starts_with("--worker-symmetry"))
        .unwrap_or("")
        .to_string()
}

fn seen(r: &Value) -> u64 {
    r["stats"]["states_seen"].as_u64().expect("stats")
}

/// Runs `text` on `procs` processes with and without `--worker-symmetry`,
/// POR on and off; asserts the verdicts (and first properties) agree with
/// `verdict`/`property`, and that the reduction was applied (`applied`) or
/// refused with `refusal` in its warning. Returns (full, reduced) states seen
/// with the POR on.
fn agree(
    text: &str,
    procs: &str,
    extra: &[&str],
    expect: (&str, &str),
    applied: Result<(), &str>,
) -> (u64, u64) {
    let (verdict, property) = expect;
    let file = common::inline(text);
    let mut states = Vec::new();
    // The full search without the POR is run on at most 4 processes (it
    // grows too fast in a debug build beyond).
    let pors: &[&[&str]] = if procs.parse::<u32>().unwrap_or(9) <= 4 {
        &[&[], &["--por", "off"]]
    } else {
        &[&[]]
    };
    for por in pors.iter().copied() {
        for reduce in [false, true] {
            let mut args: Vec<&str> = extra.to_vec();
            args.extend_from_slice(por);
            if reduce {
                args.push("--worker-symmetry");
            }
            let (code, r) = run(procs, &args, &file);
            assert_eq!(r["verdict"], verdict, "{args:?}\n{r:#}");
            assert_eq!(code, if verdict == "holds" { 0 } else { 1 }, "{r:#}");
            if verdict == "violated" {
                assert_eq!(r["violations"][0]["property"], property, "{args:?}\n{r:#}");
            }
            if reduce {
                let w = warning(&r);
                match applied {
                    Ok(()) => assert!(w.contains("matched modulo"), "{w}"),
                    Err(why) => {
                        assert!(w.contains("not applied") && w.contains(why), "{w}");
                        assert!(w.contains("running without the reduction"), "{w}");
                    }
                }
            } else {
                assert_eq!(warning(&r), "", "{r:#}");
            }
            if por.is_empty() {
                states.push(seen(&r));
            }
        }
    }
    (states[0], states[1])
}

#[test]
fn a_clean_server_is_reduced_and_still_holds() {
    for procs in ["4", "5"] {
        let (full, reduced) = agree(SERVER_OK, procs, &[], ("holds", ""), Ok(()));
        assert!(reduced < full, "np {procs}: {reduced} !< {full}");
    }
}

#[test]
fn a_deadlock_in_one_arrival_order_is_found() {
    for procs in ["3", "4", "5"] {
        let applied = if procs == "3" {
            Err("fewer than two")
        } else {
            Ok(())
        };
        agree(
            DEADLOCK_ORDER_BAD,
            procs,
            &[],
            ("violated", "deadlock"),
            applied,
        );
    }
}

#[test]
fn a_rank_named_by_a_literal_is_left_out_and_its_order_violation_found() {
    let file = common::inline(NAMED_ORDER_BAD);
    let (_, r) = run("5", &["--worker-symmetry"], &file);
    assert!(warning(&r).contains("ranks {1, 3, 4}"), "{r:#}");
    agree(NAMED_ORDER_BAD, "5", &[], ("violated", "assertion"), Ok(()));
}

#[test]
fn a_rank_through_a_pointer_is_refused() {
    agree(
        POINTER_LEAK_BAD,
        "4",
        &[],
        ("violated", "assertion"),
        Err("the address of a rank variable"),
    );
}

#[test]
fn a_rank_sent_as_bytes_is_refused() {
    // tass reports the int memory sent as MPI_BYTE and received as char as an
    // mpi-type violation before the assertion; both searches agree on it.
    agree(
        BYTE_LEAK_BAD,
        "4",
        &[],
        ("violated", "mpi-type"),
        Err("the address of a rank variable"),
    );
}

#[test]
fn arithmetic_on_the_rank_is_refused() {
    agree(
        ARITH_LEAK_BAD,
        "4",
        &[],
        ("violated", "assertion"),
        Err("a rank value is used"),
    );
}

#[test]
fn parity_of_the_rank_is_refused() {
    agree(
        PARITY_ORDER_BAD,
        "4",
        &[],
        ("violated", "assertion"),
        Err("a rank value is used"),
    );
}

/// The negative control: with the taint analysis's refusals switched off (a
/// local experiment, `check_every_use` ignored), `--worker-symmetry` said
/// `holds` here on 4 and 5 processes (it matched "worker 1 served first" with
/// "worker 2 served first"); the full search and the refused run say violated.
#[test]
fn a_rank_parity_decided_after_the_order_is_refused() {
    agree(
        FIRST_PARITY_BAD,
        "4",
        &[],
        ("violated", "assertion"),
        Err("a rank value is used"),
    );
}

#[test]
fn a_floating_reduction_in_rank_order_is_refused() {
    let why = "not over an integer type";
    agree(
        REDUCE_HERBRAND,
        "4",
        &["--arith", "herbrand"],
        ("violated", "assertion"),
        Err(why),
    );
    agree(
        REDUCE_HERBRAND,
        "4",
        &["--arith", "real"],
        ("holds", ""),
        Err(why),
    );
}

#[test]
fn parallel_searches_share_the_keys_and_agree() {
    for (text, verdict) in [(SERVER_OK, "holds"), (DEADLOCK_ORDER_BAD, "violated")] {
        let file = common::inline(text);
        for jobs in ["1", "2"] {
            let (_, r) = run("5", &["--worker-symmetry", "--jobs", jobs], &file);
            assert_eq!(r["verdict"], verdict, "jobs {jobs}\n{r:#}");
            assert!(warning(&r).contains("matched modulo"), "{r:#}");
        }
    }
}

/// A parameter assigned a rank (its first value comes from the call, which
/// the renaming could not tell from a rank), and a rank compared through a
/// conversion to `char` (which may merge ranks): both refused.
/// Confirmed: `mpirun -np 4` of each exits 0.
#[test]
fn a_rank_parameter_and_a_char_conversion_are_refused() {
    let param = "#include <mpi.h>\n#include <assert.h>\nint rank;\n\
                 int work(int u) {\n    u = rank;\n    return u == 0;\n}\n\
                 int main(int argc, char *argv[]) {\n    MPI_Init(&argc, &argv);\n    \
                 MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n    assert(work(5) == (rank == 0));\n    \
                 MPI_Finalize();\n    return 0;\n}\n";
    agree(
        param,
        "4",
        &[],
        ("holds", ""),
        Err("the parameter `u` of `work`"),
    );
    let narrow = "#include <mpi.h>\n#include <assert.h>\n\
                  int main(int argc, char *argv[]) {\n    int rank;\n    MPI_Init(&argc, &argv);\n    \
                  MPI_Comm_rank(MPI_COMM_WORLD, &rank);\n    if ((char)rank == 2)\n        assert(rank == 2);\n    \
                  MPI_Finalize();\n    return 0;\n}\n";
    agree(narrow, "4", &[], ("holds", ""), Err("a rank value is used"));
}
