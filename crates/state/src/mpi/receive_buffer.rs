//! The buffer of a pending point-to-point receive (`local-concurrency`).
//!
//! From the post of a receive (`MPI_Irecv`, `MPI_Start` of an `MPI_Recv_init`)
//! until the wait or test that completes it, MPI forbids the process to access
//! any part of its receive buffer (MPI 4.1, 3.7.2: the system may be writing
//! it; its content is undefined until completion). The request keeps the
//! buffer ([`ReceiveBuffer`]) for that whole time, whether or not the message
//! has been delivered yet in the model, so the check does not depend on the
//! order the search interleaves processes in: every read or write of an
//! element in the buffer's extent by the owning process, and every MPI call
//! or library function that is given a pointer into it, is reported. A receive
//! from `MPI_PROC_NULL` owns its buffer until its wait too (MPI does not
//! modify the buffer then, but the rule is the same). A receive whose request
//! is freed with `MPI_Request_free` while active owns its buffer for the rest
//! of the run: MPI gives no way to learn that it completed (3.7.3, advice to
//! users: an active receive request should never be freed).
//!
//! Extents are measured in scalars of the outermost array the pointer points
//! into (row-major, as `buffer.rs` lays buffers out), so `&b[0][0]` with 9
//! elements covers all of `double b[3][3]`.

use smallvec::SmallVec;
use tass_dynamic::api::{Handle, Pointer, Root, Step as PStep, Value};
use tass_model::api::mpi::{ArgRole, MpiKind};
use tass_model::api::{
    AssertOrigin, Callee, Expr as MExpr, ExprKind, LibraryConstant as LC, LibraryFunction as LF,
    Span, Statement, Type as CType,
};
use tass_semantics::api::{EngineError, Environment, Evaluator, Place, Property, Violation};
use tass_symbolic::api::{Expr, ExprFactory, Type};

use super::buffer::{inner_size, locate, BufArg, Buffer};
use super::context::{Mpi, MpiCall};
use super::datatypes::TypeMap;
use super::request::Persistent;
use crate::env::ProcEnv;
use crate::mpi::rma::local::{library_access, transition_touches, Access};
use crate::state::State;
use crate::step::Step;

/// The buffer a receive owns until the wait or test that completes it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ReceiveBuffer {
    pub pointer: Value,
    /// The scalars `lo .. hi` from the pointer the receive may write (`hi`
    /// `None`: to the end of the object).
    pub lo: Expr,
    pub hi: Option<Expr>,
    /// The call that posted it (`MPI_Irecv`, `MPI_Start`, `MPI_Startall`) and its line.
    pub posted_by: LF,
    pub line: u32,
    /// The line of the `MPI_Request_free` that freed the active request.
    pub freed_at: Option<u32>,
}

impl ReceiveBuffer {
    /// The same buffer, ignoring where it was posted (to keep one record of
    /// the receives a loop posts and frees into one buffer).
    pub(super) fn same_extent(&self, other: &ReceiveBuffer) -> bool {
        self.pointer == other.pointer && self.lo == other.lo && self.hi == other.hi
    }
}

impl MpiCall<'_, '_, '_> {
    /// The buffer of the receive call (`MPI_Irecv`, `MPI_Recv_init`): its
    /// `Buffer`, `Count` and `Datatype` arguments.
    pub(super) fn posted_buffer(&mut self) -> Result<ReceiveBuffer, EngineError> {
        let (ev, env, call) = self.parts();
        let buffer = call.arg(ArgRole::Buffer);
        let pointer = ev.eval(&*env, buffer)?;
        let count = ev.eval_int(&*env, call.arg(ArgRole::Count))?;
        let (lo, hi) = datatype_span(ev, env, call.arg(ArgRole::Datatype), count, buffer)?;
        Ok(ReceiveBuffer {
            pointer,
            lo,
            hi,
            posted_by: call.lf,
            line: call.span.start_line,
            freed_at: None,
        })
    }
}

