//! Conjunctions of floating comparisons (herbrand/ieee levels: `fp_eq`,
//! `fp_lt`, `fp_le` over uninterpreted floating operations) are decided by
//! the built-in prover without a solver (`src/float_literals.rs`). Property:
//! it gives z3's answer on every random conjunction of such literals, and
//! near misses outside the fragment (a symbolic array index, an equality of
//! the operands) are left to the solver, which proves what the syntactic
//! rule would have refuted.

mod common;

use std::sync::Arc;

use proptest::prelude::*;
use tass_prove::api::{BuiltinProver, HybridProver, Prover, SolverKind, Validity};
use tass_symbolic::api::{BigRational, Expr, ExprFactory, Type};

fn double_op(f: &ExprFactory, name: &str, args: &[Expr]) -> Expr {
    let tys: Vec<Type> = args.iter().map(|&x| f.type_of(x)).collect();
    f.apply(f.symbol(name, Type::function(tys, Type::Real)), args)
}

fn predicate(f: &ExprFactory, name: &str, x: Expr, y: Expr) -> Expr {
    f.apply(
        f.symbol(name, Type::function([Type::Real, Type::Real], Type::Bool)),
        &[x, y],
    )
}

/// `a0[i][j]` of the input matrix `a0` (reals).
fn element(f: &ExprFactory, i: i64, j: i64) -> Expr {
    let row = Type::array(Type::Real, Some(f.int(3)));
    let a0 = f.symbol("a0", Type::array(row, Some(f.int(3))));
    f.array_read(f.array_read(a0, f.int(i)), f.int(j))
}

/// The terms the literals compare: elements, zero, one, and elimination steps
/// `x - y * (z / w)` over them (Gauss-Jordan's entries at herbrand level).
fn terms(f: &ExprFactory) -> Vec<Expr> {
    let e = |i, j| element(f, i, j);
    let step = |x, y, z, w| {
        let q = double_op(f, "f64_div", &[z, w]);
        double_op(f, "f64_sub", &[x, double_op(f, "f64_mul", &[y, q])])
    };
    vec![
        f.real(BigRational::from_integer(0.into())),
        f.real(BigRational::from_integer(1.into())),
        e(0, 0),
        e(0, 1),
        e(1, 0),
        e(1, 1),
        step(e(1, 1), e(1, 0), e(0, 1), e(0, 0)),
        step(e(1, 0), e(1, 0), e(0, 0), e(0, 0)),
        step(e(0, 1), e(0, 0), e(1, 1), e(1, 0)),
    ]
}

/// A literal: predicate (`fp_eq`, `fp_lt`, `fp_le`), two term indices, polarity.
type LiteralSpec = (u8, usize, usize, bool);

fn literal_spec() -> impl Strategy<Value = LiteralSpec> {
    (0..3u8, 0..9usize, 0..9usize, any::<bool>())
}

fn build(f: &ExprFactory, terms: &[Expr], (p, x, y, positive): LiteralSpec) -> Expr {
    let (x, y) = (terms[x], terms[y]);
    let atom = match p {
        0 => predicate(f, "fp_eq", x.min(y), x.max(y)),
        1 => predicate(f, "fp_lt", x, y),
        _ => predicate(f, "fp_le", x, y),
    };
    if positive {
        atom
    } else {
        f.not(atom)
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Validity of a literal and satisfiability of the conjunction: the
    /// built-in prover decides both, as z3 does.
    #[test]
    fn floating_literals_are_decided_as_z3_decides_them(
        assume in prop::collection::vec(literal_spec(), 0..7),
        goal in literal_spec(),
    ) {
        let Some(z3) = common::solver(SolverKind::Z3, "float_literals") else {
            return Ok(());
        };
        let f = Arc::new(ExprFactory::new());
        let terms = terms(&f);
        let a = f.and_all(assume.iter().map(|&l| build(&f, &terms, l)).collect::<Vec<_>>());
        let p = build(&f, &terms, goal);
        // A literal folded to a constant (both operands concrete) is not a
        // question for the fragment.
        prop_assume!(f.as_bool(p).is_none());
        let builtin = BuiltinProver::new(f.clone());
        let smt = HybridProver::with_builtin(f.clone(), vec![z3], false);
        let b = builtin.valid(a, p);
        let s = smt.valid(a, p);
        prop_assert_ne!(b, Validity::Maybe, "{} |= {}", f.pretty(a), f.pretty(p));
        prop_assert_eq!(b, s, "{} |= {}", f.pretty(a), f.pretty(p));
        prop_assert_eq!(builtin.is_unsat(a), smt.is_unsat(a), "unsat? {}", f.pretty(a));
    }
}

/// Outside the fragment the solver decides: an element at a symbolic index
/// may be the element the other literal is about, and an equality of two
/// operands makes two atoms one.
#[test]
fn near_misses_are_left_to_the_solver() {
    let Some(z3) = common::solver(SolverKind::Z3, "float_literals") else {
        return;
    };
    let f = Arc::new(ExprFactory::new());
    let zero = f.real(BigRational::from_integer(0.into()));
    let prover = HybridProver::new(f.clone(), vec![z3]);
    // a0[0][i] != 0 && a0[0][1] == 0 && i == 1: unsatisfiable.
    let row = Type::array(Type::Real, Some(f.int(3)));
    let a0 = f.symbol("a0", Type::array(row, Some(f.int(3))));
    let i = f.symbol("i", Type::Int);
    let at_i = f.array_read(f.array_read(a0, f.int(0)), i);
    let pc = f.and_all(vec![
        f.not(predicate(&f, "fp_eq", zero.min(at_i), zero.max(at_i))),
        predicate(
            &f,
            "fp_eq",
            zero.min(element(&f, 0, 1)),
            zero.max(element(&f, 0, 1)),
        ),
        f.eq(i, f.int(1)),
    ]);
    assert!(prover.is_unsat(pc), "{}", f.pretty(pc));
    // x == y && fp_lt(x, 1) && !fp_lt(y, 1): unsatisfiable.
    let (x, y) = (f.symbol("x", Type::Real), f.symbol("y", Type::Real));
    let one = f.real(BigRational::from_integer(1.into()));
    let pc = f.and_all(vec![
        f.eq(x, y),
        predicate(&f, "fp_lt", x, one),
        f.not(predicate(&f, "fp_lt", y, one)),
    ]);
    assert!(prover.is_unsat(pc), "{}", f.pretty(pc));
    // Without the equality both literals hold together; and the fragment
    // proves a literal the path condition contains, without the solver.
    let pc = f.and(
        predicate(&f, "fp_lt", x, one),
        f.not(predicate(&f, "fp_lt", y, one)),
    );
    let builtin = BuiltinProver::new(f.clone());
    assert!(!builtin.is_unsat(pc));
    assert_eq!(
        builtin.valid(pc, predicate(&f, "fp_lt", x, one)),
        Validity::Yes
    );
    assert_eq!(
        builtin.valid(pc, predicate(&f, "fp_lt", y, one)),
        Validity::No
    );
}
