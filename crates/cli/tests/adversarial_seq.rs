//! Adversarial programs against the sequential features of issue 14: C integer
//! conversions, byte pointers and struct layout, unions, `<string.h>` bounds,
//! function pointers, `exit`, and checks inside conditions. Each program was run
//! for real with `gcc -g -fsanitize=address,undefined -fno-sanitize-recover=all`
//! over every input of its box (inputs set through `#define`); the outcome is in
//! each test's comment.

mod common;

use common::{assert_refused, verify};

fn assert_holds(extra: &[&str], text: &str) {
    let (code, r) = verify("1", extra, text);
    assert_eq!(r["verdict"], "holds", "{r:#}");
    assert_eq!(code, 0);
}

fn assert_violated(extra: &[&str], text: &str, property: &str, line: u64) {
    let (code, r) = verify("1", extra, text);
    assert_eq!(r["verdict"], "violated", "{r:#}");
    assert_eq!(code, 1);
    let v = &r["violations"][0];
    assert_eq!(v["property"], property, "{r:#}");
    assert_eq!(v["line"], line, "{r:#}");
}

/// `char t[3] = "abc"` has three elements and no terminating zero. tass used to
/// give the array the literal's four (`{'a','b','c',0}`), so reading `t[3]` and
/// `strlen(t)` held. gcc -fsanitize=address: stack-buffer-overflow at line 5 (the
/// read of `t[3]`), and in `strlen` at line 7 with the read removed.
#[test]
fn char_array_exactly_as_long_as_its_literal_has_no_terminator() {
    let read = r#"#include <string.h>
int main(void) {
  char t[3] = "abc";
  char u[4] = "abc";
  return t[3] + u[3];
}
"#;
    assert_violated(&[], read, "out-of-bounds", 5);
    let strlen = r#"#include <string.h>
int main(void) {
  char t[3] = "abc";
  char u[4] = "abc";
  int n = (int)strlen(u);
  if (n == 3)
    n = (int)strlen(t);
  return n;
}
"#;
    assert_violated(&[], strlen, "out-of-bounds", 7);
}

/// `char s[8] = "abc"` has eight elements, the last five zero. tass used to give
/// it four, reporting `s[6] = 1` and `strcpy(s + 4, s)` out of bounds (an
/// impossible provable violation). gcc -fsanitize=address,undefined: runs clean,
/// exit 'a' (97); with line 9 reading `s[8]`: stack-buffer-overflow.
#[test]
fn char_array_longer_than_its_literal_is_padded_with_zeros() {
    let text = r#"#include <string.h>
#include <assert.h>
int main(void) {
  char s[8] = "abc";
  s[6] = 1;
  assert(sizeof s == 8 && s[5] == 0 && s[7] == 0);
  strcpy(s + 4, s);
  assert(s[4] == 'a' && s[7] == 0);
  return s[0];
}
"#;
    assert_holds(&[], text);
    assert_violated(
        &[],
        &text.replace("return s[0]", "return s[8]"),
        "out-of-bounds",
        9,
    );
}

/// Overlapping `strcpy` (and `memcpy`, `strncpy`) buffers are undefined
/// behaviour (C11 7.24.2); tass used to copy as `memmove` does and held. Now
/// property `overlapping-copy`. gcc -fsanitize=address with x = 1:
/// strcpy-param-overlap at line 7 (exit 1); x = 0 runs clean (exit 97).
#[test]
fn strcpy_into_its_own_source() {
    let text = r#"#include <string.h>
#pragma TASS input {0 <= x && x <= 1} int
#define x 1
int main(void) {
  char s[8] = "abc";
  if (x)
    strcpy(s + 1, s);
  else
    strcpy(s + 4, s);
  return s[0];
}
"#;
    assert_violated(&[], text, "overlapping-copy", 7);
    let (_, r) = verify("1", &[], text);
    let v = &r["violations"][0];
    assert_eq!(v["certainty"], "provable", "{r:#}");
    assert_eq!(v["witness"]["x"], 1, "{r:#}");
    // the twin: only the copy to `s + 4` (s[4..8) after "abc\0" in s[0..4)).
    // gcc -fsanitize=address: clean, exit 97.
    assert_holds(&["-i", "x=0"], text);
}

