//! The `-i NAME=VALUE` inputs: the values the user fixes, parsed for the engine.

use tass_state::api::FixedValue;
use tass_symbolic::api::{BigInt, BigRational};

use crate::error::{InputError, InputErrorKind};
use crate::options::Options;

/// Parses the `-i NAME=VALUE` values: integers, decimals (`2.5`, `1e-3`),
/// fractions (`1/3`, as witnesses print them), `true`/`false`, and a zero with a
/// minus sign (`-0`, `-0.0`: a negative zero for floating inputs).
pub(super) fn fixed_inputs(options: &Options) -> Result<Vec<(String, FixedValue)>, InputError> {
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
                None => FixedValue::parse(text).map_err(|reason| InputError {
                    name: name.clone(),
                    text: text.clone(),
                    kind: InputErrorKind::Unreadable(reason),
                })?,
            };
            Ok((name.clone(), value))
        })
        .collect()
}

fn bad_value(name: &str, text: &str) -> InputError {
    InputError {
        name: name.to_string(),
        text: text.to_string(),
        kind: InputErrorKind::NotANumber,
    }
}
