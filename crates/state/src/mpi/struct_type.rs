//! Struct datatypes of mixed basic types (`MPI_Type_create_struct` of
//! `{MPI_INT, MPI_DOUBLE}` and the like) and C structs as message buffers.
//!
//! Such a datatype is kept as its type map in bytes ([`MixedLayout`]): the
//! basic datatype and byte displacement of each element, in type-map order,
//! and the bounds. Its extent is rounded up to a multiple of the largest
//! alignment of its basic types, as MPI asks of `MPI_Type_create_struct`
//! (so `{double, int}` at `{0, 8}` has extent 16, like the C struct).
//!
//! A send reads each element at its byte position in the buffer's object (the
//! C layout: `tass_model`'s LP64 layout with padding), where an object of the
//! element's C type must start (`mpi-type` otherwise: the declared
//! displacements do not match the C layout). The message carries the type of
//! every element (`Message::mixed_signature`); a receive checks that the
//! message's type signature is a prefix of its own (`mpi-type` at the first
//! difference, MPI 4.1, 3.3.1) and that it fits (`buffer-overflow`), then
//! writes each element at its byte position in the receive buffer.
//!
//! Supported in `MPI_Send`, `MPI_Ssend`, `MPI_Recv` and both halves of
//! `MPI_Sendrecv`; every other use is refused by name.

use std::sync::Arc;

use tass_dynamic::api::{undefined_data, Message, Pointer, Value};
use tass_model::api::{Expr as MExpr, RealKind};
use tass_model::api::{IntKind, LibraryConstant as LC, Span, Type as CType};
use tass_semantics::api::{EngineError, Evaluator, Place, Property, ResolveMode, Resolved};
use tass_symbolic::api::{Expr, ExprFactory, Type};

use super::buffer::{coerce, concrete, holds};
use super::context::ArgReader;
use crate::env::ProcEnv;

/// The type map of a struct datatype of mixed basic types, in bytes.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct MixedLayout {
    /// The basic datatype and byte displacement of each element, in order.
    pub elements: Vec<(LC, i64)>,
    /// The lower bound, in bytes.
    pub lower: i64,
    /// The upper bound, in bytes (alignment padding included).
    pub upper: i64,
}

/// The size and alignment in bytes of a basic datatype a struct can mix,
/// and the C type of its elements (LP64).
fn basic(c: LC) -> Option<(i64, CType)> {
    Some(match c {
        LC::MpiChar => (1, CType::Char),
        LC::MpiInt => (4, CType::Int(IntKind::Int)),
        LC::MpiUnsigned => (4, CType::Int(IntKind::Unsigned)),
        LC::MpiLong => (8, CType::Int(IntKind::Long)),
        LC::MpiLongLong => (8, CType::Int(IntKind::LongLong)),
        LC::MpiFloat => (4, CType::Real(RealKind::Float)),
        LC::MpiDouble => (8, CType::Real(RealKind::Double)),
        LC::MpiLongDouble => (16, CType::Real(RealKind::LongDouble)),
        _ => return None,
    })
}

/// The size in bytes of basic datatype `c` (`None`: not one a struct can mix).
pub(super) fn basic_size(c: LC) -> Option<i64> {
    match c {
        LC::MpiByte => Some(1), // in uniform layouts only: its C type is any
        _ => basic(c).map(|b| b.0),
    }
}

/// The symbolic type of the elements of basic datatype `c`.
fn symbolic_type(c: LC) -> Type {
    match c {
        LC::MpiFloat | LC::MpiDouble | LC::MpiLongDouble => Type::Real,
        LC::MpiChar | LC::MpiByte => Type::Char,
        _ => Type::Int,
    }
}

impl MixedLayout {
    pub(super) fn extent(&self) -> i64 {
        self.upper - self.lower
    }

