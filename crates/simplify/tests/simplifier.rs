//! The simplifier on hand-written assumptions.

use std::sync::Arc;

use tass_simplify::api::{Simplifier, SimplifierCache};
use tass_symbolic::api::{BigRational, Expr, ExprFactory, Type};

fn setup() -> (Arc<ExprFactory>, Vec<Expr>) {
    let f = Arc::new(ExprFactory::new());
    let xs = (0..3)
        .map(|i| f.symbol(&format!("X{i}"), Type::Int))
        .collect();
    (f, xs)
}

#[test]
fn paper_example_section_4_5() {
    let (f, x) = setup();
    let sum = f.add_all(&Type::Int, x.iter().copied());
    let lin = f.add_all(&Type::Int, [x[0], f.mul(f.int(-2), x[1]), x[2]]);
    let pc = f.and_all([
        f.le(sum, f.int(6)),
        f.ge(sum, f.int(6)),
        f.eq(lin, f.int(18)),
    ]);
    let a = f.add_all(&Type::Int, x.iter().map(|&v| f.mul(v, v)));
    let b = f.gt(x[1], f.int(0));
    let s = Simplifier::new(f.clone(), pc);
    assert!(!s.is_contradictory());
    // exactly the paper's results
    let expected_pc = f.eq(f.add(x[0], x[2]), f.int(10));
    assert_eq!(s.reduced_assumption(), expected_pc);
    assert_eq!(f.pretty(s.reduced_assumption()), "X0 + X2 == 10");
    let expected_a = f.add_all(
        &Type::Int,
        [f.mul(x[0], x[0]), f.mul(x[2], x[2]), f.int(16)],
    );
    assert_eq!(s.simplify(a), expected_a);
    assert_eq!(f.pretty(s.simplify(a)), "X0*X0 + X2*X2 + 16");
    assert_eq!(s.simplify(b), f.ff());
    // X1 was eliminated with value -4
    assert_eq!(s.eliminated(), &[(x[1], f.int(-4))]);
    let equiv = s.equivalent_assumption();
    assert_eq!(equiv, f.and(expected_pc, f.eq(x[1], f.int(-4))));
    // the assumption itself simplifies to true
    assert_eq!(s.simplify(pc), f.tt());
    assert_eq!(s.decide(f.eq(f.add(x[0], x[2]), f.int(10))), Some(true));
}

#[test]
fn substitution_of_a_solved_constant() {
    let (f, x) = setup();
    // the architecture section's example: x = 3 simplifies x + y - 1 to y + 2
    let pc = f.eq(x[0], f.int(3));
    let s = Simplifier::new(f.clone(), pc);
    let e = f.sub(f.add(x[0], x[1]), f.int(1));
    assert_eq!(s.simplify(e), f.add(x[1], f.int(2)));
    assert_eq!(s.reduced_assumption(), f.tt());
}

#[test]
fn contradictions_are_detected() {
    let (f, x) = setup();
    let zero = f.int(0);
    let cases = [
        f.and(f.gt(x[0], zero), f.lt(x[0], zero)),
        f.and(f.eq(x[0], f.int(1)), f.eq(x[0], f.int(2))),
        // 2*X0 == 2*X1 + 1 has no integer solution
        f.eq(
            f.mul(f.int(2), x[0]),
            f.add(f.mul(f.int(2), x[1]), f.int(1)),
        ),
        // X0 + X1 == 3, X0 - X1 == 0: X0 = 3/2 is not an integer
        f.and(f.eq(f.add(x[0], x[1]), f.int(3)), f.eq(x[0], x[1])),
        // bounds on a sum
        f.and_all([
            f.ge(f.add(x[0], x[1]), f.int(5)),
            f.le(x[0], f.int(1)),
            f.eq(x[1], f.int(2)),
        ]),
    ];
    for pc in cases {
        let s = Simplifier::new(f.clone(), pc);
        assert!(s.is_contradictory(), "{}", f.pretty(pc));
        assert_eq!(s.reduced_assumption(), f.ff());
        assert_eq!(s.decide(x[0]), Some(true));
    }
}

#[test]
fn bounds_decide_relations() {
    let (f, x) = setup();
    let pc = f.and(f.ge(x[0], f.int(0)), f.le(x[0], f.int(10)));
    let s = Simplifier::new(f.clone(), pc);
    assert_eq!(s.simplify(f.lt(x[0], f.int(11))), f.tt());
    assert_eq!(s.simplify(f.gt(x[0], f.int(10))), f.ff());
    assert_eq!(s.simplify(f.eq(x[0], f.int(-1))), f.ff());
    assert_eq!(s.simplify(f.ne(x[0], f.int(12))), f.tt());
    // undecided stays
    let p = f.lt(x[0], f.int(5));
    assert_eq!(s.simplify(p), p);
    // products: 0 <= X0*X0 <= 100
    let sq = f.mul(x[0], x[0]);
    assert_eq!(s.simplify(f.le(sq, f.int(100))), f.tt());
    let iv = s.bounds(f.add(x[0], f.int(1)));
    assert_eq!(
        iv.lower.map(|b| b.value),
        Some(BigRational::from_integer(1.into()))
    );
    assert_eq!(
        iv.upper.map(|b| b.value),
        Some(BigRational::from_integer(11.into()))
    );
    assert_eq!(s.reduced_assumption(), pc);
}

