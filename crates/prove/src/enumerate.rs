//! Deciding an implication by trying every value of a few bounded integers.
//!
//! Block decompositions ask questions such as "`n*r/P < n*(r+1)/P`?" with `P` and
//! `r` concrete and `n` an input in `0..=200`. Integer division and products of
//! unknowns are beyond the linear reasoning of the built-in prover, and an SMT
//! solver needs milliseconds per question (a nonlinear context each time). But when
//! the few integer constants the question depends on have small ranges, evaluating
//! it at every point of the box decides it exactly, in microseconds.
//!
//! The argument, for `assumption => predicate` with the simplifier `s` of
//! `assumption`:
//! - `assumption` implies `s.reduced_assumption()` and makes `predicate` equivalent
//!   to its simplified form `p`; it also implies each constant's interval from
//!   `s.bounds`.
//! - Keep the clauses of the reduced assumption that share constants with `p`,
//!   transitively (the *slice*); its constants form the set `R`, all bounded.
//! - Every model of `assumption` restricted to `R` is a point of the box that
//!   satisfies the slice. So if `p` is true at every such point, the implication is
//!   valid. A point where it is false is only a *candidate* counterexample (the
//!   clauses left out may exclude it): it is reported only after the original
//!   `assumption` and `predicate` have been evaluated at it, completed with the
//!   eliminated constants' values. It is skipped when that completion is forced
//!   (every constant is in the box or eliminated) and the original assumption is
//!   false there; otherwise the question is left undecided.
//!
//! [`decide`] tries the whole reduced assumption first (then the slice is all of
//! it), then the slice, and last, when the predicate is out of reach, whether the
//! clauses over integers alone have any solution at all ([`vacuous`]). Ranges come
//! from the simplifier's bounds and from unit clauses `k*x + c op 0` of the
//! assumption ([`UnitBounds`]).

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive};
use tass_simplify::api::{Bound, Simplifier};
use tass_symbolic::api::{Assignment, BitOp, Expr, ExprFactory, ExprView, RelOp, Type, Value};

use crate::model::{Model, ModelValue};
use crate::prover::Answer;

/// Most points of a box that are tried: beyond this, the question goes on to the
/// next procedure. A compiled evaluation costs tens of nanoseconds.
const MAX_POINTS: u64 = 4096;

/// Most points tried with the exact (big-number) evaluator, when the formulas do
/// not compile to machine integers: it costs microseconds per point.
const MAX_POINTS_EXACT: u64 = 256;

/// The question being decided: `assumption => predicate`, with the simplifier
/// `s` of `assumption` and the factory `f` of both.
#[derive(Clone, Copy)]
struct Query<'a> {
    f: &'a ExprFactory,
    s: &'a Simplifier,
    assumption: Expr,
    predicate: Expr,
}

/// The integer range `[lo, hi]` of one constant.
struct Range {
    symbol: Expr,
    lo: i64,
    hi: i64,
    is_bool: bool,
}

/// The constants `e` depends on, leaving out the reserved bitwise functions:
/// they are not unknowns (both evaluators compute them), so `x & 3` over a
/// bounded `x` is as enumerable as `x % 4`.
fn constants(f: &ExprFactory, e: Expr) -> Vec<Expr> {
    let mut symbols = f.free_symbols(e);
    symbols.retain(|&x| bitwise_operator(f, x).is_none());
    symbols
}

/// The operator a reserved bitwise function symbol stands for.
fn bitwise_operator(f: &ExprFactory, symbol: Expr) -> Option<BitOp> {
    if !matches!(f.type_of(symbol), Type::Function(..)) {
        return None;
    }
    BitOp::from_function_name(&f.symbol_name(symbol)?)
}

