//! Checking `#pragma TASS ltl` formulas: each negated formula becomes a
//! generalized Büchi automaton (`buchi.rs`), whose product with the program's
//! state space is explored in full (`product.rs`); a reachable accepting,
//! weakly fair cycle of the product is a run violating the formula.

mod buchi;
mod product;
mod visibility;

pub(crate) use product::{check_formulas, LtlOutcome};

use tass_model::api::{Expr, ExprKind, LtlAtom, Model};
use tass_semantics::api::EngineError;

/// Refuses a constant rank in an `ltl` atom (`PROC[5]@cs`, `{PROC[5].x > 0}`)
/// that names no process of the run.
pub(crate) fn check_ranks(model: &Model, nprocs: usize) -> Result<(), EngineError> {
    let mut ranks: Vec<Expr> = Vec::new();
    for property in &model.ltl {
        property.formula.for_each_atom(&mut |atom| match atom {
            LtlAtom::At { rank, .. } | LtlAtom::Terminated { rank } => ranks.push(rank.clone()),
            LtlAtom::Condition(c) => c.visit(&mut |x| {
                if let ExprKind::RemoteVar { rank, .. } = &x.kind {
                    ranks.push((**rank).clone());
                }
            }),
        });
    }
    for rank in ranks {
        if let ExprKind::IntLit(r) = rank.kind {
            if r < 0 || r >= nprocs as i128 {
                return Err(EngineError::invalid(
                    format!(
                        "PROC[{r}] in an ltl formula names no process: the run has {nprocs} \
                         process(es), ranks 0..{}; change the rank or the process count (-n)",
                        nprocs - 1
                    ),
                    Some(&rank.span),
                ));
            }
        }
    }
    Ok(())
}