/// The scalars `count` items of datatype `datatype` cover from a buffer
/// pointer `buffer`: `(lo, hi)`, `hi` `None` when not known (to the end).
fn datatype_span(
    ev: &mut Evaluator<'_>,
    env: &ProcEnv<'_>,
    datatype: &MExpr,
    count: Expr,
    buffer: &MExpr,
) -> Result<(Expr, Option<Expr>), EngineError> {
    let f = ev.factory();
    let zero = f.int(0);
    Ok(match ev.eval(env, datatype)? {
        Value::Handle(Handle::Constant(LC::MpiDoubleInt | LC::Mpi2Int)) => {
            // A pair is one element of an array of structs, or two scalars.
            let of_structs =
                matches!(&buffer.ty, CType::Pointer(t) if matches!(**t, CType::Struct(_)));
            let per = if of_structs { 1 } else { 2 };
            (zero, Some(f.mul(count, f.int(per))))
        }
        Value::Handle(Handle::Constant(_)) => (zero, Some(count)),
        Value::Handle(Handle::Datatype(i)) => {
            let types = &env.state.inner.procs[env.proc].mpi.datatypes;
            let Some(TypeMap::Uniform(layout)) = types.get(i as usize).map(|t| &t.layout) else {
                // Unknown, or a struct of mixed basic types (not received by
                // a posted receive): to the end of the object.
                return Ok((zero, None));
            };
            let first = layout.displacements.iter().copied().min().unwrap_or(0);
            let last = layout.displacements.iter().copied().max().unwrap_or(0) + 1;
            let lo = layout.lower.min(first);
            let top = layout.upper.max(last);
            let extent = layout.upper - layout.lower;
            // Copy k covers `k * extent + lo .. k * extent + top`.
            let hi = f.add(f.mul(f.sub(count, f.int(1)), f.int(extent)), f.int(top));
            (f.int(lo), Some(hi))
        }
        _ => (zero, None),
    })
}

/// Where a buffer or an accessed object lies.
enum Region {
    /// Flat scalars `lo .. hi` (`hi` `None`: to the end) of the outermost array
    /// at `prefix` of `root`.
    Flat {
        root: Root,
        prefix: SmallVec<[PStep; 2]>,
        lo: Expr,
        hi: Option<Expr>,
    },
    /// All of the object at `path` of `root`.
    Object(Place),
}

/// The region of `lo .. hi` scalars from `pointer`; `None` for a null or
/// invalid pointer (nothing to conflict with).
fn region_of(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    pointer: &Value,
    (lo, hi): (Expr, Option<Expr>),
    span: &Span,
) -> Option<Region> {
    let f = ev.factory();
    match pointer {
        Value::Pointer(Pointer::To { .. }) => {}
        // A byte view: the whole variable or block.
        Value::Pointer(Pointer::Bytes { root, .. }) => {
            return Some(Region::Object((*root, SmallVec::new())))
        }
        _ => return None,
    }
    let count = hi.unwrap_or_else(|| f.int(1));
    match locate(ev, env, BufArg::Stored(pointer, None), count, span).ok()? {
        Buffer::Nothing => None,
        Buffer::Array {
            root,
            prefix,
            start,
            ..
        } => Some(Region::Flat {
            root,
            prefix,
            lo: f.add(start, lo),
            hi: hi.map(|h| f.add(start, h)),
        }),
        Buffer::Scalar { place, .. } => Some(Region::Object(place)),
    }
}

/// The condition under which paths `a` and `b` of one root select
/// overlapping objects on their common length (`None`: never, different
/// fields).
fn paths_meet(f: &ExprFactory, a: &[PStep], b: &[PStep]) -> Option<Expr> {
    let mut cond = f.tt();
    for (x, y) in a.iter().zip(b) {
        match (x, y) {
            (PStep::Field(i), PStep::Field(j)) if i != j => return None,
            (PStep::Index(i), PStep::Index(j)) => cond = f.and(cond, f.eq(*i, *j)),
            _ => {}
        }
    }
    Some(cond)
}

/// The flat scalars `path` selects in an array of type `t` (`None` for the
/// end: not known).
fn flat_range(f: &ExprFactory, t: &Type, path: &[PStep]) -> (Expr, Option<Expr>) {
    let mut at = f.int(0);
    let mut t = t.clone();
    for step in path {
        match (step, &t) {
            (PStep::Index(i), Type::Array(element, _)) => {
                let Some(size) = inner_size(f, &t) else {
                    return (f.int(0), None);
                };
                at = f.add(at, f.mul(*i, size));
                t = (**element).clone();
            }
            // A field of a struct element: one flat unit.
            _ => return (at, Some(f.add(at, f.int(1)))),
        }
    }
    let width = match &t {
        Type::Array(_, Some(n)) => inner_size(f, &t).map(|s| f.mul(*n, s)),
        Type::Array(_, None) => None,
        _ => Some(f.int(1)),
    };
    (at, width.map(|w| f.add(at, w)))
}

/// `lo1 .. hi1` and `lo2 .. hi2` share an element (both nonempty).
fn ranges_meet(
    f: &ExprFactory,
    (lo1, hi1): (Expr, Option<Expr>),
    (lo2, hi2): (Expr, Option<Expr>),
) -> Expr {
    let below = |lo: Expr, hi: Option<Expr>| hi.map_or(f.tt(), |h| f.lt(lo, h));
    f.and(
        f.and(below(lo1, hi1), below(lo2, hi2)),
        f.and(below(lo1, hi2), below(lo2, hi1)),
    )
}

