//! The IEEE 754 meaning of the floating operators of the herbrand and ieee
//! arithmetic levels (uninterpreted function symbols named `f64_add`, `f32_mul`,
//! `fp_lt`, ...; made by `tass-semantics`).
//!
//! [`ieee_value`] evaluates one on concrete operands in binary64 (`f64_*`) or
//! binary32 (`f32_*`) arithmetic, round to nearest: the results IEEE fixes bit
//! for bit on every conforming machine (basic operations, `sqrt`, `fabs`,
//! `floor`, `ceil`, conversions, comparisons). A value is given only when every
//! operand is an exact value of the operator's type and the result is finite and
//! not `-0`, the only machine numbers an exact rational cannot stand for.
//! `ExprFactory::apply` folds with [`fold`], which also takes and gives `-0`
//! (written as the tree `f64_neg(0)` / `f32_neg(0)`, the one form a negative zero
//! has), so a tree whose operands become concrete (after a substitution) is
//! folded as if it had been built from the numbers.

use num_rational::BigRational;
use num_traits::ToPrimitive;

use crate::types::Value;

/// The exact value of `q` as a double, if it is one.
fn exact_f64(q: &BigRational) -> Option<f64> {
    let d = q.to_f64()?;
    (d.is_finite() && BigRational::from_float(d).as_ref() == Some(q)).then_some(d)
}

/// The rational standing for a finite double other than `-0`.
fn rational_of(d: f64) -> Option<BigRational> {
    if !d.is_finite() || (d == 0.0 && d.is_sign_negative()) {
        return None;
    }
    BigRational::from_float(d)
}

/// A concrete operand of a floating operator, for [`fold`]: an exact value, or
/// IEEE's negative zero.
pub(crate) enum Operand {
    Exact(Value),
    NegativeZero,
}

/// The result of [`fold`]: an exact value, or IEEE's negative zero.
#[derive(Debug, PartialEq)]
pub(crate) enum Folded {
    Exact(Value),
    NegativeZero,
}

/// The folded form of machine number `d`: `None` for an infinity or NaN.
fn folded(d: f64) -> Option<Folded> {
    if d == 0.0 && d.is_sign_negative() {
        return Some(Folded::NegativeZero);
    }
    rational_of(d).map(|q| Folded::Exact(Value::Real(q)))
}

/// The floating types of the operator prefixes (`fld_*`: long double, whose
/// format varies between machines, is never evaluated).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Precision {
    Single,
    Double,
}

impl Precision {
    fn round(self, d: f64) -> f64 {
        match self {
            Precision::Single => d as f32 as f64,
            Precision::Double => d,
        }
    }

    /// The operand as a machine number of this precision.
    fn operand(self, v: &Operand) -> Option<f64> {
        let q = match v {
            Operand::NegativeZero => return Some(-0.0),
            Operand::Exact(Value::Real(q)) => q,
            Operand::Exact(_) => return None,
        };
        let d = exact_f64(q)?;
        (self.round(d) == d).then_some(d)
    }
}

/// The value of floating operator `name` applied to `args` in IEEE arithmetic
/// (see the module documentation), or `None` when IEEE does not fix it as a
/// rational (an infinity, NaN or `-0` result, a libm function, an operand that is
/// not a machine number of the type, an unknown name).
pub fn ieee_value(name: &str, args: &[Value]) -> Option<Value> {
    let operands: Vec<Operand> = args.iter().cloned().map(Operand::Exact).collect();
    match fold(name, &operands)? {
        Folded::Exact(v) => Some(v),
        Folded::NegativeZero => None,
    }
}

