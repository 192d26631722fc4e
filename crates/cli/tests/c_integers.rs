//! C integer semantics (issue 14, items 1, 6 and 9): the usual arithmetic
//! conversions and integer promotions, the types' ranges (LP64, plain `char`
//! signed), unsigned wrap-around, two's-complement narrowing, inputs and `-i`
//! values that fit their C type.
//!
//! Every expected verdict was confirmed by compiling the same program with
//! `gcc -g -fsanitize=address,undefined` (gcc 13, x86-64) and running it over
//! the inputs, the input read from `argv` in place of the pragma; the runs are
//! recorded above each test.

mod common;

use common::{assert_holds, assert_violated, inline, report, verify};
use std::process::Command;

/// Runs `tass verify EXTRA FILE --format json --prover PROVER`.
fn verify_with(prover: &str, extra: &[&str], text: &str) -> (i32, serde_json::Value) {
    let file = inline(text);
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "--prover", prover])
        .args(extra)
        .arg(&file)
        .args(["--format", "json"])
        .output()
        .expect("run tass");
    report(out)
}

/// Runs `tass verify EXTRA FILE` and returns (exit status, stderr).
fn verify_error(extra: &[&str], text: &str) -> (i32, String) {
    let file = inline(text);
    let out = Command::new(env!("CARGO_BIN_EXE_tass"))
        .arg("verify")
        .args(extra)
        .arg(&file)
        .output()
        .expect("run tass");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

const SIGNED_VS_UNSIGNED_DIVISION: &str = r#"#pragma TASS input {-3 <= x && x <= 3}
int x;
int main(void) {
  unsigned int len = 4;
  int r = 0;
  if (x >= len) r = 100 / (x + 1);
  return 0;
}
"#;

/// Item 1: `x >= len` converts `x` to unsigned, so x = -1 passes the guard.
/// gcc -fsanitize=address,undefined, x = -3..3: x = -1 stops with "runtime
/// error: division by zero" at line 6; the other six runs exit 0.
/// (tass printed `[x >= (int)len]` and said holds before.)
#[test]
fn signed_operand_is_converted_to_unsigned_in_comparisons() {
    let (code, r) = verify("1", &[], SIGNED_VS_UNSIGNED_DIVISION);
    assert_violated(code, &r, "division-by-zero", Some(6));
    assert_eq!(r["violations"][0]["certainty"], "provable", "{r:#}");
    assert_eq!(r["violations"][0]["witness"]["x"], -1, "{r:#}");
}

/// The twin with the comparison made in `int` by a cast: gcc, x = -3..3, all
/// seven runs exit 0.
#[test]
fn comparison_cast_to_int_holds() {
    let text = SIGNED_VS_UNSIGNED_DIVISION.replace("x >= len", "x >= (int)len");
    let (code, r) = verify("1", &[], &text);
    assert_holds(code, &r);
}

/// Item 6: C never lets a negative `x` through `x < lim` with `lim` unsigned,
/// so neither the assertion nor the index can fail. gcc, x = -4..3: all eight
/// runs exit 0 (no assertion failure, no ASan report). (tass reported the
/// assertion with witness x = -4 before.)
#[test]
fn unsigned_guard_keeps_negative_index_out() {
    let text = r#"#include <assert.h>
#pragma TASS input {-4 <= x && x <= 3}
int x;
int main(void) {
  int a[4] = {1, 1, 1, 1};
  unsigned lim = 4;
  if (x < lim) assert(x >= 0 && a[x] == 1);
  return 0;
}
"#;
    let (code, r) = verify("1", &[], text);
    assert_holds(code, &r);
    // The same guard in `int` lets x = -4 through: gcc, x = -4: "Assertion
    // `x >= 0 && a[x] == 1' failed".
    let (code, r) = verify("1", &[], &text.replace("x < lim", "x < (int)lim"));
    assert_violated(code, &r, "assertion", Some(7));
}

/// Conversions and promotions with constants, each assertion as gcc computes it
/// (LP64, plain char signed); gcc -fsanitize=address,undefined -Wno-overflow:
/// exit 0, no runtime error. Changing any one assertion to the value tass gave
/// before (e.g. `ch == 200`, `!(ll < ul)` negated) makes tass report it.
const CONVERSIONS: &str = r#"#include <assert.h>
#include <stdint.h>
int main(void) {
  unsigned u = 4294967295u;
  int i = (int)u;
  assert(i == -1);
  unsigned char uc = 300;
  assert(uc == 44);
  short s = 40000;
  assert(s == -25536);
  char ch = 200;
  assert(ch == -56);
  unsigned m = -1;
  assert(m == 4294967295u);
  long l = -1;
  assert(l < 1u);
  assert(-1 < 0xFFFF);
  assert(!(-1 < 0xFFFFFFFF));
  uint16_t h = 65535;
  h = h + 1;
  assert(h == 0);
  unsigned one = 1;
  assert(-one == 4294967295u);
  assert(~one == 4294967294u);
  unsigned char bit = 1;
  assert((bit << 8) == 256);
  int8_t small = (int8_t)129;
  assert(small == -127);
  uint32_t w = 0;
  w--;
  assert(w == 4294967295u);
  int k = 3000000000u;
  assert(k == -1294967296);
  long long ll = -1;
  unsigned long ul = 1;
  assert(!(ll < ul));
  unsigned sel = 4294967295u;
  int hit = 0;
  switch (sel) { case -1: hit = 1; break; default: hit = 2; }
  assert(hit == 1);
  return 0;
}
"#;

#[test]
fn conversions_follow_c() {
    let (code, r) = verify("1", &[], CONVERSIONS);
    assert_holds(code, &r);
}

/// Each wrong value (the one a mathematical-integer reading gives) is caught.
#[test]
fn wrong_conversion_results_are_reported() {
    for wrong in [
        "ch == 200",
        "i == 4294967295",
        "l >= 1u",
        "-1 < 0xFFFFFFFF",
        "ll < ul",
        "small == 129",
        "hit == 2",
        "k == 3000000000",
    ] {
        let text = CONVERSIONS.replace(
            "  return 0;\n}",
            &format!("  assert({wrong});\n  return 0;\n}}"),
        );
        let (code, r) = verify("1", &[], &text);
        assert_violated(code, &r, "assertion", Some(41));
    }
}

const HIGH_BYTES: &str = r#"#include <assert.h>
#include <string.h>
int main(void) {
  char s[] = "\xff\x80z";
  char line[4];
  int v = '\xff';
  char c = '\xff';
  unsigned char u = '\xff';
  int r = 0;
  assert(v == -1 && c == -1 && u == 255);
  assert(s[0] == '\xff' && s[0] == -1 && s[1] == -128 && (unsigned char)s[0] == 255);
  assert('\377' == -1 && '\200' < 0 && '\x7f' == 127);
  switch (s[0]) { case '\xff': r = 1; break; default: r = 2; }
  assert(r == 1);
  assert(strlen(s) == 3 && strcmp(s, "\xff\x80z") == 0);
  assert(strcmp(s, "a") > 0 && memcmp(s, "a", 1) > 0 && s[0] < 'a');
  strcpy(line, "\xe9t\xe9");
  assert(line[0] == (char)233 && line[2] < 0 && strlen(line) == 3);
  return 0;
}
"#;

/// Session 15 probe: a character constant or string-literal byte 128..255 is a
/// negative plain `char`, as gcc and clang make it (C11 6.4.4.4p10). Before,
/// `'\xff'` was 255: `assert('\xff' == 255)` held (gcc: fails), and
/// `assert(s[0] < 'a')` over `"\xff"` was a provable violation (gcc: holds).
/// strcmp/memcmp still compare as unsigned char. gcc -fsanitize=address,undefined
/// of HIGH_BYTES: exit 0; each wrong line below aborts on its assert (line 19).
#[test]
fn high_bytes_of_character_constants_are_negative_chars() {
    let (code, r) = verify("1", &[], HIGH_BYTES);
    assert_holds(code, &r);
    for wrong in [
        "'\\xff' == 255",
        "s[0] == 255",
        "s[0] > 'a'",
        "line[0] == 233",
        "strcmp(s, \"a\") < 0",
    ] {
        let text = HIGH_BYTES.replace(
            "  return 0;\n}",
            &format!("  assert({wrong});\n  return 0;\n}}"),
        );
        let (code, r) = verify("1", &[], &text);
        assert_violated(code, &r, "assertion", Some(19));
    }
}

const NEGATED_CONSTANTS: &str = r#"#include <assert.h>
int main(void) {
  long big = -3000000000;
  assert(-2147483648 < 0u);
  assert(sizeof(-2147483648) == 8 && sizeof(-1) == 4);
  assert(-3000000000 < 1u && big < 0);
  assert(-0xFFFFFFFF == 1 && -0x80000000 == 2147483648u && -0x80000000 > 0);
  assert(-1 < 0 && -0x10 == -16 && - 5 == -5);
  return 0;
}
"#;

/// Session 15 probe: C has no negative constants; `-2147483648` is `-` applied to
/// the `long` 2147483648, and `-0x80000000` to the `unsigned` 0x80000000. tass
/// read the signed token as an `int` (`assert(-2147483648 < 0u)` was a provable
/// violation, its negation held) and refused `-0xFFFFFFFF`. gcc
/// -fsanitize=address,undefined: exit 0; each wrong line aborts (line 9).
#[test]
fn negated_constants_take_the_type_of_the_constant() {
    let (code, r) = verify("1", &[], NEGATED_CONSTANTS);
    assert_holds(code, &r);
    for wrong in [
        "!(-2147483648 < 0u)",
        "-0x80000000 < 0",
        "sizeof(-2147483648) == 4",
    ] {
        let text = NEGATED_CONSTANTS.replace(
            "  return 0;\n}",
            &format!("  assert({wrong});\n  return 0;\n}}"),
        );
        let (code, r) = verify("1", &[], &text);
        assert_violated(code, &r, "assertion", Some(9));
    }
}

const INPUT_RANGES: &str = r#"#include <assert.h>
#include <stdint.h>
#pragma TASS input
unsigned u;
#pragma TASS input
uint8_t b;
#pragma TASS input
signed char c;
#pragma TASS input
short s;
#pragma TASS input
unsigned long long q;
int main(void) {
  assert(u >= 0);
  assert(b < 256);
  assert(c >= -128 && c <= 127);
  assert(s >= -32768 && s <= 32767);
  assert(q <= 18446744073709551615ull);
  return 0;
}
"#;

/// Item 9: inputs take only their type's values. gcc, at both ends of every
/// range (u = 0 and 4294967295, b = 0 and 255, c = -128 and 127, s = -32768 and
/// 32767, q = 0 and 2^64-1): exit 0. (tass gave the witnesses u = -1, b = 257
/// and c = 4294967295 before.) The built-in prover alone may only call one of
/// them *possible*.
#[test]
fn inputs_respect_their_types() {
    let (code, r) = verify_with("z3", &[], INPUT_RANGES);
    assert_holds(code, &r);
    let (_, r) = verify_with("builtin", &[], INPUT_RANGES);
    assert_ne!(r["verdict"], "error", "{r:#}");
    for v in r["violations"].as_array().into_iter().flatten() {
        assert_eq!(v["certainty"], "possible", "{r:#}");
    }
}

const UNSIGNED_SUCCESSOR: &str = r#"#include <assert.h>
#pragma TASS input
unsigned u;
int main(void) {
  unsigned next = u + 1;
  assert(next > u);
  return 0;
}
"#;

/// Item 9: the wrap-around is real and its witness fits `unsigned`. gcc, u =
/// 4294967295: "Assertion `next > u' failed"; u = 4294967294: exit 0.
/// (tass gave the witness u = 51539607550 before.)
#[test]
fn unsigned_wrap_witness_fits_the_type() {
    for prover in ["builtin", "z3"] {
        let (code, r) = verify_with(prover, &[], UNSIGNED_SUCCESSOR);
        assert_violated(code, &r, "assertion", Some(6));
        assert_eq!(r["violations"][0]["witness"]["u"], 4294967295u64, "{r:#}");
    }
    let (code, r) = verify("1", &["-i", "u=4294967294"], UNSIGNED_SUCCESSOR);
    assert_holds(code, &r);
}

/// A negative `signed char` is a real value of the input, with a witness in
/// range. gcc, c = -1: "Assertion `c >= 0' failed".
#[test]
fn signed_char_witness_is_negative() {
    let text = r#"#include <assert.h>
#pragma TASS input
signed char c;
int main(void) {
  assert(c >= 0);
  return 0;
}
"#;
    let (code, r) = verify_with("z3", &[], text);
    assert_violated(code, &r, "assertion", Some(5));
    let w = r["violations"][0]["witness"]["c"]
        .as_i64()
        .expect("witness");
    assert!((-128..0).contains(&w), "{r:#}");
}

/// Item 9: `-i` values outside the input's type are usage errors (exit 2).
#[test]
fn out_of_type_fixed_inputs_are_refused() {
    let (code, err) = verify_error(&["-i", "u=-1"], UNSIGNED_SUCCESSOR);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("-i u=-1") && err.contains("does not fit") && err.contains("unsigned"),
        "{err}"
    );
    let (code, err) = verify_error(&["-i", "u=4294967296"], UNSIGNED_SUCCESSOR);
    assert_eq!(code, 2, "{err}");
    let int_input = "#pragma TASS input\nint B;\nint main(void) { return B; }\n";
    let (code, err) = verify_error(&["-i", "B=99999999999999999999999"], int_input);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("-2147483648 to 2147483647"), "{err}");
    let (code, err) = verify_error(&["-i", "c=200"], INPUT_RANGES);
    assert_eq!(code, 2, "{err}");
    let (code, err) = verify_error(&["-i", "b=256"], INPUT_RANGES);
    assert_eq!(code, 2, "{err}");
    // in range: accepted
    let (code, r) = verify("1", &["-i", "c=-128", "-i", "b=255"], INPUT_RANGES);
    assert_eq!(code, 0, "{r:#}");
}

