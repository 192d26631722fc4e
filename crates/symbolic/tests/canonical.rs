//! Canonical forms: equal-by-algebra expressions intern to the same id.

use std::sync::Arc;

use tass_symbolic::api::{
    Assignment, BigInt, BigRational, BitOp, ExprFactory, ExprView, Quantifier, RelOp, Type, Value,
};

fn ints(
    f: &ExprFactory,
) -> (
    tass_symbolic::api::Expr,
    tass_symbolic::api::Expr,
    tass_symbolic::api::Expr,
) {
    (
        f.symbol("x", Type::Int),
        f.symbol("y", Type::Int),
        f.symbol("z", Type::Int),
    )
}

#[test]
fn ring_identities_intern_to_the_same_id() {
    let f = ExprFactory::new();
    let (x, y, z) = ints(&f);
    // commutativity and associativity
    assert_eq!(f.add(x, y), f.add(y, x));
    assert_eq!(f.mul(x, y), f.mul(y, x));
    assert_eq!(f.add(f.add(x, y), z), f.add(x, f.add(y, z)));
    assert_eq!(f.mul(f.mul(x, y), z), f.mul(x, f.mul(y, z)));
    // distribution and collecting like terms
    assert_eq!(f.mul(x, f.add(y, z)), f.add(f.mul(x, y), f.mul(x, z)));
    let s = f.add(x, y);
    let sq = f.mul(s, s);
    let expanded = f.add_all(
        &Type::Int,
        [f.mul(x, x), f.mul(f.int(2), f.mul(x, y)), f.mul(y, y)],
    );
    assert_eq!(sq, expanded);
    assert_eq!(f.pow(s, 2), sq);
    assert_eq!(f.sub(x, x), f.int(0));
    assert_eq!(f.add(x, x), f.mul(f.int(2), x));
    assert_eq!(f.neg(f.neg(x)), x);
    assert_eq!(f.mul(x, f.int(1)), x);
    assert_eq!(f.mul(x, f.int(0)), f.int(0));
}

#[test]
fn constant_folding() {
    let f = ExprFactory::new();
    assert_eq!(f.add(f.int(2), f.int(3)), f.int(5));
    assert_eq!(f.mul(f.int(-4), f.int(3)), f.int(-12));
    assert_eq!(f.lt(f.int(2), f.int(3)), f.tt());
    assert_eq!(f.ge(f.int(2), f.int(3)), f.ff());
    let third = f.real_ratio(1, 3);
    let sixth = f.real_ratio(1, 6);
    assert_eq!(f.add(third, sixth), f.real_ratio(1, 2));
    assert_eq!(
        f.div(f.real_ratio(1, 2), f.real_ratio(1, 4)),
        f.real_ratio(2, 1)
    );
    // huge integers stay exact
    let big = f.int(BigInt::from(10).pow(40u32));
    let big2 = f.mul(big, big);
    assert_eq!(f.as_concrete_int(big2), Some(BigInt::from(10).pow(80u32)));
    // int -> real conversion and truncation
    assert_eq!(f.to_real(f.int(3)), f.real_ratio(3, 1));
    assert_eq!(f.to_int(f.real_ratio(-7, 2)), f.int(-3));
    assert_eq!(f.to_int(f.real_ratio(7, 2)), f.int(3));
    assert_eq!(f.and(f.tt(), f.ff()), f.ff());
    assert_eq!(f.or(f.tt(), f.ff()), f.tt());
    assert_eq!(f.not(f.tt()), f.ff());
    assert_eq!(f.ite(f.tt(), f.int(1), f.int(2)), f.int(1));
}