/// `memcpy(a + k, a, 2 * sizeof(int))` overlaps for k = 0 and k = 1 (k in
/// 0..2): a provable `overlapping-copy` with a witness in 0..1; k = 2 alone
/// holds, and so does the same copy with `memmove` for every k. gcc
/// -fsanitize=address over k: k = 1 memcpy-param-overlap at line 6 (exit 1);
/// k = 2 clean (exit 1, the value of a[0]); k = 0 clean too, because ASan
/// exempts a copy onto itself (`dst == src`), which C still leaves undefined
/// (the objects overlap); the memmove twin is clean for k = 0, 1, 2.
#[test]
fn memcpy_with_symbolic_overlap() {
    let text = r#"#include <string.h>
#pragma TASS input {0 <= k && k <= 2} int
#define k 1
int main(void) {
  int a[4] = {1, 2, 3, 4};
  memcpy(a + k, a, 2 * sizeof(int));
  return a[0];
}
"#;
    let (code, r) = verify("1", &[], text);
    assert_eq!(code, 1, "{r:#}");
    let v = &r["violations"][0];
    assert_eq!(v["property"], "overlapping-copy", "{r:#}");
    assert_eq!(v["line"], 6, "{r:#}");
    assert_eq!(v["certainty"], "provable", "{r:#}");
    let k = v["witness"]["k"].as_i64();
    assert!(k == Some(0) || k == Some(1), "{r:#}");
    assert_holds(&["-i", "k=2"], text);
    assert_holds(&[], &text.replace("memcpy(", "memmove("));
}

/// `strncpy(d, s, n)` reads at most n characters of `s` (or its string and
/// NUL) and writes n into `d`: `strncpy(s + 2, s, 2)` touches s[0..2) and
/// s[2..4), no overlap, while `strncpy(s + 1, s, 2)` overlaps. gcc
/// -fsanitize=address: the first clean (exit 97), the second
/// strncpy-param-overlap at line 4 (exit 1).
#[test]
fn strncpy_overlap_counts_what_it_reads_and_writes() {
    let text = r#"#include <string.h>
int main(void) {
  char s[8] = "abc";
  strncpy(s + 2, s, 2);
  strncpy(s + 5, s, 3);
  return s[0];
}
"#;
    assert_holds(&[], text);
    assert_violated(
        &[],
        &text.replace("strncpy(s + 2, s, 2)", "strncpy(s + 1, s, 2)"),
        "overlapping-copy",
        4,
    );
}

/// A string literal chosen by `?:` passed to a string function: refused, and the
/// message names the expression (it used to read "dereference of #44", an
/// internal value). gcc runs it clean (exit 2 with x = 1, 1 with x = 0).
#[test]
fn string_literal_chosen_at_run_time_is_refused_clearly() {
    let text = r#"#include <string.h>
#pragma TASS input {0 <= x && x <= 1} int
#define x 1
int main(void) {
  int n = (int)strlen(x ? "ab" : "c");
  return n;
}
"#;
    assert_refused(text, "dereference of `x != 0 ? \"ab\" : \"c\"`", 5);
}

/// With `--signed-overflow`, `INT_MIN % -1` is undefined (C11 6.5.5p6: the
/// quotient is not representable) although the remainder 0 fits; tass held.
/// gcc -fsanitize=undefined over y = -2..0: "division of -2147483648 by -1
/// cannot be represented in type 'int'" at line 8 with y = -1; with
/// `INT_MIN + 1` in line 6 every y runs clean.
#[test]
fn remainder_of_int_min_by_minus_one_overflows() {
    let text = r#"#include <limits.h>
#pragma TASS input {-2 <= y && y <= 0} int
#define y -1
int main(void) {
  int m = INT_MIN;
  if (y == 0) return 0;
  return 1 + 0 * y + 0
    + m % y;
}
"#;
    assert_violated(&["--signed-overflow"], text, "signed-overflow", 8);
    let fixed = text.replace("int m = INT_MIN;", "int m = INT_MIN + 1;");
    assert_holds(&["--signed-overflow"], &fixed);
    assert_holds(&[], text);
}

