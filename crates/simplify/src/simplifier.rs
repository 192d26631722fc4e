//! The simplifier for one assumption, and the cache of simplifiers.

use std::sync::Arc;

use hashbrown::{HashMap, HashSet};
use num_rational::BigRational;
use num_traits::{Signed, Zero};
use parking_lot::{Mutex, RwLock};
use tass_symbolic::api::{Expr, ExprFactory, ExprView, RelOp, Type};

use crate::interval::{Bound, Interval};
use crate::linear::{eliminate, mono_order, LinForm};

/// Rounds of knowledge extraction (each may turn bounds into equalities or
/// non-unit clauses into units).
const MAX_ROUNDS: usize = 8;

/// What the simplifier knows from the assumption.
#[derive(Default)]
struct Knowledge {
    /// Primitive (degree-one) monomials with a concrete value, substituted
    /// everywhere (also inside other expressions).
    subst: HashMap<Expr, Expr>,
    /// Higher-degree monomials with a concrete value: replaced as terms.
    mono_values: HashMap<Expr, BigRational>,
    /// Remaining equations in reduced row echelon form: pivot and row
    /// (pivot coefficient 1); used to reduce polynomials.
    rows: Vec<(Expr, LinForm)>,
    /// Bounds on monic linear forms (key: the form's expression without constant).
    bounds: HashMap<Expr, Interval>,
    /// Unit literals known to hold (after simplification).
    units: HashSet<Expr>,
    /// Symbols mentioned by the knowledge (guards quantifier bodies).
    symbols: HashSet<Expr>,
}

/// Simplifies expressions under one assumption (a path condition).
///
/// Building it analyses the assumption (paper Sec. 4.5): linear equalities in the
/// monomials (explicit ones and those implied by matching upper and lower bounds)
/// are solved by exact Gaussian elimination; monomials with a concrete value are
/// substituted; interval bounds of monic linear forms are collected from the
/// inequalities; contradictions are detected. [`Simplifier::simplify`] then
/// rewrites any expression into one equal to it whenever the assumption holds;
/// results are cached.
///
/// The simplifier is `Send + Sync`.
pub struct Simplifier {
    factory: Arc<ExprFactory>,
    assumption: Expr,
    reduced: Expr,
    eliminated: Vec<(Expr, Expr)>,
    contradictory: bool,
    know: Knowledge,
    cache: Mutex<HashMap<Expr, Expr>>,
    /// Monic keys of linear forms, shared by the simplifiers of one
    /// [`SimplifierCache`]: path conditions along a path repeat their clauses.
    keys: Arc<MonicKeys>,
}

/// Linear form terms -> `monic_key`'s result, by [`FormTerms`] (whose hash
/// reads coefficients part by part: `BigRational`'s own `Hash` normalizes by
/// repeated division, a sixth of the Laplace profile).
type MonicKeys = Mutex<HashMap<FormTerms, (Expr, BigRational)>>;

/// The terms of a linear form as a map key.
#[derive(PartialEq, Eq)]
struct FormTerms(Vec<(Expr, BigRational)>);

/// The same terms borrowed, to search the memo without copying them.
struct FormTermsRef<'a>(&'a [(Expr, BigRational)]);

fn hash_terms<H: std::hash::Hasher>(terms: &[(Expr, BigRational)], state: &mut H) {
    use std::hash::Hash;
    state.write_usize(terms.len());
    for (m, c) in terms {
        m.hash(state);
        // Coefficients are in lowest terms: equal values, equal parts.
        c.numer().hash(state);
        c.denom().hash(state);
    }
}

impl std::hash::Hash for FormTerms {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        hash_terms(&self.0, state)
    }
}

impl std::hash::Hash for FormTermsRef<'_> {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        hash_terms(self.0, state)
    }
}

impl hashbrown::Equivalent<FormTerms> for FormTermsRef<'_> {
    fn equivalent(&self, key: &FormTerms) -> bool {
        self.0 == key.0.as_slice()
    }
}

