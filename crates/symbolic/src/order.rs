//! A structural total order on expressions, independent of interning order.

use std::cmp::Ordering;
use std::sync::Arc;

use crate::factory::ExprFactory;
use crate::node::{Op, Term};
use crate::types::{Expr, Type};

/// Polynomial nodes whose sorted terms are kept (the cache is dropped whole
/// when full: it only saves time).
const MAX_SORTED_POLYS: usize = 1 << 18;

fn rank(op: &Op) -> u8 {
    match op {
        Op::Bool(_) => 0,
        Op::Int(_) => 1,
        Op::Real(_) => 2,
        Op::Char(_) => 3,
        Op::Symbol(_) => 4,
        Op::ArrayRead(..) => 5,
        Op::TupleRead(..) => 6,
        Op::Apply(..) => 7,
        Op::Poly(_) => 8,
        Op::Div(..) => 9,
        Op::IntDiv(..) => 10,
        Op::IntMod(..) => 11,
        Op::ToReal(_) => 12,
        Op::ToInt(_) => 13,
        Op::Cast(_) => 14,
        Op::Rel(..) => 15,
        Op::Equal(..) => 16,
        Op::Not(_) => 17,
        Op::Quant(..) => 18,
        Op::Or(_) => 19,
        Op::And(_) => 20,
        Op::Ite(..) => 21,
        Op::ArrayWrite(..) => 22,
        Op::ConcreteArray(..) => 23,
        Op::ArrayLambda(..) => 24,
        Op::Tuple(_) => 25,
    }
}

/// Compares names so that `X2 < X10` (digit runs compare as numbers).
pub(crate) fn natural_cmp(a: &str, b: &str) -> Ordering {
    let (mut x, mut y) = (a.as_bytes(), b.as_bytes());
    loop {
        match (x.first(), y.first()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(c), Some(d)) if c.is_ascii_digit() && d.is_ascii_digit() => {
                let nx = x.iter().take_while(|c| c.is_ascii_digit()).count();
                let ny = y.iter().take_while(|c| c.is_ascii_digit()).count();
                let (dx, dy) = (&x[..nx], &y[..ny]);
                let tx = dx.iter().skip_while(|&&c| c == b'0').count();
                let ty = dy.iter().skip_while(|&&c| c == b'0').count();
                let o = tx
                    .cmp(&ty)
                    .then_with(|| dx[nx - tx..].cmp(&dy[ny - ty..]))
                    .then_with(|| nx.cmp(&ny));
                if o != Ordering::Equal {
                    return o;
                }
                x = &x[nx..];
                y = &y[ny..];
            }
            (Some(c), Some(d)) => {
                if c != d {
                    return c.cmp(d);
                }
                x = &x[1..];
                y = &y[1..];
            }
        }
    }
}

fn type_rank(t: &Type) -> u8 {
    match t {
        Type::Bool => 0,
        Type::Int => 1,
        Type::Real => 2,
        Type::Char => 3,
        Type::Tuple(_) => 4,
        Type::Array(..) => 5,
        Type::Function(..) => 6,
    }
}

impl ExprFactory {
    /// A total order on expressions that depends only on their structure (not on
    /// the order in which they were interned): constants first (by value), then
    /// symbols (by name, digit runs compared numerically), then compound
    /// expressions by operator and children. `compare(a, b) == Equal` iff `a == b`.
    pub fn compare(&self, a: Expr, b: Expr) -> Ordering {
        if a == b {
            return Ordering::Equal;
        }
        let (na, nb) = (self.node(a), self.node(b));
        let o = rank(&na.op).cmp(&rank(&nb.op));
        if o != Ordering::Equal {
            return o;
        }
        let o = match (&na.op, &nb.op) {
            (Op::Bool(x), Op::Bool(y)) => x.cmp(y),
            (Op::Int(x), Op::Int(y)) => x.cmp(y),
            (Op::Real(x), Op::Real(y)) => x.cmp(y),
            (Op::Char(x), Op::Char(y)) => x.cmp(y),
            (Op::Symbol(x), Op::Symbol(y)) => natural_cmp(x, y),
            (Op::Poly(p), Op::Poly(q)) => {
                let ps = self.sorted_terms_of(a, &p.terms);
                let qs = self.sorted_terms_of(b, &q.terms);
                let mut o = Ordering::Equal;
                for (s, t) in ps.iter().zip(qs.iter()) {
                    o = self.term_cmp(s, t).then_with(|| s.coef.cmp(&t.coef));
                    if o != Ordering::Equal {
                        break;
                    }
                }
                o.then_with(|| ps.len().cmp(&qs.len()))
            }
            (Op::Rel(r, x), Op::Rel(s, y)) => self.compare(*x, *y).then_with(|| r.cmp(s)),
            (Op::TupleRead(x, i), Op::TupleRead(y, j)) => {
                self.compare(*x, *y).then_with(|| i.cmp(j))
            }
            (Op::Quant(q, v, x), Op::Quant(r, w, y)) => self
                .compare(*x, *y)
                .then_with(|| self.compare(*v, *w))
                .then_with(|| q.cmp(r)),
            (Op::ConcreteArray(b, xs), Op::ConcreteArray(c, ys)) => {
                let mut o = self.compare(*b, *c);
                for (x, y) in xs.iter().zip(ys.iter()) {
                    if o != Ordering::Equal {
                        break;
                    }
                    o = match (x, y) {
                        (None, None) => Ordering::Equal,
                        (None, Some(_)) => Ordering::Less,
                        (Some(_), None) => Ordering::Greater,
                        (Some(x), Some(y)) => self.compare(*x, *y),
                    };
                }
                o.then_with(|| xs.len().cmp(&ys.len()))
            }
            (x, y) => {
                let (cx, cy) = (x.children(), y.children());
                let mut sx = cx.to_vec();
                let mut sy = cy.to_vec();
                if matches!(x, Op::And(_) | Op::Or(_)) {
                    sx.sort_by(|&p, &q| self.compare(p, q));
                    sy.sort_by(|&p, &q| self.compare(p, q));
                }
                let mut o = Ordering::Equal;
                for (p, q) in sx.iter().zip(sy.iter()) {
                    o = self.compare(*p, *q);
                    if o != Ordering::Equal {
                        break;
                    }
                }
                o.then_with(|| sx.len().cmp(&sy.len()))
            }
        };
        o.then_with(|| self.type_cmp(&na.ty, &nb.ty))
    }

