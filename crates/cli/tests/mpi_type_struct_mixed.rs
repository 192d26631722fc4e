//! `MPI_Type_create_struct` mixing basic datatypes, and C structs as message
//! buffers (issue 20): elements are read and written at their C layout
//! positions, type signatures are matched element by element.
//!
//! Confirmed with Open MPI 4.1 (`mpicc -g -fsanitize=address,undefined`,
//! `ASAN_OPTIONS=detect_leaks=0 mpirun --allow-run-as-root --oversubscribe
//! -np 2`, default and with `--mca btl self,tcp --mca btl_tcp_eager_limit 56
//! --mca btl_tcp_rndv_eager_limit 56`), as each test says. Open MPI checks
//! no type signatures: a mismatch shows as wrong values (an assertion of
//! the program fails).

mod common;

use std::path::{Path, PathBuf};

use common::{assert_holds, assert_violated, inline, verify_reduced};

fn fevs(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fevs/mpi")
        .join(name)
}

/// `fevs/mpi/mpi_dt_struct_mixed_ok.c` with `from` replaced by `to`.
fn variant(from: &str, to: &str) -> PathBuf {
    variant_of(&[(from, to)])
}

/// `fevs/mpi/mpi_dt_struct_mixed_ok.c` with each `(from, to)` replaced.
fn variant_of(edits: &[(&str, &str)]) -> PathBuf {
    let mut text = std::fs::read_to_string(fevs("mpi_dt_struct_mixed_ok.c")).expect("fevs program");
    for (from, to) in edits {
        assert!(text.contains(from), "{from}");
        text = text.replace(from, to);
    }
    inline(&text)
}

const SEND: &str = "MPI_Send(p, 2, particle_type, 1, 0, MPI_COMM_WORLD);";
const RECV: &str = "MPI_Recv(p, 2, particle_type, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);";

fn message(r: &serde_json::Value) -> String {
    r["violations"][0]["message"]
        .as_str()
        .unwrap_or("")
        .to_string()
}

/// mpirun -np 2 (both setups): exit 0.
#[test]
fn fevs_struct_of_int_doubles_and_char_holds() {
    for reduced in [true, false] {
        let (code, r) = verify_reduced("2", &[], &fevs("mpi_dt_struct_mixed_ok.c"), reduced);
        assert_holds(code, &r);
    }
}

/// {int, double} received as {double, int}: mpi-type at the receive
/// (mpirun: rank 1's assertion fails, both setups).
#[test]
fn fevs_swapped_signature_is_mpi_type() {
    let path = fevs("mpi_dt_struct_mixed_bad.c");
    let (code, r) = verify_reduced("2", &[], &path, true);
    assert_violated(code, &r, "mpi-type", Some(48));
    assert!(message(&r).contains("sent as MPI_INT received as MPI_DOUBLE"));
}

/// The particles received as 16 MPI_INT (64 bytes, no truncation): element
/// 1 was sent as MPI_DOUBLE, mpi-type (mpirun: the assertion fails).
#[test]
fn struct_received_as_ints_is_mpi_type() {
    let path = variant(RECV, &RECV.replace("p, 2, particle_type", "p, 16, MPI_INT"));
    let (code, r) = verify_reduced("2", &[], &path, true);
    assert_violated(code, &r, "mpi-type", Some(46));
    assert!(
        message(&r).contains("sent as MPI_DOUBLE"),
        "{}",
        message(&r)
    );
}

/// A displacement that does not match the C layout (pos declared at byte 4,
/// where the int's bytes and padding are): mpi-type at the send (mpirun:
/// the bytes are moved without complaint and the assertion fails).
#[test]
fn displacements_off_the_c_layout_are_mpi_type() {
    let path = variant(
        "offsetof(struct particle, pos),",
        "offsetof(struct particle, id) + 4,",
    );
    let (code, r) = verify_reduced("2", &[], &path, true);
    assert_violated(code, &r, "mpi-type", Some(44));
    assert!(
        message(&r).contains("where no double starts"),
        "{}",
        message(&r)
    );
}

/// Three particles from an array of two: out-of-bounds (mpirun: ASan
/// stack-buffer-overflow on rank 0). Two received into room for one:
/// buffer-overflow (mpirun: MPI_ERR_TRUNCATE).
#[test]
fn overrun_and_truncation_are_reported() {
    let over = variant(SEND, &SEND.replace("p, 2,", "p, 3,"));
    let (code, r) = verify_reduced("2", &[], &over, true);
    assert_violated(code, &r, "out-of-bounds", Some(44));
    let truncated = variant(RECV, &RECV.replace("p, 2,", "p, 1,"));
    let (code, r) = verify_reduced("2", &[], &truncated, true);
    assert_violated(code, &r, "buffer-overflow", Some(46));
}

/// MPI_Get_count with the struct datatype counts particles (mpirun: exit 0).
#[test]
fn get_count_counts_structs() {
    let path = variant(
        RECV,
        "MPI_Status st; int n; MPI_Recv(p, 2, particle_type, 0, 0, MPI_COMM_WORLD, &st); \
         MPI_Get_count(&st, particle_type, &n); assert(n == 2);",
    );
    let (code, r) = verify_reduced("2", &[], &path, true);
    assert_holds(code, &r);
}

