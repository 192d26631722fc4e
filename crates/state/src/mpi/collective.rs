//! MPI collective operations on a communicator: a blocking one is one
//! synchronous step of all members once each has reached a blocking
//! collective call on it; calls that do not agree (kind, root, op, datatype,
//! counts) are a `collective-mismatch`.
//!
//! The members are those of `MPI_COMM_WORLD` or of a communicator made by
//! `MPI_Comm_dup` / `MPI_Comm_split` (collectives themselves, as is
//! `MPI_Comm_free`); ranks, roots and blocks are in the communicator's rank
//! order. `MPI_MAXLOC` / `MPI_MINLOC` work on the pair datatypes
//! `MPI_DOUBLE_INT` and `MPI_2INT` (arrays of `{value, index}` structs, or a
//! flat `int` array for `MPI_2INT`); on a tie the smaller index wins. Counts
//! may be symbolic for the basic datatypes; a split color or key and the
//! counts of pair transfers must be determined (else: unsupported); a root
//! that depends on the inputs splits the path (one value per path, see
//! `per_root` in `mod.rs`).
//!
//! Data moves in comm-rank order: every contribution is read before anything is
//! written (MPI forbids overlapping send and receive buffers without
//! `MPI_IN_PLACE`). Reductions over the reals are exact, so their order does not
//! matter; they fold the contributions in rank order.
//!
//! Counts: the count a process sends must equal the count its receiver posted
//! for it (MPI requires equal type signatures). A process sending *more* than
//! its receiver posted is a `buffer-overflow` (as for a point-to-point message
//! longer than the receive); sending *fewer* is a `collective-mismatch`.
//!
//! Nonblocking collectives (`MPI_Ibcast`, ...) do not synchronise: a member's
//! call *posts* its part ([`post`]) and returns. The arguments significant at
//! it are evaluated and its send data is read at the post (a [`Posted`] kept in
//! its request); the elements of its receive buffers the operation writes
//! read as undefined from then until the wait, so reading a result early is
//! reported ([`Held`]: the whole objects holding the buffers when those
//! elements are not known). Once every
//! member of the communicator has posted the operation, the last post
//! performs it ([`match_posts`]): the calls must agree as for the blocking
//! forms, and each member's request then holds the final contents of its
//! receive buffers, which `MPI_Wait`/`MPI_Test` write. Collectives on one
//! communicator, blocking or not, must be called in the same order by all
//! members: a blocking call whose counterpart at another member is a pending
//! nonblocking one is a `collective-mismatch`. A wait on a collective some
//! member has not posted blocks (deadlock reports name it). MPI forbids
//! changing a send buffer before the operation completes: the send data is
//! compared with what was posted when the operation is performed and at the
//! wait (`invalid-pointer`; a change undone before both, send data with a
//! symbolic count, and send and receive buffers in one array are not
//! checked). Pair datatypes (`MPI_DOUBLE_INT`, `MPI_2INT`) work in both
//! forms; the nonblocking ones write them at the wait, as the others.

use std::collections::BTreeMap;

use smallvec::SmallVec;
use tass_dynamic::api::{
    is_undefined_data, undefined_data, write_at, Handle, Pointer, Step as PStep, Value,
};
use tass_model::api::mpi::ArgRole;
use tass_model::api::{
    Expr as MExpr, FunctionId, LibraryConstant as LC, LibraryFunction as LF, Model, Span,
    TransitionId,
};
use tass_semantics::api::{
    Change, EngineError, Environment, Evaluator, Oracle, Property, Violation,
};
use tass_symbolic::api::{BitOp, Expr, ExprFactory, Type};

use super::buffer::{
    check_rank, flat_path, flat_read, holds, inner_size, locate, read_buffer, read_pairs,
    scalar_of, type_name, write_buffer, write_pairs, BufArg, Buffer, CONCRETE_LIMIT,
};
use super::comm;
use super::request::{add_request, remove_request, RequestKind};
use super::{current_call, set_mpi, write_request, write_success, Call, Ctx, ANY};
use crate::env::ProcEnv;
use crate::state::State;

/// `MPI_UNDEFINED` (a color of `MPI_Comm_split`).
const UNDEFINED: i64 = tass_model::api::mpi::MPI_UNDEFINED;

/// What a collective call does (nonblocking forms map to their blocking kind).
use tass_model::api::mpi::CollectiveOp as Kind;

/// The kind of collective call `lf` and whether it is a nonblocking form.
fn shape(lf: LF) -> Option<(Kind, bool)> {
    let d = lf.mpi()?;
    Some((d.collective()?, d.returns_request()))
}

pub(super) fn is_collective(lf: LF) -> bool {
    shape(lf).is_some()
}

/// Position of the communicator argument of collective call `lf` (for
/// `MPI_Comm_free`, of the pointer to it: see [`peek_collective_comm`]).
pub(super) fn comm_arg(lf: LF) -> usize {
    shape(lf).map_or(0, |(k, _)| positions(k).comm)
}

/// Argument positions of a collective call (the request of a nonblocking form
/// follows the communicator).
#[derive(Clone, Copy, Default)]
struct Positions {
    sbuf: Option<usize>,
    scount: Option<usize>,
    scounts: Option<usize>,
    sdispls: Option<usize>,
    stype: Option<usize>,
    rbuf: Option<usize>,
    rcount: Option<usize>,
    rcounts: Option<usize>,
    rdispls: Option<usize>,
    rtype: Option<usize>,
    op: Option<usize>,
    root: Option<usize>,
    comm: usize,
}

/// The positions of the arguments of collective `kind`, as the description
/// of its blocking form gives them.
fn positions(kind: Kind) -> Positions {
    use ArgRole as R;
    let d = kind.blocking_form();
    Positions {
        sbuf: d.position_of_any(&[R::SendBuffer, R::Buffer]),
        scount: d.position_of_any(&[R::SendCount, R::Count]),
        scounts: d.position(R::SendCounts),
        sdispls: d.position(R::SendDispls),
        stype: d.position_of_any(&[R::SendType, R::Datatype]),
        rbuf: d.position(R::RecvBuffer),
        rcount: d.position(R::RecvCount),
        rcounts: d.position(R::RecvCounts),
        rdispls: d.position(R::RecvDispls),
        rtype: d.position(R::RecvType),
        op: d.position(R::Op),
        root: d.position(R::Root),
        comm: d.position(R::Comm).unwrap_or(0),
    }
}

/// The reduction operations.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Op {
    Sum,
    Prod,
    Min,
    Max,
    Land,
    Lor,
    Band,
    Bor,
    Maxloc,
    Minloc,
}

fn op_of(v: &Value, span: &Span) -> Result<Op, EngineError> {
    Ok(match v {
        Value::Handle(Handle::Constant(c)) => match c {
            LC::MpiSum => Op::Sum,
            LC::MpiProd => Op::Prod,
            LC::MpiMin => Op::Min,
            LC::MpiMax => Op::Max,
            LC::MpiLand => Op::Land,
            LC::MpiLor => Op::Lor,
            LC::MpiBand => Op::Band,
            LC::MpiBor => Op::Bor,
            LC::MpiMaxloc => Op::Maxloc,
            LC::MpiMinloc => Op::Minloc,
            other => {
                return Err(EngineError::unsupported(
                    format!("reduction operation {}", other.c_name()),
                    span,
                ))
            }
        },
        other => {
            return Err(EngineError::unsupported(
                format!("reduction operation {other:?}"),
                span,
            ))
        }
    })
}

fn op_name(op: Op) -> &'static str {
    match op {
        Op::Sum => "MPI_SUM",
        Op::Prod => "MPI_PROD",
        Op::Min => "MPI_MIN",
        Op::Max => "MPI_MAX",
        Op::Land => "MPI_LAND",
        Op::Lor => "MPI_LOR",
        Op::Band => "MPI_BAND",
        Op::Bor => "MPI_BOR",
        Op::Maxloc => "MPI_MAXLOC",
        Op::Minloc => "MPI_MINLOC",
    }
}

/// An MPI datatype of a collective: a basic one, or a (value, index) pair type.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
enum DType {
    Scalar(LC, Type),
    /// `MPI_DOUBLE_INT` or `MPI_2INT`.
    Pair(LC),
}

impl DType {
    fn constant(&self) -> LC {
        match self {
            DType::Scalar(c, _) | DType::Pair(c) => *c,
        }
    }
}

fn dtype_of(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    e: &MExpr,
    span: &Span,
) -> Result<DType, EngineError> {
    Ok(match super::buffer::p2p_datatype(ev, env, e, span)? {
        super::buffer::P2pType::Basic(c, ty) => DType::Scalar(c, ty),
        super::buffer::P2pType::Pair(c) => DType::Pair(c),
    })
}

/// Data moved by a collective: `count` scalars (an array expression), or pairs.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
enum Data {
    Flat(Expr),
    Pairs(Vec<(Expr, Expr)>),
}

fn combine(f: &ExprFactory, op: Op, a: Expr, b: Expr) -> Expr {
    let ty = f.type_of(a);
    let truth = |x: Expr| match f.type_of(x) {
        Type::Bool => x,
        t => f.ne(x, f.zero(&t)),
    };
    let as_ty = |c: Expr| match &ty {
        Type::Bool => c,
        t => f.ite(c, f.one(t), f.zero(t)),
    };
    match op {
        Op::Sum => f.add(a, b),
        Op::Prod => f.mul(a, b),
        Op::Min => f.ite(f.le(a, b), a, b),
        // MAXLOC/MINLOC on scalars is rejected before (mpi-type); as MAX/MIN here.
        Op::Max | Op::Maxloc => f.ite(f.le(a, b), b, a),
        Op::Minloc => f.ite(f.le(a, b), a, b),
        Op::Land => as_ty(f.and(truth(a), truth(b))),
        Op::Lor => as_ty(f.or(truth(a), truth(b))),
        Op::Band => f.bitwise(BitOp::And, a, b),
        Op::Bor => f.bitwise(BitOp::Or, a, b),
    }
}

/// `MPI_MAXLOC` / `MPI_MINLOC` of two (value, index) pairs: the better value;
/// on a tie, the smaller index (MPI's rule).
fn combine_loc(
    f: &ExprFactory,
    op: Op,
    (a, i): (Expr, Expr),
    (b, j): (Expr, Expr),
) -> (Expr, Expr) {
    let (a_better, b_better) = if op == Op::Minloc {
        (f.lt(a, b), f.lt(b, a))
    } else {
        (f.lt(b, a), f.lt(a, b))
    };
    let value = f.ite(a_better, a, b);
    let index = f.ite(a_better, i, f.ite(b_better, j, f.ite(f.le(i, j), i, j)));
    (value, index)
}