/// Most monic keys remembered before the memo is emptied.
const MAX_MONIC_KEYS: usize = 1 << 16;

impl std::fmt::Debug for Simplifier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Simplifier")
            .field("assumption", &self.factory.pretty(self.assumption))
            .field("reduced", &self.factory.pretty(self.reduced))
            .field("contradictory", &self.contradictory)
            .finish()
    }
}

impl Simplifier {
    /// Analyses `assumption` (a boolean expression of `factory`).
    pub fn new(factory: Arc<ExprFactory>, assumption: Expr) -> Simplifier {
        Simplifier::with_keys(factory, assumption, Arc::default())
    }

    fn with_keys(factory: Arc<ExprFactory>, assumption: Expr, keys: Arc<MonicKeys>) -> Simplifier {
        let mut s = Simplifier {
            factory,
            assumption,
            reduced: assumption,
            eliminated: Vec::new(),
            contradictory: false,
            know: Knowledge::default(),
            cache: Mutex::new(HashMap::new()),
            keys,
        };
        s.analyse();
        s
    }

    /// The factory the simplifier builds expressions with.
    pub fn factory(&self) -> &Arc<ExprFactory> {
        &self.factory
    }

    /// The assumption this simplifier was built for.
    pub fn assumption(&self) -> Expr {
        self.assumption
    }

    /// The simplified (reduced) assumption, as in the paper: equalities that give a
    /// symbolic constant a concrete value are *dropped*, because
    /// [`Self::simplify`] replaces that constant by its value wherever it occurs
    /// (paper Sec. 4.5: `X0+X1+X2 <= 6 && X0+X1+X2 >= 6 && X0-2*X1+X2 == 18`
    /// reduces to `X0 + X2 == 10`, with `X1` replaced by `-4`).
    ///
    /// So `reduced_assumption() && eliminated equalities` is equivalent to the
    /// assumption ([`Self::equivalent_assumption`]); the reduced assumption alone
    /// is equivalent to it only for expressions that went through
    /// [`Self::simplify`] (a state all of whose expressions are simplified).
    /// `false` if the assumption is contradictory.
    pub fn reduced_assumption(&self) -> Expr {
        self.reduced
    }

    /// The symbolic constants eliminated from the reduced assumption, with their
    /// values, sorted by the factory's structural order.
    pub fn eliminated(&self) -> &[(Expr, Expr)] {
        &self.eliminated
    }

    /// The reduced assumption plus the eliminated equalities: equivalent to the
    /// original assumption.
    pub fn equivalent_assumption(&self) -> Expr {
        let f = &self.factory;
        let mut acc = self.reduced;
        for &(x, v) in &self.eliminated {
            let e = f.eq(x, v);
            acc = f.and(acc, e);
        }
        acc
    }

    /// True if the assumption was found unsatisfiable (then every expression is
    /// "equivalent" under it; [`Self::simplify`] leaves expressions unchanged).
    pub fn is_contradictory(&self) -> bool {
        self.contradictory
    }

    /// `e` simplified under the assumption: equal to `e` at every point where the
    /// assumption holds. Results are cached.
    pub fn simplify(&self, e: Expr) -> Expr {
        if self.contradictory {
            return e;
        }
        if let Some(&r) = self.cache.lock().get(&e) {
            return r;
        }
        let r = self.simp(&self.know, e, &mut HashMap::new());
        self.cache.lock().insert(e, r);
        r
    }

    /// `Some(b)` if the assumption implies that the boolean `e` is `b`
    /// (i.e. [`Self::simplify`] gives a constant). A contradictory assumption
    /// implies everything: `Some(true)`.
    pub fn decide(&self, e: Expr) -> Option<bool> {
        if self.contradictory {
            return Some(true);
        }
        self.factory.as_bool(self.simplify(e))
    }

