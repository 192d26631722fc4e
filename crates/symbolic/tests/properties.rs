//! Property tests: building random expression trees in canonical form never
//! changes their value (compared with a direct evaluation of the tree).

use num_traits::{Signed, Zero};
use proptest::prelude::*;
use tass_symbolic::api::{Assignment, BigInt, BigRational, BitOp, Expr, ExprFactory, Type, Value};

const NVARS: usize = 3;

/// A random integer expression with C semantics.
#[derive(Clone, Debug)]
enum IntTree {
    Var(usize),
    Const(i64),
    Add(Box<IntTree>, Box<IntTree>),
    Sub(Box<IntTree>, Box<IntTree>),
    Mul(Box<IntTree>, Box<IntTree>),
    Neg(Box<IntTree>),
    Div(Box<IntTree>, Box<IntTree>),
    Mod(Box<IntTree>, Box<IntTree>),
    BitAnd(Box<IntTree>, Box<IntTree>),
    Ite(Box<BoolTree>, Box<IntTree>, Box<IntTree>),
    Read(Box<IntTree>),
}

/// A random boolean expression.
#[derive(Clone, Debug)]
enum BoolTree {
    Lt(IntTree, IntTree),
    Le(IntTree, IntTree),
    Eq(IntTree, IntTree),
    Ne(IntTree, IntTree),
    And(Box<BoolTree>, Box<BoolTree>),
    Or(Box<BoolTree>, Box<BoolTree>),
    Not(Box<BoolTree>),
    Implies(Box<BoolTree>, Box<BoolTree>),
    Var(usize),
}

/// A random real expression.
#[derive(Clone, Debug)]
enum RealTree {
    Var(usize),
    Const(i64, i64),
    Add(Box<RealTree>, Box<RealTree>),
    Sub(Box<RealTree>, Box<RealTree>),
    Mul(Box<RealTree>, Box<RealTree>),
    Div(Box<RealTree>, Box<RealTree>),
    FromInt(IntTree),
}

fn int_leaf() -> impl Strategy<Value = IntTree> {
    prop_oneof![
        (0..NVARS).prop_map(IntTree::Var),
        (-4i64..5).prop_map(IntTree::Const),
    ]
}

