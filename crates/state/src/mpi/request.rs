//! Nonblocking operations: requests, their completion in the background
//! ("progress" steps), and `MPI_Wait` / `MPI_Test` and friends.
//!
//! A process's requests are kept in the order they were posted. `MPI_Isend`
//! buffers its message at once (the message names the request while it waits
//! to be received, so a zero-buffer MPI would complete the request only then).
//! `MPI_Irecv` posts a receive; a progress step of the process matches it with
//! a message whenever one is there, so every moment MPI could match it is
//! explored. MPI's ordering rule for receives holds: a message that an earlier
//! posted receive of the process also matches goes to that one first.
//! The request of a nonblocking collective stays pending until every member
//! of the communicator has posted the operation (`collective/`).

use tass_dynamic::api::{Handle, Message, Step as PStep, Value};
use tass_model::api::{FunctionId, LibraryConstant as LC, Span, TransitionId};
use tass_semantics::api::{
    Change, EngineError, Environment, Evaluator, Oracle, Place, Property, Violation,
};
use tass_symbolic::api::{Expr, ExprFactory, Type};

use super::buffer::{scalar_of, BufArg};
use super::collective::pending::{check_sent, Bound, Held, Posted, Sent};
use super::collective::DueFold;
use super::comm::rank_in;
use super::context::{tag_matches, Ctx, ANY, PROC_NULL};
use super::deliver::{deliver, deliver_pairs, Receive};
use super::receive_buffer::ReceiveBuffer;
use crate::env::{set_mpi, ProcEnv};
use crate::state::State;
use crate::step::Step;

/// A request of a nonblocking operation (`Handle::Request(handle)`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Request {
    pub handle: u32,
    pub kind: RequestKind,
    /// The call that created it (for reports and the traces of progress steps).
    pub origin: (FunctionId, TransitionId),
    /// `MPI_Request_free` was called: it completes silently.
    pub freed: bool,
    /// The data a point-to-point send (`MPI_Isend`, a started persistent
    /// send) read from its buffer: the buffer must still hold it when the
    /// request completes (MPI forbids writing a send buffer before;
    /// `local-concurrency`).
    pub sent: Option<Box<Sent>>,
    /// A persistent request (`MPI_Send_init`, `MPI_Recv_init`, ...): what each
    /// `MPI_Start` does. Completing it makes it inactive
    /// ([`RequestKind::Inactive`]) instead of removing it.
    pub persistent: Option<Box<Persistent>>,
    /// The buffer of a point-to-point receive, from its post until the wait
    /// or test that completes it (also once its message is delivered:
    /// `local-concurrency`, `receive_buffer.rs`).
    pub receiving: Option<Box<ReceiveBuffer>>,
}

/// What starting a persistent request does.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Persistent {
    /// Sends `count` elements of type `ty` from `buffer` (read at each start)
    /// to world rank `dest` (`None`: `MPI_PROC_NULL`).
    Send {
        buffer: Value,
        pointee: Option<Type>,
        count: Expr,
        ty: Type,
        /// The basic MPI datatype the elements are sent as.
        datatype: LC,
        dest: Option<u32>,
        tag: i64,
        comm: u32,
        synchronous: bool,
        /// `MPI_Bsend_init`: the bytes each started message takes in the
        /// attached buffer (its data and `MPI_BSEND_OVERHEAD`).
        buffered_bytes: Option<i64>,
    },
    /// Posts this receive (a `Done` one for `MPI_PROC_NULL`) into this buffer.
    Recv(RequestKind, Box<ReceiveBuffer>),
    /// Posts this collective (`MPI_Bcast_init`, ...) as its nonblocking form
    /// would, with the arguments bound at the init.
    Collective(Box<Bound>),
}

impl Persistent {
    fn buffer(&self) -> Option<&Value> {
        match self {
            Persistent::Send { buffer, .. } => Some(buffer),
            Persistent::Recv(RequestKind::Recv(pr), _) => Some(&pr.buffer),
            Persistent::Recv(..) | Persistent::Collective(_) => None,
        }
    }

    fn buffer_mut(&mut self) -> Option<&mut Value> {
        match self {
            Persistent::Send { buffer, .. } => Some(buffer),
            Persistent::Recv(RequestKind::Recv(pr), _) => Some(&mut pr.buffer),
            Persistent::Recv(..) | Persistent::Collective(_) => None,
        }
    }
}

