//! The vocabulary of the MPI description: typed ranks, the collective and
//! one-sided operations, what kind of operation a function is, whether it may
//! wait, and the role of each argument.

use super::{MpiFunction, MPI_ANY_SOURCE, MPI_PROC_NULL};
use crate::library::LibraryFunction;

/// A rank argument of a point-to-point call, read as MPI reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rank {
    /// The process with this rank (in the call's communicator, or in
    /// `MPI_COMM_WORLD` where the caller says so).
    Process(u32),
    /// `MPI_ANY_SOURCE` (a receive or probe takes a message of any sender).
    Any,
    /// `MPI_PROC_NULL`: the call completes at once and moves no data.
    ProcNull,
}

impl Rank {
    /// The rank an `int` argument names among `size` processes, `None` for a
    /// value that is no rank (a bad rank argument).
    pub fn from_int(value: i64, size: usize) -> Option<Rank> {
        match value {
            MPI_ANY_SOURCE => Some(Rank::Any),
            MPI_PROC_NULL => Some(Rank::ProcNull),
            v => u32::try_from(v)
                .ok()
                .filter(|&r| (r as usize) < size)
                .map(Rank::Process),
        }
    }

    /// The `int` value of the rank in a C program.
    pub fn to_int(self) -> i64 {
        match self {
            Rank::Process(r) => i64::from(r),
            Rank::Any => MPI_ANY_SOURCE,
            Rank::ProcNull => MPI_PROC_NULL,
        }
    }
}

/// The `int` values a rank argument may have among `size` processes that name
/// a process or `MPI_PROC_NULL` (`MPI_ANY_SOURCE` included: it lies between).
pub fn rank_values(size: usize) -> std::ops::Range<i64> {
    MPI_PROC_NULL..size as i64
}

/// The collective operations (each nonblocking form has the kind of its
/// blocking one). Communicator management is collective too: every member of
/// the communicator calls it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CollectiveOp {
    /// `MPI_Barrier`
    Barrier,
    /// `MPI_Bcast`
    Bcast,
    /// `MPI_Reduce`
    Reduce,
    /// `MPI_Allreduce`
    Allreduce,
    /// `MPI_Gather`
    Gather,
    /// `MPI_Gatherv`
    Gatherv,
    /// `MPI_Scatter`
    Scatter,
    /// `MPI_Scatterv`
    Scatterv,
    /// `MPI_Allgather`
    Allgather,
    /// `MPI_Allgatherv`
    Allgatherv,
    /// `MPI_Alltoall`
    Alltoall,
    /// `MPI_Alltoallv`
    Alltoallv,
    /// `MPI_Scan`
    Scan,
    /// `MPI_Exscan`
    Exscan,
    /// `MPI_Reduce_scatter`
    ReduceScatter,
    /// `MPI_Comm_dup`
    CommDup,
    /// `MPI_Comm_split`
    CommSplit,
    /// `MPI_Comm_free`
    CommFree,
    /// `MPI_Comm_create`
    CommCreate,
    /// `MPI_Cart_create`
    CartCreate,
}

impl CollectiveOp {
    /// The blocking function of this kind (`MPI_Bcast` for `MPI_Ibcast`'s):
    /// its arguments are the nonblocking form's, less the request.
    pub fn blocking_form(self) -> &'static MpiFunction {
        use CollectiveOp::*;
        use LibraryFunction as F;
        let f = match self {
            Barrier => F::MpiBarrier,
            Bcast => F::MpiBcast,
            Reduce => F::MpiReduce,
            Allreduce => F::MpiAllreduce,
            Gather => F::MpiGather,
            Gatherv => F::MpiGatherv,
            Scatter => F::MpiScatter,
            Scatterv => F::MpiScatterv,
            Allgather => F::MpiAllgather,
            Allgatherv => F::MpiAllgatherv,
            Alltoall => F::MpiAlltoall,
            Alltoallv => F::MpiAlltoallv,
            Scan => F::MpiScan,
            Exscan => F::MpiExscan,
            ReduceScatter => F::MpiReduceScatter,
            CommDup => F::MpiCommDup,
            CommSplit => F::MpiCommSplit,
            CommFree => F::MpiCommFree,
            CommCreate => F::MpiCommCreate,
            CartCreate => F::MpiCartCreate,
        };
        f.mpi().expect("an MPI function")
    }

    /// True for the calls that make or free communicators.
    pub fn manages_communicators(self) -> bool {
        matches!(
            self,
            CollectiveOp::CommDup
                | CollectiveOp::CommSplit
                | CollectiveOp::CommFree
                | CollectiveOp::CommCreate
                | CollectiveOp::CartCreate
        )
    }
}