    /// An interval containing every value of the numeric expression `e` at points
    /// where the assumption holds (unbounded when nothing is known).
    pub fn bounds(&self, e: Expr) -> Interval {
        let s = self.simplify(e);
        let f = &self.factory;
        if let Some(c) = f.as_concrete_rational(s) {
            return Interval::point(c);
        }
        if f.numerator_denominator(s).1 != f.one(&f.type_of(s)) {
            return Interval::unbounded();
        }
        self.interval_of(&self.know, &LinForm::of(f, s))
    }

    /// Number of cached simplification results.
    pub fn cached_results(&self) -> usize {
        self.cache.lock().len()
    }

    // ----- analysis ----------------------------------------------------------------

    fn analyse(&mut self) {
        let f = self.factory.clone();
        let clauses = f.cnf_clauses(self.assumption);
        if clauses.iter().any(|c| c.is_empty()) {
            self.set_contradiction();
            return;
        }
        let mut units: Vec<Expr> = Vec::new();
        let mut others: Vec<Vec<Expr>> = Vec::new();
        for c in clauses {
            if c.len() == 1 {
                units.push(c[0]);
            } else {
                others.push(c);
            }
        }
        let mut know = Knowledge::default();
        for _round in 0..MAX_ROUNDS {
            know = match self.derive(&units) {
                Some(k) => k,
                None => {
                    self.set_contradiction();
                    return;
                }
            };
            // Simplify non-unit clauses under the knowledge.
            let mut changed = false;
            let mut next: Vec<Vec<Expr>> = Vec::new();
            for c in &others {
                let mut memo = HashMap::new();
                let mut lits = Vec::new();
                let mut sat = false;
                for &l in c {
                    let s = self.simp(&know, l, &mut memo);
                    match f.as_bool(s) {
                        Some(true) => {
                            sat = true;
                            break;
                        }
                        Some(false) => {}
                        None => lits.push(s),
                    }
                }
                if sat {
                    changed = true;
                    continue;
                }
                let clause = f.or_all(lits.iter().copied());
                if clause == f.ff() {
                    self.set_contradiction();
                    return;
                }
                let cls = f.cnf_clauses(clause);
                if cls.len() != 1 || cls[0].len() != c.len() || cls[0] != *c {
                    changed = true;
                }
                for cl in cls {
                    if cl.len() == 1 {
                        units.push(cl[0]);
                    } else {
                        next.push(cl);
                    }
                }
            }
            others = next;
            if !changed {
                break;
            }
        }
        self.know = know;
        self.build_reduced(&units, &others);
    }

    fn set_contradiction(&mut self) {
        self.contradictory = true;
        self.reduced = self.factory.ff();
        self.eliminated.clear();
        self.know = Knowledge::default();
    }

