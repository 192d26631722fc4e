//! Buffered sends: the buffer a process attaches (`MPI_Buffer_attach`), the
//! room its `MPI_Bsend` messages take there until they are received (each
//! its packed data and `MPI_BSEND_OVERHEAD` bytes), and `MPI_Buffer_detach`,
//! which waits until they are transmitted: like a standard send, it returns
//! at once when the system buffers them, and under zero buffering only once
//! they are received (`deadlock.rs` counts a detach with messages left as
//! needing a buffer). A buffered send that does not fit in the room left, or
//! made with no buffer attached, is a `buffer-overflow` (MPI makes it
//! erroneous; Open MPI fails with `MPI_ERR_BUFFER`).

use std::sync::Arc;
use tass_dynamic::api::{Message, Value};
use tass_model::api::mpi::{ArgRole, MPI_BSEND_OVERHEAD};
use tass_model::api::{LibraryConstant as LC, LibraryFunction as LF, Span};
use tass_semantics::api::{EngineError, Evaluator, Property};

use super::buffer::{p2p_datatype, P2pType};
use super::context::write_through;
use super::context::MpiCall;
use super::group::{concrete_int, Done, OUTPUT};
use crate::env::{set_mpi, ProcEnv};
use crate::state::State;

/// The buffer a process attached.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Attached {
    /// Its address, as the program gave it (`MPI_Buffer_detach` returns it).
    pub address: Value,
    /// Its size in bytes.
    pub size: i64,
}

/// The bytes the `MPI_Bsend` messages of world rank `p` not yet received
/// hold in its attached buffer.
pub(super) fn bytes_in_use(state: &State, p: usize) -> i64 {
    state
        .inner
        .messages
        .iter()
        .filter(|m| m.source as usize == p)
        .filter_map(|m| m.bsend_bytes)
        .map(i64::from)
        .sum()
}

impl MpiCall<'_, '_, '_> {
    /// `MPI_Buffer_attach(buffer, size)`, `MPI_Buffer_detach(&buffer, &size)`.
    pub(super) fn buffer_attach_or_detach(&mut self) -> Result<Done, EngineError> {
        let call = self.call;
        let span = call.span;
        let attached = self.env.state.inner.procs[self.env.proc]
            .mpi
            .attached
            .clone();
        if call.lf == LF::MpiBufferAttach {
            if attached.is_some() {
                let message = "MPI_Buffer_attach while a buffer is attached already \
                           (a process has at most one; detach it first)"
                    .to_string();
                self.ev
                    .fail(&*self.env, Property::InvalidPointer, message, span);
                return Ok(Done::Failed);
            }
            let address = self
                .ev
                .eval(&*self.env, call.arg(ArgRole::AttachedBuffer))?;
            let size = self.int_arg(ArgRole::BufferSize, "size")?;
            if size < 0 {
                let message = format!("MPI_Buffer_attach with negative size {size}");
                self.ev.fail(&*self.env, Property::MpiCount, message, span);
                return Ok(Done::Failed);
            }
            set_mpi(self.env, |m| m.attached = Some(Attached { address, size }));
            return Ok(Done::Returns);
        }
        // Detach: the messages left move to the system's buffers (the
        // zero-buffer deadlock test counts this as needing one).
        let (address, size) = match attached {
            Some(a) => (a.address, a.size),
            None => (Value::Pointer(tass_dynamic::api::Pointer::Null), 0),
        };
        set_mpi(self.env, |m| m.attached = None);
        if bytes_in_use(self.env.state, self.env.proc) > 0 {
            let p = self.env.proc as u32;
            let s = self.env.state.inner_mut();
            for m in Arc::make_mut(&mut s.messages).iter_mut() {
                if m.source == p {
                    m.bsend_bytes = None;
                }
            }
        }
        write_through(
            self.ev,
            self.env,
            call.arg(ArgRole::AttachedBuffer),
            address,
            OUTPUT,
            span,
        )?;
        self.write_int(ArgRole::BufferSize, size)?;
        Ok(Done::Returns)
    }
}

/// The bytes an `MPI_Bsend` of `count` elements of `dtype` takes in the
/// attached buffer (Open MPI's packed sizes and overhead).
pub(super) fn message_bytes(count: i64, dtype: &P2pType) -> i64 {
    let element = match dtype {
        P2pType::Pair(LC::MpiDoubleInt) => 12,
        P2pType::Pair(_) => 8,
        P2pType::Basic(c, _) => match c {
            LC::MpiChar | LC::MpiByte => 1,
            LC::MpiInt | LC::MpiUnsigned | LC::MpiFloat => 4,
            _ => 8,
        },
    };
    count * element + MPI_BSEND_OVERHEAD
}

/// Before an `MPI_Bsend`: the messages of the state, to find the one the
/// send adds.
pub(super) fn before(env: &ProcEnv<'_>) -> Arc<Vec<Message>> {
    env.state.inner.messages.clone()
}

/// After an `MPI_Bsend` (`send_args`: buffer, count, datatype, ...): checks
/// that its message fits in the room left in the attached buffer and marks
/// it as holding that room until received. Nothing to do when no message
/// was sent (`MPI_PROC_NULL`, or the path died).
pub(super) fn after(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    before: &[Message],
    send_args: [&tass_model::api::Expr; 6],
    span: &Span,
) -> Result<(), EngineError> {
    let messages = &env.state.inner.messages;
    if messages.len() != before.len() + 1 {
        return Ok(());
    }
    let at = (0..before.len())
        .find(|&i| messages[i] != before[i])
        .unwrap_or(before.len());
    let count = concrete_int(ev, &*env, send_args[1], "count", (LF::MpiBsend, span))?;
    let dtype = p2p_datatype(ev, &*env, send_args[2], span)?;
    let bytes = message_bytes(count, &dtype);
    if !has_room(ev, env, "MPI_Bsend", (count, bytes), span) {
        return Ok(());
    }
    let s = env.state.inner_mut();
    Arc::make_mut(&mut s.messages)[at].bsend_bytes = u32::try_from(bytes).ok();
    Ok(())
}

/// Whether a buffered message of `count` elements taking `bytes` in the
/// attached buffer fits in the room the process has left there (its earlier
/// buffered messages not yet received hold theirs); when not, reports the
/// `buffer-overflow` of the sending call `what` (`MPI_Bsend`, or `MPI_Start`
/// of an `MPI_Bsend_init` request) and the path ends.
pub(super) fn has_room(
    ev: &mut Evaluator<'_>,
    env: &ProcEnv<'_>,
    what: &str,
    (count, bytes): (i64, i64),
    span: &Span,
) -> bool {
    let p = env.proc;
    let used = bytes_in_use(env.state, p);
    let size = env.state.inner.procs[p]
        .mpi
        .attached
        .as_ref()
        .map(|a| a.size);
    let message = match size {
        None => format!(
            "{what} with no buffer attached (MPI_Buffer_attach): the message needs {bytes} bytes"
        ),
        Some(size) if used + bytes > size => format!(
            "{what} needs {bytes} bytes ({count} elements and \
             MPI_BSEND_OVERHEAD {MPI_BSEND_OVERHEAD}) of the attached buffer, but only {} \
             of its {size} bytes are free",
            size - used
        ),
        Some(_) => return true,
    };
    ev.fail(env, Property::BufferOverflow, message, span);
    false
}
