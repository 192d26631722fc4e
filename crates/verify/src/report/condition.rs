//! The path condition as a report prints it: what the path needs beyond the
//! inputs' declared bounds, with the bounds of each input merged into one
//! range, in C syntax (`1 <= N && N <= 4`, `N == 0`).

use tass_simplify::api::{Simplifier, SimplifierCache};
use tass_symbolic::api::{BigInt, Expr, ExprFactory, ExprView, RelOp, Type};

/// Most values of a lone input tried one by one to name exactly the values
/// for which the path is taken (`N == 0` for a condition on `N/3`, `2*N/3`).
const MOST_VALUES_TRIED: u32 = 64;

/// `pc` printed for a reader: conjuncts implied by `input_bounds` (the path
/// condition of the initial state: the inputs' types and declared
/// constraints) are left out, the bounds of one input are merged into a range,
/// and when the condition is about one input with a small range it is given
/// by the values that satisfy it. Under `input_bounds` the text is equivalent
/// to `pc`. `true` when the path needs nothing beyond the bounds.
pub(crate) fn readable_condition(
    factory: &ExprFactory,
    simplifiers: &SimplifierCache,
    pc: Expr,
    input_bounds: Option<Expr>,
) -> String {
    let simplifier = simplifiers.simplifier(pc);
    if simplifier.is_contradictory() {
        return "false".into();
    }
    let whole = simplifier.equivalent_assumption();
    let bounds = input_bounds.map(|b| simplifiers.simplifier(b));
    let conjuncts = match factory.view(whole) {
        ExprView::And(items) => items,
        ExprView::Bool(true) => return "true".into(),
        _ => vec![whole],
    };
    let mut ranges: Vec<Range> = Vec::new();
    let mut others: Vec<Expr> = Vec::new();
    for c in conjuncts {
        match bound_of(factory, c) {
            Some((symbol, bound)) => match ranges.iter_mut().find(|r| r.symbol == symbol) {
                Some(range) => range.tighten(bound),
                None => {
                    let mut range = Range::new(symbol);
                    range.tighten(bound);
                    ranges.push(range);
                }
            },
            None => others.push(c),
        }
    }
    if let [range] = ranges.as_slice() {
        if let Some(text) = by_values(factory, whole, range) {
            return text;
        }
    }
    let implied = |c: Expr| {
        bounds
            .as_ref()
            .is_some_and(|b| factory.as_bool(b.simplify(c)) == Some(true))
    };
    let mut parts: Vec<String> = Vec::new();
    ranges.sort_by(|a, b| factory.compare(a.symbol, b.symbol));
    for mut range in ranges {
        if let Some(b) = &bounds {
            range.drop_implied(factory, b);
        }
        if let Some(text) = range.text(factory) {
            parts.push(text);
        }
    }
    others.retain(|&c| !implied(c));
    others.sort_by(|&a, &b| factory.compare(a, b));
    parts.extend(others.into_iter().map(|c| factory.pretty(c)));
    if parts.is_empty() {
        "true".into()
    } else {
        parts.join(" && ")
    }
}

/// A lower or an upper bound of an integer input.
enum Bound {
    AtLeast(BigInt),
    AtMost(BigInt),
    Exactly(BigInt),
}

/// `c` as a bound of one integer symbol (`x op k`, coefficient 1 or -1).
fn bound_of(f: &ExprFactory, c: Expr) -> Option<(Expr, Bound)> {
    let ExprView::Rel(op, poly) = f.view(c) else {
        return None;
    };
    let symbols = f.free_symbols(poly);
    let [x] = symbols.as_slice() else {
        return None;
    };
    if f.type_of(*x) != Type::Int || !matches!(f.view(*x), ExprView::Symbol(_)) {
        return None;
    }
    // poly == a*x + k with a = +-1, checked by rebuilding it.
    let k = f.as_concrete_int(f.substitute_one(poly, *x, f.int(0)))?;
    let a = f.as_concrete_int(f.substitute_one(poly, *x, f.int(1)))? - &k;
    if (a != BigInt::from(1) && a != -BigInt::from(1))
        || f.add(f.mul(f.int(a.clone()), *x), f.int(k.clone())) != poly
    {
        return None;
    }
    let positive = a == BigInt::from(1);
    // a*x + k op 0.
    let bound = match (op, positive) {
        (RelOp::Ge, true) => Bound::AtLeast(-k),
        (RelOp::Gt, true) => Bound::AtLeast(-k + 1),
        (RelOp::Ge, false) => Bound::AtMost(k),
        (RelOp::Gt, false) => Bound::AtMost(k - 1),
        (RelOp::Eq, true) => Bound::Exactly(-k),
        (RelOp::Eq, false) => Bound::Exactly(k),
        (RelOp::Ne, _) => return None,
    };
    Some((*x, bound))
}

