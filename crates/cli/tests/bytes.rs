//! Byte-level pointers (issue 14, item 7), `offsetof`, struct padding and unions.
//!
//! Each program's verdict was confirmed by running it for real:
//! `gcc -g -fsanitize=address,undefined -fno-sanitize-recover=all PROG.c` (programs
//! with an input `x` are compiled with `-Dmain=tass_main -c` and linked with a
//! driver `int main(int c, char **v) { x = atoi(v[1]); return tass_main(); }`, run
//! once per input value of the pragma's range). The result of those runs is
//! written above each test.

mod common;

use common::{assert_holds, assert_violated, verify};

fn error_of(report: &serde_json::Value) -> String {
    assert_eq!(report["verdict"], "error", "{report:#}");
    report["error"].as_str().unwrap_or_default().to_string()
}

/// The program of the issue: `char *` arithmetic in bytes, cast back to `int *`.
/// Before byte views it was reported "pointer offset k - 4 outside its object of
/// 4 elements". gcc+ASan+UBSan, k = 1, 2, 3: clean, the assertion holds.
const ISSUE_PROGRAM: &str = "#include <assert.h>
#pragma TASS input {k >= 1 && k < 4}
int k;
int main(void) {
  int a[4] = {10, 20, 30, 40};
  char *q;
  int *p;
  int got;
  q = (char *)&a[k];
  q = q - sizeof(int);
  p = (int *)q;
  got = *p;
  assert(got == a[k - 1]);
  return 0;
}
";

#[test]
fn char_pointer_offsets_count_bytes() {
    let (code, r) = verify("1", &[], ISSUE_PROGRAM);
    assert_holds(code, &r);
}

/// The same with k = 0 allowed: `q - 4` leaves the array. gcc+ASan, k = 0:
/// "stack-buffer-underflow" at line 8 (`got = *p`), k = 1..3 clean. tass reports
/// the pointer arithmetic itself (line 6: C11 6.5.6p8 makes forming a pointer
/// before the array undefined), with the witness k = 0.
#[test]
fn char_pointer_before_the_array_is_reported() {
    let (code, r) = verify(
        "1",
        &[],
        "#pragma TASS input {k >= 0 && k < 4}
int k;
int main(void) {
  int a[4] = {10, 20, 30, 40};
  char *q = (char *)&a[k];
  q = q - sizeof(int);
  int *p = (int *)q;
  int got = *p;
  return got == 0;
}
",
    );
    assert_violated(code, &r, "out-of-bounds", Some(6));
    let v = &r["violations"][0];
    assert_eq!(v["certainty"], "provable", "{r:#}");
    assert!(
        v["message"].as_str().unwrap_or("").contains("bytes"),
        "{r:#}"
    );
}

/// One past the end in bytes is a valid pointer; reading through it is not.
/// gcc+UBSan: "load of address ... with insufficient space for an object of
/// type 'int'" at line 5 (`*p`).
#[test]
fn read_one_past_the_end_through_a_byte_pointer_is_reported() {
    let (code, r) = verify(
        "1",
        &[],
        "int main(void) {
  int a[4] = {10, 20, 30, 40};
  char *q = (char *)a + sizeof a;
  int *p = (int *)q;
  int got = *p;
  return got;
}
",
    );
    assert_violated(code, &r, "out-of-bounds", Some(5));
}

