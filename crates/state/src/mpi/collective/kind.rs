//! The kind of a collective call and where its arguments are, from the
//! model's description of the MPI library.

use tass_model::api::mpi::ArgRole;
use tass_model::api::LibraryFunction as LF;

/// `MPI_UNDEFINED` (a color of `MPI_Comm_split`).
pub(super) const UNDEFINED: i64 = tass_model::api::mpi::MPI_UNDEFINED;

/// What a collective call does (nonblocking forms map to their blocking kind).
pub(crate) type Kind = tass_model::api::mpi::CollectiveOp;

/// The kind of collective call `lf` and whether it is a nonblocking form (a
/// persistent collective init counts as one: each start posts it).
pub(super) fn shape(lf: LF) -> Option<(Kind, bool)> {
    let d = lf.mpi()?;
    if let Some(kind) = d.persistent_collective() {
        return Some((kind, true));
    }
    Some((d.collective()?, d.returns_request()))
}

/// A collective call proper (blocking or nonblocking; not a persistent init,
/// a local step).
pub(crate) fn is_collective(lf: LF) -> bool {
    lf.mpi().is_some_and(|d| d.collective().is_some())
}

/// A persistent collective init (`MPI_Bcast_init`, ...).
pub(crate) fn is_persistent_init(lf: LF) -> bool {
    lf.mpi()
        .is_some_and(|d| d.persistent_collective().is_some())
}

/// Position of the communicator argument of collective call `lf` (for
/// `MPI_Comm_free`, of the pointer to it: see [`peek_collective_comm`]).
pub(super) fn comm_arg(lf: LF) -> usize {
    shape(lf).map_or(0, |(k, _)| positions(k).comm)
}

/// Argument positions of a collective call (the request of a nonblocking form
/// follows the communicator).
#[derive(Clone, Copy, Default)]
pub(super) struct Positions {
    pub(super) sbuf: Option<usize>,
    pub(super) scount: Option<usize>,
    pub(super) scounts: Option<usize>,
    pub(super) sdispls: Option<usize>,
    pub(super) stype: Option<usize>,
    pub(super) rbuf: Option<usize>,
    pub(super) rcount: Option<usize>,
    pub(super) rcounts: Option<usize>,
    pub(super) rdispls: Option<usize>,
    pub(super) rtype: Option<usize>,
    pub(super) op: Option<usize>,
    pub(super) root: Option<usize>,
    pub(super) comm: usize,
}

/// The positions of the arguments of collective `kind`, as the description
/// of its blocking form gives them.
pub(super) fn positions(kind: Kind) -> Positions {
    use ArgRole as R;
    let d = kind.blocking_form();
    Positions {
        sbuf: d.position_of_any(&[R::SendBuffer, R::Buffer]),
        scount: d.position_of_any(&[R::SendCount, R::Count]),
        scounts: d.position(R::SendCounts),
        sdispls: d.position(R::SendDispls),
        stype: d.position_of_any(&[R::SendType, R::Datatype]),
        rbuf: d.position(R::RecvBuffer),
        rcount: d.position(R::RecvCount),
        rcounts: d.position(R::RecvCounts),
        rdispls: d.position(R::RecvDispls),
        rtype: d.position(R::RecvType),
        op: d.position(R::Op),
        root: d.position(R::Root),
        comm: d.position(R::Comm).unwrap_or(0),
    }
}

/// Whether `lf` is a nonblocking collective.
pub(crate) fn is_nonblocking(lf: LF) -> bool {
    is_collective(lf) && matches!(shape(lf), Some((_, true)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_collective_has_its_communicator_and_request_where_the_header_says() {
        // (function, position of the communicator) after mpi.h's prototypes.
        let table = [
            (LF::MpiBarrier, 0),
            (LF::MpiBcast, 4),
            (LF::MpiReduce, 6),
            (LF::MpiAllreduce, 5),
            (LF::MpiGather, 7),
            (LF::MpiGatherv, 8),
            (LF::MpiScatter, 7),
            (LF::MpiScatterv, 8),
            (LF::MpiAllgather, 6),
            (LF::MpiAllgatherv, 7),
            (LF::MpiAlltoall, 6),
            (LF::MpiAlltoallv, 8),
            (LF::MpiScan, 5),
            (LF::MpiExscan, 5),
            (LF::MpiReduceScatter, 5),
            (LF::MpiIbarrier, 0),
            (LF::MpiIalltoallv, 8),
            (LF::MpiIreduceScatter, 5),
            (LF::MpiCommDup, 0),
            (LF::MpiCommSplit, 0),
            (LF::MpiCommFree, 0),
        ];
        for (lf, comm) in table {
            assert!(is_collective(lf), "{lf:?}");
            assert_eq!(comm_arg(lf), comm, "{lf:?}");
        }
        assert!(!is_collective(LF::MpiSend));
    }
}