/// The range an input is kept in by the path condition.
struct Range {
    symbol: Expr,
    lower: Option<BigInt>,
    upper: Option<BigInt>,
}

impl Range {
    fn new(symbol: Expr) -> Range {
        Range {
            symbol,
            lower: None,
            upper: None,
        }
    }

    fn tighten(&mut self, bound: Bound) {
        let (lower, upper) = match bound {
            Bound::AtLeast(v) => (Some(v), None),
            Bound::AtMost(v) => (None, Some(v)),
            Bound::Exactly(v) => (Some(v.clone()), Some(v)),
        };
        if let Some(v) = lower {
            self.lower = Some(self.lower.take().map_or(v.clone(), |l| l.max(v)));
        }
        if let Some(v) = upper {
            self.upper = Some(self.upper.take().map_or(v.clone(), |u| u.min(v)));
        }
    }

    /// Leaves out a bound the inputs' declared bounds already give.
    fn drop_implied(&mut self, f: &ExprFactory, bounds: &Simplifier) {
        let x = self.symbol;
        let implied = |e: Expr| f.as_bool(bounds.simplify(e)) == Some(true);
        if self.lower == self.upper {
            return;
        }
        if let Some(l) = &self.lower {
            if implied(f.le(f.int(l.clone()), x)) {
                self.lower = None;
            }
        }
        if let Some(u) = &self.upper {
            if implied(f.le(x, f.int(u.clone()))) {
                self.upper = None;
            }
        }
    }

    fn text(&self, f: &ExprFactory) -> Option<String> {
        let x = f.pretty(self.symbol);
        match (&self.lower, &self.upper) {
            (Some(l), Some(u)) if l == u => Some(format!("{x} == {l}")),
            (Some(l), Some(u)) => Some(format!("{l} <= {x} && {x} <= {u}")),
            (Some(l), None) => Some(format!("{x} >= {l}")),
            (None, Some(u)) => Some(format!("{x} <= {u}")),
            (None, None) => None,
        }
    }
}

/// A condition about one input only, with a small range: the values that
/// satisfy it, when every value in the range decides it and some do not
/// satisfy it (`N == 0`, `1 <= N && N <= 3`, `N == 1 || N == 4`); `None`
/// otherwise.
fn by_values(f: &ExprFactory, whole: Expr, range: &Range) -> Option<String> {
    if f.free_symbols(whole).len() != 1 {
        return None;
    }
    let (lower, upper) = (range.lower.clone()?, range.upper.clone()?);
    let width = &upper - &lower;
    if width == BigInt::from(0) || width >= BigInt::from(MOST_VALUES_TRIED) {
        return None;
    }
    let mut values = Vec::new();
    let mut v = lower;
    while v <= upper {
        if f.as_bool(f.substitute_one(whole, range.symbol, f.int(v.clone())))? {
            values.push(v.clone());
        }
        v += 1;
    }
    if BigInt::from(values.len()) == width + 1 {
        // Every value of the range: the range itself says it.
        return None;
    }
    let contiguous = values.windows(2).all(|w| &w[1] - &w[0] == BigInt::from(1));
    let x = f.pretty(range.symbol);
    match values.as_slice() {
        [] => None,
        [only] => Some(format!("{x} == {only}")),
        [first, .., last] if contiguous => Some(format!("{first} <= {x} && {x} <= {last}")),
        _ if values.len() <= 4 => Some(
            values
                .iter()
                .map(|v| format!("{x} == {v}"))
                .collect::<Vec<_>>()
                .join(" || "),
        ),
        _ => None,
    }
}
