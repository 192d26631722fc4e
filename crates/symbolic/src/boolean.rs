//! Boolean canonical form: relations `f > 0, f >= 0, f == 0, f != 0`, literals,
//! quantifiers, and a CNF over them.

use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use smallvec::SmallVec;

use crate::factory::ExprFactory;
use crate::node::{Op, Poly};
use crate::numeric::int_content;
use crate::types::{Expr, Kids, Quantifier, RelOp, Type};

/// Above this many clauses, a negation or disjunction is kept un-distributed
/// (still sound, just not in CNF) to avoid exponential blow-up.
const CNF_LIMIT: usize = 256;

type Clause = Kids;

impl ExprFactory {
    // ----- relations ---------------------------------------------------------------

    /// The relation `f op 0` for a numeric `f`, in canonical form.
    ///
    /// Integer relations: `f > 0` becomes `f - 1 >= 0`; the non-constant
    /// coefficients are divided by their gcd `g` (rounding the constant: `2x + 3 >= 0`
    /// becomes `x + 1 >= 0`; `2x + 3 == 0` is `false`); `==` and `!=` make the
    /// leading coefficient positive. Real relations: a quotient `p/q` is replaced
    /// by `p` (for `==`, `!=`) or `p*q` (for `>`, `>=`), then divided by the
    /// absolute value of the leading coefficient (by the leading coefficient for
    /// `==`, `!=`). Concrete relations fold to `true` / `false`.
    pub fn rel(&self, op: RelOp, f: Expr) -> Expr {
        let ty = self.type_of(f);
        let f = match ty {
            Type::Int | Type::Real => f,
            _ => self.cast(f, &Type::Int),
        };
        let ty = self.type_of(f);
        let p = if ty == Type::Real {
            let (n, d) = self.numerator_denominator(f);
            let pn = self.poly_of(n);
            match op {
                RelOp::Eq | RelOp::Ne => pn.into_owned(),
                _ => pn.mul(&self.poly_of(d)),
            }
        } else {
            self.poly_of(f).into_owned()
        };
        self.rel_poly(op, p, ty)
    }

    /// `p op 0` for a polynomial `p` of numeric type `ty`, in canonical form.
    pub(crate) fn rel_poly(&self, op: RelOp, p: Poly, ty: Type) -> Expr {
        let (mut op, mut p) = (op, p);
        if let Some(c) = p.as_constant() {
            return self.bool(match op {
                RelOp::Gt => c.is_positive(),
                RelOp::Ge => !c.is_negative(),
                RelOp::Eq => c.is_zero(),
                RelOp::Ne => !c.is_zero(),
            });
        }
        if ty == Type::Int {
            if op == RelOp::Gt {
                op = RelOp::Ge;
                p = p.add(&Poly::constant(-BigRational::from_integer(1.into())));
            }
            let (g, c) = int_content(&p);
            if num_traits::One::is_one(&g) {
                if op != RelOp::Ge && p.lc().is_negative() {
                    p = p.neg();
                }
                let fe = self.poly_expr(p, &ty);
                return self.intern(Op::Rel(op, fe), Type::Bool);
            }
            let gr = BigRational::from_integer(g.clone());
            let cr = BigRational::from_integer(c.clone());
            let h = p.sub(&Poly::constant(cr)).scale(&gr.recip());
            match op {
                RelOp::Ge => {
                    let c2 = c.div_floor(&g);
                    p = h.add(&Poly::constant(BigRational::from_integer(c2)));
                }
                _ => {
                    if !c.is_multiple_of(&g) {
                        return self.bool(op == RelOp::Ne);
                    }
                    p = h.add(&Poly::constant(BigRational::from_integer(c / &g)));
                    if p.lc().is_negative() {
                        p = p.neg();
                    }
                }
            }
        } else {
            let lc = p.lc();
            let s = match op {
                RelOp::Eq | RelOp::Ne => lc.recip(),
                _ => lc.abs().recip(),
            };
            p = p.scale(&s);
        }
        let fe = self.poly_expr(p, &ty);
        self.intern(Op::Rel(op, fe), Type::Bool)
    }

    /// `a < b` (numeric; int and real operands are promoted).
    pub fn lt(&self, a: Expr, b: Expr) -> Expr {
        self.difference_rel(RelOp::Gt, b, a)
    }

