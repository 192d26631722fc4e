//! Heap objects and messages.

use tass_model::api::{
    IntKind, LibraryConstant, MpiHandleType, RealKind, StructId, Type as ModelType,
};
use tass_symbolic::api::Expr;

use crate::value::Value;

/// The C type of a heap block's elements, kept so that byte-level pointer
/// arithmetic knows the block's layout (model types themselves are not hashable).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ElemType {
    /// `_Bool`
    Bool,
    /// `char`
    Char,
    /// an integer type
    Int(IntKind),
    /// a floating type
    Real(RealKind),
    /// any pointer type (all have the same layout)
    Pointer,
    /// a struct or union
    Struct(StructId),
    /// an MPI handle
    Mpi(MpiHandleType),
    /// anything else (arrays, ...): byte views into the block are refused
    Other,
}

impl ElemType {
    /// The element type of a block allocated for `ty` elements.
    pub fn of(ty: &ModelType) -> ElemType {
        match ty {
            ModelType::Bool => ElemType::Bool,
            ModelType::Char => ElemType::Char,
            ModelType::Int(k) => ElemType::Int(*k),
            ModelType::Real(k) => ElemType::Real(*k),
            ModelType::Pointer(_) => ElemType::Pointer,
            ModelType::Struct(id) => ElemType::Struct(*id),
            ModelType::Mpi(h) => ElemType::Mpi(*h),
            _ => ElemType::Other,
        }
    }

    /// The model type (`void *` for pointers); `None` for [`ElemType::Other`].
    pub fn model_type(self) -> Option<ModelType> {
        Some(match self {
            ElemType::Bool => ModelType::Bool,
            ElemType::Char => ModelType::Char,
            ElemType::Int(k) => ModelType::Int(k),
            ElemType::Real(k) => ModelType::Real(k),
            ElemType::Pointer => ModelType::Pointer(Box::new(ModelType::Void)),
            ElemType::Struct(id) => ModelType::Struct(id),
            ElemType::Mpi(h) => ModelType::Mpi(h),
            ElemType::Other => return None,
        })
    }
}

/// A block allocated by `malloc`, `calloc` or `realloc`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HeapObject {
    /// Allocated and not yet freed: an array of `extent` elements.
    Live {
        /// The array (data or an array of pointers/structs).
        value: Value,
        /// Number of elements (symbolic allowed).
        extent: Expr,
        /// The C type of the elements.
        elem: ElemType,
    },
    /// Freed; kept while some pointer may still refer to it, so that using such a
    /// pointer is reported as a dangling-pointer use.
    Freed,
}

impl HeapObject {
    /// True for a live (not freed) object.
    pub fn is_live(&self) -> bool {
        matches!(self, HeapObject::Live { .. })
    }

    /// This object with its value and extent replaced by what `f` makes of
    /// them (the renamings of symmetry and of the lagged loop run); a freed
    /// object stays freed.
    pub fn map_live(&self, f: impl FnOnce(&Value, Expr) -> (Value, Expr)) -> HeapObject {
        match self {
            HeapObject::Live {
                value,
                extent,
                elem,
            } => {
                let (value, extent) = f(value, *extent);
                HeapObject::Live {
                    value,
                    extent,
                    elem: *elem,
                }
            }
            HeapObject::Freed => HeapObject::Freed,
        }
    }
}

/// A point-to-point message in transit (buffered), for the MPI engine.
/// Buffered messages are kept ordered by sender, then receiver, then issue order.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Message {
    /// Rank of the sender.
    pub source: u32,
    /// Rank of the receiver.
    pub dest: u32,
    /// The tag.
    pub tag: Expr,
    /// The communicator (0 = `MPI_COMM_WORLD`).
    pub comm: u32,
    /// The data: an array of `count` elements.
    pub data: Value,
    /// Number of elements sent.
    pub count: Expr,
    /// The sender's request (`MPI_Isend`) still waiting for this message to be
    /// received, if any: under zero buffering that request completes only once
    /// the message leaves the buffer.
    pub request: Option<u32>,
    /// For an `MPI_Bsend` message, the bytes it holds in its sender's
    /// attached buffer until it is received (data and `MPI_BSEND_OVERHEAD`).
    pub bsend_bytes: Option<u32>,
    /// The basic MPI datatype every element was sent as (the message's type
    /// signature, `count` times this type); `None` when not recorded.
    pub signature: Option<LibraryConstant>,
    /// The basic datatype of each element in order, for a message sent with
    /// a struct datatype of mixed basic types (`signature` is `None` then,
    /// and `data` is a struct of the elements' scalars in the same order).
    pub mixed_signature: Option<std::sync::Arc<[LibraryConstant]>>,
}