/// Decides `assumption => predicate` by enumeration when the simplified predicate
/// depends on a few integer (or boolean) constants whose ranges multiply to at
/// most [`MAX_POINTS`]. `None` when the question is out of reach: other types,
/// unbounded ranges, too many points, evaluation failures, or a candidate
/// counterexample that could not be confirmed on the original formulas.
pub(crate) fn decide(
    f: &ExprFactory,
    s: &Simplifier,
    assumption: Expr,
    predicate: Expr,
    simplified: Expr,
) -> Option<Answer> {
    // The whole reduced assumption when it is within reach (then a point where the
    // predicate fails is a counterexample as it stands), else only the slice.
    let query = Query {
        f,
        s,
        assumption,
        predicate,
    };
    let all = f.cnf_clauses(s.reduced_assumption());
    let units = UnitBounds::new(f, assumption);
    let (clauses, ranges) = match box_of(f, s, &units, &all, simplified) {
        Some(Ok(ranges)) => (all, ranges),
        Some(Err(answer)) => return Some(answer),
        None => {
            let slice = slice(f, all.clone(), simplified);
            match box_of(f, s, &units, &slice, simplified) {
                Some(Ok(ranges)) => (slice, ranges),
                Some(Err(answer)) => return Some(answer),
                None => return vacuous(query, &units, all),
            }
        }
    };
    search(query, simplified, &clauses, &ranges)
}

/// `Yes` if the clauses over integer and boolean constants alone have no solution in
/// their box (then the assumption has none), else `None`.
fn vacuous(query: Query<'_>, units: &UnitBounds<'_>, all: Vec<Vec<Expr>>) -> Option<Answer> {
    let Query { f, s, .. } = query;
    let enumerable: Vec<Vec<Expr>> = all
        .into_iter()
        .filter(|clause| {
            clause.iter().all(|&lit| {
                constants(f, lit)
                    .iter()
                    .all(|&x| matches!(f.type_of(x), Type::Int | Type::Bool))
            })
        })
        .collect();
    if enumerable.is_empty() {
        return None;
    }
    let ff = f.ff();
    let ranges = match box_of(f, s, units, &enumerable, ff)? {
        Ok(ranges) => ranges,
        Err(answer) => return Some(answer),
    };
    // With `false` as the predicate every solution of the clauses is a candidate,
    // checked by `confirm` on the original formulas; only "no solution at all"
    // (every candidate excluded) is used here.
    match search(query, ff, &enumerable, &ranges)? {
        a if a.validity == crate::prover::Validity::Yes => Some(a),
        _ => None,
    }
}

/// The ranges of the constants of `clauses` and `predicate`; `Err(Yes)` when one of
/// them is empty (the assumption is unsatisfiable); `None` when out of reach.
fn box_of(
    f: &ExprFactory,
    s: &Simplifier,
    units: &UnitBounds<'_>,
    clauses: &[Vec<Expr>],
    predicate: Expr,
) -> Option<Result<Vec<Range>, Answer>> {
    let mut symbols = constants(f, predicate);
    for clause in clauses {
        for &lit in clause {
            symbols.extend(constants(f, lit));
        }
    }
    symbols.sort_by(|&a, &b| f.compare(a, b));
    symbols.dedup();
    let mut ranges = Vec::with_capacity(symbols.len());
    let mut points: u64 = 1;
    for &x in &symbols {
        let range = match f.type_of(x) {
            Type::Bool => Range {
                symbol: x,
                lo: 0,
                hi: 1,
                is_bool: true,
            },
            Type::Int => {
                let interval = s.bounds(x);
                let (unit_lo, unit_hi) = units.of(x);
                let lo = match (
                    interval.lower.as_ref().and_then(|b| ceil_bound(b, true)),
                    unit_lo,
                ) {
                    (Some(a), Some(b)) => a.max(b),
                    (a, b) => a.or(b)?,
                };
                let hi = match (
                    interval.upper.as_ref().and_then(|b| ceil_bound(b, false)),
                    unit_hi,
                ) {
                    (Some(a), Some(b)) => a.min(b),
                    (a, b) => a.or(b)?,
                };
                if lo > hi {
                    // The assumption bounds `x` to an empty range: it is
                    // unsatisfiable, and the implication holds.
                    return Some(Err(Answer::yes()));
                }
                Range {
                    symbol: x,
                    lo,
                    hi,
                    is_bool: false,
                }
            }
            // Reals, characters, arrays, functions (uninterpreted or bitwise):
            // not enumerated.
            _ => return None,
        };
        let size = u64::try_from(range.hi - range.lo).ok()?.checked_add(1)?;
        points = points.checked_mul(size)?;
        if points > MAX_POINTS {
            return None;
        }
        ranges.push(range);
    }
    Some(Ok(ranges))
}

