//! The MPI calls of the model as the reduction reads them: which call a
//! transition makes, and where its rank and communicator arguments are.

use tass_model::api::{
    Callee, Expr as ModelExpr, ExprKind, FunctionId, LibraryConstant, LibraryFunction, Model,
    Statement, TransitionId,
};

/// The MPI call at a transition, with its argument list.
pub(super) fn mpi_call(
    model: &Model,
    function: FunctionId,
    transition: TransitionId,
) -> Option<(LibraryFunction, &[ModelExpr])> {
    let body = model.function(function).body.as_ref()?;
    match &body.transition(transition).statement {
        Statement::Call {
            callee: Callee::Library(lf),
            args,
            ..
        } if lf.is_mpi() => Some((*lf, args.as_slice())),
        _ => None,
    }
}

/// The values of `MPI_ANY_SOURCE` and `MPI_PROC_NULL` (as the evaluator gives them).
pub(super) const ANY_SOURCE: i64 = tass_model::api::mpi::MPI_ANY_SOURCE;
pub(super) const PROC_NULL: i64 = tass_model::api::mpi::MPI_PROC_NULL;

/// The argument positions of the destination and the communicator of the
/// blocking send `lf` makes.
pub(super) fn send_args(lf: LibraryFunction) -> Option<(usize, usize)> {
    use tass_model::api::mpi::{Blocking, MpiKind};
    let d = lf.mpi()?;
    if d.kind != MpiKind::Send || d.blocking != Blocking::Blocks {
        return None;
    }
    d.send_envelope().map(|e| (e.rank, e.comm))
}

/// The argument positions of the source and the communicator of the receive (or
/// receive half) `lf` makes.
pub(super) fn receive_args(lf: LibraryFunction) -> Option<(usize, usize)> {
    use tass_model::api::mpi::{Blocking, MpiKind};
    let d = lf.mpi()?;
    if !matches!(d.kind, MpiKind::Receive | MpiKind::SendReceive) || d.blocking != Blocking::Blocks
    {
        return None;
    }
    d.receive_envelope().map(|e| (e.rank, e.comm))
}

pub(super) fn is_comm_world(e: Option<&ModelExpr>) -> bool {
    matches!(
        e.map(|e| &e.kind),
        Some(ExprKind::LibraryConstant(LibraryConstant::MpiCommWorld))
    )
}