#[test]
fn c_integer_division_truncates_toward_zero() {
    let f = ExprFactory::new();
    let d = |a: i64, b: i64| f.as_concrete_int(f.int_div(f.int(a), f.int(b))).unwrap();
    let m = |a: i64, b: i64| f.as_concrete_int(f.int_mod(f.int(a), f.int(b))).unwrap();
    assert_eq!(d(7, 2), 3.into());
    assert_eq!(d(-7, 2), (-3).into());
    assert_eq!(d(7, -2), (-3).into());
    assert_eq!(d(-7, -2), 3.into());
    assert_eq!(m(7, 2), 1.into());
    assert_eq!(m(-7, 2), (-1).into());
    assert_eq!(m(7, -2), 1.into());
    assert_eq!(m(-7, -2), (-1).into());
    // defined semantics for a zero divisor: x / 0 == 0, x % 0 == x
    assert_eq!(d(7, 0), 0.into());
    assert_eq!(m(7, 0), 7.into());
    let (x, _, _) = ints(&f);
    assert_eq!(f.int_div(x, f.int(0)), f.int(0));
    assert_eq!(f.int_mod(x, f.int(0)), x);
    assert_eq!(f.int_div(x, f.int(1)), x);
    assert_eq!(f.int_div(x, f.int(-1)), f.neg(x));
    // exact division of a polynomial
    let p = f.add(f.mul(f.int(4), x), f.int(6));
    assert_eq!(f.int_div(p, f.int(2)), f.add(f.mul(f.int(2), x), f.int(3)));
    assert_eq!(f.int_mod(p, f.int(2)), f.int(0));
    // inexact stays symbolic
    let q = f.add(f.mul(f.int(2), x), f.int(1));
    assert!(matches!(
        f.view(f.int_div(q, f.int(2))),
        ExprView::IntDiv(..)
    ));
    // identity a == (a/b)*b + a%b at a few points, including negative ones
    for (a, b) in [(-9i64, 4i64), (9, -4), (-9, -4), (0, 5), (5, 0)] {
        let (ea, eb) = (f.int(a), f.int(b));
        let back = f.add(f.mul(f.int_div(ea, eb), eb), f.int_mod(ea, eb));
        assert_eq!(back, ea, "{a} {b}");
    }
}

#[test]
fn integer_relations_normalize() {
    let f = ExprFactory::new();
    let (x, y, _) = ints(&f);
    assert_eq!(f.lt(x, y), f.gt(y, x));
    assert_eq!(f.lt(x, y), f.le(f.add(x, f.int(1)), y));
    // x < y is y - x - 1 >= 0
    let ExprView::Rel(RelOp::Ge, g) = f.view(f.lt(x, y)) else {
        panic!("not a >= relation")
    };
    assert_eq!(g, f.sub(f.sub(y, x), f.int(1)));
    // gcd normalization: 2x + 3 >= 0  <=>  x + 1 >= 0
    let two_x = f.mul(f.int(2), x);
    assert_eq!(f.ge(f.add(two_x, f.int(3)), f.int(0)), f.ge(x, f.int(-1)));
    // 2x == 3 has no integer solution
    assert_eq!(f.eq(two_x, f.int(3)), f.ff());
    assert_eq!(f.ne(two_x, f.int(3)), f.tt());
    // == is symmetric
    assert_eq!(f.eq(x, y), f.eq(y, x));
    assert_eq!(f.not(f.lt(x, y)), f.ge(x, y));
    assert_eq!(f.not(f.eq(x, y)), f.ne(x, y));
}

#[test]
fn real_relations_normalize() {
    let f = ExprFactory::new();
    let a = f.symbol("a", Type::Real);
    let b = f.symbol("b", Type::Real);
    let two = f.real_ratio(2, 1);
    assert_eq!(f.lt(a, b), f.lt(f.mul(two, a), f.mul(two, b)));
    assert_eq!(f.not(f.lt(a, b)), f.le(b, a));
    assert_ne!(f.lt(a, b), f.le(a, b));
    // a/b > 0  <=>  a*b > 0
    assert_eq!(
        f.gt(f.div(a, b), f.real_ratio(0, 1)),
        f.gt(f.mul(a, b), f.real_ratio(0, 1))
    );
}