#[test]
fn strict_integer_bounds_pin_a_value() {
    let (f, x) = setup();
    let pc = f.and(f.gt(x[0], f.int(3)), f.lt(x[0], f.int(5)));
    let s = Simplifier::new(f.clone(), pc);
    assert_eq!(s.simplify(x[0]), f.int(4));
    assert_eq!(s.simplify(f.mul(x[0], x[1])), f.mul(f.int(4), x[1]));
    assert_eq!(s.reduced_assumption(), f.tt());
    // monic linear forms get bounds too
    let sum = f.add(x[0], x[1]);
    let pc2 = f.and(f.ge(sum, f.int(2)), f.le(sum, f.int(2)));
    let s2 = Simplifier::new(f.clone(), pc2);
    assert_eq!(s2.simplify(f.add(sum, x[2])), f.add(x[2], f.int(2)));
}

#[test]
fn real_bounds_and_equalities() {
    let f = Arc::new(ExprFactory::new());
    let r = f.symbol("r", Type::Real);
    let q = f.symbol("q", Type::Real);
    let half = f.real_ratio(3, 2);
    let pc = f.and_all([f.ge(r, half), f.le(r, half), f.gt(q, f.real_ratio(0, 1))]);
    let s = Simplifier::new(f.clone(), pc);
    assert_eq!(s.simplify(f.mul(r, f.real_ratio(2, 1))), f.real_ratio(3, 1));
    assert_eq!(s.simplify(f.gt(q, f.real_ratio(-1, 1))), f.tt());
    assert_eq!(s.simplify(f.le(q, f.real_ratio(0, 1))), f.ff());
    assert_eq!(s.reduced_assumption(), f.gt(q, f.real_ratio(0, 1)));
}

#[test]
fn boolean_facts_and_clauses() {
    let f = Arc::new(ExprFactory::new());
    let b = f.symbol("b", Type::Bool);
    let c = f.symbol("c", Type::Bool);
    let d = f.symbol("d", Type::Bool);
    let pc = f.and(b, f.implies(b, c));
    let s = Simplifier::new(f.clone(), pc);
    assert_eq!(s.simplify(c), f.tt());
    assert_eq!(s.simplify(f.and(c, d)), d);
    assert_eq!(s.simplify(f.not(b)), f.ff());
    // with X > 0 known, the clause (X <= 0 || d) reduces to d
    let x = f.symbol("X", Type::Int);
    let pc2 = f.and(f.gt(x, f.int(0)), f.or(f.le(x, f.int(0)), d));
    let s2 = Simplifier::new(f.clone(), pc2);
    assert_eq!(s2.simplify(d), f.tt());
    assert_eq!(s2.reduced_assumption(), f.gt(x, f.int(0)));
}

#[test]
fn nonlinear_monomials_are_columns() {
    let (f, x) = setup();
    let xy = f.mul(x[0], x[1]);
    let pc = f.and(f.eq(xy, f.int(6)), f.eq(f.add(xy, x[2]), f.int(10)));
    let s = Simplifier::new(f.clone(), pc);
    assert_eq!(s.simplify(x[2]), f.int(4));
    assert_eq!(s.simplify(f.add(xy, f.int(1))), f.int(7));
    assert_eq!(s.reduced_assumption(), f.eq(xy, f.int(6)));
}

#[test]
fn bound_variables_are_left_alone() {
    let (f, x) = setup();
    let pc = f.eq(x[0], f.int(2));
    let s = Simplifier::new(f.clone(), pc);
    let i = f.symbol("i", Type::Int);
    let body = f.or(f.lt(i, x[1]), f.gt(f.mul(i, x[0]), f.int(0)));
    let q = f.forall(i, body);
    let expected = f.forall(i, f.or(f.lt(i, x[1]), f.gt(f.mul(f.int(2), i), f.int(0))));
    assert_eq!(s.simplify(q), expected);
    // a quantifier over a variable the assumption talks about is not touched
    let q2 = f.forall(x[0], f.gt(f.mul(x[0], x[0]), f.int(-1)));
    assert_eq!(s.simplify(q2), q2);
}

#[test]
fn cache_shares_simplifiers() {
    let (f, x) = setup();
    let cache = SimplifierCache::new(f.clone());
    let pc = f.eq(x[0], f.int(5));
    let s1 = cache.simplifier(pc);
    let s2 = cache.simplifier(pc);
    assert!(Arc::ptr_eq(&s1, &s2));
    assert_eq!(cache.len(), 1);
    assert_eq!(cache.simplify(pc, x[0]), f.int(5));
    assert_eq!(s1.cached_results(), 1);
}

