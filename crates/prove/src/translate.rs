//! Translation of symbolic expressions into SMT-LIB 2 text.
//!
//! Every [`ExprView`] variant is handled (the `match` has no catch-all, so a new kind
//! of expression in `tass-symbolic` is a compile error here, not a silent gap).
//!
//! Encoding choices:
//! - `Int` and `Char` are SMT `Int`, `Real` is `Real`, `Bool` is `Bool`.
//! - Tuples are flattened into their scalar leaves (yices has no datatypes in the
//!   logics we need): a tuple-typed term is a list of SMT terms; an array of tuples is
//!   a list of arrays; a function returning a tuple is one SMT function per leaf.
//! - C division and remainder (truncation toward zero, `x/0 == 0`, `x%0 == x`) are
//!   written with SMT-LIB's floor-based `div`/`mod` and `ite`s; division by a concrete
//!   number stays linear.
//! - Array equality compares the elements inside the extent (tass's semantics), with
//!   a bounded conjunction for small concrete extents and a guarded `forall` otherwise.
//! - Array lambdas become store chains over a fresh array for small concrete extents,
//!   else a fresh array constrained by a quantified axiom.
//! - Bitwise operators are the symbolic crate's reserved uninterpreted functions.

use std::fmt::Write as _;

use hashbrown::{HashMap, HashSet};
use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{Signed, ToPrimitive, Zero};
use tass_symbolic::api::{Expr, ExprFactory, ExprView, Quantifier, RelOp, Type};

use crate::model::ValueSort;
use crate::smt::{ModelTerm, SmtQuery};

/// Concrete extents up to this size are expanded element by element.
const MAX_EXPANDED_EXTENT: usize = 64;
/// Expressions deeper than this are not translated (recursion depth guard).
const MAX_DEPTH: u32 = 2500;
/// Terms longer than this (outside binders) get a name (`define-fun`).
const NAME_TERMS_LONGER_THAN: usize = 80;
/// Queries whose text would exceed this many bytes are not sent.
const MAX_QUERY_BYTES: usize = 32 << 20;

/// Why an expression could not be translated (the prover answers `Maybe`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Untranslatable(pub String);

type Res<T> = Result<T, Untranslatable>;

fn fail<T>(msg: impl Into<String>) -> Res<T> {
    Err(Untranslatable(msg.into()))
}

/// A scalar or array SMT sort, the leaves of a flattened type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Sort {
    Bool,
    Int,
    Real,
    Array(Box<Sort>),
}

impl Sort {
    fn smt(&self) -> String {
        match self {
            Sort::Bool => "Bool".into(),
            Sort::Int => "Int".into(),
            Sort::Real => "Real".into(),
            Sort::Array(e) => format!("(Array Int {})", e.smt()),
        }
    }
}

/// The leaf sorts of a value type (functions are not values here).
fn leaves(ty: &Type) -> Res<Vec<Sort>> {
    Ok(match ty {
        Type::Bool => vec![Sort::Bool],
        Type::Int | Type::Char => vec![Sort::Int],
        Type::Real => vec![Sort::Real],
        Type::Tuple(cs) => {
            let mut v = Vec::new();
            for c in cs.iter() {
                v.extend(leaves(c)?);
            }
            v
        }
        Type::Array(e, _) => leaves(e)?
            .into_iter()
            .map(|s| Sort::Array(Box::new(s)))
            .collect(),
        Type::Function(..) => return fail("a function used as a value"),
    })
}

fn int_lit(i: &BigInt) -> String {
    if i.is_negative() {
        format!("(- {})", -i)
    } else {
        i.to_string()
    }
}

fn real_lit(q: &BigRational) -> String {
    let n = q.numer().abs();
    let d = q.denom();
    let body = if d == &BigInt::from(1) {
        format!("{n}.0")
    } else {
        format!("(/ {n}.0 {d}.0)")
    };
    if q.is_negative() {
        format!("(- {body})")
    } else {
        body
    }
}

fn char_range(term: &str) -> String {
    format!("(and (<= 0 {term}) (<= {term} {}))", u32::MAX)
}

fn and_of(parts: Vec<String>) -> String {
    match parts.len() {
        0 => "true".into(),
        1 => parts.into_iter().next().unwrap_or_default(),
        _ => format!("(and {})", parts.join(" ")),
    }
}

/// Builds one SMT query from symbolic expressions.
pub(crate) struct Translator<'f> {
    f: &'f ExprFactory,
    decls: Vec<String>,
    /// SMT base name of each symbol seen (free or bound).
    names: HashMap<Expr, String>,
    taken: HashSet<String>,
    /// Free symbols already declared.
    declared: HashSet<Expr>,
    /// Free symbols in order of first occurrence, for the model.
    free: Vec<Expr>,
    /// Variables bound by enclosing quantifiers / lambda axioms.
    bound: Vec<Expr>,
    /// One memo per binder scope: a term's text is only valid in its scope.
    memo: Vec<HashMap<Expr, Vec<String>>>,
    /// Axioms defining fresh constants (asserted at top level).
    side: Vec<String>,
    fresh: usize,
    bytes: usize,
    quantified: bool,
    nonlinear: bool,
}

