//! Property: the built-in prover never contradicts z3. Random linear (and mildly
//! nonlinear) integer and real queries; whenever both decide, they agree, and every
//! model the built-in prover gives is a real counterexample (checked by evaluation).

mod common;

use std::sync::Arc;

use proptest::prelude::*;
use tass_prove::api::{BuiltinProver, HybridProver, ModelValue, Prover, SolverKind, Validity};
use tass_symbolic::api::{Assignment, BigRational, Expr, ExprFactory, Type, Value};

#[derive(Clone, Debug)]
struct Atom {
    coefs: [i64; 3],
    constant: i64,
    op: u8,
    square: bool,
    /// 0: none; 1: add `(y0 + y1) / divisor`; 2: add `(y0 - y2) % divisor`
    /// (integers only).
    division: u8,
    divisor: i64,
}

fn atom() -> impl Strategy<Value = Atom> {
    (
        [-3i64..4, -3i64..4, -3i64..4],
        -6i64..7,
        0..5u8,
        prop::bool::weighted(0.15),
    )
        .prop_map(|(coefs, constant, op, square)| Atom {
            coefs,
            constant,
            op,
            square,
            division: 0,
            divisor: 1,
        })
}

/// Atoms that may divide by a constant (C's truncating `/` and `%`).
fn dividing_atom() -> impl Strategy<Value = Atom> {
    (atom(), 0..3u8, -3i64..8).prop_map(|(mut a, division, divisor)| {
        a.square = false;
        a.division = division;
        a.divisor = divisor;
        a
    })
}

fn build(f: &ExprFactory, vars: &[Expr], ty: &Type, a: &Atom) -> Expr {
    let mut sum = f.number(BigRational::from_integer(a.constant.into()), ty);
    for (k, &c) in a.coefs.iter().enumerate() {
        let term = f.mul(f.number(BigRational::from_integer(c.into()), ty), vars[k]);
        sum = f.add(sum, term);
    }
    if a.square {
        sum = f.add(sum, f.mul(vars[0], vars[1]));
    }
    match a.division {
        1 => sum = f.add(sum, f.int_div(f.add(vars[0], vars[1]), f.int(a.divisor))),
        2 => sum = f.add(sum, f.int_mod(f.sub(vars[0], vars[2]), f.int(a.divisor))),
        _ => {}
    }
    let zero = f.zero(ty);
    match a.op {
        0 => f.gt(sum, zero),
        1 => f.ge(sum, zero),
        2 => f.eq(sum, zero),
        3 => f.ne(sum, zero),
        _ => f.lt(sum, zero),
    }
}

fn check(
    f: &Arc<ExprFactory>,
    ty: Type,
    assume: &[Atom],
    pred: &[Atom],
    disjunctive: bool,
) -> Result<(), TestCaseError> {
    check_boxed(f, ty, assume, pred, disjunctive, None)
}