    /// `copies` copies of `self`, one extent apart, moved by `by` bytes.
    pub(super) fn replicate(&self, copies: i64, by: i64) -> MixedLayout {
        let extent = self.extent();
        let mut elements = Vec::new();
        for k in 0..copies {
            let shift = by + k * extent;
            elements.extend(self.elements.iter().map(|&(c, d)| (c, d + shift)));
        }
        MixedLayout {
            elements,
            lower: self.lower + by,
            upper: self.upper + by + (copies - 1).max(0) * extent,
        }
    }

    /// The struct of `parts` (each already replicated and moved): their
    /// elements in order, the bounds around the non-empty ones, the extent
    /// rounded up to the largest alignment of the basic types.
    pub(super) fn union(parts: Vec<MixedLayout>) -> MixedLayout {
        let parts: Vec<MixedLayout> = parts
            .into_iter()
            .filter(|p| !p.elements.is_empty())
            .collect();
        let lower = parts.iter().map(|p| p.lower).min().unwrap_or(0);
        let upper = parts.iter().map(|p| p.upper).max().unwrap_or(0);
        let elements: Vec<(LC, i64)> = parts.into_iter().flat_map(|p| p.elements).collect();
        let align = elements
            .iter()
            .filter_map(|&(c, _)| basic_size(c))
            .max()
            .unwrap_or(1);
        let extent = (upper - lower).max(0);
        let padded = (extent + align - 1) / align * align;
        MixedLayout {
            elements,
            lower,
            upper: lower + padded,
        }
    }

    /// The basic datatype when every element has the same one at whole
    /// elements of it from the start (bounds included): then the datatype is
    /// a uniform layout, `(base, displacements, lower, upper)` in elements.
    pub(super) fn uniform(&self) -> Option<(LC, Vec<i64>, i64, i64)> {
        let base = self.elements.first()?.0;
        let size = basic_size(base)?;
        let whole = |x: i64| x % size == 0;
        let same = self.elements.iter().all(|&(c, d)| c == base && whole(d));
        (same && whole(self.lower) && whole(self.upper)).then(|| {
            let displacements = self.elements.iter().map(|&(_, d)| d / size).collect();
            (base, displacements, self.lower / size, self.upper / size)
        })
    }

    /// The basic datatypes of one item, in order (its type signature).
    fn signature(&self) -> impl Iterator<Item = LC> + '_ {
        self.elements.iter().map(|&(c, _)| c)
    }

    /// The message's signature as text, for reports.
    fn describe(&self) -> String {
        let names: Vec<&str> = self.signature().map(|c| c.c_name()).collect();
        format!("{{{}}}", names.join(", "))
    }
}

/// A committed struct datatype of mixed basic types in a communication, and
/// where it was built (for reports).
pub(crate) struct MixedUse {
    pub layout: MixedLayout,
    pub builder: &'static str,
    pub line: u32,
}

/// The buffer of a mixed-struct transfer: its pointer as bytes of one object.
struct ByteBuffer<'a> {
    root: tass_dynamic::api::Root,
    base: Expr,
    size: Option<Expr>,
    text: &'a dyn Fn() -> String,
}

/// The byte buffer `buffer` points into; `None` when the path died (an
/// invalid pointer, reported).
fn byte_buffer<'a>(
    ev: &mut Evaluator<'_>,
    env: &ProcEnv<'_>,
    buffer: &MExpr,
    text: &'a dyn Fn() -> String,
    span: &Span,
) -> Result<Option<ByteBuffer<'a>>, EngineError> {
    let pointer = ev.eval(env, buffer)?;
    if !matches!(pointer, Value::Pointer(Pointer::Bytes { .. })) {
        // Null, uninitialised, dangling: reported here (a byte view is
        // checked element by element below).
        ev.deref_place(env, pointer.clone(), true, span, text)?;
        if holds(ev, env, ev.factory().ff()) {
            return Ok(None);
        }
    }
    let Value::Pointer(p) = pointer else {
        return Err(EngineError::unsupported(
            format!("MPI buffer `{}` that is not a pointer", text()),
            span,
        ));
    };
    let Some((root, base)) = ev.byte_position(env, &p, span)? else {
        return Ok(None);
    };
    let size = ev.object_size(env, root);
    Ok(Some(ByteBuffer {
        root,
        base,
        size,
        text,
    }))
}

