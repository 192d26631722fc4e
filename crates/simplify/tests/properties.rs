//! Property tests: simplification under an assumption never changes the value of
//! an expression at a point where the assumption holds.

use std::sync::Arc;

use num_traits::Zero;
use proptest::prelude::*;
use tass_simplify::api::Simplifier;
use tass_symbolic::api::{Assignment, BigInt, Expr, ExprFactory, Type, Value};

const NVARS: usize = 3;
const RANGE: i64 = 2;

#[derive(Clone, Debug)]
enum IntTree {
    Var(usize),
    Const(i64),
    Add(Box<IntTree>, Box<IntTree>),
    Sub(Box<IntTree>, Box<IntTree>),
    Mul(Box<IntTree>, Box<IntTree>),
    Div(Box<IntTree>, Box<IntTree>),
    Mod(Box<IntTree>, Box<IntTree>),
    Ite(Box<Rel>, Box<IntTree>, Box<IntTree>),
}

#[derive(Clone, Copy, Debug)]
enum Op {
    Lt,
    Le,
    Eq,
    Ne,
    Ge,
    Gt,
}

#[derive(Clone, Debug)]
struct Rel(IntTree, Op, IntTree);

#[derive(Clone, Debug)]
enum BoolTree {
    Rel(Rel),
    And(Box<BoolTree>, Box<BoolTree>),
    Or(Box<BoolTree>, Box<BoolTree>),
    Not(Box<BoolTree>),
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        Just(Op::Lt),
        Just(Op::Le),
        Just(Op::Eq),
        Just(Op::Ne),
        Just(Op::Ge),
        Just(Op::Gt)
    ]
}

fn leaf() -> impl Strategy<Value = IntTree> {
    prop_oneof![
        (0..NVARS).prop_map(IntTree::Var),
        (-3i64..4).prop_map(IntTree::Const),
    ]
}

