//! What a posted nonblocking collective keeps in its request.

use crate::mpi::buffer::{Elements, Reader};
use smallvec::SmallVec;
use tass_dynamic::api::{
    is_undefined_data, undefined_data, write_at, Pointer, Step as PStep, Value,
};
use tass_model::api::{FunctionId, LibraryFunction as LF, Model, Span, TransitionId};
use tass_semantics::api::{EngineError, Evaluator, Property};
use tass_symbolic::api::{Expr, ExprFactory, Type};

use super::data::{concrete_small, Op};
use super::kind::Kind;
use super::members::{Piece, Significant};
use crate::env::ProcEnv;
use crate::mpi::buffer::{
    flat_path, flat_read, inner_size, locate, scalar_of, BufArg, Buffer, CONCRETE_LIMIT,
};
use crate::mpi::context::MpiCall;

/// Where the result of a posted nonblocking collective goes in its process.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Target {
    /// The argument position of the buffer.
    pub(crate) arg: usize,
    /// The buffer pointer, as it was at the post.
    pub(crate) pointer: Value,
    pub(crate) pointee: Option<Type>,
    /// What of the buffer reads as undefined until the wait, with its
    /// values at the post.
    pub(crate) hold: Option<Held>,
}

/// One member's nonblocking or persistent collective call as the match sees
/// it: what the members must agree on, and the arguments significant at this
/// member, evaluated. A [`Bound`] and a [`Posted`] both keep one.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct MemberCall {
    pub comm: u32,
    pub lf: LF,
    pub(super) root: Option<Expr>,
    pub(super) op: Option<Op>,
    pub(super) args: Significant,
    /// For a persistent collective: how many persistent collectives the
    /// process initialised on the communicator before this one (MPI requires
    /// the inits in the same order at every member).
    pub(crate) init_ordinal: Option<u32>,
}

/// A nonblocking collective a process posted that not every member of the
/// communicator has posted yet: what the operation needs from this member.
/// (Not the whole [`Bound`]: its buffer pointers are kept only where the
/// wait needs them, in `targets` and `sent`, so that posts that differ only
/// in an unused pointer stay one state.)
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Posted {
    pub(crate) call: MemberCall,
    /// The send data, read at the post (MPI forbids changing it until the
    /// operation completes).
    pub(super) pieces: Vec<Piece>,
    pub(super) targets: Vec<Target>,
    /// What the match and the wait check is still in the send buffer.
    pub(super) sent: Option<Sent>,
}

/// A collective call's arguments significant at its process, evaluated (at
/// the call of a nonblocking collective, at the init of a persistent one,
/// which binds them): what each post needs besides the send data.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Bound {
    pub(crate) call: MemberCall,
    pub(super) kind: Kind,
    pub(super) rank: usize,
    pub(super) size: usize,
    pub(super) is_root: bool,
    /// The send buffer pointer and its scalar pointee type.
    pub(crate) send: Option<(Value, Option<Type>)>,
    /// The receive buffers: (argument position, pointer, pointee); optional
    /// NULL ones left out.
    pub(crate) receive: Vec<(usize, Value, Option<Type>)>,
}

impl Bound {
    /// The pointers it holds (heap canonicalization follows them).
    pub(crate) fn pointers(&self) -> Vec<&Value> {
        let send = self.send.iter().map(|(v, _)| v);
        send.chain(self.receive.iter().map(|(_, v, _)| v)).collect()
    }

    pub(crate) fn pointers_mut(&mut self) -> Vec<&mut Value> {
        let send = self.send.iter_mut().map(|(v, _)| v);
        send.chain(self.receive.iter_mut().map(|(_, v, _)| v))
            .collect()
    }
}

