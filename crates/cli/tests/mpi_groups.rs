//! End-to-end tests of issue 20, part B: groups and the communicators made
//! from them, Cartesian topologies, user operators and buffered sends, with
//! their checks (`resource-leak`, `invalid-pointer` on null or freed handles,
//! `mpi-rank`, `mpi-count`, `collective-mismatch`, `buffer-overflow` for a
//! buffered send that does not fit the attached buffer).
//!
//! The fevs programs `fevs/mpi/mpi_grp_*.c` are run as the manifest runs them;
//! each file's header records its mpirun runs (default and zero-buffer:
//! `--mca btl self,tcp --mca btl_tcp_eager_limit 56 --mca btl_tcp_rndv_eager_limit 56`).
//! The inline programs below say in their comments what mpirun did with them.

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::{assert_holds, assert_violated, program, report, verify, BODY};

/// Runs `tass verify -n PROCS EXTRA fevs/mpi/NAME --format json`.
fn fevs(procs: &str, extra: &[&str], name: &str) -> (i32, serde_json::Value) {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fevs/mpi")
        .join(name);
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "-n", procs])
        .args(extra)
        .arg(&file)
        .args(["--format", "json"])
        .output()
        .expect("run tass");
    report(out)
}

/// The line of `name` that carries the `BUG` comment in its code.
fn bug_line(name: &str) -> u64 {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fevs/mpi")
        .join(name);
    let text = std::fs::read_to_string(file).expect("read the program");
    let at = text
        .lines()
        .position(|l| l.contains("BUG") && !l.starts_with(" *") && !l.starts_with("/*"))
        .expect("a BUG comment in the code");
    at as u64 + 1
}

fn fevs_violated(procs: &str, name: &str, property: &str) {
    let (code, r) = fevs(procs, &[], name);
    assert_violated(code, &r, property, Some(bug_line(name)));
}

#[test]
fn groups_and_a_communicator_made_from_one_hold() {
    // mpirun -np 3 and -np 4, default and zero-buffer: exit 0.
    for procs in ["3", "4"] {
        let (code, r) = fevs(procs, &[], "mpi_grp_create_ok.c");
        assert_holds(code, &r);
    }
}

#[test]
fn group_errors_are_reported_where_they_happen() {
    // mpirun -np 3: MPI_ERR_RANK in MPI_Group_incl (exit non-zero).
    fevs_violated("3", "mpi_grp_incl_bad.c", "mpi-rank");
    // mpirun -np 3: MPI_ERR_COMM in MPI_Barrier on process 2.
    fevs_violated("3", "mpi_grp_comm_null.c", "invalid-pointer");
    // mpirun -np 2: MPI_ERR_GROUP in the second MPI_Group_free.
    fevs_violated("2", "mpi_grp_free_twice.c", "invalid-pointer");
}

#[test]
fn objects_never_freed_are_resource_leaks_at_the_call_that_made_them() {
    // Each runs to exit 0 under mpirun: a leak has no symptom in a run.
    fevs_violated("3", "mpi_grp_leak.c", "resource-leak");
    fevs_violated("3", "mpi_grp_comm_leak.c", "resource-leak");
    fevs_violated("3", "mpi_grp_cart_leak.c", "resource-leak");
    fevs_violated("2", "mpi_grp_op_leak.c", "resource-leak");
    // MPI_Comm_dup's result not freed (mpirun -np 2: exit 0).
    let dup = program(
        "",
        "    MPI_Comm lib;\n    MPI_Comm_dup(MPI_COMM_WORLD, &lib);\n    MPI_Barrier(lib);",
    );
    let (code, r) = verify("2", &[], &dup);
    assert_violated(code, &r, "resource-leak", Some(BODY + 1));
    let message = r["violations"][0]["message"].as_str().unwrap_or("");
    assert!(message.contains("MPI_Comm_free"), "{message}");
}