/// Elements of an input array of an unsigned type are never negative (the
/// read assumes the type's range). gcc, a = {0, 0, 0} and {4294967295, 1, 7}:
/// exit 0. (tass reported `a[0] >= 0` as a provable violation before.)
#[test]
fn input_array_elements_respect_their_type() {
    let text = r#"#include <assert.h>
#pragma TASS input
unsigned a[3];
int main(void) {
  for (int i = 0; i < 3; i++) assert(a[i] >= 0);
  return 0;
}
"#;
    let (code, r) = verify_with("z3", &[], text);
    assert_holds(code, &r);
    // Still symbolic: a[1] == 7 is a real possibility (gcc, a = {0, 7, 0}:
    // "Assertion `a[i] != 7' failed").
    let (code, r) = verify_with("z3", &[], &text.replace("a[i] >= 0", "a[i] != 7"));
    assert_violated(code, &r, "assertion", Some(5));
}

/// Elements of a `char` input array are signed chars: -128 .. 127, negative
/// values included. gcc, s = {127, -128} and {-128, 127}: exit 0; with
/// `assert(s[0] >= 0)` and s[0] = -1: "Assertion `s[0] >= 0' failed".
#[test]
fn char_input_array_elements_are_signed_chars() {
    let text = r#"#include <assert.h>
#pragma TASS input
char s[2];
int main(void) {
  assert(s[0] < 128 && s[1] >= -128);
  return 0;
}
"#;
    for prover in ["builtin", "z3"] {
        let (code, r) = verify_with(prover, &[], text);
        assert_holds(code, &r);
    }
    let negative = text.replace("s[0] < 128 && s[1] >= -128", "s[0] >= 0");
    let (code, r) = verify_with("z3", &[], &negative);
    assert_violated(code, &r, "assertion", Some(5));
}