impl Request {
    /// The buffer pointers a request holds (heap canonicalization follows them).
    pub(crate) fn buffers(&self) -> Vec<&Value> {
        let mut out: Vec<&Value> = match &self.kind {
            RequestKind::Recv(pr) => vec![&pr.buffer],
            RequestKind::Collective {
                delivery,
                sent,
                fold,
            } => delivery
                .iter()
                .map(Held::pointer)
                .chain(sent.iter().map(|s| s.pointer()))
                .chain(fold.iter().map(|d| &d.inout))
                .collect(),
            RequestKind::Posted(p) => p.pointers(),
            _ => Vec::new(),
        };
        match self.persistent.as_deref() {
            Some(Persistent::Recv(_, b)) => out.push(&b.pointer),
            Some(Persistent::Collective(b)) => out.extend(b.pointers()),
            _ => {}
        }
        out.extend(self.persistent.as_ref().and_then(|p| p.buffer()));
        out.extend(self.sent.as_ref().map(|s| s.pointer()));
        out.extend(self.receiving.as_ref().map(|b| &b.pointer));
        out
    }

    pub(crate) fn buffers_mut(&mut self) -> Vec<&mut Value> {
        let mut out: Vec<&mut Value> = match &mut self.kind {
            RequestKind::Recv(pr) => vec![&mut pr.buffer],
            RequestKind::Collective {
                delivery,
                sent,
                fold,
            } => delivery
                .iter_mut()
                .map(Held::pointer_mut)
                .chain(sent.iter_mut().map(|s| s.pointer_mut()))
                .chain(fold.iter_mut().map(|d| &mut d.inout))
                .collect(),
            RequestKind::Posted(p) => p.pointers_mut(),
            _ => Vec::new(),
        };
        match self.persistent.as_deref_mut() {
            Some(Persistent::Recv(kind, b)) => {
                if let RequestKind::Recv(pr) = kind {
                    out.push(&mut pr.buffer);
                }
                out.push(&mut b.pointer);
            }
            Some(Persistent::Collective(b)) => out.extend(b.pointers_mut()),
            Some(p) => out.extend(p.buffer_mut()),
            None => {}
        }
        out.extend(self.sent.as_mut().map(|s| s.pointer_mut()));
        out.extend(self.receiving.as_mut().map(|b| &mut b.pointer));
        out
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum RequestKind {
    /// `MPI_Isend`: the message is buffered. A synchronous send (`MPI_Issend`)
    /// completes only once its message has been received.
    Send { synchronous: bool },
    /// `MPI_Irecv`, not matched yet.
    Recv(PostedRecv),
    /// Finished (a matched receive, a nonblocking collective with nothing to
    /// deliver): its status.
    Done {
        source: Expr,
        tag: Expr,
        count: Expr,
    },
    /// A nonblocking collective every member has posted, whose data reaches
    /// the receive buffers at the wait (until then they read as undefined).
    Collective {
        delivery: Vec<Delivery>,
        /// The send data to check is unchanged at the wait.
        sent: Option<Box<Sent>>,
        /// A reduction with a user operator: the function's calls the wait runs.
        fold: Option<Box<DueFold>>,
    },
    /// A nonblocking collective some member of the communicator has not posted
    /// yet: it cannot complete.
    Posted(Box<Posted>),
    /// A persistent request not started (or completed since it was started).
    Inactive,
    /// `MPI_Rput`, `MPI_Rget`: complete at the origin once waited for (the
    /// operation stays in its window's epoch, `rma/`).
    Rma,
}

/// What the wait of a nonblocking collective writes into one receive buffer:
/// the elements held back since the post, with the results.
pub(crate) type Delivery = Held;

/// A posted receive: where the data goes and what it matches.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct PostedRecv {
    pub buffer: Value,
    pub pointee: Option<Type>,
    pub capacity: Expr,
    pub ty: Type,
    /// A pair datatype (`MPI_DOUBLE_INT`, `MPI_2INT`) instead of `ty`.
    pub pair: Option<LC>,
    /// The basic datatype of the receive (`None` with `pair`).
    pub datatype: Option<LC>,
    /// World rank of the source, or `ANY`.
    pub source: i64,
    pub tag: i64,
    pub comm: u32,
}

impl PostedRecv {
    fn matches(&self, m: &Message, me: u32, f: &ExprFactory) -> bool {
        m.dest == me
            && m.comm == self.comm
            && (self.source == ANY || m.source as i64 == self.source)
            && tag_matches(self.tag, &m.tag, f)
    }
}

/// What a send of `count` elements `data` from the buffer at `pointer` read,
/// for the check at its completion.
pub(super) fn sent_of(
    f: &ExprFactory,
    call: &super::context::Call<'_>,
    pointer: Value,
    (data, count): (Expr, Expr),
) -> Sent {
    let pointee = super::buffer::BufArg::Expr(call.arg(tass_model::api::mpi::ArgRole::Buffer))
        .scalar_pointee();
    Sent {
        lf: call.lf,
        line: call.span.start_line,
        pointer,
        pointee,
        ty: scalar_of(&f.type_of(data)),
        pieces: vec![(f.int(0), count, data)],
    }
}

/// Records the data a send of request `handle` of the process read from its
/// buffer (see [`Request::sent`]).
pub(super) fn keep_sent(env: &mut ProcEnv<'_>, handle: u32, sent: Sent) {
    set_mpi(env, |m| {
        if let Some(r) = m.requests.iter_mut().find(|r| r.handle == handle) {
            r.sent = Some(Box::new(sent));
        }
    });
}

/// Records the buffer a receive of request `handle` of the process owns until
/// it completes (see [`Request::receiving`]).
pub(super) fn keep_receiving(env: &mut ProcEnv<'_>, handle: u32, buffer: ReceiveBuffer) {
    set_mpi(env, |m| {
        if let Some(r) = m.requests.iter_mut().find(|r| r.handle == handle) {
            r.receiving = Some(Box::new(buffer));
        }
    });
}

/// Keeps the `index`-th request of the process, a receive freed while
/// active whose message has been delivered, for its buffer (which the
/// program may never access again), unless another such request keeps the
/// same buffer already; removes it otherwise.
fn keep_freed_receive(env: &mut ProcEnv<'_>, index: usize) {
    let requests = &env.state.inner.procs[env.proc].mpi.requests;
    let kept = requests[index].receiving.as_deref().is_some_and(|b| {
        !requests.iter().enumerate().any(|(k, r)| {
            k != index
                && r.freed
                && !matches!(r.kind, RequestKind::Recv(_))
                && r.receiving.as_deref().is_some_and(|o| o.same_extent(b))
        })
    });
    if !kept {
        remove_request(env, index);
    }
}

/// Adds a request to process `p` (the lowest handle number not in use).
pub(super) fn add_request(
    env: &mut ProcEnv<'_>,
    kind: RequestKind,
    origin: (FunctionId, TransitionId),
) -> u32 {
    add_request_of(env, kind, origin, None)
}

/// [`add_request`] of a request that may be persistent.
pub(super) fn add_request_of(
    env: &mut ProcEnv<'_>,
    kind: RequestKind,
    origin: (FunctionId, TransitionId),
    persistent: Option<Box<Persistent>>,
) -> u32 {
    let p = env.proc;
    let used: Vec<u32> = env.state.inner.procs[p]
        .mpi
        .requests
        .iter()
        .map(|r| r.handle)
        .collect();
    let handle = (0..).find(|h| !used.contains(h)).unwrap_or(0);
    set_mpi(env, |m| {
        m.requests.push(Request {
            handle,
            kind,
            origin,
            freed: false,
            persistent,
            sent: None,
            receiving: None,
        })
    });
    handle
}

/// True if message `m` is matched by a pending receive request of process `p`
/// among its first `before` requests (so a later receive may not take it).
pub(super) fn claimed(
    state: &State,
    f: &ExprFactory,
    p: usize,
    m: &Message,
    before: usize,
) -> bool {
    state.inner.procs[p].mpi.requests[..before.min(state.inner.procs[p].mpi.requests.len())]
        .iter()
        .any(|r| matches!(&r.kind, RequestKind::Recv(pr) if pr.matches(m, p as u32, f)))
}

/// Index of the message pending receive `pr` of process `p` (its `index`-th
/// request) would take from `source` now, if any.
fn match_for(
    state: &State,
    f: &ExprFactory,
    p: usize,
    index: usize,
    pr: &PostedRecv,
    source: u32,
) -> Option<usize> {
    let msgs = &state.inner.messages;
    let k = msgs
        .iter()
        .position(|m| m.source == source && pr.matches(m, p as u32, f))?;
    (!claimed(state, f, p, &msgs[k], index)).then_some(k)
}

/// True if a posted receive of process `p` matches a message from `source`
/// (world rank) with `tag` on `comm` and has no message to take already, so it
/// is free to take that one (for zero-buffer reasoning about sends).
pub(super) fn posted_receive_matches(
    state: &State,
    f: &ExprFactory,
    p: usize,
    source: u32,
    tag: Option<i64>,
    comm: u32,
) -> bool {
    posted_receives(state, p).any(|pr| {
        pr.comm == comm
            && (pr.source == ANY || pr.source == source as i64)
            && (pr.tag == ANY || Some(pr.tag) == tag)
            && !state
                .inner
                .messages
                .iter()
                .any(|m| pr.matches(m, p as u32, f))
    })
}

/// The receives process `p` has posted and that are not matched yet, in
/// the order they were posted.
pub(super) fn posted_receives(state: &State, p: usize) -> impl Iterator<Item = &PostedRecv> {
    let requests = state.inner.procs[p].mpi.requests.iter();
    requests.filter_map(|r| match &r.kind {
        RequestKind::Recv(pr) => Some(pr),
        _ => None,
    })
}

/// True if every pending receive request of process `p` has a fixed source
/// and a message to take now (so no other process can add a progress step of
/// `p`: messages from that source are appended behind the one it takes).
pub(super) fn receives_settled(state: &State, f: &ExprFactory, p: usize) -> bool {
    let requests = &state.inner.procs[p].mpi.requests;
    requests.iter().enumerate().all(|(index, r)| match &r.kind {
        RequestKind::Recv(pr) => {
            pr.source != ANY && match_for(state, f, p, index, pr, pr.source as u32).is_some()
        }
        _ => true,
    })
}

/// True if some request of process `p` can be completed by another process:
/// a nonblocking collective not every member has posted, or an `MPI_Issend`
/// whose message has not been received.
pub(super) fn completed_by_others(state: &State, p: usize) -> bool {
    state.inner.procs[p]
        .mpi
        .requests
        .iter()
        .any(|r| match &r.kind {
            RequestKind::Posted(_) => true,
            RequestKind::Send { synchronous: true } => state
                .inner
                .messages
                .iter()
                .any(|m| m.source == p as u32 && m.request == Some(r.handle)),
            _ => false,
        })
}

/// Progress steps of process `p`: each pending receive request that can take a
/// message now, once per sender it can take one from.
pub(crate) fn push_progress_steps(state: &State, f: &ExprFactory, p: usize, steps: &mut Vec<Step>) {
    let requests = &state.inner.procs[p].mpi.requests;
    for (index, r) in requests.iter().enumerate() {
        let RequestKind::Recv(pr) = &r.kind else {
            continue;
        };
        let sources: Vec<u32> = if pr.source == ANY {
            let mut s: Vec<u32> = state
                .inner
                .messages
                .iter()
                .filter(|m| pr.matches(m, p as u32, f))
                .map(|m| m.source)
                .collect();
            s.dedup();
            s
        } else {
            vec![pr.source as u32]
        };
        for s in sources {
            if match_for(state, f, p, index, pr, s).is_some() {
                steps.push(Step {
                    process: p,
                    function: r.origin.0,
                    transition: r.origin.1,
                    guard: f.tt(),
                    guard_known_true: true,
                    local: false,
                    choice: Some(s),
                    commutes: pr.source != ANY,
                    buffered_send: false,
                    request: Some(r.handle),
                    settled: false,
                    delivered_to: None,
                });
            }
        }
    }
}

/// Executes a progress step: the pending receive takes its message.
pub(super) fn execute_progress(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &mut State,
    step: &Step,
) -> Result<(Vec<Violation>, Vec<Change>), EngineError> {
    let f = ctx.f;
    let p = step.process;
    let (Some(handle), Some(source)) = (step.request, step.choice) else {
        return Err(EngineError::invalid(
            "progress step without a request",
            None,
        ));
    };
    let requests = &state.inner.procs[p].mpi.requests;
    let Some(index) = requests.iter().position(|r| r.handle == handle) else {
        return Err(EngineError::invalid(
            "progress step of an unknown request",
            None,
        ));
    };
    let RequestKind::Recv(pr) = requests[index].kind.clone() else {
        return Err(EngineError::invalid(
            "progress step of a request that is not a receive",
            None,
        ));
    };
    let origin = requests[index].origin;
    let span = ctx
        .model
        .function(origin.0)
        .body
        .as_ref()
        .map(|b| b.transition(origin.1).span.clone())
        .unwrap_or_else(|| ctx.model.function(origin.0).span.clone());
    let Some(k) = match_for(state, f, p, index, &pr, source) else {
        return Err(EngineError::invalid(
            "progress step without a matching message",
            Some(&span),
        ));
    };
    let mut env = ctx.env(state, p);
    let mut ev = Evaluator::checking(f, oracle, p);
    let Some(msg) = env.dequeue(k) else {
        return Err(EngineError::invalid("message vanished", Some(&span)));
    };
    let buffer = BufArg::Stored(&pr.buffer, pr.pointee.as_ref());
    match pr.pair {
        Some(c) => deliver_pairs(&mut ev, &mut env, &msg, buffer, pr.capacity, c, &span)?,
        None => {
            let into = Receive {
                buffer,
                capacity: pr.capacity,
                ty: &pr.ty,
                datatype: pr.datatype,
            };
            deliver(&mut ev, &mut env, &msg, into, &span)?
        }
    }
    let comm_source = rank_in(env.state, pr.comm, msg.source).unwrap_or(msg.source as usize);
    let freed = env.state.inner.procs[p].mpi.requests[index].freed;
    set_mpi(&mut env, |m| {
        m.requests[index].kind = RequestKind::Done {
            source: f.int(comm_source as i64),
            tag: msg.tag,
            count: msg.count,
        };
    });
    if freed {
        keep_freed_receive(&mut env, index);
    }
    let pc = ev.current_pc(&env);
    env.set_path_condition(pc);
    Ok((ev.violations, Vec::new()))
}

/// Writes `MPI_SOURCE`, `MPI_TAG`, `MPI_ERROR` and the element count into the
/// status `status` points to (nothing for `MPI_STATUS_IGNORE`).
pub(super) fn write_status(
    ev: &mut Evaluator<'_>,
    env: &mut dyn Environment,
    status: Value,
    (source, tag, count): (Expr, Expr, Expr),
    span: &Span,
) -> Result<(), EngineError> {
    let f = ev.factory();
    if !matches!(status, Value::Pointer(ref p) if !p.is_null()) {
        return Ok(());
    }
    let (root, path) = ev.deref_place(&*env, status, false, span, &|| "status".into())?;
    for (k, v) in [(0u32, source), (1, tag), (2, f.int(0)), (3, count)] {
        let mut p = path.clone();
        p.push(PStep::Field(k));
        ev.write_place(env, &(root, p), Value::Data(v), span)?;
    }
    Ok(())
}

/// The status of an empty or `MPI_REQUEST_NULL` completion.
pub(super) fn empty_status(f: &ExprFactory) -> (Expr, Expr, Expr) {
    (f.int(ANY), f.int(ANY), f.int(0))
}

/// What completing the request stored at a place would do.
#[derive(Clone, Debug)]
pub(super) enum Completion {
    /// `MPI_REQUEST_NULL`: nothing (an empty status).
    Null,
    /// The request can complete now (its index among the process's requests);
    /// `by_buffering`: an `MPI_Isend` whose message has not been received yet.
    Ready { index: usize, by_buffering: bool },
    /// A receive not matched yet.
    Pending,
    /// Not an active request (uninitialised, completed or freed before).
    Invalid(String),
}

/// Whether a test (`MPI_Test`, `MPI_Testall`) of requests in these states,
/// which could all complete now, may still report flag 0. MPI only promises
/// that a test repeated while its operation can complete eventually reports
/// it (MPI 4.0, 3.7.4, Progress): any one call may come before the
/// completion, whether the send was matched or buffered (a zero-buffer run
/// finds an unreceived `MPI_Isend` incomplete; so does Open MPI's TCP
/// transport, which buffers, before its connection is up). A test that finds
/// a request pending, an invalid one (reported when executed) or only null
/// requests has one outcome.
pub(super) fn test_may_find_incomplete(states: &[Completion]) -> bool {
    states.iter().any(|c| matches!(c, Completion::Ready { .. }))
        && !states
            .iter()
            .any(|c| matches!(c, Completion::Pending | Completion::Invalid(_)))
}

/// The step of test `base` that reports flag 0 (`no_message` is the choice
/// that makes executing it find nothing): it changes only the flag, so it
/// commutes with the other processes' steps.
pub(super) fn failed_test(base: &Step, no_message: u32) -> Step {
    Step {
        choice: Some(no_message),
        commutes: true,
        buffered_send: false,
        ..base.clone()
    }
}

/// What completing request value `v` of process `p` would do.
pub(super) fn completion(state: &State, p: usize, v: &Value) -> Completion {
    match v {
        Value::Handle(Handle::Constant(LC::MpiRequestNull)) => Completion::Null,
        Value::Handle(Handle::Request(h)) => {
            let requests = &state.inner.procs[p].mpi.requests;
            match requests.iter().position(|r| r.handle == *h && !r.freed) {
                Some(index) => match &requests[index].kind {
                    RequestKind::Recv(_) | RequestKind::Posted(_) => Completion::Pending,
                    RequestKind::Send { synchronous } => {
                        let queued = state
                            .inner
                            .messages
                            .iter()
                            .any(|m| m.source == p as u32 && m.request == Some(*h));
                        if queued && *synchronous {
                            Completion::Pending
                        } else {
                            Completion::Ready {
                                index,
                                by_buffering: queued,
                            }
                        }
                    }
                    RequestKind::Done { .. }
                    | RequestKind::Collective { .. }
                    | RequestKind::Rma => Completion::Ready {
                        index,
                        by_buffering: false,
                    },
                    // MPI: a wait or test of an inactive persistent request
                    // returns at once with an empty status, as for a null one.
                    RequestKind::Inactive => Completion::Null,
                },
                None => Completion::Invalid(
                    "a request that is not active (already completed or freed)".into(),
                ),
            }
        }
        Value::Undefined => Completion::Invalid("an uninitialised request".into()),
        other => Completion::Invalid(format!("{other:?}, which is not a request")),
    }
}

/// What completing requests leaves for after a wait's or test's own work:
/// the folds of nonblocking reductions with a user operator (pushed once the
/// call has returned), and the request-based RMA requests whose operations
/// the completion performs, which needs the whole engine
/// (`Mpi::complete_rma_requests`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Due {
    pub folds: Vec<DueFold>,
    pub rma: Vec<u32>,
}

