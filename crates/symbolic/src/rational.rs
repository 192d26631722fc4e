//! Exact rational arithmetic with fast paths.
//!
//! `num_rational` reduces every result by a `BigInt` gcd (Stein's algorithm, which
//! allocates on every shift). Scientific codes mostly produce two kinds of
//! coefficients, and both can be reduced without it:
//!
//! - *small* rationals, whose numerator and denominator fit in an `i64`: the
//!   result is computed in 128-bit integers and reduced by a machine gcd;
//! - *dyadic* rationals, whose denominator is a power of two (halving, quartering,
//!   and every value that came from an `f64`): the common denominator is the larger
//!   one, and reducing is dividing out the numerator's trailing zero bits.
//!
//! Everything else is reduced by cross-cancellation (Henrici's method): gcds of
//! the operands' parts, not of the much larger products, computed by Euclid's
//! algorithm down to machine words. Results are always in lowest terms with a
//! positive denominator, exactly as `BigRational::new` gives them.

use num_bigint::BigInt;
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};

/// `a + b`.
pub(crate) fn add(a: &BigRational, b: &BigRational) -> BigRational {
    if a.is_integer() && b.is_integer() {
        return BigRational::from_integer(a.numer() + b.numer());
    }
    if let (Some(x), Some(y)) = (small(a), small(b)) {
        // |n| < 2^127: each product is below 2^126 in magnitude.
        let n = x.0 * y.1 + y.0 * x.1;
        return from_i128(n, x.1 * y.1);
    }
    if let (Some(ea), Some(eb)) = (dyadic_exponent(a), dyadic_exponent(b)) {
        let e = ea.max(eb);
        let n = (a.numer() << (e - ea)) + (b.numer() << (e - eb));
        return dyadic(n, e);
    }
    let (an, ad, bn, bd) = (a.numer(), a.denom(), b.numer(), b.denom());
    let g = gcd(ad, bd);
    if g.is_one() {
        // gcd(an*bd + bn*ad, ad*bd) = 1 when both operands are reduced.
        return BigRational::new_raw(an * bd + bn * ad, ad * bd);
    }
    let t = an * (bd / &g) + bn * (ad / &g);
    if t.is_zero() {
        return BigRational::zero();
    }
    let g2 = gcd(&t, &g);
    BigRational::new_raw(exact_div(t, &g2), (ad / &g) * exact_div(bd.clone(), &g2))
}

/// `a - b`.
pub(crate) fn sub(a: &BigRational, b: &BigRational) -> BigRational {
    if a.is_integer() && b.is_integer() {
        return BigRational::from_integer(a.numer() - b.numer());
    }
    add(a, &-b)
}

/// `a * b`.
pub(crate) fn mul(a: &BigRational, b: &BigRational) -> BigRational {
    if a.is_integer() && b.is_integer() {
        return BigRational::from_integer(a.numer() * b.numer());
    }
    if let (Some(x), Some(y)) = (small(a), small(b)) {
        return from_i128(x.0 * y.0, x.1 * y.1);
    }
    if let (Some(ea), Some(eb)) = (dyadic_exponent(a), dyadic_exponent(b)) {
        return dyadic(a.numer() * b.numer(), ea + eb);
    }
    if a.is_zero() || b.is_zero() {
        return BigRational::zero();
    }
    // Cancel across: an/ad * bn/bd with gcd(an, bd) and gcd(bn, ad) divided out
    // is in lowest terms.
    let g1 = gcd(a.numer(), b.denom());
    let g2 = gcd(b.numer(), a.denom());
    let n = exact_div(a.numer().clone(), &g1) * exact_div(b.numer().clone(), &g2);
    let d = exact_div(a.denom().clone(), &g2) * exact_div(b.denom().clone(), &g1);
    BigRational::new_raw(n, d)
}

/// `a / b` (`b != 0`).
pub(crate) fn div(a: &BigRational, b: &BigRational) -> BigRational {
    mul(a, &b.recip())
}

/// `x / g` for a divisor `g` of `x` (no division when `g` is 1).
fn exact_div(x: BigInt, g: &BigInt) -> BigInt {
    if g.is_one() {
        x
    } else {
        x / g
    }
}

