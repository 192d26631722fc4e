//! Floating-point operations at the three arithmetic levels (`--arith`,
//! comparative symbolic execution paper, Sec. 2.2 and 4.1).
//!
//! At `real` level `float`/`double` are the mathematical reals and this module is
//! not used. At `herbrand` and `ieee` level every floating operation is an
//! uninterpreted function symbol applied to its operands (a `Real`-valued
//! `Apply` node of `tass-symbolic`, whose ring operations never look inside it):
//! two values are equal exactly when their trees are identical. Comparisons are
//! uninterpreted boolean predicates (`fp_lt`, `fp_le`, `fp_eq`), so that no real
//! reasoning (trichotomy, `x == x`, ...) is applied to values that may be NaN.
//!
//! Folding: an operation whose operands are all concrete is computed when IEEE 754
//! fixes the result bit for bit (basic operations, `sqrt`, conversions, in round to
//! nearest with `FLT_EVAL_METHOD == 0`) and the result is finite: `ExprFactory::apply`
//! does it (`tass-symbolic`'s `ieee.rs`), also after a substitution. A `-0`, which
//! no exact rational stands for, is the tree `neg(0)`, taken and given in that form. Literals are rounded to
//! their type here, so concrete floating values are exact values of their type.
//!
//! At `ieee` level a few identities valid for every IEEE double, infinities, NaN
//! and signed zeros included, are applied when a node is built (see
//! `docs/guide.md`, "Arithmetic levels"): commutativity of `+` and `*` (operands
//! ordered), `x*1 = x`, `x/1 = x`, `x*(-1) = -x`, `x/(-1) = -x`, `x - y = x + (-y)`,
//! `x + (-0) = x`, `-(-x) = x`, `(-x)*y = -(x*y)` and `(-x)/y = x/(-y) = -(x/y)`.

use std::sync::Arc;

use num_traits::{ToPrimitive, Zero};
use tass_model::api::{Comparison, RealKind};
use tass_symbolic::api::{
    ieee_value, Assignment, BigInt, BigRational, Expr, ExprFactory, ExprView, FunctionValue, Type,
    Value,
};

/// How floating-point numbers are interpreted (`--arith`): the one type for this
/// choice, re-exported by `tass-state` and `tass-verify`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Arith {
    /// Integers are mathematical integers, floating types are the reals (default).
    #[default]
    Real,
    /// Herbrand arithmetic plus the identities every IEEE 754 double obeys.
    Ieee,
    /// Floating operations are uninterpreted (equal results = identical trees).
    Herbrand,
}

impl std::str::FromStr for Arith {
    type Err = String;

    /// Parses `real|ieee|herbrand`.
    fn from_str(text: &str) -> Result<Arith, String> {
        match text {
            "real" => Ok(Arith::Real),
            "ieee" => Ok(Arith::Ieee),
            "herbrand" => Ok(Arith::Herbrand),
            other => Err(format!(
                "unknown arithmetic `{other}`: expected real, ieee or herbrand"
            )),
        }
    }
}

/// Whether an integer-to-floating conversion is exact for every value of the
/// integer's type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Exactness {
    Exact,
    MayRound,
}

/// The comparison `c` of two exact values (integers, rationals, byte offsets,
/// indices): the factory's relations, without the IEEE rules.
pub(crate) fn compare_exact(f: &ExprFactory, c: Comparison, (x, y): (Expr, Expr)) -> Expr {
    match c {
        Comparison::Lt => f.lt(x, y),
        Comparison::Le => f.le(x, y),
        Comparison::Gt => f.gt(x, y),
        Comparison::Ge => f.ge(x, y),
        Comparison::Eq => f.eq(x, y),
        Comparison::Ne => f.ne(x, y),
    }
}

/// The prefix of the operator names of one floating type.
fn prefix(kind: RealKind) -> &'static str {
    match kind {
        RealKind::Float => "f32",
        RealKind::Double => "f64",
        RealKind::LongDouble => "fld",
    }
}

