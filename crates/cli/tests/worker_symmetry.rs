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
//! The server programs are built by `Server::program` (every one includes
//! `<mpi.h>`, `<assert.h>` and `<unistd.h>`); rerun as built, np 4: server_ok and
//! deadlock_order_bad exit 0, the three leaks fail their assertions as above.

mod common;

use std::process::Command;

use serde_json::Value;

/// A server program: after the prologue every program here shares, rank 0
/// takes one message from each worker by `MPI_Recv(RECEIVE, MPI_COMM_WORLD,
/// &status)` and runs `each` after each; the workers run `worker`. Every
/// piece is C text with its lines indented as they stand in the program.
struct Server {
    /// The comment at the top (a bad program's says BUG and why).
    header: &'static str,
    /// Declarations of `main` after `int rank, size, i`.
    locals: &'static str,
    /// Statements before the server/worker split.
    before: &'static str,
    receive: &'static str,
    each: &'static str,
    /// What follows rank 0's loop before the workers' `} else {`: rank 0's
    /// last statements, or a branch of its own for one rank.
    after_loop: &'static str,
    worker: &'static str,
    /// What every process does before `MPI_Finalize`.
    end: &'static str,
}

impl Server {
    const EMPTY: Server = Server {
        header: "",
        locals: "",
        before: "",
        receive: "",
        each: "",
        after_loop: "",
        worker: "",
        end: "",
    };

    fn program(&self) -> String {
        let Server {
            header,
            locals,
            before,
            receive,
            each,
            after_loop,
            worker,
            end,
        } = self;
        format!(
            "{header}
#include <mpi.h>
#include <assert.h>
#include <unistd.h>
int main(int argc, char *argv[]) {{
    int rank, size, i{locals};
    MPI_Status status;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
{before}    if (rank == 0) {{
        for (i = 1; i < size; i++) {{
            MPI_Recv({receive}, MPI_COMM_WORLD, &status);
{each}        }}
{after_loop}    }} else {{
{worker}    }}
{end}    MPI_Finalize();
    return 0;
}}
"
        )
    }
}

const SERVER_OK: Server = Server {
    header: "/* clean server: requests by MPI_ANY_SOURCE, replies to status.MPI_SOURCE \
             (admitted; holds) */",
    locals: ", req = 7, reply = 0, total = 0, mine = 0",
    receive: "&req, 1, MPI_INT, MPI_ANY_SOURCE, 1",
    each: "            reply = i;
            MPI_Send(&reply, 1, MPI_INT, status.MPI_SOURCE, 2, MPI_COMM_WORLD);
",
    worker: "        MPI_Send(&req, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        MPI_Recv(&mine, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &status);
        assert(mine >= 1 && mine < size);
",
    end: "    MPI_Reduce(&mine, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        assert(total == (size - 1) * size / 2);
",
    ..Server::EMPTY
};

const DEADLOCK_ORDER_BAD: Server = Server {
    header: "/* BUG: the server waits for one more message from rank 1 when rank 1's request
 * came last: a deadlock in that arrival order only (rank 1 named, W = the rest). */",
    locals: ", last = 0, req = 1",
    receive: "&req, 1, MPI_INT, MPI_ANY_SOURCE, 1",
    each: "            last = status.MPI_SOURCE;
",
    after_loop: "        if (last == 1)
            MPI_Recv(&req, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &status);
",
    worker: "#ifdef FORCE_LAST
        if (rank == 1)
            sleep(1);
#endif
        MPI_Send(&req, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
",
    ..Server::EMPTY
};

/// The server asserts the first message it takes has tag 1.
const FIRST_TAG_IS_ONE: &str = "            if (i == 1)
                assert(status.MPI_TAG == 1);
";

const NAMED_ORDER_BAD: Server = Server {
    header: "/* BUG: rank 2 (named by a literal, so not interchangeable) sends tag 2, the
 * others tag 1; the server asserts the first message has tag 1: violated when
 * rank 2 is first (admitted: W = the workers other than 2). */",
    locals: ", v = 0",
    receive: "&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG",
    each: FIRST_TAG_IS_ONE,
    after_loop: "    } else if (rank == 2) {
        MPI_Send(&v, 1, MPI_INT, 0, 2, MPI_COMM_WORLD);
",
    worker: "#ifdef FORCE_TWO_FIRST
        sleep(1);
#endif
        MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
",
    ..Server::EMPTY
};

const POINTER_LEAK_BAD: Server = Server {
    header: "/* BUG: the rank leaks through a pointer; the worker of rank 2 sends 99, which
 * the server's assertion rejects (refused: the address of the rank is taken). */",
    locals: ", v = 0, *p",
    before: "    p = &rank;
",
    receive: "&v, 1, MPI_INT, MPI_ANY_SOURCE, 1",
    each: "            assert(v != 99);
",
    worker: "        v = *p == 2 ? 99 : 1;
        MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
",
    ..Server::EMPTY
};

const BYTE_LEAK_BAD: Server = Server {
    header: "/* BUG: each worker sends the first byte of its rank as an MPI_BYTE (the whole
 * rank on a little-endian machine, ranks < 256); the server rejects rank 2's
 * (refused: the address of the rank is taken as a send buffer). */",
    locals: ";
    unsigned char b = 0",
    receive: "&b, 1, MPI_BYTE, MPI_ANY_SOURCE, 1",
    each: "            assert(b != 2);
",
    worker: "        MPI_Send(&rank, 1, MPI_BYTE, 0, 1, MPI_COMM_WORLD);
",
    ..Server::EMPTY
};

