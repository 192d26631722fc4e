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
pub(super) const ANY_SOURCE: i64 = -1;
pub(super) const PROC_NULL: i64 = -2;

/// The argument positions of the destination and the communicator of the
/// blocking send `lf` makes.
pub(super) fn send_args(lf: LibraryFunction) -> Option<(usize, usize)> {
    use LibraryFunction as L;
    match lf {
        L::MpiSend | L::MpiRsend | L::MpiSsend | L::MpiBsend => Some((3, 5)),
        _ => None,
    }
}

/// The argument positions of the source and the communicator of the receive (or
/// receive half) `lf` makes.
pub(super) fn receive_args(lf: LibraryFunction) -> Option<(usize, usize)> {
    use LibraryFunction as L;
    match lf {
        L::MpiRecv => Some((3, 5)),
        L::MpiSendrecv => Some((8, 10)),
        L::MpiSendrecvReplace => Some((5, 7)),
        _ => None,
    }
}

pub(super) fn is_comm_world(e: Option<&ModelExpr>) -> bool {
    matches!(
        e.map(|e| &e.kind),
        Some(ExprKind::LibraryConstant(LibraryConstant::MpiCommWorld))
    )
}