/// True for the name of a floating operator or comparison made by this module:
/// an uninterpreted stand-in for an IEEE operation, so a prover's model for it
/// proves nothing about real machines.
pub fn is_float_operator(name: &str) -> bool {
    ["f32_", "f64_", "fld_", "fp_"]
        .iter()
        .any(|p| name.starts_with(p))
}

/// The exact value of `r` as a double, if it is one.
fn exact_f64(r: &BigRational) -> Option<f64> {
    let d = r.to_f64()?;
    (d.is_finite() && BigRational::from_float(d).as_ref() == Some(r)).then_some(d)
}

/// The rational standing for a finite double other than `-0`.
fn rational_of(d: f64) -> Option<BigRational> {
    if !d.is_finite() || (d == 0.0 && d.is_sign_negative()) {
        return None;
    }
    BigRational::from_float(d)
}

/// Builds floating expressions of one type at one level (not `Real`).
pub(crate) struct Floats<'a> {
    f: &'a ExprFactory,
    level: Arith,
    kind: RealKind,
}

impl<'a> Floats<'a> {
    pub(crate) fn new(f: &'a ExprFactory, level: Arith, kind: RealKind) -> Self {
        Floats { f, level, kind }
    }

    fn ieee(&self) -> bool {
        self.level == Arith::Ieee
    }

    fn apply(&self, op: &str, args: &[Expr], result: Type) -> Expr {
        let f = self.f;
        let name = if op.starts_with("fp_") {
            op.to_string()
        } else {
            format!("{}_{op}", prefix(self.kind))
        };
        let tys: Vec<Type> = args.iter().map(|&x| f.type_of(x)).collect();
        f.apply(f.symbol(&name, Type::function(tys, result)), args)
    }

    /// The value of the literal whose exact value is `r` (`text`: its spelling,
    /// for a correctly rounded `float` parse).
    pub(crate) fn literal(&self, r: &BigRational, text: Option<&str>) -> Expr {
        let f = self.f;
        if r.is_zero() && text.is_some_and(|t| t.trim_start().starts_with('-')) {
            // `-0.0` (the front end folds the sign into the literal): not +0.
            return self.neg(f.real(BigRational::zero()));
        }
        let rounded = match self.kind {
            RealKind::Double => r.to_f64().and_then(rational_of),
            RealKind::Float => {
                // Rounding through a double is double rounding unless the double
                // is exact; a decimal spelling is parsed directly.
                let single = match exact_f64(r) {
                    Some(d) => Some(d as f32),
                    None => text.and_then(|t| t.parse::<f32>().ok()),
                };
                single.and_then(|s| rational_of(s as f64))
            }
            RealKind::LongDouble => exact_f64(r).and_then(rational_of),
        };
        match rounded {
            Some(q) => f.real(q),
            // The literal rounded by the machine: a function of its exact value.
            None => self.apply("literal", &[f.real(r.clone())], Type::Real),
        }
    }

    /// An integer converted to this type; `exact`: every value of the integer's C
    /// type is a value of this type (`int` to `double`), so the conversion is the
    /// identity on values (`of_int`, compared as integers by [`Floats::compare`]);
    /// otherwise it may round (`of_wide_int`).
    pub(crate) fn of_int(&self, i: Expr, exact: Exactness) -> Expr {
        match exact {
            Exactness::Exact => self.apply("of_int", &[i], Type::Real),
            Exactness::MayRound => self.apply("of_wide_int", &[i], Type::Real),
        }
    }

    /// Whether every integer of `bits` bits is a value of this type.
    pub(crate) fn holds_integers_of(&self, bits: u32) -> Exactness {
        let mantissa = match self.kind {
            RealKind::Float => 24,
            RealKind::Double | RealKind::LongDouble => 53,
        };
        if bits <= mantissa {
            Exactness::Exact
        } else {
            Exactness::MayRound
        }
    }