#[test]
fn rational_functions_cancel_known_factors() {
    let f = ExprFactory::new();
    let x = f.symbol("x", Type::Real);
    let y = f.symbol("y", Type::Real);
    let z = f.symbol("z", Type::Real);
    let one = f.real_ratio(1, 1);
    assert_eq!(f.div(f.mul(x, y), y), x);
    assert_eq!(f.mul(f.div(x, y), f.div(y, x)), one);
    assert_eq!(f.add(f.div(x, y), f.div(z, y)), f.div(f.add(x, z), y));
    let xp1 = f.add(x, one);
    assert_eq!(f.add(f.div(one, xp1), f.div(x, xp1)), one);
    // (x+1)(y+2) / (y+2) == x+1 through the cached factorization
    let yp2 = f.add(y, f.real_ratio(2, 1));
    let prod = f.mul(xp1, yp2);
    assert_eq!(f.div(prod, yp2), xp1);
    assert_eq!(f.div(x, f.real_ratio(2, 1)), f.mul(f.real_ratio(1, 2), x));
    // (x/y) / (z/y) == x/z
    assert_eq!(f.div(f.div(x, y), f.div(z, y)), f.div(x, z));
    // mixed int/real promotes
    let i = f.symbol("i", Type::Int);
    assert_eq!(f.type_of(f.add(i, x)), Type::Real);
    assert_eq!(f.add(i, x), f.add(x, f.to_real(i)));
    assert_eq!(f.to_real(f.add(i, f.int(1))), f.add(f.to_real(i), one));
    assert_eq!(f.to_int(f.to_real(i)), i);
}

#[test]
fn boolean_cnf() {
    let f = ExprFactory::new();
    let a = f.symbol("a", Type::Bool);
    let b = f.symbol("b", Type::Bool);
    let c = f.symbol("c", Type::Bool);
    assert_eq!(f.and(a, f.not(a)), f.ff());
    assert_eq!(f.or(a, f.not(a)), f.tt());
    assert_eq!(f.and(a, b), f.and(b, a));
    assert_eq!(f.or(f.and(a, b), c), f.and(f.or(a, c), f.or(b, c)));
    assert_eq!(f.not(f.and(a, b)), f.or(f.not(a), f.not(b)));
    assert_eq!(f.not(f.not(a)), a);
    assert_eq!(f.and(a, f.or(a, b)), a);
    assert_eq!(f.implies(a, b), f.or(f.not(a), b));
    assert_eq!(f.iff(a, b), f.iff(b, a));
    assert_eq!(f.eq(a, b), f.iff(a, b));
    assert_eq!(f.ite(c, a, b), f.and(f.or(f.not(c), a), f.or(c, b)));
    // CNF shape: an And of Or-clauses of literals
    let e = f.or(f.and(a, b), f.and(c, f.not(a)));
    let clauses = f.cnf_clauses(e);
    assert!(clauses.iter().all(|cl| cl
        .iter()
        .all(|&l| !matches!(f.view(l), ExprView::And(_) | ExprView::Or(_)))));
    // relations as literals: x > 0 && x <= 0 is false
    let x = f.symbol("x", Type::Int);
    let zero = f.int(0);
    assert_eq!(f.and(f.gt(x, zero), f.le(x, zero)), f.ff());
    assert_eq!(f.or(f.gt(x, zero), f.le(x, zero)), f.tt());
}

#[test]
fn quantifiers_split_and_move_independent_parts_out() {
    let f = ExprFactory::new();
    let i = f.symbol("i", Type::Int);
    let n = f.symbol("n", Type::Int);
    let arr = f.symbol("a", Type::array(Type::Int, Some(n)));
    let zero = f.int(0);
    let p = f.ge(f.array_read(arr, i), zero);
    let q = f.lt(i, n);
    let both = f.forall(i, f.and(p, q));
    assert_eq!(both, f.and(f.forall(i, p), f.forall(i, q)));
    let c = f.symbol("c", Type::Bool);
    assert_eq!(f.forall(i, f.or(c, p)), f.or(c, f.forall(i, p)));
    assert_eq!(f.forall(i, c), c);
    assert_eq!(
        f.exists(i, f.or(p, q)),
        f.or(f.exists(i, p), f.exists(i, q))
    );
    assert_eq!(f.not(f.forall(i, p)), f.exists(i, f.not(p)));
    let ExprView::Quant { kind, var, .. } = f.view(f.forall(i, p)) else {
        panic!("not a quantifier")
    };
    assert_eq!((kind, var), (Quantifier::Forall, i));
}