impl<'f> Translator<'f> {
    pub(crate) fn new(f: &'f ExprFactory) -> Self {
        Translator {
            f,
            decls: Vec::new(),
            names: HashMap::new(),
            taken: HashSet::new(),
            declared: HashSet::new(),
            free: Vec::new(),
            bound: Vec::new(),
            memo: vec![HashMap::new()],
            side: Vec::new(),
            fresh: 0,
            bytes: 0,
            quantified: false,
            nonlinear: false,
        }
    }

    /// Translates a boolean expression into one SMT term.
    pub(crate) fn formula(&mut self, e: Expr) -> Res<String> {
        if self.f.type_of(e) != Type::Bool {
            return fail(format!("expected a boolean, got {:?}", self.f.type_of(e)));
        }
        let mut t = self.term(e)?;
        Ok(t.pop().unwrap_or_default())
    }

    /// The query asserting all `formulas`, with the free scalar constants as model terms.
    pub(crate) fn finish(self, formulas: Vec<String>) -> SmtQuery {
        let mut model_terms = Vec::new();
        for &s in &self.free {
            let ty = self.f.type_of(s);
            let name = self
                .f
                .symbol_name(s)
                .map(|n| n.to_string())
                .unwrap_or_default();
            let base = &self.names[&s];
            let sorts = match &ty {
                Type::Bool => vec![ValueSort::Bool],
                Type::Int | Type::Char => vec![ValueSort::Int],
                Type::Real => vec![ValueSort::Real],
                Type::Tuple(_) => match leaves(&ty) {
                    Ok(ls) => ls
                        .iter()
                        .map(|l| match l {
                            Sort::Bool => Some(ValueSort::Bool),
                            Sort::Int => Some(ValueSort::Int),
                            Sort::Real => Some(ValueSort::Real),
                            Sort::Array(_) => None,
                        })
                        .collect::<Option<Vec<_>>>()
                        .unwrap_or_default(),
                    Err(_) => vec![],
                },
                _ => vec![],
            };
            if matches!(ty, Type::Tuple(_)) {
                for (k, sort) in sorts.into_iter().enumerate() {
                    model_terms.push(ModelTerm {
                        name: format!("{name}.{k}"),
                        term: format!("{base}.{k}"),
                        sort,
                    });
                }
            } else if let Some(sort) = sorts.into_iter().next() {
                model_terms.push(ModelTerm {
                    name,
                    term: base.clone(),
                    sort,
                });
            }
        }
        let mut assertions = self.side;
        assertions.extend(formulas);
        SmtQuery {
            declarations: self.decls,
            assertions,
            model_terms,
            quantified: self.quantified,
            nonlinear: self.nonlinear,
        }
    }

    fn charge(&mut self, text: &[String]) -> Res<()> {
        self.bytes += text.iter().map(String::len).sum::<usize>();
        if self.bytes > MAX_QUERY_BYTES {
            return fail("the query is too large to send to a solver");
        }
        Ok(())
    }

    fn symbol_base(&mut self, s: Expr) -> String {
        if let Some(n) = self.names.get(&s) {
            return n.clone();
        }
        let raw = self
            .f
            .symbol_name(s)
            .map(|n| n.to_string())
            .unwrap_or_default();
        let simple = !raw.is_empty() && raw.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        // The `s.` prefix keeps user names apart from SMT-LIB's own (`div`, `abs`,
        // `select`, ...) and from the translation's helper names.
        let mut base = if simple {
            format!("s.{raw}")
        } else {
            format!("s.{}", s.id())
        };
        if self.taken.contains(&base) {
            base = format!("{base}.{}", s.id());
        }
        self.taken.insert(base.clone());
        self.names.insert(s, base.clone());
        base
    }

    fn fresh_name(&mut self, what: &str) -> String {
        self.fresh += 1;
        format!("tass.{what}{}", self.fresh)
    }

    /// The SMT terms for a value symbol, declaring it on first free use.
    fn symbol_terms(&mut self, s: Expr) -> Res<Vec<String>> {
        let ty = self.f.type_of(s);
        let base = self.symbol_base(s);
        let sorts = leaves(&ty)?;
        let names: Vec<String> = if matches!(ty, Type::Tuple(_)) {
            (0..sorts.len()).map(|k| format!("{base}.{k}")).collect()
        } else if sorts.len() == 1 {
            vec![base.clone()]
        } else {
            (0..sorts.len()).map(|k| format!("{base}.{k}")).collect()
        };
        if self.bound.contains(&s) {
            if names.len() != 1 {
                return fail("a bound variable of compound type");
            }
            return Ok(names);
        }
        if self.declared.insert(s) {
            self.free.push(s);
            for (n, sort) in names.iter().zip(&sorts) {
                self.decls
                    .push(format!("(declare-fun {n} () {})", sort.smt()));
            }
            if ty == Type::Char {
                // A character is a code in u32's range (tass's `Value::Char`).
                self.side.push(char_range(&names[0]));
            }
        }
        Ok(names)
    }