    /// The integer `x` stands for exactly: an exact conversion `of_int(i)` or a
    /// concrete integer.
    fn exact_integer(&self, x: Expr) -> Option<Expr> {
        let f = self.f;
        if let Some(q) = f.as_concrete_rational(x) {
            return q.is_integer().then(|| f.int(q.to_integer()));
        }
        match f.view(x) {
            ExprView::Apply(g, args)
                if args.len() == 1 && f.symbol_name(g).is_some_and(|n| n.ends_with("_of_int")) =>
            {
                Some(args[0])
            }
            _ => None,
        }
    }

    /// A value of floating type `from` converted to this type.
    pub(crate) fn convert_from(&self, from: RealKind, x: Expr) -> Expr {
        if from == self.kind {
            return x;
        }
        self.apply(&format!("of_{}", prefix(from)), &[x], Type::Real)
    }

    fn is_concrete(&self, x: Expr, value: i64) -> bool {
        self.f
            .as_concrete_rational(x)
            .is_some_and(|q| q == BigRational::from_integer(BigInt::from(value)))
    }

    /// `y` when `x` is `-y`: a negation node of this type, or a negative constant.
    fn negated(&self, x: Expr) -> Option<Expr> {
        let f = self.f;
        if let Some(q) = f.as_concrete_rational(x) {
            return (q < BigRational::zero()).then(|| f.real(-q));
        }
        match f.view(x) {
            ExprView::Apply(g, args)
                if args.len() == 1
                    && f.symbol_name(g).as_deref()
                        == Some(&format!("{}_neg", prefix(self.kind))) =>
            {
                Some(args[0])
            }
            _ => None,
        }
    }

    /// `-x` (exact in IEEE: the sign bit flips).
    pub(crate) fn neg(&self, x: Expr) -> Expr {
        if self.ieee() {
            if let Some(inner) = self.negated(x) {
                return inner;
            }
        }
        self.apply("neg", &[x], Type::Real)
    }

    /// Orders the operands of a commutative operator at ieee level.
    fn commuted(&self, x: Expr, y: Expr) -> (Expr, Expr) {
        if self.ieee() && y < x {
            (y, x)
        } else {
            (x, y)
        }
    }

    pub(crate) fn add(&self, x: Expr, y: Expr) -> Expr {
        if self.ieee() {
            // x + (-0) = x, for x = +0, -0, inf, NaN alike.
            for (a, b) in [(x, y), (y, x)] {
                if self.negated(b).is_some_and(|z| self.is_concrete(z, 0)) {
                    return a;
                }
            }
        }
        let (x, y) = self.commuted(x, y);
        self.apply("add", &[x, y], Type::Real)
    }

    pub(crate) fn sub(&self, x: Expr, y: Expr) -> Expr {
        if self.ieee() {
            // x - y = x + (-y): the same exact value rounded, with the same zero signs.
            return self.add(x, self.neg(y));
        }
        self.apply("sub", &[x, y], Type::Real)
    }

    /// `-(a op y)` for `x == -a`, `-(x op b)` for `y == -b`, where `op` is
    /// `*` or `/`: round to nearest is symmetric in sign, `(-a) * b ==
    /// -(a * b)` and `(-a) / b == -(a / b)`, signs of zeros too.
    fn negation_out(&self, x: Expr, y: Expr, op: fn(&Self, Expr, Expr) -> Expr) -> Option<Expr> {
        if let Some(a) = self.negated(x) {
            return Some(self.neg(op(self, a, y)));
        }
        if let Some(b) = self.negated(y) {
            return Some(self.neg(op(self, x, b)));
        }
        None
    }

    pub(crate) fn mul(&self, x: Expr, y: Expr) -> Expr {
        if self.ieee() {
            for (a, b) in [(x, y), (y, x)] {
                if self.is_concrete(b, 1) {
                    return a;
                }
                if self.is_concrete(b, -1) {
                    return self.neg(a);
                }
            }
            if let Some(e) = self.negation_out(x, y, Self::mul) {
                return e;
            }
        }
        let (x, y) = self.commuted(x, y);
        self.apply("mul", &[x, y], Type::Real)
    }

