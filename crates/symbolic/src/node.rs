//! Internal node representation: operators and the polynomial payload.

use std::cmp::Ordering;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

use num_bigint::BigInt;
use num_rational::BigRational;
use smallvec::SmallVec;

use crate::types::{Expr, Kids, Quantifier, RelOp, Type};

/// A monic monomial: primitive factors with exponents >= 1, sorted by id.
pub(crate) type Mono = SmallVec<[(Expr, u32); 2]>;

/// One term `coef * mono` of a polynomial (`coef != 0`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) struct Term {
    pub mono: Mono,
    pub coef: BigRational,
}

impl Term {
    fn negated(&self) -> Term {
        Term {
            mono: self.mono.clone(),
            coef: -&self.coef,
        }
    }
}

impl Hash for Term {
    fn hash<H: Hasher>(&self, state: &mut H) {
        // Coefficients are always in lowest terms: hash the parts directly
        // (the `Ratio` hash normalizes by repeated division, which is slow).
        self.mono.hash(state);
        self.coef.numer().hash(state);
        self.coef.denom().hash(state);
    }
}

/// A polynomial over primitives, with exact coefficients. Terms are sorted by
/// [`mono_cmp`] descending (graded lexicographic, so the constant term is last);
/// no two terms share a monomial and no coefficient is zero.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub(crate) struct Poly {
    pub terms: SmallVec<[Term; 2]>,
}

pub(crate) use crate::rational::{add as q_add, mul as q_mul, sub as q_sub};

/// Graded lexicographic order on monomials (variables with smaller ids rank
/// higher). A true monomial order, so leading terms multiply.
pub(crate) fn mono_cmp(a: &Mono, b: &Mono) -> Ordering {
    let da: u64 = a.iter().map(|&(_, k)| k as u64).sum();
    let db: u64 = b.iter().map(|&(_, k)| k as u64).sum();
    if da != db {
        return da.cmp(&db);
    }
    let (mut i, mut j) = (0, 0);
    loop {
        match (a.get(i), b.get(j)) {
            (None, None) => return Ordering::Equal,
            (Some(_), None) => return Ordering::Greater,
            (None, Some(_)) => return Ordering::Less,
            (Some(&(x, ex)), Some(&(y, ey))) => {
                if x == y {
                    if ex != ey {
                        return ex.cmp(&ey);
                    }
                    i += 1;
                    j += 1;
                } else if x < y {
                    return Ordering::Greater;
                } else {
                    return Ordering::Less;
                }
            }
        }
    }
}