    /// The SMT function names (one per result leaf) for a function-typed symbol.
    fn function_names(&mut self, g: Expr) -> Res<Vec<String>> {
        let ty = self.f.type_of(g);
        let Type::Function(args, result) = &ty else {
            return fail("application of something that is not a function symbol");
        };
        if !self.f.is_symbol(g) {
            return fail("application of a computed function");
        }
        if self.bound.contains(&g) {
            return fail("a bound function variable");
        }
        let base = self.symbol_base(g);
        let mut arg_sorts = Vec::new();
        for a in args.iter() {
            arg_sorts.extend(leaves(a)?);
        }
        let res = leaves(result)?;
        let names: Vec<String> = if res.len() == 1 {
            vec![base.clone()]
        } else {
            (0..res.len()).map(|k| format!("{base}.{k}")).collect()
        };
        if self.declared.insert(g) {
            let args_text: Vec<String> = arg_sorts.iter().map(Sort::smt).collect();
            for (n, r) in names.iter().zip(&res) {
                self.decls.push(format!(
                    "(declare-fun {n} ({}) {})",
                    args_text.join(" "),
                    r.smt()
                ));
            }
        }
        Ok(names)
    }

    fn scalar(&mut self, e: Expr) -> Res<String> {
        let mut t = self.term(e)?;
        if t.len() != 1 {
            return fail("expected a scalar value");
        }
        Ok(t.pop().unwrap_or_default())
    }

    fn is_concrete_num(&self, e: Expr) -> bool {
        self.f.as_concrete_rational(e).is_some() || self.f.as_concrete_char(e).is_some()
    }

    /// The leaf terms of `e`.
    fn term(&mut self, e: Expr) -> Res<Vec<String>> {
        if let Some(t) = self.memo.last().and_then(|m| m.get(&e)) {
            return Ok(t.clone());
        }
        if self.f.depth(e) > MAX_DEPTH {
            return fail(format!("expression nesting deeper than {MAX_DEPTH}"));
        }
        let mut t = self.term_uncached(e)?;
        self.charge(&t)?;
        // Name large terms (outside binders) so that a term shared in the expression
        // DAG is written once: symbolic execution builds chains like
        // `s1 = ite(c1, s0 + a1, s0)`, whose tree doubles at every step.
        if self.memo.len() == 1 && t.iter().map(String::len).sum::<usize>() > NAME_TERMS_LONGER_THAN
        {
            if let Ok(sorts) = leaves(&self.f.type_of(e)) {
                if sorts.len() == t.len() {
                    t = t
                        .iter()
                        .zip(&sorts)
                        .map(|(text, sort)| {
                            let n = self.fresh_name("t");
                            self.decls
                                .push(format!("(define-fun {n} () {} {text})", sort.smt()));
                            n
                        })
                        .collect();
                }
            }
        }
        if let Some(m) = self.memo.last_mut() {
            m.insert(e, t.clone());
        }
        Ok(t)
    }

