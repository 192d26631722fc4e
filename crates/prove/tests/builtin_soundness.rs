//! Property: the built-in prover never contradicts z3. Random linear (and mildly
//! nonlinear) integer and real queries; whenever both decide, they agree, and every
//! model the built-in prover gives is a real counterexample (checked by evaluation).

mod common;

use common::{Junction, RandomQuery};

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
    common::relation(f, a.op, sum, zero)
}

/// One random case: assume every `assume` atom, claim the `pred` atoms
/// joined by `junction`.
struct Case<'a> {
    assume: &'a [Atom],
    pred: &'a [Atom],
    junction: Junction,
    /// Each `y_k` also assumed to lie in `lo_k..=hi_k`: the built-in prover
    /// must then decide (it enumerates small boxes).
    bounds: Option<[(i64, i64); 3]>,
}

fn check(ty: Type, case: Case) -> Result<(), TestCaseError> {
    let f = Arc::new(ExprFactory::new());
    let vars = common::constants(&f, 3, &ty);
    let mut a = f.and_all(
        case.assume
            .iter()
            .map(|x| build(&f, &vars, &ty, x))
            .collect::<Vec<_>>(),
    );
    if let Some(bounds) = case.bounds {
        for (&v, (lo, hi)) in vars.iter().zip(bounds) {
            a = f.and(a, f.and(f.ge(v, f.int(lo)), f.le(v, f.int(hi))));
        }
    }
    let query = RandomQuery {
        f: &f,
        vars: &vars,
        ty: &ty,
        assumption: a,
        claim: case.junction.join(
            &f,
            case.pred.iter().map(|x| build(&f, &vars, &ty, x)).collect(),
        ),
    };
    let Some(b) = common::agrees_with_z3("builtin_soundness", &query)? else {
        return Ok(());
    };
    if case.bounds.is_some() {
        prop_assert!(
            b.validity != Validity::Maybe,
            "builtin undecided on a small box: {} |= {} ({})",
            f.pretty(query.assumption),
            f.pretty(query.claim),
            b.reason
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn builtin_agrees_with_z3_over_integers(
        assume in prop::collection::vec(atom(), 1..4),
        pred in prop::collection::vec(atom(), 1..3),
        junction in common::junction(),
    ) {
        check(Type::Int, Case { assume: &assume, pred: &pred, junction, bounds: None })?;
    }

    #[test]
    fn builtin_agrees_with_z3_on_quotients_and_remainders(
        assume in prop::collection::vec(dividing_atom(), 1..4),
        pred in prop::collection::vec(dividing_atom(), 1..3),
        junction in common::junction(),
    ) {
        check(Type::Int, Case { assume: &assume, pred: &pred, junction, bounds: None })?;
    }

    #[test]
    fn builtin_agrees_with_z3_over_reals(
        assume in prop::collection::vec(atom(), 1..4),
        pred in prop::collection::vec(atom(), 1..3),
        junction in common::junction(),
    ) {
        check(Type::Real, Case { assume: &assume, pred: &pred, junction, bounds: None })?;
    }

    /// Nonlinear queries (products, quotients, remainders) over small boxes: the
    /// built-in prover decides every one by enumeration, and agrees with z3.
    #[test]
    fn builtin_decides_nonlinear_queries_on_small_boxes(
        assume in prop::collection::vec(dividing_atom(), 0..3),
        squares in prop::collection::vec(atom(), 0..2),
        pred in prop::collection::vec(dividing_atom(), 1..3),
        junction in common::junction(),
        lows in [-6i64..3, -6i64..3, -6i64..3],
        widths in [0i64..9, 0i64..9, 0i64..9],
    ) {
        let mut assume = assume;
        assume.extend(squares.into_iter().map(|mut a| { a.square = true; a }));
        let bounds = [0, 1, 2].map(|k| (lows[k], lows[k] + widths[k]));
        check(Type::Int, Case { assume: &assume, pred: &pred, junction, bounds: Some(bounds) })?;
    }
}

/// A linear atom over `y0, y1, y2` and the applications `g(y0), g(y1), g(y2)`
/// of an uninterpreted `g`: `sum coefs[k] * term_k + constant op 0`.
#[derive(Clone, Debug)]
struct FunctionAtom {
    coefs: [i64; 6],
    constant: i64,
    op: u8,
}

fn function_atom() -> impl Strategy<Value = FunctionAtom> {
    (
        [-2i64..3, -2i64..3, -2i64..3, -2i64..3, -2i64..3, -2i64..3],
        -4i64..5,
        0..5u8,
    )
        .prop_map(|(coefs, constant, op)| FunctionAtom {
            coefs,
            constant,
            op,
        })
}

fn build_function_atom(f: &ExprFactory, terms: &[Expr], a: &FunctionAtom) -> Expr {
    let mut sum = f.number(BigRational::from_integer(a.constant.into()), &Type::Real);
    for (k, &c) in a.coefs.iter().enumerate() {
        let c = f.number(BigRational::from_integer(c.into()), &Type::Real);
        sum = f.add(sum, f.mul(c, terms[k]));
    }
    let zero = f.zero(&Type::Real);
    match a.op {
        0 => f.lt(sum, zero),
        1 => f.le(sum, zero),
        2 => f.eq(sum, zero),
        3 => f.gt(sum, zero),
        _ => f.ge(sum, zero),
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Queries over an uninterpreted function (the built-in witness search gives
    /// each application a value of its own and keeps only points where equal
    /// arguments get equal values): the built-in prover never refutes what z3
    /// proves.
    #[test]
    fn builtin_agrees_with_z3_with_uninterpreted_functions(
        assume in prop::collection::vec(function_atom(), 1..5),
        pred in prop::collection::vec(function_atom(), 1..3),
        disjunctive: bool,
    ) {
        let Some(z3) = common::solver(SolverKind::Z3, "builtin_soundness") else {
            return Ok(());
        };
        let f = Arc::new(ExprFactory::new());
        let g = f.symbol("g", Type::Function(vec![Type::Real].into(), Arc::new(Type::Real)));
        let ys: Vec<Expr> = ["y0", "y1", "y2"].iter().map(|n| f.symbol(n, Type::Real)).collect();
        let mut terms = ys.clone();
        terms.extend(ys.iter().map(|&y| f.apply(g, &[y])));
        let a = f.and_all(assume.iter().map(|x| build_function_atom(&f, &terms, x)).collect::<Vec<_>>());
        let parts: Vec<Expr> = pred.iter().map(|x| build_function_atom(&f, &terms, x)).collect();
        let p = if disjunctive { f.or_all(parts) } else { f.and_all(parts) };
        let builtin = BuiltinProver::new(f.clone());
        let smt = HybridProver::with_builtin(f.clone(), vec![z3], false);
        let b = builtin.valid(a, p);
        let s = smt.valid(a, p);
        prop_assert!(
            !matches!((b, s), (Validity::Yes, Validity::No) | (Validity::No, Validity::Yes)),
            "builtin {:?} vs z3 {:?} on {} |= {}", b, s, f.pretty(a), f.pretty(p)
        );
    }
}

/// Equal arguments force equal values: `y0 = y1 && g(y0) > g(y1)` has no model,
/// however the search assigns the two applications. Unequal arguments leave
/// them free, and the built-in prover then finds the counterexample itself.
#[test]
fn witness_search_respects_functional_consistency() {
    let f = Arc::new(ExprFactory::new());
    let g = f.symbol(
        "g",
        Type::Function(vec![Type::Real].into(), Arc::new(Type::Real)),
    );
    let y0 = f.symbol("y0", Type::Real);
    let y1 = f.symbol("y1", Type::Real);
    let (g0, g1) = (f.apply(g, &[y0]), f.apply(g, &[y1]));
    let builtin = BuiltinProver::new(f.clone());
    // Valid: y0 = y1 implies g(y0) <= g(y1). Never refuted.
    let same = f.eq(y0, y1);
    assert_ne!(builtin.valid(same, f.le(g0, g1)), Validity::No);
    // y0 < y1 does not imply g(y0) <= g(y1): the built-in prover refutes it
    // (no SMT solver involved) with values for y0 and y1.
    let answer = builtin.valid_with_model(f.lt(y0, y1), f.le(g0, g1));
    assert_eq!(answer.validity, Validity::No, "{}", answer.reason);
    let model = answer.model.expect("a model");
    assert!(model.get("y0").is_some() && model.get("y1").is_some());
    // Twelve independent refinement tests as in the adaptive integrator: the
    // local search satisfies them all (half one way, half the other).
    let mut clauses = Vec::new();
    for k in 0..12i64 {
        let x = f.add(
            y0,
            f.number(BigRational::from_integer(k.into()), &Type::Real),
        );
        let (a, m, b) = (
            f.apply(g, &[x]),
            f.apply(g, &[f.add(x, f.real_ratio(1, 2))]),
            f.apply(g, &[f.add(x, f.real_ratio(1, 1))]),
        );
        let two = f.number(BigRational::from_integer(2.into()), &Type::Real);
        let d = f.sub(f.add(a, b), f.mul(two, m));
        let sq = f.mul(d, d);
        let tol = f.real_ratio(1, 10_000);
        clauses.push(if k % 2 == 0 {
            f.le(sq, tol)
        } else {
            f.gt(sq, tol)
        });
    }
    let assumption = f.and_all(clauses);
    let answer = builtin.valid_with_model(assumption, f.ff());
    assert_eq!(answer.validity, Validity::No, "{}", answer.reason);
}

/// Elements of an input array are slots of the witness search as well: reads
/// at equal indices must get equal values (`i = j && a[i] > 0 && a[j] < 0` has
/// no model), reads at different ones are free, and the Laplace-style question
/// "can the squared change still exceed 2^24 * EPS" is answered by the
/// built-in prover alone.
#[test]
fn witness_search_gives_array_elements_values() {
    let f = Arc::new(ExprFactory::new());
    let a = f.symbol("a", Type::array(Type::Real, Some(f.int(4))));
    let (i, j) = (f.symbol("i", Type::Int), f.symbol("j", Type::Int));
    let builtin = BuiltinProver::new(f.clone());
    let zero = f.zero(&Type::Real);
    let in_range = |x: Expr| f.and(f.ge(x, f.int(0)), f.lt(x, f.int(4)));
    let same = f.and_all(vec![f.eq(i, j), in_range(i), in_range(j)]);
    let contradiction = f.and(
        f.gt(f.array_read(a, i), zero),
        f.lt(f.array_read(a, j), zero),
    );
    assert_ne!(
        builtin.valid(f.and(same, contradiction), f.ff()),
        Validity::No
    );
    let apart = f.and(
        f.gt(f.array_read(a, f.int(0)), f.real_ratio(5, 1)),
        f.lt(f.array_read(a, f.int(1)), f.real_ratio(-5, 1)),
    );
    let answer = builtin.valid_with_model(apart, f.ff());
    assert_eq!(answer.validity, Validity::No, "{}", answer.reason);
    let eps = f.symbol("EPS", Type::Real);
    let d = f.sub(f.array_read(a, f.int(2)), f.array_read(a, f.int(3)));
    let big = f.mul(f.real_ratio(16_777_216, 1), eps);
    let laplace = f.and(f.gt(eps, zero), f.ge(f.mul(d, d), big));
    let answer = builtin.valid_with_model(laplace, f.ff());
    assert_eq!(answer.validity, Validity::No, "{}", answer.reason);
}

/// The witness search solves a constant from the linear bounds its clauses
/// give it (here a window of width 1/30000 no candidate number falls in), and
/// reuses recent witnesses only where they evaluate to counterexamples: a
/// chain of path conditions, each its parent plus one clause (the Laplace
/// iteration's "the squared change is still at least EPS", then "it fell
/// below EPS"), is refuted with checked models, while valid and unsatisfiable
/// queries asked in between are never refuted by an old point.
#[test]
fn witness_search_solves_bounds_and_reuses_points_soundly() {
    let f = Arc::new(ExprFactory::new());
    let builtin = BuiltinProver::new(f.clone());
    let (x, eps) = (f.symbol("x", Type::Real), f.symbol("EPS", Type::Real));
    let zero = f.zero(&Type::Real);
    let refuted = |assumption: Expr, predicate: Expr| {
        let answer = builtin.valid_with_model(assumption, predicate);
        assert_eq!(answer.validity, Validity::No, "{}", answer.reason);
        let model = answer.model.expect("a refutation has a model");
        let mut asg = Assignment::new();
        for (name, v) in [("x", x), ("EPS", eps)] {
            if let Some(ModelValue::Real(q)) = model.get(name) {
                asg.set(v, Value::Real(q.clone()));
            }
        }
        assert_eq!(f.eval_bool(assumption, &asg), Ok(true));
        assert_eq!(f.eval_bool(predicate, &asg), Ok(false));
    };
    // A narrow window: 1/3 < EPS < 10003/30000.
    let window = f.and(
        f.gt(f.mul(f.real_ratio(3, 1), eps), f.real_ratio(1, 1)),
        f.lt(f.mul(f.real_ratio(30_000, 1), eps), f.real_ratio(10_003, 1)),
    );
    refuted(window, f.ff());
    // A growing path condition: x*x / 2^j >= EPS for j = 1..10, EPS > 0.
    let square = f.mul(x, x);
    let mut pc = f.gt(eps, zero);
    for j in 1..=10 {
        let scaled = f.div(square, f.real_ratio(1 << j, 1));
        pc = f.and(pc, f.ge(scaled, eps));
        refuted(pc, f.ff());
        // Valid and unsatisfiable questions in between stay unrefuted.
        assert_eq!(
            builtin.valid(pc, f.gt(f.add(eps, f.real_ratio(1, 1)), zero)),
            Validity::Yes
        );
        assert_ne!(
            builtin.valid(f.and(pc, f.lt(square, zero)), f.ff()),
            Validity::No
        );
    }
    // The iteration stops: x*x / 2^11 < EPS, so EPS lies in (x*x/2048, x*x/1024].
    let stop = f.lt(f.div(square, f.real_ratio(2048, 1)), eps);
    refuted(f.and(pc, stop), f.ff());
}

/// The witness search works on the query with the constants the path
/// condition fixes substituted: a read of an array literal at an index those
/// constants determine (the parallel Laplace code's `v[first + nloc]`, with
/// `first` computed from `NY`) becomes a plain element read it can give a
/// value, and the model it returns includes the fixed constants.
#[test]
fn witness_search_reads_arrays_at_indices_the_path_condition_fixes() {
    let f = Arc::new(ExprFactory::new());
    let builtin = BuiltinProver::new(f.clone());
    let a = f.symbol("a", Type::array(Type::Real, Some(f.int(3))));
    let n = f.symbol("N", Type::Int);
    let elements: Vec<Expr> = (0..3).map(|k| f.array_read(a, f.int(k))).collect();
    let row = f.array_literal(Type::array(Type::Real, Some(f.int(3))), &elements);
    let fixed = f.and(f.ge(n, f.int(4)), f.le(n, f.int(4)));
    let picked = f.array_read(row, f.sub(n, f.int(2)));
    let assumption = f.and(fixed, f.gt(f.mul(picked, picked), f.real_ratio(50, 1)));
    let answer = builtin.valid_with_model(assumption, f.ff());
    assert_eq!(answer.validity, Validity::No, "{}", answer.reason);
    let model = answer.model.expect("a refutation has a model");
    assert_eq!(model.get("N"), Some(&ModelValue::Int(4.into())));
}

/// The witness search evaluates large quadratic forms: the squared changes of
/// two Jacobi sweeps over a 30 x 4 grid of inputs are sums of squares of
/// linear forms over 120 unknowns, thousands of monomials each. The path
/// condition of the Laplace iteration ("the first change was at least EPS") is
/// satisfiable with either outcome of the second test, and the search shows it
/// with checked models (such literals were once too large to evaluate, and
/// every query went to an SMT solver, which timed out).
#[test]
fn witness_search_evaluates_large_quadratic_forms() {
    let f = Arc::new(ExprFactory::new());
    let builtin = BuiltinProver::new(f.clone());
    let (rows, cols) = (30usize, 4usize);
    let g0: Vec<Vec<Expr>> = (0..rows)
        .map(|i| {
            (0..cols)
                .map(|j| f.symbol(&format!("g_{i}_{j}"), Type::Real))
                .collect()
        })
        .collect();
    let eps = f.symbol("EPS", Type::Real);
    let quarter = f.real_ratio(1, 4);
    // One sweep: the new grid and its squared change.
    let sweep = |g: &Vec<Vec<Expr>>| {
        let mut next = g.clone();
        let mut err = f.zero(&Type::Real);
        for i in 1..rows - 1 {
            for j in 1..cols - 1 {
                let sum = f.add(
                    f.add(g[i - 1][j], g[i + 1][j]),
                    f.add(g[i][j - 1], g[i][j + 1]),
                );
                next[i][j] = f.mul(quarter, sum);
                let d = f.sub(next[i][j], g[i][j]);
                err = f.add(err, f.mul(d, d));
            }
        }
        (next, err)
    };
    let (g1, err1) = sweep(&g0);
    let (_, err2) = sweep(&g1);
    let pc = f.and(f.gt(eps, f.zero(&Type::Real)), f.ge(err1, eps));
    for (assumption, predicate) in [
        (pc, f.ff()),
        (f.and(pc, f.ge(err2, eps)), f.ff()),
        (f.and(pc, f.lt(err2, eps)), f.ff()),
    ] {
        let answer = builtin.valid_with_model(assumption, predicate);
        assert_eq!(answer.validity, Validity::No, "{}", answer.reason);
        let model = answer.model.expect("a refutation has a model");
        let mut asg = Assignment::new();
        for row in &g0 {
            for &x in row {
                asg.set(x, Value::Real(BigRational::from_integer(0.into())));
            }
        }
        for (name, value) in model.iter() {
            if let ModelValue::Real(q) = value {
                asg.set(f.symbol(name, Type::Real), Value::Real(q.clone()));
            }
        }
        assert_eq!(f.eval_bool(assumption, &asg), Ok(true));
    }
}