/// Tries every point of the box.
fn search(
    query: Query<'_>,
    simplified: Expr,
    clauses: &[Vec<Expr>],
    ranges: &[Range],
) -> Option<Answer> {
    let f = query.f;
    let points: u64 = ranges.iter().map(|r| (r.hi - r.lo + 1) as u64).product();
    let compiled: Option<(Vec<Compiled>, Compiled)> = (|| {
        let clauses = clauses
            .iter()
            .map(|c| {
                Some(Compiled::Or(
                    c.iter()
                        .map(|&l| compile(f, ranges, l))
                        .collect::<Option<_>>()?,
                ))
            })
            .collect::<Option<_>>()?;
        Some((clauses, compile(f, ranges, simplified)?))
    })();
    let mut current: Vec<i64> = ranges.iter().map(|r| r.lo).collect();
    match compiled {
        Some((clauses, predicate_code)) => loop {
            let mut inside = true;
            for c in &clauses {
                if c.eval(&current)? == 0 {
                    inside = false;
                    break;
                }
            }
            if inside && predicate_code.eval(&current)? == 0 {
                if let Some(answer) = settle(confirm(query, ranges, &current))? {
                    return Some(answer);
                }
            }
            if !advance(ranges, &mut current) {
                return Some(Answer::yes());
            }
        },
        // The exact evaluator is about a hundred times slower: small boxes only.
        None if points <= MAX_POINTS_EXACT => loop {
            let mut asg = Assignment::new();
            for (r, &v) in ranges.iter().zip(&current) {
                asg.set(r.symbol, value_of(r, v));
            }
            let mut inside = true;
            for clause in clauses {
                if !clause_holds(f, clause, &asg).ok()? {
                    inside = false;
                    break;
                }
            }
            if inside && !f.eval_bool(simplified, &asg).ok()? {
                if let Some(answer) = settle(confirm(query, ranges, &current))? {
                    return Some(answer);
                }
            }
            if !advance(ranges, &mut current) {
                return Some(Answer::yes());
            }
        },
        None => None,
    }
}

/// The clauses of `assumption` connected to `predicate` through shared constants.
fn slice(f: &ExprFactory, all: Vec<Vec<Expr>>, predicate: Expr) -> Vec<Vec<Expr>> {
    let clauses: Vec<(Vec<Expr>, Vec<Expr>)> = all
        .into_iter()
        .map(|clause| {
            let mut syms: Vec<Expr> = clause.iter().flat_map(|&l| constants(f, l)).collect();
            syms.sort_by(|&a, &b| f.compare(a, b));
            syms.dedup();
            (clause, syms)
        })
        .collect();
    let mut wanted: Vec<Expr> = constants(f, predicate);
    let mut taken = vec![false; clauses.len()];
    loop {
        let mut grew = false;
        for (i, (_, syms)) in clauses.iter().enumerate() {
            if !taken[i] && syms.iter().any(|x| wanted.contains(x)) {
                taken[i] = true;
                grew = true;
                for &x in syms {
                    if !wanted.contains(&x) {
                        wanted.push(x);
                    }
                }
            }
        }
        if !grew {
            break;
        }
    }
    clauses
        .into_iter()
        .zip(taken)
        .filter_map(|((clause, _), t)| t.then_some(clause))
        .collect()
}