/// What an MPI function does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MpiKind {
    /// `MPI_Init`, `MPI_Finalize`, `MPI_Abort`: the process's MPI lifetime.
    Lifetime,
    /// `MPI_Comm_rank`, `MPI_Comm_size`, `MPI_Get_count`, `MPI_Wtime`: local
    /// questions.
    Query,
    /// A point-to-point send (blocking or not).
    Send,
    /// A point-to-point receive (blocking or not).
    Receive,
    /// `MPI_Sendrecv(_replace)`: a send and a receive in one call.
    SendReceive,
    /// `MPI_Probe`, `MPI_Iprobe`: look at a message without taking it.
    Probe,
    /// `MPI_Wait`, `MPI_Test` and their forms, `MPI_Request_free`.
    Completion,
    /// A collective operation (blocking or not) or communicator management.
    Collective(CollectiveOp),
    /// A local operation on the process's own MPI objects: groups, the
    /// questions a Cartesian communicator answers, user operators, the buffer
    /// of buffered sends (`MPI_Buffer_detach` may wait for its messages).
    Local,
    /// `MPI_Send_init`, `MPI_Recv_init`, ...: makes an inactive persistent
    /// request (a local step; nothing is sent or posted yet).
    PersistentInit,
    /// `MPI_Start`, `MPI_Startall`: starts persistent requests (sends their
    /// messages, posts their receives).
    Start,
    /// `MPI_Bcast_init`, `MPI_Allreduce_init`, ... (MPI-4): makes an inactive
    /// persistent request that binds the arguments of this collective; each
    /// `MPI_Start` then posts it as the nonblocking form would (a local step).
    PersistentCollective(CollectiveOp),
    /// One-sided communication: window management and synchronisation
    /// (collective over the window's communicator) and the RMA operations
    /// (`MPI_Put`, `MPI_Get`, `MPI_Accumulate`).
    Rma(RmaOp),
}

/// The one-sided communication calls (`tass_state`'s `mpi/rma/`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RmaOp {
    /// `MPI_Win_create`, `MPI_Win_allocate`: collective, makes a window.
    Create,
    /// `MPI_Win_free`: collective, frees a window.
    Free,
    /// `MPI_Win_fence`: collective, closes the epoch and opens the next.
    Fence,
    /// `MPI_Put`
    Put,
    /// `MPI_Get`
    Get,
    /// `MPI_Accumulate`
    Accumulate,
    /// `MPI_Win_lock`, `MPI_Win_lock_all`: open a passive-target access epoch
    /// (waits while another process holds a lock that excludes it).
    Lock,
    /// `MPI_Win_unlock`, `MPI_Win_unlock_all`: complete the origin's
    /// operations of the epoch and close it.
    Unlock,
    /// `MPI_Win_flush`, `MPI_Win_flush_all`: complete the origin's operations
    /// of the epoch; the epoch stays open.
    Flush,
    /// `MPI_Fetch_and_op`: one element of the target combined with the
    /// origin's, its old value fetched into the result buffer.
    FetchAndOp,
    /// `MPI_Compare_and_swap`: one element of the target replaced by the
    /// origin's if it equals the compare buffer's, its old value fetched.
    CompareAndSwap,
    /// `MPI_Get_accumulate`: `MPI_Fetch_and_op` on several elements, with
    /// counts and datatypes for the origin, result and target.
    GetAccumulate,
    /// `MPI_Win_post`: the target opens an exposure epoch for a group of
    /// origins (generalized active target).
    Post,
    /// `MPI_Win_start`: the origin opens an access epoch to a group of
    /// targets (waits until each has posted).
    Start,
    /// `MPI_Win_complete`: the origin completes its operations of the access
    /// epoch and closes it.
    Complete,
    /// `MPI_Win_wait`: the target waits until every origin of its exposure
    /// epoch completed, and closes it.
    Wait,
    /// `MPI_Win_sync`: synchronises the process's copies of its window memory
    /// (one copy in tass's memory model: only the window is checked).
    Sync,
    /// `MPI_Win_test`: `MPI_Win_wait` that does not wait (a flag says
    /// whether the exposure epoch closed).
    Test,
}