/// The condition under which regions `a` and `b` overlap.
fn overlap(ev: &mut Evaluator<'_>, env: &dyn Environment, a: &Region, b: &Region) -> Expr {
    let f = ev.factory();
    match (a, b) {
        (Region::Object((ra, pa)), Region::Object((rb, pb))) => (ra == rb)
            .then(|| paths_meet(f, pa, pb))
            .flatten()
            .unwrap_or(f.ff()),
        (
            Region::Flat {
                root,
                prefix,
                lo,
                hi,
            },
            Region::Object((r, path)),
        )
        | (
            Region::Object((r, path)),
            Region::Flat {
                root,
                prefix,
                lo,
                hi,
            },
        ) => {
            if root != r {
                return f.ff();
            }
            let Some(meet) = paths_meet(f, prefix, path) else {
                return f.ff();
            };
            let nonempty = ranges_meet(f, (*lo, *hi), (*lo, None));
            if path.len() <= prefix.len() {
                return f.and(meet, nonempty); // the object holds the array
            }
            let array = match ev.read_place(env, &(*root, prefix.clone())) {
                Value::Data(a) => f.type_of(a),
                _ => return f.and(meet, nonempty),
            };
            let range = flat_range(f, &array, &path[prefix.len()..]);
            f.and(meet, ranges_meet(f, (*lo, *hi), range))
        }
        (
            Region::Flat {
                root: r1,
                prefix: p1,
                lo: lo1,
                hi: hi1,
            },
            Region::Flat {
                root: r2,
                prefix: p2,
                lo: lo2,
                hi: hi2,
            },
        ) => {
            if r1 != r2 {
                return f.ff();
            }
            let Some(meet) = paths_meet(f, p1, p2) else {
                return f.ff();
            };
            if p1.len() != p2.len() {
                return meet; // arrays nested in one another: may overlap
            }
            f.and(meet, ranges_meet(f, (*lo1, *hi1), (*lo2, *hi2)))
        }
    }
}

/// One access of a step: an lvalue, or a range from a pointer given to a
/// library or MPI function.
enum Touch {
    Place(Place),
    Range(Value, Expr, Option<Expr>, LF),
}

/// The count and datatype arguments that measure buffer argument `role` of
/// a point-to-point or RMA call.
fn measured_by(kind: MpiKind, role: ArgRole) -> Option<(ArgRole, ArgRole)> {
    let p2p = matches!(
        kind,
        MpiKind::Send | MpiKind::Receive | MpiKind::SendReceive | MpiKind::Rma(_)
    );
    match role {
        ArgRole::Buffer if p2p => Some((ArgRole::Count, ArgRole::Datatype)),
        ArgRole::SendBuffer if p2p => Some((ArgRole::SendCount, ArgRole::SendType)),
        ArgRole::RecvBuffer if p2p => Some((ArgRole::RecvCount, ArgRole::RecvType)),
        _ => None,
    }
}

/// A call of library function `lf` with arguments `args`, at `span`.
#[derive(Clone, Copy)]
struct LibraryCall<'a> {
    lf: LF,
    args: &'a [MExpr],
    span: &'a Span,
}

/// What library function `call.lf` touches through its pointer arguments: the
/// extent its count and datatype give for a point-to-point or RMA buffer,
/// else the object from the pointer on. An init (`MPI_Send_init`) only binds
/// its buffer; `MPI_Start` touches the buffers of the requests it starts.
fn library_touches(
    ev: &mut Evaluator<'_>,
    env: &ProcEnv<'_>,
    call: LibraryCall<'_>,
) -> Vec<(Touch, Access)> {
    let LibraryCall { lf, args, .. } = call;
    let mut out = Vec::new();
    let description = lf.mpi();
    if let Some(d) = description {
        match d.kind {
            MpiKind::PersistentInit => return out,
            MpiKind::Start => {
                started_touches(ev, env, call, &mut out);
                return out;
            }
            _ => {}
        }
    }
    let f = ev.factory();
    for (k, a) in args.iter().enumerate() {
        if !matches!(a.ty, CType::Pointer(_)) {
            continue;
        }
        let Ok(pointer) = ev.eval(env, a) else {
            continue;
        };
        let mut span_of = (f.int(0), None);
        if let Some(d) = description {
            let measure = d.params.get(k).and_then(|p| measured_by(d.kind, p.role));
            if let Some((count, datatype)) = measure {
                let (Some(c), Some(t)) = (d.position(count), d.position(datatype)) else {
                    continue;
                };
                let counted = ev
                    .eval_int(env, &args[c])
                    .and_then(|n| datatype_span(ev, env, &args[t], n, a));
                if let Ok(s) = counted {
                    span_of = s;
                }
            }
        }
        out.push((
            Touch::Range(pointer, span_of.0, span_of.1, lf),
            library_access(lf, k),
        ));
    }
    out
}

