//! The expression factory: interning (hash-consing) and basic accessors.

use std::hash::BuildHasher;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering as AtomicOrdering};
use std::sync::Arc;

use hashbrown::{HashMap, HashTable};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, Zero};
use parking_lot::RwLock;

use crate::node::{Node, Op, Poly};
use crate::types::{Expr, ExprView, Type};

/// The hash index over the interned nodes (ids into the arena).
///
/// Only interning takes its lock; reading a node goes to the arena, which
/// takes no lock and changes no reference count (reads were a fifth of the
/// search's time when every lookup locked and cloned an `Arc`).
#[derive(Default)]
struct Index {
    ids: HashTable<u32>,
}

/// One term of a polynomial node borrowed from the store: its coefficient and
/// its primitive factors with their exponents ([`ExprFactory::polynomial_terms`]).
pub type PolynomialTerm<'a> = (&'a BigRational, &'a [(Expr, u32)]);

/// Factors of a real polynomial: `poly == constant * prod(factor^exp)`.
#[derive(Clone, Debug)]
pub(crate) struct Factored {
    pub constant: BigRational,
    /// Non-constant polynomial factors (as expressions) with exponents, sorted by id.
    pub factors: smallvec::SmallVec<[(Expr, u32); 2]>,
}

/// Creates, interns and canonicalizes symbolic expressions.
///
/// Every expression is built through a factory and is represented by an [`Expr`]
/// handle. Building an expression puts it in canonical form (see the crate
/// documentation), so expressions equal by the ring axioms, boolean CNF
/// normalization or constant folding get the same handle.
///
/// The factory is `Send + Sync`: share it as `Arc<ExprFactory>`. All methods take
/// `&self`; nodes live in an append-only arena (chunks that never move) read
/// without locking; only interning a new node takes the index's write lock.
///
/// Building ill-typed expressions (e.g. adding a boolean to an integer) is a bug in
/// the caller: such calls panic with a message naming the operation and types.
pub struct ExprFactory {
    /// Node `i` is expression `Expr(i)`; appended only under `index`'s write lock.
    nodes: boxcar::Vec<Node>,
    index: RwLock<Index>,
    hasher: hashbrown::DefaultHashBuilder,
    pub(crate) negations: RwLock<HashMap<Expr, Expr>>,
    pub(crate) factorizations: RwLock<HashMap<Expr, Factored>>,
    /// The terms of polynomial nodes in printing order (`compare` reads them
    /// for every pair of polynomials it orders; sorting them each time was
    /// most of the simplifier's time on nonlinear path conditions).
    pub(crate) sorted_polys: RwLock<HashMap<Expr, Arc<Vec<crate::node::Term>>>>,
    fresh_counter: AtomicU64,
    /// Real quotients with a non-constant denominator are kept as atoms of
    /// polynomials instead of expanding every value over a common denominator
    /// (`quotient.rs`); off unless [`Self::enable_quotient_atoms`] was called.
    pub(crate) quotient_atoms: AtomicBool,
    /// Expansions of expressions with quotient atoms into rational functions
    /// (`quotient.rs`), kept across queries.
    pub(crate) expansions: RwLock<HashMap<Expr, Expr>>,
    symbol_names: RwLock<hashbrown::HashSet<Arc<str>>>,
    pub(crate) c_true: Expr,
    pub(crate) c_false: Expr,
    pub(crate) c_int0: Expr,
    pub(crate) c_int1: Expr,
    pub(crate) c_real0: Expr,
    pub(crate) c_real1: Expr,
}

impl std::fmt::Debug for ExprFactory {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "ExprFactory({} expressions)", self.len())
    }
}

impl Default for ExprFactory {
    fn default() -> Self {
        Self::new()
    }
}

fn symbol_bloom(name: &str) -> u64 {
    // FNV-1a: deterministic across runs.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in name.bytes() {
        h ^= b as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    1u64 << (h % 64)
}