/// `offsetof` and struct padding (LP64: `struct pt` is 24 bytes, `y` at 8, `z` at
/// 16), fields reached through `char *` + `offsetof`, read and written.
/// gcc+ASan+UBSan: clean, every assertion holds (so the layout figures are gcc's).
#[test]
fn struct_members_through_offsetof() {
    let (code, r) = verify(
        "1",
        &[],
        "#include <assert.h>
#include <stddef.h>
struct pt { char tag; double y; int z; };
struct t { char a; char b; short h; int i; };
int main(void) {
  struct pt a[3];
  for (int i = 0; i < 3; i++) { a[i].tag = 'a'; a[i].y = i * 1.5; a[i].z = i; }
  assert(sizeof(struct pt) == 24 && sizeof(struct t) == 8);
  assert(offsetof(struct pt, y) == 8 && offsetof(struct pt, z) == 16);
  assert(offsetof(struct t, h) == 2 && offsetof(struct t, i) == 4);
  for (int k = 0; k < 3; k++) {
    char *base = (char *)&a[k];
    double *py = (double *)(base + offsetof(struct pt, y));
    int *pz = (int *)(base + offsetof(struct pt, z));
    assert(*py == k * 1.5);
    assert(*pz == k);
    *pz = 7;
    assert(a[k].z == 7);
  }
  int *last = (int *)((char *)a + 2 * sizeof(struct pt) + offsetof(struct pt, z));
  assert(*last == 7);
  return 0;
}
",
    );
    assert_holds(code, &r);
}

/// The last iteration goes one struct past the array. gcc+ASan:
/// "stack-buffer-overflow" at line 8; tass: the offset 3*24 + 16 = 88 bytes
/// lies outside the 72 bytes of `a`, same line.
#[test]
fn struct_member_past_the_array_is_reported() {
    let (code, r) = verify(
        "1",
        &[],
        "#include <stddef.h>
struct pt { char tag; double y; int z; };
int main(void) {
  struct pt a[3];
  int sum = 0;
  for (int i = 0; i < 3; i++) { a[i].tag = 'a'; a[i].y = 0.5; a[i].z = i; }
  for (int k = 0; k <= 3; k++) {
    sum += *(int *)((char *)&a[k] + offsetof(struct pt, z));
  }
  return sum == 0;
}
",
    );
    assert_violated(code, &r, "out-of-bounds", Some(8));
    assert!(
        r["violations"][0]["message"]
            .as_str()
            .unwrap_or("")
            .contains("88 bytes"),
        "{r:#}"
    );
}

/// A heap block seen through `void *` and `char *` with a symbolic size; the
/// end pointer compares equal to `d + n`. gcc+ASan+UBSan, n = 2..100: clean.
#[test]
fn heap_block_through_void_and_char_pointers() {
    let (code, r) = verify(
        "1",
        &[],
        "#include <assert.h>
#include <stdlib.h>
#pragma TASS input {n >= 2 && n <= 100}
int n;
int main(void) {
  double *d = malloc(n * sizeof(double));
  for (int i = 0; i < n; i++) d[i] = i;
  void *v = d;
  char *c = (char *)v + (n - 1) * sizeof(double);
  double *last = (double *)c;
  assert(*last == n - 1);
  c = c + sizeof(double);
  double *end = (double *)c;
  assert(end == d + n);
  free(d);
  return 0;
}
",
    );
    assert_holds(code, &r);
}

/// A `double` read 4 bytes into a `double`. gcc+UBSan: "load of misaligned
/// address ... for type 'double', which requires 8 byte alignment" at line 6.
#[test]
fn misaligned_access_through_a_byte_pointer_is_reported() {
    let (code, r) = verify(
        "1",
        &[],
        "#include <stdlib.h>
int main(void) {
  double *d = malloc(4 * sizeof(double));
  for (int i = 0; i < 4; i++) d[i] = i;
  double *p = (double *)((char *)d + 4);
  double x = *p;
  free(d);
  return x > 100.0;
}
",
    );
    assert_violated(code, &r, "invalid-pointer", Some(6));
    assert!(
        r["violations"][0]["message"]
            .as_str()
            .unwrap_or("")
            .contains("misaligned"),
        "{r:#}"
    );
}

