//! The public interface of `tass-simplify`.
//!
//! - [`Simplifier`]: analyses one assumption (path condition) and simplifies
//!   expressions under it; gives back the reduced assumption.
//! - [`SimplifierCache`]: one shared simplifier per assumption.
//! - [`Interval`], [`Bound`]: value ranges ([`Simplifier::bounds`]).

pub use crate::interval::{Bound, Interval};
pub use crate::simplifier::{Simplifier, SimplifierCache};