#[test]
fn disjoint_groups_make_one_communicator_each_and_overlapping_ones_are_a_mismatch() {
    // Rank 0 passes {0}, ranks 1 and 2 pass {1} (MPI 2.2 allows disjoint
    // groups): mpirun -np 3, default and zero-buffer: exit 0.
    let body = r#"    MPI_Group world, one;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int first = rank == 0 ? 0 : 1;
    MPI_Group_incl(world, 1, &first, &one);
    MPI_Comm c;
    MPI_Comm_create(MPI_COMM_WORLD, one, &c);
    if (c != MPI_COMM_NULL) {
        int n;
        MPI_Comm_size(c, &n);
        assert(n == 1);
        MPI_Comm_free(&c);
    }
    assert(rank == 2 ? c == MPI_COMM_NULL : 1);
    MPI_Group_free(&one);
    MPI_Group_free(&world);"#;
    let (code, r) = verify("3", &[], &program("", body));
    assert_holds(code, &r);
    // Rank 0 passes {0, 1}, rank 1 passes {1}: rank 0's communicator has 2
    // processes, rank 1's 1, and under mpirun -np 2 (default and zero-buffer)
    // the barrier on it hangs (timeout 20 s).
    let body = r#"    MPI_Group world, one;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int both[2] = {0, 1}, second = 1;
    if (rank == 0)
        MPI_Group_incl(world, 2, both, &one);
    else
        MPI_Group_incl(world, 1, &second, &one);
    MPI_Comm c;
    MPI_Comm_create(MPI_COMM_WORLD, one, &c);
    MPI_Barrier(c);
    MPI_Comm_free(&c);
    MPI_Group_free(&one);
    MPI_Group_free(&world);"#;
    let (code, r) = verify("2", &[], &program("", body));
    assert_violated(code, &r, "collective-mismatch", Some(BODY + 8));
}

#[test]
fn translated_ranks_dims_and_a_reversed_communicator_are_as_mpi_computes_them() {
    // mpirun -np 3, default and zero-buffer: exit 0 (every assertion holds).
    let body = r#"    int d2[2] = {0, 0}, d3[3] = {0, 3, 0}, d1[1] = {0};
    MPI_Dims_create(6, 2, d2);
    assert(d2[0] == 3 && d2[1] == 2);
    MPI_Dims_create(12, 3, d3);
    assert(d3[0] == 2 && d3[1] == 3 && d3[2] == 2);
    MPI_Dims_create(size, 1, d1);
    assert(d1[0] == size);
    MPI_Group world, rev;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int order[3] = {2, 1, 0};
    MPI_Group_incl(world, 3, order, &rev);
    int in[3] = {0, MPI_PROC_NULL, 2}, out[3];
    MPI_Group_translate_ranks(world, 3, in, rev, out);
    assert(out[0] == 2 && out[1] == MPI_PROC_NULL && out[2] == 0);
    MPI_Comm revcomm;
    MPI_Comm_create(MPI_COMM_WORLD, rev, &revcomm);
    int r;
    MPI_Comm_rank(revcomm, &r);
    assert(r == 2 - rank);
    MPI_Comm_free(&revcomm);
    MPI_Group_free(&rev);
    MPI_Group_free(&world);"#;
    let (code, r) = verify("3", &[], &program("", body));
    assert_holds(code, &r);
}

#[test]
fn cartesian_grids_hold_and_their_errors_are_reported() {
    // mpirun -np 4 and -np 6, default and zero-buffer: exit 0.
    for procs in ["4", "6"] {
        let (code, r) = fevs(procs, &[], "mpi_grp_cart_ok.c");
        assert_holds(code, &r);
    }
    // mpirun -np 3: the assertion fails on rank 0 (MPI_PROC_NULL neighbour).
    fevs_violated("3", "mpi_grp_cart_border.c", "assertion");
    // mpirun -np 2: MPI_ERR_ARG in MPI_Cart_rank.
    fevs_violated("2", "mpi_grp_cart_rank_bad.c", "mpi-rank");
    // mpirun -np 2: MPI_ERR_ARG in MPI_Cart_create.
    fevs_violated("2", "mpi_grp_cart_big.c", "mpi-count");
}

