//! `tass-prove`: decides whether an assumption implies a predicate, for symbolic
//! expressions of `tass-symbolic`.
//!
//! Symbolic execution asks two kinds of questions (paper Sec. 4.4): is a state
//! *vacuous* (its path condition unsatisfiable: the paper's conservative `nsat`,
//! here [`Prover::is_unsat`](api::Prover::is_unsat)), and does an assertion hold in
//! every concrete state a symbolic state stands for
//! ([`Prover::valid`](api::Prover::valid)`(path condition, assertion)`). Answers are
//! [`Validity::Yes`](api::Validity), `No` (with, when possible, a
//! [`Model`](api::Model): input values that refute it, the counterexample's witness)
//! or `Maybe`. **`Yes` is only said with a proof**: the built-in prover proved it, or
//! a solver answered `unsat` to `assumption && !predicate`.
//!
//! Three provers implement the [`Prover`](api::Prover) trait:
//! - [`BuiltinProver`](api::BuiltinProver): no external program. It simplifies the
//!   predicate under the assumption (`tass-simplify`: Gaussian elimination,
//!   intervals), refutes `assumption && !predicate` by linear arithmetic
//!   (Fourier-Motzkin with integer tightening; nonlinear monomials are opaque
//!   unknowns), and looks for a concrete counterexample by evaluation.
//! - [`HybridProver`](api::HybridProver): the built-in prover first, then SMT solvers
//!   (z3, cvc5, yices) in turn. This is what `--prover auto|z3|cvc5|yices` builds
//!   ([`build_prover`](api::build_prover)).
//! - Any other implementation can be handed to `tass-verify`.
//!
//! The SMT layer ([`SmtSolver`](api::SmtSolver)) talks SMT-LIB 2 to one solver
//! process through rsmt2: a fresh solver state per query (`(reset)`), the solver's
//! own time limit plus a watchdog that kills a solver that overruns it, a restart
//! after a crash or a malformed answer (the query is then `Maybe`), and a cache
//! keyed by the query text. Expressions are translated by matching exhaustively on
//! the symbolic crate's structural view; C division and remainder truncate toward
//! zero; tuples are flattened; arrays compare inside their extent.
//!
//! ```
//! use std::sync::Arc;
//! use tass_prove::api::{BuiltinProver, ModelValue, Prover, Validity};
//! use tass_symbolic::api::{ExprFactory, Type};
//!
//! let f = Arc::new(ExprFactory::new());
//! let prover = BuiltinProver::new(f.clone());
//! let x = f.symbol("x", Type::Int);
//! let positive = f.gt(x, f.int(0));
//!
//! // Over the integers, x > 0 implies x >= 1 ...
//! assert_eq!(prover.valid(positive, f.ge(x, f.int(1))), Validity::Yes);
//! // ... but not x > 1: x = 1 is a counterexample.
//! let answer = prover.valid_with_model(positive, f.gt(x, f.int(1)));
//! assert_eq!(answer.validity, Validity::No);
//! let model = answer.model.expect("a witness");
//! assert_eq!(model.get("x"), Some(&ModelValue::Int(1.into())));
//! // nsat: x > 0 && x < 1 has no integer solution.
//! assert!(prover.is_unsat(f.and(positive, f.lt(x, f.int(1)))));
//! assert_eq!(prover.stats().queries, 3);
//! ```

pub mod api;
mod builtin;
mod choice;
mod engine;
mod enumerate;
mod equalities;
mod float_literals;
mod int_division;
mod linear;
mod model;
mod process;
mod prover;
mod sexp;
mod smt;
mod translate;
mod witness;