/// With `--signed-overflow`, a left shift of a negative value is undefined (C11
/// 6.5.7p4) even when the result fits; tass held. gcc -fsanitize=undefined over
/// x = -1..1: "left shift of negative value -1" at line 5 with x = -1; shifting
/// `(unsigned)v` instead runs clean for every x.
#[test]
fn left_shift_of_a_negative_value() {
    let text = r#"#pragma TASS input {-1 <= x && x <= 1} int
#define x 0
int main(void) {
  int v = x;
  return v << 3;
}
"#;
    assert_violated(&["--signed-overflow"], text, "signed-overflow", 5);
    let fixed = text.replace("return v << 3;", "return (int)((unsigned)v << 3);");
    assert_holds(&["--signed-overflow"], &fixed);
}

/// A shift count of at least the type's width is undefined for every integer
/// type (C11 6.5.7p3); tass computes `1u << 32` as 0 and holds. gcc
/// -fsanitize=undefined over x = 30..33: "shift exponent 32 is too large for
/// 32-bit type 'unsigned int'" at line 5 with x = 32 (and 33). Now the property
/// `shift-count`, checked by default; x = 30..31 alone holds (the twin below).
#[test]
fn shift_count_as_wide_as_the_type() {
    let text = r#"#pragma TASS input {30 <= x && x <= 33} int
#define x 30
int main(void) {
  unsigned u = 1u;
  return (int)(u << x);
}
"#;
    let (code, r) = verify("1", &[], text);
    assert_eq!(r["verdict"], "violated", "{r:#}");
    assert_eq!(code, 1);
    assert_eq!(r["violations"][0]["property"], "shift-count", "{r:#}");
    assert_eq!(r["violations"][0]["certainty"], "provable", "{r:#}");
    assert_eq!(r["violations"][0]["line"], 5, "{r:#}");
    assert_eq!(
        r["violations"][0]["witness"]["x"].as_i64().map(|x| x >= 32),
        Some(true),
        "{r:#}"
    );
    // The twin: counts 30..31 only (gcc -fsanitize=undefined over x = 30, 31: clean).
    let twin = text.replace("x <= 33", "x <= 31");
    let (code, r) = verify("1", &[], &twin);
    assert_eq!(r["verdict"], "holds", "{r:#}");
    assert_eq!(code, 0);
}

