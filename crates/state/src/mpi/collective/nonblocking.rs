//! Nonblocking collectives: posting a part, and performing the operation
//! once every member has posted it.

use crate::mpi::buffer::{Elements, Reader};
use tass_dynamic::api::{Pointer, Step as PStep, Value};
use tass_model::api::mpi::ArgRole;
use tass_model::api::{FunctionId, LibraryConstant as LC, Model, TransitionId};
use tass_semantics::api::{Change, EngineError, Evaluator, Property, Violation};
use tass_symbolic::api::{Expr, Type};

use super::data::Op;
use super::data::{concrete_small, write_data, DType, Data};
use super::kind::{positions, shape, Kind};
use super::members::{agrees, path_dead, recv_args, resolve_root, send_pieces, Member};
use super::pending::{
    check_sent, owned_elements, span_of, Bound, MemberCall, Posted, Sent, Target,
};
use super::transfer::Transfer;
use super::user_reduce::DueFold;
use crate::env::{set_mpi, ProcEnv};
use crate::mpi::buffer::{check_rank, BufArg};
use crate::mpi::comm;
use crate::mpi::context::{Mpi, MpiCall, ProcessCall, ANY};
use crate::mpi::request::{add_request, remove_request, RequestKind};
use crate::state::State;

/// True if process `q` has posted a nonblocking collective on `comm` that not
/// every member has posted yet (started persistent collectives aside: they
/// were matched at their inits and do not take part in the order of the
/// others).
pub(crate) fn has_post(state: &State, q: usize, comm: u32) -> bool {
    state.inner.procs[q]
        .mpi
        .requests
        .iter()
        .any(|r| Which::Next.selects(&r.kind, comm))
}

/// Which posted collective of each member a match takes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Which {
    /// The first nonblocking collective posted on the communicator.
    Next,
    /// The started persistent collective with this init ordinal (MPI matches
    /// persistent collectives at their inits, in the order of the inits).
    Persistent(u32),
}

impl Which {
    fn selects(self, kind: &RequestKind, comm: u32) -> bool {
        match kind {
            RequestKind::Posted(p) if p.call.comm == comm => match self {
                Which::Next => p.call.init_ordinal.is_none(),
                Which::Persistent(k) => p.call.init_ordinal == Some(k),
            },
            _ => false,
        }
    }
}

impl ProcessCall<'_> {
    /// A nonblocking collective call of the process: it posts its part and
    /// moves on. The arguments significant at the process are evaluated and
    /// its send data read now; the objects holding its receive buffers read as
    /// undefined until the wait. When every member has posted the operation,
    /// it is performed ([`Mpi::match_posts`]).
    pub(crate) fn post(mut self) -> Result<(Vec<Violation>, Vec<Change>), EngineError> {
        let call = self.call;
        let Some((kind, true)) = shape(call.lf) else {
            return Err(EngineError::invalid(
                "post of a call that is not a nonblocking collective",
                Some(call.span),
            ));
        };
        let function = self.state.inner.procs[self.p]
            .stack
            .last()
            .map(|fr| fr.function)
            .ok_or_else(|| EngineError::invalid("collective post without a frame", None))?;
        let posted = self.as_process(|ev, env| MpiCall::new(ev, env, call).post_part(kind))?;
        let Some(posted) = posted else {
            return Ok((self.violations, Vec::new()));
        };
        if path_dead(&self.mpi.ctx, self.state) {
            return Ok((self.violations, Vec::new()));
        }
        let comm = posted.call.comm;
        self.as_process(|ev, env| {
            let kind_of = RequestKind::Posted(Box::new(posted));
            let h = add_request(env, kind_of, (function, call.tid));
            let mut returning = MpiCall::new(ev, env, call);
            returning.write_request(call.arg(ArgRole::Request), h)?;
            returning.return_success()
        })?;
        let state = &mut *self.state;
        if comm::members(state, comm)
            .iter()
            .all(|&q| has_post(state, q as usize, comm))
        {
            let next = (comm, Which::Next);
            self.mpi.match_posts(state, next, &mut self.violations)?;
        }
        Ok((self.violations, Vec::new()))
    }
}