/// The elementwise reduction of arrays of one type (nested arrays element by
/// element; arrays of different shapes through their flat elements).
fn reduce_arrays(f: &ExprFactory, op: Op, xs: &[Expr], count: Expr, depth: u32) -> Expr {
    let t = f.type_of(xs[0]);
    let same = xs.iter().all(|&x| f.type_of(x) == t);
    let (t, xs): (Type, Vec<Expr>) = if same {
        (t, xs.to_vec())
    } else {
        let scalar = scalar_of(&t);
        let j = f.symbol("__tass_mpi_f", Type::Int);
        let ft = Type::array(scalar, Some(count));
        let flat = xs
            .iter()
            .map(|&x| f.array_lambda(ft.clone(), j, flat_read(f, x, j)))
            .collect();
        (ft, flat)
    };
    let Type::Array(elem, ext) = &t else {
        return xs
            .iter()
            .skip(1)
            .fold(xs[0], |acc, &x| combine(f, op, acc, x));
    };
    let at = |i: Expr| -> Vec<Expr> { xs.iter().map(|&x| f.array_read(x, i)).collect() };
    let fold = |els: Vec<Expr>| -> Expr {
        if matches!(&**elem, Type::Array(..)) {
            reduce_arrays(f, op, &els, count, depth + 1)
        } else {
            els.iter()
                .skip(1)
                .fold(els[0], |acc, &x| combine(f, op, acc, x))
        }
    };
    if let Some(k) = concrete_small(f, ext.unwrap_or_else(|| f.int(-1))) {
        let els: Vec<Expr> = (0..k).map(|i| fold(at(f.int(i)))).collect();
        return f.array_literal(t.clone(), &els);
    }
    let i = f.symbol(&format!("__tass_mpi_r{depth}"), Type::Int);
    let body = fold(at(i));
    f.array_lambda(t.clone(), i, body)
}

/// The reduction of contributions `xs` (at least one) of `count` elements.
fn reduce(f: &ExprFactory, op: Op, xs: &[&Data], count: Expr) -> Data {
    let flats: Vec<Expr> = xs
        .iter()
        .filter_map(|d| match d {
            Data::Flat(x) => Some(*x),
            Data::Pairs(_) => None,
        })
        .collect();
    if flats.len() == xs.len() {
        return Data::Flat(reduce_arrays(f, op, &flats, count, 0));
    }
    let mut acc: Vec<(Expr, Expr)> = Vec::new();
    for (k, d) in xs.iter().enumerate() {
        let Data::Pairs(ps) = d else { continue };
        if k == 0 || acc.is_empty() {
            acc = ps.clone();
        } else {
            for (a, &b) in acc.iter_mut().zip(ps) {
                *a = combine_loc(f, op, *a, b);
            }
        }
    }
    Data::Pairs(acc)
}

/// Data of the shape of `d` whose every element is undefined.
fn undefined_like(f: &ExprFactory, d: &Data) -> Data {
    match d {
        Data::Flat(x) => Data::Flat(undefined_data(f, f.type_of(*x))),
        Data::Pairs(ps) => Data::Pairs(
            ps.iter()
                .map(|&(v, i)| {
                    (
                        undefined_data(f, f.type_of(v)),
                        undefined_data(f, f.type_of(i)),
                    )
                })
                .collect(),
        ),
    }
}

/// `k` if `e` is a concrete integer in `0..=CONCRETE_LIMIT`.
fn concrete_small(f: &ExprFactory, e: Expr) -> Option<i64> {
    f.as_concrete_int(e)
        .and_then(|k| i64::try_from(k).ok())
        .filter(|&k| (0..=CONCRETE_LIMIT).contains(&k))
}

/// Elements `off .. off+n` of `data`.
fn slice(
    f: &ExprFactory,
    data: &Data,
    off: Expr,
    n: Expr,
    span: &Span,
) -> Result<Data, EngineError> {
    match data {
        Data::Flat(a) => {
            let t = Type::array(scalar_of(&f.type_of(*a)), Some(n));
            if let Some(k) = concrete_small(f, n) {
                let els: Vec<Expr> = (0..k)
                    .map(|j| flat_read(f, *a, f.add(off, f.int(j))))
                    .collect();
                return Ok(Data::Flat(f.array_literal(t, &els)));
            }
            let j = f.symbol("__tass_mpi_s", Type::Int);
            Ok(Data::Flat(f.array_lambda(
                t,
                j,
                flat_read(f, *a, f.add(off, j)),
            )))
        }
        Data::Pairs(ps) => {
            let (Some(o), Some(k)) = (concrete_small(f, off), concrete_small(f, n)) else {
                return Err(EngineError::unsupported(
                    "MPI_Reduce_scatter of pair elements with symbolic counts",
                    span,
                ));
            };
            let (o, k) = (o as usize, k as usize);
            Ok(Data::Pairs(
                ps.get(o..o + k).map(<[_]>::to_vec).unwrap_or_default(),
            ))
        }
    }
}

fn read_data(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    arg: &MExpr,
    count: Expr,
    offset: Expr,
    dt: &DType,
    span: &Span,
) -> Result<Option<Data>, EngineError> {
    Ok(match dt {
        DType::Scalar(_, ty) => read_buffer(ev, env, arg, count, offset, ty, span)?.map(Data::Flat),
        DType::Pair(c) => read_pairs(ev, env, arg, count, offset, *c, span)?.map(Data::Pairs),
    })
}

#[allow(clippy::too_many_arguments)]
fn write_data(
    ev: &mut Evaluator<'_>,
    env: &mut dyn Environment,
    arg: BufArg<'_>,
    capacity: Expr,
    offset: Expr,
    data: &Data,
    n: Expr,
    dt: &DType,
    span: &Span,
) -> Result<(), EngineError> {
    match data {
        Data::Flat(d) => write_buffer(ev, env, arg, capacity, offset, *d, n, span),
        Data::Pairs(ps) => {
            let c = match dt {
                DType::Pair(c) => *c,
                DType::Scalar(c, _) => *c,
            };
            write_pairs(ev, env, arg, capacity, offset, ps, c, span)
        }
    }
}

/// One member of the communicator in a collective: at its blocking call, or
/// with the nonblocking collective it posted.
struct Member<'m> {
    world: usize,
    lf: LF,
    span: &'m Span,
    /// The blocking call the member is at (`None`: a posted nonblocking one).
    call: Option<Call<'m>>,
    kind: Kind,
    root: Option<Expr>,
    op: Option<Op>,
    args: Significant,
    /// A posted nonblocking collective: its send data, read at the post.
    pieces: Option<Vec<Piece>>,
}

/// A piece of a member's send data: (flat offset, count, the data).
type Piece = (Expr, Expr, Data);

/// The arguments of a member's call that are significant at it (MPI ignores
/// the receive arguments of a non-root in a gather, for instance).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
struct Significant {
    stype: Option<DType>,
    rtype: Option<DType>,
    scount: Option<Expr>,
    rcount: Option<Expr>,
    scounts: Option<Vec<Expr>>,
    sdispls: Option<Vec<Expr>>,
    rcounts: Option<Vec<Expr>>,
    rdispls: Option<Vec<Expr>>,
    /// `MPI_Comm_split`'s color and key.
    split: Option<(i64, i64)>,
}

/// Runs `body` as a step of process `p`: its evaluator and environment; the
/// assumptions it made become part of the path condition.
fn as_process<R>(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &mut State,
    p: usize,
    violations: &mut Vec<Violation>,
    body: impl FnOnce(&mut Evaluator<'_>, &mut ProcEnv<'_>) -> Result<R, EngineError>,
) -> Result<R, EngineError> {
    let mut env = ctx.env(state, p);
    let mut ev = Evaluator::new(ctx.f, oracle, p, true);
    let r = body(&mut ev, &mut env)?;
    let pc = ev.current_pc(&env);
    env.set_path_condition(pc);
    violations.append(&mut ev.violations);
    Ok(r)
}

fn path_dead(ctx: &Ctx<'_>, state: &State) -> bool {
    ctx.f.as_bool(state.inner.pc) == Some(false)
}

/// The communicator a process at collective call `call` names, without checks
/// (`None`: not a valid one). `MPI_Comm_free` names it through its pointer.
pub(super) fn peek_collective_comm(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &mut State,
    p: usize,
    call: &Call<'_>,
) -> Result<Option<u32>, EngineError> {
    let env = ctx.env(state, p);
    let mut ev = Evaluator::new(ctx.f, oracle, p, false);
    let arg = &call.args[comm_arg(call.lf)];
    let mut v = ev.eval(&env, arg)?;
    if call.lf == LF::MpiCommFree {
        if !matches!(v, Value::Pointer(ref q) if !q.is_null()) {
            return Ok(None);
        }
        let place = ev.deref_place(&env, v, true, call.span, &|| "communicator".into())?;
        v = ev.read_place(&env, &place);
    }
    Ok(comm::comm_of_value(env.state, &v))
}

/// The root argument of collective call `call` of process `p`, evaluated
/// without checks (`None`: the collective has no root).
pub(super) fn peek_root(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &mut State,
    p: usize,
    call: &Call<'_>,
) -> Result<Option<Expr>, EngineError> {
    let Some(k) = shape(call.lf).and_then(|(kind, _)| positions(kind).root) else {
        return Ok(None);
    };
    let env = ctx.env(state, p);
    let mut ev = Evaluator::new(ctx.f, oracle, p, false);
    Ok(Some(ev.eval_int(&env, &call.args[k])?))
}

/// Evaluates the communicator of collective call `call` with the checks: its
/// number, or `None` after reporting an invalid one (the path dies).
fn checked_comm(
    ev: &mut Evaluator<'_>,
    env: &ProcEnv<'_>,
    call: &Call<'_>,
) -> Result<Option<u32>, EngineError> {
    if call.lf != LF::MpiCommFree {
        return comm::check_comm(ev, env, &call.args[comm_arg(call.lf)], call.span);
    }
    let ptr = ev.eval(env, &call.args[0])?;
    let place = ev.deref_place(env, ptr, false, call.span, &|| {
        tass_model::api::render_expr(env.model(), &call.args[0])
    })?;
    let v = ev.read_place(env, &place);
    if let Some(c) = comm::comm_of_value(env.state, &v) {
        if c == 0 {
            ev.fail(
                env,
                Property::InvalidPointer,
                "MPI_Comm_free on MPI_COMM_WORLD, which cannot be freed".into(),
                call.span,
            );
            return Ok(None);
        }
        return Ok(Some(c));
    }
    ev.fail(
        env,
        Property::InvalidPointer,
        format!(
            "MPI_Comm_free on {}, which is not a valid communicator",
            comm::describe_invalid(&v)
        ),
        call.span,
    );
    Ok(None)
}

