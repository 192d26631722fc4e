//! The MPI library, described once: for each function of `<mpi.h>` that tass
//! models, what kind of operation it is, whether it may wait for other
//! processes, and the role of each argument in C order; and the values of the
//! integer constants (`MPI_PROC_NULL`, `MPI_ANY_SOURCE`, ...).
//!
//! Everything that needs to know where an argument is reads it here: the front
//! end renders `<mpi.h>`'s prototypes from [`MpiFunction::params`], the engine
//! finds a call's destination, tag, buffers or root with
//! [`MpiFunction::position`], and the partial-order reduction asks the same.
//! So an argument moves in one place, and a test compares the header with the
//! table instead of three hand-written copies.

use crate::library::{LibraryConstant, LibraryFunction};

mod function;
mod kinds;

pub use function::{Envelope, MpiFunction, Param};
pub use kinds::{rank_values, ArgRole, Blocking, CollectiveOp, MpiKind, Rank, RmaOp};

/// `MPI_ANY_SOURCE` as the engine gives it (an `int`).
pub const MPI_ANY_SOURCE: i64 = -1;
/// `MPI_ANY_TAG` as the engine gives it.
pub const MPI_ANY_TAG: i64 = -1;
/// `MPI_PROC_NULL` as the engine gives it.
pub const MPI_PROC_NULL: i64 = -2;
/// `MPI_UNDEFINED` as the engine gives it (a color of `MPI_Comm_split`, an
/// index `MPI_Waitany` returns).
pub const MPI_UNDEFINED: i64 = -32766;
/// `MPI_SUCCESS`.
pub const MPI_SUCCESS: i64 = 0;
/// `MPI_BSEND_OVERHEAD`: the bytes an `MPI_Bsend` message takes in the
/// attached buffer beyond its data (Open MPI's value, so that a program sized
/// for it runs the same under tass and under mpirun).
pub const MPI_BSEND_OVERHEAD: i64 = 128;
/// `MPI_INFO_NULL` (`MPI_Info` is an `int` in tass's `<mpi.h>`: no info
/// key changes what tass checks).
pub const MPI_INFO_NULL: i64 = 0;
/// `MPI_LOCK_EXCLUSIVE` (Open MPI's value).
pub const MPI_LOCK_EXCLUSIVE: i64 = 1;
/// `MPI_LOCK_SHARED` (Open MPI's value).
pub const MPI_LOCK_SHARED: i64 = 2;

impl LibraryConstant {
    /// The integer value of a constant the header declares `const int`
    /// (`MPI_ANY_SOURCE`, `MPI_PROC_NULL`, ...); `None` for handles.
    pub fn int_value(self) -> Option<i64> {
        use LibraryConstant::*;
        Some(match self {
            MpiSuccess => MPI_SUCCESS,
            MpiAnySource => MPI_ANY_SOURCE,
            MpiAnyTag => MPI_ANY_TAG,
            MpiProcNull => MPI_PROC_NULL,
            MpiUndefined => MPI_UNDEFINED,
            MpiBsendOverhead => MPI_BSEND_OVERHEAD,
            MpiInfoNull => MPI_INFO_NULL,
            MpiLockExclusive => MPI_LOCK_EXCLUSIVE,
            MpiLockShared => MPI_LOCK_SHARED,
            // The assertions of synchronisation calls (Open MPI's values).
            MpiModeNocheck => 1,
            MpiModeNostore => 2,
            MpiModeNoput => 4,
            MpiModeNoprecede => 8,
            MpiModeNosucceed => 16,
            _ => return None,
        })
    }

    /// The C type `<mpi.h>` declares the constant with (`None` for the
    /// constants of other headers).
    pub fn mpi_c_type(self) -> Option<&'static str> {
        use LibraryConstant::*;
        Some(match self {
            MpiCommWorld | MpiCommSelf | MpiCommNull => "MPI_Comm",
            MpiAnySource | MpiAnyTag | MpiProcNull | MpiSuccess | MpiUndefined
            | MpiBsendOverhead => "int",
            MpiGroupNull | MpiGroupEmpty => "MPI_Group",
            MpiStatusIgnore | MpiStatusesIgnore => "MPI_Status *",
            MpiRequestNull => "MPI_Request",
            MpiInt | MpiLong | MpiFloat | MpiDouble | MpiChar | MpiByte | MpiUnsigned
            | MpiLongLong | MpiDoubleInt | Mpi2Int | MpiLongDouble | MpiDatatypeNull => {
                "MPI_Datatype"
            }
            MpiInPlace => "void *",
            MpiSum | MpiProd | MpiMin | MpiMax | MpiLand | MpiLor | MpiBand | MpiBor
            | MpiMaxloc | MpiMinloc | MpiOpNull | MpiReplace | MpiNoOp => "MPI_Op",
            MpiWinNull => "MPI_Win",
            MpiInfoNull => "MPI_Info",
            MpiLockExclusive | MpiLockShared | MpiModeNocheck | MpiModeNostore | MpiModeNoput
            | MpiModeNoprecede | MpiModeNosucceed => "int",
            Stdout | Stderr => return None,
        })
    }
}

macro_rules! params {
    ($($ty:literal $name:ident : $role:ident),* $(,)?) => {
        &[$(Param { c_type: $ty, name: stringify!($name), role: ArgRole::$role }),*]
    };
}

/// A blocking call's parameters and its immediate (`MPI_I...`) form's: the same
/// list with the request handle appended.
macro_rules! blocking_and_immediate {
    ($blocking:ident, $immediate:ident = $($list:tt)*) => {
        const $blocking: &[Param] = params!($($list)*);
        const $immediate: &[Param] = params!($($list)* "MPI_Request *" request: Request);
    };
}