impl MpiCall<'_, '_, '_> {
    /// The part of a nonblocking collective process `env.proc` posts (`None`: the
    /// path died on a reported error).
    pub(super) fn post_part(&mut self, kind: Kind) -> Result<Option<Posted>, EngineError> {
        let Some(bound) = self.bind(kind)? else {
            return Ok(None);
        };
        self.post_bound(&bound)
    }

    /// Evaluates the arguments of collective call `self.call` of kind `kind`
    /// significant at its process (`None`: the path died on a reported error).
    pub(crate) fn bind(&mut self, kind: Kind) -> Result<Option<Bound>, EngineError> {
        let call = self.call;
        let f = self.ev.factory();
        let dead = |ev: &mut Evaluator<'_>, env: &ProcEnv<'_>| {
            f.as_bool(ev.current_pc(env)) == Some(false)
        };
        let Some(comm) = self.collective_comm()? else {
            return Ok(None);
        };
        let n = comm::comm_size(self.env.state, comm);
        let rank = comm::rank_in(self.env.state, comm, self.env.proc as u32).ok_or_else(|| {
            EngineError::invalid(
                "collective on a communicator the process is not in",
                Some(call.span),
            )
        })?;
        let pos = positions(kind);
        let (root, op) = self.root_and_op(kind)?;
        if dead(self.ev, self.env) {
            return Ok(None); // MPI_OP_NULL, reported
        }
        let mut is_root = false;
        if let Some(r) = root {
            check_rank(self.ev, &*self.env, r, false, "root", call.span, n);
            if dead(self.ev, self.env) {
                return Ok(None);
            }
            match resolve_root(self.ev, &*self.env, r, n) {
                Some(v) => is_root = v == rank as i64,
                None => {
                    return Err(EngineError::unsupported(
                        format!(
                            "{} with a root that depends on the inputs",
                            call.lf.c_name()
                        ),
                        call.span,
                    ))
                }
            }
        }
        let Some(args) = self.significant_args(kind, n, (rank, is_root))? else {
            return Ok(None);
        };
        let (ev, env, _) = self.parts();
        if dead(ev, env) {
            return Ok(None);
        }
        let send = match pos.sbuf {
            Some(sbuf) => {
                let pointer = ev.eval(&*env, &call.args[sbuf])?;
                Some((pointer, BufArg::Expr(&call.args[sbuf]).scalar_pointee()))
            }
            None => None,
        };
        let mut receive = Vec::new();
        for (arg, optional) in recv_args(kind, is_root, rank) {
            let pointer = ev.eval(&*env, &call.args[arg])?;
            if optional && matches!(pointer, Value::Pointer(ref q) if q.is_null()) {
                continue;
            }
            let pointee = BufArg::Expr(&call.args[arg]).scalar_pointee();
            receive.push((arg, pointer, pointee));
        }
        Ok(Some(Bound {
            call: MemberCall {
                comm,
                lf: call.lf,
                root,
                op,
                args,
                init_ordinal: None,
            },
            kind,
            rank,
            size: n,
            is_root,
            send,
            receive,
        }))
    }
}