#[test]
fn concrete_arrays() {
    let f = ExprFactory::new();
    let n = f.int(3);
    let ty = Type::array(Type::Int, Some(n));
    let a = f.symbol("a", ty.clone());
    let x = f.symbol("x", Type::Int);
    let a1 = f.array_write(a, f.int(0), f.int(10));
    let a2 = f.array_write(a1, f.int(2), x);
    assert!(matches!(f.view(a2), ExprView::ConcreteArray { .. }));
    assert_eq!(f.array_read(a2, f.int(0)), f.int(10));
    assert_eq!(f.array_read(a2, f.int(2)), x);
    assert_eq!(f.array_read(a2, f.int(1)), f.array_read(a, f.int(1)));
    // writing in another order gives the same concrete array
    let b1 = f.array_write(a, f.int(2), x);
    let b2 = f.array_write(b1, f.int(0), f.int(10));
    assert_eq!(a2, b2);
    // overwrite
    let a3 = f.array_write(a2, f.int(0), f.int(11));
    assert_eq!(f.array_read(a3, f.int(0)), f.int(11));
    // symbolic index
    let i = f.symbol("i", Type::Int);
    let w = f.array_write(a, i, x);
    assert_eq!(f.array_read(w, i), x);
    assert!(matches!(
        f.view(f.array_read(w, f.int(1))),
        ExprView::ArrayRead(..)
    ));
    assert_eq!(f.array_write(a, i, f.array_read(a, i)), a);
    // lambda and literal
    let k = f.symbol("k", Type::Int);
    let sq = f.array_lambda(ty.clone(), k, f.mul(k, k));
    assert_eq!(f.array_read(sq, f.int(2)), f.int(4));
    assert_eq!(f.array_read(sq, i), f.mul(i, i));
    let lit = f.array_literal(ty, &[f.int(1), f.int(2), f.int(3)]);
    assert_eq!(f.array_read(lit, f.int(1)), f.int(2));
    let v = f.eval(lit, &Assignment::new()).unwrap();
    assert_eq!(
        v,
        Value::Array(vec![
            Value::Int(1.into()),
            Value::Int(2.into()),
            Value::Int(3.into())
        ])
    );
}

#[test]
fn tuples_and_functions() {
    let f = ExprFactory::new();
    let t_ty = Type::tuple([Type::Int, Type::Real]);
    let t = f.symbol("s", t_ty);
    let x = f.symbol("x", Type::Int);
    let t2 = f.tuple_write(t, 0, x);
    assert_eq!(f.tuple_read(t2, 0), x);
    assert_eq!(f.tuple_read(t2, 1), f.tuple_read(t, 1));
    let back = f.tuple_write(t2, 0, f.tuple_read(t, 0));
    assert_eq!(back, t);
    let g = f.symbol("g", Type::function([Type::Int], Type::Real));
    let app = f.apply(g, &[x]);
    assert_eq!(f.type_of(app), Type::Real);
    assert_eq!(f.pretty(app), "g(x)");
    let mut asg = Assignment::new();
    asg.set(x, Value::Int(3.into()));
    asg.set_function(
        g,
        Arc::new(|args: &[Value]| match args {
            [Value::Int(i)] => Some(Value::Real(BigRational::from_integer(i * 2))),
            _ => None,
        }),
    );
    assert_eq!(
        f.eval(app, &asg).unwrap(),
        Value::Real(BigRational::from_integer(6.into()))
    );
}