/// Completes the request at `place` (whose value is `v`): removes it, writes its
/// status into `status` and `MPI_REQUEST_NULL` into the place. An invalid
/// request is reported (`invalid-pointer`). What the completion still owes
/// goes to `due`.
pub(super) fn complete(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    (place, v): (&Place, &Value),
    status: Value,
    (call_name, span): (&str, &Span),
    due: &mut Due,
) -> Result<(), EngineError> {
    let f = ev.factory();
    let p = env.proc;
    let st = match completion(env.state, p, v) {
        Completion::Null => empty_status(f),
        Completion::Invalid(what) => {
            ev.fail(
                &*env,
                Property::InvalidPointer,
                format!("{call_name} on {what}"),
                span,
            );
            return Ok(());
        }
        Completion::Pending => {
            return Err(EngineError::invalid(
                format!("{call_name} completing a request that cannot complete yet"),
                Some(span),
            ))
        }
        Completion::Ready { index, .. } => {
            let r = env.state.inner.procs[p].mpi.requests[index].clone();
            if let Some(sent) = &r.sent {
                let when = (call_name, Property::LocalConcurrency);
                check_sent(ev, env, sent, when, span)?;
            }
            if r.kind == RequestKind::Rma {
                due.rma.push(r.handle);
            }
            if r.persistent.is_some() {
                deactivate(env, index);
            } else {
                remove_request(env, index);
            }
            match r.kind {
                RequestKind::Done { source, tag, count } => (source, tag, count),
                RequestKind::Collective {
                    delivery,
                    sent,
                    fold,
                } => {
                    if let Some(sent) = &sent {
                        check_sent(ev, env, sent, (call_name, Property::InvalidPointer), span)?;
                    }
                    deliver_collective(ev, env, &delivery, call_name, span)?;
                    due.folds.extend(fold.map(|d| *d));
                    empty_status(f)
                }
                _ => empty_status(f),
            }
        }
    };
    write_status(ev, env, status, st, span)?;
    if persistent_index(env.state, p, v).is_some() {
        return Ok(()); // the program keeps its (now inactive) request
    }
    ev.write_place(
        env,
        place,
        Value::Handle(Handle::Constant(LC::MpiRequestNull)),
        span,
    )
}