    /// Knowledge from unit literals; `None` on a contradiction.
    fn derive(&self, units: &[Expr]) -> Option<Knowledge> {
        let f = &self.factory;
        let mut know = Knowledge::default();
        let mut eqs: Vec<LinForm> = Vec::new();
        let mut ineqs: Vec<(RelOp, Expr)> = Vec::new();
        let mut plain: Vec<Expr> = Vec::new();
        let mut nes: Vec<Expr> = Vec::new();
        for &u in units {
            match f.view(u) {
                ExprView::Rel(RelOp::Eq, g) => eqs.push(LinForm::of(f, g)),
                ExprView::Rel(op @ (RelOp::Gt | RelOp::Ge), g) => ineqs.push((op, g)),
                // A boolean atom and its negation both among the units: the
                // second must not silently overwrite the first.
                ExprView::Not(a) => {
                    if know.subst.insert(a, f.ff()) == Some(f.tt()) {
                        return None;
                    }
                    plain.push(u);
                }
                ExprView::Symbol(_)
                | ExprView::ArrayRead(..)
                | ExprView::TupleRead(..)
                | ExprView::Apply(..) => {
                    if know.subst.insert(u, f.tt()) == Some(f.ff()) {
                        return None;
                    }
                    plain.push(u);
                }
                ExprView::Rel(RelOp::Ne, g) => {
                    nes.push(g);
                    plain.push(u);
                }
                _ => plain.push(u),
            }
        }
        for _ in 0..MAX_ROUNDS {
            self.solve_equalities(&mut know, &eqs)?;
            self.bound_by_inequalities(&mut know, &ineqs)?;
            self.tighten_by_disequalities(&mut know, &nes)?;
            let mut new_eq = false;
            let points: Vec<(Expr, BigRational)> = know
                .bounds
                .iter()
                .filter_map(|(k, iv)| iv.as_point().map(|p| (*k, p)))
                .collect();
            for (k, p) in points {
                let mut form = LinForm::of(f, k);
                form.constant -= p;
                if !eqs.contains(&form) {
                    eqs.push(form);
                    new_eq = true;
                }
            }
            if !new_eq {
                break;
            }
        }
        // Known unit literals, simplified by substitution and reduction only.
        for &u in &plain {
            let s = f.substitute(u, &know.subst);
            know.units.insert(s);
        }
        for (k, _) in know.subst.iter() {
            for s in f.free_symbols(*k) {
                know.symbols.insert(s);
            }
        }
        for e in eqs.iter().flat_map(|e| e.terms.iter().map(|t| t.0)) {
            for s in f.free_symbols(e) {
                know.symbols.insert(s);
            }
        }
        for k in know.bounds.keys() {
            for s in f.free_symbols(*k) {
                know.symbols.insert(s);
            }
        }
        for &u in &plain {
            for s in f.free_symbols(u) {
                know.symbols.insert(s);
            }
        }
        Some(know)
    }

    /// Solves the equalities `eqs`, per type, into substitutions, values of
    /// monomials and remaining rows of `know`; `None` on a contradiction.
    fn solve_equalities(&self, know: &mut Knowledge, eqs: &[LinForm]) -> Option<()> {
        let f = &self.factory;
        know.rows.clear();
        know.mono_values.clear();
        know.subst.retain(|_, v| f.as_bool(*v).is_some());
        for ty in [Type::Int, Type::Real] {
            let sys: Vec<LinForm> = eqs
                .iter()
                .filter(|e| e.ty == ty && !e.terms.is_empty())
                .cloned()
                .collect();
            if eqs
                .iter()
                .any(|e| e.terms.is_empty() && !e.constant.is_zero())
            {
                return None;
            }
            if sys.is_empty() {
                continue;
            }
            let solved = eliminate(f, &sys);
            if solved.inconsistent {
                return None;
            }
            for (pivot, row) in solved.rows {
                if row.terms.len() == 1 {
                    let v = -row.constant.clone();
                    if crate::linear::degree(f, pivot) == 1 {
                        know.subst.insert(pivot, f.number(v, &ty));
                    } else {
                        know.mono_values.insert(pivot, v);
                    }
                } else {
                    know.rows.push((pivot, row));
                }
            }
        }
        Some(())
    }

    /// The bounds of `know` from the inequalities `ineqs` (`g > 0`, `g >= 0`),
    /// after substitution and reduction; `None` on a contradiction.
    fn bound_by_inequalities(&self, know: &mut Knowledge, ineqs: &[(RelOp, Expr)]) -> Option<()> {
        let f = &self.factory;
        know.bounds.clear();
        for &(op, g) in ineqs {
            let g2 = self.reduce_numeric(know, f.substitute(g, &know.subst));
            let form = LinForm::of(f, g2);
            if form.terms.is_empty() {
                let ok = match op {
                    RelOp::Gt => form.constant.is_positive(),
                    _ => !form.constant.is_negative(),
                };
                if !ok {
                    return None;
                }
                continue;
            }
            let (key, c1) = self.monic_key(&form);
            // c1 * key + c0 op 0
            let v = -&form.constant / &c1;
            let strict = op == RelOp::Gt;
            let iv = if c1.is_positive() {
                Interval::at_least(v, strict)
            } else {
                Interval::at_most(v, strict)
            };
            let iv = if is_integer_form(&form, &c1) {
                iv.tighten_integer()
            } else {
                iv
            };
            let slot = know.bounds.entry(key).or_default();
            *slot = slot.intersect(&iv);
            if slot.is_empty() {
                return None;
            }
        }
        Some(())
    }

