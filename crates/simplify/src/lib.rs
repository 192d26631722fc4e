//! `tass-simplify`: simplification of symbolic expressions under an assumption.
//!
//! Given an assumption `phi` (a path condition) a [`Simplifier`](api::Simplifier)
//! extracts what `phi` says (paper Sec. 4.4-4.5):
//! - linear equalities in the *monomials* (explicit `f == 0` and those implied by
//!   matching bounds `f >= c && f <= c`), solved by exact Gaussian elimination;
//!   monomials that get a concrete value are substituted everywhere;
//! - interval bounds on monic linear forms, from the inequalities;
//! - boolean facts (unit literals), and contradictions.
//!
//! It then rewrites any expression into one that is equal to it wherever `phi`
//! holds, and gives back the reduced assumption. Simplifiers are cached per
//! assumption ([`SimplifierCache`](api::SimplifierCache)) and results per
//! expression.
//!
//! The paper's example:
//!
//! ```
//! use std::sync::Arc;
//! use tass_symbolic::api::{ExprFactory, Type};
//! use tass_simplify::api::Simplifier;
//!
//! let f = Arc::new(ExprFactory::new());
//! let x: Vec<_> = (0..3).map(|i| f.symbol(&format!("X{i}"), Type::Int)).collect();
//! let sum = f.add_all(&Type::Int, x.iter().copied());
//! let pc = f.and_all([
//!     f.le(sum, f.int(6)),
//!     f.ge(sum, f.int(6)),
//!     f.eq(f.add_all(&Type::Int, [x[0], f.mul(f.int(-2), x[1]), x[2]]), f.int(18)),
//! ]);
//! let s = Simplifier::new(f.clone(), pc);
//! assert_eq!(f.pretty(s.reduced_assumption()), "X0 + X2 == 10");
//! let a = f.add_all(&Type::Int, x.iter().map(|&v| f.mul(v, v)));
//! assert_eq!(f.pretty(s.simplify(a)), "X0*X0 + X2*X2 + 16");
//! assert_eq!(s.simplify(f.gt(x[1], f.int(0))), f.ff());
//! ```

pub mod api;
mod interval;
mod linear;
mod simplifier;