    fn type_cmp(&self, a: &Type, b: &Type) -> Ordering {
        if a == b {
            return Ordering::Equal;
        }
        let o = type_rank(a).cmp(&type_rank(b));
        if o != Ordering::Equal {
            return o;
        }
        match (a, b) {
            (Type::Tuple(x), Type::Tuple(y)) => {
                for (p, q) in x.iter().zip(y.iter()) {
                    let o = self.type_cmp(p, q);
                    if o != Ordering::Equal {
                        return o;
                    }
                }
                x.len().cmp(&y.len())
            }
            (Type::Array(x, e), Type::Array(y, f)) => {
                self.type_cmp(x, y).then_with(|| match (e, f) {
                    (None, None) => Ordering::Equal,
                    (None, Some(_)) => Ordering::Less,
                    (Some(_), None) => Ordering::Greater,
                    (Some(p), Some(q)) => self.compare(*p, *q),
                })
            }
            (Type::Function(x, r), Type::Function(y, s)) => {
                for (p, q) in x.iter().zip(y.iter()) {
                    let o = self.type_cmp(p, q);
                    if o != Ordering::Equal {
                        return o;
                    }
                }
                x.len().cmp(&y.len()).then_with(|| self.type_cmp(r, s))
            }
            _ => Ordering::Equal,
        }
    }

    /// Terms in printing order: higher degree first, then by the structural order
    /// of their factors; the constant term last.
    /// [`Self::sorted_terms`] of the polynomial node `e` (whose terms are
    /// `terms`), computed once per node.
    fn sorted_terms_of(&self, e: Expr, terms: &[Term]) -> Arc<Vec<Term>> {
        if let Some(sorted) = self.sorted_polys.read().get(&e) {
            return Arc::clone(sorted);
        }
        let sorted = Arc::new(self.sorted_terms(terms));
        let mut cache = self.sorted_polys.write();
        if cache.len() >= MAX_SORTED_POLYS {
            cache.clear();
        }
        cache.insert(e, Arc::clone(&sorted));
        sorted
    }

    pub(crate) fn sorted_terms(&self, terms: &[Term]) -> Vec<Term> {
        let mut v: Vec<Term> = terms
            .iter()
            .map(|t| {
                let mut t = t.clone();
                t.mono.sort_by(|a, b| self.compare(a.0, b.0));
                t
            })
            .collect();
        v.sort_by(|a, b| self.term_cmp(a, b));
        v
    }

    /// Printing order of two terms (their factors already sorted structurally).
    fn term_cmp(&self, a: &Term, b: &Term) -> Ordering {
        let da: u64 = a.mono.iter().map(|x| x.1 as u64).sum();
        let db: u64 = b.mono.iter().map(|x| x.1 as u64).sum();
        if da != db {
            return db.cmp(&da);
        }
        for (x, y) in a.mono.iter().zip(b.mono.iter()) {
            let o = self.compare(x.0, y.0).then_with(|| y.1.cmp(&x.1));
            if o != Ordering::Equal {
                return o;
            }
        }
        a.mono.len().cmp(&b.mono.len())
    }
}