/// The buffers of the persistent requests `MPI_Start` / `MPI_Startall` start:
/// a send reads its buffer, a receive takes its buffer over.
fn started_touches(
    ev: &mut Evaluator<'_>,
    env: &ProcEnv<'_>,
    call: LibraryCall<'_>,
    out: &mut Vec<(Touch, Access)>,
) {
    let LibraryCall { lf, args, span } = call;
    let f = ev.factory();
    let Some(d) = lf.mpi() else { return };
    let places: Vec<Place> = if lf == LF::MpiStartall {
        let (Some(n), Some(a)) = (
            d.position(ArgRole::RequestCount),
            d.position(ArgRole::Requests),
        ) else {
            return;
        };
        let count = ev
            .eval_int(env, &args[n])
            .ok()
            .and_then(|c| f.as_concrete_int(c))
            .and_then(|c| usize::try_from(c).ok());
        let (Some(count), Ok(array)) = (count, ev.eval(env, &args[a])) else {
            return;
        };
        super::request::request_places(ev, env, array, count, span).unwrap_or_default()
    } else {
        let Some(r) = d.position(ArgRole::Request) else {
            return;
        };
        let Ok(pointer) = ev.eval(env, &args[r]) else {
            return;
        };
        match ev.deref_place(env, pointer, false, span, &|| "request".into()) {
            Ok(place) => vec![place],
            Err(_) => return,
        }
    };
    let requests = &env.state.inner.procs[env.proc].mpi.requests;
    for place in places {
        let Value::Handle(Handle::Request(h)) = ev.read_place(env, &place) else {
            continue;
        };
        let Some(r) = requests.iter().find(|r| r.handle == h && !r.freed) else {
            continue;
        };
        match r.persistent.as_deref() {
            Some(Persistent::Send { buffer, count, .. }) => out.push((
                Touch::Range(buffer.clone(), f.int(0), Some(*count), lf),
                Access::Read,
            )),
            Some(Persistent::Recv(_, b)) => out.push((
                Touch::Range(b.pointer.clone(), b.lo, b.hi, lf),
                Access::Write,
            )),
            // A persistent collective: its send buffer read, its receive
            // buffers held, each from its pointer on.
            Some(Persistent::Collective(b)) => {
                if let Some((pointer, _)) = &b.send {
                    out.push((
                        Touch::Range(pointer.clone(), f.int(0), None, lf),
                        Access::Read,
                    ));
                }
                for (_, pointer, _) in &b.receive {
                    out.push((
                        Touch::Range(pointer.clone(), f.int(0), None, lf),
                        Access::Write,
                    ));
                }
            }
            None => {}
        }
    }
}

/// The accesses step `step` makes: the lvalues its guard and statement read
/// or write, a variable it declares again, and what it hands to library and
/// MPI functions; each with the condition under which it happens (an
/// operand behind `&&`, `||` or `?:` is read only on some values of the
/// operands before it: `flag && v == 1` reads `v` only when `flag` is set).
fn step_touches(
    ev: &mut Evaluator<'_>,
    env: &ProcEnv<'_>,
    step: &Step,
) -> (Vec<(Touch, Access, Expr)>, Span) {
    let f = ev.factory();
    let model = env.model;
    let Some(body) = model.function(step.function).body.as_ref() else {
        return (Vec::new(), model.function(step.function).span.clone());
    };
    let t = body.transition(step.transition);
    let declared = match &t.statement {
        Statement::Declare { var } => Some(MExpr::new(
            ExprKind::Var(*var),
            model.var(*var).ty.clone(),
            t.span.clone(),
        )),
        _ => None,
    };
    // A specification statement (`#pragma TASS assert/assume`, a collective
    // assertion) observes the state; it is not the program touching memory.
    let specification = matches!(
        &t.statement,
        Statement::Assert {
            origin: AssertOrigin::Pragma,
            ..
        } | Statement::Assume { .. }
            | Statement::CollectiveAssert { .. }
    );
    let statement = if specification {
        &Statement::Noop
    } else {
        &t.statement
    };
    let touched = transition_touches(&t.guard, statement);
    let mut out = Vec::new();
    for touch in touched {
        let Ok(place) = ev.eval_place(env, touch.expr, true) else {
            continue;
        };
        // An operand that cannot be evaluated: taken as evaluated.
        let evaluated =
            touch
                .when
                .iter()
                .fold(f.tt(), |acc, &(c, nonzero)| match ev.eval_bool(env, c) {
                    Ok(v) => f.and(acc, if nonzero { v } else { f.not(v) }),
                    Err(_) => acc,
                });
        out.push((Touch::Place(place), touch.access, evaluated));
    }
    if let Some(e) = &declared {
        if let Ok(place) = ev.eval_place(env, e, true) {
            out.push((Touch::Place(place), Access::Write, f.tt()));
        }
    }
    if let Statement::Call {
        callee: Callee::Library(lf),
        args,
        ..
    } = &t.statement
    {
        let call = LibraryCall {
            lf: *lf,
            args,
            span: &t.span,
        };
        out.extend(
            library_touches(ev, env, call)
                .into_iter()
                .map(|(touch, access)| (touch, access, f.tt())),
        );
    }
    (out, t.span.clone())
}

