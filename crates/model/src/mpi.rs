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

/// One parameter of an MPI function's prototype.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// The C type as the prototype writes it (`"const void *"`, `"int"`).
    pub c_type: &'static str,
    /// The parameter's name in the prototype.
    pub name: &'static str,
    /// What the argument is for.
    pub role: ArgRole,
}

/// One MPI function: kind, blocking, result type and parameters in C order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MpiFunction {
    /// The function.
    pub function: LibraryFunction,
    /// What it does.
    pub kind: MpiKind,
    /// Whether it may wait for other processes.
    pub blocking: Blocking,
    /// The C result type.
    pub result: &'static str,
    /// The parameters, in C order.
    pub params: &'static [Param],
}

impl MpiFunction {
    /// The position of the first argument with role `role`.
    pub fn position(&self, role: ArgRole) -> Option<usize> {
        self.params.iter().position(|p| p.role == role)
    }

    /// The position of the first argument with one of `roles` (tried in order).
    pub fn position_of_any(&self, roles: &[ArgRole]) -> Option<usize> {
        roles.iter().find_map(|&r| self.position(r))
    }

    /// The collective operation, for a collective call.
    pub fn collective(&self) -> Option<CollectiveOp> {
        match self.kind {
            MpiKind::Collective(op) => Some(op),
            _ => None,
        }
    }

    /// The collective operation a persistent collective init binds.
    pub fn persistent_collective(&self) -> Option<CollectiveOp> {
        match self.kind {
            MpiKind::PersistentCollective(op) => Some(op),
            _ => None,
        }
    }

    /// True for a nonblocking operation, which returns a request
    /// (`MPI_Isend`, `MPI_Irecv`, `MPI_Ibcast`, ...).
    pub fn returns_request(&self) -> bool {
        self.blocking == Blocking::Returns
            && !matches!(
                self.kind,
                MpiKind::Completion
                    | MpiKind::PersistentInit
                    | MpiKind::PersistentCollective(_)
                    | MpiKind::Start
            )
            && self.position(ArgRole::Request).is_some()
    }

    /// The positions of the destination, the tag and the communicator of the
    /// send (or send half) this call makes.
    pub fn send_envelope(&self) -> Option<Envelope> {
        match self.kind {
            MpiKind::Send | MpiKind::SendReceive => Some(Envelope {
                rank: self.position(ArgRole::Dest)?,
                tag: self.position_of_any(&[ArgRole::Tag, ArgRole::SendTag])?,
                comm: self.position(ArgRole::Comm)?,
            }),
            _ => None,
        }
    }

    /// The positions of the source, the tag and the communicator of the
    /// receive (or receive half, or probe) this call makes.
    pub fn receive_envelope(&self) -> Option<Envelope> {
        match self.kind {
            MpiKind::Receive | MpiKind::SendReceive | MpiKind::Probe => Some(Envelope {
                rank: self.position(ArgRole::Source)?,
                tag: self.position_of_any(&[ArgRole::Tag, ArgRole::RecvTag])?,
                comm: self.position(ArgRole::Comm)?,
            }),
            _ => None,
        }
    }

    /// The positions of (buffer, count, datatype, destination, tag,
    /// communicator) of the send (or send half) this call makes.
    pub fn send_half(&self) -> Option<[usize; 6]> {
        use ArgRole::*;
        if !matches!(self.kind, MpiKind::Send | MpiKind::SendReceive) {
            return None;
        }
        Some([
            self.position_of_any(&[SendBuffer, Buffer])?,
            self.position_of_any(&[SendCount, Count])?,
            self.position_of_any(&[SendType, Datatype])?,
            self.position(Dest)?,
            self.position_of_any(&[SendTag, Tag])?,
            self.position(Comm)?,
        ])
    }

    /// The positions of (buffer, count, datatype, source, tag, communicator,
    /// status) of the blocking receive (or receive half) this call makes.
    pub fn receive_half(&self) -> Option<[usize; 7]> {
        use ArgRole::*;
        if !matches!(self.kind, MpiKind::Receive | MpiKind::SendReceive) {
            return None;
        }
        Some([
            self.position_of_any(&[RecvBuffer, Buffer])?,
            self.position_of_any(&[RecvCount, Count])?,
            self.position_of_any(&[RecvType, Datatype])?,
            self.position(Source)?,
            self.position_of_any(&[RecvTag, Tag])?,
            self.position(Comm)?,
            self.position(Status)?,
        ])
    }

    /// The C prototype, as `<mpi.h>` declares it.
    pub fn prototype(&self) -> String {
        let params: Vec<String> = self
            .params
            .iter()
            .map(|p| {
                let gap = if p.c_type.ends_with('*') { "" } else { " " };
                format!("{}{gap}{}", p.c_type, p.name)
            })
            .collect();
        let params = if params.is_empty() {
            "void".to_string()
        } else {
            params.join(", ")
        };
        format!("{} {}({params});", self.result, self.function.c_name())
    }
}

/// Argument positions of a point-to-point envelope.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Envelope {
    /// The destination or source rank.
    pub rank: usize,
    /// The tag.
    pub tag: usize,
    /// The communicator.
    pub comm: usize,
}

impl LibraryFunction {
    /// The description of an MPI function (`None` for the other libraries).
    pub fn mpi(self) -> Option<&'static MpiFunction> {
        let first = LibraryFunction::MpiInit as usize;
        let d = MPI_FUNCTIONS.get((self as usize).checked_sub(first)?)?;
        debug_assert_eq!(
            d.function, self,
            "MPI_FUNCTIONS follows LibraryFunction's order"
        );
        Some(d)
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