/// The collective step owned by process `owner` (the first member of the
/// communicator its call names; every member is at a collective call on it).
pub(super) fn collective_for(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &mut State,
    owner: usize,
) -> Result<(Vec<Violation>, Vec<Change>), EngineError> {
    let mut violations = Vec::new();
    let owner_call = current_call(ctx.model, state, owner)
        .ok_or_else(|| EngineError::invalid("collective step without a call", None))?;
    let comm = as_process(ctx, oracle, state, owner, &mut violations, |ev, env| {
        checked_comm(ev, env, &owner_call)
    })?;
    let Some(comm) = comm else {
        return Ok((violations, Vec::new())); // reported; the path is dead
    };
    let worlds: Vec<usize> = comm::members(state, comm)
        .into_iter()
        .map(|w| w as usize)
        .collect();
    let n = worlds.len();
    if n == 0 {
        return Err(EngineError::invalid(
            "collective on an empty communicator",
            None,
        ));
    }
    // A member with a pending nonblocking collective here: the owner's blocking
    // call is its counterpart, and a blocking call never matches a nonblocking one.
    if let Some((q, (_, origin, posted))) = worlds
        .iter()
        .find_map(|&q| first_post(state, q, comm).map(|x| (q, x)))
    {
        let line = span_of(ctx.model, origin).start_line;
        as_process(ctx, oracle, state, owner, &mut violations, |ev, env| {
            ev.fail(
                &*env,
                Property::CollectiveMismatch,
                format!(
                    "process {owner} calls {} while process {q} has posted {} (line {line}); \
                     collective calls on a communicator must match in order",
                    owner_call.lf.c_name(),
                    posted.lf.c_name()
                ),
                owner_call.span,
            );
            Ok(())
        })?;
        return Ok((violations, Vec::new()));
    }

    // Phase 1: the call, root and op of every member; they must agree.
    let mut members: Vec<Member<'_>> = Vec::with_capacity(n);
    for (i, &w) in worlds.iter().enumerate() {
        let call = current_call(ctx.model, state, w).ok_or_else(|| {
            EngineError::invalid("collective step: a member is not at a call", None)
        })?;
        let Some((kind, false)) = shape(call.lf) else {
            return Err(EngineError::invalid(
                "collective step: a member is not at a blocking collective call",
                Some(call.span),
            ));
        };
        let first = members.first().map(|m| (m.world, m.lf, m.root, m.op));
        let member = as_process(ctx, oracle, state, w, &mut violations, |ev, env| {
            if i > 0 {
                match checked_comm(ev, env, &call)? {
                    None => return Ok(None),
                    Some(c) if c != comm => {
                        return Err(EngineError::invalid(
                            "collective step: members on different communicators",
                            Some(call.span),
                        ))
                    }
                    Some(_) => {}
                }
            }
            let (root, op) = root_and_op(ev, &*env, &call, kind)?;
            if let Some(first) = first {
                if !agrees(ev, env, first, (w, call.lf, root, op), call.span) {
                    return Ok(None);
                }
            }
            if let Some(r) = root {
                check_rank(ev, &*env, r, false, "root", call.span, n);
            }
            Ok(Some(Member {
                world: w,
                lf: call.lf,
                span: call.span,
                call: Some(call),
                kind,
                root,
                op,
                args: Significant::default(),
                pieces: None,
            }))
        })?;
        match member {
            Some(m) => members.push(m),
            None => return Ok((violations, Vec::new())),
        }
        if path_dead(ctx, state) {
            return Ok((violations, Vec::new()));
        }
    }
    let kind = members[0].kind;
    let Some(root) = members_root(ctx, oracle, state, &members)? else {
        return Ok((violations, Vec::new())); // a bad root, reported
    };

    // Phase 2: the arguments significant at each member.
    for (i, &w) in worlds.iter().enumerate() {
        let is_root = root == Some(i);
        let Some(call) = &members[i].call else {
            continue;
        };
        let got = as_process(ctx, oracle, state, w, &mut violations, |ev, env| {
            significant_args(ev, env, call, kind, n, is_root)
        })?;
        let Some(args) = got else {
            return Ok((violations, Vec::new()));
        };
        members[i].args = args;
        if path_dead(ctx, state) {
            return Ok((violations, Vec::new()));
        }
    }

    // Phase 3: datatypes and counts must agree.
    if !check_agreement(ctx, oracle, state, &members, root, &mut violations)?
        || path_dead(ctx, state)
    {
        return Ok((violations, Vec::new()));
    }

    // Phase 4: the operation.
    match kind {
        Kind::CommDup | Kind::CommSplit | Kind::CommFree => {
            comm_operation(ctx, oracle, state, &members, comm, &mut violations)?;
        }
        Kind::Barrier => {}
        _ => {
            let Some(transfers) =
                read_transfers(ctx, oracle, state, &members, root, &mut violations)?
            else {
                return Ok((violations, Vec::new()));
            };
            if path_dead(ctx, state) {
                return Ok((violations, Vec::new()));
            }
            for t in transfers {
                let m = &members[t.dest];
                let Some(call) = &m.call else { continue };
                let arg = &call.args[t.arg];
                let dt = m
                    .args
                    .rtype
                    .clone()
                    .or_else(|| m.args.stype.clone())
                    .unwrap_or(DType::Scalar(LC::MpiInt, Type::Int));
                let span = m.span;
                as_process(ctx, oracle, state, m.world, &mut violations, |ev, env| {
                    if t.optional
                        && matches!(ev.eval(&*env, arg)?, Value::Pointer(ref q) if q.is_null())
                    {
                        return Ok(());
                    }
                    write_data(
                        ev,
                        env,
                        arg.into(),
                        t.capacity,
                        t.offset,
                        &t.data,
                        t.n,
                        &dt,
                        span,
                    )
                })?;
            }
        }
    }

    // Phase 5: every member moves on.
    for m in &members {
        let Some(call) = &m.call else { continue };
        as_process(ctx, oracle, state, m.world, &mut violations, |ev, env| {
            write_success(ev, env, call)?;
            env.set_location(call.target);
            Ok(())
        })?;
    }
    Ok((violations, Vec::new()))
}

/// The root and the reduction operation a collective call names (`None` for
/// collectives without one).
fn root_and_op(
    ev: &mut Evaluator<'_>,
    env: &ProcEnv<'_>,
    call: &Call<'_>,
    kind: Kind,
) -> Result<(Option<Expr>, Option<Op>), EngineError> {
    let pos = positions(kind);
    let root = match pos.root {
        Some(k) => Some(ev.eval_int(env, &call.args[k])?),
        None => None,
    };
    let op = match pos.op {
        Some(k) => Some(op_of(&ev.eval(env, &call.args[k])?, call.span)?),
        None => None,
    };
    Ok((root, op))
}

/// Phase 1 for one member: its call, operation and root agree with the
/// first member's (`first`: its world rank, call, root, op); reports a
/// `collective-mismatch` otherwise (the path dies). `false` on a mismatch of
/// call or op (the root is a check, the path goes on under it).
fn agrees(
    ev: &mut Evaluator<'_>,
    env: &ProcEnv<'_>,
    (w0, lf0, root0, op0): (usize, LF, Option<Expr>, Option<Op>),
    (w, lf, root, op): (usize, LF, Option<Expr>, Option<Op>),
    span: &Span,
) -> bool {
    if lf0 != lf {
        ev.fail(
            env,
            Property::CollectiveMismatch,
            format!(
                "process {w} calls {} while process {w0} calls {} (collective \
                 calls on a communicator must match in order)",
                lf.c_name(),
                lf0.c_name()
            ),
            span,
        );
        return false;
    }
    if op0 != op {
        ev.fail(
            env,
            Property::CollectiveMismatch,
            format!(
                "process {w} uses {} in {} while process {w0} uses {}",
                op.map_or("no operation", op_name),
                lf.c_name(),
                op0.map_or("no operation", op_name)
            ),
            span,
        );
        return false;
    }
    if let (Some(r0), Some(r)) = (root0, root) {
        let f = ev.factory();
        let same = f.eq(r0, r);
        ev.check(
            env,
            same,
            Property::CollectiveMismatch,
            || {
                format!(
                    "process {w} gives root {} to {} while process {w0} gives {}",
                    f.pretty(r),
                    lf.c_name(),
                    f.pretty(r0)
                )
            },
            span,
        );
    }
    true
}

/// The root (comm rank) of a collective, from its first member's call:
/// `Ok(Some(None))` for a collective without root, `Ok(None)` for a bad root
/// (already reported).
fn members_root(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &mut State,
    members: &[Member<'_>],
) -> Result<Option<Option<usize>>, EngineError> {
    let f = ctx.f;
    let Some(r) = members[0].root else {
        return Ok(Some(None));
    };
    let n = members.len();
    let env = ctx.env(state, members[0].world);
    let mut ev = Evaluator::new(f, oracle, members[0].world, false);
    match resolve_root(&mut ev, &env, r, n) {
        Some(v) if (0..n as i64).contains(&v) => Ok(Some(Some(v as usize))),
        Some(_) => Ok(None),
        None => Err(EngineError::unsupported(
            format!(
                "{} with a root that depends on the inputs",
                members[0].lf.c_name()
            ),
            members[0].span,
        )),
    }
}

/// The value of root expression `r` when it is determined.
fn resolve_root(ev: &mut Evaluator<'_>, env: &dyn Environment, r: Expr, n: usize) -> Option<i64> {
    let f = ev.factory();
    match f.as_concrete_int(r).and_then(|r| i64::try_from(r).ok()) {
        Some(v) => Some(v),
        None => (0..n as i64).find(|&v| holds(ev, env, f.eq(r, f.int(v)))),
    }
}

/// The pieces of send data (flat offset, count) a member with significant
/// arguments `a` contributes: exactly the reads [`read_transfers`] makes of it.
fn send_pieces(
    f: &ExprFactory,
    kind: Kind,
    a: &Significant,
    n: usize,
    is_root: bool,
) -> Vec<(Expr, Expr)> {
    let zero = f.int(0);
    let count = |x: &Option<Expr>| x.unwrap_or(zero);
    let at = |xs: &Option<Vec<Expr>>, k: usize| {
        xs.as_ref().and_then(|v| v.get(k).copied()).unwrap_or(zero)
    };
    match kind {
        Kind::Bcast if is_root => vec![(zero, count(&a.scount))],
        Kind::Reduce | Kind::Allreduce | Kind::Scan | Kind::Exscan => {
            vec![(zero, count(&a.scount))]
        }
        Kind::ReduceScatter => {
            let total = (0..n).fold(zero, |acc, i| f.add(acc, at(&a.rcounts, i)));
            vec![(zero, total)]
        }
        Kind::Gather | Kind::Gatherv | Kind::Allgather | Kind::Allgatherv => {
            vec![(zero, count(&a.scount))]
        }
        Kind::Scatter if is_root => {
            let sc = count(&a.scount);
            (0..n).map(|j| (f.mul(sc, f.int(j as i64)), sc)).collect()
        }
        Kind::Scatterv | Kind::Alltoallv if is_root || kind == Kind::Alltoallv => (0..n)
            .map(|j| (at(&a.sdispls, j), at(&a.scounts, j)))
            .collect(),
        Kind::Alltoall => {
            let sc = count(&a.scount);
            (0..n).map(|j| (f.mul(sc, f.int(j as i64)), sc)).collect()
        }
        _ => Vec::new(),
    }
}

/// The receive buffers (argument position, optional) the result of a
/// collective goes to at the member of comm rank `rank`: exactly the
/// destinations of [`read_transfers`] for it.
fn recv_args(kind: Kind, is_root: bool, rank: usize) -> Vec<(usize, bool)> {
    let pos = positions(kind);
    let (Some(sbuf), Some(rbuf)) = (pos.sbuf, pos.rbuf.or(pos.sbuf)) else {
        return Vec::new();
    };
    match kind {
        Kind::Bcast if !is_root => vec![(sbuf, false)],
        Kind::Reduce | Kind::Gather | Kind::Gatherv if is_root => vec![(rbuf, false)],
        Kind::Exscan => vec![(rbuf, rank == 0)],
        Kind::Allreduce
        | Kind::Scan
        | Kind::ReduceScatter
        | Kind::Allgather
        | Kind::Allgatherv
        | Kind::Scatter
        | Kind::Scatterv
        | Kind::Alltoall
        | Kind::Alltoallv => vec![(rbuf, false)],
        _ => Vec::new(),
    }
}

/// Where the result of a posted nonblocking collective goes in its process.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Target {
    /// The argument position of the buffer.
    arg: usize,
    /// The buffer pointer, as it was at the post.
    pointer: Value,
    pointee: Option<Type>,
    /// What of the buffer reads as undefined until the wait, with its
    /// values at the post.
    hold: Option<Held>,
}