    /// An integer disequality `g != 0` at the end of an interval of `know`
    /// moves the end; `None` on a contradiction.
    fn tighten_by_disequalities(&self, know: &mut Knowledge, nes: &[Expr]) -> Option<()> {
        let f = &self.factory;
        for &g in nes {
            let g2 = self.reduce_numeric(know, f.substitute(g, &know.subst));
            let form = LinForm::of(f, g2);
            if form.terms.is_empty() {
                if form.constant.is_zero() {
                    return None;
                }
                continue;
            }
            let (key, c1) = self.monic_key(&form);
            if !is_integer_form(&form, &c1) {
                continue;
            }
            let v = -&form.constant / &c1;
            if let Some(iv) = know.bounds.get_mut(&key) {
                let one = BigRational::from_integer(1.into());
                if iv.lower.as_ref().is_some_and(|b| b.value == v) {
                    iv.lower = Some(Bound {
                        value: &v + &one,
                        strict: false,
                    });
                }
                if iv.upper.as_ref().is_some_and(|b| b.value == v) {
                    iv.upper = Some(Bound {
                        value: &v - &one,
                        strict: false,
                    });
                }
                if iv.is_empty() {
                    return None;
                }
            }
        }
        Some(())
    }

    fn build_reduced(&mut self, units: &[Expr], others: &[Vec<Expr>]) {
        let f = self.factory.clone();
        let know = &self.know;
        let mut parts: Vec<Expr> = Vec::new();
        let mut eliminated = Vec::new();
        for (&k, &v) in &know.subst {
            if f.is_symbol(k) {
                eliminated.push((k, v));
            } else {
                match f.as_bool(v) {
                    Some(true) => parts.push(k),
                    Some(false) => parts.push(f.not(k)),
                    None => parts.push(f.eq(k, v)),
                }
            }
        }
        eliminated.sort_by(|a, b| f.compare(a.0, b.0));
        for (m, v) in &know.mono_values {
            let ty = f.type_of(*m);
            parts.push(f.eq(*m, f.number(v.clone(), &ty)));
        }
        for (_, row) in &know.rows {
            let form = if row.ty == Type::Int {
                row.integer_normalized()
            } else {
                row.clone()
            };
            let e = form.to_expr(&f);
            parts.push(f.eq(e, f.zero(&row.ty)));
        }
        let mut keys: Vec<&Expr> = know.bounds.keys().collect();
        keys.sort_by(|a, b| f.compare(**a, **b));
        for k in keys {
            let iv = &know.bounds[k];
            if let Some(b) = &iv.lower {
                let c = f.number(b.value.clone(), &f.type_of(*k));
                parts.push(if b.strict { f.gt(*k, c) } else { f.ge(*k, c) });
            }
            if let Some(b) = &iv.upper {
                let c = f.number(b.value.clone(), &f.type_of(*k));
                parts.push(if b.strict { f.lt(*k, c) } else { f.le(*k, c) });
            }
        }
        // Other unit literals (boolean atoms, quantifiers, disequalities, ...).
        for &u in units {
            match f.view(u) {
                // Kept in the rows, bounds and substitution above.
                ExprView::Rel(RelOp::Eq | RelOp::Gt | RelOp::Ge, _) => {}
                _ if know.subst.contains_key(&u) => {}
                ExprView::Not(a) if know.subst.contains_key(&a) => {}
                _ => {
                    let mut memo = HashMap::new();
                    let s = self.simp_no_units(&self.know, u, &mut memo);
                    parts.push(s);
                }
            }
        }
        for c in others {
            parts.push(f.or_all(c.iter().copied()));
        }
        self.eliminated = eliminated;
        self.reduced = f.and_all(parts);
        if self.reduced == f.ff() {
            self.set_contradiction();
        }
    }

