//! Numeric canonical forms: integer polynomials, real rational functions with
//! cached factorizations, C integer division, casts.

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, ToPrimitive, Zero};
use smallvec::SmallVec;

use crate::factory::{ExprFactory, Factored};
use crate::node::{mono_gcd, Mono, Op, Poly, Term};
use crate::types::{Expr, Type};

/// A polynomial borrowed from a node or built on the fly.
pub(crate) enum PolyRef<'f> {
    Borrowed(&'f Poly),
    Owned(Poly),
}

impl std::ops::Deref for PolyRef<'_> {
    type Target = Poly;
    fn deref(&self) -> &Poly {
        match self {
            PolyRef::Borrowed(p) => p,
            PolyRef::Owned(p) => p,
        }
    }
}

impl PolyRef<'_> {
    pub(crate) fn into_owned(self) -> Poly {
        match self {
            PolyRef::Borrowed(p) => p.clone(),
            PolyRef::Owned(p) => p,
        }
    }
}

type FactorList = SmallVec<[(Expr, u32); 2]>;

/// The product of two factored polynomials.
fn product(a: &Factored, b: &Factored) -> Factored {
    Factored {
        constant: &a.constant * &b.constant,
        factors: merge_factors(&a.factors, &b.factors),
    }
}

fn merge_factors(a: &FactorList, b: &FactorList) -> FactorList {
    let mut out = a.clone();
    for &(f, k) in b {
        match out.iter_mut().find(|(g, _)| *g == f) {
            Some(slot) => slot.1 += k,
            None => out.push((f, k)),
        }
    }
    out.sort_by_key(|&(f, _)| f);
    out
}

impl ExprFactory {
    /// The numeric type `a` and `b` are combined in (C's usual arithmetic
    /// conversions, restricted to int and real), converting as needed.
    fn promote(&self, op: &str, a: Expr, b: Expr) -> (Expr, Expr, Type) {
        let (ta, tb) = (self.type_ref(a), self.type_ref(b));
        match (ta, tb) {
            (Type::Int, Type::Int) => (a, b, Type::Int),
            (Type::Real, Type::Real) => (a, b, Type::Real),
            (Type::Int, Type::Real) => (self.to_real(a), b, Type::Real),
            (Type::Real, Type::Int) => (a, self.to_real(b), Type::Real),
            (ta, tb) => {
                let a = self.numeric_operand(op, a, ta);
                let b = self.numeric_operand(op, b, tb);
                self.promote(op, a, b)
            }
        }
    }

    fn numeric_operand(&self, op: &str, a: Expr, t: &Type) -> Expr {
        match t {
            Type::Int | Type::Real => a,
            Type::Char => self.cast(a, &Type::Int),
            Type::Bool => self.cast(a, &Type::Int),
            t => panic!("{op}: non-numeric operand of type {t:?}"),
        }
    }