/// Element `(c, at)` of a transfer: the place in `buf` of the `c` starting
/// `at` bytes from the buffer pointer. Reports (`None`: the path died) a
/// position outside the object (`out-of-bounds`) and one where no object of
/// `c`'s C type starts (`mpi-type`).
fn element_place(
    ev: &mut Evaluator<'_>,
    env: &ProcEnv<'_>,
    buf: &ByteBuffer<'_>,
    (c, at): (LC, i64),
    use_: &MixedUse,
    span: &Span,
) -> Result<Option<Place>, EngineError> {
    let f = ev.factory();
    let Some((size, ctype)) = basic(c) else {
        return Err(EngineError::unsupported(
            format!(
                "{} in a struct datatype of mixed basic types (built by {} on line {})",
                c.c_name(),
                use_.builder,
                use_.line
            ),
            span,
        ));
    };
    let offset = f.add(buf.base, f.int(at));
    if let Some(total) = buf.size {
        let inside = f.and(
            f.le(f.int(0), offset),
            f.le(f.add(offset, f.int(size)), total),
        );
        ev.check(
            env,
            inside,
            Property::OutOfBounds,
            || {
                format!(
                    "MPI buffer overrun: the {} at byte {at} of `{}` (datatype built \
                     by {} on line {}) is outside its object of {} bytes",
                    c.c_name(),
                    (buf.text)(),
                    use_.builder,
                    use_.line,
                    f.pretty(total)
                )
            },
            span,
        );
        if holds(ev, env, f.ff()) {
            return Ok(None);
        }
    }
    let resolved = ev.element_path_at(env, buf.root, offset, &ctype, ResolveMode::Cast, span)?;
    if let Some(Resolved::Path(path)) = resolved {
        return Ok(Some((buf.root, path)));
    }
    if f.as_concrete_int(offset).is_none() {
        return Err(EngineError::unsupported(
            format!(
                "a struct datatype's {} at a byte position of `{}` that depends on the inputs",
                c.c_name(),
                (buf.text)()
            ),
            span,
        ));
    }
    let message = format!(
        "the datatype built by {} on line {} puts {} at byte {at} of `{}`, where no \
         {} starts (its displacements do not match the C layout of the buffer)",
        use_.builder,
        use_.line,
        c.c_name(),
        (buf.text)(),
        tass_model::api::render_type(env.model, &ctype)
    );
    ev.fail(env, Property::MpiType, message, span);
    Ok(None)
}

/// A message read element by element: the elements' values (a struct of
/// scalars) and the basic datatype of each.
pub(super) type StructMessage = (Value, Arc<[LC]>);

impl ArgReader<'_, '_, '_> {
    /// The message of a send of `count` items of `use_` from `buffer`: the
    /// elements' values (a struct of scalars) and their basic datatypes. `None`
    /// when the path died (reported).
    pub(super) fn read_message(
        &mut self,
        buffer: &MExpr,
        count: Expr,
        use_: &MixedUse,
    ) -> Result<Option<StructMessage>, EngineError> {
        let (ev, env, span) = self.parts();
        let f = ev.factory();
        let items = concrete(ev, count, "count with a struct datatype", span)?;
        let total = items.saturating_mul(use_.layout.elements.len() as i64);
        if !(0..=super::buffer::CONCRETE_LIMIT).contains(&total) {
            return Err(EngineError::unsupported(
                format!("a message of {total} elements of a struct datatype"),
                span,
            ));
        }
        let text = || tass_model::api::render_expr(env.model, buffer);
        let mut values = Vec::with_capacity(total as usize);
        let mut signature = Vec::with_capacity(total as usize);
        if total > 0 {
            let Some(buf) = byte_buffer(ev, env, buffer, &text, span)? else {
                return Ok(None);
            };
            let extent = use_.layout.extent();
            for item in 0..items {
                for &(c, d) in &use_.layout.elements {
                    let at = (c, item * extent + d);
                    let Some(place) = element_place(ev, env, &buf, at, use_, span)? else {
                        return Ok(None);
                    };
                    let x = match ev.read_place(env, &place) {
                        Value::Data(x) => x,
                        Value::Undefined => undefined_data(f, symbolic_type(c)),
                        other => {
                            return Err(EngineError::unsupported(
                                format!("MPI buffer holding {other:?}"),
                                span,
                            ))
                        }
                    };
                    values.push(Value::Data(x));
                    signature.push(c);
                }
            }
        }
        Ok(Some((Value::Struct(Arc::new(values)), signature.into())))
    }
}

