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
//! `ExprFactory::apply` folds with it, so a tree whose operands become concrete
//! (after a substitution) is folded as if it had been built from the numbers.

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
    fn operand(self, v: &Value) -> Option<f64> {
        let Value::Real(q) = v else { return None };
        let d = exact_f64(q)?;
        (self.round(d) == d).then_some(d)
    }
}

/// The value of floating operator `name` applied to `args` in IEEE arithmetic
/// (see the module documentation), or `None` when IEEE does not fix it as a
/// rational (an infinity, NaN or `-0` result, a libm function, an operand that is
/// not a machine number of the type, an unknown name).
pub fn ieee_value(name: &str, args: &[Value]) -> Option<Value> {
    let (prefix, op) = name.split_once('_')?;
    if prefix == "fp" {
        let a = Precision::Double.operand(args.first()?)?;
        let b = Precision::Double.operand(args.get(1)?)?;
        return Some(Value::Bool(match op {
            "lt" => a < b,
            "le" => a <= b,
            "eq" => a == b,
            _ => return None,
        }));
    }
    let p = match prefix {
        "f64" => Precision::Double,
        "f32" => Precision::Single,
        _ => return None,
    };
    let out = |d: f64| rational_of(d).map(Value::Real);
    match (op, args) {
        ("of_int" | "of_wide_int", [Value::Int(i)]) => {
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

/// The value of `name(args)` for concrete operands, for `ExprFactory::apply`.
pub(crate) fn fold(name: &str, args: &[Value]) -> Option<Value> {
    ieee_value(name, args)
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
        // 0.1 is not a double: not an operand.
        let tenth = Value::Real(BigRational::new(1.into(), 10.into()));
        assert_eq!(ieee_value("f64_add", &[tenth, d(1.0)]), None);
    }
}
