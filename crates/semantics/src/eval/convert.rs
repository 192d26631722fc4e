//! C conversions between types, with unsigned and signed wrapping.

use tass_dynamic::api::{Pointer, Value};
use tass_model::api::{char_byte_value, Span, Type as MType};
use tass_symbolic::api::{BigInt, Expr, ExprFactory, Type};

use super::{int_of, scalar_type, Evaluator};
use crate::float::Exactness;
use crate::report::EngineError;

impl<'a> Evaluator<'a> {
    /// Converts `v` from model type `from` to `to` (C conversions).
    pub fn convert(
        &mut self,
        v: Value,
        from: &MType,
        to: &MType,
        span: &Span,
    ) -> Result<Value, EngineError> {
        let f = self.f;
        if let Value::Data(x) = v {
            if let Some(fl) = self.floats(to) {
                return Ok(Value::Data(match from {
                    MType::Real(kind) => fl.convert_from(*kind, x),
                    MType::Int(kind) => fl.of_int(int_of(f, x), fl.holds_integers_of(kind.bits())),
                    MType::Char | MType::Bool => fl.of_int(int_of(f, x), Exactness::Exact),
                    _ => fl.of_int(int_of(f, x), Exactness::MayRound),
                }));
            }
            if let (Some(fl), MType::Bool) = (self.floats(from), to) {
                return Ok(Value::Data(fl.truth(x)));
            }
            if let (MType::Real(_), Some(range), Type::Real) = (from, to.int_range(), f.type_of(x))
            {
                if !matches!(to, MType::Bool) {
                    return Ok(Value::Data(truncated_into(f, x, range)));
                }
            }
        }
        match (v, to) {
            (Value::Data(x), t) if scalar_type(t).is_some() => {
                let st = scalar_type(t).unwrap_or(Type::Int);
                if needs_signed_wrap(from, t) && f.type_of(x) != Type::Real {
                    return Ok(Value::Data(wrap_signed(f, int_of(f, x), t)));
                }
                let x = if f.type_of(x) == st {
                    x
                } else {
                    f.cast(x, &st)
                };
                if fits_in(from, t) {
                    // every value of `from` is one of `t`: nothing to reduce
                    return Ok(Value::Data(x));
                }
                Ok(Value::Data(wrap_unsigned(f, x, t)))
            }
            (Value::Pointer(p), MType::Bool) => Ok(Value::Data(f.bool(!p.is_null()))),
            (Value::Pointer(p), MType::Pointer(_)) => Ok(Value::Pointer(p)),
            (Value::Data(x), MType::Pointer(_)) => {
                if f.concrete_int_ref(x).is_some_and(num_traits::Zero::is_zero) {
                    Ok(Value::Pointer(Pointer::Null))
                } else if matches!(f.type_of(x), Type::Array(..)) {
                    // string literals have no object of their own
                    Err(EngineError::unsupported(
                        "a pointer to a string literal (copy the string into a `char` array, or pass the literal to the library function directly)",
                        span,
                    ))
                } else {
                    Err(EngineError::unsupported(
                        "conversion of an integer to a pointer",
                        span,
                    ))
                }
            }
            (Value::Pointer(_), _) => Err(EngineError::unsupported(
                "conversion of a pointer to an integer",
                span,
            )),
            (v, _) => Ok(v),
        }
    }
}

/// Applies [`wrap_unsigned`] to a data value.
pub(super) trait WrapUnsigned {
    fn wrapped_to(self, f: &ExprFactory, ty: &MType) -> Self;
}

impl WrapUnsigned for Value {
    fn wrapped_to(self, f: &ExprFactory, ty: &MType) -> Value {
        match self {
            Value::Data(x) => Value::Data(wrap_unsigned(f, x, ty)),
            other => other,
        }
    }
}

/// A floating value converted to an integer type of range `(lo, hi)`: its
/// truncation when that is in the range. Otherwise the behaviour is undefined
/// (C11 6.3.1.4; x86-64 gives `INT_MIN` for `(int)1e10`, and gcc's
/// `-fsanitize=undefined` does not report it): the result is then an unknown
/// integer, `fp_unrepresentable(x, lo, hi)`, so that no claim about it holds,
/// rather than the mathematical truncation, which no machine gives.
fn truncated_into(f: &ExprFactory, x: Expr, (lo, hi): (i128, i128)) -> Expr {
    let t = f.cast(x, &Type::Int);
    let (lo, hi) = (f.int(BigInt::from(lo)), f.int(BigInt::from(hi)));
    let in_range = f.and(f.le(lo, t), f.le(t, hi));
    let unknown = f.symbol(
        "fp_unrepresentable",
        Type::function(vec![Type::Real, Type::Int, Type::Int], Type::Int),
    );
    f.ite(in_range, t, f.apply(unknown, &[x, lo, hi]))
}