/// A persistent collective init's parameters (MPI-4): the blocking form's,
/// then an info and the request.
macro_rules! persistent_collective {
    ($name:ident = $($list:tt)*) => {
        const $name: &[Param] = params!(
            $($list)* "MPI_Info" info: Info, "MPI_Request *" request: Request
        );
    };
}

macro_rules! mpi_fn {
    ($f:ident, $kind:expr, $blocking:ident, $result:literal, $params:expr) => {
        MpiFunction {
            function: LibraryFunction::$f,
            kind: $kind,
            blocking: Blocking::$blocking,
            result: $result,
            params: $params,
        }
    };
}

use CollectiveOp as C;
use MpiKind::*;

blocking_and_immediate! { SEND, ISEND =
    "const void *" buf: Buffer, "int" count: Count, "MPI_Datatype" datatype: Datatype,
    "int" dest: Dest, "int" tag: Tag, "MPI_Comm" comm: Comm,
}
blocking_and_immediate! { REDUCE_ALL, IREDUCE_ALL =
    "const void *" sendbuf: SendBuffer, "void *" recvbuf: RecvBuffer, "int" count: Count,
    "MPI_Datatype" datatype: Datatype, "MPI_Op" op: Op, "MPI_Comm" comm: Comm,
}
blocking_and_immediate! { GATHER, IGATHER =
    "const void *" sendbuf: SendBuffer, "int" sendcount: SendCount,
    "MPI_Datatype" sendtype: SendType, "void *" recvbuf: RecvBuffer, "int" recvcount: RecvCount,
    "MPI_Datatype" recvtype: RecvType, "int" root: Root, "MPI_Comm" comm: Comm,
}
blocking_and_immediate! { GATHERV, IGATHERV =
    "const void *" sendbuf: SendBuffer, "int" sendcount: SendCount,
    "MPI_Datatype" sendtype: SendType, "void *" recvbuf: RecvBuffer,
    "const int *" recvcounts: RecvCounts, "const int *" displs: RecvDispls,
    "MPI_Datatype" recvtype: RecvType, "int" root: Root, "MPI_Comm" comm: Comm,
}
blocking_and_immediate! { SCATTERV, ISCATTERV =
    "const void *" sendbuf: SendBuffer, "const int *" sendcounts: SendCounts,
    "const int *" displs: SendDispls, "MPI_Datatype" sendtype: SendType,
    "void *" recvbuf: RecvBuffer, "int" recvcount: RecvCount, "MPI_Datatype" recvtype: RecvType,
    "int" root: Root, "MPI_Comm" comm: Comm,
}
blocking_and_immediate! { ALLGATHER, IALLGATHER =
    "const void *" sendbuf: SendBuffer, "int" sendcount: SendCount,
    "MPI_Datatype" sendtype: SendType, "void *" recvbuf: RecvBuffer, "int" recvcount: RecvCount,
    "MPI_Datatype" recvtype: RecvType, "MPI_Comm" comm: Comm,
}
blocking_and_immediate! { ALLGATHERV, IALLGATHERV =
    "const void *" sendbuf: SendBuffer, "int" sendcount: SendCount,
    "MPI_Datatype" sendtype: SendType, "void *" recvbuf: RecvBuffer,
    "const int *" recvcounts: RecvCounts, "const int *" displs: RecvDispls,
    "MPI_Datatype" recvtype: RecvType, "MPI_Comm" comm: Comm,
}
blocking_and_immediate! { ALLTOALLV, IALLTOALLV =
    "const void *" sendbuf: SendBuffer, "const int *" sendcounts: SendCounts,
    "const int *" sdispls: SendDispls, "MPI_Datatype" sendtype: SendType,
    "void *" recvbuf: RecvBuffer, "const int *" recvcounts: RecvCounts,
    "const int *" rdispls: RecvDispls, "MPI_Datatype" recvtype: RecvType, "MPI_Comm" comm: Comm,
}
blocking_and_immediate! { REDUCE_SCATTER, IREDUCE_SCATTER =
    "const void *" sendbuf: SendBuffer, "void *" recvbuf: RecvBuffer,
    "const int *" recvcounts: RecvCounts, "MPI_Datatype" datatype: Datatype, "MPI_Op" op: Op,
    "MPI_Comm" comm: Comm,
}

persistent_collective! { BARRIER_INIT = "MPI_Comm" comm: Comm, }
persistent_collective! { BCAST_INIT =
    "void *" buffer: Buffer, "int" count: Count, "MPI_Datatype" datatype: Datatype,
    "int" root: Root, "MPI_Comm" comm: Comm,
}
persistent_collective! { REDUCE_INIT =
    "const void *" sendbuf: SendBuffer, "void *" recvbuf: RecvBuffer, "int" count: Count,
    "MPI_Datatype" datatype: Datatype, "MPI_Op" op: Op, "int" root: Root, "MPI_Comm" comm: Comm,
}
persistent_collective! { ALLREDUCE_INIT =
    "const void *" sendbuf: SendBuffer, "void *" recvbuf: RecvBuffer, "int" count: Count,
    "MPI_Datatype" datatype: Datatype, "MPI_Op" op: Op, "MPI_Comm" comm: Comm,
}
persistent_collective! { GATHER_INIT =
    "const void *" sendbuf: SendBuffer, "int" sendcount: SendCount,
    "MPI_Datatype" sendtype: SendType, "void *" recvbuf: RecvBuffer, "int" recvcount: RecvCount,
    "MPI_Datatype" recvtype: RecvType, "int" root: Root, "MPI_Comm" comm: Comm,
}
persistent_collective! { ALLGATHER_INIT =
    "const void *" sendbuf: SendBuffer, "int" sendcount: SendCount,
    "MPI_Datatype" sendtype: SendType, "void *" recvbuf: RecvBuffer, "int" recvcount: RecvCount,
    "MPI_Datatype" recvtype: RecvType, "MPI_Comm" comm: Comm,
}