    /// `a <= b`.
    pub fn le(&self, a: Expr, b: Expr) -> Expr {
        self.difference_rel(RelOp::Ge, b, a)
    }

    /// `a > b`.
    pub fn gt(&self, a: Expr, b: Expr) -> Expr {
        self.difference_rel(RelOp::Gt, a, b)
    }

    /// `a >= b`.
    pub fn ge(&self, a: Expr, b: Expr) -> Expr {
        self.difference_rel(RelOp::Ge, a, b)
    }

    /// `left - right op 0` (`op` is `Gt` or `Ge`): every ordering is kept as
    /// a difference compared with zero, the polynomial one when there is one.
    fn difference_rel(&self, op: RelOp, left: Expr, right: Expr) -> Expr {
        match self.sub_poly(left, right) {
            Some((p, ty)) => self.rel_poly(op, p, ty),
            None => self.rel(op, self.sub(left, right)),
        }
    }

    /// `a == b` for operands of any (equal) type: numeric operands give a relation,
    /// booleans an equivalence, tuples the conjunction of component equalities,
    /// other types an equality node (folded when both sides are concrete).
    pub fn eq(&self, a: Expr, b: Expr) -> Expr {
        if a == b {
            return self.c_true;
        }
        let (ta, tb) = (self.type_of(a), self.type_of(b));
        if ta.is_numeric() || tb.is_numeric() {
            return match self.sub_poly(a, b) {
                Some((p, ty)) => self.rel_poly(RelOp::Eq, p, ty),
                None => self.rel(RelOp::Eq, self.sub(a, b)),
            };
        }
        match (&ta, &tb) {
            (Type::Bool, Type::Bool) => self.iff(a, b),
            (Type::Tuple(ts), Type::Tuple(_)) => {
                let n = ts.len() as u32;
                let parts: Vec<Expr> = (0..n)
                    .map(|i| {
                        let x = self.tuple_read(a, i);
                        let y = self.tuple_read(b, i);
                        self.eq(x, y)
                    })
                    .collect();
                self.and_all(parts)
            }
            _ => {
                if self.is_concrete(a) && self.is_concrete(b) {
                    return self.c_false;
                }
                let (x, y) = if a < b { (a, b) } else { (b, a) };
                self.intern(Op::Equal(x, y), Type::Bool)
            }
        }
    }

    /// `a != b` (the negation of [`Self::eq`]).
    pub fn ne(&self, a: Expr, b: Expr) -> Expr {
        let e = self.eq(a, b);
        self.not(e)
    }

    // ----- connectives -------------------------------------------------------------

    /// The top-level conjuncts of `e` (its CNF clauses, each an expression):
    /// `true` has none; `and_all` of them gives `e` back.
    pub fn conjuncts(&self, e: Expr) -> Vec<Expr> {
        if e == self.c_true {
            return Vec::new();
        }
        match &self.node(e).op {
            Op::And(cs) => cs.to_vec(),
            _ => vec![e],
        }
    }

    /// The clauses of a boolean expression: `true` has none, `false` has one empty
    /// clause.
    pub(crate) fn clauses_of(&self, e: Expr) -> Vec<Clause> {
        if e == self.c_true {
            return Vec::new();
        }
        if e == self.c_false {
            return vec![Clause::new()];
        }
        let node = self.node(e);
        match &node.op {
            Op::And(cs) => cs.iter().map(|&c| self.clause_lits(c)).collect(),
            _ => vec![self.clause_lits(e)],
        }
    }

    fn clause_lits(&self, c: Expr) -> Clause {
        match &self.node(c).op {
            Op::Or(ls) => ls.clone(),
            _ => smallvec::smallvec![c],
        }
    }

