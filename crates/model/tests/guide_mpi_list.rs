//! The guide's list of supported MPI functions and constants is the one the
//! MPI description renders: it cannot drift from what tass declares. Run
//! `cargo xtask mpi-list` (which sets `TASS_WRITE_GUIDE_MPI_LIST=1`) to write
//! it after changing `crates/model/src/mpi.rs`.

use std::path::PathBuf;

use tass_model::api::mpi::{guide_list, GUIDE_LIST_BEGIN, GUIDE_LIST_END};

fn guide_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/guide.md")
}

/// The guide's text before the list (through the begin marker), the list, and
/// the text after it (from the end marker).
fn split(guide: &str) -> (&str, &str, &str) {
    let begin = guide
        .find(GUIDE_LIST_BEGIN)
        .expect("docs/guide.md has the mpi-list begin marker")
        + GUIDE_LIST_BEGIN.len()
        + 1;
    let end = guide[begin..]
        .find(GUIDE_LIST_END)
        .expect("docs/guide.md has the mpi-list end marker")
        + begin;
    (&guide[..begin], &guide[begin..end], &guide[end..])
}

#[test]
fn the_guides_mpi_list_is_the_one_the_description_renders() {
    let path = guide_path();
    let guide = std::fs::read_to_string(&path).expect("docs/guide.md is readable");
    let (before, list, after) = split(&guide);
    let rendered = guide_list();
    if std::env::var_os("TASS_WRITE_GUIDE_MPI_LIST").is_some() {
        if list != rendered {
            std::fs::write(&path, format!("{before}{rendered}{after}")).expect("write guide");
        }
        return;
    }
    assert_eq!(
        list, rendered,
        "docs/guide.md's MPI list differs from crates/model/src/mpi.rs: run `cargo xtask mpi-list`"
    );
}

#[test]
fn the_list_names_every_declared_function_once() {
    let rendered = guide_list();
    for d in tass_model::api::mpi::MPI_FUNCTIONS {
        let name = format!("`{}`", d.function.c_name());
        assert_eq!(rendered.matches(&name).count(), 1, "{name}");
    }
}