/// Like [`check`]; with `bounds`, each `y_k` is also assumed to lie in
/// `lo_k..=hi_k` and the built-in prover must decide (it enumerates small boxes).
fn check_boxed(
    f: &Arc<ExprFactory>,
    ty: Type,
    assume: &[Atom],
    pred: &[Atom],
    disjunctive: bool,
    bounds: Option<[(i64, i64); 3]>,
) -> Result<(), TestCaseError> {
    let Some(z3) = common::solver(SolverKind::Z3, "builtin_soundness") else {
        return Ok(());
    };
    let vars: Vec<Expr> = ["y0", "y1", "y2"]
        .iter()
        .map(|n| f.symbol(n, ty.clone()))
        .collect();
    let mut a = f.and_all(
        assume
            .iter()
            .map(|x| build(f, &vars, &ty, x))
            .collect::<Vec<_>>(),
    );
    if let Some(bounds) = bounds {
        for (&v, (lo, hi)) in vars.iter().zip(bounds) {
            a = f.and(a, f.and(f.ge(v, f.int(lo)), f.le(v, f.int(hi))));
        }
    }
    let parts: Vec<Expr> = pred.iter().map(|x| build(f, &vars, &ty, x)).collect();
    let p = if disjunctive {
        f.or_all(parts)
    } else {
        f.and_all(parts)
    };
    let builtin = BuiltinProver::new(f.clone());
    let smt = HybridProver::with_builtin(f.clone(), vec![z3], false);
    let b = builtin.valid_with_model(a, p);
    let s = smt.valid(a, p);
    let conflict = matches!(
        (b.validity, s),
        (Validity::Yes, Validity::No) | (Validity::No, Validity::Yes)
    );
    prop_assert!(
        !conflict,
        "builtin {:?} vs z3 {:?} on {} |= {}",
        b.validity,
        s,
        f.pretty(a),
        f.pretty(p)
    );
    if bounds.is_some() {
        prop_assert!(
            b.validity != Validity::Maybe,
            "builtin undecided on a small box: {} |= {} ({})",
            f.pretty(a),
            f.pretty(p),
            b.reason
        );
    }
    if let Some(m) = b.model {
        let mut asg = Assignment::new();
        for (k, &v) in vars.iter().enumerate() {
            let name = format!("y{k}");
            let value = match m.get(&name) {
                Some(ModelValue::Int(i)) => Value::Int(i.clone()),
                Some(ModelValue::Real(q)) => Value::Real(q.clone()),
                // A constant absent from the model does not occur in the query.
                _ => Value::Int(0.into()),
            };
            let value = match (&ty, value) {
                (Type::Real, Value::Int(i)) => Value::Real(BigRational::from_integer(i)),
                (_, v) => v,
            };
            asg.set(v, value);
        }
        prop_assert_eq!(f.eval_bool(a, &asg), Ok(true));
        prop_assert_eq!(f.eval_bool(p, &asg), Ok(false));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn builtin_agrees_with_z3_over_integers(
        assume in prop::collection::vec(atom(), 1..4),
        pred in prop::collection::vec(atom(), 1..3),
        disjunctive: bool,
    ) {
        let f = Arc::new(ExprFactory::new());
        check(&f, Type::Int, &assume, &pred, disjunctive)?;
    }

    #[test]
    fn builtin_agrees_with_z3_on_quotients_and_remainders(
        assume in prop::collection::vec(dividing_atom(), 1..4),
        pred in prop::collection::vec(dividing_atom(), 1..3),
        disjunctive: bool,
    ) {
        let f = Arc::new(ExprFactory::new());
        check(&f, Type::Int, &assume, &pred, disjunctive)?;
    }

    #[test]
    fn builtin_agrees_with_z3_over_reals(
        assume in prop::collection::vec(atom(), 1..4),
        pred in prop::collection::vec(atom(), 1..3),
        disjunctive: bool,
    ) {
        let f = Arc::new(ExprFactory::new());
        check(&f, Type::Real, &assume, &pred, disjunctive)?;
    }

    /// Nonlinear queries (products, quotients, remainders) over small boxes: the
    /// built-in prover decides every one by enumeration, and agrees with z3.
    #[test]
    fn builtin_decides_nonlinear_queries_on_small_boxes(
        assume in prop::collection::vec(dividing_atom(), 0..3),
        squares in prop::collection::vec(atom(), 0..2),
        pred in prop::collection::vec(dividing_atom(), 1..3),
        disjunctive: bool,
        lows in [-6i64..3, -6i64..3, -6i64..3],
        widths in [0i64..9, 0i64..9, 0i64..9],
    ) {
        let f = Arc::new(ExprFactory::new());
        let mut assume = assume;
        assume.extend(squares.into_iter().map(|mut a| { a.square = true; a }));
        let bounds = [0, 1, 2].map(|k| (lows[k], lows[k] + widths[k]));
        check_boxed(&f, Type::Int, &assume, &pred, disjunctive, Some(bounds))?;
    }
}
