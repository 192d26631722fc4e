//! The prover of a run: built once from `--prover`, shared by the engines of a
//! `compare` run and by the output comparison.

use std::sync::Arc;

use tass_prove::api::{
    build_prover, Answer, Effort, Prover, ProverChoice, ProverOptions, ProverStats, SolverError,
    Validity,
};
use tass_symbolic::api::{Expr, ExprFactory};

/// One prover shared by the engines of a run and by the output comparison, so that
/// its caches and counters are shared too.
pub(super) struct SharedProver(pub(super) Arc<dyn Prover>);

impl Prover for SharedProver {
    fn valid(&self, assumption: Expr, predicate: Expr) -> Validity {
        self.0.valid(assumption, predicate)
    }
    fn valid_with_model(&self, assumption: Expr, predicate: Expr) -> Answer {
        self.0.valid_with_model(assumption, predicate)
    }
    fn is_unsat(&self, pc: Expr) -> bool {
        self.0.is_unsat(pc)
    }
    fn valid_with_effort(&self, assumption: Expr, predicate: Expr, effort: Effort) -> Validity {
        self.0.valid_with_effort(assumption, predicate, effort)
    }
    fn is_unsat_with_effort(&self, pc: Expr, effort: Effort) -> bool {
        self.0.is_unsat_with_effort(pc, effort)
    }
    fn stats(&self) -> ProverStats {
        self.0.stats()
    }
    fn name(&self) -> String {
        self.0.name()
    }
}

/// Builds the prover for `choice` over `factory`.
pub(super) fn make_prover(
    factory: &Arc<ExprFactory>,
    choice: &ProverChoice,
) -> Result<Arc<dyn Prover>, SolverError> {
    build_prover(Arc::clone(factory), &ProverOptions::new(*choice)).map(Arc::from)
}
