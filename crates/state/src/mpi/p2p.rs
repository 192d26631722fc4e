//! Point-to-point operations: sends, receives, posted receives and probes.

use crate::mpi::buffer::{Elements, Reader};
use tass_dynamic::api::{Message, Value};
use tass_model::api::mpi::{ArgRole, Rank};
use tass_model::api::{
    Expr as MExpr, FunctionId, LibraryConstant as LC, LibraryFunction as LF, Span,
};
use tass_semantics::api::{EngineError, Environment, Evaluator, Property};
use tass_symbolic::api::{Expr, Type};

use super::buffer::{check_count, check_rank, holds, P2pType};
use super::context::{ArgReader, Call, MpiCall, ANY, NO_MESSAGE, PROC_NULL};
use super::envelope::{blocking_match, resolve_rank, tag_value};
use super::request::RequestKind;
use super::tag::{check_tag, PathAfterCheck, TagUse};
use super::{buffer, comm, datatypes, deliver, request, struct_type};
use crate::env::ProcEnv;

/// `MPI_Send(buf, count, datatype, dest, tag, comm)`: buffers the message
/// (naming `request` for `MPI_Isend`). Returns the elements sent and their
/// count, when they are basic ones.
pub(super) fn send(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    args: [&MExpr; 6],
    span: &Span,
    request: Option<u32>,
) -> Result<Option<(Expr, Expr)>, EngineError> {
    let f = ev.factory();
    let mixed = ArgReader::new(ev, env, span).bytewise_datatype(args[2], args[0])?;
    let (dtype, count, gather) = match &mixed {
        // A struct of mixed basic types: its own reading below.
        Some(_) => (
            P2pType::Pair(LC::Mpi2Int),
            ev.eval_int(&*env, args[1])?,
            None,
        ),
        None => datatypes::datatype_and_count(ev, env, args[1], args[2], span)?,
    };
    let envelope_args = EnvelopeArgs {
        peer: args[3],
        tag: args[4],
        comm: args[5],
    };
    let Some(Envelope {
        peer: dest,
        tag,
        comm,
        size,
        ..
    }) = checked_envelope(ev, env, envelope_args, TagUse::Send, "the send", span)?
    else {
        return Ok(None);
    };
    let mut signature = match &dtype {
        _ if mixed.is_some() => None, // set below
        P2pType::Basic(c, _) => Some(*c),
        P2pType::Pair(_) => None, // pairs keep their own matching (`deliver_pairs`)
    };
    let mut mixed_signature = None;
    let mut count = count;
    let data = match (&dtype, gather) {
        _ if mixed.is_some() => {
            let Some(mixed) = &mixed else { return Ok(None) };
            let mut reader = ArgReader::new(ev, env, span);
            let message = reader.read_message(args[0], count, mixed)?;
            message.map(|(data, types)| {
                count = f.int(types.len() as i64);
                let (data, one_type) = struct_type::uniform_message(f, data, &types);
                if one_type.is_none() {
                    mixed_signature = Some(types);
                }
                signature = signature.or(one_type);
                data
            })
        }
        (P2pType::Basic(_, ty), Some(gather)) => Reader::new(ev, &*env, span)
            .read_gathered(args[0], &gather, ty)?
            .map(Value::Data),
        (P2pType::Basic(_, ty), None) => Reader::new(ev, &*env, span)
            .read_buffer(Elements::new(args[0], count, f.int(0)), ty)?
            .map(Value::Data),
        (&P2pType::Pair(c), _) => Reader::new(ev, &*env, span)
            .read_pairs(Elements::new(args[0], count, f.int(0)), c)?
            .map(|pairs| buffer::pair_message(f, c, &pairs)),
    };
    let pc = ev.current_pc(&*env);
    let Some(dest) = resolve_rank(f, ev.oracle(), pc, dest, size) else {
        if holds(ev, &*env, f.ff()) {
            return Ok(None); // the path is dead (a bad rank was reported)
        }
        return Err(EngineError::unsupported(
            "MPI send to a rank that depends on the inputs",
            span,
        ));
    };
    let Some(dest) = usize::try_from(dest)
        .ok()
        .and_then(|d| comm::to_world(env.state, comm, d))
    else {
        return Ok(None); // MPI_PROC_NULL, or a bad rank already reported
    };
    let tag = tag_value(ev, ev.current_pc(&*env), tag, span)?;
    let Some(data) = data else { return Ok(None) };
    let basic = data.as_data().map(|d| (d, count));
    env.enqueue(Message {
        source: env.proc as u32,
        dest,
        tag: f.int(tag),
        comm,
        data,
        count,
        request,
        bsend_bytes: None,
        signature,
        mixed_signature,
    });
    Ok(basic)
}