/// A nonblocking collective a process posted that not every member of the
/// communicator has posted yet: what the operation needs from this member.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Posted {
    pub comm: u32,
    pub lf: LF,
    root: Option<Expr>,
    op: Option<Op>,
    args: Significant,
    /// The send data, read at the post (MPI forbids changing it until the
    /// operation completes).
    pieces: Vec<Piece>,
    targets: Vec<Target>,
    /// What the match and the wait check is still in the send buffer.
    sent: Option<Sent>,
}

/// The send data of a nonblocking collective as it was at the post, to check
/// that the program did not change it before the operation completed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Sent {
    lf: LF,
    line: u32,
    pointer: Value,
    pointee: Option<Type>,
    ty: Type,
    /// (flat offset, count, data) of each piece, the count concrete.
    pieces: Vec<(Expr, Expr, Expr)>,
}

impl Sent {
    pub(crate) fn pointer(&self) -> &Value {
        &self.pointer
    }

    pub(crate) fn pointer_mut(&mut self) -> &mut Value {
        &mut self.pointer
    }
}

/// Reports an `invalid-pointer` violation if the send data `sent` describes
/// may have changed since the post (MPI forbids writing a send buffer until
/// the operation completes). `when` names the moment of the check.
pub(super) fn check_sent(
    ev: &mut Evaluator<'_>,
    env: &ProcEnv<'_>,
    sent: &Sent,
    when: &str,
    span: &Span,
) -> Result<(), EngineError> {
    let f = ev.factory();
    for &(off, cnt, data) in &sent.pieces {
        let arg = BufArg::Stored(&sent.pointer, sent.pointee.as_ref());
        let Some(now) = read_buffer(ev, env, arg, cnt, off, &sent.ty, span)? else {
            return Ok(());
        };
        if now == data {
            continue;
        }
        let Some(k) = concrete_small(f, cnt) else {
            continue; // not checked (documented)
        };
        let same = (0..k).fold(f.tt(), |acc, i| {
            let i = f.int(i);
            f.and(acc, f.eq(f.array_read(now, i), f.array_read(data, i)))
        });
        ev.check(
            env,
            same,
            Property::InvalidPointer,
            || {
                format!(
                    "the send buffer of the {} of line {} changed before {when} (MPI forbids \
                     writing it until the operation completes)",
                    sent.lf.c_name(),
                    sent.line
                )
            },
            span,
        );
    }
    Ok(())
}

impl Posted {
    /// The pointers it holds (heap canonicalization follows them).
    pub(crate) fn pointers(&self) -> Vec<&Value> {
        let mut out: Vec<&Value> = self.sent.iter().map(Sent::pointer).collect();
        for t in &self.targets {
            out.push(&t.pointer);
            if let Some(h) = &t.hold {
                out.push(h.pointer());
            }
        }
        out
    }

    pub(crate) fn pointers_mut(&mut self) -> Vec<&mut Value> {
        let mut out: Vec<&mut Value> = self.sent.iter_mut().map(Sent::pointer_mut).collect();
        for t in &mut self.targets {
            out.push(&mut t.pointer);
            if let Some(h) = &mut t.hold {
                out.push(h.pointer_mut());
            }
        }
        out
    }
}

/// True if process `q` has posted a nonblocking collective on `comm` that not
/// every member has posted yet.
pub(super) fn has_post(state: &State, q: usize, comm: u32) -> bool {
    state.inner.procs[q]
        .mpi
        .requests
        .iter()
        .any(|r| matches!(&r.kind, RequestKind::Posted(p) if p.comm == comm))
}

/// Whether `lf` is a nonblocking collective.
pub(super) fn is_nonblocking(lf: LF) -> bool {
    matches!(shape(lf), Some((_, true)))
}

/// A nonblocking collective call of process `p` (`call`): it posts its part
/// and moves on. The arguments significant at `p` are evaluated and its send
/// data read now; the objects holding its receive buffers read as undefined
/// until the wait. When every member has posted the operation, it is
/// performed ([`match_posts`]).
pub(super) fn post(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &mut State,
    p: usize,
    call: &Call<'_>,
) -> Result<(Vec<Violation>, Vec<Change>), EngineError> {
    let mut violations = Vec::new();
    let Some((kind, true)) = shape(call.lf) else {
        return Err(EngineError::invalid(
            "post of a call that is not a nonblocking collective",
            Some(call.span),
        ));
    };
    let function = state.inner.procs[p]
        .stack
        .last()
        .map(|fr| fr.function)
        .ok_or_else(|| EngineError::invalid("collective post without a frame", None))?;
    let posted = as_process(ctx, oracle, state, p, &mut violations, |ev, env| {
        post_part(ev, env, call, kind)
    })?;
    let Some(posted) = posted else {
        return Ok((violations, Vec::new()));
    };
    if path_dead(ctx, state) {
        return Ok((violations, Vec::new()));
    }
    let comm = posted.comm;
    as_process(ctx, oracle, state, p, &mut violations, |ev, env| {
        let kind_of = RequestKind::Posted(Box::new(posted));
        let h = add_request(env, kind_of, (function, call.tid));
        write_request(ev, env, &call.args[positions(kind).comm + 1], h, call.span)?;
        write_success(ev, env, call)?;
        env.set_location(call.target);
        Ok(())
    })?;
    if comm::members(state, comm)
        .iter()
        .all(|&q| has_post(state, q as usize, comm))
    {
        match_posts(ctx, oracle, state, comm, &mut violations)?;
    }
    Ok((violations, Vec::new()))
}

/// The part of a nonblocking collective process `env.proc` posts (`None`: the
/// path died on a reported error).
fn post_part(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    call: &Call<'_>,
    kind: Kind,
) -> Result<Option<Posted>, EngineError> {
    let f = ev.factory();
    let dead =
        |ev: &mut Evaluator<'_>, env: &ProcEnv<'_>| f.as_bool(ev.current_pc(env)) == Some(false);
    let Some(comm) = checked_comm(ev, env, call)? else {
        return Ok(None);
    };
    let n = comm::comm_size(env.state, comm);
    let rank = comm::rank_in(env.state, comm, env.proc as u32).ok_or_else(|| {
        EngineError::invalid(
            "collective on a communicator the process is not in",
            Some(call.span),
        )
    })?;
    let pos = positions(kind);
    let (root, op) = root_and_op(ev, &*env, call, kind)?;
    let mut is_root = false;
    if let Some(r) = root {
        check_rank(ev, &*env, r, false, "root", call.span, n);
        if dead(ev, env) {
            return Ok(None);
        }
        match resolve_root(ev, &*env, r, n) {
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
    let Some(args) = significant_args(ev, env, call, kind, n, is_root)? else {
        return Ok(None);
    };
    if dead(ev, env) {
        return Ok(None);
    }
    let mut pieces = Vec::new();
    if let Some(sbuf) = pos.sbuf {
        let dt = args
            .stype
            .clone()
            .unwrap_or(DType::Scalar(LC::MpiInt, Type::Int));
        for (off, cnt) in send_pieces(f, kind, &args, n, is_root) {
            let Some(d) = read_data(ev, &*env, &call.args[sbuf], cnt, off, &dt, call.span)? else {
                return Ok(None);
            };
            pieces.push((off, cnt, d));
        }
    }
    let mut targets = Vec::new();
    let owned = match args.rtype.as_ref().or(args.stype.as_ref()) {
        Some(DType::Pair(_)) => None, // arrays of structs: the whole object
        _ => owned_elements(f, kind, &args, n, rank),
    };
    for (arg, optional) in recv_args(kind, is_root, rank) {
        let pointer = ev.eval(&*env, &call.args[arg])?;
        if optional && matches!(pointer, Value::Pointer(ref q) if q.is_null()) {
            continue;
        }
        let pointee = BufArg::Expr(&call.args[arg]).scalar_pointee();
        let hold = hold_back(ev, env, &call.args[arg], owned.as_deref(), call.span)?;
        targets.push(Target {
            arg,
            pointer,
            pointee,
            hold,
        });
    }
    // The send buffer is checked later unless it lies in an object held back
    // for the result (send and receive parts of one array: not checked).
    let mut sent = None;
    if let (Some(sbuf), Some(DType::Scalar(_, ty))) = (pos.sbuf, &args.stype) {
        let pointer = ev.eval(&*env, &call.args[sbuf])?;
        let object = match &pointer {
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
                lf: call.lf,
                line: call.span.start_line,
                pointer,
                pointee: BufArg::Expr(&call.args[sbuf]).scalar_pointee(),
                ty: ty.clone(),
                pieces: flat,
            });
        }
    }
    Ok(Some(Posted {
        comm,
        lf: call.lf,
        root,
        op,
        args,
        pieces,
        targets,
        sent,
    }))
}

/// The first nonblocking collective process `q` posted on `comm` that is not
/// performed yet: (request handle, the call that posted it, its part).
fn first_post(
    state: &State,
    q: usize,
    comm: u32,
) -> Option<(u32, (FunctionId, TransitionId), Posted)> {
    state.inner.procs[q]
        .mpi
        .requests
        .iter()
        .find_map(|r| match &r.kind {
            RequestKind::Posted(p) if p.comm == comm => Some((r.handle, r.origin, (**p).clone())),
            _ => None,
        })
}

fn span_of(model: &Model, (function, tid): (FunctionId, TransitionId)) -> &Span {
    match model.function(function).body.as_ref() {
        Some(b) => &b.transition(tid).span,
        None => &model.function(function).span,
    }
}

