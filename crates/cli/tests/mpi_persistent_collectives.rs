//! Persistent collectives (MPI-4, issue 20): `MPI_Barrier_init`,
//! `MPI_Bcast_init`, `MPI_Reduce_init`, `MPI_Allreduce_init`,
//! `MPI_Gather_init`, `MPI_Scatter_init`, `MPI_Allgather_init`, started by
//! `MPI_Start(all)` as the nonblocking forms are posted, completed by the
//! waits and tests, freed by `MPI_Request_free`; on the fevs `mpi_pcoll_*`
//! programs and small inline ones.
//!
//! Every expected verdict was confirmed by running the program for real
//! under Open MPI 4.1.4, which has these calls as `MPIX_..._init` in
//! `<mpi-ext.h>` (the programs here were built with `-DMPI_Bcast_init=
//! MPIX_Bcast_init ...` and `-include mpi-ext.h`): `mpicc -g
//! -fsanitize=address,undefined` and `mpirun --allow-run-as-root
//! --oversubscribe -np N`, in the default mode and the zero-buffer one
//! (`--mca btl self,tcp --mca btl_tcp_eager_limit 56 --mca
//! btl_tcp_rndv_eager_limit 56`); each test says what the runs showed.

mod common;

use common::{assert_holds, assert_violated, fevs_mpi, program, verify, verify_reduced, BODY};