/// The requests of process `p` (with their indices) that handle value `v`
/// names: none when `v` is no request handle.
pub(super) fn requests_named<'s>(
    state: &'s State,
    p: usize,
    v: &Value,
) -> impl Iterator<Item = (usize, &'s Request)> {
    let handle = match v {
        Value::Handle(Handle::Request(h)) => Some(*h),
        _ => None,
    };
    let requests = &state.inner.procs[p].mpi.requests;
    requests
        .iter()
        .enumerate()
        .filter(move |(_, r)| Some(r.handle) == handle)
}

/// The index of the persistent request (not freed) that `v` names, if it names one.
pub(super) fn persistent_index(state: &State, p: usize, v: &Value) -> Option<usize> {
    requests_named(state, p, v)
        .find(|(_, r)| !r.freed && r.persistent.is_some())
        .map(|(index, _)| index)
}

/// Makes the `index`-th request of the process (a persistent one) inactive;
/// an `MPI_Start`ed send's message no longer names it.
fn deactivate(env: &mut ProcEnv<'_>, index: usize) {
    untag_messages(env, index);
    set_mpi(env, |m| {
        m.requests[index].kind = RequestKind::Inactive;
        m.requests[index].sent = None;
        m.requests[index].receiving = None;
    });
}

/// Puts the final data of a nonblocking collective into its receive buffers.
/// A held element the program wrote meanwhile is an error MPI forbids; tass
/// stops with an unsupported-construct error rather than guess.
fn deliver_collective(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    delivery: &[Delivery],
    call_name: &str,
    span: &Span,
) -> Result<(), EngineError> {
    for held in delivery {
        if !held.intact(ev, env, span)? {
            return Err(EngineError::unsupported(
                format!(
                    "a receive buffer written between a nonblocking collective and its \
                     {call_name} (MPI forbids it; tass holds the elements the operation owns, \
                     or the whole array when their number is not known, until the wait)"
                ),
                span,
            ));
        }
        held.release(ev, env, span)?;
    }
    Ok(())
}