pub(crate) fn mono_mul(a: &Mono, b: &Mono) -> Mono {
    let mut out = Mono::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        let (x, ex) = a[i];
        let (y, ey) = b[j];
        match x.cmp(&y) {
            Ordering::Equal => {
                out.push((x, ex + ey));
                i += 1;
                j += 1;
            }
            Ordering::Less => {
                out.push((x, ex));
                i += 1;
            }
            Ordering::Greater => {
                out.push((y, ey));
                j += 1;
            }
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

/// `a / b` if `b` divides `a`.
pub(crate) fn mono_div(a: &Mono, b: &Mono) -> Option<Mono> {
    let mut out = Mono::new();
    let mut j = 0;
    for &(x, ex) in a {
        if j < b.len() && b[j].0 == x {
            let ey = b[j].1;
            if ey > ex {
                return None;
            }
            if ex > ey {
                out.push((x, ex - ey));
            }
            j += 1;
        } else if j < b.len() && b[j].0 < x {
            return None;
        } else {
            out.push((x, ex));
        }
    }
    if j < b.len() {
        return None;
    }
    Some(out)
}

/// Greatest common divisor of two monomials.
pub(crate) fn mono_gcd(a: &Mono, b: &Mono) -> Mono {
    let mut out = Mono::new();
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        match a[i].0.cmp(&b[j].0) {
            Ordering::Equal => {
                out.push((a[i].0, a[i].1.min(b[j].1)));
                i += 1;
                j += 1;
            }
            Ordering::Less => i += 1,
            Ordering::Greater => j += 1,
        }
    }
    out
}

impl Poly {
    pub fn zero() -> Poly {
        Poly::default()
    }

    pub fn constant(c: BigRational) -> Poly {
        let mut p = Poly::zero();
        if !num_traits::Zero::is_zero(&c) {
            p.terms.push(Term {
                mono: Mono::new(),
                coef: c,
            });
        }
        p
    }

    pub fn prim(e: Expr) -> Poly {
        let mut p = Poly::zero();
        let mut m = Mono::new();
        m.push((e, 1));
        p.terms.push(Term {
            mono: m,
            coef: num_traits::One::one(),
        });
        p
    }

    pub fn is_zero(&self) -> bool {
        self.terms.is_empty()
    }

    /// Gives back the room a sum or product reserved beyond its terms (a sum
    /// reserves both operands' terms; equal monomials merge): the store keeps
    /// every interned polynomial, so the spare room would be kept with it.
    /// Moves the terms into an exact allocation: `shrink_to_fit` may keep
    /// the block (mimalloc keeps it when at least half is used).
    pub fn shrink_exact(&mut self) {
        if self.terms.spilled() && self.terms.capacity() > self.terms.len() {
            let mut exact = SmallVec::with_capacity(self.terms.len());
            exact.extend(self.terms.drain(..));
            self.terms = exact;
        }
    }

    /// The constant value, if the polynomial has no non-constant term.
    pub fn as_constant(&self) -> Option<BigRational> {
        match self.terms.len() {
            0 => Some(num_traits::Zero::zero()),
            1 if self.terms[0].mono.is_empty() => Some(self.terms[0].coef.clone()),
            _ => None,
        }
    }

    pub fn add(&self, other: &Poly) -> Poly {
        self.merge(other, false)
    }

    /// `self + other`, or `self - other` when `negate`.
    fn merge(&self, other: &Poly, negate: bool) -> Poly {
        let mut out: SmallVec<[Term; 2]> =
            SmallVec::with_capacity(self.terms.len() + other.terms.len());
        let (a, b) = (&self.terms, &other.terms);
        let (mut i, mut j) = (0, 0);
        while i < a.len() && j < b.len() {
            match mono_cmp(&a[i].mono, &b[j].mono) {
                Ordering::Greater => {
                    out.push(a[i].clone());
                    i += 1;
                }
                Ordering::Less => {
                    out.push(if negate { b[j].negated() } else { b[j].clone() });
                    j += 1;
                }
                Ordering::Equal => {
                    let c = if negate {
                        q_sub(&a[i].coef, &b[j].coef)
                    } else {
                        q_add(&a[i].coef, &b[j].coef)
                    };
                    if !num_traits::Zero::is_zero(&c) {
                        out.push(Term {
                            mono: a[i].mono.clone(),
                            coef: c,
                        });
                    }
                    i += 1;
                    j += 1;
                }
            }
        }
        out.extend(a[i..].iter().cloned());
        if negate {
            out.extend(b[j..].iter().map(Term::negated));
        } else {
            out.extend(b[j..].iter().cloned());
        }
        Poly { terms: out }
    }

    /// The sum of `polys`, merged pairwise (n log n term merges, where adding
    /// them one by one would be quadratic).
    pub fn sum(mut polys: Vec<Poly>) -> Poly {
        while polys.len() > 1 {
            let mut next = Vec::with_capacity(polys.len().div_ceil(2));
            let mut items = polys.into_iter();
            while let Some(a) = items.next() {
                next.push(match items.next() {
                    Some(b) => a.add(&b),
                    None => a,
                });
            }
            polys = next;
        }
        polys.pop().unwrap_or_default()
    }

    pub fn scale(&self, c: &BigRational) -> Poly {
        if num_traits::Zero::is_zero(c) {
            return Poly::zero();
        }
        self.map_coefficients(|k| q_mul(k, c))
    }

    pub fn neg(&self) -> Poly {
        self.map_coefficients(|k| -k)
    }

    /// The same monomials with coefficients `f(c)` (`f` must not give zero).
    fn map_coefficients(&self, f: impl Fn(&BigRational) -> BigRational) -> Poly {
        Poly {
            terms: self
                .terms
                .iter()
                .map(|t| Term {
                    mono: t.mono.clone(),
                    coef: f(&t.coef),
                })
                .collect(),
        }
    }

    pub fn sub(&self, other: &Poly) -> Poly {
        self.merge(other, true)
    }

    pub fn mul_term(&self, t: &Term) -> Poly {
        // Multiplying by a monomial preserves the order of terms.
        Poly {
            terms: self
                .terms
                .iter()
                .map(|s| Term {
                    mono: mono_mul(&s.mono, &t.mono),
                    coef: q_mul(&s.coef, &t.coef),
                })
                .collect(),
        }
    }

    pub fn mul(&self, other: &Poly) -> Poly {
        if self.terms.len() < other.terms.len() {
            return other.mul(self);
        }
        Poly::sum(other.terms.iter().map(|t| self.mul_term(t)).collect())
    }

    pub fn pow(&self, k: u32) -> Poly {
        let mut acc = Poly::constant(num_traits::One::one());
        for _ in 0..k {
            acc = acc.mul(self);
        }
        acc
    }

    /// Exact division by `d` (non-zero), or `None` if `d` does not divide `self`.
    pub fn div_exact(&self, d: &Poly) -> Option<Poly> {
        let lead = d.terms.first()?;
        if d.terms.len() == 1 {
            return self.div_by_term(lead);
        }
        let mut rem = self.clone();
        let mut quot = Poly::zero();
        let mut steps = 0usize;
        while let Some(rt) = rem.terms.first() {
            steps += 1;
            if steps > 10_000 {
                return None;
            }
            let m = mono_div(&rt.mono, &lead.mono)?;
            let t = Term {
                mono: m,
                coef: &rt.coef / &lead.coef,
            };
            rem = rem.sub(&d.mul_term(&t));
            quot = quot.add(&Poly {
                terms: smallvec::smallvec![t],
            });
        }
        Some(quot)
    }

    /// `self / t` for a single term `t`, when every term's monomial is a
    /// multiple of `t`'s: one pass (the long division above subtracts a
    /// product per term, quadratic in the terms, and dominated the rational
    /// function sums of iterative solvers: `x / A[i][i]` denominators).
    fn div_by_term(&self, t: &Term) -> Option<Poly> {
        let mut terms = SmallVec::with_capacity(self.terms.len());
        for u in &self.terms {
            terms.push(Term {
                mono: mono_div(&u.mono, &t.mono)?,
                coef: &u.coef / &t.coef,
            });
        }
        // A monomial order: dividing every term by one monomial keeps the
        // order; sorting again costs little and does not lean on that.
        let mut q = Poly { terms };
        q.terms.sort_by(|a, b| mono_cmp(&b.mono, &a.mono));
        Some(q)
    }

    /// Leading coefficient (0 for the zero polynomial).
    pub fn lc(&self) -> BigRational {
        self.terms
            .first()
            .map(|t| t.coef.clone())
            .unwrap_or_else(num_traits::Zero::zero)
    }

    pub fn degree(&self) -> u64 {
        self.terms
            .first()
            .map(|t| t.mono.iter().map(|&(_, k)| k as u64).sum())
            .unwrap_or(0)
    }

    pub fn has_only_integer_coefs(&self) -> bool {
        self.terms.iter().all(|t| t.coef.is_integer())
    }
}

/// An operator with its operands (children are already canonical).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(crate) enum Op {
    Bool(bool),
    Int(BigInt),
    Real(BigRational),
    Char(u32),
    /// Symbolic constant; the `u64` distinguishes fresh symbols from named ones
    /// with the same name (0 for named symbols).
    Symbol(Arc<str>),
    /// A numeric polynomial that is neither a constant nor a lone primitive.
    Poly(Arc<Poly>),
    /// Real quotient `num / den`; `den` is a non-constant polynomial whose leading
    /// coefficient is 1, and known common factors are cancelled.
    Div(Expr, Expr),
    IntDiv(Expr, Expr),
    IntMod(Expr, Expr),
    ToReal(Expr),
    ToInt(Expr),
    Cast(Expr),
    Rel(RelOp, Expr),
    Equal(Expr, Expr),
    And(Kids),
    Or(Kids),
    Not(Expr),
    Ite(Expr, Expr, Expr),
    ArrayRead(Expr, Expr),
    ArrayWrite(Expr, Expr, Expr),
    ConcreteArray(Expr, Arc<[Option<Expr>]>),
    ArrayLambda(Expr, Expr),
    Tuple(Kids),
    TupleRead(Expr, u32),
    Apply(Expr, Kids),
    Quant(Quantifier, Expr, Expr),
}

