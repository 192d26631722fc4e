//! Property: C quotients and remainders by constants in the built-in prover's
//! linear refutation (`src/int_division.rs`) never contradict z3. Random
//! queries whose atoms add `(linear) / c` and `(linear) % c` terms, `c` in
//! -5..=-2 or 2..=7, over integers that are not boxed (enumeration does not
//! apply: the linear procedure is what decides), with numerators of either
//! sign (C truncates toward zero: `-7 / 2 == -3`, `-7 % 2 == -1`). Whenever
//! both decide they agree, and every model the built-in prover gives is a
//! real counterexample (checked by exact evaluation).

mod common;

use common::{Junction, RandomQuery};

use std::sync::Arc;

use proptest::prelude::*;
use tass_prove::api::{BuiltinProver, HybridProver, Prover, SolverKind, Validity};
use tass_symbolic::api::{Expr, ExprFactory, Type};

/// `coefs . (y0, y1, y2) + constant`.
#[derive(Clone, Debug)]
struct Lin {
    coefs: [i64; 3],
    constant: i64,
}

fn lin() -> impl Strategy<Value = Lin> {
    ([-2i64..3, -2i64..3, -2i64..3], -4i64..5).prop_map(|(coefs, constant)| Lin { coefs, constant })
}

fn divisor() -> impl Strategy<Value = i64> {
    prop_oneof![2i64..8, -5i64..-1]
}

/// `outer . (y0, y1, y2) + q * (num_q / dq) + r * (num_r % dr) + constant op 0`.
#[derive(Clone, Debug)]
struct Atom {
    outer: Lin,
    q: i64,
    num_q: Lin,
    dq: i64,
    r: i64,
    num_r: Lin,
    dr: i64,
    op: u8,
}

fn atom() -> impl Strategy<Value = Atom> {
    (
        lin(),
        -2i64..3,
        lin(),
        divisor(),
        -2i64..3,
        lin(),
        divisor(),
        0..5u8,
    )
        .prop_map(|(outer, q, num_q, dq, r, num_r, dr, op)| Atom {
            outer,
            q,
            num_q,
            dq,
            r,
            num_r,
            dr,
            op,
        })
}

fn build_lin(f: &ExprFactory, vars: &[Expr], l: &Lin) -> Expr {
    let mut sum = f.int(l.constant);
    for (k, &c) in l.coefs.iter().enumerate() {
        sum = f.add(sum, f.mul(f.int(c), vars[k]));
    }
    sum
}

fn build(f: &ExprFactory, vars: &[Expr], a: &Atom) -> Expr {
    let quotient = f.int_div(build_lin(f, vars, &a.num_q), f.int(a.dq));
    let remainder = f.int_mod(build_lin(f, vars, &a.num_r), f.int(a.dr));
    let sum = f.add(
        build_lin(f, vars, &a.outer),
        f.add(f.mul(f.int(a.q), quotient), f.mul(f.int(a.r), remainder)),
    );
    let zero = f.int(0);
    common::relation(f, a.op, sum, zero)
}

/// What each `y_k` is assumed to be: nothing, `>= 0`, or `<= -1`.
fn signs() -> impl Strategy<Value = [u8; 3]> {
    [0..3u8, 0..3u8, 0..3u8]
}

fn check(
    assume: &[Atom],
    signs: [u8; 3],
    pred: &[Atom],
    junction: Junction,
) -> Result<(), TestCaseError> {
    let f = Arc::new(ExprFactory::new());
    let vars = common::constants(&f, 3, &Type::Int);
    let mut a = f.and_all(
        assume
            .iter()
            .map(|x| build(&f, &vars, x))
            .collect::<Vec<_>>(),
    );
    for (&v, sign) in vars.iter().zip(signs) {
        match sign {
            1 => a = f.and(a, f.ge(v, f.int(0))),
            2 => a = f.and(a, f.le(v, f.int(-1))),
            _ => {}
        }
    }
    let query = RandomQuery {
        f: &f,
        vars: &vars,
        ty: &Type::Int,
        assumption: a,
        claim: junction.join(&f, pred.iter().map(|x| build(&f, &vars, x)).collect()),
    };
    common::agrees_with_z3("int_division", &query)?;
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    #[test]
    fn quotients_and_remainders_agree_with_z3(
        assume in prop::collection::vec(atom(), 0..3),
        signs in signs(),
        pred in prop::collection::vec(atom(), 1..3),
        junction in common::junction(),
    ) {
        check(&assume, signs, &pred, junction)?;
    }
}