/// Removes the `index`-th request of the process; an `MPI_Isend`'s message no
/// longer names it.
pub(super) fn remove_request(env: &mut ProcEnv<'_>, index: usize) {
    untag_messages(env, index);
    set_mpi(env, |m| {
        m.requests.remove(index);
    });
}

/// The messages of the `index`-th request of the process no longer name it.
fn untag_messages(env: &mut ProcEnv<'_>, index: usize) {
    let p = env.proc;
    let handle = env.state.inner.procs[p].mpi.requests[index].handle;
    let tagged = env
        .state
        .inner
        .messages
        .iter()
        .any(|m| m.source == p as u32 && m.request == Some(handle));
    if tagged {
        let s = env.state.inner_mut();
        for m in std::sync::Arc::make_mut(&mut s.messages).iter_mut() {
            if m.source == p as u32 && m.request == Some(handle) {
                m.request = None;
            }
        }
    }
}

/// `MPI_Request_free` on the request at `place` (value `v`).
pub(super) fn free_request(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    place: &Place,
    v: &Value,
    span: &Span,
) -> Result<(), EngineError> {
    let p = env.proc;
    if let Value::Handle(Handle::Request(h)) = v {
        let rma = env.state.inner.procs[p]
            .mpi
            .requests
            .iter()
            .any(|r| r.handle == *h && !r.freed && r.kind == RequestKind::Rma);
        if rma {
            ev.fail(
                &*env,
                Property::InvalidPointer,
                "MPI_Request_free on the request of an RMA operation (MPI_Rput, MPI_Rget: \
                 MPI makes that erroneous; complete it with MPI_Wait or MPI_Test)"
                    .into(),
                span,
            );
            return Ok(());
        }
        let collective = env.state.inner.procs[p].mpi.requests.iter().any(|r| {
            r.handle == *h
                && !r.freed
                && matches!(
                    r.kind,
                    RequestKind::Posted(_) | RequestKind::Collective { .. }
                )
        });
        if collective {
            ev.fail(
                &*env,
                Property::InvalidPointer,
                "MPI_Request_free on the request of an active nonblocking or started \
                 persistent collective (MPI makes that erroneous: complete it with MPI_Wait \
                 or MPI_Test)"
                    .into(),
                span,
            );
            return Ok(());
        }
    }
    let inactive = persistent_index(env.state, p, v)
        .filter(|&k| env.state.inner.procs[p].mpi.requests[k].kind == RequestKind::Inactive);
    if let Some(index) = inactive {
        remove_request(env, index);
        return ev.write_place(
            env,
            place,
            Value::Handle(Handle::Constant(LC::MpiRequestNull)),
            span,
        );
    }
    let line = span.start_line;
    let mark_freed = |env: &mut ProcEnv<'_>, index: usize| {
        set_mpi(env, |m| {
            let r = &mut m.requests[index];
            r.freed = true;
            if let Some(b) = r.receiving.as_mut() {
                b.freed_at = Some(line);
            }
        })
    };
    match completion(env.state, p, v) {
        Completion::Ready { index, .. } => {
            mark_freed(env, index);
            keep_freed_receive(env, index);
        }
        Completion::Pending => {
            let Value::Handle(Handle::Request(h)) = v else {
                return Ok(());
            };
            let h = *h;
            let requests = &env.state.inner.procs[p].mpi.requests;
            if let Some(index) = requests.iter().position(|r| r.handle == h && !r.freed) {
                mark_freed(env, index);
            }
        }
        Completion::Null => ev.fail(
            &*env,
            Property::InvalidPointer,
            "MPI_Request_free on MPI_REQUEST_NULL".into(),
            span,
        ),
        Completion::Invalid(what) => {
            ev.fail(
                &*env,
                Property::InvalidPointer,
                format!("MPI_Request_free on {what}"),
                span,
            );
            return Ok(());
        }
    }
    ev.write_place(
        env,
        place,
        Value::Handle(Handle::Constant(LC::MpiRequestNull)),
        span,
    )
}