/// The send data of a nonblocking collective as it was at the post, to check
/// that the program did not change it before the operation completed.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Sent {
    pub(crate) lf: LF,
    pub(crate) line: u32,
    pub(crate) pointer: Value,
    pub(crate) pointee: Option<Type>,
    pub(crate) ty: Type,
    /// (flat offset, count, data) of each piece, the count concrete.
    pub(crate) pieces: Vec<(Expr, Expr, Expr)>,
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
pub(crate) fn check_sent(
    ev: &mut Evaluator<'_>,
    env: &ProcEnv<'_>,
    sent: &Sent,
    (when, property): (&str, Property),
    span: &Span,
) -> Result<(), EngineError> {
    let f = ev.factory();
    for &(off, cnt, data) in &sent.pieces {
        let arg = BufArg::Stored(&sent.pointer, sent.pointee.as_ref());
        let Some(now) =
            Reader::new(ev, env, span).read_buffer(Elements::new(arg, cnt, off), &sent.ty)?
        else {
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
            property,
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
    pub(crate) fn intact(
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
    pub(crate) fn release(
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
    pub(crate) fn hold_again(
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
pub(super) fn set_elements(
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
pub(super) fn undefined_elements(f: &ExprFactory, a: Expr, at: &[(i64, Expr)]) -> Vec<(i64, Expr)> {
    let marker = undefined_data(f, scalar_of(&f.type_of(a)));
    at.iter().map(|&(k, _)| (k, marker)).collect()
}

/// The parts of its receive buffer a nonblocking collective owns at the
/// member of comm rank `rank`, as (offset, count) in elements from the
/// buffer's start: what [`read_transfers`] may write there. MPI leaves the
/// rest of the array to the program.
pub(super) fn owned_elements(
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
        Kind::Barrier
        | Kind::CommDup
        | Kind::CommSplit
        | Kind::CommFree
        | Kind::CommCreate
        | Kind::CartCreate => return None,
    })
}

impl MpiCall<'_, '_, '_> {
    /// For a posted nonblocking collective: the elements `owned` of the receive
    /// buffer `arg` (offsets and counts from its start) read as undefined until
    /// the wait; when they are not all known and inside the array, the whole
    /// object the buffer lies in does. Returns what is held, with its values
    /// now; `None` for a NULL or invalid buffer.
    pub(super) fn hold_back(
        &mut self,
        arg: BufArg<'_>,
        owned: Option<&[(Expr, Expr)]>,
    ) -> Result<Option<Held>, EngineError> {
        let (ev, env, call) = self.parts();
        let span = call.span;
        let f = ev.factory();
        let ptr = match arg {
            BufArg::Expr(e) => ev.eval(&*env, e)?,
            BufArg::Stored(v, _) => v.clone(),
        };
        if !matches!(&ptr, Value::Pointer(p) if !p.is_null()) {
            return Ok(None);
        }
        let (root, mut path) =
            ev.deref_place(&*env, ptr, true, span, &|| "receive buffer".into())?;
        if let Some(owned) = owned {
            if let Some(held) = self.hold_elements(arg, owned)? {
                return Ok(Some(held));
            }
        }
        let (ev, env, _) = self.parts();
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

    /// [`Self::hold_back`] for the elements `owned` of the data array buffer `arg`
    /// points into, when their offsets, counts and the buffer's position are
    /// concrete and they lie inside the array (else `None`: out-of-bounds
    /// transfers are reported when the operation is performed).
    fn hold_elements(
        &mut self,
        arg: BufArg<'_>,
        owned: &[(Expr, Expr)],
    ) -> Result<Option<Held>, EngineError> {
        let (ev, env, call) = self.parts();
        let span = call.span;
        let f = ev.factory();
        let concrete = |e: Expr| f.as_concrete_int(e).and_then(|k| i64::try_from(k).ok());
        let mut parts = Vec::with_capacity(owned.len());
        for &(off, cnt) in owned {
            match (concrete(off), concrete(cnt)) {
                (Some(o), Some(c)) if o >= 0 && (0..=CONCRETE_LIMIT).contains(&c) => {
                    parts.push((o, c))
                }
                _ => return Ok(None),
            }
        }
        let span_count = parts.iter().map(|&(o, c)| o + c).max().unwrap_or(0);
        let Buffer::Array {
            root,
            prefix,
            start,
            array,
        } = locate(ev, &*env, arg, f.int(span_count), span)?
        else {
            return Ok(None);
        };
        let t = f.type_of(array);
        let (Some(base), Some(inner), Some(extent)) = (
            concrete(start),
            inner_size(f, &t).and_then(concrete),
            f.array_extent(array).and_then(concrete),
        ) else {
            return Ok(None);
        };
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
}

pub(super) fn span_of(model: &Model, (function, tid): (FunctionId, TransitionId)) -> &Span {
    match model.function(function).body.as_ref() {
        Some(b) => &b.transition(tid).span,
        None => &model.function(function).span,
    }
}