#[test]
fn bitwise_operators() {
    let f = ExprFactory::new();
    let c = |v: i64| f.int(v);
    assert_eq!(f.bitwise(BitOp::And, c(6), c(3)), c(2));
    assert_eq!(f.bitwise(BitOp::Or, c(6), c(3)), c(7));
    assert_eq!(f.bitwise(BitOp::Xor, c(6), c(3)), c(5));
    assert_eq!(f.bitwise(BitOp::Shl, c(1), c(4)), c(16));
    assert_eq!(f.bitwise(BitOp::Shr, c(-1), c(1)), c(-1));
    assert_eq!(f.bitwise(BitOp::And, c(-8), c(7)), c(0));
    assert_eq!(f.bit_not(c(5)), c(-6));
    let x = f.symbol("x", Type::Int);
    let y = f.symbol("y", Type::Int);
    assert_eq!(f.bitwise(BitOp::Shl, x, c(2)), f.mul(c(4), x));
    assert_eq!(f.bit_not(x), f.sub(f.neg(x), c(1)));
    let and = f.bitwise(BitOp::And, x, y);
    assert_eq!(and, f.bitwise(BitOp::And, y, x));
    assert!(matches!(f.view(and), ExprView::Apply(..)));
    assert_eq!(f.pretty(and), "x & y");
    let mut asg = Assignment::new();
    asg.set(x, Value::Int(12.into()))
        .set(y, Value::Int(10.into()));
    assert_eq!(f.eval(and, &asg).unwrap(), Value::Int(8.into()));
    // substituting concrete values folds the reserved function
    let s = f.substitute_one(f.substitute_one(and, x, c(12)), y, c(10));
    assert_eq!(s, c(8));
}

#[test]
fn pretty_printing() {
    let f = ExprFactory::new();
    let x0 = f.symbol("X0", Type::Int);
    let x1 = f.symbol("X1", Type::Int);
    let e = f.add_all(&Type::Int, [f.int(16), f.mul(f.int(2), x1), f.mul(x0, x0)]);
    assert_eq!(f.pretty(e), "X0*X0 + 2*X1 + 16");
    let a = f.symbol("a", Type::array(Type::Int, None));
    let i = f.symbol("i", Type::Int);
    assert_eq!(f.pretty(f.array_read(a, i)), "a[i]");
    let xx = f.symbol("X", Type::Int);
    let yy = f.symbol("Y", Type::Int);
    let c = f.and(f.gt(xx, f.int(0)), f.eq(yy, f.int(2)));
    assert_eq!(f.pretty(c), "X > 0 && Y == 2");
    assert_eq!(f.display(c).to_string(), "X > 0 && Y == 2");
    assert_eq!(f.pretty(f.lt(x0, x1)), "X0 < X1");
    assert_eq!(f.pretty(f.ge(x0, f.int(-3))), "X0 >= -3");
    assert_eq!(f.pretty(f.eq(f.add(x0, x1), f.int(6))), "X0 + X1 == 6");
    let r = f.symbol("r", Type::Real);
    assert_eq!(f.pretty(f.add(r, f.real_ratio(5, 2))), "r + 2.5");
    assert_eq!(f.pretty(f.mul(x0, f.add(x1, f.int(1)))), "X0*X1 + X0");
    assert_eq!(f.pretty(f.sub(f.int(1), x0)), "-X0 + 1");
    assert_eq!(f.pretty(f.int_div(x0, x1)), "X0/X1");
    assert_eq!(f.pretty(f.mul(f.int_mod(x0, x1), f.int(3))), "3*(X0%X1)");
    let b = f.symbol("b", Type::Bool);
    assert_eq!(f.pretty(f.or(b, f.ne(x0, x1))), "b || X0 != X1");
}

#[test]
fn substitution_free_symbols_and_eval() {
    let f = ExprFactory::new();
    let (x, y, z) = ints(&f);
    let e = f.add(f.mul(x, y), z);
    assert_eq!(f.free_symbols(e), vec![x, y, z]);
    let e2 = f.substitute_one(e, y, f.int(2));
    assert_eq!(e2, f.add(f.mul(f.int(2), x), z));
    let e3 = f.substitute_one(e, y, f.add(x, f.int(1)));
    assert_eq!(e3, f.add_all(&Type::Int, [f.mul(x, x), x, z]));
    let mut asg = Assignment::new();
    asg.set(x, Value::Int(3.into()))
        .set(y, Value::Int((-4).into()))
        .set(z, Value::Int(5.into()));
    assert_eq!(f.eval(e, &asg).unwrap(), Value::Int((-7).into()));
    assert!(f.eval_bool(f.lt(e, f.int(0)), &asg).unwrap());
    // bound variables are neither free nor substituted
    let q = f.forall(x, f.gt(f.mul(x, x), y));
    assert_eq!(f.free_symbols(q), vec![y]);
    assert_eq!(f.substitute_one(q, x, f.int(7)), q);
    // fresh symbols are unique
    let a = f.fresh_symbol("X", Type::Int);
    let b = f.fresh_symbol("X", Type::Int);
    assert_ne!(a, b);
    assert_ne!(f.symbol_name(a), f.symbol_name(b));
    assert_eq!(
        f.as_concrete_rational(f.real_ratio(3, 4)),
        Some(BigRational::new(3.into(), 4.into()))
    );
    assert_eq!(f.as_bool(f.tt()), Some(true));
}