    fn term_uncached(&mut self, e: Expr) -> Res<Vec<String>> {
        let f = self.f;
        let ty = f.type_of(e);
        let one = |s: String| Ok(vec![s]);
        match f.view(e) {
            ExprView::Bool(b) => one(b.to_string()),
            ExprView::Int(i) => one(if ty == Type::Real {
                real_lit(&BigRational::from_integer(i))
            } else {
                int_lit(&i)
            }),
            ExprView::Real(q) => one(if ty == Type::Real {
                real_lit(&q)
            } else if q.is_integer() {
                int_lit(&q.to_integer())
            } else {
                return fail("a non-integral constant of integer type");
            }),
            ExprView::Char(c) => one(c.to_string()),
            ExprView::Symbol(_) => {
                if matches!(ty, Type::Function(..)) {
                    return fail("a function used as a value");
                }
                self.symbol_terms(e)
            }
            ExprView::Add(ks) => {
                let parts = self.scalars(&ks)?;
                one(format!("(+ {})", parts.join(" ")))
            }
            ExprView::Mul(ks) => {
                if ks.iter().filter(|&&k| !self.is_concrete_num(k)).count() > 1 {
                    self.nonlinear = true;
                }
                let parts = self.scalars(&ks)?;
                one(format!("(* {})", parts.join(" ")))
            }
            ExprView::Pow(b, k) => {
                self.nonlinear = true;
                let b = self.scalar(b)?;
                let parts = vec![b; k.max(1) as usize];
                one(if parts.len() == 1 {
                    parts.into_iter().next().unwrap_or_default()
                } else {
                    format!("(* {})", parts.join(" "))
                })
            }
            ExprView::Div(a, b) => {
                if !self.is_concrete_num(b) {
                    self.nonlinear = true;
                }
                let (a, b) = (self.real_scalar(a)?, self.real_scalar(b)?);
                one(format!("(/ {a} {b})"))
            }
            ExprView::IntDiv(a, b) => self.c_div(a, b, false).map(|s| vec![s]),
            ExprView::IntMod(a, b) => self.c_div(a, b, true).map(|s| vec![s]),
            ExprView::ToReal(a) => {
                let a = self.scalar(a)?;
                one(format!("(to_real {a})"))
            }
            ExprView::ToInt(a) => {
                let r = self.real_scalar(a)?;
                // SMT's to_int is floor; C truncates toward zero.
                one(format!(
                    "(ite (>= {r} 0.0) (to_int {r}) (- (to_int (- {r}))))"
                ))
            }
            ExprView::Cast(a) => self.cast(a, &ty).map(|s| vec![s]),
            ExprView::Rel(op, g) => {
                let zero = if f.type_of(g) == Type::Real {
                    "0.0"
                } else {
                    "0"
                };
                let g = self.scalar(g)?;
                one(match op {
                    RelOp::Gt => format!("(> {g} {zero})"),
                    RelOp::Ge => format!("(>= {g} {zero})"),
                    RelOp::Eq => format!("(= {g} {zero})"),
                    RelOp::Ne => format!("(not (= {g} {zero}))"),
                })
            }
            ExprView::Equal(a, b) => {
                let (ta, tb) = (f.type_of(a), f.type_of(b));
                let (xa, xb) = (self.term(a)?, self.term(b)?);
                self.equal(&ta, &tb, &xa, &xb).map(|s| vec![s])
            }
            ExprView::And(ks) => {
                let parts = self.scalars(&ks)?;
                one(format!("(and {})", parts.join(" ")))
            }
            ExprView::Or(ks) => {
                let parts = self.scalars(&ks)?;
                one(format!("(or {})", parts.join(" ")))
            }
            ExprView::Not(a) => {
                let a = self.scalar(a)?;
                one(format!("(not {a})"))
            }
            ExprView::Ite(c, a, b) => {
                if matches!(ty, Type::Function(..)) {
                    return fail("a conditional choice between functions");
                }
                let c = self.scalar(c)?;
                let (a, b) = (self.term(a)?, self.term(b)?);
                Ok(a.iter()
                    .zip(&b)
                    .map(|(x, y)| format!("(ite {c} {x} {y})"))
                    .collect())
            }
            ExprView::ArrayRead(a, i) => {
                let a = self.term(a)?;
                let i = self.scalar(i)?;
                Ok(a.iter().map(|x| format!("(select {x} {i})")).collect())
            }
            ExprView::ArrayWrite(a, i, v) => {
                let a = self.term(a)?;
                let i = self.scalar(i)?;
                let v = self.term(v)?;
                Ok(a.iter()
                    .zip(&v)
                    .map(|(x, y)| format!("(store {x} {i} {y})"))
                    .collect())
            }
            ExprView::ConcreteArray { base, elements } => self.concrete_array(base, &elements),
            ExprView::ArrayLambda { var, body } => self.lambda(&ty, var, body),
            ExprView::Tuple(ks) => {
                let mut out = Vec::new();
                for k in ks {
                    out.extend(self.term(k)?);
                }
                Ok(out)
            }
            ExprView::TupleRead(t, k) => self.tuple_read(t, k),
            ExprView::Apply(g, args) => self.application(g, &args),
            ExprView::Quant { kind, var, body } => self.quantifier(kind, var, body),
        }
    }

    /// An array with known elements: stores into its base, per leaf.
    fn concrete_array(&mut self, base: Expr, elements: &[Option<Expr>]) -> Res<Vec<String>> {
        let mut acc = self.term(base)?;
        for (k, el) in elements.iter().enumerate() {
            if let Some(el) = el {
                let v = self.term(*el)?;
                acc = acc
                    .iter()
                    .zip(&v)
                    .map(|(x, y)| format!("(store {x} {k} {y})"))
                    .collect();
            }
        }
        Ok(acc)
    }

    /// Component `k` of tuple `t`: its leaves among the leaves of `t`.
    fn tuple_read(&mut self, t: Expr, k: u32) -> Res<Vec<String>> {
        let f = self.f;
        let tt = f.type_of(t);
        let Type::Tuple(cs) = &tt else {
            return fail("a tuple read of a non-tuple");
        };
        let mut start = 0;
        for c in cs.iter().take(k as usize) {
            start += leaves(c)?.len();
        }
        let Some(comp) = cs.get(k as usize) else {
            return fail("a tuple read out of range");
        };
        let len = leaves(comp)?.len();
        let all = self.term(t)?;
        all.get(start..start + len)
            .map(|s| s.to_vec())
            .ok_or_else(|| Untranslatable("malformed tuple".into()))
    }

