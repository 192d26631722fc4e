//! Math library functions (`sqrt`, `fabs`, ...) at the arithmetic level.

use tass_model::api::{Comparison, LibraryFunction, Span, Type as MType};
use tass_symbolic::api::{BigInt, BigRational, Expr, Type};

use super::{int_of, scalar_type, Evaluator};
use crate::float::Exactness;
use crate::report::EngineError;

impl<'a> Evaluator<'a> {
    pub(super) fn math(
        &mut self,
        func: LibraryFunction,
        xs: &[Expr],
        ty: &MType,
        span: &Span,
    ) -> Result<Expr, EngineError> {
        use LibraryFunction::*;
        let f = self.f;
        if let (Delta, [x, y]) = (func, xs) {
            // 1 when x < y, else 0: an integer, so `in += delta(..)` adds without
            // branching; `<` of the arithmetic level (uninterpreted at herbrand/ieee).
            let (x, y) = (f.cast(*x, &Type::Real), f.cast(*y, &Type::Real));
            let less = match self.floats(&MType::DOUBLE) {
                Some(fl) => fl.compare(Comparison::Lt, x, y),
                None => f.lt(x, y),
            };
            return Ok(f.ite(less, f.int(1), f.int(0)));
        }
        if let Some(fl) = self.floats(ty) {
            if matches!(
                func,
                Fabs | Fmin | Fmax | Pow | Floor | Ceil | Sqrt | Exp | Log | Sin | Cos
            ) {
                let args: Vec<Expr> = xs
                    .iter()
                    .map(|&x| match f.type_of(x) {
                        Type::Real => x,
                        _ => fl.of_int(int_of(f, x), Exactness::MayRound),
                    })
                    .collect();
                return Ok(fl.math(func.c_name(), &args));
            }
        }
        let rt = scalar_type(ty).unwrap_or(Type::Real);
        let arg = |k: usize| -> Result<Expr, EngineError> {
            xs.get(k).copied().ok_or_else(|| {
                EngineError::invalid(
                    format!("{} needs {} argument(s)", func.c_name(), k + 1),
                    Some(span),
                )
            })
        };
        let num = |x: Expr| -> Expr {
            if f.type_of(x) == rt {
                x
            } else {
                f.cast(x, &rt)
            }
        };
        Ok(match func {
            Abs | Labs | Fabs => {
                let x = num(arg(0)?);
                let z = f.zero(&rt);
                f.ite(f.ge(x, z), x, f.neg(x))
            }
            Fmin | Fmax => {
                let (x, y) = (num(arg(0)?), num(arg(1)?));
                if func == Fmin {
                    f.ite(f.le(x, y), x, y)
                } else {
                    f.ite(f.ge(x, y), x, y)
                }
            }
            Pow => {
                let (x, y) = (num(arg(0)?), arg(1)?);
                match f.as_concrete_rational(y) {
                    Some(k)
                        if k.is_integer()
                            && k >= BigRational::from_integer(0.into())
                            && k <= BigRational::from_integer(64.into()) =>
                    {
                        let k: u32 = k.to_integer().try_into().unwrap_or(0);
                        if k == 0 {
                            f.one(&rt)
                        } else {
                            f.pow(x, k)
                        }
                    }
                    _ => self.uninterpreted(func.c_name(), &[x, num(y)], rt),
                }
            }
            Floor | Ceil => {
                // Exact, from truncation: t = trunc(x); floor = t or t-1, ceil = t or t+1.
                let x = num(arg(0)?);
                let real_x = if f.type_of(x) == Type::Real {
                    x
                } else {
                    f.to_real(x)
                };
                let t = f.to_real(f.to_int(real_x));
                let one = f.one(&Type::Real);
                let r = if func == Floor {
                    f.ite(f.le(t, real_x), t, f.sub(t, one))
                } else {
                    f.ite(f.ge(t, real_x), t, f.add(t, one))
                };
                num(r)
            }
            Sqrt => {
                let x = num(arg(0)?);
                match f.as_concrete_rational(x).and_then(|q| exact_sqrt(&q)) {
                    Some(root) => f.number(root, &rt),
                    None => self.uninterpreted(func.c_name(), &[x], rt),
                }
            }
            Exp | Log | Sin | Cos => {
                let x = num(arg(0)?);
                let zero = BigRational::from_integer(0.into());
                let one = BigRational::from_integer(1.into());
                match (func, f.as_concrete_rational(x)) {
                    (Exp | Cos, Some(q)) if q == zero => f.one(&rt),
                    (Sin, Some(q)) if q == zero => f.zero(&rt),
                    (Log, Some(q)) if q == one => f.zero(&rt),
                    _ => self.uninterpreted(func.c_name(), &[x], rt),
                }
            }
            other => {
                return Err(EngineError::unsupported(
                    format!("{} as a pure function", other.c_name()),
                    span,
                ))
            }
        })
    }

    /// A math library function left uninterpreted; recorded so that a violation
    /// depending on it is reported as possible, not provable.
    fn uninterpreted(&mut self, name: &str, xs: &[Expr], rt: Type) -> Expr {
        let f = self.f;
        let tys: Vec<Type> = xs.iter().map(|&x| f.type_of(x)).collect();
        let sym = f.symbol(name, Type::function(tys, rt));
        self.oracle.note_abstraction(sym);
        f.apply(sym, xs)
    }
}

/// The exact square root of a non-negative rational that is a perfect square.
fn exact_sqrt(q: &BigRational) -> Option<BigRational> {
    use num_traits::Signed;
    if q.is_negative() {
        return None;
    }
    let root = |n: &BigInt| -> Option<BigInt> {
        let r = n.sqrt();
        (&r * &r == *n).then_some(r)
    };
    Some(BigRational::new(root(q.numer())?, root(q.denom())?))
}