/// The value of floating operator `name` applied to `args` in IEEE arithmetic,
/// `-0` included among operands and results (see the module documentation).
pub(crate) fn fold(name: &str, args: &[Operand]) -> Option<Folded> {
    let (prefix, op) = name.split_once('_')?;
    if prefix == "fp" {
        let a = Precision::Double.operand(args.first()?)?;
        let b = Precision::Double.operand(args.get(1)?)?;
        return Some(Folded::Exact(Value::Bool(match op {
            "lt" => a < b,
            "le" => a <= b,
            "eq" => a == b,
            _ => return None,
        })));
    }
    let p = match prefix {
        "f64" => Precision::Double,
        "f32" => Precision::Single,
        _ => return None,
    };
    let out = folded;
    match (op, args) {
        ("of_int" | "of_wide_int", [Operand::Exact(Value::Int(i))]) => {
            let q = BigRational::from_integer(i.clone());
            let d = q.to_f64()?;
            // Rounding a double that is not exact to single would round twice.
            if p == Precision::Single && exact_f64(&q).is_none() {
                return None;
            }
            out(p.round(d))
        }
        // Widening is exact; narrowing rounds once (the operand is a double).
        ("of_f32", [x]) => out(p.round(Precision::Single.operand(x)?)),
        ("of_f64", [x]) => out(p.round(Precision::Double.operand(x)?)),
        (_, [x]) => {
            let a = p.operand(x)?;
            // Each correctly rounded: in double, then narrowed, it is the
            // single-precision result (double has more than 2 * 24 + 2 bits).
            let r = match op {
                "neg" => -a,
                "sqrt" => a.sqrt(),
                "fabs" => a.abs(),
                "floor" => a.floor(),
                "ceil" => a.ceil(),
                _ => return None,
            };
            out(p.round(r))
        }
        (_, [x, y]) => {
            let (a, b) = (p.operand(x)?, p.operand(y)?);
            let r = match p {
                Precision::Double => match op {
                    "add" => a + b,
                    "sub" => a - b,
                    "mul" => a * b,
                    "div" => a / b,
                    _ => return None,
                },
                Precision::Single => {
                    let (a, b) = (a as f32, b as f32);
                    (match op {
                        "add" => a + b,
                        "sub" => a - b,
                        "mul" => a * b,
                        "div" => a / b,
                        _ => return None,
                    }) as f64
                }
            };
            out(r)
        }
        _ => None,
    }
}

/// True for the names IEEE evaluation may know (a cheap test before folding).
pub(crate) fn is_float_operator_name(name: &str) -> bool {
    name.starts_with("f64_") || name.starts_with("f32_") || name.starts_with("fp_")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(x: f64) -> Value {
        Value::Real(BigRational::from_float(x).unwrap())
    }

    #[test]
    fn basic_operations_round_as_in_ieee() {
        assert_eq!(
            ieee_value("f64_add", &[d(0.1), d(0.2)]),
            Some(d(0.30000000000000004))
        );
        assert_eq!(
            ieee_value("f32_add", &[d(0.1f32 as f64), d(0.2f32 as f64)]),
            Some(d((0.1f32 + 0.2f32) as f64))
        );
        assert_eq!(ieee_value("f64_div", &[d(1.0), d(0.0)]), None);
        assert_eq!(ieee_value("f64_neg", &[d(0.0)]), None);
        assert_eq!(
            ieee_value("fp_lt", &[d(1.0), d(2.0)]),
            Some(Value::Bool(true))
        );
        assert_eq!(ieee_value("f64_exp", &[d(1.0)]), None);
        // -0 in and out: fold knows it, ieee_value (rationals only) does not.
        let z = || Operand::Exact(d(0.0));
        assert_eq!(fold("f64_neg", &[z()]), Some(Folded::NegativeZero));
        assert_eq!(
            fold("f64_add", &[Operand::NegativeZero, z()]),
            Some(Folded::Exact(d(0.0)))
        );
        assert_eq!(
            fold("f64_add", &[Operand::NegativeZero, Operand::NegativeZero]),
            Some(Folded::NegativeZero)
        );
        assert_eq!(
            fold("f32_mul", &[z(), Operand::Exact(d(-2.0))]),
            Some(Folded::NegativeZero)
        );
        assert_eq!(
            fold("fp_lt", &[Operand::NegativeZero, z()]),
            Some(Folded::Exact(Value::Bool(false)))
        );
        assert_eq!(
            fold("fp_eq", &[Operand::NegativeZero, z()]),
            Some(Folded::Exact(Value::Bool(true)))
        );
        assert_eq!(
            fold("f64_div", &[Operand::Exact(d(1.0)), Operand::NegativeZero]),
            None
        );
        // 0.1 is not a double: not an operand.
        let tenth = Value::Real(BigRational::new(1.into(), 10.into()));
        assert_eq!(ieee_value("f64_add", &[tenth, d(1.0)]), None);
    }
}