    // ----- simplification ------------------------------------------------------------

    /// Replaces solved higher-degree monomials and reduces by the equation rows.
    fn reduce_numeric(&self, know: &Knowledge, e: Expr) -> Expr {
        let f = &self.factory;
        let ty = f.type_of(e);
        if !ty.is_numeric() || (know.rows.is_empty() && know.mono_values.is_empty()) {
            return e;
        }
        if f.numerator_denominator(e).1 != f.one(&ty) {
            return e;
        }
        let mut form = LinForm::of(f, e);
        let mut changed = false;
        if !know.mono_values.is_empty() {
            let mut i = 0;
            while i < form.terms.len() {
                let (m, c) = form.terms[i].clone();
                if let Some(v) = know.mono_values.get(&m) {
                    form.constant += c * v;
                    form.terms.remove(i);
                    changed = true;
                } else {
                    i += 1;
                }
            }
        }
        for (pivot, row) in &know.rows {
            if row.ty != ty {
                continue;
            }
            if let Some(c) = form.coef(*pivot).cloned() {
                if ty == Type::Int {
                    // Keep integer coefficients: only reduce when the multiple is
                    // integral.
                    let ok = row.terms.iter().all(|(_, rc)| (rc * &c).is_integer())
                        && (&row.constant * &c).is_integer();
                    if !ok {
                        continue;
                    }
                }
                form.add_scaled(row, &-c);
                changed = true;
            }
        }
        if changed {
            form.to_expr(f)
        } else {
            e
        }
    }

    fn simp(&self, know: &Knowledge, e: Expr, memo: &mut HashMap<Expr, Expr>) -> Expr {
        let r = self.simp_no_units(know, e, memo);
        let f = &self.factory;
        if f.type_of(r) == Type::Bool && f.as_bool(r).is_none() {
            if know.units.contains(&r) {
                return f.tt();
            }
            if !know.units.is_empty() {
                let n = f.not(r);
                if know.units.contains(&n) {
                    return f.ff();
                }
            }
        }
        r
    }

    fn simp_no_units(&self, know: &Knowledge, e: Expr, memo: &mut HashMap<Expr, Expr>) -> Expr {
        if let Some(&r) = memo.get(&e) {
            return r;
        }
        let f = &self.factory;
        if let Some(&v) = know.subst.get(&e) {
            return v;
        }
        // A polynomial is simplified through its primitives; its view would
        // intern a node per term, kept by the store for good.
        let r = if f.is_polynomial(e) {
            self.simp_compound(know, e, memo)
        } else {
            match f.view(e) {
                ExprView::Bool(_)
                | ExprView::Int(_)
                | ExprView::Real(_)
                | ExprView::Char(_)
                | ExprView::Symbol(_) => e,
                ExprView::Quant { var, .. } | ExprView::ArrayLambda { var, .. }
                    if know.symbols.contains(&var) =>
                {
                    e
                }
                ExprView::Rel(op, g) => {
                    let g2 = self.simp(know, g, memo);
                    let r = f.rel(op, g2);
                    self.decide_rel(know, r)
                }
                ExprView::And(_) | ExprView::Or(_) => {
                    f.map_children(e, &mut |c| self.simp(know, c, memo))
                }
                _ => self.simp_compound(know, e, memo),
            }
        };
        memo.insert(e, r);
        r
    }

    /// `e` with its children simplified, then reduced as a whole.
    fn simp_compound(&self, know: &Knowledge, e: Expr, memo: &mut HashMap<Expr, Expr>) -> Expr {
        let f = &self.factory;
        let r = f.map_children(e, &mut |c| self.simp(know, c, memo));
        let r = match know.subst.get(&r) {
            Some(&v) => v,
            None => r,
        };
        let r = self.int_division_by_bounds(know, r);
        if f.type_of(r).is_numeric() {
            self.reduce_numeric(know, r)
        } else {
            r
        }
    }