    /// The negation of a literal (cached).
    pub(crate) fn negate_literal(&self, l: Expr) -> Expr {
        if let Some(&n) = self.negations.read().get(&l) {
            return n;
        }
        let node = self.node(l);
        let n = match &node.op {
            Op::Bool(b) => self.bool(!b),
            Op::Not(a) => *a,
            Op::Rel(op, f) => match op {
                RelOp::Gt => self.rel(RelOp::Ge, self.neg(*f)),
                RelOp::Ge => self.rel(RelOp::Gt, self.neg(*f)),
                RelOp::Eq => self.intern(Op::Rel(RelOp::Ne, *f), Type::Bool),
                RelOp::Ne => self.intern(Op::Rel(RelOp::Eq, *f), Type::Bool),
            },
            Op::Quant(q, x, body) => {
                let nb = self.not(*body);
                match q {
                    Quantifier::Forall => self.exists(*x, nb),
                    Quantifier::Exists => self.forall(*x, nb),
                }
            }
            _ => self.intern(Op::Not(l), Type::Bool),
        };
        let mut cache = self.negations.write();
        cache.insert(l, n);
        cache.insert(n, l);
        n
    }

    fn clause_expr(&self, lits: &[Expr]) -> Expr {
        match lits.len() {
            0 => self.c_false,
            1 => lits[0],
            _ => self.intern(Op::Or(lits.iter().copied().collect()), Type::Bool),
        }
    }