impl ExprFactory {
    /// A new, empty factory.
    pub fn new() -> Self {
        let mut f = ExprFactory {
            nodes: boxcar::Vec::new(),
            index: RwLock::new(Index::default()),
            hasher: hashbrown::DefaultHashBuilder::default(),
            negations: RwLock::new(HashMap::new()),
            factorizations: RwLock::new(HashMap::new()),
            sorted_polys: RwLock::new(HashMap::new()),
            fresh_counter: AtomicU64::new(0),
            quotient_atoms: AtomicBool::new(false),
            expansions: RwLock::new(HashMap::new()),
            symbol_names: RwLock::new(hashbrown::HashSet::new()),
            c_true: Expr(0),
            c_false: Expr(0),
            c_int0: Expr(0),
            c_int1: Expr(0),
            c_real0: Expr(0),
            c_real1: Expr(0),
        };
        f.c_true = f.intern(Op::Bool(true), Type::Bool);
        f.c_false = f.intern(Op::Bool(false), Type::Bool);
        f.c_int0 = f.intern(Op::Int(BigInt::zero()), Type::Int);
        f.c_int1 = f.intern(Op::Int(BigInt::one()), Type::Int);
        f.c_real0 = f.intern(Op::Real(BigRational::zero()), Type::Real);
        f.c_real1 = f.intern(Op::Real(BigRational::one()), Type::Real);
        f
    }

    /// A new factory behind an `Arc`, ready to share between threads.
    pub fn shared() -> Arc<Self> {
        Arc::new(Self::new())
    }

    /// The expression with numeric id `id` ([`Expr::id`]), if this factory
    /// has interned that many: lets a diagnostic print a state's expressions
    /// from their numbers (`TASS_DUMP_SAVED`).
    pub fn expr_with_id(&self, id: u32) -> Option<Expr> {
        ((id as usize) < self.len()).then_some(Expr(id))
    }

    /// Number of distinct expressions interned so far.
    pub fn len(&self) -> usize {
        self.nodes.count()
    }

    /// True if no expression has been interned (never the case: the factory
    /// pre-interns `true`, `false`, `0` and `1`).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Interns a node; `op`'s children must be canonical already.
    pub(crate) fn intern(&self, mut op: Op, ty: Type) -> Expr {
        let hash = self.hasher.hash_one((&op, &ty));
        let same = |op: &Op, id: u32| {
            let n = self.node(Expr(id));
            n.hash == hash && n.ty == ty && n.op == *op
        };
        if let Some(&id) = self.index.read().ids.find(hash, |&id| same(&op, id)) {
            return Expr(id);
        }
        let (bloom, depth) = match &op {
            Op::Symbol(name) => (symbol_bloom(name), 1),
            _ => {
                let mut b = 0u64;
                let mut d = 0u32;
                for c in op.children() {
                    let n = self.node(c);
                    b |= n.bloom;
                    d = d.max(n.depth);
                }
                if let Type::Array(_, Some(ext)) = &ty {
                    b |= self.node(*ext).bloom;
                }
                (b, d + 1)
            }
        };
        // Probably a new node: it is kept for good, so without spare room.
        if let Op::Poly(p) = &mut op {
            if let Some(p) = Arc::get_mut(p) {
                p.shrink_exact();
            }
        }
        let mut index = self.index.write();
        if let Some(&id) = index.ids.find(hash, |&id| same(&op, id)) {
            return Expr(id);
        }
        // Appends happen only here, under the write lock, so ids are dense and
        // in order.
        let id = self.nodes.push(Node {
            op,
            ty,
            hash,
            bloom,
            depth,
        });
        let id = u32::try_from(id).expect("more than 2^32 symbolic expressions");
        index
            .ids
            .insert_unique(hash, id, |&i| self.node(Expr(i)).hash);
        Expr(id)
    }

    /// The node of `e`: a plain read, no lock, no reference count.
    #[inline]
    pub(crate) fn node(&self, e: Expr) -> &Node {
        match self.nodes.get(e.0 as usize) {
            Some(n) => n,
            None => panic!("expression {} is not in this factory", e.0),
        }
    }

    pub(crate) fn bloom(&self, e: Expr) -> u64 {
        self.node(e).bloom
    }

    pub(crate) fn symbol_bloom_of(name: &str) -> u64 {
        symbol_bloom(name)
    }

    // ----- constants and symbols --------------------------------------------------

    /// The boolean constant `b`.
    pub fn bool(&self, b: bool) -> Expr {
        if b {
            self.c_true
        } else {
            self.c_false
        }
    }

    /// The boolean constant `true`.
    pub fn tt(&self) -> Expr {
        self.c_true
    }

    /// The boolean constant `false`.
    pub fn ff(&self) -> Expr {
        self.c_false
    }

    /// The integer constant `i` (any size).
    pub fn int(&self, i: impl Into<BigInt>) -> Expr {
        let i = i.into();
        if i.is_zero() {
            return self.c_int0;
        }
        if i.is_one() {
            return self.c_int1;
        }
        self.intern(Op::Int(i), Type::Int)
    }

