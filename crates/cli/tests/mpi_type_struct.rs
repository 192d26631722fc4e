//! `MPI_Type_create_struct` (issue 20): structs whose blocks all have one
//! basic datatype become a layout of that type; blocks of different basic
//! datatypes are refused by name.
//!
//! Confirmed with Open MPI 4.1 (`mpicc -g -fsanitize=address,undefined`,
//! `mpirun --allow-run-as-root --oversubscribe -np 2`, default and with
//! `--mca btl self,tcp --mca btl_tcp_eager_limit 56 --mca
//! btl_tcp_rndv_eager_limit 56`), as each test says.

mod common;

use std::path::{Path, PathBuf};

use common::{assert_holds, assert_violated, inline, verify_reduced};

fn fevs(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fevs/mpi")
        .join(name)
}

fn struct_variant(from: &str, to: &str) -> PathBuf {
    let text = std::fs::read_to_string(fevs("mpi_dt_struct_ok.c")).expect("fevs program");
    assert!(text.contains(from), "{from}");
    inline(&text.replace(from, to))
}

/// mpirun -np 2 (both setups): exit 0.
#[test]
fn fevs_struct_of_ints_sent_and_received_holds() {
    for reduced in [true, false] {
        let (code, r) = verify_reduced("2", &[], &fevs("mpi_dt_struct_ok.c"), reduced);
        assert_holds(code, &r);
    }
}

/// mpirun -np 2 (both setups): MPI_ERR_TYPE, the job aborts.
#[test]
fn fevs_uncommitted_struct_is_mpi_type() {
    let path = fevs("mpi_dt_struct_uncommitted_bad.c");
    let (code, r) = verify_reduced("2", &[], &path, true);
    assert_violated(code, &r, "mpi-type", Some(28));
}

/// Never freed: resource-leak (a real run exits 0). A second block at byte 8
/// leaves a hole at element 1: a record spans 4 ints, so two of them reach
/// past the 6 of `rec` (mpirun -np 2, both setups: ASan
/// stack-buffer-overflow on rank 0).
#[test]
fn struct_errors_are_reported() {
    let path = struct_variant("    MPI_Type_free(&record);\n", "");
    let (code, r) = verify_reduced("2", &[], &path, true);
    assert_violated(code, &r, "resource-leak", None);
    let holes = struct_variant(
        "MPI_Aint displs[2] = {0, sizeof(int)};",
        "MPI_Aint displs[2] = {0, 2 * sizeof(int)};",
    );
    let (code, r) = verify_reduced("2", &[], &holes, true);
    assert_violated(code, &r, "out-of-bounds", Some(25));
}

/// Blocks of different basic datatypes: a clear refusal naming the call.
#[test]
fn mixed_basic_datatypes_are_refused_by_name() {
    let path = struct_variant(
        "MPI_Datatype types[2] = {MPI_INT, MPI_INT}",
        "MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}",
    );
    let (code, r) = verify_reduced("2", &[], &path, true);
    assert_eq!(code, 2, "{r:#}");
    let message = r["error"].as_str().unwrap_or("");
    assert!(
        message.contains("MPI_Type_create_struct with blocks of different basic datatypes"),
        "{message}"
    );
    assert!(message.contains(":20:"), "{message}");
}

/// A displacement that is not a whole element, and MPI_DATATYPE_NULL in
/// the types: refused by name, and mpi-type (Open MPI: MPI_ERR_TYPE).
#[test]
fn odd_displacements_and_null_types() {
    let odd = struct_variant(
        "MPI_Aint displs[2] = {0, sizeof(int)};",
        "MPI_Aint displs[2] = {0, 2};",
    );
    let (code, r) = verify_reduced("2", &[], &odd, true);
    assert_eq!(code, 2, "{r:#}");
    let message = r["error"].as_str().unwrap_or("");
    assert!(message.contains("not a whole number"), "{message}");
    let null = struct_variant(
        "MPI_Datatype types[2] = {MPI_INT, MPI_INT}",
        "MPI_Datatype types[2] = {MPI_INT, MPI_DATATYPE_NULL}",
    );
    let (code, r) = verify_reduced("2", &[], &null, true);
    assert_violated(code, &r, "mpi-type", Some(20));
}