/// The places of `count` consecutive requests starting at pointer `array`.
pub(super) fn request_places(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    array: Value,
    count: usize,
    span: &Span,
) -> Result<Vec<Place>, EngineError> {
    let f = ev.factory();
    let mut out = Vec::with_capacity(count);
    for k in 0..count {
        let ptr = ev.pointer_add(env, array.clone(), f.int(k as i64), span)?;
        out.push(ev.deref_place(env, ptr, false, span, &|| "request array".into())?);
    }
    Ok(out)
}

/// The place of element `k` of the status array `statuses` (`None` for
/// `MPI_STATUSES_IGNORE`).
pub(super) fn status_at(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    statuses: &Value,
    k: usize,
    span: &Span,
) -> Result<Value, EngineError> {
    if !matches!(statuses, Value::Pointer(p) if !p.is_null()) {
        return Ok(statuses.clone());
    }
    let f = ev.factory();
    ev.pointer_add(env, statuses.clone(), f.int(k as i64), span)
}

/// Why a request left at the end of a run is an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Leak {
    /// A nonblocking operation never completed nor freed (`memory-leak`).
    Request,
    /// A persistent request never freed (`resource-leak`).
    Persistent,
    /// A receive freed with `MPI_Request_free` that never took a message: its
    /// operation never completed (`memory-leak`).
    FreedPending,
}

