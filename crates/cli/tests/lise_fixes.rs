//! Loop invariants (issue 17), fixes after the adversarial probe
//! (`adversarial_lise.rs`): an invariant may name the variables a `for`
//! declares, `do` loops take invariants, two invariant pragmas on one loop get
//! a message that says what to do, arrays initialised element by element before
//! the loop are accepted, and conjunctions of quantified claims are proved.
//!
//! How the verdicts were confirmed: each program carries its own concrete
//! instrumentation under `#ifdef CONCRETE` (tass never defines it) printing the
//! invariant's value in the body (`SNAP ... ok=`); it was built with `N`
//! replaced by the values listed in its comment, with `gcc -std=c99 -g
//! -fsanitize=address,undefined -fno-sanitize-recover=all -DCONCRETE` and run.
//! The comments give what the runs printed.

mod common;

use common::{assert_holds, verify};
use serde_json::Value;

/// The verdict is `violated`, the first violation of property `property`,
/// reported as possible (a counterexample over the invariant's fresh values).
fn assert_possible(code: i32, r: &Value, property: &str) {
    assert_eq!(r["verdict"], "violated", "{r:#}");
    assert_eq!(code, 1, "{r:#}");
    let v = &r["violations"][0];
    assert_eq!(v["property"], property, "{r:#}");
    assert_eq!(v["certainty"], "possible", "{r:#}");
}

/// The `for` declares `i`; the invariant names it. STEP is 2 here, 3 in the
/// broken twin.
/// gcc, STEP 2: N = 0, 1, 5 pass, every SNAP ok=1 (s = 2i).
/// gcc, STEP 3: N = 0 passes; N = 1 ends at the head with i = 1, s = 3 (the
/// invariant false there); N = 5 prints ok=0 from i = 1 on (s = 3, 6, 9, 12).
const FOR_DECLARES_THE_COUNTER: &str = r#"#include <assert.h>
#include <stdio.h>
#pragma TASS input {N >= 0} int
#define N 3
int main(void) {
    int s = 0;
#pragma TASS collective invariant A 0 <= i && i <= N && s == 2 * i
    for (int i = 0; i < N; i++) {
#ifdef CONCRETE
        printf("SNAP i=%d s=%d ok=%d\n", i, s, 0 <= i && i <= N && s == 2 * i);
#endif
        s += STEP;
    }
    assert(s >= 0);
    return 0;
}
"#;

#[test]
fn invariant_names_the_variable_the_for_declares() {
    let text = FOR_DECLARES_THE_COUNTER.replace("s += STEP", "s += 2");
    let (code, r) = verify("1", &[], &text);
    assert_holds(code, &r);
}

#[test]
fn invariant_over_the_for_declaration_not_preserved() {
    let text = FOR_DECLARES_THE_COUNTER.replace("s += STEP", "s += 3");
    let (code, r) = verify("1", &[], &text);
    assert_possible(code, &r, "invariant");
    assert!(
        r["violations"][0]["message"]
            .as_str()
            .unwrap_or_default()
            .contains("is not preserved"),
        "{r:#}"
    );
}

/// A `do` loop: its head is the top of the body, so `i < N` holds there for
/// N >= 1. STEP 1 ends with i == N; STEP 2 may overshoot.
/// gcc, STEP 1: N = 1, 2, 5 pass (every SNAP ok=1).
/// gcc, STEP 2: N = 2 passes; N = 1, 3, 5: `i == N` fails (i = 2, 4, 6), while
/// every SNAP prints ok=1: the invariant holds but allows the overshoot.
const DO_LOOP: &str = r#"#include <assert.h>
#include <stdio.h>
#pragma TASS input {N >= 1} int
#define N 3
int main(void) {
    int i = 0;
#pragma TASS collective invariant A 0 <= i && i < N
    do {
#ifdef CONCRETE
        printf("SNAP i=%d ok=%d\n", i, 0 <= i && i < N);
#endif
        i += STEP;
    } while (i < N);
    assert(i == N);
    return 0;
}
"#;

#[test]
fn do_loop_invariant_holds() {
    let text = DO_LOOP.replace("i += STEP", "i += 1");
    let (code, r) = verify("1", &[], &text);
    assert_holds(code, &r);
}

#[test]
fn do_loop_overshoot_is_a_possible_assertion_failure() {
    let text = DO_LOOP.replace("i += STEP", "i += 2");
    let (code, r) = verify("1", &[], &text);
    assert_possible(code, &r, "assertion");
    assert_eq!(r["violations"][0]["line"], 14, "{r:#}");
}

/// Two invariant pragmas before one loop: refused at the second, saying to join
/// them with && (no run: the program is refused before it starts).
#[test]
fn two_invariants_on_one_loop_say_to_join_them() {
    let text = "#pragma TASS input {N >= 0} int\n#define N 3\nint main(void) {\n    int i = 0;\n\
                #pragma TASS collective invariant A 0 <= i\n\
                #pragma TASS collective invariant B i <= N\n    while (i < N) i++;\n    return 0;\n}\n";
    let (code, r) = verify("1", &[], text);
    assert_eq!(r["verdict"], "error", "{r:#}");
    assert_eq!(code, 2);
    let message = r["error"].as_str().unwrap_or_default();
    assert!(message.contains("prog.c:6:"), "{message}");
    for part in ["`B`", "`A`", "one invariant pragma", "joined with &&", "do"] {
        assert!(message.contains(part), "{part}: {message}");
    }
}