    /// Normalizes and builds a CNF from clauses.
    pub(crate) fn build_cnf(&self, clauses: Vec<Clause>) -> Expr {
        let mut out: Vec<Clause> = Vec::with_capacity(clauses.len());
        'clauses: for mut c in clauses {
            c.retain(|l| *l != self.c_false);
            if c.contains(&self.c_true) {
                continue;
            }
            c.sort_unstable();
            c.dedup();
            if c.is_empty() {
                return self.c_false;
            }
            if c.len() > 1 {
                for &l in c.iter() {
                    let n = self.negate_literal(l);
                    if c.binary_search(&n).is_ok() {
                        continue 'clauses;
                    }
                }
            }
            out.push(c);
        }
        out.sort_unstable_by(|a, b| a.len().cmp(&b.len()).then_with(|| a.cmp(b)));
        out.dedup();
        // Subsumption: drop clauses that contain a shorter clause.
        if out.len() > 1 && out.len() <= 128 {
            let mut keep: Vec<Clause> = Vec::with_capacity(out.len());
            for c in out {
                let subsumed = keep
                    .iter()
                    .any(|k| k.len() < c.len() && k.iter().all(|l| c.binary_search(l).is_ok()));
                if !subsumed {
                    keep.push(c);
                }
            }
            out = keep;
        }
        // Unit resolution of complementary units: x and !x.
        let units: Vec<Expr> = out.iter().filter(|c| c.len() == 1).map(|c| c[0]).collect();
        if units.len() > 1 {
            let mut sorted = units.clone();
            sorted.sort_unstable();
            for &u in &units {
                let n = self.negate_literal(u);
                if sorted.binary_search(&n).is_ok() {
                    return self.c_false;
                }
            }
        }
        match out.len() {
            0 => self.c_true,
            1 => self.clause_expr(&out[0]),
            _ => {
                let mut kids: Kids = out.iter().map(|c| self.clause_expr(c)).collect();
                kids.sort_unstable();
                kids.dedup();
                if kids.len() == 1 {
                    return kids[0];
                }
                self.intern(Op::And(kids), Type::Bool)
            }
        }
    }

    fn expect_bool(&self, op: &str, e: Expr) -> Expr {
        match self.type_ref(e) {
            Type::Bool => e,
            Type::Int | Type::Real | Type::Char => self.cast(e, &Type::Bool),
            t => panic!("{op}: operand of type {t:?}, expected bool"),
        }
    }

    /// `a && b`.
    pub fn and(&self, a: Expr, b: Expr) -> Expr {
        let a = self.expect_bool("and", a);
        let b = self.expect_bool("and", b);
        if let Some(decided) = self.decided_by_operand(a, b, self.c_false, self.c_true) {
            return decided;
        }
        let mut cs = self.clauses_of(a);
        cs.extend(self.clauses_of(b));
        self.build_cnf(cs)
    }

    /// The result of `a && b` (`absorbing` false, `neutral` true) or `a || b`
    /// (the other way round) when an operand decides it without building
    /// clauses: an absorbing operand, a neutral one, or twice the same.
    fn decided_by_operand(&self, a: Expr, b: Expr, absorbing: Expr, neutral: Expr) -> Option<Expr> {
        if a == absorbing || b == absorbing {
            return Some(absorbing);
        }
        if a == neutral || a == b {
            return Some(b);
        }
        (b == neutral).then_some(a)
    }

    /// The conjunction of all `items` (`true` if empty).
    pub fn and_all(&self, items: impl IntoIterator<Item = Expr>) -> Expr {
        let mut cs = Vec::new();
        for e in items {
            let e = self.expect_bool("and_all", e);
            if e == self.c_false {
                return e;
            }
            cs.extend(self.clauses_of(e));
        }
        self.build_cnf(cs)
    }

    /// `a || b` (distributed into CNF).
    pub fn or(&self, a: Expr, b: Expr) -> Expr {
        let a = self.expect_bool("or", a);
        let b = self.expect_bool("or", b);
        if let Some(decided) = self.decided_by_operand(a, b, self.c_true, self.c_false) {
            return decided;
        }
        let ca = self.clauses_of(a);
        let cb = self.clauses_of(b);
        if ca.len() * cb.len() > CNF_LIMIT {
            let (x, y) = if a < b { (a, b) } else { (b, a) };
            return self.intern(Op::Or(smallvec::smallvec![x, y]), Type::Bool);
        }
        let mut out = Vec::with_capacity(ca.len() * cb.len());
        for x in &ca {
            for y in &cb {
                let mut c = x.clone();
                c.extend_from_slice(y);
                out.push(c);
            }
        }
        self.build_cnf(out)
    }

    /// The disjunction of all `items` (`false` if empty).
    pub fn or_all(&self, items: impl IntoIterator<Item = Expr>) -> Expr {
        items
            .into_iter()
            .fold(self.c_false, |acc, x| self.or(acc, x))
    }

    /// `!a`.
    pub fn not(&self, a: Expr) -> Expr {
        let a = self.expect_bool("not", a);
        if let Some(b) = self.as_bool(a) {
            return self.bool(!b);
        }
        let cs = self.clauses_of(a);
        let size: usize = cs
            .iter()
            .try_fold(1usize, |acc, c| acc.checked_mul(c.len().max(1)))
            .unwrap_or(usize::MAX);
        if size > CNF_LIMIT {
            return self.intern(Op::Not(a), Type::Bool);
        }
        // not(AND_i OR_j l_ij) = AND over choices of OR_i not(l_i,j_i).
        let mut out: Vec<Clause> = vec![Clause::new()];
        for c in &cs {
            let negs: SmallVec<[Expr; 4]> = c.iter().map(|&l| self.negate_literal(l)).collect();
            let mut next = Vec::with_capacity(out.len() * negs.len());
            for partial in &out {
                for &n in &negs {
                    let mut p = partial.clone();
                    p.push(n);
                    next.push(p);
                }
            }
            out = next;
        }
        self.build_cnf(out)
    }

    /// `a => b`.
    pub fn implies(&self, a: Expr, b: Expr) -> Expr {
        let na = self.not(a);
        self.or(na, b)
    }

    /// `a <=> b`.
    pub fn iff(&self, a: Expr, b: Expr) -> Expr {
        let x = self.implies(a, b);
        let y = self.implies(b, a);
        self.and(x, y)
    }

    /// `if c then a else b` for operands of any type (numeric operands are
    /// promoted). Boolean conditionals become CNF; others stay a conditional node
    /// unless `c` is concrete or `a == b`.
    pub fn ite(&self, c: Expr, a: Expr, b: Expr) -> Expr {
        let c = self.expect_bool("ite", c);
        match self.as_bool(c) {
            Some(true) => return a,
            Some(false) => return b,
            None => {}
        }
        if a == b {
            return a;
        }
        let (ta, tb) = (self.type_of(a), self.type_of(b));
        let (a, b, ty) = if ta != tb && ta.is_numeric() && tb.is_numeric() {
            (self.to_real(a), self.to_real(b), Type::Real)
        } else {
            (a, b, ta)
        };
        if ty == Type::Bool {
            let nc = self.not(c);
            let x = self.or(nc, a);
            let y = self.or(c, b);
            return self.and(x, y);
        }
        if let Op::Not(p) = self.node(c).op {
            return self.ite(p, b, a);
        }
        self.intern(Op::Ite(c, a, b), ty)
    }

    // ----- quantifiers -------------------------------------------------------------

    /// True if symbol `x` occurs in `e`.
    pub fn occurs(&self, x: Expr, e: Expr) -> bool {
        let Some(name) = self.symbol_name(x) else {
            return false;
        };
        let bit = ExprFactory::symbol_bloom_of(&name);
        if self.bloom(e) & bit == 0 {
            return false;
        }
        let mut stack = vec![e];
        let mut seen = hashbrown::HashSet::new();
        while let Some(y) = stack.pop() {
            if y == x {
                return true;
            }
            if !seen.insert(y) || self.bloom(y) & bit == 0 {
                continue;
            }
            let node = self.node(y);
            stack.extend(node.op.children());
            if let Type::Array(_, Some(ext)) = &node.ty {
                stack.push(*ext);
            }
        }
        false
    }

    fn check_bound_var(&self, op: &str, x: Expr) {
        assert!(
            self.is_symbol(x) && matches!(self.type_of(x), Type::Int | Type::Real),
            "{op}: the bound variable must be an int or real symbolic constant"
        );
    }

    /// `forall x. body`, `x` an int or real symbolic constant. The body's clauses
    /// are split (`forall x.(f1 && f2)` is `(forall x.f1) && (forall x.f2)`) and
    /// literals not mentioning `x` are moved out.
    pub fn forall(&self, x: Expr, body: Expr) -> Expr {
        self.check_bound_var("forall", x);
        let body = self.expect_bool("forall", body);
        let mut out = Vec::new();
        for c in self.clauses_of(body) {
            let (dep, mut indep): (Clause, Clause) =
                c.iter().copied().partition(|&l| self.occurs(x, l));
            if !dep.is_empty() {
                let inner = self.clause_expr(&dep);
                indep.push(self.intern(Op::Quant(Quantifier::Forall, x, inner), Type::Bool));
            }
            out.push(indep);
        }
        self.build_cnf(out)
    }

    /// `exists x. body`, `x` an int or real symbolic constant. Clauses not
    /// mentioning `x` are moved out; a single remaining clause is split
    /// (`exists x.(f1 || f2)` is `(exists x.f1) || (exists x.f2)`).
    pub fn exists(&self, x: Expr, body: Expr) -> Expr {
        self.check_bound_var("exists", x);
        let body = self.expect_bool("exists", body);
        let cs = self.clauses_of(body);
        let (dep, mut indep): (Vec<Clause>, Vec<Clause>) = cs
            .into_iter()
            .partition(|c| c.iter().any(|&l| self.occurs(x, l)));
        match dep.len() {
            0 => {}
            1 => {
                let c = &dep[0];
                let lits: Clause = c
                    .iter()
                    .map(|&l| {
                        if self.occurs(x, l) {
                            self.intern(Op::Quant(Quantifier::Exists, x, l), Type::Bool)
                        } else {
                            l
                        }
                    })
                    .collect();
                indep.push(lits);
            }
            _ => {
                let inner = self.build_cnf(dep);
                if let Some(b) = self.as_bool(inner) {
                    if !b {
                        return self.c_false;
                    }
                } else {
                    indep.push(smallvec::smallvec![
                        self.intern(Op::Quant(Quantifier::Exists, x, inner), Type::Bool)
                    ]);
                }
            }
        }
        self.build_cnf(indep)
    }

    /// `forall` or `exists` by kind.
    pub fn quantifier(&self, kind: Quantifier, x: Expr, body: Expr) -> Expr {
        match kind {
            Quantifier::Forall => self.forall(x, body),
            Quantifier::Exists => self.exists(x, body),
        }
    }

    /// The clauses of a boolean expression in CNF, each a list of literals
    /// (`true` gives no clause, `false` one empty clause).
    pub fn cnf_clauses(&self, e: Expr) -> Vec<Vec<Expr>> {
        self.clauses_of(e)
            .into_iter()
            .map(|c| c.into_vec())
            .collect()
    }

    /// The negation of a literal, relation or quantifier (for any boolean
    /// expression this is [`Self::not`]).
    pub fn negation(&self, e: Expr) -> Expr {
        self.not(e)
    }

    #[allow(dead_code)]
    pub(crate) fn is_zero_poly(&self, e: Expr) -> bool {
        self.as_concrete_rational(e).is_some_and(|r| r.is_zero())
    }
}