/// Requests left when a process ends: `(process, origin, why)` of each.
/// `finalized` are the freed receives that take a message as their process
/// finalizes ([`taken_at_finalize`]).
pub(super) fn leaked(
    state: &State,
    finalized: &[(usize, u32)],
) -> Vec<(usize, (FunctionId, TransitionId), Leak)> {
    let mut out = Vec::new();
    for (p, ps) in state.inner.procs.iter().enumerate() {
        for r in &ps.mpi.requests {
            let leak = match (r.freed, &r.persistent, &r.kind) {
                (false, Some(_), _) => Leak::Persistent,
                (false, None, _) => Leak::Request,
                (true, _, RequestKind::Recv(_)) if finalized.contains(&(p, r.handle)) => continue,
                (true, _, RequestKind::Recv(_)) => Leak::FreedPending,
                (true, ..) => continue,
            };
            out.push((p, r.origin, leak));
        }
    }
    out
}

/// The receives freed while active that are still pending at the end of the
/// run but have a matching message (`(process, handle)` of each) and the
/// indices of the messages they take: MPI completes such a receive on its
/// own, at the latest in `MPI_Finalize`, so neither the receive nor its
/// message is left over. Receives take the first message they match, in the
/// order they were posted.
pub(super) fn taken_at_finalize(state: &State, f: &ExprFactory) -> (Vec<(usize, u32)>, Vec<usize>) {
    let mut receives = Vec::new();
    let mut taken: Vec<usize> = Vec::new();
    for (p, ps) in state.inner.procs.iter().enumerate() {
        for r in ps.mpi.requests.iter().filter(|r| r.freed) {
            let RequestKind::Recv(pr) = &r.kind else {
                continue;
            };
            let first = state
                .inner
                .messages
                .iter()
                .enumerate()
                .position(|(k, m)| !taken.contains(&k) && pr.matches(m, p as u32, f));
            if let Some(k) = first {
                taken.push(k);
                receives.push((p, r.handle));
            }
        }
    }
    (receives, taken)
}

/// A value the source rank of an `MPI_PROC_NULL` receive completes with.
pub(super) fn proc_null_status(f: &ExprFactory) -> (Expr, Expr, Expr) {
    (f.int(PROC_NULL), f.int(ANY), f.int(0))
}
