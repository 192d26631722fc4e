//! Rebuilding expressions: mapping children, substitution, free symbols.

use hashbrown::{HashMap, HashSet};

use crate::factory::ExprFactory;
use crate::node::Op;
use crate::types::{Expr, Type};

impl ExprFactory {
    /// Rebuilds `e` with every direct child `c` replaced by `f(c)`, putting the
    /// result in canonical form. Children are those of [`Self::children`];
    /// bound variables of quantifiers and array lambdas are not passed to `f`.
    pub fn map_children(&self, e: Expr, f: &mut dyn FnMut(Expr) -> Expr) -> Expr {
        let node = self.node(e);
        match &node.op {
            Op::Bool(_) | Op::Int(_) | Op::Real(_) | Op::Char(_) | Op::Symbol(_) => e,
            Op::Poly(p) => {
                let mut changed = false;
                let mut map: HashMap<Expr, Expr> = HashMap::new();
                for t in &p.terms {
                    for &(x, _) in &t.mono {
                        if let hashbrown::hash_map::Entry::Vacant(v) = map.entry(x) {
                            let y = f(x);
                            changed |= y != x;
                            v.insert(y);
                        }
                    }
                }
                if !changed {
                    return e;
                }
                let ty = node.ty.clone();
                let terms = p.terms.iter().map(|t| {
                    let mut term = self.number(t.coef.clone(), &ty);
                    for &(x, k) in &t.mono {
                        let y = self.pow(map[&x], k);
                        term = self.mul(term, y);
                    }
                    term
                });
                self.add_all(&ty, terms.collect::<Vec<_>>())
            }
            Op::Div(a, b) => {
                let (x, y) = (f(*a), f(*b));
                self.div(x, y)
            }
            Op::IntDiv(a, b) => {
                let (x, y) = (f(*a), f(*b));
                self.int_div(x, y)
            }
            Op::IntMod(a, b) => {
                let (x, y) = (f(*a), f(*b));
                self.int_mod(x, y)
            }
            Op::ToReal(a) => {
                let x = f(*a);
                self.to_real(x)
            }
            Op::ToInt(a) => {
                let x = f(*a);
                self.to_int(x)
            }
            Op::Cast(a) => {
                let x = f(*a);
                self.cast(x, &node.ty)
            }
            Op::Rel(op, a) => {
                let x = f(*a);
                self.rel(*op, x)
            }
            Op::Equal(a, b) => {
                let (x, y) = (f(*a), f(*b));
                self.eq(x, y)
            }
            Op::And(ks) => {
                let v: Vec<Expr> = ks.iter().map(|&k| f(k)).collect();
                self.and_all(v)
            }
            Op::Or(ks) => {
                let v: Vec<Expr> = ks.iter().map(|&k| f(k)).collect();
                self.or_all(v)
            }
            Op::Not(a) => {
                let x = f(*a);
                self.not(x)
            }
            Op::Ite(c, a, b) => {
                let (x, y, z) = (f(*c), f(*a), f(*b));
                self.ite(x, y, z)
            }
            Op::ArrayRead(a, i) => {
                let (x, y) = (f(*a), f(*i));
                self.array_read(x, y)
            }
            Op::ArrayWrite(a, i, v) => {
                let (x, y, z) = (f(*a), f(*i), f(*v));
                self.array_write(x, y, z)
            }
            Op::ConcreteArray(b, els) => {
                let mut acc = f(*b);
                for (k, v) in els.iter().enumerate() {
                    if let Some(v) = v {
                        let y = f(*v);
                        let idx = self.int(k);
                        acc = self.array_write(acc, idx, y);
                    }
                }
                acc
            }
            Op::ArrayLambda(var, body) => {
                let b = f(*body);
                let ty = match &node.ty {
                    Type::Array(el, Some(ext)) => Type::Array(el.clone(), Some(f(*ext))),
                    t => t.clone(),
                };
                self.array_lambda(ty, *var, b)
            }
            Op::Tuple(ks) => {
                let v: Vec<Expr> = ks.iter().map(|&k| f(k)).collect();
                self.tuple(&v)
            }
            Op::TupleRead(t, k) => {
                let x = f(*t);
                self.tuple_read(x, *k)
            }
            Op::Apply(g, args) => {
                let h = f(*g);
                let v: Vec<Expr> = args.iter().map(|&k| f(k)).collect();
                if let Some(name) = self.symbol_name(h) {
                    if let Some(op) = crate::compound::BitOp::from_function_name(&name) {
                        if v.len() == 2 {
                            return self.bitwise(op, v[0], v[1]);
                        }
                    }
                }
                self.apply(h, &v)
            }
            Op::Quant(q, var, body) => {
                let b = f(*body);
                self.quantifier(*q, *var, b)
            }
        }
    }

