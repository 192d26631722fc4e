//! The public interface of `tass-model`: everything other crates may use.

pub use crate::builder::{BodyBuilder, ModelBuilder};
pub use crate::expr::{BinaryOp, Comparison, Expr, ExprKind, QuantifierKind, UnaryOp};
pub use crate::layout::{field_offset, layout_of, TypeLayout};
pub use crate::library::{LibraryConstant, LibraryFunction};
pub use crate::loop_writes::{prepare_loop_invariants, WriteSetError, WriteTarget};
pub use crate::ltl::{LtlAtom, LtlFormula, LtlProperty};
pub use crate::program::{
    Body, BodyGraph, Function, FunctionId, FunctionKind, Location, LocationId, LocationKind, Model,
    TransitionId, VarId, VarScope, Variable,
};
pub use crate::render::{
    render_decl, render_expr, render_model, render_statement, render_type, scope_name,
};
pub use crate::snippet::{source_snippet, SnippetColour};
pub use crate::span::Span;
pub use crate::stmt::{
    AssertOrigin, Callee, CollectiveKind, LoopArrival, LoopInvariant, Statement, Transition,
};
pub use crate::types::char_byte_value;
pub use crate::types::{
    AggregateKind, Field, IntKind, MpiHandleType, RealKind, StructDef, StructId, Type, CHAR_RANGE,
};
/// The MPI library, described once (kinds, argument roles and positions, constants).
pub mod mpi {
    pub use crate::mpi::{
        rank_values, ArgRole, Blocking, CollectiveOp, Envelope, MpiFunction, MpiKind, Param, Rank,
        RmaOp, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_BSEND_OVERHEAD, MPI_FUNCTIONS, MPI_INFO_NULL,
        MPI_LOCK_EXCLUSIVE, MPI_LOCK_SHARED, MPI_PROC_NULL, MPI_SUCCESS, MPI_UNDEFINED,
    };
    pub use crate::mpi_guide::{guide_list, GUIDE_LIST_BEGIN, GUIDE_LIST_END};
}