/// Performs the nonblocking collective every member of `comm` has posted (the
/// first pending one of each): the calls must agree; each member's request
/// then holds the final contents of its receive buffers, which its wait
/// writes.
fn match_posts(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &mut State,
    comm: u32,
    violations: &mut Vec<Violation>,
) -> Result<(), EngineError> {
    let worlds: Vec<usize> = comm::members(state, comm)
        .into_iter()
        .map(|w| w as usize)
        .collect();
    let mut members: Vec<Member<'_>> = Vec::with_capacity(worlds.len());
    let mut heads: Vec<(u32, Posted)> = Vec::with_capacity(worlds.len());
    for &w in &worlds {
        let (handle, origin, posted) = first_post(state, w, comm).ok_or_else(|| {
            EngineError::invalid("collective match: a member has not posted", None)
        })?;
        let span = span_of(ctx.model, origin);
        let Some((kind, _)) = shape(posted.lf) else {
            return Err(EngineError::invalid(
                "collective match: not a collective",
                Some(span),
            ));
        };
        if let Some(m0) = members.first() {
            let first = (m0.world, m0.lf, m0.root, m0.op);
            let this = (w, posted.lf, posted.root, posted.op);
            let ok = as_process(ctx, oracle, state, w, violations, |ev, env| {
                Ok(agrees(ev, env, first, this, span))
            })?;
            if !ok || path_dead(ctx, state) {
                return Ok(());
            }
        }
        members.push(Member {
            world: w,
            lf: posted.lf,
            span,
            call: None,
            kind,
            root: posted.root,
            op: posted.op,
            args: posted.args.clone(),
            pieces: Some(posted.pieces.clone()),
        });
        heads.push((handle, posted));
    }
    let Some(root) = members_root(ctx, oracle, state, &members)? else {
        return Ok(());
    };
    if !check_agreement(ctx, oracle, state, &members, root, violations)? || path_dead(ctx, state) {
        return Ok(());
    }
    let Some(transfers) = read_transfers(ctx, oracle, state, &members, root, violations)? else {
        return Ok(());
    };
    if path_dead(ctx, state) {
        return Ok(());
    }
    for (j, m) in members.iter().enumerate() {
        let (handle, posted) = &heads[j];
        let dt = m
            .args
            .rtype
            .clone()
            .or_else(|| m.args.stype.clone())
            .unwrap_or(DType::Scalar(LC::MpiInt, Type::Int));
        let running = state.inner.procs[m.world].status == crate::state::Status::Running;
        as_process(ctx, oracle, state, m.world, violations, |ev, env| {
            if !running {
                // Ended without waiting (a request leak, reported at the end):
                // its buffers may be gone; nothing is delivered.
                let f = ev.factory();
                set_mpi(env, |mp| {
                    for r in mp.requests.iter_mut().filter(|r| r.handle == *handle) {
                        r.kind = RequestKind::Done {
                            source: f.int(ANY),
                            tag: f.int(ANY),
                            count: f.int(0),
                        };
                    }
                });
                return Ok(());
            }
            if let Some(sent) = &posted.sent {
                check_sent(ev, env, sent, "every process had posted it", m.span)?;
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
            for tr in transfers.iter().filter(|tr| tr.dest == j) {
                let Some(k) = posted.targets.iter().position(|t| t.arg == tr.arg) else {
                    continue; // an optional buffer that is NULL
                };
                if !intact[k] {
                    continue;
                }
                let t = &posted.targets[k];
                let arg = BufArg::Stored(&t.pointer, t.pointee.as_ref());
                write_data(
                    ev,
                    env,
                    arg,
                    tr.capacity,
                    tr.offset,
                    &tr.data,
                    tr.n,
                    &dt,
                    m.span,
                )?;
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
            let kind = if delivery.is_empty() && posted.sent.is_none() {
                RequestKind::Done {
                    source: f.int(ANY),
                    tag: f.int(ANY),
                    count: f.int(0),
                }
            } else {
                RequestKind::Collective {
                    delivery,
                    sent: posted.sent.clone().map(Box::new),
                }
            };
            set_mpi(env, |mp| mp.requests[index].kind = kind);
            Ok(())
        })?;
    }
    Ok(())
}

/// For a process waiting in `MPI_Wait`...: its nonblocking collectives not
/// every member has posted yet, one phrase each (for deadlock reports).
pub(super) fn pending_posts(model: &Model, state: &State, p: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mine = &state.inner.procs[p].mpi.requests;
    for (k, r) in mine.iter().enumerate() {
        let RequestKind::Posted(posted) = &r.kind else {
            continue;
        };
        // It is the `ordinal`-th pending post of `p` on its communicator; a
        // member with fewer pending posts there has not posted it yet.
        let ordinal = mine[..=k]
            .iter()
            .filter(|x| matches!(&x.kind, RequestKind::Posted(q) if q.comm == posted.comm))
            .count();
        let missing: Vec<String> = comm::members(state, posted.comm)
            .into_iter()
            .filter(|&q| {
                state.inner.procs[q as usize]
                    .mpi
                    .requests
                    .iter()
                    .filter(|x| matches!(&x.kind, RequestKind::Posted(o) if o.comm == posted.comm))
                    .count()
                    < ordinal
            })
            .map(|q| q.to_string())
            .collect();
        let span = span_of(model, r.origin);
        out.push(format!(
            "for its {} of line {}, not yet posted by process(es) {}",
            posted.lf.c_name(),
            span.start_line,
            missing.join(", ")
        ));
    }
    out
}

/// What a nonblocking collective holds back of one receive buffer from its
/// post to its wait: those elements read as undefined meanwhile (reading one
/// is reported), with the values they get back (in a [`Posted`]: the values
/// they had at the post; in the request of a performed operation: the
/// results).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Held {
    /// The elements the operation owns (MPI leaves the others to the
    /// program): flat indices into the data array the buffer lies in, each
    /// with its value; the pointer is to that array.
    Elements(Value, Vec<(i64, Expr)>),
    /// The whole object the buffer lies in, when the elements are not known
    /// (a count, a displacement or the position is symbolic): pointer to it,
    /// the undefined marker it holds, its value.
    Object(Value, Value, Value),
}

impl Held {
    pub(crate) fn pointer(&self) -> &Value {
        match self {
            Held::Elements(p, _) | Held::Object(p, _, _) => p,
        }
    }

    pub(crate) fn pointer_mut(&mut self) -> &mut Value {
        match self {
            Held::Elements(p, _) | Held::Object(p, _, _) => p,
        }
    }

    fn place(
        &self,
        ev: &mut Evaluator<'_>,
        env: &ProcEnv<'_>,
        span: &Span,
    ) -> Result<tass_semantics::api::Place, EngineError> {
        ev.deref_place(env, self.pointer().clone(), true, span, &|| {
            "the receive buffer of a nonblocking collective".into()
        })
    }

    /// True if the program left the held part alone: it still reads as
    /// undefined.
    pub(super) fn intact(
        &self,
        ev: &mut Evaluator<'_>,
        env: &ProcEnv<'_>,
        span: &Span,
    ) -> Result<bool, EngineError> {
        let f = ev.factory();
        let place = self.place(ev, env, span)?;
        let now = ev.read_place(env, &place);
        Ok(match (self, now) {
            (Held::Object(_, marker, _), now) => now == *marker,
            (Held::Elements(_, elements), Value::Data(a)) => elements
                .iter()
                .all(|&(k, _)| is_undefined_data(f, flat_read(f, a, f.int(k)))),
            _ => false,
        })
    }

    /// Writes the held values into the buffer.
    pub(super) fn release(
        &self,
        ev: &mut Evaluator<'_>,
        env: &mut ProcEnv<'_>,
        span: &Span,
    ) -> Result<(), EngineError> {
        let place = self.place(ev, env, span)?;
        let new = match self {
            Held::Object(_, _, value) => value.clone(),
            Held::Elements(_, elements) => {
                let values: Vec<(i64, Expr)> = elements.clone();
                set_elements(ev, ev.read_place(&*env, &place), &values, span)?
            }
        };
        ev.write_place(env, &place, new, span)
    }

    /// Holds the same part back again, now with its current values (the
    /// results the operation wrote there): it reads as undefined again.
    pub(super) fn hold_again(
        &self,
        ev: &mut Evaluator<'_>,
        env: &mut ProcEnv<'_>,
        span: &Span,
    ) -> Result<Held, EngineError> {
        let f = ev.factory();
        let place = self.place(ev, env, span)?;
        let now = ev.read_place(&*env, &place);
        match self {
            Held::Object(pointer, marker, _) => {
                ev.write_place(env, &place, marker.clone(), span)?;
                Ok(Held::Object(pointer.clone(), marker.clone(), now))
            }
            Held::Elements(pointer, elements) => {
                let Value::Data(a) = now else {
                    return Err(EngineError::invalid(
                        "the receive buffer of a nonblocking collective is not an array",
                        Some(span),
                    ));
                };
                let values: Vec<(i64, Expr)> = elements
                    .iter()
                    .map(|&(k, _)| (k, flat_read(f, a, f.int(k))))
                    .collect();
                let undefined = undefined_elements(f, a, &values);
                let marked = set_elements(ev, now, &undefined, span)?;
                ev.write_place(env, &place, marked, span)?;
                Ok(Held::Elements(pointer.clone(), values))
            }
        }
    }
}

/// `array` (a data array) with the flat elements `values` set.
fn set_elements(
    ev: &Evaluator<'_>,
    array: Value,
    values: &[(i64, Expr)],
    span: &Span,
) -> Result<Value, EngineError> {
    let f = ev.factory();
    let Value::Data(a) = array else {
        return Err(EngineError::invalid(
            "the receive buffer of a nonblocking collective is not an array",
            Some(span),
        ));
    };
    let t = f.type_of(a);
    let mut out = Value::Data(a);
    for &(k, x) in values {
        let mut path = SmallVec::<[PStep; 2]>::new();
        flat_path(f, &t, f.int(k), &mut path);
        write_at(f, &mut out, &path, Value::Data(x)).map_err(|e| {
            EngineError::invalid(format!("nonblocking collective: {e}"), Some(span))
        })?;
    }
    Ok(out)
}

/// The undefined marker for each of the flat elements `at` of data array `a`.
fn undefined_elements(f: &ExprFactory, a: Expr, at: &[(i64, Expr)]) -> Vec<(i64, Expr)> {
    let marker = undefined_data(f, scalar_of(&f.type_of(a)));
    at.iter().map(|&(k, _)| (k, marker)).collect()
}

/// The parts of its receive buffer a nonblocking collective owns at the
/// member of comm rank `rank`, as (offset, count) in elements from the
/// buffer's start: what [`read_transfers`] may write there. MPI leaves the
/// rest of the array to the program.
fn owned_elements(
    f: &ExprFactory,
    kind: Kind,
    a: &Significant,
    n: usize,
    rank: usize,
) -> Option<Vec<(Expr, Expr)>> {
    let zero = f.int(0);
    let nn = f.int(n as i64);
    let count = |x: &Option<Expr>| x.unwrap_or(zero);
    let at = |xs: &Option<Vec<Expr>>, k: usize| xs.as_ref().and_then(|v| v.get(k).copied());
    Some(match kind {
        Kind::Bcast | Kind::Reduce | Kind::Allreduce | Kind::Scan | Kind::Exscan => {
            vec![(zero, count(&a.scount))]
        }
        Kind::ReduceScatter => vec![(zero, at(&a.rcounts, rank)?)],
        Kind::Gather | Kind::Allgather | Kind::Alltoall => {
            vec![(zero, f.mul(count(&a.rcount), nn))]
        }
        Kind::Scatter | Kind::Scatterv => vec![(zero, count(&a.rcount))],
        Kind::Gatherv | Kind::Allgatherv | Kind::Alltoallv => (0..n)
            .map(|i| Some((at(&a.rdispls, i)?, at(&a.rcounts, i)?)))
            .collect::<Option<Vec<_>>>()?,
        Kind::Barrier | Kind::CommDup | Kind::CommSplit | Kind::CommFree => return None,
    })
}

/// For a posted nonblocking collective: the elements `owned` of the receive
/// buffer `arg` (offsets and counts from its start) read as undefined until
/// the wait; when they are not all known and inside the array, the whole
/// object the buffer lies in does. Returns what is held, with its values
/// now; `None` for a NULL or invalid buffer.
fn hold_back(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    arg: &MExpr,
    owned: Option<&[(Expr, Expr)]>,
    span: &Span,
) -> Result<Option<Held>, EngineError> {
    let f = ev.factory();
    let ptr = ev.eval(&*env, arg)?;
    if !matches!(&ptr, Value::Pointer(p) if !p.is_null()) {
        return Ok(None);
    }
    let (root, mut path) = ev.deref_place(&*env, ptr, true, span, &|| "receive buffer".into())?;
    if let Some(held) = hold_elements(ev, env, arg, owned, span)? {
        return Ok(Some(held));
    }
    // The whole object the buffer lies in (an array the pointer indexes).
    if matches!(path.last(), Some(PStep::Index(_))) {
        path.pop();
    }
    let place = (root, path.clone());
    let before = ev.read_place(&*env, &place);
    let marker = match &before {
        Value::Data(x) => Value::Data(undefined_data(f, f.type_of(*x))),
        _ => Value::Undefined,
    };
    ev.write_place(env, &place, marker.clone(), span)?;
    let pointer = Value::Pointer(Pointer::To { root, path });
    Ok(Some(Held::Object(pointer, marker, before)))
}

/// [`hold_back`] for the elements `owned` of the data array buffer `arg`
/// points into, when their offsets, counts and the buffer's position are
/// concrete and they lie inside the array (else `None`: out-of-bounds
/// transfers are reported when the operation is performed).
fn hold_elements(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    arg: &MExpr,
    owned: Option<&[(Expr, Expr)]>,
    span: &Span,
) -> Result<Option<Held>, EngineError> {
    let f = ev.factory();
    let Some(owned) = owned else {
        return Ok(None);
    };
    let concrete = |e: Expr| f.as_concrete_int(e).and_then(|k| i64::try_from(k).ok());
    let mut parts = Vec::with_capacity(owned.len());
    for &(off, cnt) in owned {
        match (concrete(off), concrete(cnt)) {
            (Some(o), Some(c)) if o >= 0 && (0..=CONCRETE_LIMIT).contains(&c) => parts.push((o, c)),
            _ => return Ok(None),
        }
    }
    let span_count = parts.iter().map(|&(o, c)| o + c).max().unwrap_or(0);
    let Buffer::Array {
        root,
        prefix,
        start,
        array,
    } = locate(ev, &*env, BufArg::Expr(arg), f.int(span_count), span)?
    else {
        return Ok(None);
    };
    let t = f.type_of(array);
    let (Some(start), Some(inner), Some(extent)) = (
        concrete(start),
        inner_size(f, &t).and_then(concrete),
        f.array_extent(array).and_then(concrete),
    ) else {
        return Ok(None);
    };
    let base = start * inner;
    let total = extent * inner;
    let mut indices: Vec<i64> = parts
        .iter()
        .flat_map(|&(o, c)| (base + o)..(base + o + c))
        .collect();
    indices.sort_unstable();
    indices.dedup();
    if base < 0
        || indices.last().is_some_and(|&k| k >= total)
        || indices.len() as i64 > CONCRETE_LIMIT
    {
        return Ok(None);
    }
    let before: Vec<(i64, Expr)> = indices
        .iter()
        .map(|&k| (k, flat_read(f, array, f.int(k))))
        .collect();
    let marked = set_elements(
        ev,
        Value::Data(array),
        &undefined_elements(f, array, &before),
        span,
    )?;
    ev.write_place(env, &(root, prefix.clone()), marked, span)?;
    let pointer = Value::Pointer(Pointer::To { root, path: prefix });
    Ok(Some(Held::Elements(pointer, before)))
}

/// Evaluates the arguments of collective call `call` that are significant at
/// its process (`is_root`: it is the root); `None` when the path died.
fn significant_args(
    ev: &mut Evaluator<'_>,
    env: &ProcEnv<'_>,
    call: &Call<'_>,
    kind: Kind,
    n: usize,
    is_root: bool,
) -> Result<Option<Significant>, EngineError> {
    let f = ev.factory();
    let (a, span, lf) = (call.args, call.span, call.lf);
    let pos = positions(kind);
    let sends = !matches!(kind, Kind::Scatter | Kind::Scatterv) || is_root;
    let receives = !matches!(kind, Kind::Gather | Kind::Gatherv) || is_root;
    let rbuf_significant = receives && (kind != Kind::Reduce || is_root);
    let mut out = Significant::default();
    let int = |ev: &mut Evaluator<'_>, k: Option<usize>| match k {
        Some(k) => ev.eval_int(env, &a[k]).map(Some),
        None => Ok(None),
    };
    let dt = |ev: &mut Evaluator<'_>, k: Option<usize>| match k {
        Some(k) => dtype_of(ev, env, &a[k], span).map(Some),
        None => Ok(None),
    };
    // An array of one int per member (`Err(())`: the path died).
    let ints = |ev: &mut Evaluator<'_>,
                k: Option<usize>,
                counts: bool|
     -> Result<Result<Option<Vec<Expr>>, ()>, EngineError> {
        let Some(k) = k else { return Ok(Ok(None)) };
        let Some(array) = read_buffer(ev, env, &a[k], f.int(n as i64), f.int(0), &Type::Int, span)?
        else {
            return Ok(Err(()));
        };
        let xs: Vec<Expr> = (0..n as i64)
            .map(|j| f.array_read(array, f.int(j)))
            .collect();
        if counts {
            for (j, &x) in xs.iter().enumerate() {
                let nonneg = f.le(f.int(0), x);
                ev.check(
                    env,
                    nonneg,
                    Property::MpiCount,
                    || {
                        format!(
                            "negative count {} (element {j} of the counts of {})",
                            f.pretty(x),
                            lf.c_name()
                        )
                    },
                    span,
                );
            }
        }
        Ok(Ok(Some(xs)))
    };
    if sends {
        out.stype = dt(ev, pos.stype)?;
        out.scount = int(ev, pos.scount)?;
        let (Ok(counts), Ok(displs)) =
            (ints(ev, pos.scounts, true)?, ints(ev, pos.sdispls, false)?)
        else {
            return Ok(None);
        };
        (out.scounts, out.sdispls) = (counts, displs);
    }
    if receives {
        out.rtype = dt(ev, pos.rtype)?;
        out.rcount = int(ev, pos.rcount)?;
        let (Ok(counts), Ok(displs)) =
            (ints(ev, pos.rcounts, true)?, ints(ev, pos.rdispls, false)?)
        else {
            return Ok(None);
        };
        if let (Some(counts), Some(displs)) = (&counts, &displs) {
            check_disjoint_receives(ev, env, counts, displs, lf, span);
        }
        (out.rcounts, out.rdispls) = (counts, displs);
    }
    // The buffers' C types must be the datatype's.
    let rbuf_type = out.rtype.clone().or_else(|| out.stype.clone());
    let checks = [
        (pos.sbuf.filter(|_| sends), out.stype.clone()),
        (pos.rbuf.filter(|_| rbuf_significant), rbuf_type),
    ];
    for (k, t) in checks {
        if let (Some(k), Some(t)) = (k, t) {
            if !buffer_type_ok(ev, env, &a[k], &t, lf, span) {
                return Ok(None);
            }
        }
    }
    if kind == Kind::CommSplit {
        let color = ev.eval_int(env, &a[1])?;
        let key = ev.eval_int(env, &a[2])?;
        let concrete = |e: Expr, what: &str| {
            f.as_concrete_int(e)
                .and_then(|k| i64::try_from(k).ok())
                .ok_or_else(|| {
                    EngineError::unsupported(
                        format!("MPI_Comm_split with a {what} that depends on the inputs"),
                        span,
                    )
                })
        };
        let (color, key) = (concrete(color, "color")?, concrete(key, "key")?);
        if color < 0 && color != UNDEFINED {
            ev.fail(
                env,
                Property::MpiCount,
                format!(
                    "MPI_Comm_split with color {color}: a color is non-negative or MPI_UNDEFINED"
                ),
                span,
            );
            return Ok(None);
        }
        out.split = Some((color, key));
    }
    Ok(Some(out))
}