    /// An application of an uninterpreted function, per leaf of its result.
    fn application(&mut self, g: Expr, args: &[Expr]) -> Res<Vec<String>> {
        let names = self.function_names(g)?;
        let mut flat = Vec::new();
        for &a in args {
            flat.extend(self.term(a)?);
        }
        Ok(names
            .iter()
            .map(|n| {
                if flat.is_empty() {
                    n.clone()
                } else {
                    format!("({n} {})", flat.join(" "))
                }
            })
            .collect())
    }

    /// A quantified formula; a character variable ranges over codes only.
    fn quantifier(&mut self, kind: Quantifier, var: Expr, body: Expr) -> Res<Vec<String>> {
        let f = self.f;
        if kind == Quantifier::Forall {
            if let Some(instances) = bounded_instances(f, var, body) {
                // Equivalent to the quantifier, and quantifier-free: yices can
                // take the query, and no solver has to find the instances.
                let parts = self.scalars(&instances)?;
                return Ok(vec![match parts.len() {
                    0 => "true".to_string(),
                    1 => parts.into_iter().next().unwrap_or_default(),
                    _ => format!("(and {})", parts.join(" ")),
                }]);
            }
        }
        self.quantified = true;
        let vt = f.type_of(var);
        let sort = match vt {
            Type::Int | Type::Char => "Int",
            Type::Real => "Real",
            Type::Bool => "Bool",
            _ => return fail("a quantifier over a compound variable"),
        };
        let v = self.symbol_base(var);
        let b = self.scoped(var, |t| t.scalar(body))?;
        // A character variable ranges over codes only.
        let is_char = vt == Type::Char;
        Ok(vec![match kind {
            Quantifier::Forall if is_char => {
                format!("(forall (({v} Int)) (=> {} {b}))", char_range(&v))
            }
            Quantifier::Exists if is_char => {
                format!("(exists (({v} Int)) (and {} {b}))", char_range(&v))
            }
            Quantifier::Forall => format!("(forall (({v} {sort})) {b})"),
            Quantifier::Exists => format!("(exists (({v} {sort})) {b})"),
        }])
    }

    fn scalars(&mut self, ks: &[Expr]) -> Res<Vec<String>> {
        ks.iter().map(|&k| self.scalar(k)).collect()
    }

    /// A real-sorted term for a numeric expression (integers converted).
    fn real_scalar(&mut self, e: Expr) -> Res<String> {
        let s = self.scalar(e)?;
        Ok(match self.f.type_of(e) {
            Type::Real => s,
            _ => format!("(to_real {s})"),
        })
    }

    /// Runs `body` with `var` bound, in a fresh memo scope.
    fn scoped<T>(&mut self, var: Expr, body: impl FnOnce(&mut Self) -> Res<T>) -> Res<T> {
        self.bound.push(var);
        self.memo.push(HashMap::new());
        let r = body(self);
        self.memo.pop();
        self.bound.pop();
        r
    }

    /// C `a / b` or `a % b` (truncation toward zero; `a/0 == 0`, `a%0 == a`).
    fn c_div(&mut self, a: Expr, b: Expr, rem: bool) -> Res<String> {
        let by = self.f.as_concrete_int(b);
        let x = self.scalar(a)?;
        if let Some(c) = by {
            if c.is_zero() {
                return Ok(if rem { x } else { "0".into() });
            }
            // Linear: `div` by a positive numeral.
            let m = c.abs();
            let q = format!("(ite (>= {x} 0) (div {x} {m}) (- (div (- {x}) {m})))");
            let q = if c.is_negative() {
                format!("(- {q})")
            } else {
                q
            };
            return Ok(if rem {
                format!("(- {x} (* {} {q}))", int_lit(&c))
            } else {
                q
            });
        }
        self.nonlinear = true;
        let y = self.scalar(b)?;
        // trunc(x / y) = sign(x) * sign(y) * floor(|x| / |y|).
        let ax = format!("(ite (>= {x} 0) {x} (- {x}))");
        let ay = format!("(ite (>= {y} 0) {y} (- {y}))");
        let mag = format!("(div {ax} {ay})");
        let q = format!("(ite (= {y} 0) 0 (ite (= (>= {x} 0) (> {y} 0)) {mag} (- {mag})))");
        Ok(if rem {
            format!("(ite (= {y} 0) {x} (- {x} (* {y} {q})))")
        } else {
            q
        })
    }