    pub(crate) fn div(&self, x: Expr, y: Expr) -> Expr {
        if self.ieee() {
            if self.is_concrete(y, 1) {
                return x;
            }
            if self.is_concrete(y, -1) {
                return self.neg(x);
            }
            if let Some(e) = self.negation_out(x, y, Self::div) {
                return e;
            }
        }
        self.apply("div", &[x, y], Type::Real)
    }

    /// A comparison of two values of this type (an IEEE predicate: false when an
    /// operand is NaN, except `!=`).
    /// (`a > b` is `b < a` and `a >= b` is `b <= a`: the same IEEE predicates
    /// with the operands swapped.)
    pub(crate) fn compare(&self, op: Comparison, x: Expr, y: Expr) -> Expr {
        let f = self.f;
        use Comparison::*;
        if let (Some(a), Some(b)) = (f.as_concrete_rational(x), f.as_concrete_rational(y)) {
            return f.bool(op.holds(a, b));
        }
        // Exactly converted integers compare as the integers (no NaN among them).
        if let (Some(i), Some(j)) = (self.exact_integer(x), self.exact_integer(y)) {
            return compare_exact(f, op, (i, j));
        }
        let (name, a, b) = match op {
            Lt => ("fp_lt", x, y),
            Le => ("fp_le", x, y),
            Gt => ("fp_lt", y, x),
            Ge => ("fp_le", y, x),
            // Equality is symmetric for every pair of doubles, NaN included.
            Eq | Ne => ("fp_eq", x.min(y), x.max(y)),
        };
        let atom = self.apply(name, &[a, b], Type::Bool);
        if op == Ne {
            f.not(atom)
        } else {
            atom
        }
    }

    /// `x != 0`, the truth value of a floating value.
    pub(crate) fn truth(&self, x: Expr) -> Expr {
        self.compare(Comparison::Ne, x, self.f.real(BigRational::zero()))
    }

    /// A `<math.h>` function of this type on `args` (already of this type). `sqrt`,
    /// `fabs`, `floor`, `ceil` are folded on concrete operands (IEEE fixes their
    /// results); `exp(0) = 1`, `cos(0) = 1`, `sin(0) = 0`, `log(1) = 0` and
    /// `pow(x, 0) = 1` are exact in C's Annex F; nothing else is folded (libm's
    /// results differ between machines).
    pub(crate) fn math(&self, name: &str, args: &[Expr]) -> Expr {
        let f = self.f;
        let annex_f = match (name, args) {
            ("exp" | "cos", [x]) if self.is_concrete(*x, 0) => Some(1),
            ("sin", [x]) if self.is_concrete(*x, 0) => Some(0),
            ("log", [x]) if self.is_concrete(*x, 1) => Some(0),
            ("pow", [_, y]) if self.is_concrete(*y, 0) => Some(1),
            _ => None,
        };
        if let Some(k) = annex_f {
            return f.real(BigRational::from_integer(BigInt::from(k)));
        }
        self.apply(name, args, Type::Real)
    }
}

/// The value of a floating input of C type `kind` fixed with `-i` to the exact
/// number `r`: at herbrand/ieee level the number as the program would hold it,
/// rounded to that type like a literal (so IEEE folding goes through it);
/// `None` at real level, where numbers stay exact.
pub fn fixed_floating_value(
    f: &ExprFactory,
    level: Arith,
    kind: RealKind,
    r: &BigRational,
) -> Option<Expr> {
    (level != Arith::Real).then(|| Floats::new(f, level, kind).literal(r, None))
}

/// IEEE's negative zero of C type `kind`, for a floating input fixed with
/// `-i NAME=-0.0`: the tree `-(0)` (as the literal `-0.0` gives) at herbrand/ieee
/// level; `None` at real level, where there is no negative zero (`-0 = 0`).
pub fn fixed_negative_zero(f: &ExprFactory, level: Arith, kind: RealKind) -> Option<Expr> {
    (level != Arith::Real).then(|| Floats::new(f, level, kind).neg(f.real(BigRational::zero())))
}

