//! Nonblocking reductions with a user operator (issue 20): the receive
//! buffer gets the last contribution at the wait, which then runs the user
//! function's calls in frames above it (rank order, as the blocking forms).
//!
//! Confirmed with Open MPI 4.1 (`mpicc -g -fsanitize=address,undefined`,
//! `mpirun --allow-run-as-root --oversubscribe -np 1/2/3`, default and with
//! `--mca btl self,tcp --mca btl_tcp_eager_limit 56 --mca
//! btl_tcp_rndv_eager_limit 56`), as each test says.

mod common;

use std::path::{Path, PathBuf};

use common::{assert_holds, assert_violated, program, verify_reduced, BODY};

fn fevs(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fevs/mpi")
        .join(name)
}

/// mpirun -np 1, 2, 3 (both setups, ASan+UBSan): exit 0.
#[test]
fn fevs_iallreduce_iscan_ireduce_with_a_noncommutative_operator_hold() {
    // Unreduced, np 3's MPI_Test loop makes millions of states: np 1, 2.
    for (procs, reduced) in [
        ("1", false),
        ("2", false),
        ("1", true),
        ("2", true),
        ("3", true),
    ] {
        {
            let path = fevs("mpi_uop_nonblocking_ok.c");
            let (code, r) = verify_reduced(procs, &[], &path, reduced);
            assert_holds(code, &r);
        }
    }
}

/// mpirun -np 1, 2, 3 (both setups): the assertion on MPI_Iscan's result fails.
#[test]
fn fevs_iscan_checked_as_exclusive_is_an_assertion_failure() {
    for procs in ["1", "2"] {
        let path = fevs("mpi_uop_nonblocking_bad.c");
        let (code, r) = verify_reduced(procs, &[], &path, true);
        assert_violated(code, &r, "assertion", Some(54));
    }
}

const SUBTRACT: &str = "void subtract(void *in, void *inout, int *len, MPI_Datatype *t) {\n    \
                        int *u = in, *v = inout;\n    for (int i = 0; i < *len; i++)\n        \
                        v[i] = u[i] - v[i];\n}";

/// `SUBTRACT` takes 4 more lines than `program`'s one-line declarations.
const FIRST: u64 = BODY + 4;

fn iallreduce(between: &str, after: &str) -> String {
    let body = format!(
        "    MPI_Op op;\n    MPI_Op_create(subtract, 0, &op);\n    \
         int mine = rank + 1, all = 0, x = 0;\n    MPI_Request r;\n    \
         MPI_Iallreduce(&mine, &all, 1, MPI_INT, op, MPI_COMM_WORLD, &r);\n    \
         MPI_Op_free(&op);\n    {between}\n    MPI_Wait(&r, MPI_STATUS_IGNORE);\n    \
         {after}\n    (void)x;"
    );
    program(SUBTRACT, &body)
}

/// The result is x0 - (x1 - (x2 ...)): -1 with 2 processes, 2 with 3; the
/// operator freed between the call and its wait still runs (MPI_Op_free only
/// marks it). mpirun -np 2 and 3 (both setups): exit 0 with these asserts,
/// assertion failure with `all == 1`.
#[test]
fn the_operator_runs_in_rank_order_at_the_wait() {
    for (procs, value) in [("2", -1), ("3", 2)] {
        let good = iallreduce("", &format!("assert(all == {value});"));
        let (code, r) = verify_reduced(procs, &[], &common::inline(&good), true);
        assert_holds(code, &r);
        let bad = iallreduce("", "assert(all == 1);");
        let (code, r) = verify_reduced(procs, &[], &common::inline(&bad), true);
        assert_violated(code, &r, "assertion", Some(FIRST + 8));
    }
}

/// Reading the receive buffer before the wait reads what MPI leaves
/// undefined until then (a real run reads 0 or a partial result).
#[test]
fn the_result_read_before_the_wait_is_reported() {
    let early = iallreduce("x = all;", "");
    let (code, r) = verify_reduced("2", &[], &common::inline(&early), true);
    assert_violated(code, &r, "invalid-pointer", Some(FIRST + 6));
}
