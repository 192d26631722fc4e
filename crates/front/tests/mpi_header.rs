//! The `<mpi.h>` the front end gives programs is consistent with the model's
//! MPI functions: the nonblocking collectives are their blocking forms plus a
//! request, and the collectives name their parameters with the roles the
//! engine reads them by (send and receive buffers, counts, displacements,
//! types, operation, root, communicator).

use tass_front::api::builtin_header;
use tass_model::api::LibraryFunction;

/// The prototype of `name` in `<mpi.h>`: its parameters as (type, name).
fn prototype(header: &str, name: &str) -> Option<Vec<(String, String)>> {
    let line = header.lines().find(|l| {
        l.split_once('(')
            .is_some_and(|(head, _)| head.rsplit(' ').next() == Some(name))
    })?;
    let params = line.split_once('(')?.1.strip_suffix(");")?;
    if params == "void" {
        return Some(vec![]);
    }
    Some(
        params
            .split(", ")
            .map(|p| {
                let at = p.rfind([' ', '*']).map_or(0, |i| i + 1);
                (p[..at].trim().to_string(), p[at..].to_string())
            })
            .collect(),
    )
}

/// `MPI_Ibcast` -> `MPI_Bcast`.
fn blocking_form(nonblocking: &str) -> String {
    let rest = &nonblocking["MPI_I".len()..];
    let mut chars = rest.chars();
    let first = chars.next().map(|c| c.to_ascii_uppercase());
    format!("MPI_{}{}", first.unwrap_or_default(), chars.as_str())
}

fn mpi_h() -> &'static str {
    builtin_header("mpi.h").expect("tass has an <mpi.h>")
}

#[test]
fn nonblocking_collectives_are_their_blocking_forms_plus_a_request() {
    let header = mpi_h();
    let nonblocking: Vec<_> = LibraryFunction::ALL
        .iter()
        .filter(|f| f.is_nonblocking_collective())
        .collect();
    assert_eq!(nonblocking.len(), 15);
    for f in nonblocking {
        let name = f.c_name();
        let blocking_name = blocking_form(name);
        let blocking = LibraryFunction::from_c_name(&blocking_name)
            .unwrap_or_else(|| panic!("{name} has no blocking form {blocking_name}"));
        assert!(!blocking.is_nonblocking_collective(), "{blocking_name}");
        let mut expected = prototype(header, &blocking_name).expect("a prototype");
        expected.push(("MPI_Request *".into(), "request".into()));
        assert_eq!(prototype(header, name), Some(expected), "{name}");
    }
}

#[test]
fn collectives_name_their_parameters_by_role_and_end_with_the_communicator() {
    // The engine finds a collective's arguments by position; these names are
    // the roles those positions stand for.
    let roles = [
        "buf",
        "sendbuf",
        "recvbuf",
        "count",
        "sendcount",
        "recvcount",
        "sendcounts",
        "recvcounts",
        "displs",
        "sdispls",
        "rdispls",
        "datatype",
        "sendtype",
        "recvtype",
        "op",
        "root",
        "comm",
    ];
    let header = mpi_h();
    let blocking_collectives = LibraryFunction::ALL
        .iter()
        .filter(|f| f.is_nonblocking_collective())
        .map(|f| blocking_form(f.c_name()));
    for name in blocking_collectives {
        let params = prototype(header, &name).expect("a prototype");
        let last = params.last().expect("a communicator");
        assert_eq!(
            (last.0.as_str(), last.1.as_str()),
            ("MPI_Comm", "comm"),
            "{name}"
        );
        for (_, param) in &params {
            assert!(roles.contains(&param.as_str()), "{name}: `{param}`");
        }
    }
}