    /// `a / b` and `a % b` for a concrete `b != 0` when the bounds of `a` fix the
    /// quotient (e.g. `0 <= a < b` gives `a / b == 0` and `a % b == a`).
    fn int_division_by_bounds(&self, know: &Knowledge, r: Expr) -> Expr {
        let f = &self.factory;
        if f.is_polynomial(r) {
            return r;
        }
        let (a, b, is_div) = match f.view(r) {
            ExprView::IntDiv(a, b) => (a, b, true),
            ExprView::IntMod(a, b) => (a, b, false),
            _ => return r,
        };
        let Some(d) = f.as_concrete_int(b).filter(|d| !d.is_zero()) else {
            return r;
        };
        if f.numerator_denominator(a).1 != f.one(&Type::Int) {
            return r;
        }
        let iv = self.interval_of(know, &LinForm::of(f, a)).tighten_integer();
        let (Some(lo), Some(hi)) = (iv.lower, iv.upper) else {
            return r;
        };
        let (lo, hi) = (lo.value.to_integer(), hi.value.to_integer());
        // Truncating division by a fixed d is monotone in the dividend, so the
        // quotient is constant on [lo, hi] when both ends give the same one.
        let q = &lo / &d;
        if q != &hi / &d {
            return r;
        }
        if is_div {
            f.int(q)
        } else {
            let qd = f.int(q * d);
            f.sub(a, qd)
        }
    }

    /// Decides a relation from the bounds, if possible.
    fn decide_rel(&self, know: &Knowledge, r: Expr) -> Expr {
        let f = &self.factory;
        let ExprView::Rel(op, g) = f.view(r) else {
            return r;
        };
        let form = LinForm::of(f, g);
        let iv = self.interval_of(know, &form);
        let zero = BigRational::zero();
        let decided = match op {
            RelOp::Gt => {
                if iv
                    .lower
                    .as_ref()
                    .is_some_and(|b| b.value > zero || (b.value == zero && b.strict))
                {
                    Some(true)
                } else if iv.upper.as_ref().is_some_and(|b| b.value <= zero) {
                    Some(false)
                } else {
                    None
                }
            }
            RelOp::Ge => {
                if iv.lower.as_ref().is_some_and(|b| b.value >= zero) {
                    Some(true)
                } else if iv
                    .upper
                    .as_ref()
                    .is_some_and(|b| b.value < zero || (b.value == zero && b.strict))
                {
                    Some(false)
                } else {
                    None
                }
            }
            RelOp::Eq | RelOp::Ne => {
                let excludes = !iv.contains(&zero);
                let is_zero = iv.as_point().is_some_and(|p| p.is_zero());
                if excludes {
                    Some(op == RelOp::Ne)
                } else if is_zero {
                    Some(op == RelOp::Eq)
                } else {
                    None
                }
            }
        };
        match decided {
            Some(b) => f.bool(b),
            None => r,
        }
    }

    /// Interval of a linear form: the bound of its monic part if known,
    /// intersected with interval arithmetic over its monomials.
    fn interval_of(&self, know: &Knowledge, form: &LinForm) -> Interval {
        if form.terms.is_empty() {
            return Interval::point(form.constant.clone());
        }
        let mut iv = Interval::unbounded();
        let (key, c1) = self.monic_key(form);
        if let Some(b) = know.bounds.get(&key) {
            iv = b.scale(&c1).shift(&form.constant);
        }
        let mut acc = Interval::point(form.constant.clone());
        for (m, c) in &form.terms {
            let mi = self.mono_interval(know, *m);
            acc = acc.add(&mi.scale(c));
            if acc.lower.is_none() && acc.upper.is_none() {
                break;
            }
        }
        iv.intersect(&acc)
    }