fn int_tree() -> impl Strategy<Value = IntTree> {
    int_leaf().prop_recursive(4, 24, 3, |inner| {
        let b = |x: IntTree| Box::new(x);
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| IntTree::Add(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| IntTree::Sub(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| IntTree::Mul(b(x), b(y))),
            inner.clone().prop_map(move |x| IntTree::Neg(b(x))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| IntTree::Div(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| IntTree::Mod(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| IntTree::BitAnd(b(x), b(y))),
            inner.clone().prop_map(move |x| IntTree::Read(b(x))),
            (simple_bool(), inner.clone(), inner.clone()).prop_map(move |(c, x, y)| IntTree::Ite(
                Box::new(c),
                b(x),
                b(y)
            )),
        ]
    })
}

fn simple_bool() -> impl Strategy<Value = BoolTree> {
    prop_oneof![
        (int_leaf(), int_leaf()).prop_map(|(x, y)| BoolTree::Lt(x, y)),
        (int_leaf(), int_leaf()).prop_map(|(x, y)| BoolTree::Eq(x, y)),
        (0..NVARS).prop_map(BoolTree::Var),
    ]
}

fn bool_tree() -> impl Strategy<Value = BoolTree> {
    let leaf = prop_oneof![
        (int_tree(), int_tree()).prop_map(|(x, y)| BoolTree::Lt(x, y)),
        (int_tree(), int_tree()).prop_map(|(x, y)| BoolTree::Le(x, y)),
        (int_tree(), int_tree()).prop_map(|(x, y)| BoolTree::Eq(x, y)),
        (int_tree(), int_tree()).prop_map(|(x, y)| BoolTree::Ne(x, y)),
        (0..NVARS).prop_map(BoolTree::Var),
    ];
    leaf.prop_recursive(3, 12, 2, |inner| {
        prop_oneof![
            (inner.clone(), inner.clone())
                .prop_map(|(x, y)| BoolTree::And(Box::new(x), Box::new(y))),
            (inner.clone(), inner.clone())
                .prop_map(|(x, y)| BoolTree::Or(Box::new(x), Box::new(y))),
            (inner.clone(), inner.clone())
                .prop_map(|(x, y)| BoolTree::Implies(Box::new(x), Box::new(y))),
            inner.clone().prop_map(|x| BoolTree::Not(Box::new(x))),
        ]
    })
}

fn real_tree() -> impl Strategy<Value = RealTree> {
    let leaf = prop_oneof![
        (0..NVARS).prop_map(RealTree::Var),
        (-4i64..5, 1i64..4).prop_map(|(n, d)| RealTree::Const(n, d)),
        int_leaf().prop_map(RealTree::FromInt),
    ];
    leaf.prop_recursive(4, 20, 2, |inner| {
        let b = |x: RealTree| Box::new(x);
        prop_oneof![
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| RealTree::Add(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| RealTree::Sub(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| RealTree::Mul(b(x), b(y))),
            (inner.clone(), inner.clone()).prop_map(move |(x, y)| RealTree::Div(b(x), b(y))),
        ]
    })
}

/// The symbols and the array used by the trees.
struct Ctx {
    f: ExprFactory,
    ints: Vec<Expr>,
    bools: Vec<Expr>,
    reals: Vec<Expr>,
    arr: Expr,
}

impl Ctx {
    fn new() -> Ctx {
        let f = ExprFactory::new();
        let ints = (0..NVARS)
            .map(|i| f.symbol(&format!("x{i}"), Type::Int))
            .collect();
        let bools = (0..NVARS)
            .map(|i| f.symbol(&format!("b{i}"), Type::Bool))
            .collect();
        let reals = (0..NVARS)
            .map(|i| f.symbol(&format!("r{i}"), Type::Real))
            .collect();
        let arr = f.symbol("a", Type::array(Type::Int, None));
        Ctx {
            f,
            ints,
            bools,
            reals,
            arr,
        }
    }

    fn int(&self, t: &IntTree) -> Expr {
        let f = &self.f;
        match t {
            IntTree::Var(i) => self.ints[*i],
            IntTree::Const(c) => f.int(*c),
            IntTree::Add(a, b) => f.add(self.int(a), self.int(b)),
            IntTree::Sub(a, b) => f.sub(self.int(a), self.int(b)),
            IntTree::Mul(a, b) => f.mul(self.int(a), self.int(b)),
            IntTree::Neg(a) => f.neg(self.int(a)),
            IntTree::Div(a, b) => f.int_div(self.int(a), self.int(b)),
            IntTree::Mod(a, b) => f.int_mod(self.int(a), self.int(b)),
            IntTree::BitAnd(a, b) => f.bitwise(BitOp::And, self.int(a), self.int(b)),
            IntTree::Ite(c, a, b) => f.ite(self.boolean(c), self.int(a), self.int(b)),
            IntTree::Read(i) => f.array_read(self.arr, self.int(i)),
        }
    }

    fn boolean(&self, t: &BoolTree) -> Expr {
        let f = &self.f;
        match t {
            BoolTree::Lt(a, b) => f.lt(self.int(a), self.int(b)),
            BoolTree::Le(a, b) => f.le(self.int(a), self.int(b)),
            BoolTree::Eq(a, b) => f.eq(self.int(a), self.int(b)),
            BoolTree::Ne(a, b) => f.ne(self.int(a), self.int(b)),
            BoolTree::And(a, b) => f.and(self.boolean(a), self.boolean(b)),
            BoolTree::Or(a, b) => f.or(self.boolean(a), self.boolean(b)),
            BoolTree::Implies(a, b) => f.implies(self.boolean(a), self.boolean(b)),
            BoolTree::Not(a) => f.not(self.boolean(a)),
            BoolTree::Var(i) => self.bools[*i],
        }
    }

    fn real(&self, t: &RealTree) -> Expr {
        let f = &self.f;
        match t {
            RealTree::Var(i) => self.reals[*i],
            RealTree::Const(n, d) => f.real_ratio(*n, *d),
            RealTree::Add(a, b) => f.add(self.real(a), self.real(b)),
            RealTree::Sub(a, b) => f.sub(self.real(a), self.real(b)),
            RealTree::Mul(a, b) => f.mul(self.real(a), self.real(b)),
            RealTree::Div(a, b) => f.div(self.real(a), self.real(b)),
            RealTree::FromInt(i) => f.to_real(self.int(i)),
        }
    }
}

/// A point: values of the int, bool and real variables and of the array.
#[derive(Clone, Debug)]
struct Point {
    ints: Vec<i64>,
    bools: Vec<bool>,
    reals: Vec<(i64, i64)>,
    arr: Vec<i64>,
}

fn point() -> impl Strategy<Value = Point> {
    (
        prop::collection::vec(-6i64..7, NVARS),
        prop::collection::vec(any::<bool>(), NVARS),
        prop::collection::vec((-6i64..7, 1i64..4), NVARS),
        prop::collection::vec(0i64..20, 16),
    )
        .prop_map(|(ints, bools, reals, arr)| Point {
            ints,
            bools,
            reals,
            arr,
        })
}

impl Point {
    fn assignment(&self, c: &Ctx) -> Assignment {
        let mut a = Assignment::new();
        for i in 0..NVARS {
            a.set(c.ints[i], Value::Int(self.ints[i].into()));
            a.set(c.bools[i], Value::Bool(self.bools[i]));
            let (n, d) = self.reals[i];
            a.set(
                c.reals[i],
                Value::Real(BigRational::new(n.into(), d.into())),
            );
        }
        a
    }

    fn int(&self, t: &IntTree) -> BigInt {
        match t {
            IntTree::Var(i) => self.ints[*i].into(),
            IntTree::Const(c) => (*c).into(),
            IntTree::Add(a, b) => self.int(a) + self.int(b),
            IntTree::Sub(a, b) => self.int(a) - self.int(b),
            IntTree::Mul(a, b) => self.int(a) * self.int(b),
            IntTree::Neg(a) => -self.int(a),
            IntTree::Div(a, b) => {
                let (x, y) = (self.int(a), self.int(b));
                if y.is_zero() {
                    BigInt::zero()
                } else {
                    x / y
                }
            }
            IntTree::Mod(a, b) => {
                let (x, y) = (self.int(a), self.int(b));
                if y.is_zero() {
                    x
                } else {
                    x % y
                }
            }
            IntTree::BitAnd(a, b) => self.int(a) & self.int(b),
            IntTree::Ite(c, a, b) => {
                if self.boolean(c) {
                    self.int(a)
                } else {
                    self.int(b)
                }
            }
            IntTree::Read(i) => self.read(&self.int(i)),
        }
    }

    fn read(&self, i: &BigInt) -> BigInt {
        // a[i] = arr[i mod 16]: any function of the index will do.
        let k: BigInt = i.clone() % 16;
        let k = if k.is_negative() { k + 16 } else { k };
        let k: usize = k.try_into().unwrap_or(0);
        BigInt::from(self.arr[k])
    }

    fn boolean(&self, t: &BoolTree) -> bool {
        match t {
            BoolTree::Lt(a, b) => self.int(a) < self.int(b),
            BoolTree::Le(a, b) => self.int(a) <= self.int(b),
            BoolTree::Eq(a, b) => self.int(a) == self.int(b),
            BoolTree::Ne(a, b) => self.int(a) != self.int(b),
            BoolTree::And(a, b) => self.boolean(a) && self.boolean(b),
            BoolTree::Or(a, b) => self.boolean(a) || self.boolean(b),
            BoolTree::Implies(a, b) => !self.boolean(a) || self.boolean(b),
            BoolTree::Not(a) => !self.boolean(a),
            BoolTree::Var(i) => self.bools[*i],
        }
    }

    fn real(&self, t: &RealTree) -> Option<BigRational> {
        Some(match t {
            RealTree::Var(i) => {
                let (n, d) = self.reals[*i];
                BigRational::new(n.into(), d.into())
            }
            RealTree::Const(n, d) => BigRational::new((*n).into(), (*d).into()),
            RealTree::Add(a, b) => self.real(a)? + self.real(b)?,
            RealTree::Sub(a, b) => self.real(a)? - self.real(b)?,
            RealTree::Mul(a, b) => self.real(a)? * self.real(b)?,
            RealTree::Div(a, b) => {
                let y = self.real(b)?;
                if y.is_zero() {
                    return None;
                }
                self.real(a)? / y
            }
            RealTree::FromInt(i) => BigRational::from_integer(self.int(i)),
        })
    }
}

/// Size of the array value; tests skip points that read outside it.
const ARR_LEN: i64 = 64;

/// Evaluates with the factory.
fn eval(c: &Ctx, p: &Point, e: Expr) -> Value {
    let mut asg = p.assignment(c);
    let vals: Vec<Value> = (0..ARR_LEN)
        .map(|i| Value::Int(p.read(&BigInt::from(i))))
        .collect();
    asg.set(c.arr, Value::Array(vals));
    match c.f.eval(e, &asg) {
        Ok(v) => v,
        Err(err) => panic!("evaluation failed: {err} for {}", c.f.pretty(e)),
    }
}

fn in_range(i: &BigInt) -> bool {
    !i.is_negative() && *i < BigInt::from(ARR_LEN)
}

fn no_negative_reads(p: &Point, t: &IntTree) -> bool {
    match t {
        IntTree::Var(_) | IntTree::Const(_) => true,
        IntTree::Neg(a) => no_negative_reads(p, a),
        IntTree::Read(i) => in_range(&p.int(i)) && no_negative_reads(p, i),
        IntTree::Add(a, b)
        | IntTree::Sub(a, b)
        | IntTree::Mul(a, b)
        | IntTree::Div(a, b)
        | IntTree::Mod(a, b)
        | IntTree::BitAnd(a, b) => no_negative_reads(p, a) && no_negative_reads(p, b),
        IntTree::Ite(c, a, b) => {
            bool_no_negative_reads(p, c) && no_negative_reads(p, a) && no_negative_reads(p, b)
        }
    }
}

fn bool_no_negative_reads(p: &Point, t: &BoolTree) -> bool {
    match t {
        BoolTree::Lt(a, b) | BoolTree::Le(a, b) | BoolTree::Eq(a, b) | BoolTree::Ne(a, b) => {
            no_negative_reads(p, a) && no_negative_reads(p, b)
        }
        BoolTree::And(a, b) | BoolTree::Or(a, b) | BoolTree::Implies(a, b) => {
            bool_no_negative_reads(p, a) && bool_no_negative_reads(p, b)
        }
        BoolTree::Not(a) => bool_no_negative_reads(p, a),
        BoolTree::Var(_) => true,
    }
}

fn commute(t: &IntTree) -> IntTree {
    let b = |x: &IntTree| Box::new(commute(x));
    match t {
        IntTree::Add(x, y) => IntTree::Add(b(y), b(x)),
        IntTree::Mul(x, y) => IntTree::Mul(b(y), b(x)),
        IntTree::Sub(x, y) => IntTree::Add(Box::new(IntTree::Neg(b(y))), b(x)),
        IntTree::Neg(x) => IntTree::Mul(Box::new(IntTree::Const(-1)), b(x)),
        IntTree::Div(x, y) => IntTree::Div(b(x), b(y)),
        IntTree::Mod(x, y) => IntTree::Mod(b(x), b(y)),
        IntTree::BitAnd(x, y) => IntTree::BitAnd(b(y), b(x)),
        IntTree::Ite(c, x, y) => IntTree::Ite(c.clone(), b(x), b(y)),
        IntTree::Read(i) => IntTree::Read(b(i)),
        leaf => leaf.clone(),
    }
}

proptest! {

    #[test]
    fn canonical_integer_expressions_keep_their_value(t in int_tree(), ps in prop::collection::vec(point(), 4)) {
        let c = Ctx::new();
        let e = c.int(&t);
        for p in &ps {
            if !no_negative_reads(p, &t) { continue; }
            prop_assert_eq!(eval(&c, p, e), Value::Int(p.int(&t)), "{}", c.f.pretty(e));
        }
    }

    #[test]
    fn canonical_boolean_expressions_keep_their_value(t in bool_tree(), ps in prop::collection::vec(point(), 4)) {
        let c = Ctx::new();
        let e = c.boolean(&t);
        for p in &ps {
            if !bool_no_negative_reads(p, &t) { continue; }
            prop_assert_eq!(eval(&c, p, e), Value::Bool(p.boolean(&t)), "{}", c.f.pretty(e));
            // the negation is exact too
            let n = c.f.not(e);
            prop_assert_eq!(eval(&c, p, n), Value::Bool(!p.boolean(&t)));
        }
    }

    #[test]
    fn canonical_real_expressions_keep_their_value(t in real_tree(), ps in prop::collection::vec(point(), 4)) {
        let c = Ctx::new();
        let e = c.real(&t);
        for p in &ps {
            let Some(v) = p.real(&t) else { continue };
            if !real_no_negative_reads(p, &t) { continue; }
            prop_assert_eq!(eval(&c, p, e), Value::Real(v), "{}", c.f.pretty(e));
        }
    }

    #[test]
    fn commuted_trees_intern_to_the_same_id(t in int_tree()) {
        let c = Ctx::new();
        prop_assert_eq!(c.int(&t), c.int(&commute(&t)));
    }

    #[test]
    fn distribution_interns_to_the_same_id(a in int_tree(), b in int_tree(), d in int_tree()) {
        let c = Ctx::new();
        let f = &c.f;
        let (x, y, z) = (c.int(&a), c.int(&b), c.int(&d));
        prop_assert_eq!(f.mul(x, f.add(y, z)), f.add(f.mul(x, y), f.mul(x, z)));
        prop_assert_eq!(f.sub(f.add(x, y), y), x);
    }

    #[test]
    fn substitution_agrees_with_evaluation(t in int_tree(), p in point()) {
        let c = Ctx::new();
        let e = c.int(&t);
        // substitute the first variable by its value
        let s = c.f.substitute_one(e, c.ints[0], c.f.int(p.ints[0]));
        if no_negative_reads(&p, &t) {
            prop_assert_eq!(eval(&c, &p, s), Value::Int(p.int(&t)));
        }
    }
}

fn real_no_negative_reads(p: &Point, t: &RealTree) -> bool {
    match t {
        RealTree::Var(_) | RealTree::Const(..) => true,
        RealTree::FromInt(i) => no_negative_reads(p, i),
        RealTree::Add(a, b) | RealTree::Sub(a, b) | RealTree::Mul(a, b) | RealTree::Div(a, b) => {
            real_no_negative_reads(p, a) && real_no_negative_reads(p, b)
        }
    }
}