/// C's unsigned arithmetic is modulo 2^width: a value of an unsigned type is reduced
/// into `[0, 2^width)` (a no-op when it is already there). Signed types stay
/// mathematical integers, since signed overflow is undefined behaviour in C.
/// Widths follow the LP64 model (`unsigned char` 8, `unsigned short` 16, `unsigned` 32, `unsigned
/// long` and `unsigned long long` 64 bits).
fn wrap_unsigned(f: &ExprFactory, x: Expr, ty: &MType) -> Expr {
    use tass_model::api::IntKind;
    let bits = match ty {
        MType::Int(IntKind::UnsignedChar) => 8,
        MType::Int(IntKind::UnsignedShort) => 16,
        MType::Int(IntKind::Unsigned) => 32,
        MType::Int(IntKind::UnsignedLong | IntKind::UnsignedLongLong) => 64,
        _ => return x,
    };
    if f.type_of(x) != Type::Int {
        return x;
    }
    let modulus = BigInt::from(1) << bits;
    if let Some(k) = f.as_concrete_int(x) {
        let r = ((k % &modulus) + &modulus) % &modulus;
        return f.int(r);
    }
    let m = f.int(modulus);
    if is_wrapped(f, x, m) {
        return x;
    }
    // C's `%` truncates toward zero: x % m lies in (-m, m), so shift and reduce again.
    f.int_mod(f.add(f.int_mod(x, m), m), m)
}

/// True when every value of integer type `from` is a value of integer type `to`.
fn fits_in(from: &MType, to: &MType) -> bool {
    match (from.int_range(), to.int_range()) {
        (Some((a, b)), Some((c, d))) => c <= a && b <= d,
        _ => false,
    }
}

/// True when converting a value of integer type `from` to the signed type (or
/// `char`) `to` may leave `to`'s range, so that the conversion must wrap.
fn needs_signed_wrap(from: &MType, to: &MType) -> bool {
    let target = match to {
        MType::Char => tass_model::api::CHAR_RANGE,
        MType::Int(k) if !k.is_unsigned() => k.range(),
        _ => return false,
    };
    match from.int_range() {
        Some((lo, hi)) => lo < target.0 || hi > target.1,
        None => false,
    }
}

/// The `char` value of a byte of a character constant or string literal: its
/// code for 0..127, the negative value of a signed `char` for 128..255 (as
/// `(char)255` is), so that `"\xff"[0] == '\xff'` and `'\xff' == -1`.
pub(crate) fn char_of_byte(f: &ExprFactory, byte: u8) -> Expr {
    match byte {
        0x80.. => wrap_signed(f, f.int(char_byte_value(byte)), &MType::Char),
        _ => f.char(u32::from(byte)),
    }
}

/// Converts integer `x` to the signed type (or `char`) `ty` whose range it may
/// leave: C11 6.3.1.3 leaves the result implementation-defined, and gcc and
/// clang reduce modulo 2^N into the two's-complement range, as tass does.
/// (Signed arithmetic is not wrapped: its overflow is undefined behaviour.)
pub(super) fn wrap_signed(f: &ExprFactory, x: Expr, ty: &MType) -> Expr {
    let (lo, hi) = match ty {
        MType::Char => tass_model::api::CHAR_RANGE,
        MType::Int(k) => k.range(),
        _ => return x,
    };
    let (lo, hi) = (BigInt::from(lo), BigInt::from(hi));
    let modulus: BigInt = &hi - &lo + 1;
    let wrapped = if let Some(k) = f.as_concrete_int(x) {
        if k >= lo && k <= hi {
            f.int(k)
        } else {
            let r = (((&k - &lo) % &modulus) + &modulus) % &modulus + &lo;
            f.int(r)
        }
    } else {
        // ((x - lo) mod 2^N) + lo, with C's truncating `%` made non-negative
        let m = f.int(modulus);
        let shifted = f.sub(x, f.int(lo.clone()));
        f.add(f.int_mod(f.add(f.int_mod(shifted, m), m), m), f.int(lo))
    };
    match ty {
        MType::Char => f.cast(wrapped, &Type::Char),
        _ => wrapped,
    }
}

/// True for `((y % m) + m) % m`, which [`wrap_unsigned`] builds and which already
/// lies in `[0, m)`.
fn is_wrapped(f: &ExprFactory, x: Expr, m: Expr) -> bool {
    use tass_symbolic::api::ExprView;
    let ExprView::IntMod(sum, modulus) = f.view(x) else {
        return false;
    };
    let ExprView::Add(terms) = f.view(sum) else {
        return false;
    };
    modulus == m
        && terms.len() == 2
        && terms.contains(&m)
        && terms
            .iter()
            .any(|&t| matches!(f.view(t), ExprView::IntMod(_, k) if k == m))
}
