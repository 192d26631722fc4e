//! The public interface of `tass-symbolic`.
//!
//! Everything other crates use is here:
//! - [`ExprFactory`]: builds, interns and canonicalizes expressions; all
//!   operations (`add`, `mul`, `lt`, `and`, `array_read`, `forall`, ...), queries
//!   (`type_of`, `view`, `free_symbols`, `as_concrete_int`, ...), substitution,
//!   printing (`display`, `pretty`) and concrete evaluation (`eval`) are its
//!   methods.
//! - [`Expr`]: a `Copy` handle to an interned expression (equality = identity).
//! - [`Type`], [`ExprView`], [`RelOp`], [`Quantifier`], [`BitOp`]: types,
//!   the structural view of a node and its operator kinds.
//! - [`Value`], [`Assignment`], [`EvalError`], [`FunctionValue`]: concrete
//!   evaluation.
//! - [`BigInt`], [`BigRational`]: the exact number types used throughout
//!   (re-exported from num-bigint 0.4 / num-rational 0.4).

pub use crate::compound::{BitOp, BITWISE_FUNCTIONS};
pub use crate::factory::{ExprFactory, PolynomialTerm};
pub use crate::ieee::ieee_value;
pub use crate::print::ExprDisplay;
pub use crate::types::{
    Assignment, EvalError, Expr, ExprView, FunctionValue, Quantifier, RelOp, Type, Value,
};
pub use num_bigint::BigInt;

/// The map type taken by [`ExprFactory::substitute`] (a `hashbrown` map from
/// expressions to their replacements).
pub type ExprMap = hashbrown::HashMap<Expr, Expr>;
pub use num_rational::BigRational;
