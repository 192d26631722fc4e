//! Property: substituting the assumption's equalities between integer
//! constants before the built-in prover's linear refutation
//! (`src/equalities.rs`) never contradicts z3. Random queries over four
//! integers `y0..y3` whose assumptions chain equalities `y_a == s * y_b + k`
//! (`s` = 1 or -1, and `2 * y_a == y_b`, which must *not* be substituted:
//! `y_b` is even there) with atoms holding quotients and remainders by
//! constants of linear expressions (what LISE's lagged path conditions look
//! like: `i1 == i2 - 1`, `(i2 % 2) == 0`, claim `(i1 % 2) != 0`). Whenever
//! both decide they agree, and every model the built-in prover gives is a
//! real counterexample (checked by exact evaluation of the original query).

mod common;

use common::{Junction, RandomQuery};

use std::sync::Arc;

use proptest::prelude::*;
use tass_prove::api::{BuiltinProver, Prover, Validity};
use tass_symbolic::api::{Expr, ExprFactory, Type};

/// `y_a == s * y_b + k` (`double`: `2 * y_a == y_b + k` instead).
#[derive(Clone, Debug)]
struct Equality {
    a: usize,
    b: usize,
    negated: bool,
    double: bool,
    k: i64,
}

fn equality() -> impl Strategy<Value = Equality> {
    (
        0..4usize,
        0..4usize,
        any::<bool>(),
        prop::bool::weighted(0.2),
        -3i64..4,
    )
        .prop_map(|(a, b, negated, double, k)| Equality {
            a,
            b,
            negated,
            double,
            k,
        })
}

/// `c * ((y_v + k) op d) + e * y_w  rel  m`, `op` is `/` or `%`.
#[derive(Clone, Debug)]
struct Atom {
    c: i64,
    v: usize,
    k: i64,
    remainder: bool,
    d: i64,
    e: i64,
    w: usize,
    rel: u8,
    m: i64,
}

fn atom() -> impl Strategy<Value = Atom> {
    (
        (-2i64..3, 0..4usize, -2i64..3, any::<bool>()),
        prop_oneof![2i64..5, -3i64..-1],
        (-1i64..2, 0..4usize, 0..5u8, -3i64..4),
    )
        .prop_map(|((c, v, k, remainder), d, (e, w, rel, m))| Atom {
            c,
            v,
            k,
            remainder,
            d,
            e,
            w,
            rel,
            m,
        })
}

fn build_equality(f: &ExprFactory, y: &[Expr], q: &Equality) -> Expr {
    let b = if q.negated { f.neg(y[q.b]) } else { y[q.b] };
    let rhs = f.add(b, f.int(q.k));
    if q.double {
        f.eq(f.mul(f.int(2), y[q.a]), rhs)
    } else {
        f.eq(y[q.a], rhs)
    }
}

fn build_atom(f: &ExprFactory, y: &[Expr], a: &Atom) -> Expr {
    let numerator = f.add(y[a.v], f.int(a.k));
    let divided = if a.remainder {
        f.int_mod(numerator, f.int(a.d))
    } else {
        f.int_div(numerator, f.int(a.d))
    };
    let lhs = f.add(f.mul(f.int(a.c), divided), f.mul(f.int(a.e), y[a.w]));
    let m = f.int(a.m);
    common::relation(f, a.rel, lhs, m)
}

fn check(
    equalities: &[Equality],
    assumed: &[Atom],
    claimed: &[Atom],
    junction: Junction,
) -> Result<(), TestCaseError> {
    let f = Arc::new(ExprFactory::new());
    let y = common::constants(&f, 4, &Type::Int);
    let mut parts: Vec<Expr> = equalities
        .iter()
        .map(|q| build_equality(&f, &y, q))
        .collect();
    parts.extend(assumed.iter().map(|a| build_atom(&f, &y, a)));
    let query = RandomQuery {
        f: &f,
        vars: &y,
        ty: &Type::Int,
        assumption: f.and_all(parts),
        claim: junction.join(&f, claimed.iter().map(|x| build_atom(&f, &y, x)).collect()),
    };
    common::agrees_with_z3("equalities", &query)?;
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 128, ..ProptestConfig::default() })]

    #[test]
    fn substituted_equalities_agree_with_z3(
        equalities in prop::collection::vec(equality(), 1..4),
        assumed in prop::collection::vec(atom(), 0..3),
        claimed in prop::collection::vec(atom(), 1..3),
        junction in common::junction(),
    ) {
        check(&equalities, &assumed, &claimed, junction)?;
    }
}

/// The shape of `stagger`'s lagged queries that went to z3 before: the
/// loop counters of two records and two processes tied by equalities, a
/// parity fact on one, the claim on another. Decided in-process now, and
/// their false neighbours are not proved.
#[test]
fn lagged_parity_claims_are_decided_without_smt() {
    let f = Arc::new(ExprFactory::new());
    let [i1, j1, i2, n] = ["i1", "j1", "i2", "n"].map(|v| f.symbol(v, Type::Int));
    let two = f.int(2);
    let base = f.and_all([
        f.ge(i1, f.int(0)),
        f.gt(f.mul(two, n), i2),
        f.eq(i1, j1),
        f.eq(i1, f.sub(i2, f.int(1))),
        f.eq(f.int_mod(i2, two), f.int(0)),
    ]);
    let builtin = BuiltinProver::new(f.clone());
    // i1 is odd: (j1 % 2) != 0 holds, (j1 % 2) == 0 does not
    assert_eq!(
        builtin.valid(base, f.ne(f.int_mod(j1, two), f.int(0))),
        Validity::Yes
    );
    let refuted = builtin.valid_with_model(base, f.eq(f.int_mod(j1, two), f.int(0)));
    assert_eq!(refuted.validity, Validity::No);
    assert!(refuted.model.is_some());
    // without the tie i1 == i2 - 1 nothing is known about j1's parity
    let loose = f.and_all([
        f.ge(i1, f.int(0)),
        f.eq(i1, j1),
        f.eq(f.int_mod(i2, two), f.int(0)),
    ]);
    assert_ne!(
        builtin.valid(loose, f.ne(f.int_mod(j1, two), f.int(0))),
        Validity::Yes
    );
    // 2 * i1 == i2 must not be read as i1 == i2 / 2 for odd i2
    let halved = f.and(f.eq(f.mul(two, i1), i2), f.eq(f.int_mod(i2, two), f.int(1)));
    assert_eq!(builtin.valid(halved, f.ff()), Validity::Yes);
    assert_ne!(
        builtin.valid(
            f.eq(f.mul(two, i1), f.add(i2, f.int(1))),
            f.eq(i1, f.int_div(i2, two))
        ),
        Validity::Yes
    );
}
