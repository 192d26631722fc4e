//! Choosing and building a prover from user options (the CLI's `--prover`).

use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use tass_symbolic::api::ExprFactory;

use crate::engine::{BuiltinProver, HybridProver};
use crate::prover::Prover;
use crate::smt::{SmtSolver, SolverError, SolverKind};

/// Which prover to use (`--prover`): the one type for this choice, used by
/// `tass-verify` and the CLI as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum ProverChoice {
    /// Built-in prover, then the installed SMT solvers (see [`AUTO_ORDER`]); the
    /// built-in prover alone when none is installed.
    #[default]
    Auto,
    /// The built-in prover only.
    Builtin,
    /// Built-in prover, then z3.
    Z3,
    /// Built-in prover, then cvc5.
    Cvc5,
    /// Built-in prover, then yices.
    Yices,
}

/// The solvers `Auto` uses, in the order it asks them: yices decides quantifier-free
/// queries fastest; z3 takes the quantified ones yices declines and the ones yices
/// leaves open; cvc5 takes z3's place if one of them is not installed. When all
/// three are, cvc5 is asked about nonlinear queries only, with
/// [`BRANCH_LIMIT`](crate::api::BRANCH_LIMIT), before z3 (it decides or gives up
/// in a fraction of a second where z3 often spends its whole limit).
pub const AUTO_ORDER: [SolverKind; 3] = [SolverKind::Yices, SolverKind::Z3, SolverKind::Cvc5];

impl FromStr for ProverChoice {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.to_ascii_lowercase().as_str() {
            "auto" => Ok(ProverChoice::Auto),
            "builtin" | "built-in" => Ok(ProverChoice::Builtin),
            "z3" => Ok(ProverChoice::Z3),
            "cvc5" => Ok(ProverChoice::Cvc5),
            "yices" | "yices2" | "yices-smt2" => Ok(ProverChoice::Yices),
            other => Err(format!(
                "unknown prover `{other}`: expected auto, builtin, z3, cvc5 or yices"
            )),
        }
    }
}

impl fmt::Display for ProverChoice {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ProverChoice::Auto => "auto",
            ProverChoice::Builtin => "builtin",
            ProverChoice::Z3 => "z3",
            ProverChoice::Cvc5 => "cvc5",
            ProverChoice::Yices => "yices",
        })
    }
}

/// Everything needed to build a prover.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProverOptions {
    /// Which prover.
    pub choice: ProverChoice,
    /// The solver's program (a path or a name on `PATH`) for an explicit solver
    /// choice; `None`: the solver's usual command.
    pub solver_command: Option<String>,
    /// Time limit of each solver query.
    pub timeout: Duration,
    /// Ask the built-in prover before the solvers (default `true`).
    pub builtin_first: bool,
}

impl ProverOptions {
    /// Options for `choice` with the default time limit ([`default_timeout`]).
    pub fn new(choice: ProverChoice) -> ProverOptions {
        ProverOptions {
            choice,
            solver_command: None,
            timeout: default_timeout(),
            builtin_first: true,
        }
    }
}

impl Default for ProverOptions {
    fn default() -> Self {
        ProverOptions::new(ProverChoice::Auto)
    }
}

/// The environment variable overriding the default solver time limit (seconds,
/// fractions allowed).
pub const TIMEOUT_ENV: &str = "TASS_SOLVER_TIMEOUT";

/// 10 seconds, or the value of `TASS_SOLVER_TIMEOUT` when it is a positive number.
pub fn default_timeout() -> Duration {
    parse_timeout(std::env::var(TIMEOUT_ENV).ok().as_deref())
}

fn parse_timeout(value: Option<&str>) -> Duration {
    value
        .and_then(|v| v.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0 && *s < 1e6)
        .map(Duration::from_secs_f64)
        .unwrap_or(Duration::from_secs(10))
}

/// The first usable solver in [`AUTO_ORDER`] (so the CLI can warn when there is none).
pub fn smt_solver_found() -> Option<SolverKind> {
    AUTO_ORDER
        .into_iter()
        .find(|&k| SmtSolver::new(k, None, Duration::from_secs(1)).is_ok())
}

/// Builds the prover `options` describe. An explicitly chosen solver that is missing
/// or does not answer is an error (with what to do); `Auto` silently falls back to
/// the built-in prover when no solver is installed.
pub fn build_prover(
    factory: Arc<ExprFactory>,
    options: &ProverOptions,
) -> Result<Box<dyn Prover>, SolverError> {
    let kind = match options.choice {
        ProverChoice::Builtin => return Ok(Box::new(BuiltinProver::new(factory))),
        ProverChoice::Auto => {
            let mut backends: Vec<SmtSolver> = AUTO_ORDER
                .into_iter()
                .filter_map(|k| SmtSolver::new_lazy(k, None, options.timeout).ok())
                .collect();
            if backends.is_empty() {
                return Ok(Box::new(BuiltinProver::new(factory)));
            }
            let helper = (backends.len() > 2).then(|| backends.remove(2));
            return Ok(Box::new(match helper {
                Some(h) => {
                    HybridProver::with_nonlinear_helper(factory, backends, h, options.builtin_first)
                }
                None => HybridProver::with_builtin(factory, backends, options.builtin_first),
            }));
        }
        ProverChoice::Z3 => SolverKind::Z3,
        ProverChoice::Cvc5 => SolverKind::Cvc5,
        ProverChoice::Yices => SolverKind::Yices,
    };
    let solver = SmtSolver::new_checked(kind, options.solver_command.as_deref(), options.timeout)?;
    Ok(Box::new(HybridProver::with_builtin(
        factory,
        vec![solver],
        options.builtin_first,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timeout_from_the_environment_value() {
        assert_eq!(parse_timeout(None), Duration::from_secs(10));
        assert_eq!(parse_timeout(Some("2.5")), Duration::from_millis(2500));
        assert_eq!(parse_timeout(Some(" 30 ")), Duration::from_secs(30));
        for bad in ["", "-1", "0", "abc", "inf", "NaN"] {
            assert_eq!(parse_timeout(Some(bad)), Duration::from_secs(10), "{bad}");
        }
    }

    #[test]
    fn choices_parse_and_print() {
        for c in [
            ProverChoice::Auto,
            ProverChoice::Builtin,
            ProverChoice::Z3,
            ProverChoice::Cvc5,
            ProverChoice::Yices,
        ] {
            assert_eq!(c.to_string().parse::<ProverChoice>(), Ok(c));
        }
        let e = "cvc4".parse::<ProverChoice>().expect_err("unknown");
        assert!(e.contains("auto, builtin, z3, cvc5 or yices"), "{e}");
    }
}
