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

#[test]
fn derived_datatypes_used_correctly_hold() {
    let (code, r) = verify_fevs("2", "mpi_dt_contig_ok.c");
    assert_holds(code, &r);
}

#[test]
fn an_uncommitted_datatype_is_reported() {
    let (code, r) = verify_fevs("2", "mpi_dt_uncommitted.c");
    assert_violated(code, &r, "mpi-type", Some(14));
}

#[test]
fn a_freed_datatype_is_reported() {
    let (code, r) = verify_fevs("2", "mpi_dt_freed.c");
    assert_violated(code, &r, "mpi-type", Some(16));
}

#[test]
fn a_datatype_never_freed_is_a_resource_leak() {
    let (code, r) = verify_fevs("2", "mpi_dt_leak.c");
    assert_violated(code, &r, "resource-leak", Some(21));
}

#[test]
fn a_derived_signature_mismatch_is_reported() {
    let (code, r) = verify_fevs("2", "mpi_dt_contig_mismatch.c");
    assert_violated(code, &r, "mpi-type", Some(20));
}

/// MBI's P2PDatatypeNull shape: MPI_DATATYPE_NULL on both sides. OpenMPI
/// aborts with MPI_ERR_TYPE (as for `mpi_dt_freed.c`, whose handle is null).
#[test]
fn the_null_datatype_is_reported() {
    let body = "    int b = 1;\n    if (rank == 0) MPI_Send(&b, 1, MPI_DATATYPE_NULL, 1, 0, MPI_COMM_WORLD);\n    \
                else if (rank == 1) MPI_Recv(&b, 1, MPI_DATATYPE_NULL, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);";
    let (code, r) = common::verify("2", &[], &common::program("", body));
    assert_violated(code, &r, "mpi-type", Some(common::BODY + 1));
}

/// Freeing twice, freeing a predefined datatype: `mpi-type`.
#[test]
fn freeing_twice_or_a_predefined_datatype_is_reported() {
    for (body, line) in [
        (
            "    MPI_Datatype t, u;\n    MPI_Type_contiguous(2, MPI_INT, &t);\n    u = t;\n    \
             MPI_Type_free(&t);\n    MPI_Type_free(&u);",
            common::BODY + 4,
        ),
        (
            "    MPI_Datatype t = MPI_INT;\n    MPI_Type_free(&t);",
            common::BODY + 1,
        ),
    ] {
        let (code, r) = common::verify("1", &[], &common::program("", body));
        assert_violated(code, &r, "mpi-type", Some(line));
    }
}

/// A layout with holes in a receive, and a derived datatype in a
/// collective, are clear refusals naming what is missing.
#[test]
fn unsupported_uses_of_derived_datatypes_are_refused_clearly() {
    let holes = "    int a[4] = {0};\n    MPI_Datatype t;\n    MPI_Type_vector(2, 1, 2, MPI_INT, &t);\n    \
                 MPI_Type_commit(&t);\n    MPI_Request q;\n    MPI_Irecv(a, 1, t, 0, 0, MPI_COMM_WORLD, &q);";
    common::assert_refused(
        &common::program("", holes),
        "derived datatype with holes",
        common::BODY + 5,
    );
    let collective =
        "    int a[2] = {0};\n    MPI_Datatype t;\n    MPI_Type_contiguous(2, MPI_INT, &t);\n    \
                      MPI_Type_commit(&t);\n    MPI_Bcast(a, 1, t, 0, MPI_COMM_WORLD);";
    common::assert_refused(
        &common::program("", collective),
        "derived datatype",
        common::BODY + 4,
    );
}

#[test]
fn a_vector_type_sends_the_elements_its_layout_selects() {
    let (code, r) = verify_fevs("2", "mpi_dt_vector_column.c");
    assert_holds(code, &r);
}

#[test]
fn a_vector_type_reaching_past_the_buffer_is_out_of_bounds() {
    let (code, r) = verify_fevs("2", "mpi_dt_vector_overrun.c");
    assert_violated(code, &r, "out-of-bounds", Some(21));
}

#[test]
fn an_indexed_type_sends_its_blocks_and_has_its_extent() {
    let (code, r) = verify_fevs("2", "mpi_dt_indexed.c");
    assert_holds(code, &r);
    // The same program expecting a wrong element is violated: the holds
    // above is not vacuous.
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../fevs/mpi/mpi_dt_indexed.c");
    let text = std::fs::read_to_string(path).expect("read the fevs program");
    let wrong = text.replace("b[2] == 4", "b[2] == 2");
    let (code, r) = common::verify("2", &[], &wrong);
    assert_violated(code, &r, "assertion", Some(25));
}