impl RmaOp {
    /// True for the calls every member of the window's communicator makes
    /// together.
    pub fn is_collective(self) -> bool {
        matches!(self, RmaOp::Create | RmaOp::Free | RmaOp::Fence)
    }
}

/// Whether a call may wait for other processes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Blocking {
    /// The call may wait for other processes (a blocking send, receive,
    /// probe, wait or collective).
    Blocks,
    /// The call returns without waiting: a nonblocking operation (which
    /// returns a request), a test, or a local question.
    Returns,
}

/// The role of an argument of an MPI function.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArgRole {
    /// The compare buffer of `MPI_Compare_and_swap`.
    CompareBuffer,
    /// The call's one data buffer (the send buffer of a send, the receive
    /// buffer of a receive, both for `MPI_Bcast` and `MPI_Sendrecv_replace`).
    Buffer,
    /// The element count of [`ArgRole::Buffer`] (of both buffers of a reduction).
    Count,
    /// The datatype of [`ArgRole::Buffer`] (of both buffers of a reduction).
    Datatype,
    /// The send buffer of a call with two buffers.
    SendBuffer,
    /// The count of [`ArgRole::SendBuffer`].
    SendCount,
    /// The per-process send counts of a `v` collective.
    SendCounts,
    /// The per-process send displacements of a `v` collective.
    SendDispls,
    /// The datatype of [`ArgRole::SendBuffer`].
    SendType,
    /// The receive buffer of a call with two buffers.
    RecvBuffer,
    /// The count of [`ArgRole::RecvBuffer`].
    RecvCount,
    /// The per-process receive counts of a `v` collective.
    RecvCounts,
    /// The per-process receive displacements of a `v` collective.
    RecvDispls,
    /// The datatype of [`ArgRole::RecvBuffer`].
    RecvType,
    /// The destination rank of a send.
    Dest,
    /// The source rank of a receive or probe.
    Source,
    /// The tag of a send, receive or probe.
    Tag,
    /// The tag of the send half of a send-receive.
    SendTag,
    /// The tag of the receive half of a send-receive.
    RecvTag,
    /// The root rank of a rooted collective.
    Root,
    /// The reduction operation.
    Op,
    /// The communicator (for `MPI_Comm_free`, a pointer to it).
    Comm,
    /// Where a new communicator is written.
    NewComm,
    /// The color of `MPI_Comm_split`.
    Color,
    /// The key of `MPI_Comm_split`.
    Key,
    /// The request of a nonblocking call or of a wait or test.
    Request,
    /// The array of requests of `MPI_Waitall` and its forms.
    Requests,
    /// The number of requests in [`ArgRole::Requests`].
    RequestCount,
    /// Where `MPI_Waitany` writes the index it completed.
    Index,
    /// Where a test or `MPI_Iprobe` writes whether it found something.
    Flag,
    /// A status (`MPI_STATUS_IGNORE` allowed).
    Status,
    /// An array of statuses (`MPI_STATUSES_IGNORE` allowed).
    Statuses,
    /// Where `MPI_Comm_rank` writes the rank.
    RankOut,
    /// Where `MPI_Comm_size` writes the size.
    SizeOut,
    /// Where `MPI_Get_count` writes the count.
    CountOut,
    /// The error code of `MPI_Abort`.
    ErrorCode,
    /// `&argc` of `MPI_Init`.
    Argc,
    /// `&argv` of `MPI_Init`.
    Argv,
    /// A group (for `MPI_Group_free`, a pointer to it).
    Group,
    /// The second group of `MPI_Group_translate_ranks`.
    OtherGroup,
    /// Where a new group is written.
    NewGroup,
    /// The length of an array argument of ranks, dimensions or coordinates.
    Length,
    /// An array of ranks read (`MPI_Group_incl`/`excl`/`translate_ranks`).
    Ranks,
    /// An array of ranks written (`MPI_Group_translate_ranks`).
    RanksOut,
    /// A rank read (`MPI_Cart_coords`).
    RankIn,
    /// The number of processes `MPI_Dims_create` spreads over the dimensions.
    Nodes,
    /// The extents of a Cartesian grid (read or written).
    Dims,
    /// Whether each dimension of a Cartesian grid is periodic (read or written).
    Periods,
    /// Whether `MPI_Cart_create` may renumber the processes.
    Reorder,
    /// Cartesian coordinates (read or written).
    Coords,
    /// The dimension `MPI_Cart_shift` shifts along.
    Direction,
    /// The displacement of `MPI_Cart_shift`.
    Displacement,
    /// Where `MPI_Cart_shift` writes the rank to receive from.
    SourceOut,
    /// Where `MPI_Cart_shift` writes the rank to send to.
    DestOut,
    /// The user function of `MPI_Op_create`.
    UserFunction,
    /// Whether the operator of `MPI_Op_create` is commutative.
    Commute,
    /// Where `MPI_Op_create` writes the operator (for `MPI_Op_free`, a
    /// pointer to it).
    OpOut,
    /// The buffer `MPI_Buffer_attach` attaches (where `MPI_Buffer_detach`
    /// writes its address).
    AttachedBuffer,
    /// The size in bytes of the attached buffer (where `MPI_Buffer_detach`
    /// writes it).
    BufferSize,
    /// The base address of a window's memory (`MPI_Win_create`), or where
    /// `MPI_Win_allocate` writes it.
    WinBase,
    /// The size in bytes of a window's memory.
    WinSize,
    /// The displacement unit of a window, in bytes.
    DispUnit,
    /// An `MPI_Info` (ignored: no key changes what tass checks).
    Info,
    /// A window (for `MPI_Win_create` and `MPI_Win_free`, a pointer to it).
    Win,
    /// The assertion of a synchronisation call (`MPI_MODE_...`, ignored).
    Assert,
    /// The target rank of an RMA operation.
    TargetRank,
    /// The displacement of the target of an RMA operation, in its window's
    /// displacement units.
    TargetDisp,
    /// The element count at the target of an RMA operation.
    TargetCount,
    /// The datatype at the target of an RMA operation.
    TargetType,
    /// `MPI_LOCK_EXCLUSIVE` or `MPI_LOCK_SHARED`.
    LockType,
    /// The thread level `MPI_Init_thread` asks for.
    ThreadRequired,
    /// Where `MPI_Init_thread` and `MPI_Query_thread` write the thread level.
    ThreadProvided,
    /// Where `MPI_Get_processor_name` writes the name.
    NameOut,
    /// Where `MPI_Get_processor_name` writes the name's length.
    NameLengthOut,
    /// The number of elements or blocks of a datatype constructor.
    TypeCount,
    /// The elements per block of `MPI_Type_vector`.
    BlockLength,
    /// The distance between block starts of `MPI_Type_vector`, in elements.
    Stride,
    /// The datatype a constructor builds on.
    OldType,
    /// Where a datatype constructor writes the new datatype.
    NewType,
    /// The datatype `MPI_Type_commit` and `MPI_Type_free` take, by pointer.
    TypeRef,
    /// The block lengths of `MPI_Type_indexed`.
    BlockLengths,
    /// The block displacements of `MPI_Type_indexed`, in extents of the old type.
    Displacements,
    /// The block displacements of `MPI_Type_create_struct`, in bytes.
    ByteDisplacements,
    /// The datatypes of the blocks of `MPI_Type_create_struct`.
    OldTypes,
    /// Where `MPI_Type_get_extent` writes the lower bound, in bytes.
    LowerBoundOut,
    /// Where `MPI_Type_get_extent` writes the extent, in bytes.
    ExtentOut,
    /// The place whose address `MPI_Get_address` gives.
    Location,
    /// Where `MPI_Get_address` writes the address.
    AddressOut,
    /// The first operand of `MPI_Aint_add` (the base) and `MPI_Aint_diff`.
    AintLeft,
    /// The second operand of `MPI_Aint_add` (the displacement) and `MPI_Aint_diff`.
    AintRight,
}