const GROUP_RANGE: &[Param] = params!(
    "MPI_Group" group: Group, "int" n: Length, "const int *" ranks: Ranks, "MPI_Group *" newgroup: NewGroup,
);

/// Every MPI function tass models, in the order of [`LibraryFunction`]'s MPI
/// variants (from `MPI_Init`), so that [`LibraryFunction::mpi`] is an index.
/// One row a function, `mpi_fn! { ... }` in braces so that rustfmt keeps each
/// row compact; the rows repeat one shape by design (docs/style.md).
pub const MPI_FUNCTIONS: &[MpiFunction] = &[
    mpi_fn! { MpiInit, Lifetime, Returns, "int", params!(
        "int *" argc: Argc, "char ***" argv: Argv,
    ) },
    mpi_fn! { MpiFinalize, Lifetime, Returns, "int", &[] },
    mpi_fn! { MpiCommRank, Query, Returns, "int", params!(
        "MPI_Comm" comm: Comm, "int *" rank: RankOut,
    ) },
    mpi_fn! { MpiCommSize, Query, Returns, "int", params!(
        "MPI_Comm" comm: Comm, "int *" size: SizeOut,
    ) },
    mpi_fn! { MpiSend, Send, Blocks, "int", SEND },
    mpi_fn! { MpiSsend, Send, Blocks, "int", SEND },
    mpi_fn! { MpiBsend, Send, Blocks, "int", SEND },
    mpi_fn! { MpiRsend, Send, Blocks, "int", SEND },
    mpi_fn! { MpiRecv, Receive, Blocks, "int", params!(
        "void *" buf: Buffer, "int" count: Count, "MPI_Datatype" datatype: Datatype,
        "int" source: Source, "int" tag: Tag, "MPI_Comm" comm: Comm, "MPI_Status *" status: Status,
    ) },
    mpi_fn! { MpiSendrecv, SendReceive, Blocks, "int", params!(
        "const void *" sendbuf: SendBuffer, "int" sendcount: SendCount,
        "MPI_Datatype" sendtype: SendType, "int" dest: Dest, "int" sendtag: SendTag,
        "void *" recvbuf: RecvBuffer, "int" recvcount: RecvCount, "MPI_Datatype" recvtype: RecvType,
        "int" source: Source, "int" recvtag: RecvTag, "MPI_Comm" comm: Comm,
        "MPI_Status *" status: Status,
    ) },
    mpi_fn! { MpiSendrecvReplace, SendReceive, Blocks, "int", params!(
        "void *" buf: Buffer, "int" count: Count, "MPI_Datatype" datatype: Datatype,
        "int" dest: Dest, "int" sendtag: SendTag, "int" source: Source, "int" recvtag: RecvTag,
        "MPI_Comm" comm: Comm, "MPI_Status *" status: Status,
    ) },
    mpi_fn! { MpiProbe, Probe, Blocks, "int", params!(
        "int" source: Source, "int" tag: Tag, "MPI_Comm" comm: Comm, "MPI_Status *" status: Status,
    ) },
    mpi_fn! { MpiIprobe, Probe, Returns, "int", params!(
        "int" source: Source, "int" tag: Tag, "MPI_Comm" comm: Comm, "int *" flag: Flag,
        "MPI_Status *" status: Status,
    ) },
    mpi_fn! { MpiIsend, Send, Returns, "int", ISEND },
    mpi_fn! { MpiIssend, Send, Returns, "int", ISEND },
    mpi_fn! { MpiIrecv, Receive, Returns, "int", params!(
        "void *" buf: Buffer, "int" count: Count, "MPI_Datatype" datatype: Datatype,
        "int" source: Source, "int" tag: Tag, "MPI_Comm" comm: Comm,
        "MPI_Request *" request: Request,
    ) },
    mpi_fn! { MpiWait, Completion, Blocks, "int", params!(
        "MPI_Request *" request: Request, "MPI_Status *" status: Status,
    ) },
    mpi_fn! { MpiWaitall, Completion, Blocks, "int", params!(
        "int" count: RequestCount, "MPI_Request *" requests: Requests,
        "MPI_Status *" statuses: Statuses,
    ) },
    mpi_fn! { MpiWaitany, Completion, Blocks, "int", params!(
        "int" count: RequestCount, "MPI_Request *" requests: Requests, "int *" index: Index,
        "MPI_Status *" status: Status,
    ) },
    mpi_fn! { MpiTest, Completion, Returns, "int", params!(
        "MPI_Request *" request: Request, "int *" flag: Flag, "MPI_Status *" status: Status,
    ) },
    mpi_fn! { MpiTestall, Completion, Returns, "int", params!(
        "int" count: RequestCount, "MPI_Request *" requests: Requests, "int *" flag: Flag,
        "MPI_Status *" statuses: Statuses,
    ) },
    mpi_fn! { MpiRequestFree, Completion, Returns, "int", params!(
        "MPI_Request *" request: Request,
    ) },
    mpi_fn! { MpiGetCount, Query, Returns, "int", params!(
        "const MPI_Status *" status: Status, "MPI_Datatype" datatype: Datatype,
        "int *" count: CountOut,
    ) },
    mpi_fn! { MpiBarrier, Collective(C::Barrier), Blocks, "int", params!("MPI_Comm" comm: Comm) },
    mpi_fn! { MpiBcast, Collective(C::Bcast), Blocks, "int", params!(
        "void *" buf: Buffer, "int" count: Count, "MPI_Datatype" datatype: Datatype,
        "int" root: Root, "MPI_Comm" comm: Comm,
    ) },
    mpi_fn! { MpiReduce, Collective(C::Reduce), Blocks, "int", params!(
        "const void *" sendbuf: SendBuffer, "void *" recvbuf: RecvBuffer, "int" count: Count,
        "MPI_Datatype" datatype: Datatype, "MPI_Op" op: Op, "int" root: Root, "MPI_Comm" comm: Comm,
    ) },
    mpi_fn! { MpiAllreduce, Collective(C::Allreduce), Blocks, "int", REDUCE_ALL },
    mpi_fn! { MpiGather, Collective(C::Gather), Blocks, "int", GATHER },
    mpi_fn! { MpiGatherv, Collective(C::Gatherv), Blocks, "int", GATHERV },
    mpi_fn! { MpiScatter, Collective(C::Scatter), Blocks, "int", GATHER },
    mpi_fn! { MpiScatterv, Collective(C::Scatterv), Blocks, "int", SCATTERV },
    mpi_fn! { MpiAllgather, Collective(C::Allgather), Blocks, "int", ALLGATHER },
    mpi_fn! { MpiAllgatherv, Collective(C::Allgatherv), Blocks, "int", ALLGATHERV },
    mpi_fn! { MpiAlltoall, Collective(C::Alltoall), Blocks, "int", ALLGATHER },
    mpi_fn! { MpiAlltoallv, Collective(C::Alltoallv), Blocks, "int", ALLTOALLV },
    // `MPI_Alltoallv` with a datatype per peer and displacements in bytes: tass
    // runs it as `MPI_Alltoallv` when each side names one basic datatype.
    mpi_fn! { MpiAlltoallw, Collective(C::Alltoallv), Blocks, "int", params!(
        "const void *" sendbuf: SendBuffer, "const int *" sendcounts: SendCounts,
        "const int *" sdispls: SendDispls, "const MPI_Datatype *" sendtypes: SendType,
        "void *" recvbuf: RecvBuffer, "const int *" recvcounts: RecvCounts,
        "const int *" rdispls: RecvDispls, "const MPI_Datatype *" recvtypes: RecvType,
        "MPI_Comm" comm: Comm,
    ) },
    mpi_fn! { MpiScan, Collective(C::Scan), Blocks, "int", REDUCE_ALL },
    mpi_fn! { MpiExscan, Collective(C::Exscan), Blocks, "int", REDUCE_ALL },
    mpi_fn! { MpiReduceScatter, Collective(C::ReduceScatter), Blocks, "int", REDUCE_SCATTER },
    mpi_fn! { MpiIbarrier, Collective(C::Barrier), Returns, "int", params!(
        "MPI_Comm" comm: Comm, "MPI_Request *" request: Request,
    ) },
    mpi_fn! { MpiIbcast, Collective(C::Bcast), Returns, "int", params!(
        "void *" buf: Buffer, "int" count: Count, "MPI_Datatype" datatype: Datatype,
        "int" root: Root, "MPI_Comm" comm: Comm, "MPI_Request *" request: Request,
    ) },
    mpi_fn! { MpiIreduce, Collective(C::Reduce), Returns, "int", params!(
        "const void *" sendbuf: SendBuffer, "void *" recvbuf: RecvBuffer, "int" count: Count,
        "MPI_Datatype" datatype: Datatype, "MPI_Op" op: Op, "int" root: Root, "MPI_Comm" comm: Comm,
        "MPI_Request *" request: Request,
    ) },
    mpi_fn! { MpiIallreduce, Collective(C::Allreduce), Returns, "int", IREDUCE_ALL },
    mpi_fn! { MpiIgather, Collective(C::Gather), Returns, "int", IGATHER },
    mpi_fn! { MpiIgatherv, Collective(C::Gatherv), Returns, "int", IGATHERV },
    mpi_fn! { MpiIscatter, Collective(C::Scatter), Returns, "int", IGATHER },
    mpi_fn! { MpiIscatterv, Collective(C::Scatterv), Returns, "int", ISCATTERV },
    mpi_fn! { MpiIallgather, Collective(C::Allgather), Returns, "int", IALLGATHER },
    mpi_fn! { MpiIallgatherv, Collective(C::Allgatherv), Returns, "int", IALLGATHERV },
    mpi_fn! { MpiIalltoall, Collective(C::Alltoall), Returns, "int", IALLGATHER },
    mpi_fn! { MpiIalltoallv, Collective(C::Alltoallv), Returns, "int", IALLTOALLV },
    mpi_fn! { MpiIscan, Collective(C::Scan), Returns, "int", IREDUCE_ALL },
    mpi_fn! { MpiIexscan, Collective(C::Exscan), Returns, "int", IREDUCE_ALL },
    mpi_fn! { MpiIreduceScatter, Collective(C::ReduceScatter), Returns, "int", IREDUCE_SCATTER },
    mpi_fn! { MpiCommDup, Collective(C::CommDup), Blocks, "int", params!(
        "MPI_Comm" comm: Comm, "MPI_Comm *" newcomm: NewComm,
    ) },
    mpi_fn! { MpiCommSplit, Collective(C::CommSplit), Blocks, "int", params!(
        "MPI_Comm" comm: Comm, "int" color: Color, "int" key: Key, "MPI_Comm *" newcomm: NewComm,
    ) },
    mpi_fn! { MpiCommFree, Collective(C::CommFree), Blocks, "int", params!(
        "MPI_Comm *" comm: Comm,
    ) },
    mpi_fn! { MpiAbort, Lifetime, Returns, "int", params!(
        "MPI_Comm" comm: Comm, "int" errorcode: ErrorCode,
    ) },
    mpi_fn! { MpiWtime, Query, Returns, "double", &[] },
    // Groups, communicators made from groups, Cartesian topologies, user
    // operators and the buffer of buffered sends (state/src/mpi/{group,
    // topology,user_op,bsend}.rs).
    mpi_fn! { MpiCommGroup, Local, Returns, "int", params!(
        "MPI_Comm" comm: Comm, "MPI_Group *" group: NewGroup,
    ) },
    mpi_fn! { MpiGroupSize, Local, Returns, "int", params!(
        "MPI_Group" group: Group, "int *" size: SizeOut,
    ) },
    mpi_fn! { MpiGroupRank, Local, Returns, "int", params!(
        "MPI_Group" group: Group, "int *" rank: RankOut,
    ) },
    mpi_fn! { MpiGroupIncl, Local, Returns, "int", GROUP_RANGE },
    mpi_fn! { MpiGroupExcl, Local, Returns, "int", GROUP_RANGE },
    mpi_fn! { MpiGroupTranslateRanks, Local, Returns, "int", params!(
        "MPI_Group" group1: Group, "int" n: Length, "const int *" ranks1: Ranks,
        "MPI_Group" group2: OtherGroup, "int *" ranks2: RanksOut,
    ) },
    mpi_fn! { MpiGroupFree, Local, Returns, "int", params!("MPI_Group *" group: Group) },
    mpi_fn! { MpiCommCreate, Collective(C::CommCreate), Blocks, "int", params!(
        "MPI_Comm" comm: Comm, "MPI_Group" group: Group, "MPI_Comm *" newcomm: NewComm,
    ) },
    mpi_fn! { MpiCartCreate, Collective(C::CartCreate), Blocks, "int", params!(
        "MPI_Comm" comm_old: Comm, "int" ndims: Length, "const int *" dims: Dims,
        "const int *" periods: Periods, "int" reorder: Reorder, "MPI_Comm *" comm_cart: NewComm,
    ) },
    mpi_fn! { MpiCartCoords, Local, Returns, "int", params!(
        "MPI_Comm" comm: Comm, "int" rank: RankIn, "int" maxdims: Length, "int *" coords: Coords,
    ) },
    mpi_fn! { MpiCartRank, Local, Returns, "int", params!(
        "MPI_Comm" comm: Comm, "const int *" coords: Coords, "int *" rank: RankOut,
    ) },
    mpi_fn! { MpiCartShift, Local, Returns, "int", params!(
        "MPI_Comm" comm: Comm, "int" direction: Direction, "int" disp: Displacement,
        "int *" rank_source: SourceOut, "int *" rank_dest: DestOut,
    ) },
    mpi_fn! { MpiCartGet, Local, Returns, "int", params!(
        "MPI_Comm" comm: Comm, "int" maxdims: Length, "int *" dims: Dims, "int *" periods: Periods,
        "int *" coords: Coords,
    ) },
    mpi_fn! { MpiCartdimGet, Local, Returns, "int", params!(
        "MPI_Comm" comm: Comm, "int *" ndims: SizeOut,
    ) },
    mpi_fn! { MpiDimsCreate, Local, Returns, "int", params!(
        "int" nnodes: Nodes, "int" ndims: Length, "int *" dims: Dims,
    ) },
    mpi_fn! { MpiOpCreate, Local, Returns, "int", params!(
        "__tass_MPI_User_function_pointer" user_fn: UserFunction, "int" commute: Commute,
        "MPI_Op *" op: OpOut,
    ) },
    mpi_fn! { MpiOpFree, Local, Returns, "int", params!("MPI_Op *" op: OpOut) },
    mpi_fn! { MpiBufferAttach, Local, Returns, "int", params!(
        "void *" buffer: AttachedBuffer, "int" size: BufferSize,
    ) },
    mpi_fn! { MpiBufferDetach, Local, Blocks, "int", params!(
        "void *" buffer_addr: AttachedBuffer, "int *" size: BufferSize,
    ) },
    // One-sided communication (RMA): `tass_state`'s `mpi/rma/`.
    mpi_fn! { MpiWinCreate, Rma(RmaOp::Create), Blocks, "int", params!(
        "void *" base: WinBase, "MPI_Aint" size: WinSize, "int" disp_unit: DispUnit,
        "MPI_Info" info: Info, "MPI_Comm" comm: Comm, "MPI_Win *" win: Win,
    ) },
    mpi_fn! { MpiWinAllocate, Rma(RmaOp::Create), Blocks, "int", params!(
        "MPI_Aint" size: WinSize, "int" disp_unit: DispUnit, "MPI_Info" info: Info,
        "MPI_Comm" comm: Comm, "void *" baseptr: WinBase, "MPI_Win *" win: Win,
    ) },
    mpi_fn! { MpiWinFree, Rma(RmaOp::Free), Blocks, "int", params!("MPI_Win *" win: Win) },
    mpi_fn! { MpiWinFence, Rma(RmaOp::Fence), Blocks, "int", params!(
        "int" assert: Assert, "MPI_Win" win: Win,
    ) },
    mpi_fn! { MpiPut, Rma(RmaOp::Put), Returns, "int", RMA_TRANSFER },
    mpi_fn! { MpiGet, Rma(RmaOp::Get), Returns, "int", RMA_GET },
    mpi_fn! { MpiAccumulate, Rma(RmaOp::Accumulate), Returns, "int", params!(
        "const void *" origin_addr: SendBuffer, "int" origin_count: SendCount,
        "MPI_Datatype" origin_datatype: SendType, "int" target_rank: TargetRank,
        "MPI_Aint" target_disp: TargetDisp, "int" target_count: TargetCount,
        "MPI_Datatype" target_datatype: TargetType, "MPI_Op" op: Op, "MPI_Win" win: Win,
    ) },
    mpi_fn! { MpiRput, Rma(RmaOp::Put), Returns, "int", RMA_RPUT },
    mpi_fn! { MpiRget, Rma(RmaOp::Get), Returns, "int", RMA_RGET },
    mpi_fn! { MpiRaccumulate, Rma(RmaOp::Accumulate), Returns, "int", params!(
        "const void *" origin_addr: SendBuffer, "int" origin_count: SendCount,
        "MPI_Datatype" origin_datatype: SendType, "int" target_rank: TargetRank,
        "MPI_Aint" target_disp: TargetDisp, "int" target_count: TargetCount,
        "MPI_Datatype" target_datatype: TargetType, "MPI_Op" op: Op, "MPI_Win" win: Win,
        "MPI_Request *" request: Request,
    ) },
    mpi_fn! { MpiWinLock, Rma(RmaOp::Lock), Blocks, "int", params!(
        "int" lock_type: LockType, "int" rank: TargetRank, "int" assert: Assert, "MPI_Win" win: Win,
    ) },
    mpi_fn! { MpiWinUnlock, Rma(RmaOp::Unlock), Returns, "int", params!(
        "int" rank: TargetRank, "MPI_Win" win: Win,
    ) },
    mpi_fn! { MpiWinLockAll, Rma(RmaOp::Lock), Blocks, "int", params!(
        "int" assert: Assert, "MPI_Win" win: Win,
    ) },
    mpi_fn! { MpiWinUnlockAll, Rma(RmaOp::Unlock), Returns, "int", params!("MPI_Win" win: Win) },
    mpi_fn! { MpiWinFlush, Rma(RmaOp::Flush), Returns, "int", params!(
        "int" rank: TargetRank, "MPI_Win" win: Win,
    ) },
    mpi_fn! { MpiWinFlushAll, Rma(RmaOp::Flush), Returns, "int", params!("MPI_Win" win: Win) },
    mpi_fn! { MpiWinPost, Rma(RmaOp::Post), Returns, "int", params!(
        "MPI_Group" group: Group, "int" assert: Assert, "MPI_Win" win: Win,
    ) },
    mpi_fn! { MpiWinStart, Rma(RmaOp::Start), Blocks, "int", params!(
        "MPI_Group" group: Group, "int" assert: Assert, "MPI_Win" win: Win,
    ) },
    mpi_fn! { MpiWinComplete, Rma(RmaOp::Complete), Returns, "int", params!("MPI_Win" win: Win) },
    mpi_fn! { MpiWinWait, Rma(RmaOp::Wait), Blocks, "int", params!("MPI_Win" win: Win) },
    mpi_fn! { MpiWinSync, Rma(RmaOp::Sync), Returns, "int", params!("MPI_Win" win: Win) },
    mpi_fn! { MpiWinTest, Rma(RmaOp::Test), Returns, "int", params!(
        "MPI_Win" win: Win, "int *" flag: Flag,
    ) },
    // ---- Point-to-point extras (issue 20, part A): threads, local queries,
    // ---- persistent requests.
    mpi_fn! { MpiInitThread, Lifetime, Returns, "int", params!(
        "int *" argc: Argc, "char ***" argv: Argv, "int" required: ThreadRequired,
        "int *" provided: ThreadProvided,
    ) },
    mpi_fn! { MpiQueryThread, Query, Returns, "int", params!("int *" provided: ThreadProvided) },
    mpi_fn! { MpiGetProcessorName, Query, Returns, "int", params!(
        "char *" name: NameOut, "int *" resultlen: NameLengthOut,
    ) },
    mpi_fn! { MpiTypeSize, Query, Returns, "int", params!(
        "MPI_Datatype" datatype: Datatype, "int *" size: SizeOut,
    ) },
    mpi_fn! { MpiReduceLocal, Query, Returns, "int", params!(
        "const void *" inbuf: SendBuffer, "void *" inoutbuf: RecvBuffer, "int" count: Count,
        "MPI_Datatype" datatype: Datatype, "MPI_Op" op: Op,
    ) },
    mpi_fn! { MpiSendInit, PersistentInit, Returns, "int", ISEND },
    mpi_fn! { MpiSsendInit, PersistentInit, Returns, "int", ISEND },
    mpi_fn! { MpiRsendInit, PersistentInit, Returns, "int", ISEND },
    mpi_fn! { MpiBsendInit, PersistentInit, Returns, "int", ISEND },
    mpi_fn! { MpiRecvInit, PersistentInit, Returns, "int", params!(
        "void *" buf: Buffer, "int" count: Count, "MPI_Datatype" datatype: Datatype,
        "int" source: Source, "int" tag: Tag, "MPI_Comm" comm: Comm,
        "MPI_Request *" request: Request,
    ) },
    mpi_fn! { MpiStart, Start, Returns, "int", params!("MPI_Request *" request: Request) },
    mpi_fn! { MpiStartall, Start, Returns, "int", params!(
        "int" count: RequestCount, "MPI_Request *" requests: Requests,
    ) },
    // Derived datatypes: local calls on the process's own datatype table.
    mpi_fn! { MpiTypeContiguous, Query, Returns, "int", params!(
        "int" count: TypeCount, "MPI_Datatype" oldtype: OldType, "MPI_Datatype *" newtype: NewType,
    ) },
    mpi_fn! { MpiTypeVector, Query, Returns, "int", params!(
        "int" count: TypeCount, "int" blocklength: BlockLength, "int" stride: Stride,
        "MPI_Datatype" oldtype: OldType, "MPI_Datatype *" newtype: NewType,
    ) },
    mpi_fn! { MpiTypeIndexed, Query, Returns, "int", params!(
        "int" count: TypeCount, "const int *" array_of_blocklengths: BlockLengths,
        "const int *" array_of_displacements: Displacements, "MPI_Datatype" oldtype: OldType,
        "MPI_Datatype *" newtype: NewType,
    ) },
    mpi_fn! { MpiTypeCreateStruct, Query, Returns, "int", params!(
        "int" count: TypeCount, "const int *" array_of_blocklengths: BlockLengths,
        "const MPI_Aint *" array_of_displacements: ByteDisplacements,
        "const MPI_Datatype *" array_of_types: OldTypes, "MPI_Datatype *" newtype: NewType,
    ) },
    mpi_fn! { MpiTypeCommit, Query, Returns, "int", params!("MPI_Datatype *" datatype: TypeRef) },
    mpi_fn! { MpiTypeFree, Query, Returns, "int", params!("MPI_Datatype *" datatype: TypeRef) },
    mpi_fn! { MpiTypeGetExtent, Query, Returns, "int", params!(
        "MPI_Datatype" datatype: Datatype, "MPI_Aint *" lb: LowerBoundOut,
        "MPI_Aint *" extent: ExtentOut,
    ) },
    // Addresses: an object's address is an unknown value, an address inside
    // it that value plus the byte offset (state/src/mpi/address.rs).
    mpi_fn! { MpiGetAddress, Query, Returns, "int", params!(
        "const void *" location: Location, "MPI_Aint *" address: AddressOut,
    ) },
    mpi_fn! { MpiAintAdd, Query, Returns, "MPI_Aint", params!(
        "MPI_Aint" base: AintLeft, "MPI_Aint" disp: AintRight,
    ) },
    mpi_fn! { MpiAintDiff, Query, Returns, "MPI_Aint", params!(
        "MPI_Aint" addr1: AintLeft, "MPI_Aint" addr2: AintRight,
    ) },
    mpi_fn! { MpiFetchAndOp, Rma(RmaOp::FetchAndOp), Returns, "int", params!(
        "const void *" origin_addr: SendBuffer, "void *" result_addr: RecvBuffer,
        "MPI_Datatype" datatype: Datatype, "int" target_rank: TargetRank,
        "MPI_Aint" target_disp: TargetDisp, "MPI_Op" op: Op, "MPI_Win" win: Win,
    ) },
    mpi_fn! { MpiCompareAndSwap, Rma(RmaOp::CompareAndSwap), Returns, "int", params!(
        "const void *" origin_addr: SendBuffer, "const void *" compare_addr: CompareBuffer,
        "void *" result_addr: RecvBuffer, "MPI_Datatype" datatype: Datatype,
        "int" target_rank: TargetRank, "MPI_Aint" target_disp: TargetDisp, "MPI_Win" win: Win,
    ) },
    mpi_fn! { MpiGetAccumulate, Rma(RmaOp::GetAccumulate), Returns, "int", params!(
        "const void *" origin_addr: SendBuffer, "int" origin_count: SendCount,
        "MPI_Datatype" origin_datatype: SendType, "void *" result_addr: RecvBuffer,
        "int" result_count: RecvCount, "MPI_Datatype" result_datatype: RecvType,
        "int" target_rank: TargetRank, "MPI_Aint" target_disp: TargetDisp,
        "int" target_count: TargetCount, "MPI_Datatype" target_datatype: TargetType,
        "MPI_Op" op: Op, "MPI_Win" win: Win,
    ) },
    mpi_fn! { MpiRgetAccumulate, Rma(RmaOp::GetAccumulate), Returns, "int", params!(
        "const void *" origin_addr: SendBuffer, "int" origin_count: SendCount,
        "MPI_Datatype" origin_datatype: SendType, "void *" result_addr: RecvBuffer,
        "int" result_count: RecvCount, "MPI_Datatype" result_datatype: RecvType,
        "int" target_rank: TargetRank, "MPI_Aint" target_disp: TargetDisp,
        "int" target_count: TargetCount, "MPI_Datatype" target_datatype: TargetType,
        "MPI_Op" op: Op, "MPI_Win" win: Win, "MPI_Request *" request: Request,
    ) },
    // Persistent collectives (MPI-4; Open MPI 4.1 names them `MPIX_..._init`).
    mpi_fn! { MpiBarrierInit, PersistentCollective(C::Barrier), Returns, "int", BARRIER_INIT },
    mpi_fn! { MpiBcastInit, PersistentCollective(C::Bcast), Returns, "int", BCAST_INIT },
    mpi_fn! { MpiReduceInit, PersistentCollective(C::Reduce), Returns, "int", REDUCE_INIT },
    mpi_fn! { MpiAllreduceInit, PersistentCollective(C::Allreduce), Returns, "int", ALLREDUCE_INIT },
    mpi_fn! { MpiGatherInit, PersistentCollective(C::Gather), Returns, "int", GATHER_INIT },
    mpi_fn! { MpiScatterInit, PersistentCollective(C::Scatter), Returns, "int", GATHER_INIT },
    mpi_fn! { MpiAllgatherInit, PersistentCollective(C::Allgather), Returns, "int", ALLGATHER_INIT },
];