const SQUARE: &str = r#"#pragma TASS input {0 <= n && n <= 100000}
int n;
int main(void) {
  int sq = n * n;
  return sq < 0;
}
"#;

/// Signed overflow is off by default and reported with `--signed-overflow`.
/// gcc -fsanitize=address,undefined: n = 46340 exits 0; n = 46341 gives
/// "runtime error: signed integer overflow: 46341 * 46341 cannot be
/// represented in type 'int'" at line 4.
#[test]
fn signed_overflow_is_opt_in() {
    let (code, r) = verify("1", &[], SQUARE);
    assert_holds(code, &r);
    let (code, r) = verify("1", &["--signed-overflow"], SQUARE);
    assert_violated(code, &r, "signed-overflow", Some(4));
    assert_eq!(r["violations"][0]["certainty"], "provable", "{r:#}");
    let w = r["violations"][0]["witness"]["n"]
        .as_i64()
        .expect("witness");
    assert!((46341..=100000).contains(&w), "{r:#}");
    let (code, r) = verify("1", &["--signed-overflow", "-i", "n=46340"], SQUARE);
    assert_holds(code, &r);
}

/// `INT_MIN / -1`, `++` past `INT_MAX` and `<<` into the sign bit.
/// gcc -fsanitize=address,undefined, k = -2..2: only k = -1 fails, "runtime
/// error: division of -2147483648 by -1 cannot be represented in type 'int'";
/// the unsigned, `unsigned char` and `char` lines never report (they wrap or
/// convert, which is defined).
#[test]
fn signed_overflow_covers_division_increment_and_shift() {
    let division = r#"#include <limits.h>
#pragma TASS input {-2 <= k && k <= 2}
int k;
int main(void) {
  unsigned u = 4294967295u;
  u = u + (unsigned)k + 2u;
  unsigned char c = 255;
  c++;
  char d = 127;
  d = d + k;
  int q = INT_MIN / (k == 0 ? 1 : k);
  return 0;
}
"#;
    let (code, r) = verify(
        "1",
        &["--signed-overflow", "--max-violations", "0"],
        division,
    );
    assert_violated(code, &r, "signed-overflow", Some(11));
    assert_eq!(r["violations"].as_array().map(Vec::len), Some(1), "{r:#}");
    assert_eq!(r["violations"][0]["witness"]["k"], -1, "{r:#}");
    // gcc, k = 1: "signed integer overflow: 2147483647 + 1 cannot be represented
    // in type 'int'"; k = 0 exits 0.
    let increment = r#"#include <limits.h>
#pragma TASS input {0 <= k && k <= 1}
int k;
int main(void) {
  int m = INT_MAX - 1 + k;
  m++;
  return 0;
}
"#;
    let (code, r) = verify("1", &["--signed-overflow"], increment);
    assert_violated(code, &r, "signed-overflow", Some(6));
    assert_eq!(r["violations"][0]["witness"]["k"], 1, "{r:#}");
    // gcc, s = 31: "left shift of 1 by 31 places cannot be represented in type
    // 'int'"; s = 30 exits 0. Shifts of symbolic amounts are uninterpreted, so
    // tass can only call it possible.
    let shift = r#"#pragma TASS input {30 <= s && s <= 31}
int s;
int main(void) {
  int one = 1;
  int b = one << s;
  return b == 0;
}
"#;
    let (code, r) = verify("1", &["--signed-overflow"], shift);
    assert_violated(code, &r, "signed-overflow", Some(5));
}