fn message(r: &serde_json::Value) -> String {
    r["violations"][0]["message"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

fn verify_fevs(procs: &str, extra: &[&str], name: &str) -> (i32, serde_json::Value) {
    let text = std::fs::read_to_string(fevs_mpi(name)).expect("read the fevs program");
    verify(procs, extra, &text)
}

/// fevs mpi_pcoll_ok.c: mpirun -np 3, both modes: exit 0, OUT total = 12.
#[test]
fn persistent_collectives_run_in_rounds() {
    let (code, r) = verify_fevs("3", &[], "mpi_pcoll_ok.c");
    assert_holds(code, &r);
    let (code, r) = verify_fevs("2", &["--deadlock", "potential"], "mpi_pcoll_ok.c");
    assert_holds(code, &r);
    let (code, r) = verify_reduced("3", &[], &fevs_mpi("mpi_pcoll_ok.c"), false);
    assert_holds(code, &r);
}

/// fevs mpi_pcoll_restart_bad.c: mpirun -np 2, both modes: the run aborts
/// (ASan: SEGV in Open MPI's libnbc progress).
#[test]
fn starting_an_active_persistent_collective_is_an_error() {
    let (code, r) = verify_fevs("2", &[], "mpi_pcoll_restart_bad.c");
    assert_violated(code, &r, "invalid-pointer", Some(38));
    assert!(message(&r).contains("active persistent request"), "{r:#}");
}

/// fevs mpi_pcoll_free_active_bad.c: mpirun -np 2, both modes: MPI_ERR_REQUEST,
/// exit 7.
#[test]
fn freeing_an_active_persistent_collective_is_an_error() {
    let (code, r) = verify_fevs("2", &[], "mpi_pcoll_free_active_bad.c");
    assert_violated(code, &r, "invalid-pointer", Some(33));
    assert!(message(&r).contains("persistent collective"), "{r:#}");
}

/// fevs mpi_pcoll_leak_bad.c: mpirun -np 2, both modes: exit 0 (no symptom).
#[test]
fn a_persistent_collective_never_freed_is_a_resource_leak() {
    let (code, r) = verify_fevs("2", &[], "mpi_pcoll_leak_bad.c");
    assert_violated(code, &r, "resource-leak", Some(27));
    assert!(message(&r).contains("MPI_Barrier_init"), "{r:#}");
}

/// fevs mpi_pcoll_root_bad.c: mpirun -np 3, both modes: the run hangs.
#[test]
fn persistent_broadcasts_with_different_roots_mismatch() {
    let (code, r) = verify_fevs("3", &[], "mpi_pcoll_root_bad.c");
    assert_violated(code, &r, "collective-mismatch", Some(34));
    assert!(message(&r).contains("root"), "{r:#}");
}

/// fevs mpi_pcoll_order_bad.c (a sum and a broadcast initialised in
/// different orders): mpirun -np 2, both modes: the run hangs.
#[test]
fn persistent_collectives_initialised_in_different_orders_mismatch() {
    let (code, r) = verify_fevs("2", &[], "mpi_pcoll_order_bad.c");
    assert_violated(code, &r, "collective-mismatch", Some(45));
    assert!(message(&r).contains("MPI_Allreduce_init"), "{r:#}");
}

/// The starts of persistent collectives need not be in the same order at
/// every member: MPI matched each at its init. mpirun -np 2, both modes:
/// exit 0.
#[test]
fn persistent_collectives_may_be_started_in_different_orders() {
    let text = program(
        "",
        "    int v = 0, mine, sum = 0;\n\
    MPI_Request bcast, total;\n\
    if (rank == 0) v = 3;\n\
    mine = rank;\n\
    MPI_Bcast_init(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &bcast);\n\
    MPI_Allreduce_init(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &total);\n\
    if (rank == 1) { MPI_Start(&total); MPI_Start(&bcast); }\n\
    else { MPI_Start(&bcast); MPI_Start(&total); }\n\
    MPI_Barrier(MPI_COMM_WORLD);\n\
    MPI_Wait(&bcast, MPI_STATUS_IGNORE);\n\
    MPI_Wait(&total, MPI_STATUS_IGNORE);\n\
    assert(v == 3 && sum == size * (size - 1) / 2);\n\
    MPI_Request_free(&bcast);\n\
    MPI_Request_free(&total);",
    );
    let (code, r) = verify("2", &[], &text);
    assert_holds(code, &r);
    let (code, r) = verify("3", &["--deadlock", "potential"], &text);
    assert_holds(code, &r);
}

/// Two persistent broadcasts initialised in different orders at the two
/// processes, each started and waited for in turn: MPI matches the first
/// init of one process with the first of the other, so each process waits
/// for a broadcast the other has not started. mpirun -np 2: default, rank
/// 1's assertion fails; zero-buffer, the run hangs.
#[test]
fn persistent_broadcasts_initialised_in_different_orders_deadlock() {
    let text = program(
        "",
        "    int a = 0, b = 0;\n\
    MPI_Request ra, rb;\n\
    if (rank == 0) { a = 1; b = 2; }\n\
    if (rank == 0) {\n\
        MPI_Bcast_init(&a, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &ra);\n\
        MPI_Bcast_init(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &rb);\n\
    } else {\n\
        MPI_Bcast_init(&b, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &rb);\n\
        MPI_Bcast_init(&a, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &ra);\n\
    }\n\
    MPI_Start(&ra);\n\
    MPI_Wait(&ra, MPI_STATUS_IGNORE);\n\
    MPI_Start(&rb);\n\
    MPI_Wait(&rb, MPI_STATUS_IGNORE);\n\
    assert(a == 1 && b == 2);\n\
    MPI_Request_free(&ra);\n\
    MPI_Request_free(&rb);",
    );
    let (code, r) = verify("2", &[], &text);
    assert_violated(code, &r, "deadlock", Some(BODY + 11));
    assert!(message(&r).contains("not yet started"), "{r:#}");
}

/// A started persistent broadcast does not match another process's
/// `MPI_Ibcast` (MPI-4: a persistent collective cannot be matched with a
/// blocking or nonblocking one): each waits for a partner that never comes.
/// mpirun -np 2, both modes: exit 0 (Open MPI 4.1 happens to pair them; the
/// program is erroneous all the same).
#[test]
fn a_started_persistent_collective_does_not_match_a_nonblocking_one() {
    let text = program(
        "",
        "    int a = 0;\n\
    MPI_Request r;\n\
    if (rank == 0) {\n\
        a = 4;\n\
        MPI_Bcast_init(&a, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r);\n\
        MPI_Start(&r);\n\
        MPI_Wait(&r, MPI_STATUS_IGNORE);\n\
        MPI_Request_free(&r);\n\
    } else {\n\
        MPI_Ibcast(&a, 1, MPI_INT, 0, MPI_COMM_WORLD, &r);\n\
        MPI_Wait(&r, MPI_STATUS_IGNORE);\n\
    }",
    );
    let (code, r) = verify("2", &[], &text);
    assert_violated(code, &r, "deadlock", None);
}

/// The result of a started persistent reduction is not there before its
/// wait: reading it early is an error, as for `MPI_Iallreduce`.
#[test]
fn reading_a_persistent_result_before_the_wait_is_an_error() {
    let text = program(
        "",
        "    int mine, sum = 0, early;\n\
    MPI_Request r;\n\
    mine = rank + 1;\n\
    MPI_Allreduce_init(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &r);\n\
    MPI_Start(&r);\n\
    early = sum;\n\
    MPI_Wait(&r, MPI_STATUS_IGNORE);\n\
    assert(sum == 3 && early >= 0);\n\
    MPI_Request_free(&r);",
    );
    let (code, r) = verify("2", &[], &text);
    assert_eq!(r["verdict"], "violated", "{r:#}");
    assert_eq!(code, 1);
    assert_eq!(r["violations"][0]["line"], BODY + 5, "{r:#}");
}

/// Gather, scatter and allgather inits, started together: every value
/// arrives where MPI says. mpirun -np 3, both modes: exit 0.
#[test]
fn persistent_gather_scatter_and_allgather_move_the_data() {
    let text = program(
        "",
        "    int mine, all[3] = {0, 0, 0}, each[3] = {0, 0, 0}, part = 0, src[3] = {7, 8, 9};\n\
    MPI_Request r[3];\n\
    mine = 10 * rank;\n\
    MPI_Gather_init(&mine, 1, MPI_INT, all, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r[0]);\n\
    MPI_Scatter_init(src, 1, MPI_INT, &part, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &r[1]);\n\
    MPI_Allgather_init(&mine, 1, MPI_INT, each, 1, MPI_INT, MPI_COMM_WORLD, MPI_INFO_NULL, &r[2]);\n\
    MPI_Startall(3, r);\n\
    MPI_Waitall(3, r, MPI_STATUSES_IGNORE);\n\
    if (rank == 0) assert(all[1] == 10 && all[2] == 20);\n\
    assert(part == 7 + rank && each[2] == 20 && each[0] == 0);\n\
    MPI_Request_free(&r[0]);\n\
    MPI_Request_free(&r[1]);\n\
    MPI_Request_free(&r[2]);",
    );
    let (code, r) = verify("3", &[], &text);
    assert_holds(code, &r);
}

/// A wait on a persistent collective before its first start returns at once
/// (an inactive request), as MPI says; a test says it is complete.
#[test]
fn a_wait_on_an_inactive_persistent_collective_returns_at_once() {
    let text = program(
        "",
        "    int flag = 0;\n\
    MPI_Request r;\n\
    MPI_Barrier_init(MPI_COMM_WORLD, MPI_INFO_NULL, &r);\n\
    MPI_Wait(&r, MPI_STATUS_IGNORE);\n\
    MPI_Test(&r, &flag, MPI_STATUS_IGNORE);\n\
    assert(flag == 1);\n\
    MPI_Start(&r);\n\
    MPI_Wait(&r, MPI_STATUS_IGNORE);\n\
    MPI_Request_free(&r);",
    );
    let (code, r) = verify("2", &[], &text);
    assert_holds(code, &r);
}

/// A pair datatype in a persistent reduction (`MPI_MAXLOC` on `MPI_2INT`).
/// mpirun -np 2, both modes: exit 0.
#[test]
fn a_persistent_maxloc_on_pairs_holds() {
    let text = program(
        "",
        "    int in[2], out[2] = {0, 0};\n\
    MPI_Request r;\n\
    in[0] = 5 - rank; in[1] = rank;\n\
    MPI_Allreduce_init(in, out, 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD, MPI_INFO_NULL, &r);\n\
    MPI_Start(&r);\n\
    MPI_Wait(&r, MPI_STATUS_IGNORE);\n\
    assert(out[0] == 5 && out[1] == 0);\n\
    MPI_Request_free(&r);",
    );
    let (code, r) = verify("2", &[], &text);
    assert_holds(code, &r);
}
