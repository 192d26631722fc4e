//! The `-i NAME=VALUE` inputs: the values the user fixes, parsed for the engine.

use tass_state::api::FixedValue;
use tass_symbolic::api::{BigInt, BigRational};

use crate::options::Options;

/// Parses the `-i NAME=VALUE` values: integers, decimals (`2.5`, `1e-3`),
/// fractions (`1/3`, as witnesses print them), `true`/`false`.
pub(super) fn fixed_inputs(options: &Options) -> Result<Vec<(String, FixedValue)>, String> {
    options
        .inputs
        .iter()
        .map(|(name, text)| {
            let value = match text.split_once('/') {
                Some((n, d)) => {
                    let n: BigInt = n.trim().parse().map_err(|_| bad_value(name, text))?;
                    let d: BigInt = d.trim().parse().map_err(|_| bad_value(name, text))?;
                    if d == BigInt::from(0) {
                        return Err(bad_value(name, text));
                    }
                    FixedValue::Real(BigRational::new(n, d))
                }
                None => FixedValue::parse(text).map_err(|e| format!("error: -i {name}: {e}"))?,
            };
            Ok((name.clone(), value))
        })
        .collect()
}

pub(super) fn bad_value(name: &str, text: &str) -> String {
    format!("error: -i {name}={text}: `{text}` is not a number (expected e.g. 10, -3, 2.5, 1/3)")
}
