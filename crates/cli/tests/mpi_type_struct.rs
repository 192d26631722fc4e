//! `MPI_Type_create_struct` (issue 20): structs whose blocks all have one
//! basic datatype become a layout of that type (structs mixing basic
//! datatypes: `mpi_type_struct_mixed.rs`).
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

/// A displacement that is not a whole element (an int at byte 2 of an int
/// array: no int starts there, the datatype does not describe the buffer),
/// and MPI_DATATYPE_NULL in the types: mpi-type. Open MPI copies the
/// misaligned bytes without complaint (mpirun -np 2: rank 1's assertion
/// fails) and aborts with MPI_ERR_TYPE on the null type.
#[test]
fn odd_displacements_and_null_types() {
    let odd = struct_variant(
        "MPI_Aint displs[2] = {0, sizeof(int)};",
        "MPI_Aint displs[2] = {0, 2};",
    );
    let (code, r) = verify_reduced("2", &[], &odd, true);
    assert_violated(code, &r, "mpi-type", Some(25));
    let message = r["violations"][0]["message"].as_str().unwrap_or("");
    assert!(message.contains("where no int starts"), "{message}");
    let null = struct_variant(
        "MPI_Datatype types[2] = {MPI_INT, MPI_INT}",
        "MPI_Datatype types[2] = {MPI_INT, MPI_DATATYPE_NULL}",
    );
    let (code, r) = verify_reduced("2", &[], &null, true);
    assert_violated(code, &r, "mpi-type", Some(20));
}

/// MPI_Get_count with a derived datatype counts whole items: 2 records of 3
/// ints are 2, not 6 (mpirun -np 2, both setups: exit 0 with `n == 2`; with
/// `n == 6` the assertion fails).
#[test]
fn get_count_of_a_derived_datatype_counts_items() {
    let recv = "MPI_Recv(rec, 2, record, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);";
    for (n, holds) in [(2, true), (6, false)] {
        let path = struct_variant(
            recv,
            &format!(
                "MPI_Status st; int n; MPI_Recv(rec, 2, record, 0, 0, MPI_COMM_WORLD, &st); \
                 MPI_Get_count(&st, record, &n); assert(n == {n});"
            ),
        );
        let (code, r) = verify_reduced("2", &[], &path, true);
        if holds {
            assert_holds(code, &r);
        } else {
            assert_violated(code, &r, "assertion", Some(28));
        }
    }
}