/// `MPI_Recv(buf, count, datatype, source, tag, comm, status)` taking the first
/// matching message from world rank `choice` (`None`: `MPI_PROC_NULL`).
pub(super) fn receive(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    args: [&MExpr; 7],
    choice: Option<u32>,
    span: &Span,
) -> Result<(), EngineError> {
    let f = ev.factory();
    let mixed = ArgReader::new(ev, env, span).bytewise_datatype(args[2], args[0])?;
    let (dtype, capacity) = match &mixed {
        // A struct of mixed basic types: delivered by `struct_type::deliver`.
        Some(_) => (P2pType::Pair(LC::Mpi2Int), ev.eval_int(&*env, args[1])?),
        None => datatypes::without_holes(
            datatypes::datatype_and_count(ev, env, args[1], args[2], span)?,
            span,
        )?,
    };
    let envelope_args = EnvelopeArgs {
        peer: args[3],
        tag: args[4],
        comm: args[5],
    };
    let Some(Envelope { tag, comm, .. }) =
        checked_envelope(ev, env, envelope_args, TagUse::Receive, "the receive", span)?
    else {
        return Ok(());
    };
    check_count(ev, &*env, capacity, "MPI_Recv", span);
    let status = match choice {
        None => request::proc_null_status(f),
        Some(s) => {
            let k = matched_message(ev, env, (s, tag, comm), "receive", span)?;
            let Some(msg) = env.dequeue(k) else {
                return Err(EngineError::invalid("message vanished", Some(span)));
            };
            match dtype {
                _ if mixed.is_some() => {
                    let Some(mixed) = &mixed else { return Ok(()) };
                    struct_type::deliver(ev, env, &msg, args[0], capacity, mixed, span)?
                }
                P2pType::Basic(c, ty) => {
                    let into = deliver::Receive {
                        buffer: args[0].into(),
                        capacity,
                        ty: &ty,
                        datatype: Some(c),
                    };
                    deliver::deliver(ev, env, &msg, into, span)?
                }
                P2pType::Pair(c) => {
                    deliver::deliver_pairs(ev, env, &msg, args[0].into(), capacity, c, span)?
                }
            }
            let rank = comm::rank_in(env.state, comm, s).unwrap_or(s as usize);
            (f.int(rank as i64), msg.tag, msg.count)
        }
    };
    let st = ev.eval(&*env, args[6])?;
    request::write_status(ev, env, st, status, span)
}

/// Where a point-to-point call's envelope arguments are: the peer rank
/// (destination or source), the tag and the communicator.
pub(super) struct EnvelopeArgs<'m> {
    pub(super) peer: &'m MExpr,
    pub(super) tag: &'m MExpr,
    pub(super) comm: &'m MExpr,
}

impl<'m> EnvelopeArgs<'m> {
    /// The envelope arguments of `call`, its peer in the argument of role `peer`.
    pub(super) fn of(call: &Call<'m>, peer: ArgRole) -> EnvelopeArgs<'m> {
        EnvelopeArgs {
            peer: call.arg(peer),
            tag: call.arg(ArgRole::Tag),
            comm: call.arg(ArgRole::Comm),
        }
    }
}

/// A point-to-point call's envelope, evaluated and checked.
pub(super) struct Envelope {
    /// The peer's rank in `comm` as the program wrote it (not yet resolved).
    pub(super) peer: Expr,
    pub(super) tag: Expr,
    pub(super) comm: u32,
    /// The number of processes in `comm`.
    pub(super) size: usize,
    /// Whether the call sends or receives.
    usage: TagUse,
    /// The call's name in messages.
    function: &'static str,
}

/// Evaluates a call's envelope and checks it: a valid communicator, the peer
/// rank in range (`MPI_ANY_SOURCE` allowed for receives), a valid tag.
/// `function` names the call in messages. `None` when the path died (reported).
pub(super) fn checked_envelope(
    ev: &mut Evaluator<'_>,
    env: &ProcEnv<'_>,
    args: EnvelopeArgs<'_>,
    usage: TagUse,
    function: &'static str,
    span: &Span,
) -> Result<Option<Envelope>, EngineError> {
    let peer = ev.eval_int(env, args.peer)?;
    let tag = ev.eval_int(env, args.tag)?;
    let Some(comm) = ArgReader::new(ev, env, span).check_comm(args.comm)? else {
        return Ok(None);
    };
    let size = comm::comm_size(env.state, comm);
    let (allow_any, what) = match usage {
        TagUse::Send => (false, "destination"),
        TagUse::Receive => (true, "source"),
    };
    check_rank(ev, env, peer, allow_any, what, span, size);
    if check_tag(ev, env, tag, usage, function, span) == PathAfterCheck::Dead {
        return Ok(None);
    }
    Ok(Some(Envelope {
        peer,
        tag,
        comm,
        size,
        usage,
        function,
    }))
}

impl ArgReader<'_, '_, '_> {
    /// The world rank a checked envelope's peer resolves to under the path
    /// condition: `Rank::Any` only for a receive. `None` when the path died (a bad
    /// rank, reported); an error when the rank depends on the inputs.
    pub(super) fn world_peer(&mut self, envelope: &Envelope) -> Result<Option<Rank>, EngineError> {
        let (ev, env, span) = self.parts();
        let (usage, function) = (envelope.usage, envelope.function);
        let f = ev.factory();
        let pc = ev.current_pc(env);
        let direction = match usage {
            TagUse::Send => "to",
            TagUse::Receive => "from",
        };
        match resolve_rank(f, ev.oracle(), pc, envelope.peer, envelope.size) {
            Some(ANY) if usage == TagUse::Receive => Ok(Some(Rank::Any)),
            Some(PROC_NULL) => Ok(Some(Rank::ProcNull)),
            Some(r) => Ok(usize::try_from(r)
                .ok()
                .and_then(|r| comm::to_world(env.state, envelope.comm, r))
                .map(Rank::Process)),
            None if holds(ev, env, f.ff()) => Ok(None),
            None => Err(EngineError::unsupported(
                format!("{function} {direction} a rank that depends on the inputs"),
                span,
            )),
        }
    }
}