/// MPI makes a call erroneous when its receive counts and displacements would
/// write a location of the receive buffer twice (`MPI_Gatherv`,
/// `MPI_Allgatherv`, `MPI_Alltoallv`): every two non-empty regions
/// `[displs[i], displs[i] + counts[i])` must be disjoint (`mpi-count`).
fn check_disjoint_receives(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    counts: &[Expr],
    displs: &[Expr],
    lf: LF,
    span: &Span,
) {
    let f = ev.factory();
    for i in 0..counts.len() {
        for k in i + 1..counts.len() {
            let (ci, ck, di, dk) = (counts[i], counts[k], displs[i], displs[k]);
            let empty = f.or(f.le(ci, f.int(0)), f.le(ck, f.int(0)));
            let apart = f.or(f.le(f.add(di, ci), dk), f.le(f.add(dk, ck), di));
            let claim = f.or(empty, apart);
            ev.check(
                env,
                claim,
                Property::MpiCount,
                || {
                    format!(
                        "{}: the receive regions of ranks {i} and {k} overlap (displacements {} \
                         and {}, counts {} and {})",
                        lf.c_name(),
                        f.pretty(di),
                        f.pretty(dk),
                        f.pretty(ci),
                        f.pretty(ck)
                    )
                },
                span,
            );
        }
    }
}

/// Checks that the buffer `arg` points to holds elements of datatype `dt` (when
/// its C type is known); reports an `mpi-type` violation otherwise.
fn buffer_type_ok(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    arg: &MExpr,
    dt: &DType,
    lf: LF,
    span: &Span,
) -> bool {
    let DType::Scalar(c, want) = dt else {
        return true; // pair buffers are checked field by field
    };
    let Some(got) = BufArg::Expr(arg).scalar_pointee() else {
        return true;
    };
    // Integers and characters mix freely (`MPI_BYTE` on `unsigned char`, ...);
    // floating data under an integer datatype (or the reverse) is the error.
    if (got == Type::Real) == (*want == Type::Real) {
        return true;
    }
    let text = tass_model::api::render_expr(env.model(), arg);
    ev.fail(
        env,
        Property::MpiType,
        format!(
            "{}: buffer `{text}` holds {} elements but the datatype is {}",
            lf.c_name(),
            type_name(&got),
            c.c_name()
        ),
        span,
    );
    false
}

