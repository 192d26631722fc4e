//! The functions and constants of the built-in library models
//! (`<stdlib.h>`, `<stdio.h>`, `<string.h>`, `<math.h>`, `<mpi.h>`, ...).

macro_rules! named_enum {
    ($(#[$m:meta])* $name:ident { $($(#[$vm:meta])* $v:ident = $s:literal),* $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name { $($(#[$vm])* #[doc = concat!("`", $s, "`")] $v),* }
        impl $name {
            /// Every variant, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$v),*];
            /// The C name.
            pub fn c_name(self) -> &'static str { match self { $($name::$v => $s),* } }
            /// The variant with this C name.
            pub fn from_c_name(name: &str) -> Option<$name> {
                match name { $($s => Some($name::$v),)* _ => None }
            }
        }
    };
}

named_enum! {
    /// A library function with built-in semantics. Calls to these are
    /// [`crate::stmt::Statement::Call`] with [`crate::stmt::Callee::Library`]
    /// (arguments in the C order of the prototype), except the pure math
    /// functions, which are [`crate::expr::ExprKind::MathCall`] expressions, and
    /// `malloc/calloc/realloc/free` and `assert`, which become
    /// `Allocate/Reallocate/Free/Assert` statements.
    LibraryFunction {
        // stdlib.h
        Malloc = "malloc", Calloc = "calloc", Realloc = "realloc", Free = "free",
        Exit = "exit", Abort = "abort", Abs = "abs", Labs = "labs",
        /// a fresh unconstrained input (0..=RAND_MAX) each call
        Rand = "rand", Srand = "srand", Atoi = "atoi",
        /// `random`/`srandom` are modelled as `rand`/`srand`
        Random = "random", Srandom = "srandom", Atol = "atol", Strtol = "strtol",
        // assert.h
        Assert = "assert",
        // stdio.h: checked for argument validity, no effect on the state
        Printf = "printf", Fprintf = "fprintf", Puts = "puts", Putchar = "putchar", Sprintf = "sprintf", Fflush = "fflush",
        // string.h
        Memcpy = "memcpy", Memset = "memset", Strlen = "strlen",
        Memmove = "memmove", Memcmp = "memcmp", Strcmp = "strcmp", Strncmp = "strncmp",
        Strcpy = "strcpy", Strncpy = "strncpy",
        // time.h: fresh values (a violation that depends on them is only possible)
        Time = "time", Clock = "clock", Difftime = "difftime",
        // unistd.h: no effect on the verified state
        Sleep = "sleep", Usleep = "usleep", Getpid = "getpid",
        // math.h: uninterpreted (pure) functions
        Sqrt = "sqrt", Fabs = "fabs", Pow = "pow", Exp = "exp", Log = "log",
        Sin = "sin", Cos = "cos", Floor = "floor", Ceil = "ceil", Fmin = "fmin", Fmax = "fmax",
        // tass.h: `delta(a, b)` is 1 when `a < b`, else 0, without a branch
        Delta = "delta",
        // mpi.h
        MpiInit = "MPI_Init", MpiFinalize = "MPI_Finalize",
        MpiCommRank = "MPI_Comm_rank", MpiCommSize = "MPI_Comm_size",
        MpiSend = "MPI_Send", MpiSsend = "MPI_Ssend", MpiBsend = "MPI_Bsend", MpiRsend = "MPI_Rsend",
        MpiRecv = "MPI_Recv", MpiSendrecv = "MPI_Sendrecv", MpiSendrecvReplace = "MPI_Sendrecv_replace",
        MpiProbe = "MPI_Probe", MpiIprobe = "MPI_Iprobe",
        MpiIsend = "MPI_Isend", MpiIssend = "MPI_Issend", MpiIrecv = "MPI_Irecv",
        MpiWait = "MPI_Wait", MpiWaitall = "MPI_Waitall", MpiWaitany = "MPI_Waitany",
        MpiTest = "MPI_Test", MpiTestall = "MPI_Testall", MpiRequestFree = "MPI_Request_free",
        MpiGetCount = "MPI_Get_count",
        MpiBarrier = "MPI_Barrier", MpiBcast = "MPI_Bcast", MpiReduce = "MPI_Reduce",
        MpiAllreduce = "MPI_Allreduce", MpiGather = "MPI_Gather", MpiGatherv = "MPI_Gatherv",
        MpiScatter = "MPI_Scatter", MpiScatterv = "MPI_Scatterv", MpiAllgather = "MPI_Allgather",
        MpiAllgatherv = "MPI_Allgatherv", MpiAlltoall = "MPI_Alltoall", MpiAlltoallv = "MPI_Alltoallv", MpiAlltoallw = "MPI_Alltoallw",
        MpiScan = "MPI_Scan", MpiExscan = "MPI_Exscan", MpiReduceScatter = "MPI_Reduce_scatter",
        MpiIbarrier = "MPI_Ibarrier", MpiIbcast = "MPI_Ibcast", MpiIreduce = "MPI_Ireduce",
        MpiIallreduce = "MPI_Iallreduce", MpiIgather = "MPI_Igather", MpiIgatherv = "MPI_Igatherv",
        MpiIscatter = "MPI_Iscatter", MpiIscatterv = "MPI_Iscatterv", MpiIallgather = "MPI_Iallgather",
        MpiIallgatherv = "MPI_Iallgatherv", MpiIalltoall = "MPI_Ialltoall", MpiIalltoallv = "MPI_Ialltoallv",
        MpiIscan = "MPI_Iscan", MpiIexscan = "MPI_Iexscan", MpiIreduceScatter = "MPI_Ireduce_scatter",
        MpiCommDup = "MPI_Comm_dup", MpiCommSplit = "MPI_Comm_split", MpiCommFree = "MPI_Comm_free",
        MpiAbort = "MPI_Abort", MpiWtime = "MPI_Wtime",
        // mpi.h: groups, communicators from groups, Cartesian topologies, user
        // operators and the buffer of buffered sends (`mpi.rs`'s block of the same name)
        MpiCommGroup = "MPI_Comm_group", MpiGroupSize = "MPI_Group_size", MpiGroupRank = "MPI_Group_rank",
        MpiGroupIncl = "MPI_Group_incl", MpiGroupExcl = "MPI_Group_excl",
        MpiGroupTranslateRanks = "MPI_Group_translate_ranks", MpiGroupFree = "MPI_Group_free",
        MpiCommCreate = "MPI_Comm_create",
        MpiCartCreate = "MPI_Cart_create", MpiCartCoords = "MPI_Cart_coords", MpiCartRank = "MPI_Cart_rank",
        MpiCartShift = "MPI_Cart_shift", MpiCartGet = "MPI_Cart_get", MpiCartdimGet = "MPI_Cartdim_get",
        MpiDimsCreate = "MPI_Dims_create",
        MpiOpCreate = "MPI_Op_create", MpiOpFree = "MPI_Op_free",
        MpiBufferAttach = "MPI_Buffer_attach", MpiBufferDetach = "MPI_Buffer_detach",
        // One-sided communication (RMA).
        MpiWinCreate = "MPI_Win_create", MpiWinAllocate = "MPI_Win_allocate",
        MpiWinFree = "MPI_Win_free", MpiWinFence = "MPI_Win_fence",
        MpiPut = "MPI_Put", MpiGet = "MPI_Get", MpiAccumulate = "MPI_Accumulate",
        MpiRput = "MPI_Rput", MpiRget = "MPI_Rget",
        MpiRaccumulate = "MPI_Raccumulate",
        MpiWinLock = "MPI_Win_lock", MpiWinUnlock = "MPI_Win_unlock",
        MpiWinLockAll = "MPI_Win_lock_all", MpiWinUnlockAll = "MPI_Win_unlock_all",
        MpiWinFlush = "MPI_Win_flush", MpiWinFlushAll = "MPI_Win_flush_all",
        MpiWinPost = "MPI_Win_post", MpiWinStart = "MPI_Win_start",
        MpiWinComplete = "MPI_Win_complete", MpiWinWait = "MPI_Win_wait",
        MpiWinSync = "MPI_Win_sync", MpiWinTest = "MPI_Win_test",
        // mpi.h, point-to-point extras: threads, local queries, persistent requests
        MpiInitThread = "MPI_Init_thread", MpiQueryThread = "MPI_Query_thread",
        MpiGetProcessorName = "MPI_Get_processor_name", MpiTypeSize = "MPI_Type_size",
        MpiReduceLocal = "MPI_Reduce_local",
        MpiSendInit = "MPI_Send_init", MpiSsendInit = "MPI_Ssend_init",
        MpiRsendInit = "MPI_Rsend_init", MpiBsendInit = "MPI_Bsend_init",
        MpiRecvInit = "MPI_Recv_init",
        MpiStart = "MPI_Start", MpiStartall = "MPI_Startall",
        // mpi.h, derived datatypes
        MpiTypeContiguous = "MPI_Type_contiguous", MpiTypeVector = "MPI_Type_vector",
        MpiTypeIndexed = "MPI_Type_indexed", MpiTypeCreateStruct = "MPI_Type_create_struct",
        MpiTypeCommit = "MPI_Type_commit", MpiTypeFree = "MPI_Type_free",
        MpiTypeGetExtent = "MPI_Type_get_extent",
        // mpi.h, addresses (opaque values: state/src/mpi/address.rs)
        MpiGetAddress = "MPI_Get_address", MpiAintAdd = "MPI_Aint_add", MpiAintDiff = "MPI_Aint_diff",
        // mpi.h, one-sided atomics
        MpiFetchAndOp = "MPI_Fetch_and_op", MpiCompareAndSwap = "MPI_Compare_and_swap",
        MpiGetAccumulate = "MPI_Get_accumulate", MpiRgetAccumulate = "MPI_Rget_accumulate",
        // mpi.h, persistent collectives (MPI-4)
        MpiBarrierInit = "MPI_Barrier_init", MpiBcastInit = "MPI_Bcast_init",
        MpiReduceInit = "MPI_Reduce_init", MpiAllreduceInit = "MPI_Allreduce_init",
        MpiGatherInit = "MPI_Gather_init", MpiScatterInit = "MPI_Scatter_init",
        MpiAllgatherInit = "MPI_Allgather_init",
    }
}

impl LibraryFunction {
    /// True for the side-effect-free math functions that appear as
    /// [`crate::expr::ExprKind::MathCall`] (uninterpreted, with axioms such as
    /// `sqrt(x)*sqrt(x) == x` for `x >= 0` supplied by the engine).
    pub fn is_pure_math(self) -> bool {
        use LibraryFunction::*;
        matches!(
            self,
            Sqrt | Fabs
                | Pow
                | Exp
                | Log
                | Sin
                | Cos
                | Floor
                | Ceil
                | Fmin
                | Fmax
                | Abs
                | Labs
                | Delta
        )
    }
    /// True for the functions whose only effects are on the calling process's
    /// own memory, through their arguments and result (`<string.h>`, `rand`,
    /// `printf`, `time`, ...): not MPI, not process termination.
    pub fn is_process_local(self) -> bool {
        use LibraryFunction::*;
        !self.is_mpi() && !matches!(self, Exit | Abort)
    }
    /// True for the functions of `<mpi.h>`.
    pub fn is_mpi(self) -> bool {
        self.c_name().starts_with("MPI_")
    }
    /// True for the nonblocking collectives (`MPI_Ibarrier`, `MPI_Iallreduce`, ...).
    pub fn is_nonblocking_collective(self) -> bool {
        self.mpi()
            .is_some_and(|d| d.returns_request() && d.collective().is_some())
    }
    /// True for the calls that complete requests (`MPI_Wait`, `MPI_Test` and
    /// their `all` / `any` forms): a nonblocking collective's results reach its
    /// receive buffer there.
    pub fn completes_requests(self) -> bool {
        self.mpi().is_some_and(|d| {
            d.kind == crate::mpi::MpiKind::Completion && self != LibraryFunction::MpiRequestFree
        })
    }
}

named_enum! {
    /// A constant of a built-in library whose value only the engine knows
    /// (MPI handles and special ranks). Numeric constants such as `INT_MAX`
    /// or `RAND_MAX` are plain macros in the headers instead. The type of a
    /// [`crate::expr::ExprKind::LibraryConstant`] expression is the C type the
    /// header declares: `int` for `MPI_ANY_SOURCE`, `MPI_ANY_TAG`,
    /// `MPI_PROC_NULL`, `MPI_SUCCESS`, `MPI_UNDEFINED`; `MPI_Status *` for
    /// `MPI_STATUS(ES)_IGNORE`; the MPI handle types for the others.
    LibraryConstant {
        MpiCommWorld = "MPI_COMM_WORLD", MpiCommSelf = "MPI_COMM_SELF", MpiCommNull = "MPI_COMM_NULL",
        MpiAnySource = "MPI_ANY_SOURCE", MpiAnyTag = "MPI_ANY_TAG",
        MpiStatusIgnore = "MPI_STATUS_IGNORE", MpiStatusesIgnore = "MPI_STATUSES_IGNORE",
        MpiProcNull = "MPI_PROC_NULL", MpiRequestNull = "MPI_REQUEST_NULL",
        MpiSuccess = "MPI_SUCCESS", MpiUndefined = "MPI_UNDEFINED",
        MpiInt = "MPI_INT", MpiLong = "MPI_LONG", MpiFloat = "MPI_FLOAT", MpiDouble = "MPI_DOUBLE",
        MpiChar = "MPI_CHAR", MpiByte = "MPI_BYTE", MpiUnsigned = "MPI_UNSIGNED",
        MpiLongLong = "MPI_LONG_LONG", MpiDoubleInt = "MPI_DOUBLE_INT", Mpi2Int = "MPI_2INT",
        MpiSum = "MPI_SUM", MpiProd = "MPI_PROD", MpiMin = "MPI_MIN", MpiMax = "MPI_MAX",
        MpiLand = "MPI_LAND", MpiLor = "MPI_LOR", MpiBand = "MPI_BAND", MpiBor = "MPI_BOR",
        MpiMaxloc = "MPI_MAXLOC", MpiMinloc = "MPI_MINLOC",
        // groups, user operators, buffered sends
        MpiGroupNull = "MPI_GROUP_NULL", MpiGroupEmpty = "MPI_GROUP_EMPTY", MpiOpNull = "MPI_OP_NULL",
        MpiBsendOverhead = "MPI_BSEND_OVERHEAD",
        // One-sided communication (RMA).
        MpiWinNull = "MPI_WIN_NULL", MpiInfoNull = "MPI_INFO_NULL", MpiReplace = "MPI_REPLACE", MpiNoOp = "MPI_NO_OP",
        MpiLockExclusive = "MPI_LOCK_EXCLUSIVE", MpiLockShared = "MPI_LOCK_SHARED",
        MpiModeNocheck = "MPI_MODE_NOCHECK", MpiModeNostore = "MPI_MODE_NOSTORE",
        MpiModeNoput = "MPI_MODE_NOPUT", MpiModeNoprecede = "MPI_MODE_NOPRECEDE",
        MpiModeNosucceed = "MPI_MODE_NOSUCCEED",
        MpiLongDouble = "MPI_LONG_DOUBLE",
        /// the send buffer of a collective that takes its data from the receive buffer
        MpiInPlace = "MPI_IN_PLACE",
        /// no datatype: using it in a communication is an error
        MpiDatatypeNull = "MPI_DATATYPE_NULL",
        /// `FILE *` of `<stdio.h>` (output is not modelled)
        Stdout = "stdout",
        /// `FILE *` of `<stdio.h>` (output is not modelled)
        Stderr = "stderr",
    }
}
