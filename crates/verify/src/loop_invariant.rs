//! What `verify` and `compare` accept of loop invariants before a run starts.
//!
//! Loop-invariant symbolic execution is implemented for one process
//! (`tass-semantics`' `exec/loop_invariant.rs` executes the arrivals at the
//! loop head; `tass_model::api::prepare_loop_invariants` computes the write
//! sets) and, in `verify`, for several processes aligned at the loop heads
//! (`tass-state`'s `loop_sync.rs`, which refuses at run time what the
//! alignment cannot cover), and joint invariants in `compare` (`tass-state`'s
//! `loop_joint.rs`). Collective invariants in `compare`, joint ones in
//! `verify` and `spec.x` in the specification are refused here with the
//! pragma's position, never given a verdict.

use tass_model::api::{CollectiveKind, ExprKind, LoopInvariant, Model, Statement};
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
                if command == Command::Verify {
                    return refuse(format!(
                        "joint loop invariant `{}`: joint invariants relate the two programs of \
                         `tass compare --spec S --impl I`; with `tass verify` write \
                         `#pragma TASS collective invariant` instead",
                        inv.id
                    ));
                }
                joint_invariant_names(inv, command)?;
                continue;
            }
            if command != Command::Verify {
                return refuse(format!(
                    "loop invariant `{}`: collective loop invariants are not supported in tass \
                     compare; write `#pragma TASS joint invariant {} ...` in both programs (the \
                     implementation's may name `spec.x`), or check the program alone with \
                     `tass verify`",
                    inv.id, inv.id
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

/// What a joint invariant may name: `spec.x` only in the implementation
/// (the specification's own expression must be about itself).
fn joint_invariant_names(inv: &LoopInvariant, command: Command) -> Result<(), EngineError> {
    let mut spec_var = None;
    inv.condition.visit(&mut |x| {
        if spec_var.is_none() && matches!(x.kind, ExprKind::SpecVar(_)) {
            spec_var = Some(x.span.clone());
        }
    });
    match spec_var {
        Some(span) if command == Command::CompareSpec => Err(EngineError::invalid(
            format!(
                "joint loop invariant `{}`: `spec.x` in the specification; the specification's \
                 joint invariant is about its own variables (write the relation in the \
                 implementation's `#pragma TASS joint invariant {}`)",
                inv.id, inv.id
            ),
            Some(&span),
        )),
        _ => Ok(()),
    }
}