const RMA_TRANSFER: &[Param] = params!(
    "const void *" origin_addr: SendBuffer, "int" origin_count: SendCount,
    "MPI_Datatype" origin_datatype: SendType, "int" target_rank: TargetRank,
    "MPI_Aint" target_disp: TargetDisp, "int" target_count: TargetCount,
    "MPI_Datatype" target_datatype: TargetType, "MPI_Win" win: Win,
);
const RMA_RPUT: &[Param] = params!(
    "const void *" origin_addr: SendBuffer, "int" origin_count: SendCount,
    "MPI_Datatype" origin_datatype: SendType, "int" target_rank: TargetRank,
    "MPI_Aint" target_disp: TargetDisp, "int" target_count: TargetCount,
    "MPI_Datatype" target_datatype: TargetType, "MPI_Win" win: Win,
    "MPI_Request *" request: Request,
);
const RMA_RGET: &[Param] = params!(
    "void *" origin_addr: RecvBuffer, "int" origin_count: RecvCount,
    "MPI_Datatype" origin_datatype: RecvType, "int" target_rank: TargetRank,
    "MPI_Aint" target_disp: TargetDisp, "int" target_count: TargetCount,
    "MPI_Datatype" target_datatype: TargetType, "MPI_Win" win: Win,
    "MPI_Request *" request: Request,
);
const RMA_GET: &[Param] = params!(
    "void *" origin_addr: RecvBuffer, "int" origin_count: RecvCount,
    "MPI_Datatype" origin_datatype: RecvType, "int" target_rank: TargetRank,
    "MPI_Aint" target_disp: TargetDisp, "int" target_count: TargetCount,
    "MPI_Datatype" target_datatype: TargetType, "MPI_Win" win: Win,
);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_follows_library_functions_order_and_covers_every_mpi_function() {
        let mpi: Vec<LibraryFunction> = LibraryFunction::ALL
            .iter()
            .copied()
            .filter(|f| f.is_mpi())
            .collect();
        let table: Vec<LibraryFunction> = MPI_FUNCTIONS.iter().map(|d| d.function).collect();
        assert_eq!(mpi, table);
        for f in LibraryFunction::ALL {
            assert_eq!(f.mpi().map(|d| d.function), f.is_mpi().then_some(*f));
        }
    }

    #[test]
    fn envelopes_are_where_the_prototypes_put_them() {
        let send = LibraryFunction::MpiSend.mpi().unwrap();
        assert_eq!(
            send.send_envelope(),
            Some(Envelope {
                rank: 3,
                tag: 4,
                comm: 5
            })
        );
        assert_eq!(send.receive_envelope(), None);
        let sr = LibraryFunction::MpiSendrecv.mpi().unwrap();
        assert_eq!(
            sr.send_envelope(),
            Some(Envelope {
                rank: 3,
                tag: 4,
                comm: 10
            })
        );
        assert_eq!(
            sr.receive_envelope(),
            Some(Envelope {
                rank: 8,
                tag: 9,
                comm: 10
            })
        );
        assert_eq!(sr.send_half(), Some([0, 1, 2, 3, 4, 10]));
        assert_eq!(sr.receive_half(), Some([5, 6, 7, 8, 9, 10, 11]));
        let replace = LibraryFunction::MpiSendrecvReplace.mpi().unwrap();
        assert_eq!(replace.send_half(), Some([0, 1, 2, 3, 4, 7]));
        assert_eq!(replace.receive_half(), Some([0, 1, 2, 5, 6, 7, 8]));
        assert_eq!(send.send_half(), Some([0, 1, 2, 3, 4, 5]));
        let recv = LibraryFunction::MpiRecv.mpi().unwrap();
        assert_eq!(recv.receive_half(), Some([0, 1, 2, 3, 4, 5, 6]));
        assert_eq!(
            LibraryFunction::MpiIrecv.mpi().unwrap().receive_half(),
            None
        );
        let probe = LibraryFunction::MpiIprobe.mpi().unwrap();
        assert_eq!(
            probe.receive_envelope(),
            Some(Envelope {
                rank: 0,
                tag: 1,
                comm: 2
            })
        );
        assert_eq!(
            LibraryFunction::MpiAllreduce.mpi().unwrap().prototype(),
            "int MPI_Allreduce(const void *sendbuf, void *recvbuf, int count, \
             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);"
        );
        assert_eq!(
            LibraryFunction::MpiWtime.mpi().unwrap().prototype(),
            "double MPI_Wtime(void);"
        );
    }

    #[test]
    fn nonblocking_calls_end_in_a_request_and_blocking_ones_have_none() {
        for d in MPI_FUNCTIONS {
            let request_based_rma = matches!(
                d.function,
                LibraryFunction::MpiRput
                    | LibraryFunction::MpiRget
                    | LibraryFunction::MpiRaccumulate
                    | LibraryFunction::MpiRgetAccumulate
            );
            let nonblocking_op = (d.function.c_name().starts_with("MPI_I")
                && d.function != LibraryFunction::MpiIprobe
                && d.function != LibraryFunction::MpiInit
                && d.function != LibraryFunction::MpiInitThread)
                || request_based_rma;
            assert_eq!(d.returns_request(), nonblocking_op, "{:?}", d.function);
            if nonblocking_op {
                assert_eq!(d.position(ArgRole::Request), Some(d.params.len() - 1));
            }
            assert_eq!(
                d.function.is_nonblocking_collective(),
                nonblocking_op && d.collective().is_some()
            );
        }
    }

    #[test]
    fn each_nonblocking_collective_is_its_blocking_form_and_a_request() {
        for d in MPI_FUNCTIONS {
            let Some(op) = d.collective() else { continue };
            if d.function == LibraryFunction::MpiAlltoallw {
                // MPI_Alltoallv's kind with the same argument positions; its
                // datatypes are arrays and its displacements bytes, which the
                // state crate converts.
                assert_eq!(op, CollectiveOp::Alltoallv);
                continue;
            }
            let blocking = op.blocking_form();
            assert_eq!(blocking.collective(), Some(op));
            assert_eq!(blocking.blocking, Blocking::Blocks);
            if d.returns_request() {
                assert_eq!(
                    &d.params[..d.params.len() - 1],
                    blocking.params,
                    "{:?}",
                    d.function
                );
            } else {
                assert_eq!(d, blocking);
            }
        }
    }

    #[test]
    fn ranks_read_as_mpi_reads_them() {
        assert_eq!(Rank::from_int(-2, 3), Some(Rank::ProcNull));
        assert_eq!(Rank::from_int(-1, 3), Some(Rank::Any));
        assert_eq!(Rank::from_int(2, 3), Some(Rank::Process(2)));
        assert_eq!(Rank::from_int(3, 3), None);
        assert_eq!(Rank::from_int(-3, 3), None);
        for v in rank_values(3) {
            assert_eq!(Rank::from_int(v, 3).map(Rank::to_int), Some(v));
        }
    }
}
