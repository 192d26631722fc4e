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