/// `a op b` for an MPI reduction operation (`MPI_SUM`, `MPI_PROD`, `MPI_MIN`,
/// `MPI_MAX`) on floating values at herbrand/ieee level: an uninterpreted operator
/// (`fp_mpi_sum`, ...) with no IEEE interpretation, applied in rank order. MPI
/// does not fix the order in which an implementation combines the contributions,
/// so a reduction is never equal to an explicit sum of the same values; two
/// reductions of the same values in the same rank order are taken as equal (the
/// determinism the MPI standard recommends). `None` for other operations.
pub fn float_reduction(f: &ExprFactory, mpi_op: &str, a: Expr, b: Expr) -> Option<Expr> {
    let name = match mpi_op {
        "MPI_SUM" => "fp_mpi_sum",
        "MPI_PROD" => "fp_mpi_prod",
        "MPI_MIN" => "fp_mpi_min",
        "MPI_MAX" => "fp_mpi_max",
        _ => return None,
    };
    let ty = Type::function([Type::Real, Type::Real], Type::Real);
    Some(f.apply(f.symbol(name, ty), &[a, b]))
}

/// The first pair of subterms at which the trees of `a` and `b` differ: while
/// both are applications of the same operator, the first differing pair of
/// arguments is followed; `None` if `a == b`.
pub fn first_difference(f: &ExprFactory, a: Expr, b: Expr) -> Option<(Expr, Expr)> {
    if a == b {
        return None;
    }
    let (mut a, mut b) = (a, b);
    loop {
        match (f.view(a), f.view(b)) {
            (ExprView::Apply(g, xs), ExprView::Apply(h, ys)) if g == h && xs.len() == ys.len() => {
                let Some((x, y)) = xs.into_iter().zip(ys).find(|(x, y)| x != y) else {
                    return Some((a, b));
                };
                (a, b) = (x, y);
            }
            _ => return Some((a, b)),
        }
    }
}

/// `a == b` as IEEE doubles compare them (`fp_eq`) for real-typed values, `a == b`
/// otherwise: the claim [`confirm_in_doubles`] evaluates for an output equality.
pub fn float_equal(f: &ExprFactory, a: Expr, b: Expr) -> Expr {
    if f.type_of(a) == Type::Real {
        Floats::new(f, Arith::Herbrand, RealKind::Double).compare(Comparison::Eq, a, b)
    } else {
        f.eq(a, b)
    }
}

/// `a < b` on floating values at herbrand/ieee level (the IEEE predicate `fp_lt`).
pub fn float_less(f: &ExprFactory, a: Expr, b: Expr) -> Expr {
    Floats::new(f, Arith::Herbrand, RealKind::Double).compare(Comparison::Lt, a, b)
}

/// The IEEE meaning of operator `name` (`tass_symbolic`'s `ieee_value`), for
/// evaluation; `None` for a symbol that is no floating operator.
fn interpretation(name: &str) -> Option<FunctionValue> {
    if !is_float_operator(name) {
        return None;
    }
    let name = name.to_string();
    Some(Arc::new(move |xs: &[Value]| ieee_value(&name, xs)))
}

/// True if `e` has no real (exact) arithmetic on real-typed values: a sum, product
/// or quotient of reals, or a real relation, would be evaluated exactly, which no
/// machine does (at herbrand/ieee level they come only from a real-level source,
/// e.g. an output equality `a - b == 0`: compare asks with `fp_eq` instead).
fn machine_arithmetic_only(f: &ExprFactory, e: Expr) -> bool {
    let mut seen = std::collections::HashSet::new();
    let mut todo = vec![e];
    while let Some(x) = todo.pop() {
        if !seen.insert(x) {
            continue;
        }
        let real = |y: Expr| f.type_of(y) == Type::Real;
        let exact = match f.view(x) {
            ExprView::Add(_) | ExprView::Mul(_) | ExprView::Pow(..) | ExprView::Div(..) => real(x),
            ExprView::ToReal(_) => true,
            ExprView::Rel(_, g) => real(g),
            _ => false,
        };
        if exact {
            return false;
        }
        todo.extend(f.children(x));
    }
    true
}