    fn cast(&mut self, a: Expr, to: &Type) -> Res<String> {
        let from = self.f.type_of(a);
        let x = self.scalar(a)?;
        Ok(match (&from, to) {
            // Characters are their codes: both directions are the identity (where
            // tass's evaluation defines int -> char at all).
            (Type::Char, Type::Int) | (Type::Int, Type::Char) => x,
            (Type::Char, Type::Real) | (Type::Int, Type::Real) => format!("(to_real {x})"),
            (Type::Real, Type::Int) | (Type::Real, Type::Char) => {
                format!("(ite (>= {x} 0.0) (to_int {x}) (- (to_int (- {x}))))")
            }
            (Type::Bool, Type::Int) | (Type::Bool, Type::Char) => format!("(ite {x} 1 0)"),
            (Type::Bool, Type::Real) => format!("(ite {x} 1.0 0.0)"),
            (Type::Int | Type::Char, Type::Bool) => format!("(not (= {x} 0))"),
            (Type::Real, Type::Bool) => format!("(not (= {x} 0.0))"),
            (f, t) if f == t => x,
            (f, t) => return fail(format!("a conversion from {f:?} to {t:?}")),
        })
    }

    fn extent_of(&self, ty: &Type) -> Option<Expr> {
        match ty {
            Type::Array(_, ext) => *ext,
            _ => None,
        }
    }

    fn small_extent(&self, ext: Option<Expr>) -> Option<usize> {
        ext.and_then(|n| self.f.as_concrete_int(n))
            .and_then(|n| n.to_usize())
            .filter(|&n| n <= MAX_EXPANDED_EXTENT)
    }

    /// Equality of two values of types `ta`, `tb` given by their leaves.
    fn equal(&mut self, ta: &Type, tb: &Type, xa: &[String], xb: &[String]) -> Res<String> {
        if xa.len() != xb.len() {
            return fail("equality of values of different shapes");
        }
        match (ta, tb) {
            (Type::Tuple(ca), Type::Tuple(cb)) if ca.len() == cb.len() => {
                let mut parts = Vec::new();
                let mut off = 0;
                for (c, d) in ca.iter().zip(cb.iter()) {
                    let n = leaves(c)?.len();
                    let (sa, sb) = (&xa[off..off + n], &xb[off..off + n]);
                    parts.push(self.equal(c, d, sa, sb)?);
                    off += n;
                }
                Ok(and_of(parts))
            }
            (Type::Array(ea, na), Type::Array(eb, nb)) => {
                let mut parts = Vec::new();
                let (na, nb) = (*na, *nb);
                if let (Some(na), Some(nb)) = (na, nb) {
                    if na != nb {
                        let (sa, sb) = (self.scalar(na)?, self.scalar(nb)?);
                        parts.push(format!("(= {sa} {sb})"));
                    }
                }
                match (na, self.small_extent(na)) {
                    (_, Some(n)) => {
                        for i in 0..n {
                            let ra: Vec<String> =
                                xa.iter().map(|x| format!("(select {x} {i})")).collect();
                            let rb: Vec<String> =
                                xb.iter().map(|x| format!("(select {x} {i})")).collect();
                            parts.push(self.equal(ea, eb, &ra, &rb)?);
                        }
                    }
                    (Some(n), None) => {
                        self.quantified = true;
                        let n = self.scalar(n)?;
                        let k = self.fresh_name("k");
                        let ra: Vec<String> =
                            xa.iter().map(|x| format!("(select {x} {k})")).collect();
                        let rb: Vec<String> =
                            xb.iter().map(|x| format!("(select {x} {k})")).collect();
                        let body = self.equal(ea, eb, &ra, &rb)?;
                        parts.push(format!(
                            "(forall (({k} Int)) (=> (and (<= 0 {k}) (< {k} {n})) {body}))"
                        ));
                    }
                    // Unknown extent: the arrays as whole SMT arrays (extensional).
                    (None, None) => {
                        for (x, y) in xa.iter().zip(xb) {
                            parts.push(format!("(= {x} {y})"));
                        }
                    }
                }
                Ok(and_of(parts))
            }
            (Type::Function(..), _) | (_, Type::Function(..)) => fail("equality of functions"),
            _ => Ok(and_of(
                xa.iter()
                    .zip(xb)
                    .map(|(x, y)| format!("(= {x} {y})"))
                    .collect(),
            )),
        }
    }

    /// The array `i -> body[var := i]` of type `ty`.
    fn lambda(&mut self, ty: &Type, var: Expr, body: Expr) -> Res<Vec<String>> {
        let sorts = leaves(ty)?;
        let ext = self.extent_of(ty);
        // A fresh array per leaf: the values outside the extent are unconstrained.
        let bases: Vec<String> = sorts
            .iter()
            .map(|s| {
                let n = self.fresh_name("lambda");
                self.decls.push(format!("(declare-fun {n} () {})", s.smt()));
                n
            })
            .collect();
        if let Some(n) = self.small_extent(ext) {
            let mut acc = bases;
            for i in 0..n {
                let el = self.f.substitute_one(body, var, self.f.int(i));
                let v = self.term(el)?;
                acc = acc
                    .iter()
                    .zip(&v)
                    .map(|(x, y)| format!("(store {x} {i} {y})"))
                    .collect();
            }
            return Ok(acc);
        }
        // A quantified axiom at top level defines the fresh arrays; it must not
        // depend on variables bound around the lambda.
        if !self.bound.is_empty() {
            let mut free = self.f.free_symbols(body);
            if let Some(n) = ext {
                free.extend(self.f.free_symbols(n));
            }
            if free.iter().any(|s| self.bound.contains(s)) {
                return fail("an array lambda under a quantifier that mentions its variable");
            }
        }
        self.quantified = true;
        let guard = match ext {
            Some(n) => {
                let n = self.with_outer_scope(|t| t.scalar(n))?;
                Some(n)
            }
            None => None,
        };
        let v = self.symbol_base(var);
        let elem = self.with_outer_scope(|t| t.scoped(var, |t| t.term(body)))?;
        let eqs: Vec<String> = bases
            .iter()
            .zip(&elem)
            .map(|(b, x)| format!("(= (select {b} {v}) {x})"))
            .collect();
        let eqs = and_of(eqs);
        let axiom = match guard {
            Some(n) => format!("(forall (({v} Int)) (=> (and (<= 0 {v}) (< {v} {n})) {eqs}))"),
            None => format!("(forall (({v} Int)) {eqs})"),
        };
        self.side.push(axiom);
        Ok(bases)
    }