    /// Replaces every occurrence of a key of `map` in `e` by its value (keys are
    /// usually symbolic constants but may be any expressions) and re-canonicalizes.
    /// Occurrences bound by a quantifier or array lambda are not replaced.
    pub fn substitute(&self, e: Expr, map: &HashMap<Expr, Expr>) -> Expr {
        if map.is_empty() {
            return e;
        }
        let key_blooms: Vec<u64> = map.keys().map(|&k| self.bloom(k)).collect();
        let mut memo: HashMap<Expr, Expr> = HashMap::new();
        self.subst_rec(e, map, &key_blooms, &mut memo)
    }

    fn subst_rec(
        &self,
        e: Expr,
        map: &HashMap<Expr, Expr>,
        key_blooms: &[u64],
        memo: &mut HashMap<Expr, Expr>,
    ) -> Expr {
        if let Some(&v) = map.get(&e) {
            return v;
        }
        if let Some(&v) = memo.get(&e) {
            return v;
        }
        let b = self.bloom(e);
        if !key_blooms.iter().any(|&k| covers(b, k)) {
            return e;
        }
        let node = self.node(e);
        let bound = match &node.op {
            Op::Quant(_, v, _) | Op::ArrayLambda(v, _) => Some(*v),
            _ => None,
        };
        let r = match bound {
            Some(v) if map.contains_key(&v) => {
                let mut inner = map.clone();
                inner.remove(&v);
                let kb: Vec<u64> = inner.keys().map(|&k| self.bloom(k)).collect();
                let mut m2 = HashMap::new();
                self.map_children(e, &mut |c| self.subst_rec(c, &inner, &kb, &mut m2))
            }
            _ => self.map_children(e, &mut |c| self.subst_rec(c, map, key_blooms, memo)),
        };
        memo.insert(e, r);
        r
    }

    /// Like [`Self::substitute`] with the replacements given as pairs
    /// `(key, value)` (later pairs win for repeated keys).
    pub fn substitute_pairs(&self, e: Expr, pairs: &[(Expr, Expr)]) -> Expr {
        let map: HashMap<Expr, Expr> = pairs.iter().copied().collect();
        self.substitute(e, &map)
    }

    /// Replaces the symbolic constant `x` by `v` in `e`.
    pub fn substitute_one(&self, e: Expr, x: Expr, v: Expr) -> Expr {
        let mut m = HashMap::new();
        m.insert(x, v);
        self.substitute(e, &m)
    }

    /// The symbolic constants occurring free in `e` (not bound by a quantifier or
    /// array lambda), sorted by the structural order ([`Self::compare`]).
    /// Includes function symbols of applications (also the reserved bitwise
    /// functions).
    pub fn free_symbols(&self, e: Expr) -> Vec<Expr> {
        let mut out = HashSet::new();
        let mut memo = HashSet::new();
        self.free_rec(e, &mut Vec::new(), &mut out, &mut memo);
        let mut v: Vec<Expr> = out.into_iter().collect();
        v.sort_by(|&a, &b| self.compare(a, b));
        v
    }

    fn free_rec(
        &self,
        e: Expr,
        bound: &mut Vec<Expr>,
        out: &mut HashSet<Expr>,
        memo: &mut HashSet<Expr>,
    ) {
        if bound.is_empty() && !memo.insert(e) {
            return;
        }
        let node = self.node(e);
        match &node.op {
            Op::Symbol(_) => {
                if !bound.contains(&e) {
                    out.insert(e);
                }
            }
            Op::Quant(_, v, body) | Op::ArrayLambda(v, body) => {
                bound.push(*v);
                self.free_rec(*body, bound, out, memo);
                bound.pop();
                if let Type::Array(_, Some(ext)) = &node.ty {
                    self.free_rec(*ext, bound, out, memo);
                }
            }
            op => {
                for c in op.children() {
                    self.free_rec(c, bound, out, memo);
                }
            }
        }
    }
}

/// True if bloom `b` has every bit of bloom `k`.
fn covers(b: u64, k: u64) -> bool {
    b & k == k
}