/// A symbolic byte offset: the access is aligned only when `m` is a multiple of 4.
/// gcc+UBSan, m = 0..12: "load of misaligned address ... for type 'int'" at line
/// 7 for m = 1, 2, 3, 5, 6, 7, 9, 10, 11; clean for m = 0, 4, 8, 12. tass: provable,
/// witness m = 1 (the first value the prover finds).
#[test]
fn symbolic_byte_offset_not_a_multiple_is_reported() {
    let (code, r) = verify(
        "1",
        &[],
        "#pragma TASS input {m >= 0 && m <= 12}
int m;
int main(void) {
  int a[4] = {1, 2, 3, 4};
  char *q = (char *)a + m;
  int *p = (int *)q;
  int got = *p;
  return got == 0;
}
",
    );
    assert_violated(code, &r, "invalid-pointer", Some(7));
    let v = &r["violations"][0];
    assert_eq!(v["certainty"], "provable", "{r:#}");
    assert!(
        v["message"].as_str().unwrap_or("").contains("misaligned"),
        "{r:#}"
    );
}

/// The twin: with `m % 4 == 0` the divisibility is proved under the path
/// condition and the element is `a[m / 4]`. gcc+ASan+UBSan, m = 0, 4, 8, 12:
/// clean, the assertion holds.
#[test]
fn symbolic_byte_offset_proved_a_multiple_holds() {
    let (code, r) = verify(
        "1",
        &[],
        "#include <assert.h>
#pragma TASS input {m >= 0 && m <= 12 && m % 4 == 0}
int m;
int main(void) {
  int a[4] = {1, 2, 3, 4};
  char *q = (char *)a + m;
  int *p = (int *)q;
  int got = *p;
  assert(got == m / 4 + 1);
  return 0;
}
",
    );
    assert_holds(code, &r);
}

/// `free` through a byte pointer: back at the block's start it is fine, 4 bytes
/// in it is not. gcc+ASan: "attempting free on address which was not
/// malloc()-ed" from line 11; the first `free` (line 7) is clean.
#[test]
fn free_through_a_byte_pointer() {
    let (code, r) = verify(
        "1",
        &[],
        "#include <stdlib.h>
int main(void) {
  int *p = malloc(4 * sizeof(int));
  char *c = (char *)p;
  c = c + 8;
  c = c - 8;
  free(c);
  char *d;
  p = malloc(4 * sizeof(int));
  d = (char *)p + 4;
  free(d);
  return 0;
}
",
    );
    assert_violated(code, &r, "invalid-pointer", Some(11));
}

/// `void *`/`char *` pointers compare by address: a struct and its first member
/// are at the same byte (path lengths differ). gcc+ASan+UBSan: clean, every
/// assertion holds.
#[test]
fn byte_pointers_compare_by_address() {
    let (code, r) = verify(
        "1",
        &[],
        "#include <assert.h>
struct pt { int x; int y; };
int main(void) {
  struct pt a[2];
  a[1].x = 1;
  void *p = &a[1];
  void *q = &a[1].x;
  assert(p == q);
  char *r = (char *)&a[0].y;
  assert((char *)q > r);
  assert((char *)q - r == 4);
  return 0;
}
",
    );
    assert_holds(code, &r);
}

/// Walking an array by bytes: comparisons and differences of byte pointers, a
/// generic `void *` accessor, a `void *` converted back implicitly, `unsigned
/// char *` arithmetic.
/// gcc+ASan+UBSan: clean, every assertion holds.
#[test]
fn byte_walks_comparisons_and_differences() {
    let (code, r) = verify(
        "1",
        &[],
        "#include <assert.h>
#include <stddef.h>
static int get(void *base, size_t size, int i) {
  char *p = (char *)base + i * size;
  return *(int *)p;
}
int main(void) {
  int a[4] = {1, 2, 3, 4};
  char *b = (char *)a;
  char *e = (char *)(a + 4);
  int sum = 0;
  assert(e - b == 16);
  for (char *c = b; c < e; c += sizeof(int)) sum += *(int *)c;
  assert(sum == 10);
  assert(get(a, sizeof a[0], 3) == 4);
  void *v = &a[1];
  int *back = v;
  assert(back - a == 1);
  unsigned char *u = (unsigned char *)a;
  assert(*(int *)(u + 8) == 3);
  void *w = a;
  w = (char *)w + 12;
  assert(*(int *)w == 4);
  return 0;
}
",
    );
    assert_holds(code, &r);
}