impl Op {
    /// The direct sub-expressions (for polynomials: the primitives).
    pub fn children(&self) -> Kids {
        let mut k = Kids::new();
        match self {
            Op::Bool(_) | Op::Int(_) | Op::Real(_) | Op::Char(_) | Op::Symbol(_) => {}
            Op::Poly(p) => {
                for t in &p.terms {
                    for &(x, _) in &t.mono {
                        if !k.contains(&x) {
                            k.push(x);
                        }
                    }
                }
            }
            Op::Div(a, b)
            | Op::IntDiv(a, b)
            | Op::IntMod(a, b)
            | Op::Equal(a, b)
            | Op::ArrayRead(a, b)
            | Op::ArrayLambda(a, b)
            | Op::Quant(_, a, b) => {
                k.push(*a);
                k.push(*b);
            }
            Op::ToReal(a)
            | Op::ToInt(a)
            | Op::Cast(a)
            | Op::Rel(_, a)
            | Op::Not(a)
            | Op::TupleRead(a, _) => k.push(*a),
            Op::Ite(a, b, c) | Op::ArrayWrite(a, b, c) => {
                k.push(*a);
                k.push(*b);
                k.push(*c);
            }
            Op::And(v) | Op::Or(v) | Op::Tuple(v) => k.extend_from_slice(v),
            Op::ConcreteArray(b, els) => {
                k.push(*b);
                k.extend(els.iter().flatten().copied());
            }
            Op::Apply(f, args) => {
                k.push(*f);
                k.extend_from_slice(args);
            }
        }
        k
    }
}

/// An interned node: operator, type, and cached facts.
#[derive(Debug)]
pub(crate) struct Node {
    pub op: Op,
    pub ty: Type,
    /// Hash of `(op, ty)`, cached.
    pub hash: u64,
    /// Bloom filter of the symbolic constants occurring in the node (free or
    /// bound): a clear bit proves a symbol does not occur.
    pub bloom: u64,
    /// Expression depth (1 for leaves).
    pub depth: u32,
}

impl PartialEq for Node {
    fn eq(&self, other: &Self) -> bool {
        self.hash == other.hash && self.ty == other.ty && self.op == other.op
    }
}
impl Eq for Node {}
impl Hash for Node {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}