#[test]
fn factory_is_shared_between_threads() {
    let f = Arc::new(ExprFactory::new());
    let handles: Vec<_> = (0..4)
        .map(|_| {
            let f = f.clone();
            std::thread::spawn(move || {
                let x = f.symbol("x", Type::Int);
                let y = f.symbol("y", Type::Int);
                (0..200)
                    .map(|k| f.add(f.mul(x, y), f.int(k)))
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let results: Vec<Vec<_>> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    for r in &results[1..] {
        assert_eq!(r, &results[0]);
    }
}

#[test]
fn view_of_polynomials() {
    let f = ExprFactory::new();
    let (x, y, _) = ints(&f);
    let e = f.add(f.mul(f.int(3), f.mul(x, x)), y);
    let ExprView::Add(terms) = f.view(e) else {
        panic!("not a sum")
    };
    assert_eq!(terms.len(), 2);
    let sum = terms.iter().fold(f.int(0), |acc, &t| f.add(acc, t));
    assert_eq!(sum, e);
    let t = f.mul(f.int(3), f.mul(x, x));
    let ExprView::Mul(parts) = f.view(t) else {
        panic!("not a product")
    };
    assert_eq!(parts[0], f.int(3));
    assert_eq!(f.view(parts[1]), ExprView::Pow(x, 2));
    assert_eq!(f.poly_terms(e).len(), 2);
}

/// Retyping an array (extent `N` known to be 4) must not hide its elements: a read
/// through the cast folds like a read of the original (2-d arrays included).
#[test]
fn reads_see_through_array_retyping_casts() {
    let f = ExprFactory::new();
    let n = f.symbol("N", Type::Int);
    let row = Type::array(Type::Real, Some(n));
    let matrix = Type::array(row.clone(), Some(n));
    let c = f.symbol("c", matrix);
    let a = f.symbol("a", Type::Real);
    let row0 = f.array_write(f.array_read(c, f.int(0)), f.int(0), a);
    let c1 = f.array_write(c, f.int(0), row0);
    let four = f.int(4);
    let row4 = Type::array(Type::Real, Some(four));
    let retyped = f.cast(c1, &Type::array(row4, Some(four)));
    let element = f.array_read(f.array_read(retyped, f.int(0)), f.int(0));
    assert_eq!(element, a);
    // A symbolic index still reads the original, converted.
    let i = f.symbol("i", Type::Int);
    let cell = f.array_read(f.array_read(retyped, f.int(0)), i);
    assert_eq!(cell, f.array_read(row0, i));
}

#[test]
fn sums_of_quotients_cancel_a_single_term_denominator() {
    // (x*y)/(2*x*z) + (x*x)/(2*x*z) == (x + y)/(2*z): the sum's numerator
    // x*y + x*x is divided by the denominator factor x term by term (one pass),
    // which must give the same canonical form as building the result directly.
    let f = ExprFactory::new();
    let (x, y, z) = (
        f.symbol("x", Type::Real),
        f.symbol("y", Type::Real),
        f.symbol("z", Type::Real),
    );
    let two = f.to_real(f.int(2));
    let d = f.mul(two, f.mul(x, z));
    let sum = f.add(f.div(f.mul(x, y), d), f.div(f.mul(x, x), d));
    assert_eq!(sum, f.div(f.add(x, y), f.mul(two, z)));
    let mut a = Assignment::new();
    a.set(x, Value::Real(BigRational::from_integer(3.into())));
    a.set(y, Value::Real(BigRational::from_integer(5.into())));
    a.set(z, Value::Real(BigRational::from_integer(7.into())));
    assert_eq!(
        f.eval(sum, &a),
        Ok(Value::Real(BigRational::new(8.into(), 14.into())))
    );
}
