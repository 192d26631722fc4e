//! Persistent requests: `MPI_Send_init`, `MPI_Ssend_init`, `MPI_Rsend_init`,
//! `MPI_Bsend_init` and `MPI_Recv_init` make an inactive request that remembers the call's
//! arguments (the buffer's address, count, datatype, peer, tag and
//! communicator: MPI binds them at the init); `MPI_Start` / `MPI_Startall`
//! start it as the nonblocking call would (a send reads its buffer then), a
//! wait or test completes it and makes it inactive again (the program keeps the
//! handle), and `MPI_Request_free` releases it. Starting an active request or
//! one that is not persistent is an error (`invalid-pointer`, as for the other
//! misused requests); a wait or test of an inactive one returns at once with an
//! empty status, as MPI says; a persistent request never freed is a
//! `resource-leak`. A started `MPI_Bsend_init` request copies its message
//! into the attached buffer as `MPI_Bsend` does (`bsend.rs`: no room is a
//! `buffer-overflow`) and is complete at once.

use crate::mpi::buffer::{Elements, Reader};
use tass_dynamic::api::{Handle, Message, Value};
use tass_model::api::mpi::{ArgRole, Rank};
use tass_model::api::{FunctionId, LibraryFunction as LF};
use tass_semantics::api::{EngineError, Environment, Place, Property};

use super::bsend;
use super::buffer::{check_count, concrete, BufArg, P2pType};
use super::collective::pending::Sent;
use super::context::{ArgReader, Call, MpiCall};
use super::envelope::tag_value;
use super::p2p::{checked_envelope, Envelope, EnvelopeArgs};
use super::receive_buffer::ReceiveBuffer;
use super::request::{self, Persistent, RequestKind};
use super::tag::TagUse;
use crate::env::set_mpi;