    /// The real constant `r` (an exact rational of any size).
    pub fn real(&self, r: BigRational) -> Expr {
        if r.is_zero() {
            return self.c_real0;
        }
        if r.is_one() {
            return self.c_real1;
        }
        self.intern(Op::Real(r), Type::Real)
    }

    /// The real constant `num / den`.
    ///
    /// # Panics
    /// If `den` is zero.
    pub fn real_ratio(&self, num: i64, den: i64) -> Expr {
        assert!(den != 0, "real_ratio: zero denominator");
        self.real(BigRational::new(num.into(), den.into()))
    }

    /// The character constant with code `c`.
    pub fn char(&self, c: u32) -> Expr {
        self.intern(Op::Char(c), Type::Char)
    }

    /// The constant `c` of numeric type `ty` (`Int` requires `c` to be an integer).
    ///
    /// # Panics
    /// If `ty` is not numeric, or `ty` is `Int` and `c` is not an integer.
    pub fn number(&self, c: BigRational, ty: &Type) -> Expr {
        match ty {
            Type::Int => {
                assert!(c.is_integer(), "number: non-integer {c} of type int");
                self.int(c.to_integer())
            }
            Type::Real => self.real(c),
            t => panic!("number: non-numeric type {t:?}"),
        }
    }

    /// Zero of numeric type `ty`.
    pub fn zero(&self, ty: &Type) -> Expr {
        match ty {
            Type::Real => self.c_real0,
            _ => self.c_int0,
        }
    }

    /// One of numeric type `ty`.
    pub fn one(&self, ty: &Type) -> Expr {
        match ty {
            Type::Real => self.c_real1,
            _ => self.c_int1,
        }
    }

    /// The symbolic constant named `name` of type `ty`. The same name and type
    /// always give the same expression.
    pub fn symbol(&self, name: &str, ty: Type) -> Expr {
        let name: Arc<str> = Arc::from(name);
        if !self.symbol_names.read().contains(&name) {
            self.symbol_names.write().insert(name.clone());
        }
        self.intern(Op::Symbol(name), ty)
    }

    /// A symbolic constant with a name not used by any expression of this factory
    /// so far: `prefix` followed by a number (`X0`, `X1`, ...).
    pub fn fresh_symbol(&self, prefix: &str, ty: Type) -> Expr {
        loop {
            let n = self.fresh_counter.fetch_add(1, AtomicOrdering::Relaxed);
            let name = format!("{prefix}{n}");
            if !self.symbol_name_taken(&name) {
                let e = self.symbol(&name, ty.clone());
                return e;
            }
        }
    }

    fn symbol_name_taken(&self, name: &str) -> bool {
        self.symbol_names.read().contains(name)
    }

    /// The name of a symbolic constant (`None` for other expressions).
    pub fn symbol_name(&self, e: Expr) -> Option<Arc<str>> {
        match &self.node(e).op {
            Op::Symbol(s) => Some(s.clone()),
            _ => None,
        }
    }

    /// True if `e` is a symbolic constant.
    pub fn is_symbol(&self, e: Expr) -> bool {
        matches!(self.node(e).op, Op::Symbol(_))
    }

    /// True if `e` is a sum or a product (a polynomial node). Its
    /// [`view`](Self::view) interns one new expression per term, which the
    /// store keeps for good: a caller that looks only for other kinds asks
    /// this first (laplace np 5 kept ~600 MB of such terms).
    pub fn is_polynomial(&self, e: Expr) -> bool {
        matches!(self.node(e).op, Op::Poly(_))
    }