/// Candidate doubles for a witness search: numbers whose sums and products round
/// visibly, small integers, and a large magnitude.
const DOUBLE_CANDIDATES: [f64; 12] = [
    0.1, 0.2, 0.3, 1.0, 3.0, 0.7, 1e16, -1.0, 2.0, 0.5, 1e-3, -0.3,
];
const INT_CANDIDATES: [i64; 6] = [0, 1, 2, 3, -1, 5];

/// Searches concrete doubles for the scalar inputs of `assumption` and `claim`
/// at which, evaluated in IEEE double (and single) arithmetic, the assumption holds
/// and the claim is false: a counterexample confirmed on real machines. Returns
/// the values (as decimal doubles) or `None` if no candidate among a few thousand
/// works, or if something (an array, a libm function) cannot be evaluated.
pub fn confirm_in_doubles(
    f: &ExprFactory,
    assumption: Expr,
    claim: Expr,
) -> Option<Vec<(String, String)>> {
    if !machine_arithmetic_only(f, assumption) || !machine_arithmetic_only(f, claim) {
        return None;
    }
    let mut asg = Assignment::new();
    let mut inputs = Vec::new();
    for s in f
        .free_symbols(assumption)
        .into_iter()
        .chain(f.free_symbols(claim))
    {
        if let Type::Function(..) = f.type_of(s) {
            let name = f.symbol_name(s)?;
            asg.set_function(s, interpretation(&name)?);
        } else if !inputs.contains(&s) {
            inputs.push(s);
        }
    }
    if inputs.len() > 12 {
        return None;
    }
    // Scalars first: an array's extent may be an input (`double a[N]`).
    inputs.sort_by_key(|&s| matches!(f.type_of(s), Type::Array(..)));
    let mut picks = Picks {
        state: 0x9e37_79b9_7f4a_7c15,
        next_in_order: 0,
        in_order: true,
    };
    for attempt in 0..4000u64 {
        // The first attempt walks the candidates in order (0.1, 0.2, 0.3 for three
        // inputs); then pseudo-random choices.
        picks.in_order = attempt == 0;
        picks.next_in_order = 0;
        for &s in &inputs {
            let value = candidate(f, &asg, &f.type_of(s), &mut picks, 64)?;
            asg.set(s, value);
        }
        if f.eval_bool(assumption, &asg) == Ok(true) && f.eval_bool(claim, &asg) == Ok(false) {
            return Some(
                inputs
                    .iter()
                    .filter_map(|&s| Some((f.symbol_name(s)?.to_string(), show(asg.get(s)?)?)))
                    .collect(),
            );
        }
    }
    None
}

/// The choices of a witness search: in order first, then pseudo-random.
struct Picks {
    state: u64,
    next_in_order: usize,
    in_order: bool,
}

impl Picks {
    fn next(&mut self) -> usize {
        self.state = self
            .state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        if self.in_order {
            self.next_in_order += 1;
            self.next_in_order - 1
        } else {
            (self.state >> 33) as usize
        }
    }
}

/// A candidate value of type `ty`: arrays whose extent is known under `asg` (at
/// most `room` scalars in all) get candidates element by element.
fn candidate(
    f: &ExprFactory,
    asg: &Assignment,
    ty: &Type,
    picks: &mut Picks,
    room: usize,
) -> Option<Value> {
    Some(match ty {
        Type::Real => Value::Real(rational_of(
            DOUBLE_CANDIDATES[picks.next() % DOUBLE_CANDIDATES.len()],
        )?),
        Type::Int => Value::Int(BigInt::from(
            INT_CANDIDATES[picks.next() % INT_CANDIDATES.len()],
        )),
        Type::Bool => Value::Bool(picks.next().is_multiple_of(2)),
        Type::Array(elem, Some(extent)) => {
            let n = match f.eval(*extent, asg).ok()? {
                Value::Int(n) => n.to_usize()?,
                _ => return None,
            };
            if n == 0 || n > room {
                return None;
            }
            let mut items = Vec::with_capacity(n);
            for _ in 0..n {
                items.push(candidate(f, asg, elem, picks, room / n)?);
            }
            Value::Array(items)
        }
        _ => return None,
    })
}