/// What a conflict of `touch` with receive buffer `b` of process `p` is.
fn conflict_message(p: usize, b: &ReceiveBuffer, touch: &Touch, access: Access) -> String {
    let (verb, to) = match (touch, access) {
        (Touch::Range(.., lf), _) => ("passes", format!(" to {}", lf.c_name())),
        (_, Access::Write) => ("writes", String::new()),
        (_, Access::Read) => ("reads", String::new()),
    };
    let whose = format!(
        "the receive buffer of its {} of line {}",
        b.posted_by.c_name(),
        b.line
    );
    match b.freed_at {
        None => format!(
            "process {p} {verb} {whose}{to} before a wait or test completes it (MPI forbids \
             accessing it until the receive completes)"
        ),
        Some(freed) => format!(
            "process {p} {verb} {whose}{to}, whose active request MPI_Request_free released on \
             line {freed} (MPI gives no way to know when that receive completes)"
        ),
    }
}

impl Mpi<'_> {
    /// Checks the accesses of step `step` (on the state before it) against
    /// the buffers of its process's pending receives.
    pub(crate) fn pending_receive_accesses(
        &mut self,
        state: &mut State,
        step: &Step,
    ) -> Result<Vec<Violation>, EngineError> {
        if step.request.is_some() {
            return Ok(Vec::new()); // a progress step: MPI's own write
        }
        let p = step.process;
        let pending: Vec<ReceiveBuffer> = state.inner.procs[p]
            .mpi
            .requests
            .iter()
            .filter_map(|r| r.receiving.as_deref().cloned())
            .collect();
        if pending.is_empty() {
            return Ok(Vec::new());
        }
        let env = self.ctx.env(state, p);
        let f = self.ctx.f;
        // The claims, worked out without checks (locating a buffer must not
        // report anything on this step's line), then checked.
        let mut claims = Vec::new();
        let span = {
            let mut ev = Evaluator::without_checks(f, self.oracle, p);
            let (touches, span) = step_touches(&mut ev, &env, step);
            for (touch, access, evaluated) in &touches {
                let region = match touch {
                    Touch::Place(place) => Some(Region::Object(place.clone())),
                    Touch::Range(pointer, lo, hi, _) => {
                        region_of(&mut ev, &env, pointer, (*lo, *hi), &span)
                    }
                };
                let Some(region) = region else { continue };
                for b in &pending {
                    let owned = region_of(&mut ev, &env, &b.pointer, (b.lo, b.hi), &span);
                    let Some(owned) = owned else { continue };
                    let nonempty = |lo: Expr, hi: Option<Expr>| hi.map_or(f.tt(), |h| f.lt(lo, h));
                    let mut meet = f.and(
                        overlap(&mut ev, &env, &owned, &region),
                        nonempty(b.lo, b.hi),
                    );
                    if let Touch::Range(_, lo, hi, _) = touch {
                        meet = f.and(meet, nonempty(*lo, *hi));
                    }
                    meet = f.and(meet, *evaluated);
                    let claim = f.not(meet);
                    if f.as_bool(claim) == Some(true) {
                        continue;
                    }
                    claims.push((claim, conflict_message(p, b, touch, *access)));
                }
            }
            span
        };
        // The path goes on unconstrained after a conflict: what the access
        // reads or writes is then explored for every timing of the message,
        // as before the check (a race on the value is still found).
        let mut ev = Evaluator::checking(f, self.oracle, p);
        for (claim, message) in claims {
            ev.check(&env, claim, Property::LocalConcurrency, || message, &span);
        }
        Ok(ev.violations)
    }
}