/// Programs where tass agreed with the concrete runs (gcc -g
/// -fsanitize=address,undefined -fno-sanitize-recover=all over every input of the
/// box in each program's `// box:` comment): (program, property, line, the
/// concrete outcome). Guards for conversions, switch promotion, byte-bounded
/// library calls, callbacks and checks inside conditions.
const AGREED_VIOLATIONS: &[(&str, &str, u64, &str)] = &[
    (
        r#"#include <string.h>
// box: x=0..3
#pragma TASS input {0 <= x && x <= 3} int
#define x 0
int main(void) {
  char a[4] = "abc", b[4];
  int n = x - 1;
  if (n < 3) memcpy(b, a, n);
  return 0;
}
"#,
        "out-of-bounds",
        8,
        "x = 0: negative-size-param in memcpy at line 8",
    ),
    (
        r#"#include <assert.h>
// box: x=0..255
#pragma TASS input {0 <= x && x <= 255} int
#define x 0
int main(void) {
  char c = x;
  int r = 0;
  switch (c) {
  case 200: r = 1; break;
  case -56: r = 2; break;
  case 'a': r = 3; break;
  default: r = 4;
  }
  assert(r != 2);
  return r;
}
"#,
        "assertion",
        14,
        "x = 200: assertion `r != 2` fails at line 14 (char 200 is -56)",
    ),
    (
        r#"#include <assert.h>
// box: x=-3..3
#pragma TASS input {-3 <= x && x <= 3} int
#define x 0
int main(void) {
  unsigned char c = x;
  int a[4] = {0};
  switch (c) {
  case 255: a[4 - 0] = 1; break;
  case 0: a[0] = 1; break;
  default: break;
  }
  return a[0];
}
"#,
        "out-of-bounds",
        9,
        "x = -1: index 4 out of bounds at line 9 (unsigned char -1 is 255)",
    ),
    (
        r#"// box: x=0..3
#pragma TASS input {0 <= x && x <= 3} int
#define x 0
int main(void) {
  int a[4] = {0};
  short s = 32767;
  s = s + x;
  unsigned short us = 65535;
  us = us + x;
  return a[us] + (s < 0);
}
"#,
        "out-of-bounds",
        10,
        "x = 0: index 65535 out of bounds at line 10",
    ),
    (
        r#"// box: x=0..4
#pragma TASS input {0 <= x && x <= 4} int
#define x 0
void wr(int *a, int i) { a[i] = 1; }
void wr2(int *a, int i) { a[i + 1] = 2; }
void apply(void (*f)(int *, int), int *a, int i) { f(a, i); }
int main(void) {
  int a[4] = {0};
  apply(x % 2 ? wr : wr2, a, x - 1 < 0 ? 0 : x - 1);
  return a[0];
}
"#,
        "out-of-bounds",
        5,
        "x = 4: stack-buffer-overflow in the callback at line 5",
    ),
    (
        r#"// box: x=0..3
#pragma TASS input {0 <= x && x <= 3} int
#define x 0
int main(void) {
  switch (6 / (x - 1)) {
  case 6: return 1;
  case -6: return 2;
  default: return 0;
  }
}
"#,
        "division-by-zero",
        5,
        "x = 1: division by zero at line 5",
    ),
    (
        r#"// box: x=0..1
#pragma TASS input {0 <= x && x <= 1} int
#define x 0
int main(void) {
  int a[256] = {0};
  char c = x ? 200 : 100;
  return a[c];
}
"#,
        "out-of-bounds",
        7,
        "x = 1: index -56 out of bounds at line 7",
    ),
    (
        r#"// box: n=0..3
#pragma TASS input {0 <= n && n <= 3} int
#define n 0
int main(void) {
  int a[3] = {1, 2, 3};
  int s = 0;
  for (unsigned i = 0; i <= n - 1; i++) s += a[i];
  return s;
}
"#,
        "out-of-bounds",
        7,
        "n = 0: index 3 out of bounds at line 7 (n - 1 converted to unsigned)",
    ),
    (
        r#"// box: x=0..3
#pragma TASS input {0 <= x && x <= 3} int
#define x 0
int main(void) {
  int s = 0;
  for (int i = 0; i < 3; i += 1 + 4 / (x - i)) s++;
  return s;
}
"#,
        "division-by-zero",
        6,
        "x = 0: division by zero in the for increment at line 6",
    ),
    (
        r#"// box: x=0..3
#pragma TASS input {0 <= x && x <= 3} int
#define x 0
int f0(int a) { return a; }
int f1(int a) { return a + 1; }
int f2(int a) { return a * 2; }
int main(void) {
  int (*t[3])(int) = {f0, f1, f2};
  return t[x](4);
}
"#,
        "out-of-bounds",
        9,
        "x = 3: index 3 out of bounds of the function-pointer array at line 9",
    ),
    (
        r#"// box: x=-2..2
#pragma TASS input {-2 <= x && x <= 2} int
#define x 0
int main(void) {
  int a[3] = {0};
  int i = x;
  unsigned n = 3;
  if (i < n) return a[i];
  long l = x;
  if (l < n) return a[l];
  return 0;
}
"#,
        "out-of-bounds",
        10,
        "x = -2, -1: index out of bounds at line 10 (long vs unsigned compares as long; int vs unsigned as unsigned)",
    ),
];

#[test]
fn agreed_violations() {
    for (text, property, line, _concrete) in AGREED_VIOLATIONS {
        assert_violated(&[], text, property, *line);
    }
}