fn clause_holds(
    f: &ExprFactory,
    clause: &[Expr],
    asg: &Assignment,
) -> Result<bool, tass_symbolic::api::EvalError> {
    for &lit in clause {
        if f.eval_bool(lit, asg)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Lower and upper integer bounds per constant.
type BoundsByConstant = hashbrown::HashMap<Expr, (Option<i64>, Option<i64>)>;

/// Integer bounds read directly off the unit clauses `k*x + c op 0` of an
/// assumption, per constant `x` (the simplifier may fold such a bound into an
/// equation row and not report it for `x` itself). Read in one pass, the first
/// time a range is asked for.
struct UnitBounds<'a> {
    f: &'a ExprFactory,
    assumption: Expr,
    bounds: std::cell::OnceCell<BoundsByConstant>,
}

impl<'a> UnitBounds<'a> {
    fn new(f: &'a ExprFactory, assumption: Expr) -> Self {
        UnitBounds {
            f,
            assumption,
            bounds: std::cell::OnceCell::new(),
        }
    }

    /// The (lower, upper) bounds the unit clauses give `x`.
    fn of(&self, x: Expr) -> (Option<i64>, Option<i64>) {
        let bounds = self
            .bounds
            .get_or_init(|| read_unit_bounds(self.f, self.assumption));
        bounds.get(&x).copied().unwrap_or((None, None))
    }
}

fn read_unit_bounds(f: &ExprFactory, assumption: Expr) -> BoundsByConstant {
    let mut out = BoundsByConstant::new();
    for clause in f.cnf_clauses(assumption) {
        let [lit] = clause.as_slice() else { continue };
        let ExprView::Rel(op, g) = f.view(*lit) else {
            continue;
        };
        // One symbol with a coefficient, plus a constant.
        let mut x = None;
        let mut c = BigRational::from_integer(0.into());
        let mut linear = true;
        for (coef, mono) in f.poly_terms(g) {
            if let Some(v) = f.as_concrete_rational(mono) {
                c += coef * v;
            } else if x.is_none() && f.is_symbol(mono) {
                x = Some((mono, coef));
            } else {
                linear = false;
            }
        }
        let (Some((x, k)), true) = (x, linear) else {
            continue;
        };
        let (lo, hi) = out.entry(x).or_insert((None, None));
        // k*x + c op 0  <=>  x op' -c/k.
        let point = -c / &k;
        let positive = k > BigRational::from_integer(0.into());
        let mut at_least = |v: Option<i64>| {
            if let Some(v) = v {
                *lo = Some(lo.map_or(v, |l| l.max(v)));
            }
        };
        let strict = op == RelOp::Gt;
        match op {
            RelOp::Eq if point.is_integer() => {
                let v = point.to_integer().to_i64();
                at_least(v);
                if let Some(v) = v {
                    *hi = Some(hi.map_or(v, |h| h.min(v)));
                }
            }
            RelOp::Gt | RelOp::Ge if positive => {
                at_least(ceil_bound(
                    &Bound {
                        value: point,
                        strict,
                    },
                    true,
                ));
            }
            RelOp::Gt | RelOp::Ge => {
                if let Some(v) = ceil_bound(
                    &Bound {
                        value: point,
                        strict,
                    },
                    false,
                ) {
                    *hi = Some(hi.map_or(v, |h| h.min(v)));
                }
            }
            RelOp::Eq | RelOp::Ne => {}
        }
    }
    out
}

/// The least integer in a lower bound (`lower`), or the greatest in an upper one.
fn ceil_bound(b: &Bound, lower: bool) -> Option<i64> {
    let v: &BigRational = &b.value;
    let i: BigInt = if lower {
        let c = v.ceil().to_integer();
        if b.strict && v.is_integer() {
            c + 1
        } else {
            c
        }
    } else {
        let fl = v.floor().to_integer();
        if b.strict && v.is_integer() {
            fl - 1
        } else {
            fl
        }
    };
    // Keep far from i64's ends: `hi - lo + 1` must not overflow.
    let i = i.to_i64()?;
    // (`unsigned_abs`: `i64::MIN.abs()` overflows)
    (i.unsigned_abs() < (1 << 40)).then_some(i)
}

fn value_of(r: &Range, v: i64) -> Value {
    if r.is_bool {
        Value::Bool(v != 0)
    } else {
        Value::Int(v.into())
    }
}

/// The next point of the box in odometer order; false after the last.
fn advance(ranges: &[Range], current: &mut [i64]) -> bool {
    for (r, v) in ranges.iter().zip(current.iter_mut()) {
        if *v < r.hi {
            *v += 1;
            return true;
        }
        *v = r.lo;
    }
    false
}

/// What a point where the simplified predicate fails turns out to be.
enum Candidate {
    /// A counterexample of the original implication (checked by evaluation).
    Counterexample(Answer),
    /// Not a solution of the original assumption: every constant's value is forced
    /// by the point (eliminated constants by their equations) and the assumption is
    /// false there. The search goes on.
    Excluded,
    /// Neither could be shown.
    Unknown,
}

/// What the search does with a candidate: `None` gives up, `Some(Some(answer))`
/// answers, `Some(None)` goes on to the next point.
fn settle(candidate: Candidate) -> Option<Option<Answer>> {
    match candidate {
        Candidate::Counterexample(answer) => Some(Some(answer)),
        Candidate::Excluded => Some(None),
        Candidate::Unknown => None,
    }
}

/// Completes the point with the eliminated constants' values and evaluates the
/// original `assumption` and `predicate` there.
fn confirm(query: Query<'_>, ranges: &[Range], current: &[i64]) -> Candidate {
    let Query {
        f,
        s,
        assumption,
        predicate,
    } = query;
    let mut asg = Assignment::new();
    for (r, &v) in ranges.iter().zip(current) {
        asg.set(r.symbol, value_of(r, v));
    }
    // The eliminated constants take the values their equations give (which may
    // mention other eliminated constants: a few passes).
    let mut pending: Vec<(Expr, Expr)> = s
        .eliminated()
        .iter()
        .copied()
        .filter(|&(x, _)| asg.get(x).is_none())
        .collect();
    for _ in 0..4 {
        pending.retain(|&(x, value)| {
            let v = match (f.eval(value, &asg), f.type_of(x)) {
                (Ok(Value::Int(i)), Type::Int) => Value::Int(i),
                (Ok(Value::Real(q)), Type::Int) if q.is_integer() => Value::Int(q.to_integer()),
                // An integer constant equal to a non-integer: no solution has these
                // values. Evaluating the assumption shows it (the value is kept
                // truncated, which falsifies the equation).
                (Ok(Value::Real(q)), Type::Int) => Value::Int(q.trunc().to_integer()),
                (Ok(v @ Value::Real(_)), Type::Real) | (Ok(v @ Value::Bool(_)), Type::Bool) => v,
                _ => return true,
            };
            asg.set(x, v);
            false
        });
        if pending.is_empty() {
            break;
        }
    }
    if !pending.is_empty() {
        return Candidate::Unknown;
    }
    // Constants that no longer occur take a default value: the completion is no
    // longer forced by the point.
    let mut forced = true;
    let mut symbols = constants(f, assumption);
    symbols.extend(constants(f, predicate));
    symbols.sort_by(|&a, &b| f.compare(a, b));
    symbols.dedup();
    for &x in &symbols {
        if asg.get(x).is_some() {
            continue;
        }
        let v = match f.type_of(x) {
            Type::Int => Value::Int(BigInt::from(0)),
            Type::Real => Value::Real(BigRational::from_integer(0.into())),
            Type::Bool => Value::Bool(false),
            _ => return Candidate::Unknown,
        };
        forced = false;
        asg.set(x, v);
    }
    match (f.eval_bool(assumption, &asg), f.eval_bool(predicate, &asg)) {
        (Ok(true), Ok(false)) => {}
        (Ok(false), _) if forced => return Candidate::Excluded,
        _ => return Candidate::Unknown,
    }
    let mut model = Model::new();
    for x in symbols {
        let name = f.symbol_name(x).map(|n| n.to_string()).unwrap_or_default();
        let mv = match asg.get(x) {
            Some(Value::Int(i)) => ModelValue::Int(i.clone()),
            Some(Value::Real(q)) => ModelValue::Real(q.clone()),
            Some(Value::Bool(b)) => ModelValue::Bool(*b),
            _ => continue,
        };
        model.insert(name, mv);
    }
    Candidate::Counterexample(Answer::no(Some(model)))
}

/// An integer or boolean formula compiled for fast evaluation at many points with
/// machine integers. Arithmetic is checked: an overflow abandons the enumeration
/// (the exact evaluator is not used instead, to keep the cost bounded).
#[derive(Debug)]
enum Compiled {
    Const(i64),
    /// The value at the point of the constant with this index in the box.
    Var(usize),
    /// `sum coef_i * term_i`.
    Sum(Vec<(i64, Compiled)>),
    Product(Vec<Compiled>),
    Pow(Box<Compiled>, u32),
    /// C `/` and `%` (truncating; `x / 0 == 0`, `x % 0 == x`).
    Div(Box<Compiled>, Box<Compiled>),
    Rem(Box<Compiled>, Box<Compiled>),
    /// Booleans are 0 / 1.
    Rel(RelOp, Box<Compiled>),
    And(Vec<Compiled>),
    Or(Vec<Compiled>),
    Not(Box<Compiled>),
    Ite(Box<Compiled>, Box<Compiled>, Box<Compiled>),
    /// A bitwise operator (two's complement; shifts by a negative amount, and
    /// left shifts that leave `i64`, abandon the evaluation).
    Bit(BitOp, Box<Compiled>, Box<Compiled>),
}

/// Compiles `e` over the constants of `ranges`; `None` for anything else
/// (reals, arrays, functions, casts, quantifiers, numbers beyond `i64`).
fn compile(f: &ExprFactory, ranges: &[Range], e: Expr) -> Option<Compiled> {
    let ty = f.type_of(e);
    if !matches!(ty, Type::Int | Type::Bool) {
        return None;
    }
    Some(match f.view(e) {
        ExprView::Bool(b) => Compiled::Const(b as i64),
        ExprView::Int(i) => Compiled::Const(i.to_i64()?),
        ExprView::Symbol(_) => Compiled::Var(ranges.iter().position(|r| r.symbol == e)?),
        ExprView::Add(_) | ExprView::Mul(_) | ExprView::Pow(..) => {
            let terms = f.poly_terms(e);
            if let [(coef, mono)] = terms.as_slice() {
                if coef.is_one() && *mono == e {
                    // A monomial: a product of atoms and powers.
                    return match f.view(e) {
                        ExprView::Mul(kids) => Some(Compiled::Product(
                            kids.into_iter()
                                .map(|k| compile(f, ranges, k))
                                .collect::<Option<_>>()?,
                        )),
                        ExprView::Pow(x, k) => {
                            Some(Compiled::Pow(Box::new(compile(f, ranges, x)?), k))
                        }
                        _ => None,
                    };
                }
            }
            let mut sum = Vec::with_capacity(terms.len());
            for (coef, mono) in terms {
                if !coef.is_integer() {
                    return None;
                }
                let c = coef.to_integer().to_i64()?;
                let term = if let Some(k) = f.as_concrete_int(mono) {
                    Compiled::Const(k.to_i64()?)
                } else {
                    compile(f, ranges, mono)?
                };
                sum.push((c, term));
            }
            Compiled::Sum(sum)
        }
        ExprView::IntDiv(a, b) => Compiled::Div(
            Box::new(compile(f, ranges, a)?),
            Box::new(compile(f, ranges, b)?),
        ),
        ExprView::IntMod(a, b) => Compiled::Rem(
            Box::new(compile(f, ranges, a)?),
            Box::new(compile(f, ranges, b)?),
        ),
        ExprView::Rel(op, g) => Compiled::Rel(op, Box::new(compile(f, ranges, g)?)),
        ExprView::And(kids) => Compiled::And(
            kids.into_iter()
                .map(|k| compile(f, ranges, k))
                .collect::<Option<_>>()?,
        ),
        ExprView::Or(kids) => Compiled::Or(
            kids.into_iter()
                .map(|k| compile(f, ranges, k))
                .collect::<Option<_>>()?,
        ),
        ExprView::Not(a) => Compiled::Not(Box::new(compile(f, ranges, a)?)),
        ExprView::Ite(c, a, b) => Compiled::Ite(
            Box::new(compile(f, ranges, c)?),
            Box::new(compile(f, ranges, a)?),
            Box::new(compile(f, ranges, b)?),
        ),
        ExprView::Apply(function, args) => match (bitwise_operator(f, function), &args[..]) {
            (Some(op), &[a, b]) => Compiled::Bit(
                op,
                Box::new(compile(f, ranges, a)?),
                Box::new(compile(f, ranges, b)?),
            ),
            _ => return None,
        },
        _ => return None,
    })
}

/// `a op b` on machine integers, as [`BitOp::apply`] computes it on big ones;
/// `None` where that gives up (negative shifts) or the result leaves `i64`.
fn bitwise_i64(op: BitOp, a: i64, b: i64) -> Option<i64> {
    Some(match op {
        BitOp::And => a & b,
        BitOp::Or => a | b,
        BitOp::Xor => a ^ b,
        BitOp::Shl => {
            let k = u32::try_from(b).ok()?;
            if a == 0 {
                0
            } else {
                a.checked_mul(1i64.checked_shl(k).filter(|&m| m > 0)?)?
            }
        }
        // Arithmetic shift rounds toward minus infinity, as on big integers.
        BitOp::Shr => {
            let k = u32::try_from(b).ok()?;
            a >> k.min(63)
        }
    })
}

impl Compiled {
    /// The value at `point`; `None` on overflow.
    fn eval(&self, point: &[i64]) -> Option<i64> {
        Some(match self {
            Compiled::Const(c) => *c,
            Compiled::Var(i) => point[*i],
            Compiled::Sum(terms) => {
                let mut acc: i64 = 0;
                for (c, t) in terms {
                    acc = acc.checked_add(c.checked_mul(t.eval(point)?)?)?;
                }
                acc
            }
            Compiled::Product(kids) => {
                let mut acc: i64 = 1;
                for k in kids {
                    acc = acc.checked_mul(k.eval(point)?)?;
                }
                acc
            }
            Compiled::Pow(x, k) => x.eval(point)?.checked_pow(*k)?,
            Compiled::Div(a, b) => {
                let (x, y) = (a.eval(point)?, b.eval(point)?);
                if y == 0 {
                    0
                } else {
                    x.checked_div(y)?
                }
            }
            Compiled::Rem(a, b) => {
                let (x, y) = (a.eval(point)?, b.eval(point)?);
                if y == 0 {
                    x
                } else {
                    x.checked_rem(y)?
                }
            }
            Compiled::Rel(op, g) => {
                let v = g.eval(point)?;
                (match op {
                    RelOp::Gt => v > 0,
                    RelOp::Ge => v >= 0,
                    RelOp::Eq => v == 0,
                    RelOp::Ne => v != 0,
                }) as i64
            }
            Compiled::And(kids) => {
                for k in kids {
                    if k.eval(point)? == 0 {
                        return Some(0);
                    }
                }
                1
            }
            Compiled::Or(kids) => {
                for k in kids {
                    if k.eval(point)? != 0 {
                        return Some(1);
                    }
                }
                0
            }
            Compiled::Not(a) => (a.eval(point)? == 0) as i64,
            Compiled::Ite(c, a, b) => {
                if c.eval(point)? != 0 {
                    a.eval(point)?
                } else {
                    b.eval(point)?
                }
            }
            Compiled::Bit(op, a, b) => bitwise_i64(*op, a.eval(point)?, b.eval(point)?)?,
        })
    }
}