impl MpiCall<'_, '_, '_> {
    /// The part a process posts of the collective `bound` describes: its send
    /// data read now, the elements of its receive buffers the operation writes
    /// held back until the wait (`None`: the path died on a reported error).
    pub(crate) fn post_bound(&mut self, bound: &Bound) -> Result<Option<Posted>, EngineError> {
        let (ev, env, call) = self.parts();
        let span = call.span;
        let f = ev.factory();
        let (kind, n, rank, is_root) = (bound.kind, bound.size, bound.rank, bound.is_root);
        let args = &bound.call.args;
        let mut pieces = Vec::new();
        if let Some((pointer, pointee)) = &bound.send {
            let dt = args
                .stype
                .clone()
                .unwrap_or(DType::Scalar(LC::MpiInt, Type::Int));
            for (off, cnt) in send_pieces(f, kind, args, n, is_root) {
                let arg = BufArg::Stored(pointer, pointee.as_ref());
                let Some(d) =
                    Reader::new(ev, &*env, span).read_data(Elements::new(arg, cnt, off), &dt)?
                else {
                    return Ok(None);
                };
                pieces.push((off, cnt, d));
            }
        }
        let mut targets = Vec::new();
        let owned = match args.rtype.as_ref().or(args.stype.as_ref()) {
            Some(DType::Pair(_)) => None, // arrays of structs: the whole object
            _ => owned_elements(f, kind, args, n, rank),
        };
        for (arg, pointer, pointee) in &bound.receive {
            let buf = BufArg::Stored(pointer, pointee.as_ref());
            let hold = MpiCall::new(ev, env, call).hold_back(buf, owned.as_deref())?;
            targets.push(Target {
                arg: *arg,
                pointer: pointer.clone(),
                pointee: pointee.clone(),
                hold,
            });
        }
        // The send buffer is checked later unless it lies in an object held back
        // for the result (send and receive parts of one array: not checked).
        let mut sent = None;
        if let (Some((pointer, pointee)), Some(DType::Scalar(_, ty))) = (&bound.send, &args.stype) {
            let object = match pointer {
                Value::Pointer(Pointer::To { root, path }) => {
                    let mut path = path.clone();
                    if matches!(path.last(), Some(PStep::Index(_))) {
                        path.pop();
                    }
                    Some(Value::Pointer(Pointer::To { root: *root, path }))
                }
                _ => None,
            };
            let held = targets
                .iter()
                .any(|t| t.hold.as_ref().map(|h| Some(h.pointer())) == Some(object.as_ref()));
            let flat: Vec<(Expr, Expr, Expr)> = pieces
                .iter()
                .filter_map(|(o, c, d)| match d {
                    Data::Flat(x) if concrete_small(f, *c).is_some() => Some((*o, *c, *x)),
                    _ => None,
                })
                .collect();
            if object.is_some() && !held && !flat.is_empty() {
                sent = Some(Sent {
                    lf: bound.call.lf,
                    line: span.start_line,
                    pointer: pointer.clone(),
                    pointee: pointee.clone(),
                    ty: ty.clone(),
                    pieces: flat,
                });
            }
        }
        Ok(Some(Posted {
            call: bound.call.clone(),
            pieces,
            targets,
            sent,
        }))
    }
}

impl Mpi<'_> {
    /// Performs the nonblocking collective every member of `comm` has posted (the
    /// first pending one of each): the calls must agree; each member's request
    /// then holds the final contents of its receive buffers, which its wait
    /// writes.
    pub(super) fn match_posts(
        &mut self,
        state: &mut State,
        (comm, which): (u32, Which),
        violations: &mut Vec<Violation>,
    ) -> Result<(), EngineError> {
        let worlds: Vec<usize> = comm::members(state, comm)
            .into_iter()
            .map(|w| w as usize)
            .collect();
        let mut members: Vec<Member<'_>> = Vec::with_capacity(worlds.len());
        let mut heads: Vec<(u32, Posted)> = Vec::with_capacity(worlds.len());
        for &w in &worlds {
            let (handle, origin, posted) = post_of(state, w, comm, which).ok_or_else(|| {
                EngineError::invalid("collective match: a member has not posted", None)
            })?;
            // (For a started persistent collective, the init: MPI matched it there.)
            let span = span_of(self.ctx.model, origin);
            let Some((kind, _)) = shape(posted.call.lf) else {
                return Err(EngineError::invalid(
                    "collective match: not a collective",
                    Some(span),
                ));
            };
            if let Some(m0) = members.first() {
                let first = (m0.world, m0.lf, m0.root, m0.op);
                let this = (w, posted.call.lf, posted.call.root, posted.call.op);
                let ok = self.as_process(state, w, violations, |ev, env| {
                    Ok(agrees(ev, env, first, this, span))
                })?;
                if !ok || path_dead(&self.ctx, state) {
                    return Ok(());
                }
            }
            members.push(Member {
                world: w,
                lf: posted.call.lf,
                span,
                call: None,
                kind,
                root: posted.call.root,
                op: posted.call.op,
                args: posted.call.args.clone(),
                pieces: Some(posted.pieces.clone()),
            });
            heads.push((handle, posted));
        }
        let Some(root) = self.members_root(state, &members)? else {
            return Ok(());
        };
        let agree = self
            .run(state, (&members, root), violations)
            .check_agreement()?;
        if !agree || path_dead(&self.ctx, state) {
            return Ok(());
        }
        let Some(transfers) = self
            .run(state, (&members, root), violations)
            .read_transfers()?
        else {
            return Ok(());
        };
        if path_dead(&self.ctx, state) {
            return Ok(());
        }
        for (j, m) in members.iter().enumerate() {
            let handle = heads[j].0;
            let running = state.inner.procs[m.world].status == crate::state::Status::Running;
            self.as_process(state, m.world, violations, |ev, env| {
                if running {
                    deliver(ev, env, m, j, &heads[j], &transfers)
                } else {
                    // Ended without waiting (a request leak, reported at the end):
                    // its buffers may be gone; nothing is delivered.
                    let f = ev.factory();
                    set_mpi(env, |mp| {
                        for r in mp.requests.iter_mut().filter(|r| r.handle == handle) {
                            r.kind = RequestKind::Done {
                                source: f.int(ANY),
                                tag: f.int(ANY),
                                count: f.int(0),
                            };
                        }
                    });
                    Ok(())
                }
            })?;
        }
        Ok(())
    }
}