/// Programs every input of whose box runs clean under gcc -fsanitize=address,undefined.
const AGREED_HOLDS: &[(&str, &str)] = &[
    (
        r#"// box: n=0..4
#pragma TASS input {0 <= n && n <= 4} int
#define n 0
int main(void) {
  int a[4] = {0, 0, 0, 0};
  unsigned k = n;
  for (unsigned i = k - 1; i < 4; i--) a[i] = 1;
  return a[0];
}
"#,
        "every n in 0..4 runs clean",
    ),
    (
        r#"#include <assert.h>
// box: x=-2..2
#pragma TASS input {-2 <= x && x <= 2} int
#define x 0
int main(void) {
  long l = x;
  unsigned u = 1;
  int r = l < u;
  unsigned long ul = 1;
  int s = l < ul;
  assert(r == (x < 1));
  assert(s == (x >= 0 && x < 1));
  return 0;
}
"#,
        "every x in -2..2 runs clean",
    ),
    (
        r#"#include <assert.h>
// box: x=-3..3
#pragma TASS input {-3 <= x && x <= 3} int
#define x 0
int main(void) {
  unsigned u = x;
  unsigned q = u / 2u;
  int r = x / 2;
  assert(x < 0 || q == (unsigned)r);
  assert(x >= 0 || q > 1000u);
  long m = -7 % (long)(x == 0 ? 1 : x);
  return (int)m + (int)(q % 3u);
}
"#,
        "every x in -3..3 runs clean",
    ),
    (
        r#"#include <assert.h>
// box: x=0..10
#pragma TASS input {0 <= x && x <= 10} int
#define x 0
int main(void) {
  unsigned char c = 250;
  int a[6] = {0};
  c += x;
  if (c < 6) a[c] = 1;
  assert(c >= 250 || x >= 6);
  return a[5];
}
"#,
        "every x in 0..10 runs clean",
    ),
    (
        r#"// box: x=-1..1
#pragma TASS input {-1 <= x && x <= 1} int
#define x 0
int main(void) {
  int a[3] = {0};
  unsigned u = 1;
  long r = x < 0 ? x : u;
  if (r < 0) return 0;
  if (r < 3) return a[r];
  return 0;
}
"#,
        "every x in -1..1 runs clean",
    ),
];

#[test]
fn agreed_holds() {
    for (text, _concrete) in AGREED_HOLDS {
        assert_holds(&[], text);
    }
}

/// `strcmp` compares as `unsigned char`, so `(char)200` (-56) sorts above 'z'.
/// For a symbolic character tass compared the signed value and held. gcc
/// -fsanitize=address,undefined with x = 1: assertion `strcmp(b, "abz") < 0`
/// fails at line 7; x = 0 runs clean; with `> 0` in line 7 x = 1 runs clean.
#[test]
fn strcmp_of_a_negative_symbolic_char_compares_unsigned() {
    let text = r#"#include <string.h>
#include <assert.h>
#pragma TASS input {0 <= x && x <= 1} int
#define x 1
int main(void) {
  char b[4] = "ab"; b[2] = x ? (char)200 : 'c';
  assert(x == 0 || strcmp(b, "abz") < 0);
  return 0;
}
"#;
    assert_violated(&[], text, "assertion", 7);
    assert_holds(
        &[],
        &text.replace("strcmp(b, \"abz\") < 0", "strcmp(b, \"abz\") > 0"),
    );
}

/// `memcmp` compares bytes as `unsigned char`: -1 (255) is above 1. tass
/// subtracted the signed values, even concrete ones, and held. gcc
/// -fsanitize=address,undefined: assertion fails at line 6; with `> 0` it runs
/// clean.
#[test]
fn memcmp_of_negative_chars_compares_unsigned() {
    let text = r#"#include <string.h>
#include <assert.h>
int main(void) {
  char a[2] = {1, -1};
  char b[2] = {1, 1};
  assert(memcmp(a, b, 2) < 0);
  return 0;
}
"#;
    assert_violated(&[], text, "assertion", 6);
    assert_holds(&[], &text.replace("< 0", "> 0"));
}

/// A NUL written at a symbolic index: `strlen` walked on past the end of the
/// array up to 65,536 characters, asking the prover at each (minutes, and
/// `--timeout` could not stop it inside the call). gcc
/// -fsanitize=address,undefined over x = 0..3: index 3 out of bounds at line 10
/// with x = 3 (strlen is 3); with `int a[4]` every x runs clean.
#[test]
fn strlen_after_a_nul_at_a_symbolic_index() {
    let text = r#"#include <string.h>
#pragma TASS input {0 <= x && x <= 3} int
#define x 3
int main(void) {
  char s[4] = "abc";
  s[x] = 0;
  char t[4] = "abc";
  size_t n = strlen(s) + (strcmp(s, t) == 0 ? 0 : 0);
  int a[3] = {0};
  return a[n];
}
"#;
    assert_violated(&["--timeout", "60"], text, "out-of-bounds", 10);
    assert_holds(&["--timeout", "60"], &text.replace("int a[3]", "int a[4]"));
}
