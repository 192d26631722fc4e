//! `tass-semantics`: what model expressions and statements *mean* (paper Sec. 2).
//!
//! The [`api::Environment`] trait is a high-level view of a state: get and set
//! dynamic variables, push and pop frames, allocate and free heap objects, the
//! path condition. `tass-state` implements it; this crate never sees how states
//! are stored.
//!
//! The [`api::Evaluator`] turns a model expression into a dynamic value under an
//! environment without changing it (expressions are side-effect free). C
//! semantics over the mathematical numbers: integer `/` truncates toward zero,
//! `%` takes the dividend's sign, `double` is real, comparisons give booleans,
//! `&&`/`||`/`?:` evaluate later operands only under the earlier ones' outcome.
//! Along the way it checks array bounds, pointer offsets and validity, division
//! by zero and uninitialised reads: each check asks the [`api::Oracle`] (a
//! `tass_prove` prover) whether the claim follows from the path condition; a
//! claim that may fail becomes a [`api::Violation`] (`provable` with a witness, or
//! `possible`), and evaluation continues assuming the claim.
//!
//! [`api::execute_transition`] executes one guarded statement: assignments, asserts,
//! assumes, calls and returns of user functions, the library (`malloc` & co,
//! `rand`, `printf`, `exit`, `time`, math functions as uninterpreted functions;
//! `<string.h>` and `atoi`/`strtol` in `libc.rs`). MPI calls are intercepted by `tass-state` before they
//! reach the executor.
//!
//! ```
//! use tass_semantics::api::{parse_real_literal, Property, Certainty};
//! use tass_symbolic::api::BigRational;
//!
//! // Real constants are exact rationals: 0.1 is 1/10, not a binary fraction.
//! assert_eq!(parse_real_literal("0.1"), Some(BigRational::new(1.into(), 10.into())));
//! assert_eq!(Property::OutOfBounds.id(), "out-of-bounds");
//! assert_eq!(Certainty::Possible.id(), "possible");
//! ```

pub mod api;
mod bytes;
mod env;
mod eval;
mod exec;
mod float;
mod libc;
mod oracle;
mod report;
#[cfg(test)]
mod tests;
mod unions;
mod window;