/// Reading the bytes of an `int` through `unsigned char *`, or a `float`'s bytes
/// as an `int`: refused by name at the access (gcc+ASan+UBSan: both run clean,
/// so a violation would be wrong; tass does not model byte representations).
#[test]
fn type_punning_through_pointer_casts_is_refused_by_name() {
    let (code, r) = verify(
        "1",
        &[],
        "int main(void) {
  int x = 258;
  unsigned char *c = (unsigned char *)&x;
  return c[1];
}
",
    );
    assert_eq!(code, 2);
    let e = error_of(&r);
    assert!(e.contains(":4:10:"), "{e}");
    assert!(
        e.contains("bytes of an object of type `int` as `unsigned char`"),
        "{e}"
    );
    let (code, r) = verify(
        "1",
        &[],
        "int main(void) {
  float f = 1.0f;
  int *ip = (int *)&f;
  return *ip;
}
",
    );
    assert_eq!(code, 2);
    let e = error_of(&r);
    assert!(e.contains(":4:10:") && e.contains("type punning"), "{e}");
}

/// Unions: the member last written is read (a tagged union chosen by an input,
/// a pointer to a member, an initializer, `sizeof`).
/// gcc+ASan+UBSan, x = -100..100: clean, every assertion holds.
#[test]
fn union_member_last_written_is_read() {
    let (code, r) = verify(
        "1",
        &[],
        "#include <assert.h>
union num { int i; double d; };
struct tagged { int kind; union num v; };
#pragma TASS input {x >= -100 && x <= 100}
int x;
int main(void) {
  struct tagged t;
  union num u = { 3 };
  assert(u.i == 3);
  if (x > 0) { t.kind = 0; t.v.i = x; } else { t.kind = 1; t.v.d = x * 0.5; }
  if (t.kind == 0) assert(t.v.i > 0); else assert(t.v.d <= 0.0);
  u.d = 2.5;
  double *pd = &u.d;
  assert(*pd == 2.5);
  u.i = 4;
  assert(u.i == 4);
  assert(sizeof(union num) == 8 && sizeof(struct tagged) == 16);
  return 0;
}
",
    );
    assert_holds(code, &r);
}

/// A wrong claim about a union member is still found. gcc+ASan+UBSan: the
/// assertion fails ("Assertion `u.i == 5' failed") at line 6.
#[test]
fn wrong_assertion_on_a_union_member_is_reported() {
    let (code, r) = verify(
        "1",
        &[],
        "#include <assert.h>
union num { int i; double d; };
int main(void) {
  union num u;
  u.i = 4;
  assert(u.i == 5);
  return 0;
}
",
    );
    assert_violated(code, &r, "assertion", Some(6));
}

/// Reading a member other than the last one written reinterprets bytes: refused
/// by name at run time (gcc+ASan+UBSan: runs clean; `u.i` is the bits of 1.0f).
#[test]
fn union_type_punning_is_refused_by_name() {
    let (code, r) = verify(
        "1",
        &[],
        "union num { int i; float f; };
int main(void) {
  union num u;
  u.i = 1;
  u.f = 1.0f;
  return u.i;
}
",
    );
    assert_eq!(code, 2);
    let e = error_of(&r);
    assert!(e.contains(":6:10:"), "{e}");
    assert!(
        e.contains("reading member `i` of `union num` while member `f` holds its value"),
        "{e}"
    );
}

/// `offsetof` of a member that does not exist: a front-end error with position.
#[test]
fn offsetof_of_a_missing_member_is_an_error() {
    let (code, r) = verify(
        "1",
        &[],
        "#include <stddef.h>
struct pt { int a; int b; };
int main(void) {
  return (int)offsetof(struct pt, c);
}
",
    );
    assert_eq!(code, 2, "{r:#}");
    let e = error_of(&r);
    assert!(
        e.contains(":4:") && e.contains("`struct pt` has no member named `c`"),
        "{e}"
    );
}