    /// [`monic_key`], remembered.
    fn monic_key(&self, form: &LinForm) -> (Expr, BigRational) {
        if let Some(hit) = self.keys.lock().get(&FormTermsRef(&form.terms)) {
            return hit.clone();
        }
        let key = monic_key(&self.factory, form);
        let mut keys = self.keys.lock();
        if keys.len() >= MAX_MONIC_KEYS {
            keys.clear();
        }
        keys.insert(FormTerms(form.terms.clone()), key.clone());
        key
    }

    fn mono_interval(&self, know: &Knowledge, m: Expr) -> Interval {
        let f = &self.factory;
        if let Some(b) = know.bounds.get(&m) {
            return b.clone();
        }
        let factors = f.monomial_factors(m);
        if factors.len() == 1 && factors[0].1 == 1 {
            return Interval::unbounded();
        }
        let mut acc = Interval::point(num_traits::One::one());
        for (x, k) in factors {
            let xi = know.bounds.get(&x).cloned().unwrap_or_default();
            acc = acc.mul(&xi.pow(k));
        }
        acc
    }
}

/// The monic part of a linear form: `(key, c1)` with `form - constant == c1 * key`
/// and `key`'s first term (in column order) having coefficient 1.
fn monic_key(f: &ExprFactory, form: &LinForm) -> (Expr, BigRational) {
    let mut terms = form.terms.clone();
    terms.sort_by(|a, b| mono_order(f, a.0, b.0));
    let c1 = terms[0].1.clone();
    let scaled: Vec<(BigRational, Expr)> = terms.iter().map(|(m, c)| (c / &c1, *m)).collect();
    if form.ty == Type::Int && scaled.iter().any(|(c, _)| !c.is_integer()) {
        // Dividing by c1 would leave the integers: key on the form itself.
        let unscaled: Vec<(BigRational, Expr)> =
            terms.iter().map(|(m, c)| (c.clone(), *m)).collect();
        return (
            f.linear_combination(&form.ty, &unscaled),
            BigRational::from_integer(1.into()),
        );
    }
    (f.linear_combination(&form.ty, &scaled), c1)
}

/// True if `(form - constant) / c1` takes only integer values.
fn is_integer_form(form: &LinForm, c1: &BigRational) -> bool {
    form.ty == Type::Int && form.terms.iter().all(|(_, c)| (c / c1).is_integer())
}

/// A cache of simplifiers, one per assumption (paper Sec. 4.5).
pub struct SimplifierCache {
    factory: Arc<ExprFactory>,
    map: RwLock<HashMap<Expr, Arc<Simplifier>>>,
    keys: Arc<MonicKeys>,
}

impl std::fmt::Debug for SimplifierCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SimplifierCache({} simplifiers)", self.len())
    }
}

impl SimplifierCache {
    /// An empty cache for expressions of `factory`.
    pub fn new(factory: Arc<ExprFactory>) -> Self {
        SimplifierCache {
            factory,
            map: RwLock::new(HashMap::new()),
            keys: Arc::default(),
        }
    }

    /// The factory.
    pub fn factory(&self) -> &Arc<ExprFactory> {
        &self.factory
    }

    /// The simplifier for `assumption` (built on first use, then shared).
    pub fn simplifier(&self, assumption: Expr) -> Arc<Simplifier> {
        if let Some(s) = self.map.read().get(&assumption) {
            return s.clone();
        }
        let s = Arc::new(Simplifier::with_keys(
            self.factory.clone(),
            assumption,
            self.keys.clone(),
        ));
        self.map.write().entry(assumption).or_insert(s).clone()
    }

    /// `e` simplified under `assumption`.
    pub fn simplify(&self, assumption: Expr, e: Expr) -> Expr {
        self.simplifier(assumption).simplify(e)
    }

    /// Number of cached simplifiers.
    pub fn len(&self) -> usize {
        self.map.read().len()
    }

    /// True if no simplifier is cached.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Drops all cached simplifiers.
    pub fn clear(&self) {
        self.map.write().clear();
    }
}
