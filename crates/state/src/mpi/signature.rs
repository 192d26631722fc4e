//! Type signatures of point-to-point messages: MPI asks the sequence of
//! basic datatypes a message is sent as to match the sequence the receive
//! expects, not the C types of the buffers. Sending `int`s as `MPI_FLOAT`
//! and receiving them as `MPI_INT` is an error, although both buffers hold
//! `int`s.
//!
//! The rule implemented (MPI 4.0, 3.3.1): a basic datatype matches only
//! itself (`MPI_INT` is not `MPI_UNSIGNED`, `MPI_LONG` is not
//! `MPI_LONG_LONG`, `MPI_CHAR` is not `MPI_BYTE`, even where the sizes
//! agree); `MPI_BYTE` matches only `MPI_BYTE`. `MPI_PACKED` is not modelled.

use tass_model::api::LibraryConstant as LC;

/// The message of a mismatch between the basic datatype a message was sent
/// as and the one it is received as (`None`: they match, or one is unknown).
pub(super) fn mismatch(sent: Option<LC>, received: Option<LC>) -> Option<String> {
    let (sent, received) = (sent?, received?);
    if sent == received {
        return None;
    }
    Some(format!(
        "message sent as {} received as {} (type signatures must match)",
        sent.c_name(),
        received.c_name()
    ))
}