fn int_tree() -> impl Strategy<Value = IntTree> {
    leaf().prop_recursive(3, 16, 2, |inner| {
        let b = |x: IntTree| Box::new(x);
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| IntTree::Add(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| IntTree::Sub(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| IntTree::Mul(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| IntTree::Div(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| IntTree::Mod(b(x), b(y))),
            (leaf(), op(), leaf(), inner.clone(), inner.clone())
                .prop_map(move |(l, o, r, x, y)| IntTree::Ite(Box::new(Rel(l, o, r)), b(x), b(y))),
        ]
    })
}

fn bool_tree() -> impl Strategy<Value = BoolTree> {
    (int_tree(), op(), int_tree())
        .prop_map(|(a, o, b)| BoolTree::Rel(Rel(a, o, b)))
        .prop_recursive(2, 8, 2, |inner| {
            prop_oneof![
                (inner.clone(), inner.clone())
                    .prop_map(|(x, y)| BoolTree::And(Box::new(x), Box::new(y))),
                (inner.clone(), inner.clone())
                    .prop_map(|(x, y)| BoolTree::Or(Box::new(x), Box::new(y))),
                inner.clone().prop_map(|x| BoolTree::Not(Box::new(x))),
            ]
        })
}

/// One constraint of the assumption: `sum(c_i x_i) + k*x_a*x_b  op  rhs`,
/// built to hold at a seed point.
#[derive(Clone, Debug)]
struct Constraint {
    coefs: Vec<i64>,
    product: Option<(i64, usize, usize)>,
    op: Op,
    delta: i64,
}

fn constraint() -> impl Strategy<Value = Constraint> {
    (
        prop::collection::vec(-2i64..3, NVARS),
        prop::option::weighted(0.2, (-1i64..2, 0..NVARS, 0..NVARS)),
        op(),
        0i64..3,
    )
        .prop_map(|(coefs, product, op, d)| {
            // choose the offset so the seed point satisfies the constraint
            let delta = match op {
                Op::Eq => 0,
                Op::Le => d,
                Op::Ge => -d,
                Op::Lt => d + 1,
                Op::Gt => -d - 1,
                Op::Ne => d + 1,
            };
            Constraint {
                coefs,
                product,
                op,
                delta,
            }
        })
}

fn seed() -> impl Strategy<Value = Vec<i64>> {
    prop::collection::vec(-RANGE..=RANGE, NVARS)
}

struct Ctx {
    f: Arc<ExprFactory>,
    xs: Vec<Expr>,
}

fn cmp(o: Op, a: &BigInt, b: &BigInt) -> bool {
    match o {
        Op::Lt => a < b,
        Op::Le => a <= b,
        Op::Eq => a == b,
        Op::Ne => a != b,
        Op::Ge => a >= b,
        Op::Gt => a > b,
    }
}

impl Ctx {
    fn new() -> Ctx {
        let f = Arc::new(ExprFactory::new());
        let xs = (0..NVARS)
            .map(|i| f.symbol(&format!("X{i}"), Type::Int))
            .collect();
        Ctx { f, xs }
    }

    fn int(&self, t: &IntTree) -> Expr {
        let f = &self.f;
        match t {
            IntTree::Var(i) => self.xs[*i],
            IntTree::Const(c) => f.int(*c),
            IntTree::Add(a, b) => f.add(self.int(a), self.int(b)),
            IntTree::Sub(a, b) => f.sub(self.int(a), self.int(b)),
            IntTree::Mul(a, b) => f.mul(self.int(a), self.int(b)),
            IntTree::Div(a, b) => f.int_div(self.int(a), self.int(b)),
            IntTree::Mod(a, b) => f.int_mod(self.int(a), self.int(b)),
            IntTree::Ite(c, a, b) => f.ite(self.rel(c), self.int(a), self.int(b)),
        }
    }

    fn rel(&self, r: &Rel) -> Expr {
        let f = &self.f;
        let (a, b) = (self.int(&r.0), self.int(&r.2));
        match r.1 {
            Op::Lt => f.lt(a, b),
            Op::Le => f.le(a, b),
            Op::Eq => f.eq(a, b),
            Op::Ne => f.ne(a, b),
            Op::Ge => f.ge(a, b),
            Op::Gt => f.gt(a, b),
        }
    }

    fn boolean(&self, t: &BoolTree) -> Expr {
        let f = &self.f;
        match t {
            BoolTree::Rel(r) => self.rel(r),
            BoolTree::And(a, b) => f.and(self.boolean(a), self.boolean(b)),
            BoolTree::Or(a, b) => f.or(self.boolean(a), self.boolean(b)),
            BoolTree::Not(a) => f.not(self.boolean(a)),
        }
    }

    fn constraint(&self, c: &Constraint, seed: &[i64]) -> Expr {
        let f = &self.f;
        let mut lhs = f.int(0);
        let mut val: i64 = 0;
        for (i, &k) in c.coefs.iter().enumerate() {
            lhs = f.add(lhs, f.mul(f.int(k), self.xs[i]));
            val += k * seed[i];
        }
        if let Some((k, a, b)) = c.product {
            lhs = f.add(lhs, f.mul(f.int(k), f.mul(self.xs[a], self.xs[b])));
            val += k * seed[a] * seed[b];
        }
        let rhs = f.int(val + c.delta);
        match c.op {
            Op::Lt => f.lt(lhs, rhs),
            Op::Le => f.le(lhs, rhs),
            Op::Eq => f.eq(lhs, rhs),
            Op::Ne => f.ne(lhs, rhs),
            Op::Ge => f.ge(lhs, rhs),
            Op::Gt => f.gt(lhs, rhs),
        }
    }

    fn assignment(&self, p: &[i64]) -> Assignment {
        let mut a = Assignment::new();
        for (x, v) in self.xs.iter().zip(p) {
            a.set(*x, Value::Int((*v).into()));
        }
        a
    }
}

fn ref_int(t: &IntTree, p: &[i64]) -> BigInt {
    match t {
        IntTree::Var(i) => p[*i].into(),
        IntTree::Const(c) => (*c).into(),
        IntTree::Add(a, b) => ref_int(a, p) + ref_int(b, p),
        IntTree::Sub(a, b) => ref_int(a, p) - ref_int(b, p),
        IntTree::Mul(a, b) => ref_int(a, p) * ref_int(b, p),
        IntTree::Div(a, b) => {
            let (x, y) = (ref_int(a, p), ref_int(b, p));
            if y.is_zero() {
                BigInt::zero()
            } else {
                x / y
            }
        }
        IntTree::Mod(a, b) => {
            let (x, y) = (ref_int(a, p), ref_int(b, p));
            if y.is_zero() {
                x
            } else {
                x % y
            }
        }
        IntTree::Ite(c, a, b) => {
            if ref_rel(c, p) {
                ref_int(a, p)
            } else {
                ref_int(b, p)
            }
        }
    }
}

fn ref_rel(r: &Rel, p: &[i64]) -> bool {
    cmp(r.1, &ref_int(&r.0, p), &ref_int(&r.2, p))
}

fn ref_bool(t: &BoolTree, p: &[i64]) -> bool {
    match t {
        BoolTree::Rel(r) => ref_rel(r, p),
        BoolTree::And(a, b) => ref_bool(a, p) && ref_bool(b, p),
        BoolTree::Or(a, b) => ref_bool(a, p) || ref_bool(b, p),
        BoolTree::Not(a) => !ref_bool(a, p),
    }
}

/// Every point of the grid [-RANGE, RANGE]^NVARS.
fn grid() -> Vec<Vec<i64>> {
    let mut pts = vec![vec![]];
    for _ in 0..NVARS {
        let mut next = Vec::new();
        for p in &pts {
            for v in -RANGE..=RANGE {
                let mut q = p.clone();
                q.push(v);
                next.push(q);
            }
        }
        pts = next;
    }
    pts
}

fn holds(c: &Ctx, e: Expr, p: &[i64]) -> bool {
    match c.f.eval_bool(e, &c.assignment(p)) {
        Ok(b) => b,
        Err(err) => panic!("cannot evaluate {}: {err}", c.f.pretty(e)),
    }
}

fn check(
    c: &Ctx,
    pc: Expr,
    s: &Simplifier,
    seed: &[i64],
    check_point: &mut dyn FnMut(&[i64]) -> Result<(), TestCaseError>,
) -> Result<(), TestCaseError> {
    let f = &c.f;
    prop_assert!(holds(c, pc, seed), "seed does not satisfy {}", f.pretty(pc));
    prop_assert!(
        !s.is_contradictory(),
        "satisfiable {} called contradictory",
        f.pretty(pc)
    );
    let equiv = s.equivalent_assumption();
    let reduced = s.reduced_assumption();
    for p in grid() {
        let h = holds(c, pc, &p);
        prop_assert_eq!(
            h,
            holds(c, equiv, &p),
            "equivalent assumption {}",
            f.pretty(equiv)
        );
        if h {
            prop_assert!(holds(c, reduced, &p), "reduced {} fails", f.pretty(reduced));
            check_point(&p)?;
        }
    }
    Ok(())
}

proptest! {
    #[test]
    fn simplified_integers_agree_where_the_assumption_holds(
        cs in prop::collection::vec(constraint(), 1..4),
        seed in seed(),
        t in int_tree(),
    ) {
        let c = Ctx::new();
        let f = c.f.clone();
        let pc = f.and_all(cs.iter().map(|k| c.constraint(k, &seed)));
        let s = Simplifier::new(f.clone(), pc);
        let e = c.int(&t);
        let se = s.simplify(e);
        check(&c, pc, &s, &seed, &mut |p| {
            let want = Value::Int(ref_int(&t, p));
            let got = f.eval(se, &c.assignment(p)).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(&got, &want, "{} became {} under {}", f.pretty(e), f.pretty(se), f.pretty(pc));
            Ok(())
        })?;
    }

    #[test]
    fn simplified_booleans_agree_where_the_assumption_holds(
        cs in prop::collection::vec(constraint(), 1..4),
        seed in seed(),
        t in bool_tree(),
    ) {
        let c = Ctx::new();
        let f = c.f.clone();
        let pc = f.and_all(cs.iter().map(|k| c.constraint(k, &seed)));
        let s = Simplifier::new(f.clone(), pc);
        let e = c.boolean(&t);
        let se = s.simplify(e);
        check(&c, pc, &s, &seed, &mut |p| {
            let got = holds(&c, se, p);
            prop_assert_eq!(got, ref_bool(&t, p), "{} became {} under {}", f.pretty(e), f.pretty(se), f.pretty(pc));
            Ok(())
        })?;
    }

    #[test]
    fn assumptions_with_disjunctions(
        a in constraint(), b in constraint(), d in constraint(),
        seed in seed(), t in int_tree(),
    ) {
        let c = Ctx::new();
        let f = c.f.clone();
        // (a || !b) && d, with a and d true at the seed
        let pc = f.and(f.or(c.constraint(&a, &seed), f.not(c.constraint(&b, &seed))), c.constraint(&d, &seed));
        let s = Simplifier::new(f.clone(), pc);
        let e = c.int(&t);
        let se = s.simplify(e);
        check(&c, pc, &s, &seed, &mut |p| {
            let got = f.eval(se, &c.assignment(p)).map_err(|e| TestCaseError::fail(e.to_string()))?;
            prop_assert_eq!(got, Value::Int(ref_int(&t, p)));
            Ok(())
        })?;
    }

    #[test]
    fn contradictions_are_real(cs in prop::collection::vec(constraint(), 1..5), seeds in prop::collection::vec(seed(), 2)) {
        // constraints built around two different seeds may or may not conflict
        let c = Ctx::new();
        let f = c.f.clone();
        let parts: Vec<Expr> = cs.iter().enumerate().map(|(i, k)| c.constraint(k, &seeds[i % 2])).collect();
        let pc = f.and_all(parts);
        let s = Simplifier::new(f.clone(), pc);
        if s.is_contradictory() {
            for p in grid() {
                prop_assert!(!holds(&c, pc, &p), "{} called contradictory, holds at {:?}", f.pretty(pc), p);
            }
        }
    }
}

// ----- reals -------------------------------------------------------------------

#[derive(Clone, Debug)]
enum RealTree {
    Var(usize),
    Const(i64, i64),
    Add(Box<RealTree>, Box<RealTree>),
    Sub(Box<RealTree>, Box<RealTree>),
    Mul(Box<RealTree>, Box<RealTree>),
    Div(Box<RealTree>, Box<RealTree>),
}

fn real_tree() -> impl Strategy<Value = RealTree> {
    let leaf = prop_oneof![
        (0..2usize).prop_map(RealTree::Var),
        (-3i64..4, 1i64..3).prop_map(|(n, d)| RealTree::Const(n, d)),
    ];
    leaf.prop_recursive(3, 12, 2, |inner| {
        let b = |x: RealTree| Box::new(x);
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| RealTree::Add(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| RealTree::Sub(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| RealTree::Mul(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| RealTree::Div(b(x), b(y))),
        ]
    })
}

type Q = tass_symbolic::api::BigRational;

fn q(n: i64, d: i64) -> Q {
    Q::new(n.into(), d.into())
}

fn ref_real(t: &RealTree, p: &[Q]) -> Option<Q> {
    Some(match t {
        RealTree::Var(i) => p[*i].clone(),
        RealTree::Const(n, d) => q(*n, *d),
        RealTree::Add(a, b) => ref_real(a, p)? + ref_real(b, p)?,
        RealTree::Sub(a, b) => ref_real(a, p)? - ref_real(b, p)?,
        RealTree::Mul(a, b) => ref_real(a, p)? * ref_real(b, p)?,
        RealTree::Div(a, b) => {
            let y = ref_real(b, p)?;
            if y.is_zero() {
                return None;
            }
            ref_real(a, p)? / y
        }
    })
}

proptest! {
    #[test]
    fn simplified_reals_agree_where_the_assumption_holds(
        cs in prop::collection::vec((prop::collection::vec(-2i64..3, 2), op(), 0i64..3), 1..4),
        seed in prop::collection::vec((-2i64..3, 1i64..3), 2),
        t in real_tree(),
    ) {
        let f = Arc::new(ExprFactory::new());
        let rs: Vec<Expr> = (0..2).map(|i| f.symbol(&format!("R{i}"), Type::Real)).collect();
        let seed: Vec<Q> = seed.iter().map(|&(n, d)| q(n, d)).collect();
        let build = |t: &RealTree| -> Expr {
            fn go(f: &ExprFactory, rs: &[Expr], t: &RealTree) -> Expr {
                match t {
                    RealTree::Var(i) => rs[*i],
                    RealTree::Const(n, d) => f.real_ratio(*n, *d),
                    RealTree::Add(a, b) => f.add(go(f, rs, a), go(f, rs, b)),
                    RealTree::Sub(a, b) => f.sub(go(f, rs, a), go(f, rs, b)),
                    RealTree::Mul(a, b) => f.mul(go(f, rs, a), go(f, rs, b)),
                    RealTree::Div(a, b) => f.div(go(f, rs, a), go(f, rs, b)),
                }
            }
            go(&f, &rs, t)
        };
        // constraints sum(c_i R_i) op value-at-seed + delta, true at the seed
        let mut parts = Vec::new();
        for (coefs, o, d) in &cs {
            let lhs = f.add(f.mul(f.real_ratio(coefs[0], 1), rs[0]), f.mul(f.real_ratio(coefs[1], 1), rs[1]));
            let at_seed = q(coefs[0], 1) * &seed[0] + q(coefs[1], 1) * &seed[1];
            let delta = match o { Op::Eq => 0, Op::Le => *d, Op::Ge => -*d, Op::Lt => *d + 1, Op::Gt => -*d - 1, Op::Ne => *d + 1 };
            let rhs = f.real(at_seed + q(delta, 2));
            parts.push(match o {
                Op::Lt => f.lt(lhs, rhs), Op::Le => f.le(lhs, rhs), Op::Eq => f.eq(lhs, rhs),
                Op::Ne => f.ne(lhs, rhs), Op::Ge => f.ge(lhs, rhs), Op::Gt => f.gt(lhs, rhs),
            });
        }
        let pc = f.and_all(parts);
        let s = Simplifier::new(f.clone(), pc);
        let e = build(&t);
        let se = s.simplify(e);
        let vals = [q(-2, 1), q(-1, 1), q(-1, 2), q(0, 1), q(1, 3), q(1, 2), q(1, 1), q(2, 1)];
        let mut pts: Vec<Vec<Q>> = vec![seed.clone()];
        for a in &vals { for b in &vals { pts.push(vec![a.clone(), b.clone()]); } }
        let asg = |p: &[Q]| { let mut a = Assignment::new(); for (x, v) in rs.iter().zip(p) { a.set(*x, Value::Real(v.clone())); } a };
        prop_assert!(f.eval_bool(pc, &asg(&seed)).unwrap_or(false), "seed fails {}", f.pretty(pc));
        prop_assert!(!s.is_contradictory());
        for p in &pts {
            let holds = f.eval_bool(pc, &asg(p)).unwrap_or(false);
            prop_assert_eq!(holds, f.eval_bool(s.equivalent_assumption(), &asg(p)).unwrap_or(false));
            if !holds { continue; }
            let Some(want) = ref_real(&t, p) else { continue };
            let got = f.eval(se, &asg(p)).map_err(|err| TestCaseError::fail(format!("{err}: {} -> {}", f.pretty(e), f.pretty(se))))?;
            prop_assert_eq!(got, Value::Real(want), "{} became {} under {}", f.pretty(e), f.pretty(se), f.pretty(pc));
        }
    }
}

// ----- boolean atoms -------------------------------------------------------------

/// A literal over two boolean symbols, an array of booleans and a relation.
#[derive(Clone, Debug)]
enum Lit {
    Sym(usize, bool),
    Cell(i64, bool),
    Rel(Constraint),
}

fn lit() -> impl Strategy<Value = Lit> {
    prop_oneof![
        (0..2usize, any::<bool>()).prop_map(|(i, p)| Lit::Sym(i, p)),
        (0..3i64, any::<bool>()).prop_map(|(k, p)| Lit::Cell(k, p)),
        constraint().prop_map(Lit::Rel),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn boolean_facts_keep_values_and_equivalence(
        clauses in prop::collection::vec(prop::collection::vec(lit(), 1..3), 1..4),
        seed in seed(),
        t in bool_tree(),
        extra in prop::collection::vec(lit(), 1..3),
    ) {
        let c = Ctx::new();
        let f = c.f.clone();
        let bs: Vec<Expr> = (0..2).map(|i| f.symbol(&format!("B{i}"), Type::Bool)).collect();
        let arr = f.symbol("flags", Type::array(Type::Bool, None));
        let build = |l: &Lit| -> Expr {
            match l {
                Lit::Sym(i, p) => if *p { bs[*i] } else { f.not(bs[*i]) },
                Lit::Cell(k, p) => {
                    let e = f.array_read(arr, f.int(*k));
                    if *p { e } else { f.not(e) }
                }
                Lit::Rel(k) => c.constraint(k, &seed),
            }
        };
        let pc = f.and_all(clauses.iter().map(|cl| f.or_all(cl.iter().map(&build))));
        let s = Simplifier::new(f.clone(), pc);
        // the expression: the random relation tree combined with extra literals
        let e = f.or(c.boolean(&t), f.and_all(extra.iter().map(&build)));
        let se = s.simplify(e);
        let equiv = s.equivalent_assumption();
        let reduced = s.reduced_assumption();
        let mut any_point = false;
        // a smaller integer grid: the boolean part multiplies it by 32
        for p in grid().into_iter().filter(|p| p.iter().all(|v| v.abs() <= 1)) {
            // enumerate the boolean part too: 2 symbols and 3 cells
            for m in 0..32u32 {
                let mut asg = c.assignment(&p);
                asg.set(bs[0], Value::Bool(m & 1 != 0));
                asg.set(bs[1], Value::Bool(m & 2 != 0));
                let cells: Vec<Value> = (0..3).map(|k| Value::Bool(m & (4 << k) != 0)).collect();
                asg.set(arr, Value::Array(cells));
                let h = f.eval_bool(pc, &asg).map_err(|e| TestCaseError::fail(e.to_string()))?;
                let he = f.eval_bool(equiv, &asg).map_err(|e| TestCaseError::fail(e.to_string()))?;
                prop_assert_eq!(h, he, "{} vs equivalent {}", f.pretty(pc), f.pretty(equiv));
                if h {
                    any_point = true;
                    prop_assert!(f.eval_bool(reduced, &asg).unwrap_or(false));
                    let want = f.eval_bool(e, &asg).map_err(|e| TestCaseError::fail(e.to_string()))?;
                    let got = f.eval_bool(se, &asg).map_err(|e| TestCaseError::fail(e.to_string()))?;
                    prop_assert_eq!(got, want, "{} became {} under {}", f.pretty(e), f.pretty(se), f.pretty(pc));
                }
            }
        }
        if any_point {
            prop_assert!(!s.is_contradictory());
        }
    }
}