    /// The terms of polynomial node `e` (see [`is_polynomial`](Self::is_polynomial))
    /// as `(coefficient, primitive factors with their exponents)`, in the order
    /// [`view`](Self::view) shows them, borrowed from the store: a walk that
    /// needs the terms reads them here without interning a node per term.
    /// `None` if `e` is not a polynomial node.
    pub fn polynomial_terms(&self, e: Expr) -> Option<Vec<PolynomialTerm<'_>>> {
        match &self.node(e).op {
            Op::Poly(p) => Some(
                p.terms
                    .iter()
                    .map(|t| (&t.coef, t.mono.as_slice()))
                    .collect(),
            ),
            _ => None,
        }
    }

    // ----- queries ----------------------------------------------------------------

    /// The type of `e`.
    pub fn type_of(&self, e: Expr) -> Type {
        self.node(e).ty.clone()
    }

    /// The type of `e`, borrowed from the store (no clone).
    pub fn type_ref(&self, e: Expr) -> &Type {
        &self.node(e).ty
    }

    /// `Some(i)` if `e` is a concrete integer.
    pub fn as_concrete_int(&self, e: Expr) -> Option<BigInt> {
        self.concrete_int_ref(e).cloned()
    }

    /// `Some(i)` if `e` is a concrete integer, borrowed from the store (no
    /// bignum clone).
    pub fn concrete_int_ref(&self, e: Expr) -> Option<&BigInt> {
        match &self.node(e).op {
            Op::Int(i) => Some(i),
            _ => None,
        }
    }

    /// `Some(r)` if `e` is a concrete integer or real (as a rational).
    pub fn as_concrete_rational(&self, e: Expr) -> Option<BigRational> {
        match &self.node(e).op {
            Op::Int(i) => Some(BigRational::from_integer(i.clone())),
            Op::Real(r) => Some(r.clone()),
            _ => None,
        }
    }

    /// `Some(b)` if `e` is the concrete boolean `b`.
    pub fn as_bool(&self, e: Expr) -> Option<bool> {
        if e == self.c_true {
            Some(true)
        } else if e == self.c_false {
            Some(false)
        } else {
            None
        }
    }

    /// `Some(c)` if `e` is a concrete character.
    pub fn as_concrete_char(&self, e: Expr) -> Option<u32> {
        match &self.node(e).op {
            Op::Char(c) => Some(*c),
            _ => None,
        }
    }

    /// True if `e` is a concrete boolean, integer, real or character.
    pub fn is_concrete(&self, e: Expr) -> bool {
        matches!(
            self.node(e).op,
            Op::Bool(_) | Op::Int(_) | Op::Real(_) | Op::Char(_)
        )
    }

    /// The depth of `e` as a tree (1 for constants and symbols).
    pub fn depth(&self, e: Expr) -> u32 {
        self.node(e).depth
    }

    /// The direct sub-expressions of `e`, without duplicates, in a fixed order
    /// (for polynomials: the primitives; for arrays with a known extent the extent
    /// is not included).
    pub fn children(&self, e: Expr) -> Vec<Expr> {
        self.node(e).op.children().into_vec()
    }

    /// The structural view of `e`: its operator and children.
    pub fn view(&self, e: Expr) -> ExprView {
        let node = self.node(e);
        match &node.op {
            Op::Bool(b) => ExprView::Bool(*b),
            Op::Int(i) => ExprView::Int(i.clone()),
            Op::Real(r) => ExprView::Real(r.clone()),
            Op::Char(c) => ExprView::Char(*c),
            Op::Symbol(s) => ExprView::Symbol(s.clone()),
            Op::Poly(p) => self.view_poly(p, &node.ty),
            Op::Div(a, b) => ExprView::Div(*a, *b),
            Op::IntDiv(a, b) => ExprView::IntDiv(*a, *b),
            Op::IntMod(a, b) => ExprView::IntMod(*a, *b),
            Op::ToReal(a) => ExprView::ToReal(*a),
            Op::ToInt(a) => ExprView::ToInt(*a),
            Op::Cast(a) => ExprView::Cast(*a),
            Op::Rel(r, a) => ExprView::Rel(*r, *a),
            Op::Equal(a, b) => ExprView::Equal(*a, *b),
            Op::And(v) => ExprView::And(v.to_vec()),
            Op::Or(v) => ExprView::Or(v.to_vec()),
            Op::Not(a) => ExprView::Not(*a),
            Op::Ite(a, b, c) => ExprView::Ite(*a, *b, *c),
            Op::ArrayRead(a, i) => ExprView::ArrayRead(*a, *i),
            Op::ArrayWrite(a, i, v) => ExprView::ArrayWrite(*a, *i, *v),
            Op::ConcreteArray(b, els) => ExprView::ConcreteArray {
                base: *b,
                elements: els.to_vec(),
            },
            Op::ArrayLambda(v, b) => ExprView::ArrayLambda { var: *v, body: *b },
            Op::Tuple(v) => ExprView::Tuple(v.to_vec()),
            Op::TupleRead(t, k) => ExprView::TupleRead(*t, *k),
            Op::Apply(f, a) => ExprView::Apply(*f, a.to_vec()),
            Op::Quant(q, v, b) => ExprView::Quant {
                kind: *q,
                var: *v,
                body: *b,
            },
        }
    }

    fn view_poly(&self, p: &Poly, ty: &Type) -> ExprView {
        if p.terms.len() >= 2 {
            let kids = p
                .terms
                .iter()
                .map(|t| {
                    self.poly_expr(
                        Poly {
                            terms: smallvec::smallvec![t.clone()],
                        },
                        ty,
                    )
                })
                .collect();
            return ExprView::Add(kids);
        }
        let t = &p.terms[0];
        let mut kids = Vec::new();
        if !t.coef.is_one() {
            kids.push(self.number(t.coef.clone(), ty));
        }
        if t.mono.len() == 1 && kids.is_empty() {
            let (x, k) = t.mono[0];
            return ExprView::Pow(x, k);
        }
        for &(x, k) in &t.mono {
            if k == 1 {
                kids.push(x);
            } else {
                let mut m = crate::node::Mono::new();
                m.push((x, k));
                kids.push(self.poly_expr(
                    Poly {
                        terms: smallvec::smallvec![crate::node::Term {
                            mono: m,
                            coef: BigRational::one()
                        }],
                    },
                    ty,
                ));
            }
        }
        ExprView::Mul(kids)
    }

    /// The expression for polynomial `p` of numeric type `ty`.
    pub(crate) fn poly_expr(&self, p: Poly, ty: &Type) -> Expr {
        if let Some(c) = p.as_constant() {
            return self.number(c, ty);
        }
        if p.terms.len() == 1 && p.terms[0].coef.is_one() && p.terms[0].mono.len() == 1 {
            let (x, k) = p.terms[0].mono[0];
            if k == 1 {
                return x;
            }
        }
        self.intern(Op::Poly(Arc::new(p)), ty.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factory_is_send_sync() {
        fn check<T: Send + Sync>() {}
        check::<ExprFactory>();
    }

    #[test]
    fn polynomial_terms_are_the_views_terms_without_new_nodes() {
        let f = ExprFactory::new();
        let (x, y) = (f.symbol("x", Type::Int), f.symbol("y", Type::Int));
        let p = f.add_all(
            &Type::Int,
            [f.mul(f.int(3), f.mul(x, y)), f.mul(x, x), y, f.int(-2)],
        );
        assert!(f.is_polynomial(p));
        assert!(!f.is_polynomial(x));
        assert!(!f.is_polynomial(f.int(5)));
        assert!(f.polynomial_terms(x).is_none());
        let nodes = f.len();
        let terms: Vec<(BigRational, Vec<(Expr, u32)>)> = f
            .polynomial_terms(p)
            .unwrap()
            .into_iter()
            .map(|(c, m)| (c.clone(), m.to_vec()))
            .collect();
        assert_eq!(f.len(), nodes, "reading the terms interned a node");
        // The view's terms, rebuilt from the borrowed ones, in the same order.
        let ExprView::Add(view_terms) = f.view(p) else {
            panic!("a sum's view is a sum");
        };
        let rebuilt: Vec<Expr> = terms
            .iter()
            .map(|(c, mono)| {
                let factors = mono.iter().map(|&(v, k)| f.pow(v, k));
                f.mul(
                    f.number(c.clone(), &Type::Int),
                    f.mul_all(&Type::Int, factors),
                )
            })
            .collect();
        assert_eq!(rebuilt, view_terms);
    }

    #[test]
    fn an_interned_polynomial_keeps_no_spare_room() {
        // x0 + ... + x9 + (x0 + ... + x9) reserves 20 terms for 10.
        let f = ExprFactory::new();
        let xs: Vec<Expr> = (0..10)
            .map(|k| f.symbol(&format!("x{k}"), Type::Int))
            .collect();
        let s = f.add_all(&Type::Int, xs.iter().copied());
        let doubled = f.add(s, s);
        let Op::Poly(p) = &f.node(doubled).op else {
            panic!("a sum is a polynomial node");
        };
        assert_eq!(p.terms.len(), 10);
        assert_eq!(p.terms.capacity(), 10);
    }

    #[test]
    fn interning_gives_equal_ids() {
        let f = ExprFactory::new();
        assert_eq!(f.int(5), f.int(5));
        assert_ne!(f.int(5), f.int(6));
        assert_eq!(f.symbol("x", Type::Int), f.symbol("x", Type::Int));
        assert_ne!(f.symbol("x", Type::Int), f.symbol("x", Type::Real));
    }
}