/// Claims of the kind the paper's `stagger` makes (its invariant
/// `x == 2 * ((i + 1 - PID) / 2)` preserved by one iteration), with every
/// variable unbounded: the built-in prover decides them itself, and z3
/// agrees. Also their false neighbours (no parity fact, or a negative
/// numerator where floor and truncation differ): never proved.
#[test]
fn stagger_like_claims_are_decided_without_smt() {
    let f = Arc::new(ExprFactory::new());
    let [i, x, n] = ["i", "x", "n"].map(|v| f.symbol(v, Type::Int));
    let two = f.int(2);
    let half = |e: Expr| f.int_div(e, two);
    let builtin = BuiltinProver::new(f.clone());
    // rank 0 receives x = i + 2 on an even i; at i + 1 the claim is x == 2 * ((i + 2) / 2)
    let even = f.and(
        f.and(f.ge(i, f.int(0)), f.lt(i, f.mul(two, n))),
        f.eq(f.int_mod(i, two), f.int(0)),
    );
    let received = f.and(even, f.eq(x, f.add(i, two)));
    let claim = f.eq(x, f.mul(two, half(f.add(i, two))));
    // rank 1 sends x = i + 1 on an odd i; at i + 1 the claim is x == 2 * ((i + 1) / 2)
    let odd = f.and(f.ge(i, f.int(0)), f.eq(f.int_mod(i, two), f.int(1)));
    let sent = f.and(odd, f.eq(x, f.add(i, f.int(1))));
    let claim1 = f.eq(x, f.mul(two, half(f.add(i, f.int(1)))));
    // rank 0 on an odd i (no receive): x == 2 * ((i + 1) / 2) |= x == 2 * ((i + 2) / 2)
    let kept = f.and(odd, f.eq(x, f.mul(two, half(f.add(i, f.int(1))))));
    let claim2 = f.eq(x, f.mul(two, half(f.add(i, f.int(2)))));
    for (a, p) in [(received, claim), (sent, claim1), (kept, claim2)] {
        assert_eq!(
            builtin.valid(a, p),
            Validity::Yes,
            "{} |= {}",
            f.pretty(a),
            f.pretty(p)
        );
    }
    // false: without the parity fact, and for a negative odd i (-1 / 2 == 0, not -1)
    let no_parity = f.and(f.ge(i, f.int(0)), f.eq(x, f.add(i, two)));
    let negative_odd = f.and(f.le(i, f.int(-1)), f.eq(f.int_mod(i, two), f.int(-1)));
    let floor_claim = f.eq(f.mul(two, half(i)), f.sub(i, f.int(1)));
    let z3 = common::solver(SolverKind::Z3, "int_division");
    for (a, p) in [(no_parity, claim), (negative_odd, floor_claim)] {
        let b = builtin.valid(a, p);
        assert_ne!(b, Validity::Yes, "{} |= {}", f.pretty(a), f.pretty(p));
    }
    if let Some(z3) = z3 {
        let smt = HybridProver::with_builtin(f.clone(), vec![z3], false);
        assert_eq!(smt.valid(no_parity, claim), Validity::No);
        assert_eq!(smt.valid(negative_odd, floor_claim), Validity::No);
        assert_eq!(smt.valid(received, claim), Validity::Yes);
    }
}