const ARITH_LEAK_BAD: Server = Server {
    header: "/* BUG: each worker sends 10 * rank; the server rejects 20 \
             (refused: arithmetic on the rank). */",
    locals: ", v = 0",
    receive: "&v, 1, MPI_INT, MPI_ANY_SOURCE, 1",
    each: "            assert(v != 20);
",
    worker: "        v = 10 * rank;
        MPI_Send(&v, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
",
    ..Server::EMPTY
};

const PARITY_ORDER_BAD: Server = Server {
    header: "/* BUG: odd workers send tag 1, even ones tag 2; the server asserts the first
 * message it takes has tag 1: violated when an even worker is first
 * (refused: the rank's parity is arithmetic). */",
    locals: ", v = 0",
    receive: "&v, 1, MPI_INT, MPI_ANY_SOURCE, MPI_ANY_TAG",
    each: FIRST_TAG_IS_ONE,
    worker: "#ifdef FORCE_EVEN_FIRST
        if (rank % 2 == 1)
            sleep(1);
#endif
        MPI_Send(&v, 1, MPI_INT, 0, rank % 2 == 1 ? 1 : 2, MPI_COMM_WORLD);
",
    ..Server::EMPTY
};

const FIRST_PARITY_BAD: Server = Server {
    header: "/* BUG: the server tells the first worker it served that it was first; that
 * worker asserts its rank is odd: violated when an even worker is served
 * first. (Refused: the rank's parity is arithmetic. A reduction that ignored
 * it would match \"worker 1 served first\" with \"worker 2 served first\".) */",
    locals: ", req = 0, first = 0",
    receive: "&req, 1, MPI_INT, MPI_ANY_SOURCE, 1",
    each: "            first = i == 1;
            MPI_Send(&first, 1, MPI_INT, status.MPI_SOURCE, 2, MPI_COMM_WORLD);
",
    worker: "#ifdef FORCE_EVEN_FIRST
        if (rank % 2 == 1)
            sleep(1);
#endif
        MPI_Send(&req, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        MPI_Recv(&first, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, &status);
        if (first)
            assert(rank % 2 == 1);
",
    ..Server::EMPTY
};

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
        let (full, reduced) = agree(&SERVER_OK.program(), procs, &[], ("holds", ""), Ok(()));
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
            &DEADLOCK_ORDER_BAD.program(),
            procs,
            &[],
            ("violated", "deadlock"),
            applied,
        );
    }
}

#[test]
fn a_rank_named_by_a_literal_is_left_out_and_its_order_violation_found() {
    let file = common::inline(&NAMED_ORDER_BAD.program());
    let (_, r) = run("5", &["--worker-symmetry"], &file);
    assert!(warning(&r).contains("ranks {1, 3, 4}"), "{r:#}");
    agree(
        &NAMED_ORDER_BAD.program(),
        "5",
        &[],
        ("violated", "assertion"),
        Ok(()),
    );
}

#[test]
fn a_rank_through_a_pointer_is_refused() {
    agree(
        &POINTER_LEAK_BAD.program(),
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
        &BYTE_LEAK_BAD.program(),
        "4",
        &[],
        ("violated", "mpi-type"),
        Err("the address of a rank variable"),
    );
}

#[test]
fn arithmetic_on_the_rank_is_refused() {
    agree(
        &ARITH_LEAK_BAD.program(),
        "4",
        &[],
        ("violated", "assertion"),
        Err("a rank value is used"),
    );
}

#[test]
fn parity_of_the_rank_is_refused() {
    agree(
        &PARITY_ORDER_BAD.program(),
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
        &FIRST_PARITY_BAD.program(),
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
    for (server, verdict) in [(SERVER_OK, "holds"), (DEADLOCK_ORDER_BAD, "violated")] {
        let file = common::inline(&server.program());
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
