//! Witnesses: the prover's values for the inputs, printed so that `-i` reads them
//! back, and whether a witness can be trusted (it cannot when the claim leans on
//! an uninterpreted stand-in for a known function).

use tass_prove::api::Model;
use tass_semantics::api::{is_internal_symbol, is_stand_in_function};
use tass_symbolic::api::{Expr, Type};

use super::RealEngine;

/// Writes a rational the way `-i` reads it back: an integer, a terminating decimal,
/// or `p/q`.
pub(super) fn witness_value(text: &str) -> String {
    let Some((n, d)) = text.split_once('/') else {
        return text.to_string();
    };
    let (Ok(n), Ok(d)) = (n.trim().parse::<i128>(), d.trim().parse::<i128>()) else {
        return text.to_string();
    };
    if d == 0 {
        return text.to_string();
    }
    // Terminating decimal iff d has no prime factors other than 2 and 5.
    let mut rest = d.abs();
    let mut digits = 0u32;
    let (mut twos, mut fives) = (0u32, 0u32);
    while rest % 2 == 0 {
        rest /= 2;
        twos += 1;
    }
    while rest % 5 == 0 {
        rest /= 5;
        fives += 1;
    }
    if rest != 1 {
        return format!("{n}/{d}");
    }
    digits = digits.max(twos).max(fives);
    let Some(scale) = 10i128.checked_pow(digits) else {
        return format!("{n}/{d}");
    };
    let Some(scaled) = n.checked_mul(scale / d.abs()) else {
        return format!("{n}/{d}");
    };
    let scaled = if d < 0 { -scaled } else { scaled };
    let sign = if scaled < 0 { "-" } else { "" };
    let abs = scaled.unsigned_abs();
    let int_part = abs / scale as u128;
    let frac = abs % scale as u128;
    if digits == 0 {
        return format!("{sign}{int_part}");
    }
    format!("{sign}{int_part}.{frac:0width$}", width = digits as usize)
}

pub(super) fn witness_values(pairs: Vec<(String, String)>) -> Vec<(String, String)> {
    pairs
        .into_iter()
        .map(|(n, v)| (n, witness_value(&v)))
        .collect()
}

/// The witness a prover's model gives: the values of the user's symbols (the
/// engine's internal ones left out), printed as `-i` reads them.
pub(super) fn prover_witness(model: &Model) -> WitnessValues {
    witness_values(
        model
            .iter()
            // `a[0]` is an element of the array `a`: internal if `a` is.
            .filter(|(name, _)| !is_internal_symbol(name.split('[').next().unwrap_or(name)))
            .map(|(name, v)| (name.to_string(), v.to_string()))
            .collect(),
    )
}

/// A prover's witness: `(symbol, value)` pairs.
pub(super) type WitnessValues = Vec<(String, String)>;

impl RealEngine {
    /// True if one of `exprs` applies an uninterpreted stand-in for a known
    /// function (see [`is_stand_in_function`]).
    pub(super) fn leans_on_stand_in(&self, exprs: &[Expr]) -> bool {
        let f = &self.factory;
        exprs.iter().any(|&e| {
            f.free_symbols(e).into_iter().any(|s| {
                matches!(f.type_of(s), Type::Function(..))
                    && f.symbol_name(s).is_some_and(|n| is_stand_in_function(&n))
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::witness_value;

    #[test]
    fn witness_values_read_back_with_dash_i() {
        assert_eq!(witness_value("7"), "7");
        assert_eq!(witness_value("1/2"), "0.5");
        assert_eq!(witness_value("-3/4"), "-0.75");
        assert_eq!(witness_value("5/1"), "5");
        assert_eq!(witness_value("1/3"), "1/3");
        assert_eq!(witness_value("7/20"), "0.35");
    }
}
