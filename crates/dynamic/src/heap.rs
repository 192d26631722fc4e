//! Heap objects and messages.

use tass_symbolic::api::Expr;

use crate::value::Value;

/// A block allocated by `malloc`, `calloc` or `realloc`.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum HeapObject {
    /// Allocated and not yet freed: an array of `extent` elements.
    Live {
        /// The array (data or an array of pointers/structs).
        value: Value,
        /// Number of elements (symbolic allowed).
        extent: Expr,
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
}