    /// The polynomial of a numeric expression that is not a real quotient.
    pub(crate) fn poly_of(&self, e: Expr) -> PolyRef<'_> {
        let node = self.node(e);
        match &node.op {
            Op::Int(i) => PolyRef::Owned(Poly::constant(BigRational::from_integer(i.clone()))),
            Op::Real(r) => PolyRef::Owned(Poly::constant(r.clone())),
            Op::Poly(p) => PolyRef::Borrowed(p),
            _ => PolyRef::Owned(Poly::prim(e)),
        }
    }

    /// Numerator and denominator of a real quotient. A quotient by the concrete
    /// zero is not one: it stays an opaque primitive.
    fn as_div(&self, e: Expr) -> Option<(Expr, Expr)> {
        match self.node(e).op {
            Op::Div(n, d) if d != self.c_real0 => Some((n, d)),
            _ => None,
        }
    }

    /// `a + b` (int + real converts the int operand to real).
    pub fn add(&self, a: Expr, b: Expr) -> Expr {
        let (a, b, ty) = self.promote("add", a, b);
        if ty == Type::Real
            && !self.quotients_are_atoms()
            && (self.as_div(a).is_some() || self.as_div(b).is_some())
        {
            return self.ratfn_add(a, b);
        }
        let p = self.poly_of(a).add(&self.poly_of(b));
        self.poly_expr(p, &ty)
    }

    /// The sum of all `items` (zero of `ty` if empty).
    ///
    /// When every item is a polynomial of type `ty` (no quotient), the terms
    /// are merged pairwise and only the sum is interned: adding them one by one
    /// interned every partial sum, and the store never frees a node, so
    /// rebuilding an n-term polynomial kept O(n^2) terms for good (most of
    /// laplace's memory: its squared-error sums have hundreds of terms). The
    /// result is the same expression either way (polynomial sums are
    /// canonical).
    pub fn add_all(&self, ty: &Type, items: impl IntoIterator<Item = Expr>) -> Expr {
        let items: Vec<Expr> = items.into_iter().collect();
        let atoms = self.quotients_are_atoms();
        let polynomial = |&x: &Expr| (atoms || self.as_div(x).is_none()) && self.type_ref(x) == ty;
        if matches!(ty, Type::Int | Type::Real) && items.iter().all(polynomial) {
            let polys = items
                .iter()
                .map(|&x| self.poly_of(x).into_owned())
                .collect();
            return self.poly_expr(Poly::sum(polys), ty);
        }
        items
            .into_iter()
            .fold(self.zero(ty), |acc, x| self.add(acc, x))
    }

    /// `-a`.
    pub fn neg(&self, a: Expr) -> Expr {
        let t = self.type_of(a);
        let a = self.numeric_operand("neg", a, &t);
        let ty = self.type_of(a);
        if let Some((n, d)) = self.as_div(a).filter(|_| !self.quotients_are_atoms()) {
            let nn = self.neg(n);
            return self.intern(Op::Div(nn, d), Type::Real);
        }
        self.poly_expr(self.poly_of(a).neg(), &ty)
    }

    /// `a - b`.
    pub fn sub(&self, a: Expr, b: Expr) -> Expr {
        if let Some((p, ty)) = self.sub_poly(a, b) {
            return self.poly_expr(p, &ty);
        }
        let (a, b, _) = self.promote("sub", a, b);
        let nb = self.neg(b);
        self.add(a, nb)
    }

    /// `a - b` as a polynomial, unless one of them is a real quotient.
    pub(crate) fn sub_poly(&self, a: Expr, b: Expr) -> Option<(Poly, Type)> {
        let (a, b, ty) = self.promote("sub", a, b);
        if ty == Type::Real
            && !self.quotients_are_atoms()
            && (self.as_div(a).is_some() || self.as_div(b).is_some())
        {
            return None;
        }
        Some((self.poly_of(a).sub(&self.poly_of(b)), ty))
    }

    /// `a * b`.
    pub fn mul(&self, a: Expr, b: Expr) -> Expr {
        let (a, b, ty) = self.promote("mul", a, b);
        if ty == Type::Int || self.quotients_are_atoms() {
            let p = self.poly_of(a).mul(&self.poly_of(b));
            return self.poly_expr(p, &ty);
        }
        let (na, da) = self.ratfn_parts(a);
        let (nb, db) = self.ratfn_parts(b);
        self.mk_ratfn(product(&na, &nb), product(&da, &db))
    }

    /// The product of all `items` (one of `ty` if empty).
    pub fn mul_all(&self, ty: &Type, items: impl IntoIterator<Item = Expr>) -> Expr {
        items
            .into_iter()
            .fold(self.one(ty), |acc, x| self.mul(acc, x))
    }

    /// `a` raised to the concrete power `k` (`a^0 = 1`).
    pub fn pow(&self, a: Expr, k: u32) -> Expr {
        let ty = self.type_of(a);
        let ty = if ty == Type::Real {
            Type::Real
        } else {
            Type::Int
        };
        let mut acc = self.one(&ty);
        for _ in 0..k {
            acc = self.mul(acc, a);
        }
        acc
    }

    /// Real division `a / b` (integer operands are converted to real).
    ///
    /// Common factors of numerator and denominator that the factory knows of are
    /// cancelled (so `(x*y)/y` is `x`): this assumes the divisor is non-zero, which
    /// the caller checks (C: division by zero is an error). Dividing by the
    /// concrete zero gives an unevaluated quotient `a / 0`.
    pub fn div(&self, a: Expr, b: Expr) -> Expr {
        let a = self.to_real_any(a);
        let b = self.to_real_any(b);
        if let Some(c) = self.as_concrete_rational(b) {
            if c.is_zero() {
                return self.intern(Op::Div(a, b), Type::Real);
            }
            let inv = self.real(c.recip());
            return self.mul(a, inv);
        }
        let (na, da) = self.ratfn_parts(a);
        let (nb, db) = self.ratfn_parts(b);
        if nb.constant.is_zero() {
            return self.intern(Op::Div(a, b), Type::Real);
        }
        self.mk_ratfn(product(&na, &db), product(&da, &nb))
    }

    fn to_real_any(&self, a: Expr) -> Expr {
        match self.type_of(a) {
            Type::Real => a,
            Type::Int => self.to_real(a),
            t => {
                let i = self.numeric_operand("div", a, &t);
                self.to_real(i)
            }
        }
    }

    /// Numerator and denominator of a real expression, factored.
    fn ratfn_parts(&self, e: Expr) -> (Factored, Factored) {
        match self.as_div(e) {
            Some((n, d)) => (self.factored(n), self.factored(d)),
            None => (
                self.factored(e),
                Factored {
                    constant: BigRational::one(),
                    factors: SmallVec::new(),
                },
            ),
        }
    }

    /// The known factorization of the real polynomial `e`.
    pub(crate) fn factored(&self, e: Expr) -> Factored {
        if let Some(c) = self.as_concrete_rational(e) {
            return Factored {
                constant: c,
                factors: SmallVec::new(),
            };
        }
        if let Some(f) = self.factorizations.read().get(&e) {
            return f.clone();
        }
        let p = self.poly_of(e);
        let f = self.basic_factorization(&p);
        self.factorizations.write().insert(e, f.clone());
        f
    }

    /// Content and monomial content: `p = lc * m * p'`.
    fn basic_factorization(&self, p: &Poly) -> Factored {
        let lc = p.lc();
        let mut g: Mono = p.terms[0].mono.clone();
        for t in &p.terms[1..] {
            g = mono_gcd(&g, &t.mono);
        }
        let mut factors: FactorList = g.iter().copied().collect();
        let inv = lc.recip();
        let rest = Poly {
            terms: p
                .terms
                .iter()
                .map(|t| Term {
                    mono: crate::node::mono_div(&t.mono, &g).unwrap_or_default(),
                    coef: &t.coef * &inv,
                })
                .collect(),
        };
        if rest.as_constant().is_none() {
            let re = self.poly_expr(rest, &Type::Real);
            factors.push((re, 1));
        }
        factors.sort_by_key(|&(f, _)| f);
        Factored {
            constant: lc,
            factors,
        }
    }

    pub(crate) fn expand(&self, f: &Factored) -> Poly {
        let mut acc = Poly::constant(f.constant.clone());
        for &(x, k) in &f.factors {
            acc = acc.mul(&self.poly_of(x).pow(k));
        }
        acc
    }

    pub(crate) fn record_factorization(&self, e: Expr, f: Factored) {
        if f.factors.len() + f.factors.iter().map(|x| x.1 as usize).sum::<usize>() <= 2 {
            return;
        }
        let mut map = self.factorizations.write();
        let better = match map.get(&e) {
            None => true,
            Some(old) => {
                let n_old: u32 = old.factors.iter().map(|x| x.1).sum();
                let n_new: u32 = f.factors.iter().map(|x| x.1).sum();
                n_new > n_old
            }
        };
        if better {
            map.insert(e, f);
        }
    }

    /// Builds `num / den` after cancelling common factors.
    fn mk_ratfn(&self, mut num: Factored, mut den: Factored) -> Expr {
        if num.constant.is_zero() {
            return self.c_real0;
        }
        // Cancel common factors.
        for slot in den.factors.iter_mut() {
            if let Some(n) = num.factors.iter_mut().find(|(g, _)| *g == slot.0) {
                let m = n.1.min(slot.1);
                n.1 -= m;
                slot.1 -= m;
            }
        }
        num.factors.retain(|x| x.1 > 0);
        den.factors.retain(|x| x.1 > 0);
        num.constant = &num.constant / &den.constant;
        den.constant = BigRational::one();
        if !den.factors.is_empty() && self.quotients_are_atoms() {
            return self.quotient_atom(num, &den);
        }
        let np = self.expand(&num);
        let ne = self.poly_expr(np, &Type::Real);
        self.record_factorization(ne, num);
        if den.factors.is_empty() {
            return ne;
        }
        let dp = self.expand(&den);
        // Factors are monic under a monomial order, so their product is monic.
        let de = self.poly_expr(dp, &Type::Real);
        self.record_factorization(de, den);
        self.intern(Op::Div(ne, de), Type::Real)
    }

    fn ratfn_add(&self, a: Expr, b: Expr) -> Expr {
        let (na, da) = self.ratfn_parts(a);
        let (nb, db) = self.ratfn_parts(b);
        // lcm of the denominators (both monic, constant 1).
        let mut l: FactorList = da.factors.clone();
        for &(f, k) in &db.factors {
            match l.iter_mut().find(|(g, _)| *g == f) {
                Some(slot) => slot.1 = slot.1.max(k),
                None => l.push((f, k)),
            }
        }
        l.sort_by_key(|&(f, _)| f);
        let cofactor = |d: &Factored| -> FactorList {
            l.iter()
                .filter_map(|&(f, k)| {
                    let have = d.factors.iter().find(|x| x.0 == f).map_or(0, |x| x.1);
                    (k > have).then_some((f, k - have))
                })
                .collect()
        };
        let ta = Factored {
            constant: na.constant.clone(),
            factors: merge_factors(&na.factors, &cofactor(&da)),
        };
        let tb = Factored {
            constant: nb.constant.clone(),
            factors: merge_factors(&nb.factors, &cofactor(&db)),
        };
        let mut s = self.expand(&ta).add(&self.expand(&tb));
        if s.is_zero() {
            return self.c_real0;
        }
        // Cancel denominator factors that divide the new numerator.
        for slot in l.iter_mut() {
            let fp = self.poly_of(slot.0);
            while slot.1 > 0 {
                match s.div_exact(&fp) {
                    Some(q) => {
                        s = q;
                        slot.1 -= 1;
                    }
                    None => break,
                }
            }
        }
        l.retain(|x| x.1 > 0);
        let se = self.poly_expr(s, &Type::Real);
        let num = self.factored(se);
        self.mk_ratfn(
            num,
            Factored {
                constant: BigRational::one(),
                factors: l,
            },
        )
    }

    // ----- integer division ----------------------------------------------------

    /// C integer division `a / b`: truncates toward zero (`-7 / 2 == -3`,
    /// `7 / -2 == -3`). Division by zero is defined as `a / 0 == 0` so the
    /// operation is total (the caller reports division by zero separately);
    /// with `a % 0 == a` the identity `a == (a / b) * b + a % b` holds for all `b`.
    pub fn int_div(&self, a: Expr, b: Expr) -> Expr {
        let (a, b) = self.int_operands("int_div", a, b);
        if let (Some(x), Some(y)) = (self.as_concrete_int(a), self.as_concrete_int(b)) {
            return self.int(if y.is_zero() { BigInt::zero() } else { &x / &y });
        }
        if let Some(y) = self.as_concrete_int(b) {
            if y.is_zero() {
                return self.c_int0;
            }
            if y.is_one() {
                return a;
            }
            if (-&y).is_one() {
                return self.neg(a);
            }
            let p = self.poly_of(a);
            let yr = BigRational::from_integer(y.clone());
            if p.terms.iter().all(|t| (&t.coef / &yr).is_integer()) {
                return self.poly_expr(p.scale(&yr.recip()), &Type::Int);
            }
        }
        if a == self.c_int0 {
            return a;
        }
        self.intern(Op::IntDiv(a, b), Type::Int)
    }

    /// C remainder `a % b`: the sign follows the dividend (`-7 % 2 == -1`,
    /// `7 % -2 == 1`); `a % 0` is defined as `a` (see [`Self::int_div`]).
    pub fn int_mod(&self, a: Expr, b: Expr) -> Expr {
        let (a, b) = self.int_operands("int_mod", a, b);
        if let (Some(x), Some(y)) = (self.as_concrete_int(a), self.as_concrete_int(b)) {
            return self.int(if y.is_zero() { x } else { &x % &y });
        }
        if let Some(y) = self.as_concrete_int(b) {
            if y.is_zero() {
                return a;
            }
            if y.abs().is_one() {
                return self.c_int0;
            }
            let p = self.poly_of(a);
            let yr = BigRational::from_integer(y);
            if p.terms.iter().all(|t| (&t.coef / &yr).is_integer()) {
                return self.c_int0;
            }
        }
        if a == self.c_int0 {
            return a;
        }
        self.intern(Op::IntMod(a, b), Type::Int)
    }

    fn int_operands(&self, op: &str, a: Expr, b: Expr) -> (Expr, Expr) {
        let fix = |e: Expr| -> Expr {
            match self.type_of(e) {
                Type::Int => e,
                Type::Char | Type::Bool => self.cast(e, &Type::Int),
                t => panic!("{op}: operand of type {t:?}, expected int"),
            }
        };
        (fix(a), fix(b))
    }

    // ----- casts -------------------------------------------------------------------

    /// Converts an integer to a real (exact). Distributes over sums and products,
    /// so `(real)(x + 1) == (real)x + 1.0`.
    pub fn to_real(&self, a: Expr) -> Expr {
        let t = self.type_of(a);
        match t {
            Type::Real => return a,
            Type::Int => {}
            t => {
                let i = self.numeric_operand("to_real", a, &t);
                return self.to_real(i);
            }
        }
        let node = self.node(a);
        match &node.op {
            Op::Int(i) => self.real(BigRational::from_integer(i.clone())),
            Op::Poly(p) => {
                let mut acc = Poly::zero();
                for t in &p.terms {
                    let mut tp = Poly::constant(t.coef.clone());
                    for &(x, k) in &t.mono {
                        let xr = self.to_real_prim(x);
                        tp = tp.mul(&self.poly_of(xr).pow(k));
                    }
                    acc = acc.add(&tp);
                }
                self.poly_expr(acc, &Type::Real)
            }
            Op::ToInt(r) => {
                // (real)(int)r == r exactly when r is an integer; not in general.
                let _ = r;
                self.intern(Op::ToReal(a), Type::Real)
            }
            _ => self.to_real_prim(a),
        }
    }

    fn to_real_prim(&self, x: Expr) -> Expr {
        self.intern(Op::ToReal(x), Type::Real)
    }

    /// Converts a real to an integer, truncating toward zero (C semantics).
    pub fn to_int(&self, a: Expr) -> Expr {
        let t = self.type_of(a);
        match t {
            Type::Int => return a,
            Type::Real => {}
            t => return self.numeric_operand("to_int", a, &t),
        }
        if let Some(r) = self.as_concrete_rational(a) {
            return self.int(r.trunc().to_integer());
        }
        // A real polynomial over converted integers with integer coefficients is
        // the image of an integer polynomial.
        if self.as_div(a).is_none() {
            let p = self.poly_of(a);
            if p.has_only_integer_coefs() {
                let mut acc = Poly::zero();
                let mut ok = true;
                for t in &p.terms {
                    let mut tp = Poly::constant(t.coef.clone());
                    for &(x, k) in &t.mono {
                        match self.node(x).op {
                            Op::ToReal(i) => tp = tp.mul(&self.poly_of(i).pow(k)),
                            _ => {
                                ok = false;
                                break;
                            }
                        }
                    }
                    if !ok {
                        break;
                    }
                    acc = acc.add(&tp);
                }
                if ok {
                    return self.poly_expr(acc, &Type::Int);
                }
            }
        }
        self.intern(Op::ToInt(a), Type::Int)
    }

    /// Converts `a` to type `ty`: int <-> real as [`Self::to_real`] /
    /// [`Self::to_int`]; char -> int gives the code; int -> char keeps concrete
    /// codes in `0..=0x10FFFF`; bool -> int/real gives 1 or 0; int/real/char ->
    /// bool is `a != 0`. Other conversions stay as an unevaluated cast node.
    pub fn cast(&self, a: Expr, ty: &Type) -> Expr {
        let from = self.type_of(a);
        if &from == ty {
            return a;
        }
        match (&from, ty) {
            (Type::Int, Type::Real) => self.to_real(a),
            (Type::Real, Type::Int) => self.to_int(a),
            (Type::Char, Type::Int) => match self.as_concrete_char(a) {
                Some(c) => self.int(c),
                None => self.intern(Op::Cast(a), Type::Int),
            },
            (Type::Char, Type::Real) => {
                let i = self.cast(a, &Type::Int);
                self.to_real(i)
            }
            (Type::Int, Type::Char) => match self.as_concrete_int(a).and_then(|i| i.to_u32()) {
                Some(c) if c <= 0x10FFFF => self.char(c),
                _ => {
                    if let Op::Cast(inner) = self.node(a).op {
                        if self.type_of(inner) == Type::Char {
                            return inner;
                        }
                    }
                    self.intern(Op::Cast(a), Type::Char)
                }
            },
            (Type::Bool, Type::Int | Type::Real) => {
                let (one, zero) = (self.one(ty), self.zero(ty));
                self.ite(a, one, zero)
            }
            (Type::Int | Type::Real | Type::Char, Type::Bool) => {
                let z = self.zero(&Type::Int);
                self.ne(a, z)
            }
            _ => self.intern(Op::Cast(a), ty.clone()),
        }
    }

    // ----- polynomial structure (for the simplifier) ---------------------------------

    /// The terms of numeric expression `e` seen as a polynomial: pairs
    /// `(coefficient, monomial)` where the monomial is a monic product of
    /// primitives (the constant term has monomial `1` of `e`'s type). Real
    /// quotients are a single primitive-like term `(1, e)`. Terms come in the
    /// factory's term order (graded; the constant term last).
    pub fn poly_terms(&self, e: Expr) -> Vec<(BigRational, Expr)> {
        let ty = self.type_of(e);
        if self.as_div(e).is_some() {
            return vec![(BigRational::one(), e)];
        }
        let p = self.poly_of(e);
        p.terms
            .iter()
            .map(|t| {
                let m = Poly {
                    terms: smallvec::smallvec![Term {
                        mono: t.mono.clone(),
                        coef: BigRational::one()
                    }],
                };
                (t.coef.clone(), self.poly_expr(m, &ty))
            })
            .collect()
    }

    /// The primitive factors of a monic monomial with their exponents (a
    /// primitive gives `[(e, 1)]`, the constant 1 gives `[]`).
    pub fn monomial_factors(&self, m: Expr) -> Vec<(Expr, u32)> {
        if self.as_concrete_rational(m).is_some() {
            return Vec::new();
        }
        if self.as_div(m).is_some() {
            return vec![(m, 1)];
        }
        let p = self.poly_of(m);
        if p.terms.len() == 1 {
            p.terms[0].mono.to_vec()
        } else {
            vec![(m, 1)]
        }
    }

    /// Builds `sum(c_i * m_i)` of numeric type `ty` from `(coefficient, expression)`
    /// pairs (the inverse of [`Self::poly_terms`]).
    ///
    /// # Panics
    /// If `ty` is `Int` and a coefficient is not an integer.
    pub fn linear_combination(&self, ty: &Type, terms: &[(BigRational, Expr)]) -> Expr {
        if *ty == Type::Int {
            for (c, _) in terms {
                assert!(
                    c.is_integer(),
                    "linear_combination: non-integer coefficient {c} for int"
                );
            }
        }
        let polynomial =
            |&(_, m): &(BigRational, Expr)| self.as_div(m).is_none() && self.type_of(m) == *ty;
        if *ty == Type::Int || terms.iter().all(polynomial) {
            // Polynomials: one pairwise sum of the scaled terms.
            let scaled = terms
                .iter()
                .map(|(c, m)| self.poly_of(*m).scale(c))
                .collect();
            return self.poly_expr(Poly::sum(scaled), ty);
        }
        let mut acc = self.zero(ty);
        for (c, m) in terms {
            let t = self.mul(self.real(c.clone()), *m);
            acc = self.add(acc, t);
        }
        acc
    }

    /// True if `e` is a numeric expression that is a polynomial (not a quotient)
    /// of degree at most one in its monomials, i.e. `poly_terms` has no term of
    /// degree > 1. Concrete numbers count as linear.
    pub fn is_linear(&self, e: Expr) -> bool {
        self.as_div(e).is_none() && self.poly_of(e).degree() <= 1
    }

    /// Numerator and denominator of a real expression (`(e, 1)` if `e` is not a
    /// quotient).
    pub fn numerator_denominator(&self, e: Expr) -> (Expr, Expr) {
        match self.as_div(e) {
            Some(nd) => nd,
            None => (e, self.one(&self.type_of(e))),
        }
    }
}

/// gcd of the non-constant coefficients of an integer polynomial (>= 1), and the
/// constant term.
pub(crate) fn int_content(p: &Poly) -> (BigInt, BigInt) {
    let mut g = BigInt::zero();
    let mut c = BigInt::zero();
    for t in &p.terms {
        if t.mono.is_empty() {
            c = t.coef.to_integer();
        } else if !g.is_one() {
            if t.coef.numer().abs().is_one() {
                g = BigInt::one();
            } else {
                g = g.gcd(t.coef.numer());
            }
        }
    }
    if g.is_zero() {
        g = BigInt::one();
    }
    (g, c)
}