/// The greatest common divisor of `|a|` and `|b|`: Euclid's algorithm on
/// `BigInt`s until one of them fits in a machine word, then on words.
fn gcd(a: &BigInt, b: &BigInt) -> BigInt {
    let (mut x, mut y) = (a.magnitude().clone(), b.magnitude().clone());
    loop {
        if y.is_zero() {
            return BigInt::from(x);
        }
        if let Some(w) = y.to_u64() {
            let r = (&x % w).to_u64().unwrap_or(0);
            return BigInt::from(gcd_u128(w as u128, r as u128));
        }
        if let Some(w) = x.to_u64() {
            let r = (&y % w).to_u64().unwrap_or(0);
            return BigInt::from(gcd_u128(w as u128, r as u128));
        }
        let r = &x % &y;
        x = y;
        y = r;
    }
}

/// `a^k`.
pub(crate) fn pow(a: &BigRational, k: u32) -> BigRational {
    match k {
        0 => BigRational::one(),
        1 => a.clone(),
        // Powers of a reduced fraction are reduced: no gcd needed.
        _ => BigRational::new_raw(
            num_traits::pow(a.numer().clone(), k as usize),
            num_traits::pow(a.denom().clone(), k as usize),
        ),
    }
}

/// Numerator and denominator as 128-bit integers, when both fit in 64 bits.
fn small(q: &BigRational) -> Option<(i128, i128)> {
    Some((q.numer().to_i64()? as i128, q.denom().to_i64()? as i128))
}

/// `n / d` in lowest terms (`d > 0`).
fn from_i128(n: i128, d: i128) -> BigRational {
    if n == 0 {
        return BigRational::zero();
    }
    let g = gcd_u128(n.unsigned_abs(), d as u128) as i128;
    BigRational::new_raw(BigInt::from(n / g), BigInt::from(d / g))
}

fn gcd_u128(mut a: u128, mut b: u128) -> u128 {
    if a == 0 {
        return b;
    }
    if b == 0 {
        return a;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

/// `Some(e)` when the denominator of `q` is `2^e`.
fn dyadic_exponent(q: &BigRational) -> Option<u64> {
    let d = q.denom();
    let zeros = d.trailing_zeros()?;
    (d.bits() == zeros + 1).then_some(zeros)
}

/// `n / 2^e` in lowest terms.
fn dyadic(n: BigInt, e: u64) -> BigRational {
    let Some(zeros) = n.trailing_zeros() else {
        return BigRational::zero();
    };
    let k = zeros.min(e);
    // Exact: `n` is divisible by 2^k, so the arithmetic shift does not round.
    let n = if k > 0 { n >> k } else { n };
    BigRational::new_raw(n, BigInt::one() << (e - k))
}

#[cfg(test)]
mod tests {
    use super::*;
    use num_integer::Integer;
    use num_traits::Signed;

    /// Whether `q` is in the form `BigRational::new` produces (for tests).
    fn is_normal(q: &BigRational) -> bool {
        q.denom().is_positive() && q.numer().gcd(q.denom()).is_one()
            || (q.numer().is_zero() && q.denom().is_one())
    }

    fn values() -> Vec<BigRational> {
        let big = BigInt::from(3u8).pow(50u32);
        let two_big = BigInt::one() << 90u32;
        let mut out = Vec::new();
        for n in [
            BigInt::from(0),
            BigInt::from(1),
            BigInt::from(-6),
            BigInt::from(i64::MAX),
            BigInt::from(i64::MIN),
            big.clone(),
            -big.clone(),
            two_big.clone() * 3,
        ] {
            for d in [
                BigInt::from(1),
                BigInt::from(4),
                BigInt::from(6),
                BigInt::from(i64::MAX),
                two_big.clone(),
                big.clone(),
                big.clone() * 35,
            ] {
                out.push(BigRational::new(n.clone(), d));
            }
        }
        out
    }

    #[test]
    fn fast_paths_agree_with_num_rational() {
        for a in values() {
            for b in values() {
                let (s, d, p) = (add(&a, &b), sub(&a, &b), mul(&a, &b));
                assert_eq!(s, &a + &b, "{a} + {b}");
                assert_eq!(d, &a - &b, "{a} - {b}");
                assert_eq!(p, &a * &b, "{a} * {b}");
                if !b.is_zero() {
                    let q = div(&a, &b);
                    assert_eq!(q, &a / &b, "{a} / {b}");
                    assert!(is_normal(&q), "{q} not in lowest terms");
                }
                for r in [&s, &d, &p] {
                    assert!(is_normal(r), "{r} not in lowest terms");
                }
            }
            for k in 0..4 {
                let r = pow(&a, k);
                assert_eq!(r, num_traits::pow(a.clone(), k as usize));
                assert!(is_normal(&r));
            }
        }
    }
}