    /// Runs `body` as if at top level (no enclosing binders), with a fresh memo.
    fn with_outer_scope<T>(&mut self, body: impl FnOnce(&mut Self) -> Res<T>) -> Res<T> {
        let bound = std::mem::take(&mut self.bound);
        let memo = std::mem::replace(&mut self.memo, vec![HashMap::new()]);
        let r = body(self);
        self.memo = memo;
        self.bound = bound;
        r
    }
}

/// Translates the query `assumption && !predicate` (the negation of validity).
pub(crate) fn negated_validity_query(
    f: &ExprFactory,
    assumption: Expr,
    predicate: Expr,
) -> Res<SmtQuery> {
    let mut t = Translator::new(f);
    let a = t.formula(assumption)?;
    let p = t.formula(predicate)?;
    let mut formulas = Vec::new();
    if a != "true" {
        formulas.push(a);
    }
    formulas.push(format!("(not {p})"));
    Ok(t.finish(formulas))
}

/// Translates the query `pc` (satisfiability).
pub(crate) fn satisfiability_query(f: &ExprFactory, pc: Expr) -> Res<SmtQuery> {
    let mut t = Translator::new(f);
    let a = t.formula(pc)?;
    Ok(t.finish(vec![a]))
}

/// The SMT query asserting `formula` (for tools and tests).
pub fn smt_query(f: &ExprFactory, formula: Expr) -> Result<SmtQuery, String> {
    satisfiability_query(f, formula).map_err(|e| e.0)
}

/// Writes a boolean expression as a standalone SMT-LIB script (declarations, then
/// `(assert ...)`, then `(check-sat)`), for debugging and for users who want to run a
/// query by hand.
pub(crate) fn script(f: &ExprFactory, e: Expr) -> Res<String> {
    let q = satisfiability_query(f, e)?;
    let mut s = String::new();
    let _ = writeln!(s, "(set-logic ALL)");
    s.push_str(&q.body());
    s.push_str("(check-sat)\n");
    Ok(s)
}

/// At most this many instances replace a bounded `forall`.
const MAX_FORALL_INSTANCES: i64 = 256;

/// The instances `body[var := v]` for every integer `v` in a concrete range
/// outside which `body` holds by one of its disjuncts (`forall k. k < lo || k
/// >= hi || p(k)`, as the range pragmas' quantifiers simplify): the
/// conjunction of the instances is equivalent to the quantifier. `None` when
/// the range is not concrete or has more than [`MAX_FORALL_INSTANCES`].
fn bounded_instances(f: &ExprFactory, var: Expr, body: Expr) -> Option<Vec<Expr>> {
    if f.type_of(var) != Type::Int {
        return None;
    }
    let ExprView::Or(disjuncts) = f.view(body) else {
        return None;
    };
    // The body holds for every v <= below and every v >= above.
    let mut below: Option<BigInt> = None;
    let mut above: Option<BigInt> = None;
    for d in disjuncts {
        let Some((side, bound)) = half_line(f, var, d) else {
            continue;
        };
        match side {
            HalfLine::AtMost => {
                below = Some(below.map_or(bound.clone(), |b| b.max(bound)));
            }
            HalfLine::AtLeast => {
                above = Some(above.map_or(bound.clone(), |a| a.min(bound)));
            }
        }
    }
    let lo = (below? + BigInt::from(1)).to_i64()?;
    let hi = above?.to_i64()?;
    if hi - lo > MAX_FORALL_INSTANCES {
        return None;
    }
    Some(
        (lo..hi)
            .map(|v| f.substitute_one(body, var, f.int(v)))
            .collect(),
    )
}

/// Which side of a bound a relation in one integer variable holds on.
enum HalfLine {
    AtMost,
    AtLeast,
}