/// Both ranks exchange particles with MPI_Sendrecv (mpirun: exit 0), and a
/// wrong expectation of what arrives is found (mpirun: the assertion fails).
#[test]
fn sendrecv_moves_structs_both_ways() {
    let exchange = "struct particle q[2]; int peer = 1 - rank; \
        for (int i = 0; i < 2; i++) { p[i].id = rank; p[i].pos[0] = rank; p[i].pos[1] = 1; p[i].tag = 'x'; } \
        MPI_Sendrecv(p, 2, particle_type, peer, 0, q, 2, particle_type, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); \
        assert(q[1].id == peer && q[1].pos[0] == peer && q[1].tag == 'x'); \
        if (0) {";
    let only_the_exchange = ("} else if (rank == 1) {", "} else if (0) {");
    let path = variant_of(&[("if (rank == 0) {", exchange), only_the_exchange]);
    let (code, r) = verify_reduced("2", &[], &path, true);
    assert_holds(code, &r);
    let wrong_expectation = exchange.replace("q[1].id == peer", "q[1].id == rank");
    let wrong = variant_of(&[("if (rank == 0) {", &wrong_expectation), only_the_exchange]);
    let (code, r) = verify_reduced("2", &[], &wrong, true);
    assert_violated(code, &r, "assertion", None);
    // Send and receive buffers in one object: their overlap is not checked
    // for struct datatypes, so it is refused by name.
    let one_object = exchange.replace("peer, 0, q, 2,", "peer, 0, p + 1, 1,");
    let path = variant_of(&[("if (rank == 0) {", &one_object), only_the_exchange]);
    let (code, r) = verify_reduced("2", &[], &path, true);
    assert_eq!(code, 2, "{r:#}");
    let error = r["error"].as_str().unwrap_or("");
    assert!(
        error.contains("MPI_Sendrecv with a struct datatype"),
        "{error}"
    );
}

/// A struct datatype of one basic type over a C struct buffer (a heap array
/// of struct {int a; int b;}): moved field by field, received as a struct
/// and as plain MPI_INT (the same type signature); MPI_DOUBLE sent into it
/// is mpi-type (mpirun: exit 0 for the first two; MPI_ERR_TRUNCATE for the
/// doubles, which are also longer).
#[test]
fn struct_buffers_of_one_basic_type() {
    let program = r#"
#include <mpi.h>
#include <assert.h>
#include <stddef.h>
#include <stdlib.h>
struct pt { int a; int b; };
int main(int argc, char *argv[]) {
    int rank;
    int lengths[2] = {1, 1};
    MPI_Aint displs[2] = {offsetof(struct pt, a), offsetof(struct pt, b)};
    MPI_Datatype types[2] = {MPI_INT, MPI_INT}, t;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_create_struct(2, lengths, displs, types, &t);
    MPI_Type_commit(&t);
    struct pt *s = malloc(2 * sizeof(struct pt));
    if (rank == 0) {
        s[0].a = 1; s[0].b = 2; s[1].a = 3; s[1].b = 4;
        SEND;
    } else if (rank == 1) {
        RECEIVE;
    }
    free(s);
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
"#;
    let send = "MPI_Send(s, 2, t, 1, 0, MPI_COMM_WORLD)";
    let receive = "MPI_Recv(s, 2, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); \
                   assert(s[0].a == 1 && s[1].b == 4)";
    let as_ints = "int v[4]; MPI_Recv(v, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); \
                   assert(v[0] == 1 && v[3] == 4)";
    let doubles = "double v[4] = {1, 2, 3, 4}; MPI_Send(v, 4, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD)";
    let build = |s: &str, r: &str| inline(&program.replace("SEND", s).replace("RECEIVE", r));
    for (s, r) in [(send, receive), (send, as_ints)] {
        let (code, report) = verify_reduced("2", &[], &build(s, r), true);
        assert_holds(code, &report);
    }
    let (code, report) = verify_reduced("2", &[], &build(doubles, receive), true);
    assert_violated(code, &report, "mpi-type", Some(21));
}

/// Uses tass does not model yet are refused by name: MPI_Isend of a struct
/// datatype of mixed basic types.
#[test]
fn nonblocking_sends_of_mixed_structs_are_refused_by_name() {
    let path = variant(
        SEND,
        "MPI_Request q; MPI_Isend(p, 2, particle_type, 1, 0, MPI_COMM_WORLD, &q); \
         MPI_Wait(&q, MPI_STATUS_IGNORE);",
    );
    let (code, r) = verify_reduced("2", &[], &path, true);
    assert_eq!(code, 2, "{r:#}");
    let error = r["error"].as_str().unwrap_or("");
    assert!(
        error.contains("struct datatype of mixed basic types") && error.contains("MPI_Isend"),
        "{error}"
    );
    assert!(error.contains(":44:"), "{error}");
}

/// A derived datatype of two ints given a pointer to a struct's first field
/// moves the whole struct {int a; int b;} (mpirun: exit 0; tass said
/// out-of-bounds before, a false alarm); from its second field it reaches
/// past the struct (mpirun: ASan stack-buffer-overflow on rank 0).
#[test]
fn a_pointer_to_a_struct_field_spans_the_struct() {
    let program = r#"
#include <mpi.h>
#include <assert.h>
struct pt { int a; int b; };
int main(int argc, char *argv[]) {
    int rank;
    struct pt s = {0, 0};
    MPI_Datatype t;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Type_contiguous(2, MPI_INT, &t);
    MPI_Type_commit(&t);
    if (rank == 0) {
        s.a = 1; s.b = 2;
        MPI_Send(&s.a, 1, t, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&s.a, 1, t, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(s.a == 1 && s.b == 2);
    }
    MPI_Type_free(&t);
    MPI_Finalize();
    return 0;
}
"#;
    let (code, r) = verify_reduced("2", &[], &inline(program), true);
    assert_holds(code, &r);
    let past = program.replace("MPI_Send(&s.a", "MPI_Send(&s.b");
    let (code, r) = verify_reduced("2", &[], &inline(&past), true);
    assert_violated(code, &r, "out-of-bounds", Some(15));
}