#[test]
fn buffered_sends_need_room_in_the_attached_buffer() {
    // mpirun -np 2, default and zero-buffer: exit 0.
    let (code, r) = fevs("2", &[], "mpi_grp_bsend_ok.c");
    assert_holds(code, &r);
    // mpirun -np 2 (default and zero-buffer): MPI_ERR_BUFFER.
    fevs_violated("2", "mpi_grp_bsend_small.c", "buffer-overflow");
    fevs_violated("2", "mpi_grp_bsend_none.c", "buffer-overflow");
    // Zero-buffer mpirun hangs in MPI_Buffer_detach; plain mpirun (eager) exits 0.
    fevs_violated("2", "mpi_grp_bsend_detach.c", "deadlock");
    let (code, r) = fevs("2", &["--deadlock", "absolute"], "mpi_grp_bsend_detach.c");
    assert_holds(code, &r);
}

#[test]
fn room_comes_back_when_a_buffered_message_is_received() {
    // Room for one 4000-int message; the second is sent only after the first
    // was received (the receiver's reply says so). mpirun -np 2, default and
    // zero-buffer: exit 0 (these messages are above Open MPI's eager limit,
    // so both go through the attached buffer).
    let body = r#"    int a[N] = {5}, ack = 0;
    int room = N * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
    if (rank == 0) {
        char *buffer = malloc(room), *back;
        MPI_Buffer_attach(buffer, room);
        MPI_Bsend(a, N, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(&ack, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Bsend(a, N, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Buffer_detach(&back, &room);
        free(back);
    } else if (rank == 1) {
        MPI_Recv(a, N, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(&ack, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        MPI_Recv(a, N, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(a[0] == 5);
    }"#;
    let prog = program("#include <stdlib.h>\n#define N 4000", body);
    let (code, r) = verify("2", &[], &prog);
    assert_holds(code, &r);
}

#[test]
fn a_second_attached_buffer_is_an_error() {
    // Open MPI's second MPI_Buffer_attach returns an error code (-30, not
    // MPI_SUCCESS) and keeps the first buffer (mpirun -np 1, printing the codes).
    let body = r#"    char *b1 = malloc(1000), *b2 = malloc(1000), *back;
    int n;
    MPI_Buffer_attach(b1, 1000);
    MPI_Buffer_attach(b2, 1000);
    MPI_Buffer_detach(&back, &n);
    free(b1);
    free(b2);"#;
    let (code, r) = verify("1", &[], &program("#include <stdlib.h>", body));
    assert_violated(code, &r, "invalid-pointer", Some(BODY + 3));
}

#[test]
fn user_operators_run_in_reductions_in_rank_order() {
    // mpirun -np 2, default and zero-buffer: exit 0.
    let (code, r) = fevs("2", &[], "mpi_grp_op_ok.c");
    assert_holds(code, &r);
    // mpirun -np 2: MPI_ERR_OP in MPI_Op_free(MPI_SUM).
    fevs_violated("2", "mpi_grp_op_free_builtin.c", "invalid-pointer");
    // A non-commutative operator in MPI_Allreduce and MPI_Reduce: mpirun -np
    // 2, 3, 4 (default and zero-buffer, ASan+UBSan): exit 0.
    for procs in ["1", "2", "3"] {
        let (code, r) = fevs(procs, &[], "mpi_uop_allreduce_ok.c");
        assert_holds(code, &r);
    }
    // The same expecting the reverse order: mpirun -np 2 (both modes):
    // the assertion fails.
    fevs_violated("2", "mpi_uop_order_bad.c", "assertion");
    fevs_violated("3", "mpi_uop_order_bad.c", "assertion");
    // MPI_Reduce_local, inoutbuf = inbuf op inoutbuf: mpirun -np 1 and 2:
    // exit 0, and the assertion failure for the reverse order.
    let (code, r) = fevs("1", &[], "mpi_uop_reduce_local_ok.c");
    assert_holds(code, &r);
    fevs_violated("1", "mpi_uop_reduce_local_bad.c", "assertion");
    // MPI_Scan and MPI_Exscan: mpirun -np 2, 3, 4 (both modes, ASan+UBSan):
    // exit 0; expecting Exscan to include the caller: assertion failure.
    for procs in ["1", "2", "3"] {
        let (code, r) = fevs(procs, &[], "mpi_uop_scan_ok.c");
        assert_holds(code, &r);
    }
    fevs_violated("2", "mpi_uop_scan_bad.c", "assertion");
    // MPI_Reduce_scatter: mpirun -np 1, 2, 3 (both modes, ASan+UBSan): exit 0;
    // expecting the reversed order: assertion failure at -np 2 and 3.
    for procs in ["1", "2", "3"] {
        let (code, r) = fevs(procs, &[], "mpi_uop_reduce_scatter_ok.c");
        assert_holds(code, &r);
    }
    fevs_violated("2", "mpi_uop_reduce_scatter_bad.c", "assertion");
}

#[test]
fn errors_in_and_around_user_operators_are_reported() {
    // mpirun -np 2 with ASan (default and zero-buffer): stack- or heap-buffer-
    // overflow in the user function (Open MPI passes either buffer as inoutvec).
    fevs_violated("2", "mpi_uop_overrun.c", "out-of-bounds");
    // mpirun -np 2 with ASan: heap-use-after-free (invec was MPI's buffer).
    fevs_violated("2", "mpi_uop_dangling.c", "invalid-pointer");
    // mpirun -np 2: exit 0 (Open MPI does not compare the operations).
    fevs_violated("2", "mpi_uop_mismatch.c", "collective-mismatch");
    // mpirun -np 2: SEGV at address 0 in MPI_Allreduce.
    fevs_violated("2", "mpi_uop_freed.c", "invalid-pointer");
}

#[test]
fn user_functions_with_heap_buffers_hold_and_a_leak_around_them_is_found() {
    // The user function mallocs and frees a scratch array; the buffers of
    // the reductions are heap blocks (the copies tass makes for the calls are
    // renumbered with the heap and freed at the last return). mpirun -np 2,
    // 3, 4 (ASan+UBSan): exit 0; without `free(g)`, LeakSanitizer reports it.
    let decls = "int *g;\nvoid add(void *in, void *inout, int *len, MPI_Datatype *t) {\n    \
                 int *a = in, *b = inout;\n    int *tmp = malloc(sizeof(int) * *len);\n    \
                 for (int i = 0; i < *len; i++) tmp[i] = a[i] + b[i];\n    \
                 for (int i = 0; i < *len; i++) b[i] = tmp[i];\n    free(tmp);\n}";
    let body = |free_g: &str| {
        format!(
            "    MPI_Op op;\n    MPI_Op_create(add, 1, &op);\n    \
             int *s = malloc(2 * sizeof(int)), *r = malloc(2 * sizeof(int));\n    \
             g = malloc(sizeof(int));\n    s[0] = rank; s[1] = 1;\n    \
             MPI_Allreduce(s, r, 2, MPI_INT, op, MPI_COMM_WORLD);\n    free(s);\n    \
             assert(r[1] == size && r[0] == size * (size - 1) / 2);\n    \
             s = malloc(2 * sizeof(int));\n    \
             MPI_Reduce(r, s, 2, MPI_INT, op, 0, MPI_COMM_WORLD);\n    \
             if (rank == 0) assert(s[1] == size * size);\n    \
             free(r); free(s);{free_g}\n    MPI_Op_free(&op);"
        )
    };
    let decls = format!("#include <stdlib.h>\n{decls}");
    for procs in ["2", "3"] {
        let (code, r) = verify(procs, &[], &program(&decls, &body(" free(g);")));
        assert_holds(code, &r);
    }
    let (code, r) = verify("2", &[], &program(&decls, &body("")));
    assert_violated(code, &r, "memory-leak", None);
}

#[test]
fn nonblocking_reductions_run_a_user_operator_at_the_wait() {
    // Issue 20: the user function runs at the wait (it was refused by name).
    // mpirun -np 2 and 3, default and zero-buffer (Open MPI 4.1, ASan+UBSan):
    // exit 0 with the asserts below; with `s == 99` instead: assertion failure.
    let decls = "void addone(void *in, void *inout, int *len, MPI_Datatype *t) {\n    \
                 int *a = in, *b = inout;\n    for (int i = 0; i < *len; i++)\n        \
                 b[i] += a[i] + 1;\n}";
    for (call, check) in [
        (
            "MPI_Request q;\n    MPI_Iallreduce(&rank, &s, 1, MPI_INT, op, MPI_COMM_WORLD, &q);\n    \
             MPI_Wait(&q, MPI_STATUS_IGNORE);",
            "assert(s == size * (size - 1) / 2 + size - 1);",
        ),
        (
            "MPI_Request q;\n    MPI_Ireduce(&rank, &s, 1, MPI_INT, op, 0, MPI_COMM_WORLD, &q);\n    \
             MPI_Wait(&q, MPI_STATUS_IGNORE);",
            "if (rank == 0) assert(s == size * (size - 1) / 2 + size - 1);",
        ),
    ] {
        let cases = [(check.to_string(), true), ("assert(s == 99);".into(), false)];
        for ((assertion, holds), procs) in cases.into_iter().zip(["2", "3"]) {
            let body = format!(
                "    MPI_Op op;\n    MPI_Op_create(addone, 1, &op);\n    int s = 0;\n    \
                 {call}\n    {assertion}\n    MPI_Op_free(&op);"
            );
            let (code, r) = verify(procs, &[], &program(decls, &body));
            if holds {
                assert_holds(code, &r);
            } else {
                assert_violated(code, &r, "assertion", None);
            }
        }
    }
}

#[test]
fn a_reduction_with_mpi_op_null_is_an_invalid_handle() {
    // mpirun -np 2, default and zero-buffer: MPI_ERR_OP, the job aborts
    // (blocking and nonblocking forms alike).
    let blocking = program(
        "",
        "    int s;\n    MPI_Allreduce(&rank, &s, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD);",
    );
    let (code, r) = verify("2", &[], &blocking);
    assert_violated(code, &r, "invalid-pointer", Some(BODY + 1));
    let nonblocking = program(
        "",
        "    int s;\n    MPI_Request q;\n    \
         MPI_Iallreduce(&rank, &s, 1, MPI_INT, MPI_OP_NULL, MPI_COMM_WORLD, &q);\n    \
         MPI_Wait(&q, MPI_STATUS_IGNORE);",
    );
    let (code, r) = verify("2", &[], &nonblocking);
    assert_violated(code, &r, "invalid-pointer", Some(BODY + 2));
}

#[test]
fn the_empty_group_makes_no_communicator() {
    // MPI_Group_incl of no rank gives MPI_GROUP_EMPTY; MPI_Comm_create on it
    // gives every process MPI_COMM_NULL (nothing to free). mpirun -np 2,
    // default and zero-buffer: exit 0.
    let body = r#"    MPI_Group world, none;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 0, 0, &none);
    assert(none == MPI_GROUP_EMPTY);
    int n;
    MPI_Group_size(none, &n);
    assert(n == 0);
    MPI_Comm c;
    MPI_Comm_create(MPI_COMM_WORLD, MPI_GROUP_EMPTY, &c);
    assert(c == MPI_COMM_NULL);
    MPI_Group_free(&world);"#;
    let (code, r) = verify("2", &[], &program("", body));
    assert_holds(code, &r);
}

#[test]
fn a_cast_to_mpi_user_function_passes_the_function() {
    // As MBI's programs and most codes write it; the user function may take
    // int pointers. mpirun -np 2 (default and zero-buffer): exit 0.
    let decls = "void add(int *in, int *inout, int *len, MPI_Datatype *t) {\n    \
                 for (int i = 0; i < *len; i++)\n        inout[i] += in[i];\n}";
    let body = "    MPI_Op op;\n    MPI_Op_create((MPI_User_function *)add, 1, &op);\n    \
                int s;\n    MPI_Allreduce(&rank, &s, 1, MPI_INT, op, MPI_COMM_WORLD);\n    \
                assert(s == 1);\n    MPI_Op_free(&op);";
    let (code, r) = verify("2", &[], &program(decls, body));
    assert_holds(code, &r);
    // A cast of something that is no function is refused, saying what to write.
    let body = "    MPI_Op op;\n    int x = 0;\n    \
                MPI_Op_create((MPI_User_function *)x, 1, &op);\n    MPI_Op_free(&op);";
    let (code, r) = verify("1", &[], &program("", body));
    assert_eq!(code, 2, "{r:#}");
    let message = r["error"].as_str().unwrap_or("");
    assert!(message.contains("MPI_User_function"), "{message}");
    assert!(message.contains("(MPI_User_function *)my_op"), "{message}");
    assert!(
        message.contains(&format!("prog.c:{}:", BODY + 2)),
        "{message}"
    );
}