impl MpiCall<'_, '_, '_> {
    /// `MPI_Irecv(buf, count, datatype, source, tag, comm, request)`: posts the
    /// receive (a progress step completes it later).
    pub(super) fn post_receive(&mut self, function: FunctionId) -> Result<(), EngineError> {
        let Some(kind) = self.receive_request()? else {
            return Ok(());
        };
        let receiving = self.posted_buffer()?;
        let call = self.call;
        let h = request::add_request(self.env, kind, (function, call.tid));
        request::keep_receiving(self.env, h, receiving);
        self.write_request(call.arg(ArgRole::Request), h)
    }

    /// The datatype and count of the call's buffer, from its `Count` and
    /// `Datatype` arguments (see [`datatypes::datatype_and_count`]).
    pub(super) fn buffer_datatype_and_count(&mut self) -> Result<(P2pType, Expr), EngineError> {
        let (ev, env, call) = self.parts();
        let (count, datatype) = (call.arg(ArgRole::Count), call.arg(ArgRole::Datatype));
        let found = datatypes::datatype_and_count(ev, env, count, datatype, call.span)?;
        datatypes::without_holes(found, call.span)
    }

    /// The request of the receive `call` (`MPI_Irecv`, `MPI_Recv_init`) posts: a
    /// pending receive, or a finished one for `MPI_PROC_NULL`; `None` when the
    /// path died (a bad rank, reported).
    pub(super) fn receive_request(&mut self) -> Result<Option<RequestKind>, EngineError> {
        let (dtype, capacity) = self.buffer_datatype_and_count()?;
        let (ev, env, call) = self.parts();
        let f = ev.factory();
        let span = call.span;
        let name = call.lf.c_name();
        let (ty, pair, datatype) = match dtype {
            P2pType::Basic(c, ty) => (ty, None, Some(c)),
            P2pType::Pair(c) => (Type::Int, Some(c), None),
        };
        let envelope_args = EnvelopeArgs::of(call, ArgRole::Source);
        let usage = TagUse::Receive;
        let Some(envelope) = checked_envelope(ev, env, envelope_args, usage, name, span)? else {
            return Ok(None);
        };
        check_count(ev, &*env, capacity, name, span);
        let source = match ArgReader::new(ev, env, span).world_peer(&envelope)? {
            None => return Ok(None), // a bad rank, reported
            Some(Rank::Any) => Some(ANY),
            Some(Rank::ProcNull) => None,
            Some(Rank::Process(w)) => Some(i64::from(w)),
        };
        let Envelope { tag, comm, .. } = envelope;
        let kind = match source {
            None => {
                let (source, tag, count) = request::proc_null_status(f);
                RequestKind::Done { source, tag, count }
            }
            Some(source) => {
                let tag = tag_value(ev, ev.current_pc(&*env), tag, span)?;
                let buffer = ev.eval(&*env, call.arg(ArgRole::Buffer))?;
                let pointee = buffer::BufArg::Expr(call.arg(ArgRole::Buffer)).scalar_pointee();
                RequestKind::Recv(request::PostedRecv {
                    buffer,
                    pointee,
                    capacity,
                    ty,
                    pair,
                    datatype,
                    source,
                    tag,
                    comm,
                })
            }
        };
        Ok(Some(kind))
    }

    /// `MPI_Probe(source, tag, comm, status)` and `MPI_Iprobe(source, tag, comm,
    /// flag, status)`: the status of the message from world rank `choice` a
    /// receive would take, without taking it.
    pub(super) fn probe(&mut self, choice: Option<u32>) -> Result<(), EngineError> {
        let (ev, env, call) = self.parts();
        let f = ev.factory();
        let span = call.span;
        let name = call.lf.c_name();
        let envelope_args = EnvelopeArgs::of(call, ArgRole::Source);
        let Some(Envelope { tag, comm, .. }) =
            checked_envelope(ev, env, envelope_args, TagUse::Receive, name, span)?
        else {
            return Ok(());
        };
        let status_arg = call.arg(ArgRole::Status);
        let found = match choice {
            Some(NO_MESSAGE) => None,
            None => Some(request::proc_null_status(f)),
            Some(s) => {
                let k = matched_message(ev, env, (s, tag, comm), "probe", span)?;
                let m = &env.state.inner.messages[k];
                let rank = comm::rank_in(env.state, comm, s).unwrap_or(s as usize);
                Some((f.int(rank as i64), m.tag, m.count))
            }
        };
        if call.lf == LF::MpiIprobe {
            let flag = call.arg(ArgRole::Flag);
            MpiCall::new(ev, env, call).write_int_through(flag, i64::from(found.is_some()))?;
        }
        if let Some(status) = found {
            let st = ev.eval(&*env, status_arg)?;
            request::write_status(ev, env, st, status, span)?;
        }
        Ok(())
    }

    /// `MPI_Sendrecv` with send and receive buffers that share an element: MPI
    /// requires them disjoint (`local-concurrency`; `MPI_Sendrecv_replace` is the
    /// call for one buffer).
    pub(super) fn check_disjoint_buffers(&mut self) -> Result<(), EngineError> {
        let (ev, env, call) = self.parts();
        let env = &*env;
        let f = ev.factory();
        let span = call.span;
        let (send, receive) = (call.send_half(), call.receive_half());
        let sc = ev.eval_int(env, send[1])?;
        let rc = ev.eval_int(env, receive[1])?;
        let mut reader = ArgReader::new(ev, env, span);
        let bytewise = reader.bytewise_datatype(send[2], send[0])?.is_some()
            || reader.bytewise_datatype(receive[2], receive[0])?.is_some();
        if bytewise {
            return struct_type::refuse_one_object(ev, env, [send[0], receive[0]], span);
        }
        // Located quietly: the send and the receive check the buffers themselves.
        let (sb, rb) = {
            let mut quiet = Evaluator::without_checks(f, ev.oracle(), env.proc);
            let sb = buffer::locate(&mut quiet, env, send[0].into(), sc, span)?;
            let rb = buffer::locate(&mut quiet, env, receive[0].into(), rc, span)?;
            (sb, rb)
        };
        let both = f.and(f.lt(f.int(0), sc), f.lt(f.int(0), rc));
        let overlap = match (sb, rb) {
            (
                buffer::Buffer::Array {
                    root: r1,
                    prefix: p1,
                    start: s1,
                    ..
                },
                buffer::Buffer::Array {
                    root: r2,
                    prefix: p2,
                    start: s2,
                    ..
                },
            ) if r1 == r2 && p1 == p2 => f.and(
                both,
                f.and(f.lt(s1, f.add(s2, rc)), f.lt(s2, f.add(s1, sc))),
            ),
            (buffer::Buffer::Scalar { place: a, .. }, buffer::Buffer::Scalar { place: b, .. })
                if a == b =>
            {
                both
            }
            _ => return Ok(()),
        };
        ev.check(
            env,
            f.not(overlap),
            Property::LocalConcurrency,
            || {
                format!(
                    "the send buffer `{}` and the receive buffer `{}` of {} overlap (MPI requires \
                 them disjoint; MPI_Sendrecv_replace takes one buffer)",
                    tass_model::api::render_expr(env.model, send[0]),
                    tass_model::api::render_expr(env.model, receive[0]),
                    call.lf.c_name()
                )
            },
            span,
        );
        Ok(())
    }
}

/// The buffered message from world rank `source` with `tag` on `comm` that
/// the step of a blocking receive or probe (`what`) takes: the step was
/// enabled for it, so its absence is an internal error.
fn matched_message(
    ev: &mut Evaluator<'_>,
    env: &ProcEnv<'_>,
    (source, tag, comm): (u32, Expr, u32),
    what: &str,
    span: &Span,
) -> Result<usize, EngineError> {
    let tag = tag_value(ev, ev.current_pc(env), tag, span)?;
    let f = ev.factory();
    blocking_match(env.state, f, source, env.proc, tag, comm).ok_or_else(|| {
        EngineError::invalid(
            format!("{what} step without a matching message"),
            Some(span),
        )
    })
}