/// Checks that sent count `sent` fits the count `posted` for it: more is a
/// `buffer-overflow`, fewer a `collective-mismatch`.
fn check_fit(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    sent: Expr,
    posted: Expr,
    what: &dyn Fn() -> String,
    span: &Span,
) {
    let f = ev.factory();
    let fits = f.le(sent, posted);
    ev.check(
        env,
        fits,
        Property::BufferOverflow,
        || {
            format!(
                "{}: {} elements sent, {} posted to receive them",
                what(),
                f.pretty(sent),
                f.pretty(posted)
            )
        },
        span,
    );
    let same = f.eq(sent, posted);
    ev.check(
        env,
        same,
        Property::CollectiveMismatch,
        || {
            format!(
                "{}: {} elements sent, {} posted to receive them",
                what(),
                f.pretty(sent),
                f.pretty(posted)
            )
        },
        span,
    );
}

/// Phase 3: datatypes, operations and counts agree. `false` if the path died.
fn check_agreement(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &mut State,
    members: &[Member<'_>],
    root: Option<usize>,
    violations: &mut Vec<Violation>,
) -> Result<bool, EngineError> {
    let f = ctx.f;
    let n = members.len();
    let kind = members[0].kind;
    let name = members[0].lf.c_name();
    // Datatypes: every significant one is the same.
    let reference = members.iter().find_map(|m| {
        m.args
            .stype
            .clone()
            .or_else(|| m.args.rtype.clone())
            .map(|t| (m.world, t))
    });
    if let Some((w0, t0)) = reference {
        for m in members {
            for t in [&m.args.stype, &m.args.rtype].into_iter().flatten() {
                if *t != t0 {
                    let msg = format!(
                        "process {} uses datatype {} in {name} while process {w0} uses {}",
                        m.world,
                        t.constant().c_name(),
                        t0.constant().c_name()
                    );
                    as_process(ctx, oracle, state, m.world, violations, |ev, env| {
                        ev.fail(&*env, Property::CollectiveMismatch, msg, m.span);
                        Ok(())
                    })?;
                    return Ok(false);
                }
            }
        }
        // The operation must suit the datatype.
        if let Some(op) = members[0].op {
            let loc = matches!(op, Op::Maxloc | Op::Minloc);
            let problem = match &t0 {
                DType::Pair(c) if !loc => Some(format!(
                    "{} is a pair datatype, only for MPI_MAXLOC and MPI_MINLOC, not {}",
                    c.c_name(),
                    op_name(op)
                )),
                DType::Scalar(c, _) if loc => Some(format!(
                    "{} needs a pair datatype (MPI_DOUBLE_INT, MPI_2INT), not {}",
                    op_name(op),
                    c.c_name()
                )),
                // MPI defines no reduction on MPI_CHAR (text), only bitwise
                // ones on MPI_BYTE.
                DType::Scalar(LC::MpiChar, _) => Some(format!(
                    "MPI defines no reduction on MPI_CHAR, a datatype for text (reduce \
                     the values as MPI_INT), so not {}",
                    op_name(op)
                )),
                DType::Scalar(LC::MpiByte, _) if !matches!(op, Op::Band | Op::Bor) => {
                    Some(format!(
                        "MPI_BYTE takes only the bitwise operations MPI_BAND and MPI_BOR, not {}",
                        op_name(op)
                    ))
                }
                DType::Scalar(c, Type::Real)
                    if matches!(op, Op::Land | Op::Lor | Op::Band | Op::Bor) =>
                {
                    Some(format!(
                        "{} is not defined on the floating datatype {}",
                        op_name(op),
                        c.c_name()
                    ))
                }
                _ => None,
            };
            if let Some(msg) = problem {
                let m = &members[0];
                as_process(ctx, oracle, state, m.world, violations, |ev, env| {
                    ev.fail(&*env, Property::MpiType, format!("{name}: {msg}"), m.span);
                    Ok(())
                })?;
                return Ok(false);
            }
        }
    }
    let zero = f.int(0);
    let at = |xs: &Option<Vec<Expr>>, k: usize| {
        xs.as_ref().and_then(|v| v.get(k).copied()).unwrap_or(zero)
    };
    let count = |x: &Option<Expr>| x.unwrap_or(zero);
    for j in 0..n {
        let m = &members[j];
        let (w, span) = (m.world, m.span);
        as_process(ctx, oracle, state, w, violations, |ev, env| {
            let env = &*env;
            match kind {
                Kind::Bcast | Kind::Reduce | Kind::Allreduce | Kind::Scan | Kind::Exscan => {
                    let (c0, c) = (count(&members[0].args.scount), count(&m.args.scount));
                    let same = f.eq(c0, c);
                    let w0 = members[0].world;
                    ev.check(
                        env,
                        same,
                        Property::CollectiveMismatch,
                        || {
                            format!(
                                "process {w} gives count {} to {name} while process {w0} gives {}",
                                f.pretty(c),
                                f.pretty(c0)
                            )
                        },
                        span,
                    );
                }
                Kind::ReduceScatter => {
                    let w0 = members[0].world;
                    for k in 0..n {
                        let (c0, c) = (at(&members[0].args.rcounts, k), at(&m.args.rcounts, k));
                        let same = f.eq(c0, c);
                        ev.check(env, same, Property::CollectiveMismatch, || format!("process {w} gives recvcounts[{k}] = {} to {name} while process {w0} gives {}", f.pretty(c), f.pretty(c0)), span);
                    }
                }
                // The gathering process (the root, or every process for
                // Allgather) checks each contribution against what it posted.
                Kind::Gather | Kind::Gatherv | Kind::Allgather | Kind::Allgatherv
                    if root.is_none() || root == Some(j) =>
                {
                    for (i, s) in members.iter().enumerate() {
                        let posted = if matches!(kind, Kind::Gather | Kind::Allgather) {
                            count(&m.args.rcount)
                        } else {
                            at(&m.args.rcounts, i)
                        };
                        check_fit(
                            ev,
                            env,
                            count(&s.args.scount),
                            posted,
                            &|| format!("{name}: process {} sends to process {w}", s.world),
                            span,
                        );
                    }
                }
                Kind::Scatter | Kind::Scatterv => {
                    if let Some(r) = root {
                        let rm = &members[r];
                        let sent = if kind == Kind::Scatter {
                            count(&rm.args.scount)
                        } else {
                            at(&rm.args.scounts, j)
                        };
                        check_fit(
                            ev,
                            env,
                            sent,
                            count(&m.args.rcount),
                            &|| format!("{name}: root {} sends to process {w}", rm.world),
                            span,
                        );
                    }
                }
                Kind::Alltoall | Kind::Alltoallv => {
                    for (i, s) in members.iter().enumerate() {
                        let (sent, posted) = if kind == Kind::Alltoall {
                            (count(&s.args.scount), count(&m.args.rcount))
                        } else {
                            (at(&s.args.scounts, j), at(&m.args.rcounts, i))
                        };
                        check_fit(
                            ev,
                            env,
                            sent,
                            posted,
                            &|| format!("{name}: process {} sends to process {w}", s.world),
                            span,
                        );
                    }
                }
                _ => {}
            }
            // Displacements are offsets into the buffer: never negative.
            for xs in [&m.args.sdispls, &m.args.rdispls].into_iter().flatten() {
                for (k, &d) in xs.iter().enumerate() {
                    let ok = f.le(f.int(0), d);
                    ev.check(
                        env,
                        ok,
                        Property::OutOfBounds,
                        || {
                            format!(
                                "negative displacement {} (element {k}) in {name}",
                                f.pretty(d)
                            )
                        },
                        span,
                    );
                }
            }
            Ok(())
        })?;
        if path_dead(ctx, state) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Data for the receive buffer of member `dest` (argument `arg`).
struct Transfer {
    dest: usize,
    arg: usize,
    capacity: Expr,
    offset: Expr,
    n: Expr,
    data: Data,
    /// The buffer is not significant: nothing is written when it is NULL.
    optional: bool,
}

/// Phase 4: reads every contribution and computes what each member receives.
fn read_transfers(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &mut State,
    members: &[Member<'_>],
    root: Option<usize>,
    violations: &mut Vec<Violation>,
) -> Result<Option<Vec<Transfer>>, EngineError> {
    let f = ctx.f;
    let n = members.len();
    let kind = members[0].kind;
    let pos = positions(kind);
    let zero = f.int(0);
    let count = |x: &Option<Expr>| x.unwrap_or(zero);
    let at = |xs: &Option<Vec<Expr>>, k: usize| {
        xs.as_ref().and_then(|v| v.get(k).copied()).unwrap_or(zero)
    };
    let sum = |xs: &Option<Vec<Expr>>, k: usize| (0..k).fold(zero, |acc, i| f.add(acc, at(xs, i)));
    let nn = f.int(n as i64);
    let (Some(sbuf), rbuf) = (pos.sbuf, pos.rbuf.unwrap_or(0)) else {
        return Ok(Some(Vec::new()));
    };
    // read(i, offset, count): a contribution of member i.
    let mut read = |state: &mut State,
                    i: usize,
                    offset: Expr,
                    cnt: Expr|
     -> Result<Option<Data>, EngineError> {
        let m = &members[i];
        if let Some(pieces) = &m.pieces {
            return match pieces.iter().find(|(o, c, _)| *o == offset && *c == cnt) {
                Some((_, _, d)) => Ok(Some(d.clone())),
                None => Err(EngineError::invalid(
                    "collective: a piece of send data not read at the post",
                    Some(m.span),
                )),
            };
        }
        let Some(call) = &m.call else {
            return Ok(None);
        };
        let dt = m
            .args
            .stype
            .clone()
            .unwrap_or(DType::Scalar(LC::MpiInt, Type::Int));
        as_process(ctx, oracle, state, m.world, violations, |ev, env| {
            read_data(ev, &*env, &call.args[sbuf], cnt, offset, &dt, m.span)
        })
    };
    let mut out = Vec::new();
    macro_rules! get {
        ($e:expr) => {
            match $e? {
                Some(d) => d,
                None => return Ok(None),
            }
        };
    }
    match kind {
        Kind::Bcast => {
            let Some(r) = root else { return Ok(Some(out)) };
            let c = count(&members[r].args.scount);
            let d = get!(read(state, r, zero, c));
            for (j, m) in members.iter().enumerate() {
                if j != r {
                    out.push(Transfer {
                        dest: j,
                        arg: sbuf,
                        capacity: count(&m.args.scount),
                        offset: zero,
                        n: c,
                        data: d.clone(),
                        optional: false,
                    });
                }
            }
        }
        Kind::Reduce | Kind::Allreduce | Kind::Scan | Kind::Exscan => {
            let c = count(&members[0].args.scount);
            let op = members[0].op.unwrap_or(Op::Sum);
            let mut xs = Vec::with_capacity(n);
            for (i, m) in members.iter().enumerate() {
                xs.push(get!(read(state, i, zero, count(&m.args.scount))));
            }
            for j in 0..n {
                let upto = match kind {
                    Kind::Reduce if root != Some(j) => continue,
                    Kind::Scan => j + 1,
                    Kind::Exscan if j == 0 => {
                        // MPI: rank 0's result is undefined (and its buffer not
                        // significant): a later read of it is reported.
                        out.push(Transfer {
                            dest: 0,
                            arg: rbuf,
                            capacity: c,
                            offset: zero,
                            n: c,
                            data: undefined_like(f, &xs[0]),
                            optional: true,
                        });
                        continue;
                    }
                    Kind::Exscan => j,
                    _ => n,
                };
                let part: Vec<&Data> = xs[..upto].iter().collect();
                out.push(Transfer {
                    dest: j,
                    arg: rbuf,
                    capacity: c,
                    offset: zero,
                    n: c,
                    data: reduce(f, op, &part, c),
                    optional: false,
                });
            }
        }
        Kind::ReduceScatter => {
            let counts = &members[0].args.rcounts;
            let total = sum(counts, n);
            let op = members[0].op.unwrap_or(Op::Sum);
            let mut xs = Vec::with_capacity(n);
            for (i, m) in members.iter().enumerate() {
                xs.push(get!(read(state, i, zero, sum(&m.args.rcounts, n))));
            }
            let part: Vec<&Data> = xs.iter().collect();
            let all = reduce(f, op, &part, total);
            for (j, m) in members.iter().enumerate() {
                let c = at(counts, j);
                let d = slice(f, &all, sum(counts, j), c, m.span)?;
                out.push(Transfer {
                    dest: j,
                    arg: rbuf,
                    capacity: c,
                    offset: zero,
                    n: c,
                    data: d,
                    optional: false,
                });
            }
        }
        Kind::Gather | Kind::Gatherv | Kind::Allgather | Kind::Allgatherv => {
            let mut xs = Vec::with_capacity(n);
            for (i, m) in members.iter().enumerate() {
                xs.push(get!(read(state, i, zero, count(&m.args.scount))));
            }
            for (j, m) in members.iter().enumerate() {
                if matches!(kind, Kind::Gather | Kind::Gatherv) && root != Some(j) {
                    continue;
                }
                for (i, d) in xs.iter().enumerate() {
                    let (offset, capacity) = if matches!(kind, Kind::Gather | Kind::Allgather) {
                        let rc = count(&m.args.rcount);
                        (f.mul(rc, f.int(i as i64)), f.mul(rc, nn))
                    } else {
                        let off = at(&m.args.rdispls, i);
                        (off, f.add(off, at(&m.args.rcounts, i)))
                    };
                    out.push(Transfer {
                        dest: j,
                        arg: rbuf,
                        capacity,
                        offset,
                        n: count(&members[i].args.scount),
                        data: d.clone(),
                        optional: false,
                    });
                }
            }
        }
        Kind::Scatter | Kind::Scatterv => {
            let Some(r) = root else { return Ok(Some(out)) };
            let rm = &members[r];
            for (j, m) in members.iter().enumerate() {
                let (offset, c) = if kind == Kind::Scatter {
                    let sc = count(&rm.args.scount);
                    (f.mul(sc, f.int(j as i64)), sc)
                } else {
                    (at(&rm.args.sdispls, j), at(&rm.args.scounts, j))
                };
                let d = get!(read(state, r, offset, c));
                out.push(Transfer {
                    dest: j,
                    arg: rbuf,
                    capacity: count(&m.args.rcount),
                    offset: zero,
                    n: c,
                    data: d,
                    optional: false,
                });
            }
        }
        Kind::Alltoall | Kind::Alltoallv => {
            for (i, s) in members.iter().enumerate() {
                for (j, m) in members.iter().enumerate() {
                    let (soff, c, roff, capacity) = if kind == Kind::Alltoall {
                        let (sc, rc) = (count(&s.args.scount), count(&m.args.rcount));
                        (
                            f.mul(sc, f.int(j as i64)),
                            sc,
                            f.mul(rc, f.int(i as i64)),
                            f.mul(rc, nn),
                        )
                    } else {
                        let roff = at(&m.args.rdispls, i);
                        (
                            at(&s.args.sdispls, j),
                            at(&s.args.scounts, j),
                            roff,
                            f.add(roff, at(&m.args.rcounts, i)),
                        )
                    };
                    let d = get!(read(state, i, soff, c));
                    out.push(Transfer {
                        dest: j,
                        arg: rbuf,
                        capacity,
                        offset: roff,
                        n: c,
                        data: d,
                        optional: false,
                    });
                }
            }
        }
        Kind::Barrier | Kind::CommDup | Kind::CommSplit | Kind::CommFree => {}
    }
    Ok(Some(out))
}

/// `MPI_Comm_dup`, `MPI_Comm_split`, `MPI_Comm_free`: make or free the
/// communicators and write the handles through the members' pointer arguments.
fn comm_operation(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &mut State,
    members: &[Member<'_>],
    comm: u32,
    violations: &mut Vec<Violation>,
) -> Result<(), EngineError> {
    let kind = members[0].kind;
    let handles: Vec<(usize, Value)> = match kind {
        Kind::CommDup => {
            let worlds = members.iter().map(|m| m.world as u32).collect();
            let k = comm::new_comm(state, worlds);
            (0..members.len())
                .map(|j| (j, Value::Handle(Handle::Comm(k))))
                .collect()
        }
        Kind::CommSplit => {
            // color -> (key, old rank, world rank) of its members
            let mut groups: BTreeMap<i64, Vec<(i64, usize, u32)>> = BTreeMap::new();
            let mut out = Vec::new();
            for (j, m) in members.iter().enumerate() {
                match m.args.split {
                    Some((color, _)) if color == UNDEFINED => {
                        out.push((j, Value::Handle(Handle::Constant(LC::MpiCommNull))));
                    }
                    Some((color, key)) => {
                        groups
                            .entry(color)
                            .or_default()
                            .push((key, j, m.world as u32))
                    }
                    None => {}
                }
            }
            for (_, mut g) in groups {
                g.sort();
                let k = comm::new_comm(state, g.iter().map(|&(_, _, w)| w).collect());
                out.extend(
                    g.iter()
                        .map(|&(_, j, _)| (j, Value::Handle(Handle::Comm(k)))),
                );
            }
            out.sort_by_key(|(j, _)| *j);
            out
        }
        Kind::CommFree => {
            comm::free_comm(state, comm);
            (0..members.len())
                .map(|j| (j, Value::Handle(Handle::Constant(LC::MpiCommNull))))
                .collect()
        }
        _ => Vec::new(),
    };
    let out_arg = match kind {
        Kind::CommDup => 1,
        Kind::CommSplit => 3,
        _ => 0,
    };
    for (j, h) in handles {
        let m = &members[j];
        let Some(call) = &m.call else { continue };
        as_process(ctx, oracle, state, m.world, violations, |ev, env| {
            let ptr = ev.eval(&*env, &call.args[out_arg])?;
            let place = ev.deref_place(&*env, ptr, false, m.span, &|| "new communicator".into())?;
            ev.write_place(env, &place, h, m.span)
        })?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_combine_elementwise() {
        let f = ExprFactory::new();
        let ty = Type::array(Type::Int, Some(f.int(2)));
        let a = f.array_literal(ty.clone(), &[f.int(1), f.int(5)]);
        let b = f.array_literal(ty, &[f.int(4), f.int(2)]);
        let sum = reduce_arrays(&f, Op::Sum, &[a, b], f.int(2), 0);
        assert_eq!(f.array_read(sum, f.int(0)), f.int(5));
        assert_eq!(f.array_read(sum, f.int(1)), f.int(7));
        let max = reduce_arrays(&f, Op::Max, &[a, b], f.int(2), 0);
        assert_eq!(f.array_read(max, f.int(0)), f.int(4));
        assert_eq!(f.array_read(max, f.int(1)), f.int(5));
        assert_eq!(combine(&f, Op::Land, f.int(3), f.int(0)), f.int(0));
        assert_eq!(combine(&f, Op::Lor, f.int(3), f.int(0)), f.int(1));
    }

    #[test]
    fn maxloc_and_minloc_break_ties_by_the_smaller_index() {
        let f = ExprFactory::new();
        let p = |v: i64, i: i64| (f.int(v), f.int(i));
        assert_eq!(combine_loc(&f, Op::Maxloc, p(3, 2), p(5, 0)), p(5, 0));
        assert_eq!(combine_loc(&f, Op::Maxloc, p(5, 2), p(5, 1)), p(5, 1));
        assert_eq!(combine_loc(&f, Op::Maxloc, p(5, 1), p(5, 2)), p(5, 1));
        assert_eq!(combine_loc(&f, Op::Minloc, p(3, 2), p(5, 0)), p(3, 2));
        assert_eq!(combine_loc(&f, Op::Minloc, p(3, 4), p(3, 0)), p(3, 0));
        let xs = [
            Data::Pairs(vec![p(1, 0), p(9, 0)]),
            Data::Pairs(vec![p(4, 1), p(2, 1)]),
            Data::Pairs(vec![p(4, 2), p(9, 2)]),
        ];
        let refs: Vec<&Data> = xs.iter().collect();
        let Data::Pairs(r) = reduce(&f, Op::Maxloc, &refs, f.int(2)) else {
            panic!("pairs reduce to pairs")
        };
        assert_eq!(r, vec![p(4, 1), p(9, 0)]);
    }

    #[test]
    fn every_collective_has_its_communicator_and_request_where_the_header_says() {
        // (function, position of the communicator) after mpi.h's prototypes.
        let table = [
            (LF::MpiBarrier, 0),
            (LF::MpiBcast, 4),
            (LF::MpiReduce, 6),
            (LF::MpiAllreduce, 5),
            (LF::MpiGather, 7),
            (LF::MpiGatherv, 8),
            (LF::MpiScatter, 7),
            (LF::MpiScatterv, 8),
            (LF::MpiAllgather, 6),
            (LF::MpiAllgatherv, 7),
            (LF::MpiAlltoall, 6),
            (LF::MpiAlltoallv, 8),
            (LF::MpiScan, 5),
            (LF::MpiExscan, 5),
            (LF::MpiReduceScatter, 5),
            (LF::MpiIbarrier, 0),
            (LF::MpiIalltoallv, 8),
            (LF::MpiIreduceScatter, 5),
            (LF::MpiCommDup, 0),
            (LF::MpiCommSplit, 0),
            (LF::MpiCommFree, 0),
        ];
        for (lf, comm) in table {
            assert!(is_collective(lf), "{lf:?}");
            assert_eq!(comm_arg(lf), comm, "{lf:?}");
        }
        assert!(!is_collective(LF::MpiSend));
    }

    #[test]
    fn slices_of_reduced_arrays() {
        let f = ExprFactory::new();
        let ty = Type::array(Type::Int, Some(f.int(4)));
        let a = f.array_literal(ty, &[f.int(1), f.int(2), f.int(3), f.int(4)]);
        let span = Span::synthetic();
        let Ok(Data::Flat(s)) = slice(&f, &Data::Flat(a), f.int(1), f.int(2), &span) else {
            panic!("a flat slice")
        };
        assert_eq!(f.array_read(s, f.int(0)), f.int(2));
        assert_eq!(f.array_read(s, f.int(1)), f.int(3));
    }
}