impl MpiCall<'_, '_, '_> {
    /// `MPI_Send_init(buf, count, datatype, dest, tag, comm, &request)` and its
    /// synchronous and ready forms, and `MPI_Recv_init`: an inactive persistent
    /// request.
    pub(super) fn init_persistent(&mut self, function: FunctionId) -> Result<(), EngineError> {
        let persistent = if self.call.lf == LF::MpiRecvInit {
            let Some(kind) = self.receive_request()? else {
                return Ok(());
            };
            if matches!(&kind, RequestKind::Recv(pr) if pr.pair.is_some()) {
                return Err(pairs_unsupported(self.call));
            }
            let buffer = self.posted_buffer()?;
            Persistent::Recv(kind, Box::new(buffer))
        } else {
            let Some(send) = self.persistent_send()? else {
                return Ok(());
            };
            send
        };
        let call = self.call;
        let origin = (function, call.tid);
        let h = request::add_request_of(
            self.env,
            RequestKind::Inactive,
            origin,
            Some(Box::new(persistent)),
        );
        self.write_request(call.arg(ArgRole::Request), h)
    }

    /// `MPI_Bcast_init(..., info, &request)` and the other persistent
    /// collective inits (MPI-4): an inactive persistent request binding the
    /// collective's arguments significant at the process. A local step: the
    /// members' inits are matched with each other by their order on the
    /// communicator, checked when the started operations are performed.
    pub(super) fn init_persistent_collective(
        &mut self,
        function: FunctionId,
    ) -> Result<(), EngineError> {
        let Some(kind) = self.call.lf.mpi().and_then(|d| d.persistent_collective()) else {
            return Err(EngineError::invalid(
                "persistent collective init of a call that is none",
                Some(self.call.span),
            ));
        };
        let Some(mut bound) = self.bind(kind)? else {
            return Ok(()); // a bad argument, reported
        };
        let (_, env, call) = self.parts();
        let comm = bound.call.comm;
        let inits = &env.state.inner.procs[env.proc].mpi.collective_inits;
        let ordinal = inits
            .iter()
            .find(|(c, _)| *c == comm)
            .map_or(0, |(_, k)| *k);
        bound.call.init_ordinal = Some(ordinal);
        set_mpi(env, |m| {
            match m.collective_inits.iter_mut().find(|(c, _)| *c == comm) {
                Some((_, k)) => *k += 1,
                None => m.collective_inits.push((comm, 1)),
            }
        });
        let origin = (function, call.tid);
        let persistent = Persistent::Collective(Box::new(bound));
        let h = request::add_request_of(
            env,
            RequestKind::Inactive,
            origin,
            Some(Box::new(persistent)),
        );
        self.write_request(call.arg(ArgRole::Request), h)
    }

    /// The send a send init binds; `None` when the path died (a bad argument,
    /// reported).
    fn persistent_send(&mut self) -> Result<Option<Persistent>, EngineError> {
        let (dtype, count) = self.buffer_datatype_and_count()?;
        let (ev, env, call) = self.parts();
        let span = call.span;
        let (datatype, ty) = match dtype {
            P2pType::Basic(c, ty) => (c, ty),
            P2pType::Pair(_) => return Err(pairs_unsupported(call)),
        };
        let name = call.lf.c_name();
        let envelope_args = EnvelopeArgs::of(call, ArgRole::Dest);
        let Some(envelope) = checked_envelope(ev, env, envelope_args, TagUse::Send, name, span)?
        else {
            return Ok(None);
        };
        check_count(ev, &*env, count, name, span);
        let dest = match ArgReader::new(ev, env, span).world_peer(&envelope)? {
            None => return Ok(None), // a bad rank, reported
            Some(Rank::Process(w)) => Some(w),
            Some(_) => None, // MPI_PROC_NULL (MPI_ANY_SOURCE is not a send's: reported)
        };
        let Envelope { tag, comm, .. } = envelope;
        let tag = tag_value(ev, ev.current_pc(&*env), tag, span)?;
        let buffer = ev.eval(&*env, call.arg(ArgRole::Buffer))?;
        let pointee = BufArg::Expr(call.arg(ArgRole::Buffer)).scalar_pointee();
        // A buffered send's room in the attached buffer is claimed at each
        // start; its size is fixed by the arguments bound here.
        let buffered_bytes = if call.lf == LF::MpiBsendInit {
            let elements = concrete(ev, count, "count", span)?;
            Some(bsend::message_bytes(
                elements,
                &P2pType::Basic(datatype, ty.clone()),
            ))
        } else {
            None
        };
        Ok(Some(Persistent::Send {
            buffer,
            pointee,
            count,
            ty,
            datatype,
            dest,
            tag,
            comm,
            synchronous: call.lf == LF::MpiSsendInit,
            buffered_bytes,
        }))
    }

    /// `MPI_Start(&request)`.
    pub(super) fn start(&mut self) -> Result<(), EngineError> {
        let (ev, env, call) = self.parts();
        let ptr = ev.eval(&*env, call.arg(ArgRole::Request))?;
        let place = ev.deref_place(&*env, ptr, false, call.span, &|| "request".into())?;
        self.start_at(&place)
    }

    /// `MPI_Startall(count, requests)`.
    pub(super) fn start_all(&mut self) -> Result<(), EngineError> {
        let (ev, env, call) = self.parts();
        let count = ev.eval_int(&*env, call.arg(ArgRole::RequestCount))?;
        let count = concrete(ev, count, "request count", call.span)?;
        let array = ev.eval(&*env, call.arg(ArgRole::Requests))?;
        let places = request::request_places(ev, &*env, array, count.max(0) as usize, call.span)?;
        for place in places {
            self.start_at(&place)?;
        }
        Ok(())
    }

    /// Starts the persistent request stored at `place` (by `call`, `MPI_Start`
    /// or `MPI_Startall`).
    fn start_at(&mut self, place: &Place) -> Result<(), EngineError> {
        let (ev, env, call) = self.parts();
        let span = call.span;
        let v = ev.read_place(&*env, place);
        let p = env.proc;
        let Some(index) = request::persistent_index(env.state, p, &v) else {
            let what = match v {
                Value::Handle(Handle::Request(_)) => {
                    "a request that is not persistent \
                 (made by MPI_Isend, MPI_Irecv, ..., or freed)"
                }
                Value::Undefined => "an uninitialised request",
                _ => "MPI_REQUEST_NULL or a value that is no request",
            };
            ev.fail(
                &*env,
                Property::InvalidPointer,
                format!("MPI_Start on {what}"),
                span,
            );
            return Ok(());
        };
        let r = env.state.inner.procs[p].mpi.requests[index].clone();
        if r.kind != RequestKind::Inactive {
            ev.fail(
                &*env,
                Property::InvalidPointer,
                "MPI_Start on an active persistent request (started and not completed \
             by MPI_Wait/MPI_Test since)"
                    .into(),
                span,
            );
            return Ok(());
        }
        let Some(persistent) = r.persistent.as_deref() else {
            return Ok(());
        };
        let mut sent = None;
        let mut receiving = None;
        let kind = match persistent {
            Persistent::Collective(bound) => {
                // Posted as the nonblocking form (`execute.rs` performs it
                // once every member has posted).
                let Some(posted) = MpiCall::new(ev, env, call).post_bound(bound)? else {
                    return Ok(()); // the path died on a reported error
                };
                RequestKind::Posted(Box::new(posted))
            }
            Persistent::Recv(kind, buffer) => {
                receiving = Some(Box::new(ReceiveBuffer {
                    posted_by: call.lf,
                    line: span.start_line,
                    ..(**buffer).clone()
                }));
                kind.clone()
            }
            Persistent::Send { dest: None, .. } => {
                let (source, tag, count) = request::proc_null_status(ev.factory());
                RequestKind::Done { source, tag, count }
            }
            Persistent::Send {
                buffer,
                pointee,
                count,
                ty,
                datatype,
                dest: Some(dest),
                tag,
                comm,
                synchronous,
                buffered_bytes,
            } => {
                let f = ev.factory();
                let arg = BufArg::Stored(buffer, pointee.as_ref());
                let Some(data) = Reader::new(ev, &*env, span)
                    .read_buffer(Elements::new(arg, *count, f.int(0)), ty)?
                else {
                    return Ok(());
                };
                if let Some(bytes) = *buffered_bytes {
                    let elements = concrete(ev, *count, "count", span)?;
                    let what = "MPI_Start of an MPI_Bsend_init request";
                    if !bsend::has_room(ev, env, what, (elements, bytes), span) {
                        return Ok(());
                    }
                }
                env.enqueue(Message {
                    bsend_bytes: buffered_bytes.and_then(|b| u32::try_from(b).ok()),
                    source: p as u32,
                    dest: *dest,
                    tag: f.int(*tag),
                    comm: *comm,
                    data: Value::Data(data),
                    count: *count,
                    // A buffered message lives in the attached buffer, apart
                    // from the request, which completes at once.
                    request: buffered_bytes.is_none().then_some(r.handle),
                    signature: Some(*datatype),
                    mixed_signature: None,
                });
                if buffered_bytes.is_some() {
                    // The data was copied out: the program may reuse its
                    // buffer at once, and a wait returns at once.
                    let (source, tag, count) = request::proc_null_status(f);
                    RequestKind::Done { source, tag, count }
                } else {
                    sent = Some(Box::new(Sent {
                        lf: LF::MpiStart,
                        line: span.start_line,
                        pointer: buffer.clone(),
                        pointee: pointee.clone(),
                        ty: ty.clone(),
                        pieces: vec![(f.int(0), *count, data)],
                    }));
                    RequestKind::Send {
                        synchronous: *synchronous,
                    }
                }
            }
        };
        // A started request is posted now: it goes behind the requests posted
        // before it (MPI's order of matching receives).
        set_mpi(env, |m| {
            let mut started = m.requests.remove(index);
            started.kind = kind;
            started.sent = sent;
            started.receiving = receiving;
            m.requests.push(started);
        });
        Ok(())
    }
}

fn pairs_unsupported(call: &Call<'_>) -> EngineError {
    EngineError::unsupported(
        format!(
            "{} with a pair datatype (MPI_DOUBLE_INT, MPI_2INT)",
            call.lf.c_name()
        ),
        call.span,
    )
}