/// A 50x50 integer system with a unique known solution.
pub fn system(f: &ExprFactory, n: usize) -> (Expr, Vec<Expr>, Vec<i64>) {
    let xs: Vec<Expr> = (0..n)
        .map(|i| f.symbol(&format!("Y{i}"), Type::Int))
        .collect();
    let sol: Vec<i64> = (0..n as i64).map(|i| (i * 7) % 11 - 5).collect();
    let mut seed: u64 = 12345;
    let mut next = || {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((seed >> 33) % 7) as i64 - 3
    };
    let mut eqs = Vec::new();
    for i in 0..n {
        // diagonally dominant => invertible
        let coefs: Vec<i64> = (0..n)
            .map(|j| if i == j { 4 * n as i64 } else { next() })
            .collect();
        let rhs: i64 = coefs.iter().zip(&sol).map(|(a, b)| a * b).sum();
        let lhs = f.add_all(
            &Type::Int,
            coefs.iter().zip(&xs).map(|(&a, &x)| f.mul(f.int(a), x)),
        );
        eqs.push(f.eq(lhs, f.int(rhs)));
    }
    (f.and_all(eqs), xs, sol)
}

#[test]
fn fifty_by_fifty_linear_system() {
    let f = Arc::new(ExprFactory::new());
    let (pc, xs, sol) = system(&f, 50);
    let s = Simplifier::new(f.clone(), pc);
    assert!(!s.is_contradictory());
    for (x, v) in xs.iter().zip(&sol) {
        assert_eq!(s.simplify(*x), f.int(*v));
    }
    assert_eq!(s.reduced_assumption(), f.tt());
    assert_eq!(s.eliminated().len(), 50);
}

#[test]
fn integer_disequality_moves_an_interval_end() {
    let (f, x) = setup();
    let n = x[1];
    // 0 <= i <= n && i != n  (a loop guard) gives i <= n - 1
    let i = x[0];
    let pc = f.and_all([f.ge(i, f.int(0)), f.le(i, n), f.ne(i, n)]);
    let s = Simplifier::new(f.clone(), pc);
    assert_eq!(s.simplify(f.lt(i, n)), f.tt());
    assert_eq!(s.simplify(f.ne(i, n)), f.tt());
    assert_eq!(s.reduced_assumption(), f.and(f.ge(i, f.int(0)), f.lt(i, n)));
    // 0 <= X0 <= 1 && X0 != 0  pins X0 to 1
    let pc2 = f.and_all([
        f.ge(x[2], f.int(0)),
        f.le(x[2], f.int(1)),
        f.ne(x[2], f.int(0)),
    ]);
    let s2 = Simplifier::new(f.clone(), pc2);
    assert_eq!(s2.simplify(x[2]), f.int(1));
    assert_eq!(s2.reduced_assumption(), f.tt());
}

#[test]
fn integer_division_under_bounds() {
    let (f, x) = setup();
    let pc = f.and(f.ge(x[0], f.int(0)), f.lt(x[0], f.int(4)));
    let s = Simplifier::new(f.clone(), pc);
    assert_eq!(s.simplify(f.int_div(x[0], f.int(4))), f.int(0));
    assert_eq!(s.simplify(f.int_mod(x[0], f.int(4))), x[0]);
    assert_eq!(s.simplify(f.int_div(x[0], f.int(-4))), f.int(0));
    // 4 <= X0 + 4 < 8: quotient 1, remainder X0
    let y = f.add(x[0], f.int(4));
    assert_eq!(s.simplify(f.int_div(y, f.int(4))), f.int(1));
    assert_eq!(s.simplify(f.int_mod(y, f.int(4))), x[0]);
    // not fixed: X0 / 2 can be 0 or 1
    let h = f.int_div(x[0], f.int(2));
    assert_eq!(s.simplify(h), h);
    // crossing zero keeps it symbolic: -3 <= X1 <= 3
    let pc2 = f.and(f.ge(x[1], f.int(-3)), f.le(x[1], f.int(3)));
    let s2 = Simplifier::new(f.clone(), pc2);
    assert_eq!(s2.simplify(f.int_div(x[1], f.int(4))), f.int(0));
    let m = f.int_mod(x[1], f.int(4));
    assert_eq!(s2.simplify(m), x[1]);
}

#[test]
fn boolean_atoms_that_are_not_symbols_stay_in_the_reduced_assumption() {
    let (f, x) = setup();
    let flags = f.symbol("flags", Type::array(Type::Bool, None));
    let a3 = f.array_read(flags, f.int(3));
    let a4 = f.array_read(flags, f.int(4));
    let pc = f.and_all([a3, f.not(a4), f.gt(x[0], f.int(0))]);
    let s = Simplifier::new(f.clone(), pc);
    assert_eq!(s.simplify(a3), f.tt());
    assert_eq!(s.simplify(a4), f.ff());
    assert_eq!(s.reduced_assumption(), pc);
    assert_eq!(s.equivalent_assumption(), pc);
}
