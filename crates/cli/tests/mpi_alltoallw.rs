//! `MPI_Alltoallw` (issue 20): run as `MPI_Alltoallv` when each side names
//! one basic datatype for every peer, its byte displacements turned into
//! element offsets; anything else is refused by name.
//!
//! Confirmed with Open MPI 4.1 (`mpicc -g -fsanitize=address,undefined`,
//! `mpirun --allow-run-as-root --oversubscribe -np 1/2/3`, default and with
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

/// mpirun -np 1, 2, 3 (both setups): exit 0, total = 0, 22, 99.
#[test]
fn fevs_alltoallw_with_byte_displacements_holds() {
    for procs in ["1", "2", "3"] {
        for reduced in [true, false] {
            let (code, r) = verify_reduced(procs, &[], &fevs("mpi_alltoallw_ok.c"), reduced);
            assert_holds(code, &r);
        }
    }
}

/// mpirun -np 2 and 3 (both setups): the assertion on the received values fails.
#[test]
fn fevs_overlapping_receive_blocks_are_mpi_count() {
    let (code, r) = verify_reduced("3", &[], &fevs("mpi_alltoallw_overlap_bad.c"), true);
    assert_violated(code, &r, "mpi-count", Some(27));
}

/// Different datatypes for different peers: a clear refusal at the call.
#[test]
fn different_datatypes_per_peer_are_refused_by_name() {
    let text = fevs("mpi_alltoallw_ok.c");
    let text = std::fs::read_to_string(text).expect("fevs program");
    let mixed = text.replace(
        "stypes[j] = rtypes[j] = MPI_INT;",
        "stypes[j] = rtypes[j] = j == 0 ? MPI_INT : MPI_FLOAT;",
    );
    let (code, r) = verify_reduced("2", &[], &inline(&mixed), true);
    assert_eq!(code, 2, "{r:#}");
    let message = r["error"].as_str().unwrap_or("");
    assert!(
        message.contains("MPI_Alltoallw with different datatypes"),
        "{message}"
    );
}