/// A witness value as C writes it (`0.1`, `3`, `{0.1, 0.2}`).
fn show(v: &Value) -> Option<String> {
    Some(match v {
        Value::Real(q) => format!("{:?}", q.to_f64()?),
        Value::Int(i) => i.to_string(),
        Value::Bool(b) => b.to_string(),
        Value::Array(items) => {
            let parts: Option<Vec<String>> = items.iter().map(show).collect();
            format!("{{{}}}", parts?.join(", "))
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn double(f: &ExprFactory, d: f64) -> Expr {
        f.real(BigRational::from_float(d).unwrap())
    }

    #[test]
    fn literals_round_to_the_nearest_double() {
        let f = ExprFactory::new();
        let fl = Floats::new(&f, Arith::Herbrand, RealKind::Double);
        let tenth = crate::eval::parse_real_literal("0.1").unwrap();
        assert_eq!(fl.literal(&tenth, Some("0.1")), double(&f, 0.1));
        let single = Floats::new(&f, Arith::Herbrand, RealKind::Float);
        assert_eq!(
            single.literal(&tenth, Some("0.1")),
            double(&f, 0.1f32 as f64)
        );
    }

    #[test]
    fn concrete_operations_fold_as_in_ieee() {
        let f = ExprFactory::new();
        let fl = Floats::new(&f, Arith::Herbrand, RealKind::Double);
        let (a, b) = (double(&f, 0.1), double(&f, 0.2));
        assert_eq!(fl.add(a, b), double(&f, 0.30000000000000004));
        // 1/0 is infinite: not folded.
        let zero = double(&f, 0.0);
        assert!(f
            .as_concrete_rational(fl.div(double(&f, 1.0), zero))
            .is_none());
        // -0.0 is not a rational: -(0) stays a tree.
        assert!(f.as_concrete_rational(fl.neg(zero)).is_none());
    }

    #[test]
    fn herbrand_keeps_operand_order_ieee_commutes() {
        let f = ExprFactory::new();
        let x = f.symbol("x", Type::Real);
        let y = f.symbol("y", Type::Real);
        let h = Floats::new(&f, Arith::Herbrand, RealKind::Double);
        let i = Floats::new(&f, Arith::Ieee, RealKind::Double);
        assert_ne!(h.add(x, y), h.add(y, x));
        assert_eq!(i.add(x, y), i.add(y, x));
        assert_eq!(i.mul(x, y), i.mul(y, x));
        let one = double(&f, 1.0);
        assert_eq!(i.mul(x, one), x);
        assert_ne!(h.mul(x, one), x);
        assert_eq!(i.neg(i.neg(x)), x);
        // x + 0 is not x (x = -0).
        assert_ne!(i.add(x, double(&f, 0.0)), x);
        assert_eq!(i.sub(x, double(&f, 0.0)), x);
        // Not associative.
        assert_ne!(i.add(i.add(x, y), one), i.add(x, i.add(y, one)));
    }

    #[test]
    fn associativity_is_refuted_in_doubles() {
        let f = ExprFactory::new();
        let i = Floats::new(&f, Arith::Ieee, RealKind::Double);
        let [a, b, c] = ["a", "b", "c"].map(|n| f.symbol(n, Type::Real));
        let claim = i.compare(Comparison::Eq, i.add(i.add(a, b), c), i.add(a, i.add(b, c)));
        let witness = confirm_in_doubles(&f, f.tt(), claim).expect("a witness");
        assert_eq!(witness.len(), 3);
    }
}