/// For `c*var + d >= 0` or `> 0` (c a non-zero rational, d a constant): the
/// integers it holds for, as a half-line and its end.
fn half_line(f: &ExprFactory, var: Expr, rel: Expr) -> Option<(HalfLine, BigInt)> {
    let ExprView::Rel(op, g) = f.view(rel) else {
        return None;
    };
    let mut coef = None;
    let mut constant = BigRational::zero();
    for (c, m) in f.poly_terms(g) {
        match f.as_concrete_rational(m) {
            Some(v) => constant += c * v,
            None if m == var && coef.is_none() => coef = Some(c),
            None => return None,
        }
    }
    let c = coef?;
    // c*v + d (>= | >) 0  <=>  v (>= | >) -d/c when c > 0, v (<= | <) -d/c when c < 0.
    let t = -constant / &c;
    let strict = match op {
        RelOp::Ge => false,
        RelOp::Gt => true,
        RelOp::Eq | RelOp::Ne => return None,
    };
    Some(if c.is_positive() {
        // v >= t: the least integer is ceil(t); v > t: floor(t) + 1.
        let end = if strict {
            t.floor().to_integer() + 1
        } else {
            t.ceil().to_integer()
        };
        (HalfLine::AtLeast, end)
    } else {
        // v <= t: floor(t); v < t: ceil(t) - 1.
        let end = if strict {
            t.ceil().to_integer() - 1
        } else {
            t.floor().to_integer()
        };
        (HalfLine::AtMost, end)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(f: &ExprFactory, e: Expr) -> SmtQuery {
        satisfiability_query(f, e).expect("translatable")
    }

    #[test]
    fn symbols_are_prefixed_and_declared_once() {
        let f = ExprFactory::new();
        let x = f.symbol("div", Type::Int);
        let q = text(&f, f.and(f.gt(x, f.int(0)), f.lt(x, f.int(9))));
        assert_eq!(
            q.declarations,
            vec!["(declare-fun s.div () Int)".to_string()]
        );
        assert_eq!(q.model_terms.len(), 1);
        assert_eq!(q.model_terms[0].name, "div");
        assert!(!q.quantified && !q.nonlinear);
    }

    #[test]
    fn division_by_a_constant_stays_linear() {
        let f = ExprFactory::new();
        let x = f.symbol("x", Type::Int);
        let y = f.symbol("y", Type::Int);
        let q = text(&f, f.eq(f.int_div(x, f.int(3)), f.int(1)));
        assert!(!q.nonlinear, "{q:?}");
        let q = text(&f, f.eq(f.int_div(x, y), f.int(1)));
        assert!(q.nonlinear, "{q:?}");
    }

    #[test]
    fn symbolic_extent_lambda_equality_uses_quantified_axioms() {
        let f = ExprFactory::new();
        let k = f.symbol("k", Type::Int);
        let m = f.symbol("m", Type::Int);
        let ty = Type::array(Type::Int, Some(m));
        let lam = f.array_lambda(ty.clone(), k, f.mul(f.int(2), k));
        let c = f.symbol("c", ty);
        let q = text(&f, f.eq(c, lam));
        assert!(q.quantified);
        let body = q.body();
        assert!(body.contains("tass.lambda"), "{body}");
        assert!(body.contains("(forall ((s.k Int))"), "{body}");
        assert!(body.contains("(< tass.k"), "{body}");
    }

    #[test]
    fn tuples_flatten_into_leaves() {
        let f = ExprFactory::new();
        let t = f.symbol("t", Type::tuple([Type::Int, Type::Bool]));
        let q = text(&f, f.tuple_read(t, 1));
        assert_eq!(
            q.declarations,
            vec![
                "(declare-fun s.t.0 () Int)".to_string(),
                "(declare-fun s.t.1 () Bool)".to_string()
            ]
        );
        assert_eq!(q.assertions, vec!["s.t.1".to_string()]);
        let names: Vec<&str> = q.model_terms.iter().map(|m| m.name.as_str()).collect();
        assert_eq!(names, ["t.0", "t.1"]);
    }

    #[test]
    fn shared_subterms_are_written_once() {
        let f = ExprFactory::new();
        let mut s = f.symbol("s0", Type::Int);
        for k in 1..40 {
            let c = f.symbol(&format!("c{k}"), Type::Bool);
            let a = f.symbol(&format!("a{k}"), Type::Int);
            s = f.ite(c, f.add(s, a), s);
        }
        let q = text(&f, f.gt(s, f.int(0)));
        let size: usize = q.body().len();
        assert!(size < 20_000, "query of {size} bytes");
        assert!(q
            .declarations
            .iter()
            .any(|d| d.starts_with("(define-fun tass.t")));
    }

    #[test]
    fn function_values_are_refused_not_mistranslated() {
        let f = ExprFactory::new();
        let g = f.symbol("g", Type::function([Type::Int], Type::Int));
        let h = f.symbol("h", Type::function([Type::Int], Type::Int));
        assert!(satisfiability_query(&f, f.eq(g, h)).is_err());
    }
}
