//! `MPI_Get_address`, `MPI_Aint_add`, `MPI_Aint_diff` (issue 20): an
//! object's address is an unknown, a place's address is that unknown plus
//! its byte offset, so differences inside one object are concrete and
//! everything about placement itself stays open.
//!
//! Confirmed with Open MPI 4.1 (`mpicc -g -fsanitize=address,undefined`,
//! `ASAN_OPTIONS=detect_leaks=0 mpirun --allow-run-as-root --oversubscribe
//! -np 2`, default and with `--mca btl self,tcp --mca btl_tcp_eager_limit 56
//! --mca btl_tcp_rndv_eager_limit 56`), as each test says.

mod common;

use common::{
    assert_holds, assert_refused, assert_violated, fevs_mpi, program, verify, verify_reduced, BODY,
};

/// A helper builds {MPI_INT, 2 x MPI_DOUBLE, MPI_CHAR} from the addresses of
/// a local struct's fields; rank 0 sends a record, rank 1 checks it
/// (mpirun -np 2, both setups: exit 0).
#[test]
fn fevs_displacements_from_addresses_hold() {
    for reduced in [true, false] {
        let (code, r) = verify_reduced("2", &[], &fevs_mpi("mpi_get_address_ok.c"), reduced);
        assert_holds(code, &r);
    }
}

/// `tag`'s displacement taken from `pos` instead of the struct: an MPI_CHAR
/// inside a double, mpi-type at the send (mpirun, both setups: rank 1's
/// assertion fails, rc 134).
#[test]
fn fevs_displacement_from_the_wrong_base_is_a_type_error() {
    for reduced in [true, false] {
        let (code, r) = verify_reduced("2", &[], &fevs_mpi("mpi_get_address_bad.c"), reduced);
        assert_violated(code, &r, "mpi-type", Some(53));
        let message = r["violations"][0]["message"].as_str().unwrap_or("");
        assert!(message.contains("MPI_CHAR at byte 16"), "{message}");
    }
}

/// Addresses inside one object differ by byte offsets, a symbolic index
/// included; two live objects never share an address; `MPI_Aint_add` and
/// `MPI_Aint_diff` are integer arithmetic. (mpirun -np 2 of the same
/// assertions, -O0 and -O2, with and without ASan+UBSan: exit 0.)
#[test]
fn differences_inside_an_object_are_its_byte_offsets() {
    let body = "    int u = 1, v = 2, arr[5] = {0};
    MPI_Aint a, b, base, e;
    MPI_Get_address(&u, &a);
    MPI_Get_address(&v, &b);
    assert(a != b);
    assert(MPI_Aint_diff(MPI_Aint_add(a, 4), a) == 4);
    MPI_Get_address(arr, &base);
    for (int i = 0; i < 5; i++) {
        MPI_Get_address(&arr[i], &e);
        assert(e - base == 4 * i);
    }";
    let (code, r) = verify("2", &[], &program("", body));
    assert_holds(code, &r);
}

/// Which of two objects lies first is the compiler's choice: mpirun -np 1 of
/// `printf("%d", a < b)` prints 0 built with `mpicc -O0` and 1 with
/// `-O0 -fsanitize=address`, so an assertion about it can fail.
#[test]
fn the_order_of_two_objects_is_open() {
    let body = "    int u = 1, v = 2;
    MPI_Aint a, b;
    MPI_Get_address(&u, &a);
    MPI_Get_address(&v, &b);
    assert(a < b);";
    let (code, r) = verify("1", &[], &program("", body));
    assert_violated(code, &r, "assertion", Some(BODY + 4));
}

/// A local of a function called twice may lie at the same place both times or
/// not: built with `mpicc -O2`, `w1 == w2` is 1; with `-O2
/// -fsanitize=address` (its stack frames are heap blocks) it is 0. tass
/// gives each lifetime its own unknown.
#[test]
fn each_lifetime_of_a_local_gets_its_own_address() {
    let decls = "static MPI_Aint where(void) {
    int x = 0;
    MPI_Aint a;
    MPI_Get_address(&x, &a);
    return a;
}";
    let body = "    MPI_Aint w1 = where();
    MPI_Aint w2 = where();
    assert(w1 == w2);";
    let (code, r) = verify("1", &[], &program(decls, body));
    assert_violated(code, &r, "assertion", Some(BODY + 7));
}

/// Absolute addresses as displacements (no MPI_Aint_diff; MPI_BOTTOM-style
/// use, which tass does not model): refused by name, exit 2.
#[test]
fn a_displacement_that_depends_on_placement_is_refused() {
    let body = "    struct { int i; double d; } s;
    MPI_Aint displs[2];
    MPI_Get_address(&s.i, &displs[0]);
    MPI_Get_address(&s.d, &displs[1]);
    int lengths[2] = {1, 1};
    MPI_Datatype types[2] = {MPI_INT, MPI_DOUBLE}, t;
    MPI_Type_create_struct(2, lengths, displs, types, &t);";
    assert_refused(
        &program("", body),
        "depending on where objects lie in memory",
        BODY + 6,
    );
}

/// Heap blocks are refused by name (their numbers change when states are
/// put in canonical form).
#[test]
fn the_address_of_a_heap_block_is_refused() {
    let body = "    int *p = malloc(4 * sizeof(int));
    MPI_Aint a;
    MPI_Get_address(p, &a);
    free(p);";
    let text = program("#include <stdlib.h>", body);
    assert_refused(&text, "MPI_Get_address of a heap block", BODY + 2);
}

/// Addresses through a pointer parameter (a local of `main` and a global), a
/// `char *` view inside a struct, and a global apart from a local (mpirun -np 2,
/// built with `mpicc -Wall`: exit 0).
#[test]
fn addresses_through_pointers_globals_and_char_views() {
    let decls = "struct S { int a; double b[3]; };
struct S g;
static void fill(struct S *s, MPI_Aint *d) {
    MPI_Aint base;
    MPI_Get_address(s, &base);
    MPI_Get_address(&s->b[2], d);
    *d = MPI_Aint_diff(*d, base);
}";
    let body = "    struct S loc;
    MPI_Aint d1, d2, x, y, z;
    fill(&loc, &d1);
    fill(&g, &d2);
    assert(d1 == 24 && d2 == 24);
    MPI_Get_address((char *)&loc + 4, &x);
    MPI_Get_address(&loc, &y);
    assert(x - y == 4);
    MPI_Get_address(&g, &z);
    assert(z + (MPI_Aint)sizeof(struct S) <= y || y + (MPI_Aint)sizeof(struct S) <= z);";
    let (code, r) = verify("2", &[], &program(decls, body));
    assert_holds(code, &r);
}

/// Before `MPI_Init`: Open MPI aborts ("The MPI_Get_address() function was
/// called before MPI_INIT was invoked. This is disallowed by the MPI
/// standard."), tass reports `mpi-init-finalize`.
#[test]
fn get_address_before_init_is_reported() {
    let text = "#include <mpi.h>
int main(int argc, char *argv[]) {
    MPI_Aint a;
    int x = 0;
    MPI_Get_address(&x, &a);
    MPI_Init(&argc, &argv);
    MPI_Finalize();
    return 0;
}
";
    let (code, r) = verify("1", &[], text);
    assert_violated(code, &r, "mpi-init-finalize", Some(5));
}