impl ProcessCall<'_> {
    /// After the call, an `MPI_Start` or `MPI_Startall`: performs each
    /// started persistent collective every member of its communicator has
    /// now posted, as the last post of a nonblocking collective does.
    pub(crate) fn perform_started(&mut self) -> Result<(), EngineError> {
        let (mpi, state, p) = (&mut self.mpi, &mut *self.state, self.p);
        let violations = &mut self.violations;
        let started: Vec<(u32, u32)> = state.inner.procs[p]
            .mpi
            .requests
            .iter()
            .filter_map(|r| match &r.kind {
                RequestKind::Posted(x) => x.call.init_ordinal.map(|k| (x.call.comm, k)),
                _ => None,
            })
            .collect();
        for (comm, k) in started {
            let which = Which::Persistent(k);
            let all_started = comm::members(state, comm).iter().all(|&q| {
                let requests = &state.inner.procs[q as usize].mpi.requests;
                requests.iter().any(|r| which.selects(&r.kind, comm))
            });
            if !all_started || path_dead(&mpi.ctx, state) {
                continue;
            }
            mpi.match_posts(state, (comm, which), violations)?;
        }
        Ok(())
    }
}

/// Delivers the results of a performed nonblocking collective to member `m`
/// (the `j`th), whose request is `(handle, posted)`: checks its send data,
/// writes its receive buffers and holds them back until its wait.
fn deliver(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    m: &Member<'_>,
    j: usize,
    (handle, posted): &(u32, Posted),
    transfers: &[Transfer],
) -> Result<(), EngineError> {
    let dt = m.args.receive_type();
    if let Some(sent) = &posted.sent {
        let when = ("every process had posted it", Property::InvalidPointer);
        check_sent(ev, env, sent, when, m.span)?;
    }
    // Put back what the held elements had at the post (unless the
    // program wrote them since: its wait reports that), write the
    // results, and hold the final contents back again until the wait.
    let mut intact = Vec::with_capacity(posted.targets.len());
    for t in &posted.targets {
        let ok = match &t.hold {
            Some(h) => {
                let ok = h.intact(ev, env, m.span)?;
                if ok {
                    h.release(ev, env, m.span)?;
                }
                ok
            }
            None => true,
        };
        intact.push(ok);
    }
    let mut fold = None;
    for tr in transfers.iter().filter(|tr| tr.dest == j) {
        let Some(k) = posted.targets.iter().position(|t| t.arg == tr.arg) else {
            continue; // an optional buffer that is NULL
        };
        if !intact[k] {
            continue;
        }
        let t = &posted.targets[k];
        let arg = BufArg::Stored(&t.pointer, t.pointee.as_ref());
        write_data(ev, env, arg, tr.window(), (&tr.data, tr.n), &dt, m.span)?;
        // A user operator: its function runs at the wait, on the buffer
        // that then holds the last contribution.
        if let (Some(copies), Some(Op::User(function))) = (&tr.fold, posted.call.op) {
            fold = Some(Box::new(DueFold {
                function,
                copies: copies.clone(),
                dtype: dt.clone(),
                count: tr.n,
                inout: t.pointer.clone(),
            }));
        }
    }
    let mut delivery = Vec::new();
    for (k, t) in posted.targets.iter().enumerate() {
        let Some(h) = &t.hold else {
            continue;
        };
        if intact[k] {
            delivery.push(h.hold_again(ev, env, m.span)?);
        } else {
            delivery.push(h.clone()); // the wait reports the change
        }
    }
    let p = env.proc;
    let requests = &env.state.inner.procs[p].mpi.requests;
    let Some(index) = requests.iter().position(|r| r.handle == *handle) else {
        return Err(EngineError::invalid(
            "collective match: request vanished",
            None,
        ));
    };
    if requests[index].freed {
        // MPI_Request_free'd: nobody waits, the data goes in now.
        remove_request(env, index);
        for h in delivery {
            if h.intact(ev, env, m.span)? {
                h.release(ev, env, m.span)?;
            }
        }
        return Ok(());
    }
    let f = ev.factory();
    let kind = if delivery.is_empty() && posted.sent.is_none() && fold.is_none() {
        RequestKind::Done {
            source: f.int(ANY),
            tag: f.int(ANY),
            count: f.int(0),
        }
    } else {
        RequestKind::Collective {
            delivery,
            sent: posted.sent.clone().map(Box::new),
            fold,
        }
    };
    set_mpi(env, |mp| mp.requests[index].kind = kind);
    Ok(())
}