/// A message read by [`read_message`] whose elements all have one basic
/// datatype: as a message of basic elements (an array, and that datatype),
/// which every receive takes. Otherwise unchanged (and `None`).
pub(super) fn uniform_message(f: &ExprFactory, data: Value, types: &[LC]) -> (Value, Option<LC>) {
    let (Some(&first), Value::Struct(parts)) = (types.first(), &data) else {
        return (data, None);
    };
    if types.iter().any(|&c| c != first) {
        return (data, None);
    }
    let Some(elements) = parts
        .iter()
        .map(Value::as_data)
        .collect::<Option<Vec<Expr>>>()
    else {
        return (data, None);
    };
    let n = f.int(elements.len() as i64);
    let ty = Type::array(symbolic_type(first), Some(n));
    (Value::Data(f.array_literal(ty, &elements)), Some(first))
}

/// The elements of message `msg` with the basic datatype of each; `None`
/// when the message does not record them (pairs, or no signature).
fn message_elements(ev: &Evaluator<'_>, msg: &Message) -> Option<Vec<(LC, Expr)>> {
    let f = ev.factory();
    if let (Some(signature), Value::Struct(parts)) = (&msg.mixed_signature, &msg.data) {
        return signature
            .iter()
            .zip(parts.iter())
            .map(|(&c, v)| Some((c, v.as_data()?)))
            .collect();
    }
    let (Some(c), Value::Data(array)) = (msg.signature, &msg.data) else {
        return None;
    };
    let k = i64::try_from(f.as_concrete_int(msg.count)?).ok()?;
    if !(0..=super::buffer::CONCRETE_LIMIT).contains(&k) {
        return None;
    }
    Some(
        (0..k)
            .map(|j| (c, super::buffer::flat_read(f, *array, f.int(j))))
            .collect(),
    )
}

/// Puts message `msg` into the receive buffer `buffer` of `capacity` items of
/// `use_`: its type signature must be a prefix of the receive's (`mpi-type`
/// at the first difference) and fit (`buffer-overflow`).
pub(super) fn deliver(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    msg: &Message,
    buffer: &MExpr,
    capacity: Expr,
    use_: &MixedUse,
    span: &Span,
) -> Result<(), EngineError> {
    let f = ev.factory();
    let Some(sent) = message_elements(ev, msg) else {
        return Err(EngineError::unsupported(
            format!(
                "a message of pairs or of an unrecorded type signature received with the \
                 struct datatype {} (built by {} on line {})",
                use_.layout.describe(),
                use_.builder,
                use_.line
            ),
            span,
        ));
    };
    let items = concrete(ev, capacity, "count with a struct datatype", span)?;
    let per_item = use_.layout.elements.len();
    let room = items.max(0).saturating_mul(per_item as i64);
    let fits = super::deliver::check_fits(
        ev,
        &*env,
        f.int(sent.len() as i64),
        f.int(room),
        "basic elements",
        span,
    );
    if fits == f.ff() || holds(ev, &*env, f.ff()) {
        return Ok(());
    }
    let expected = (0..sent.len()).map(|k| use_.layout.elements[k % per_item].0);
    for (k, (&(got, _), want)) in sent.iter().zip(expected).enumerate() {
        if let Some(mismatch) = super::signature::mismatch(Some(got), Some(want)) {
            let message = format!(
                "{mismatch}: element {k} of the message, received with the struct datatype \
                 {} built by {} on line {}",
                use_.layout.describe(),
                use_.builder,
                use_.line
            );
            ev.fail(&*env, Property::MpiType, message, span);
            return Ok(());
        }
    }
    let text = || tass_model::api::render_expr(env.model, buffer);
    let text = text();
    let text = || text.clone();
    let Some(buf) = byte_buffer(ev, &*env, buffer, &text, span)? else {
        return Ok(());
    };
    let extent = use_.layout.extent();
    for (k, &(c, x)) in sent.iter().enumerate() {
        let (item, entry) = (k / per_item, k % per_item);
        let at = (c, item as i64 * extent + use_.layout.elements[entry].1);
        let Some(place) = element_place(ev, &*env, &buf, at, use_, span)? else {
            return Ok(());
        };
        let x = coerce(f, x, &symbolic_type(c));
        ev.write_place(env, &place, Value::Data(x), span)?;
    }
    Ok(())
}

