//! Witnesses of lassos closed by set equality (`--match set`, the backward
//! pruning of the paper on explicit control and symbolic data, Sec. 3.3):
//! the lasso is restricted to the inputs that drive it, a candidate is drawn
//! from that set and confirmed by running it through the product again; only
//! a confirmed witness makes the violation certain.
//!
//! Concrete confirmations:
//! - `EVEN_STEPS` (gcc -fsanitize=address,undefined, 1,000 iterations, x from
//!   argv): x = 0 and 2 meet y == 0 200 times, x = 1, 3 and 9 never: only odd
//!   inputs violate `G F {y == 0}`.
//! - `fevs/mpi/ltl_mutex_keep_bad.c` (mpicc -fsanitize=address,undefined
//!   -DROUNDS=6, mpirun --allow-run-as-root --oversubscribe -np 2, also with
//!   --mca btl self,tcp and 56-byte eager limits): l0 = 0 and 2 alternate the
//!   ranks' critical sections; l0 = 1 and 3 print six critical sections of
//!   rank 0 with l = 1, 3, 5, 7, 9, 1 (the state comes back after five
//!   passes) and none of rank 1.
//! - `DOUBLING` has no concrete lasso: y doubles forever (in exact
//!   arithmetic it never repeats), so no witness can be confirmed.

mod common;

use common::verify;
use serde_json::Value;

/// y steps through the even or the odd residues mod 10, as x starts it.
const EVEN_STEPS: &str = "#pragma TASS input {0 <= x && x < 10 RESTRICT}
int x;
int y;
#pragma TASS ltl zero G F {y == 0}
int main(void) {
  y = x;
  for (;;) {
    y = (y + 2) % 10;
  }
}
";

fn witness_int(v: &Value, name: &str) -> i64 {
    v["witness"][name]
        .as_i64()
        .unwrap_or_else(|| panic!("witness {name}: {v:#}"))
}

#[test]
fn a_set_lasso_gets_a_confirmed_witness_among_the_violating_inputs() {
    let text = EVEN_STEPS.replace(" RESTRICT", "");
    let (code, r) = verify("1", &["--match", "set", "--timeout", "120"], &text);
    assert_eq!(code, 1, "{r:#}");
    let v = &r["violations"][0];
    assert_eq!(v["property"], "ltl", "{r:#}");
    assert_eq!(v["certainty"], "provable", "{r:#}");
    assert!(
        v["message"].as_str().unwrap_or("").contains("confirmed"),
        "{r:#}"
    );
    assert_eq!(witness_int(v, "x") % 2, 1, "only odd inputs violate\n{r:#}");
    // The witness is a real run: fixed, the syntactic search agrees.
    let x = format!("x={}", witness_int(v, "x"));
    let (code, r) = verify("1", &["-i", &x, "--timeout", "120"], &text);
    assert_eq!(
        (code, r["verdict"].as_str()),
        (1, Some("violated")),
        "{r:#}"
    );
    // Even inputs only: the formula holds, by set matching and for each
    // fixed even input (the syntactic search with x symbolic never ends: y's
    // expression grows).
    let even = EVEN_STEPS.replace("RESTRICT", "&& x % 2 == 0");
    let (code, r) = verify("1", &["--match", "set", "--timeout", "120"], &even);
    assert_eq!((code, r["verdict"].as_str()), (0, Some("holds")), "{r:#}");
    for x in ["x=0", "x=4"] {
        let (code, r) = verify("1", &["-i", x, "--timeout", "120"], &text);
        assert_eq!((code, r["verdict"].as_str()), (0, Some("holds")), "{r:#}");
    }
}

fn fevs(name: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/../../fevs/mpi/{name}.c",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("fevs program")
}

#[test]
fn mpi_set_lasso_witness_is_an_odd_counter() {
    let text = fevs("ltl_mutex_keep_bad");
    let (code, r) = verify("2", &["--match", "set", "--timeout", "120"], &text);
    assert_eq!(code, 1, "{r:#}");
    let v = &r["violations"][0];
    assert_eq!(v["property"], "ltl", "{r:#}");
    assert!(
        v["message"].as_str().unwrap_or("").contains("`live1`"),
        "{r:#}"
    );
    assert_eq!(v["certainty"], "provable", "{r:#}");
    let l0 = witness_int(v, "l0");
    assert_eq!(l0 % 2, 1, "{r:#}");
    // Fixed inputs: even holds, the witness violates.
    let (code, r) = verify("2", &["-i", "l0=2", "--timeout", "120"], &text);
    assert_eq!((code, r["verdict"].as_str()), (0, Some("holds")), "{r:#}");
    let l0 = format!("l0={l0}");
    let (code, r) = verify("2", &["-i", &l0, "--timeout", "120"], &text);
    assert_eq!(
        (code, r["verdict"].as_str()),
        (1, Some("violated")),
        "{r:#}"
    );
}

/// y > 0 doubles forever: the set {y > 0} is its own image, so the quotient
/// closes a cycle, but no run comes back to a state. The violation is real
/// (the label is never reached) yet no witness can be confirmed as a lasso:
/// it stays possible, with the reason.
const DOUBLING: &str = "#pragma TASS input {x > 0}
double x;
double y;
#pragma TASS ltl here G F PROC[0]@here
int main(void) {
  y = x;
  for (;;) {
    y = y * 2;
    if (y < 0) {
    here:
      y = 1;
    }
  }
}
";

#[test]
fn an_unconfirmed_set_lasso_stays_possible_without_witness() {
    let (code, r) = verify("1", &["--match", "set", "--timeout", "8"], DOUBLING);
    assert_eq!(code, 1, "{r:#}");
    let v = &r["violations"][0];
    assert_eq!(v["property"], "ltl", "{r:#}");
    assert_eq!(v["certainty"], "possible", "{r:#}");
    assert!(v["witness"].is_null(), "{r:#}");
    // The text report says why.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_tass"))
        .args(["verify", "--match", "set", "--timeout", "8"])
        .arg(common::inline(DOUBLING))
        .output()
        .expect("run tass");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("no input was confirmed to drive it"),
        "{text}"
    );
}