/// For a process waiting in `MPI_Wait`...: its nonblocking collectives not
/// every member has posted yet, one phrase each (for deadlock reports).
pub(crate) fn pending_posts(model: &Model, state: &State, p: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mine = &state.inner.procs[p].mpi.requests;
    for (k, r) in mine.iter().enumerate() {
        let RequestKind::Posted(posted) = &r.kind else {
            continue;
        };
        let members = comm::members(state, posted.call.comm).into_iter();
        let (verb, missing): (&str, Vec<u32>) = if let Some(k) = posted.call.init_ordinal {
            // A started persistent collective waits for the members' starts
            // of the one they initialised k-th on the communicator.
            let which = Which::Persistent(k);
            let missing = members.filter(|&q| {
                let requests = &state.inner.procs[q as usize].mpi.requests;
                !requests
                    .iter()
                    .any(|x| which.selects(&x.kind, posted.call.comm))
            });
            ("started", missing.collect())
        } else {
            // It is the `ordinal`-th pending post of `p` on its communicator; a
            // member with fewer pending posts there has not posted it yet.
            let ordinal = mine[..=k]
                .iter()
                .filter(|x| Which::Next.selects(&x.kind, posted.call.comm))
                .count();
            let missing = members.filter(|&q| {
                state.inner.procs[q as usize]
                    .mpi
                    .requests
                    .iter()
                    .filter(|x| Which::Next.selects(&x.kind, posted.call.comm))
                    .count()
                    < ordinal
            });
            ("posted", missing.collect())
        };
        let missing: Vec<String> = missing.iter().map(|q| q.to_string()).collect();
        let span = span_of(model, r.origin);
        out.push(format!(
            "for its {} of line {}, not yet {verb} by process(es) {}",
            posted.call.lf.c_name(),
            span.start_line,
            missing.join(", ")
        ));
    }
    out
}

/// The first nonblocking collective process `q` posted on `comm` that is not
/// performed yet: (request handle, the call that posted it, its part).
pub(super) fn first_post(
    state: &State,
    q: usize,
    comm: u32,
) -> Option<(u32, (FunctionId, TransitionId), Posted)> {
    post_of(state, q, comm, Which::Next)
}

/// The collective `which` process `q` posted on `comm` and that is not
/// performed yet: (request handle, the call that posted it, its part).
fn post_of(
    state: &State,
    q: usize,
    comm: u32,
    which: Which,
) -> Option<(u32, (FunctionId, TransitionId), Posted)> {
    state.inner.procs[q]
        .mpi
        .requests
        .iter()
        .find_map(|r| match &r.kind {
            RequestKind::Posted(p) if which.selects(&r.kind, comm) => {
                Some((r.handle, r.origin, (**p).clone()))
            }
            _ => None,
        })
}