/// The refusal of a message of a struct datatype of mixed basic types
/// received some other way than by [`deliver`].
pub(super) fn mixed_message_refused(msg: &Message, span: &Span) -> Option<EngineError> {
    let signature = msg.mixed_signature.as_ref()?;
    let names: Vec<&str> = signature.iter().take(8).map(|c| c.c_name()).collect();
    Some(EngineError::unsupported(
        format!(
            "a message sent with a struct datatype of mixed basic types ({}{}) received by \
             this call; tass receives such messages in MPI_Recv and MPI_Sendrecv only",
            names.join(", "),
            if signature.len() > 8 { ", ..." } else { "" }
        ),
        span,
    ))
}

/// A message sent with a struct datatype of mixed basic types received with
/// basic datatype `datatype`: `mpi-type` at the first element of another
/// type (the path dies), else refused by name (`None`: not such a message).
pub(super) fn mixed_message_mismatch(
    ev: &mut Evaluator<'_>,
    env: &ProcEnv<'_>,
    msg: &Message,
    datatype: Option<LC>,
    span: &Span,
) -> Option<Result<(), EngineError>> {
    let signature = msg.mixed_signature.as_ref()?;
    let received = datatype.filter(|c| !matches!(c, LC::MpiDoubleInt | LC::Mpi2Int));
    let first_other = received.and_then(|c| signature.iter().position(|&s| s != c));
    match (received, first_other) {
        (Some(c), Some(k)) => {
            let message = format!(
                "message sent as {} (element {k} of a struct datatype) received as {} \
                 (type signatures must match)",
                signature[k].c_name(),
                c.c_name()
            );
            ev.fail(env, Property::MpiType, message, span);
            Some(Ok(()))
        }
        _ => Some(Err(mixed_message_refused(msg, span)?)),
    }
}

/// `MPI_Sendrecv` with a struct datatype: its send and receive buffers must
/// not overlap, which tass checks only for buffers in different objects;
/// both in one object is refused by name.
pub(super) fn refuse_one_object(
    ev: &mut Evaluator<'_>,
    env: &ProcEnv<'_>,
    buffers: [&MExpr; 2],
    span: &Span,
) -> Result<(), EngineError> {
    let mut roots = Vec::with_capacity(2);
    for buffer in buffers {
        let root = match ev.eval(env, buffer)? {
            Value::Pointer(Pointer::To { root, .. } | Pointer::Bytes { root, .. }) => Some(root),
            _ => None, // null or invalid: the call reports it
        };
        roots.push(root);
    }
    match (roots[0], roots[1]) {
        (Some(a), Some(b)) if a == b => Err(EngineError::unsupported(
            "MPI_Sendrecv with a struct datatype whose send and receive buffers are in one \
             object (tass checks such buffers for overlap only in different objects)",
            span,
        )),
        _ => Ok(()),
    }
}
