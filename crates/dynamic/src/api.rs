//! The public interface of `tass-dynamic`: run-time values of a tass model.
//!
//! - [`Value`]: the value of a dynamic variable (or of a part of one): undefined,
//!   symbolic data ([`Value::Data`], wrapping a `tass_symbolic` expression of type
//!   bool / int / real / char or an array of those), a [`Pointer`], a struct, an
//!   array of non-data elements, or an MPI [`Handle`].
//! - [`Root`] + [`Step`] = [`Pointer`]: pointers are `(dynamic variable, path)` as in
//!   the TASS paper (Sec. 2): the root names a dynamic variable (shared, process
//!   global, local of a frame, heap object) and the path navigates inside it.
//! - [`HeapObject`]: a block from `malloc`/`calloc`/`realloc` (live or freed).
//! - [`Message`]: a buffered point-to-point message (used by the MPI engine).
//! - [`read_at`] / [`write_at`]: navigation inside values; [`undefined_data`] /
//!   [`is_undefined_data`]: the marker for never-written array elements;
//!   [`size_of`]: C sizes (LP64) of model types.

pub use crate::heap::{ElemType, HeapObject, Message};
pub use crate::pointer::{Pointer, Root, Step};
pub use crate::value::{
    is_undefined_data, read_at, size_of, undefined_data, write_at, AccessError, Handle, Value,
    UNDEFINED_SYMBOL,
};