/// `compare` takes `--signed-overflow` too. The implementation squares in `int`,
/// the specification in `long`: over the mathematical integers they agree (the
/// default), but gcc -fsanitize=address,undefined runs the implementation with
/// n = 46341 into "runtime error: signed integer overflow: 46341 * 46341 cannot
/// be represented in type 'int'" (n = 46340 exits 0).
#[test]
fn compare_reports_signed_overflow_on_request() {
    let spec = inline(
        "#pragma TASS input {0 <= n && n <= 70000}\nint n;\n#pragma TASS output\nlong out;\n\
         int main(void) { out = (long)n * n; return 0; }\n",
    );
    let implementation = inline(
        "#pragma TASS input {0 <= n && n <= 70000}\nint n;\n#pragma TASS output\nlong out;\n\
         int main(void) { out = n * n; return 0; }\n",
    );
    let run = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_tass"))
            .arg("compare")
            .args(extra)
            .args([&spec, &implementation])
            .args(["--format", "json"])
            .output()
            .expect("run tass");
        report(out)
    };
    let (code, r) = run(&[]);
    assert_holds(code, &r);
    let (code, r) = run(&["--signed-overflow"]);
    assert_violated(code, &r, "signed-overflow", Some(5));
}

/// Bitwise operators on bounded symbolic operands: the built-in prover tries
/// every value (`&`, `|`, `^`, `<<`, `>>` are evaluated exactly), so these
/// identities hold, and a counterexample it finds is confirmed by the exact
/// evaluator and so *provable*, with a witness. gcc -fsanitize=undefined over
/// x = -4..4: every assertion of the `_ok` program passes; `(x & 3) == x % 4`
/// fails at x = -3, -2, -1.
const BITWISE_BOUNDED: &str = r#"#include <assert.h>
#pragma TASS input {-4 <= x && x <= 4}
int x;
int main(void) {
  int m = -x;
  assert((x | 1) != 0);
  assert((x & 1) == (m & 1));
  assert((x ^ m) <= 0 || x == 0);
  assert((x & -x) == 0 || x != 0);
  assert((x >> 1) * 2 <= x);
  assert(((x & 7) << 2) == (x & 7) * 4);
  return 0;
}
"#;

#[test]
fn bitwise_operators_on_bounded_inputs_are_decided() {
    for prover in ["builtin", "z3"] {
        let (code, r) = verify_with(prover, &[], BITWISE_BOUNDED);
        assert_holds(code, &r);
        let wrong =
            BITWISE_BOUNDED.replace("  return 0;", "  assert((x & 3) == x % 4);\n  return 0;");
        let (code, r) = verify_with(prover, &[], &wrong);
        assert_violated(code, &r, "assertion", Some(12));
        let v = &r["violations"][0];
        assert_eq!(v["certainty"], "provable", "{r:#}");
        let x = v["witness"]["x"].as_i64().expect("a witness for x");
        assert!((-3..=-1).contains(&x), "{r:#}");
    }
}
