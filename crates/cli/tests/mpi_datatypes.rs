//! MPI tags and datatypes: invalid tags (`mpi-tag`), type signatures of
//! basic types, derived datatypes. Each program is a fevs program
//! (`fevs/mpi/mpi_dt_*.c`) whose expected verdict was confirmed with mpirun
//! (default and zero-buffer), as its header comment records.

mod common;

use std::path::PathBuf;
use std::process::Command;

use common::{assert_holds, assert_violated, report};
use serde_json::Value;

/// Runs `tass verify -n PROCS fevs/mpi/NAME --format json`.
fn verify_fevs(procs: &str, name: &str) -> (i32, Value) {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../fevs/mpi")
        .join(name);
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "-n", procs])
        .arg(&file)
        .args(["--format", "json"])
        .output()
        .expect("run tass");
    report(out)
}

#[test]
fn valid_tags_hold() {
    let (code, r) = verify_fevs("2", "mpi_dt_tag_ok.c");
    assert_holds(code, &r);
}

#[test]
fn a_negative_send_tag_is_reported_even_when_the_receive_agrees() {
    let (code, r) = verify_fevs("2", "mpi_dt_tag_negative.c");
    assert_violated(code, &r, "mpi-tag", Some(11));
}

#[test]
fn a_negative_receive_tag_other_than_any_tag_is_reported() {
    let (code, r) = verify_fevs("2", "mpi_dt_tag_irecv.c");
    assert_violated(code, &r, "mpi-tag", Some(14));
}

#[test]
fn a_tag_that_may_be_negative_for_some_input_is_reported() {
    let (code, r) = verify_fevs("2", "mpi_dt_tag_symbolic.c");
    assert_violated(code, &r, "mpi-tag", Some(17));
}

#[test]
fn matching_type_signatures_hold() {
    let (code, r) = verify_fevs("2", "mpi_dt_sig_ok.c");
    assert_holds(code, &r);
}

#[test]
fn a_float_received_as_an_int_is_a_type_mismatch() {
    let (code, r) = verify_fevs("2", "mpi_dt_sig_float_int.c");
    assert_violated(code, &r, "mpi-type", Some(18));
}

#[test]
fn a_long_received_as_an_int_is_a_type_mismatch() {
    let (code, r) = verify_fevs("2", "mpi_dt_sig_long_int.c");
    assert_violated(code, &r, "mpi-type", Some(17));
}

/// MBI's P2PDataMatching shape: the buffers are `int`s on both sides, but
/// rank 0 sends them as MPI_FLOAT (the datatype, not the buffer, is the type
/// signature); persistent and nonblocking calls carry the signature too.
/// OpenMPI checks no type signature (the MBI program runs to the end with
/// mpirun, the received int holding the float's bits), so the concrete
/// witness of this error is `mpi_dt_sig_float_int.c`'s failed assertion.
#[test]
fn the_datatype_not_the_buffer_makes_the_signature() {
    for (send, recv) in [
        ("MPI_Send(&b, 1, t, 1, 0, MPI_COMM_WORLD);", "MPI_Recv(&b, 1, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);"),
        ("MPI_Isend(&b, 1, t, 1, 0, MPI_COMM_WORLD, &q); MPI_Wait(&q, MPI_STATUS_IGNORE);", "MPI_Irecv(&b, 1, t, 0, 0, MPI_COMM_WORLD, &q); MPI_Wait(&q, MPI_STATUS_IGNORE);"),
        ("MPI_Send_init(&b, 1, t, 1, 0, MPI_COMM_WORLD, &q); MPI_Start(&q); MPI_Wait(&q, MPI_STATUS_IGNORE); MPI_Request_free(&q);", "MPI_Recv(&b, 1, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);"),
    ] {
        let body = format!(
            "    int b = rank; MPI_Request q; MPI_Datatype t = MPI_INT;\n    if (rank == 0) t = MPI_FLOAT;\n    \
             if (rank == 0) {{ {send} }} else if (rank == 1) {{ {recv} }}"
        );
        let (code, r) = common::verify("2", &[], &common::program("", &body));
        assert_violated(code, &r, "mpi-type", Some(common::BODY + 2));
    }
}
