//! What `verify` and `compare` accept of loop invariants before a run starts.
//!
//! Loop-invariant symbolic execution is implemented for one process
//! (`tass-semantics`' `exec/loop_invariant.rs` executes the arrivals at the
//! loop head; `tass_model::api::prepare_loop_invariants` computes the write
//! sets) and, in `verify`, for several processes aligned at the loop heads
//! (`tass-state`'s `loop_sync.rs`, which refuses at run time what the
//! alignment cannot cover). Joint invariants and invariants in `compare` are
//! not: such programs are refused here with the pragma's position, never
//! given a verdict.

use tass_model::api::{CollectiveKind, ExprKind, Model, Statement};
use tass_semantics::api::EngineError;

use crate::collective_assert::Command;

/// Refuses the loop invariants of `model` that `command` with `nprocs`
/// processes cannot use.
pub(crate) fn check_loop_invariants(
    model: &Model,
    command: Command,
    nprocs: usize,
) -> Result<(), EngineError> {
    for f in &model.functions {
        let Some(body) = &f.body else { continue };
        for t in body.graph.edge_weights() {
            let Statement::LoopInvariant(inv) = &t.statement else {
                continue;
            };
            let refuse = |message: String| Err(EngineError::invalid(message, Some(&inv.span)));
            if let Some(why) = &inv.refused {
                return Err(EngineError::invalid(
                    format!(
                        "loop invariant `{}` cannot be used: {}",
                        inv.id, why.message
                    ),
                    Some(&why.span),
                ));
            }
            if inv.kind == CollectiveKind::Joint {
                return refuse(format!(
                    "joint loop invariant `{}`: joint invariants (tass compare) are not supported yet; \
                     bound the loop and use `#pragma TASS joint assert` instead",
                    inv.id
                ));
            }
            if command != Command::Verify {
                return refuse(format!(
                    "loop invariant `{}`: loop invariants are not supported in tass compare yet; \
                     check the program with `tass verify` (one process)",
                    inv.id
                ));
            }
            if nprocs > 1 {
                continue;
            }
            let mut remote = None;
            inv.condition.visit(&mut |x| {
                if remote.is_none()
                    && matches!(x.kind, ExprKind::RemoteVar { .. } | ExprKind::SpecVar(_))
                {
                    remote = Some(x.span.clone());
                }
            });
            if let Some(span) = remote {
                return Err(EngineError::invalid(
                    format!(
                        "loop invariant `{}`: PROC[e].x needs the collective form (several \
                         processes, -n 2 or more); with one process name the variable directly",
                        inv.id
                    ),
                    Some(&span),
                ));
            }
        }
    }
    Ok(())
}
