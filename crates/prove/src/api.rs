//! The public interface of `tass-prove`.
//!
//! - [`Prover`]: the trait (`valid`, `valid_with_model`, `is_unsat`, `stats`), with
//!   [`Validity`], [`Answer`], [`ProverStats`].
//! - [`BuiltinProver`], [`HybridProver`]: the implementations.
//! - [`ProverChoice`], [`ProverOptions`], [`build_prover`], [`smt_solver_found`]:
//!   what the command line uses.
//! - [`Model`], [`ModelValue`]: counterexample values.
//! - [`SmtSolver`], [`SmtQuery`], [`SatOutcome`], [`SolverKind`], [`SolverError`],
//!   [`BackendStats`], [`smt_query`]: the SMT-LIB session layer, usable on its own.

pub use crate::choice::{
    build_prover, default_timeout, smt_solver_found, ProverChoice, ProverOptions, AUTO_ORDER,
    TIMEOUT_ENV,
};
pub use crate::engine::{BuiltinProver, HybridProver};
pub use crate::model::{Model, ModelValue, ValueSort};
pub use crate::prover::{Answer, Effort, Prover, ProverStats, Validity, BRANCH_LIMIT};
pub use crate::smt::{
    solvers_on_path, BackendStats, ModelTerm, SatOutcome, SmtQuery, SmtSolver, SolverError,
    SolverKind,
};
pub use crate::translate::smt_query;
