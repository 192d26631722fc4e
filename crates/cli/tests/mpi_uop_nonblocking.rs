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

/// An associative operator that does not commute: `a op b = a`, so a
/// reduction in rank order gives rank 0's contribution (the reversed order
/// would give the last rank's). MPI requires associativity; the bracketing
/// is then free, and Open MPI's nonblocking reductions bracket differently
/// from its blocking ones (a non-associative subtraction gives different
/// results), which this operator cannot tell apart.
const FIRST: &str = "void first(void *in, void *inout, int *len, MPI_Datatype *t) {\n    \
                     int *u = in, *v = inout;\n    for (int i = 0; i < *len; i++)\n        \
                     v[i] = u[i];\n}";

/// `FIRST` takes 4 more lines than `program`'s one-line declarations.
const FIRST_LINE: u64 = BODY + 4;

fn three_reductions(between: &str, after: &str) -> String {
    let body = format!(
        "    MPI_Op op;\n    MPI_Op_create(first, 0, &op);\n    \
         int mine[3] = {{rank + 1, 10 * (rank + 1), 100 * (rank + 1)}}, got = 0, ex = 0, all = 0;\n    \
         int counts[3] = {{1, 1, 1}}, x = 0;\n    MPI_Request r[3];\n    \
         MPI_Ireduce_scatter(mine, &got, counts, MPI_INT, op, MPI_COMM_WORLD, &r[0]);\n    \
         MPI_Iexscan(mine, &ex, 1, MPI_INT, op, MPI_COMM_WORLD, &r[1]);\n    \
         MPI_Iallreduce(mine, &all, 1, MPI_INT, op, MPI_COMM_WORLD, &r[2]);\n    \
         MPI_Op_free(&op);\n    {between}\n    MPI_Waitall(3, r, MPI_STATUSES_IGNORE);\n    \
         assert(got == (rank == 0 ? 1 : rank == 1 ? 10 : 100));\n    \
         assert(rank == 0 || ex == 1);\n    assert(all == 1);\n    {after}\n    (void)x;"
    );
    program(FIRST, &body)
}

/// MPI_Ireduce_scatter, MPI_Iexscan and MPI_Iallreduce completed by one
/// MPI_Waitall; the operator freed between the calls and the wait still runs
/// (MPI_Op_free only marks it). mpirun -np 2 and 3 (both setups, ASan+UBSan):
/// exit 0; with `all == size` added: assertion failure.
#[test]
fn the_operator_runs_in_rank_order_at_the_wait() {
    for procs in ["2", "3"] {
        let good = three_reductions("", "");
        let (code, r) = verify_reduced(procs, &[], &common::inline(&good), true);
        assert_holds(code, &r);
        let bad = three_reductions("", "assert(all == size);");
        let (code, r) = verify_reduced(procs, &[], &common::inline(&bad), true);
        assert_violated(code, &r, "assertion", Some(FIRST_LINE + 14));
    }
}

/// Reading a receive buffer before the wait reads what MPI leaves undefined
/// until then (a real run reads 0 or a partial result).
#[test]
fn the_result_read_before_the_wait_is_reported() {
    let early = three_reductions("x = all;", "");
    let (code, r) = verify_reduced("2", &[], &common::inline(&early), true);
    assert_violated(code, &r, "invalid-pointer", Some(FIRST_LINE + 9));
}
