//! MPI message buffers: reading the elements an MPI call sends from a user
//! buffer and writing the elements it receives into one, with the bounds and
//! count checks; MPI datatypes and rank arguments.

use smallvec::SmallVec;
use tass_dynamic::api::{undefined_data, Handle, Pointer, Root, Step as PStep, Value};
use tass_model::api::{Expr as MExpr, LibraryConstant as LC, Span};
use tass_semantics::api::{
    pointee_type, scalar_type, Decision, ElementWindow, EngineError, Environment, Evaluator, Place,
    Property,
};
use tass_symbolic::api::{Expr, ExprFactory, Type};

use super::context::{ANY, PROC_NULL};

/// Concrete element counts up to this size are transferred element by element.
pub(super) const CONCRETE_LIMIT: i64 = 4096;

/// The symbolic element type of an MPI datatype.
pub(super) fn datatype(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    e: &MExpr,
    span: &Span,
) -> Result<(LC, Type), EngineError> {
    let v = ev.eval(env, e)?;
    let c = match v {
        Value::Handle(Handle::Constant(c)) => c,
        Value::Handle(Handle::Datatype(_)) => {
            return Err(EngineError::unsupported(
                "a derived datatype in this call (tass moves derived datatypes in \
                 point-to-point sends and receives only)",
                span,
            ))
        }
        _ => {
            return Err(EngineError::unsupported(
                format!("MPI datatype {v:?}"),
                span,
            ))
        }
    };
    if c == LC::MpiDatatypeNull {
        let message = "MPI_DATATYPE_NULL used as the datatype of a communication".to_string();
        ev.fail(env, Property::MpiType, message, span);
        return Ok((c, Type::Int)); // the path is dead
    }
    let ty = match c {
        LC::MpiInt | LC::MpiLong | LC::MpiUnsigned | LC::MpiLongLong => Type::Int,
        LC::MpiFloat | LC::MpiDouble | LC::MpiLongDouble => Type::Real,
        LC::MpiChar | LC::MpiByte => Type::Char,
        other => {
            return Err(EngineError::unsupported(
                format!("MPI datatype {}", other.c_name()),
                span,
            ))
        }
    };
    Ok((c, ty))
}

/// Checks (`mpi-count`) that a message's element count is not negative.
pub(super) fn check_count(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    count: Expr,
    function: &str,
    span: &Span,
) {
    let f = ev.factory();
    let nonneg = f.le(f.int(0), count);
    ev.check(
        env,
        nonneg,
        Property::MpiCount,
        || format!("negative count {} in {function}", f.pretty(count)),
        span,
    );
}

/// Checks a rank argument: in `0..n`, or one of the special values allowed.
pub(super) fn check_rank(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    rank: Expr,
    allow_any: bool,
    what: &str,
    span: &Span,
    size: usize,
) {
    let f = ev.factory();
    let n = size as i64;
    let mut claim = f.and(f.le(f.int(0), rank), f.lt(rank, f.int(n)));
    if what != "root" {
        claim = f.or(claim, f.eq(rank, f.int(PROC_NULL)));
    }
    if allow_any {
        claim = f.or(claim, f.eq(rank, f.int(ANY)));
    }
    ev.check(
        env,
        claim,
        Property::MpiRank,
        || {
            format!(
                "{what} rank {} is not a rank of the communicator (0..{})",
                f.pretty(rank),
                n - 1
            )
        },
        span,
    );
}

pub(super) fn concrete(
    ev: &Evaluator<'_>,
    e: Expr,
    what: &str,
    span: &Span,
) -> Result<i64, EngineError> {
    ev.factory()
        .as_concrete_int(e)
        .and_then(|k| i64::try_from(k).ok())
        .ok_or_else(|| EngineError::unsupported(format!("MPI call with a symbolic {what}"), span))
}

pub(super) fn type_name(t: &Type) -> &'static str {
    match t {
        Type::Int => "integer",
        Type::Real => "floating",
        Type::Char => "char",
        Type::Bool => "boolean",
        _ => "compound",
    }
}

/// The scalar type at the bottom of (nested) array type `t`.
pub(super) fn scalar_of(t: &Type) -> Type {
    match t {
        Type::Array(e, _) => scalar_of(e),
        other => other.clone(),
    }
}

/// Number of scalars in one element of array type `t` (1 for scalar elements).
pub(super) fn inner_size(f: &ExprFactory, t: &Type) -> Option<Expr> {
    match t {
        Type::Array(e, _) => match &**e {
            Type::Array(_, Some(x)) => Some(f.mul(*x, inner_size(f, e)?)),
            Type::Array(_, None) => None,
            _ => Some(f.int(1)),
        },
        _ => Some(f.int(1)),
    }
}

/// Element `k` (flat, row-major) of (nested) data array `a`.
pub(super) fn flat_read(f: &ExprFactory, a: Expr, k: Expr) -> Expr {
    let t = f.type_of(a);
    match (&t, inner_size(f, &t)) {
        (Type::Array(e, _), Some(s)) if matches!(&**e, Type::Array(..)) => {
            let row = f.array_read(a, f.int_div(k, s));
            flat_read(f, row, f.int_mod(k, s))
        }
        _ => f.array_read(a, k),
    }
}

/// The path (inside an array of type `t`) of flat element `k`.
pub(super) fn flat_path(f: &ExprFactory, t: &Type, k: Expr, path: &mut SmallVec<[PStep; 2]>) {
    match (t, inner_size(f, t)) {
        (Type::Array(e, _), Some(s)) if matches!(&**e, Type::Array(..)) => {
            path.push(PStep::Index(f.int_div(k, s)));
            flat_path(f, e, f.int_mod(k, s), path);
        }
        _ => path.push(PStep::Index(k)),
    }
}

pub(super) fn holds(ev: &mut Evaluator<'_>, env: &dyn Environment, claim: Expr) -> bool {
    let f = ev.factory();
    if let Some(b) = f.as_bool(claim) {
        return b;
    }
    let pc = ev.current_pc(env);
    matches!(ev.oracle().valid(f, pc, claim), Decision::Holds)
}

/// Where an MPI buffer argument points.
pub(super) enum Buffer {
    /// Invalid pointer (reported; the path is dead) or null with count 0.
    Nothing,
    /// Flat (row-major, in scalars) element `start` of the data array at
    /// `prefix` of `root`: the outermost array the pointer points into, so
    /// that a buffer at `&b[0][0]` spans the whole matrix `b`, as C lays it out.
    Array {
        root: Root,
        prefix: SmallVec<[PStep; 2]>,
        start: Expr,
        array: Expr,
    },
    /// A single scalar object.
    Scalar {
        place: (Root, SmallVec<[PStep; 2]>),
        value: Value,
        ty: Option<Type>,
    },
}

/// An MPI buffer argument: the C expression of the call, or the pointer (and
/// its scalar pointee type) a posted `MPI_Irecv` stored.
#[derive(Clone, Copy)]
pub(crate) enum BufArg<'a> {
    Expr(&'a MExpr),
    Stored(&'a Value, Option<&'a Type>),
}

impl<'a> From<&'a MExpr> for BufArg<'a> {
    fn from(e: &'a MExpr) -> Self {
        BufArg::Expr(e)
    }
}

impl BufArg<'_> {
    fn text(&self, env: &dyn Environment) -> String {
        match self {
            BufArg::Expr(e) => tass_model::api::render_expr(env.model(), e),
            BufArg::Stored(..) => "the buffer of the posted receive".into(),
        }
    }

    /// The scalar type the buffer pointer points to, when known.
    pub(super) fn scalar_pointee(&self) -> Option<Type> {
        match self {
            BufArg::Expr(e) => pointee_type(e).and_then(|t| scalar_type(&t)),
            BufArg::Stored(_, t) => t.cloned(),
        }
    }
}

pub(super) fn locate(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    arg: BufArg<'_>,
    count: Expr,
    span: &Span,
) -> Result<Buffer, EngineError> {
    locate_reaching(ev, env, arg, count, None, span)
}

/// [`locate`] for a call that touches only the first `reach` elements from
/// the pointer: when they lie inside the innermost array the pointer points
/// into on the current path (a row `&v[r][0]` sent or received whole), the
/// buffer is that array, not the outermost one. Both give the same values, but a
/// row written at a symbolic row index through the whole matrix becomes one
/// element write per scalar at flat indices `(r*NX + j) div NX`: laplace np 5
/// kept more than twice the symbolic values that way (issue 21).
fn locate_reaching(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    arg: BufArg<'_>,
    count: Expr,
    reach: Option<Expr>,
    span: &Span,
) -> Result<Buffer, EngineError> {
    let f = ev.factory();
    check_count(ev, env, count, "an MPI call", span);
    let ptr = match arg {
        BufArg::Expr(e) => ev.eval(env, e)?,
        BufArg::Stored(v, _) => v.clone(),
    };
    if let Value::Pointer(Pointer::Null) = ptr {
        let zero = f.eq(count, f.int(0));
        ev.check(
            env,
            zero,
            Property::MpiCount,
            || {
                format!(
                    "count {} is positive but the buffer `{}` is NULL",
                    f.pretty(count),
                    arg.text(env)
                )
            },
            span,
        );
        return Ok(Buffer::Nothing);
    }
    let (root, mut path) = ev.deref_place(env, ptr, true, span, &|| arg.text(env))?;
    if matches!(
        root,
        Root::Heap {
            proc: u32::MAX,
            object: u32::MAX
        }
    ) {
        return Ok(Buffer::Nothing);
    }
    if let Some(PStep::Index(i)) = path.last().copied() {
        let prefix: SmallVec<[PStep; 2]> = path[..path.len() - 1].iter().copied().collect();
        if let Value::Data(a) = ev.read_place(env, &(root, prefix.clone())) {
            let t = f.type_of(a);
            if matches!(t, Type::Array(..)) {
                let start = match inner_size(f, &t) {
                    Some(s) => f.mul(i, s),
                    None => i,
                };
                let at = ArrayAt {
                    root,
                    prefix,
                    start,
                    array: a,
                };
                return Ok(outermost_array(ev, env, at, reach));
            }
        }
    }
    let value = ev.read_place(env, &(root, path.clone()));
    if let Value::Data(a) = &value {
        if matches!(f.type_of(*a), Type::Array(..)) {
            let at = ArrayAt {
                root,
                prefix: path,
                start: f.int(0),
                array: *a,
            };
            return Ok(outermost_array(ev, env, at, reach));
        }
    }
    let ty = arg.scalar_pointee();
    path.shrink_to_fit();
    Ok(Buffer::Scalar {
        place: (root, path),
        value,
        ty,
    })
}

/// Flat element `start` of data array `array`, found at `prefix` of `root`.
struct ArrayAt {
    root: Root,
    prefix: SmallVec<[PStep; 2]>,
    start: Expr,
    array: Expr,
}

/// The buffer at `at`, seen in the outermost array of arrays that holds it
/// (`b[1]` of `double b[3][3]` is flat elements 3.. of `b`), unless the
/// `reach` elements touched lie inside `at`'s own array ([`fits_inside`]).
fn outermost_array(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    at: ArrayAt,
    reach: Option<Expr>,
) -> Buffer {
    let f = ev.factory();
    let ArrayAt {
        root,
        mut prefix,
        mut start,
        mut array,
    } = at;
    let stays_inside = reach.is_some_and(|reach| fits_inside(ev, env, array, start, reach));
    while let Some(PStep::Index(row)) = prefix.last().copied() {
        if stays_inside {
            break;
        }
        let outer: SmallVec<[PStep; 2]> = prefix[..prefix.len() - 1].iter().copied().collect();
        let Value::Data(parent) = ev.read_place(env, &(root, outer.clone())) else {
            break;
        };
        let parent_type = f.type_of(parent);
        let (Type::Array(element, _), Some(row_size)) = (&parent_type, inner_size(f, &parent_type))
        else {
            break;
        };
        if **element != f.type_of(array) {
            break;
        }
        start = f.add(f.mul(row, row_size), start);
        array = parent;
        prefix = outer;
    }
    Buffer::Array {
        root,
        prefix,
        start,
        array,
    }
}

/// True when flat elements `start .. start + reach` of `array` are inside it
/// on every path of the current path condition: by their expressions alone
/// (a concrete non-negative difference), else by the prover (an extent `NX`
/// against a count the path condition fixed); undecided takes the outermost
/// array, which is always right.
fn fits_inside(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    array: Expr,
    start: Expr,
    reach: Expr,
) -> bool {
    let f = ev.factory();
    let Some(extent) = f.array_extent(array) else {
        return false;
    };
    let Some(inner) = inner_size(f, &f.type_of(array)) else {
        return false;
    };
    let (end, total) = (f.add(start, reach), f.mul(extent, inner));
    if concrete_non_negative(f, f.sub(total, end)) {
        return true;
    }
    holds(ev, env, f.le(end, total))
}

fn concrete_non_negative(f: &ExprFactory, x: Expr) -> bool {
    f.as_concrete_int(x)
        .and_then(|x| i64::try_from(x).ok())
        .is_some_and(|x| x >= 0)
}

/// Bounds check: flat elements `off .. off+count` lie inside the array.
pub(super) fn check_bounds(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    array: Expr,
    off: Expr,
    count: Expr,
    span: &Span,
) -> Option<Expr> {
    let f = ev.factory();
    let t = f.type_of(array);
    let total = f.mul(f.array_extent(array)?, inner_size(f, &t)?);
    let window = ElementWindow {
        start: off,
        count,
        extent: total,
    };
    ev.check_window(
        env,
        &window,
        || {
            format!(
                "MPI buffer overrun: elements {} to {} of a buffer of {} elements",
                f.pretty(off),
                f.pretty(f.sub(f.add(off, count), f.int(1))),
                f.pretty(total)
            )
        },
        span,
    );
    Some(total)
}

/// `count` elements from flat offset `offset` of buffer `arg`: what one read
/// of a [`Reader`] takes.
#[derive(Clone, Copy)]
pub(super) struct Elements<'b> {
    pub(super) arg: BufArg<'b>,
    pub(super) count: Expr,
    pub(super) offset: Expr,
}

impl<'b> Elements<'b> {
    pub(super) fn new(arg: impl Into<BufArg<'b>>, count: Expr, offset: Expr) -> Self {
        Elements {
            arg: arg.into(),
            count,
            offset,
        }
    }
}

/// Reads of a process's memory for one MPI call: the evaluator, the
/// process's environment and the call's span (for reports), which every
/// read of a user buffer needs.
pub(super) struct Reader<'r, 'e> {
    pub(super) ev: &'r mut Evaluator<'e>,
    pub(super) env: &'r dyn Environment,
    pub(super) span: &'r Span,
}

impl<'r, 'e> Reader<'r, 'e> {
    pub(super) fn new(ev: &'r mut Evaluator<'e>, env: &'r dyn Environment, span: &'r Span) -> Self {
        Reader { ev, env, span }
    }

    /// Reads `at`: an array of `at.count` scalars, or the whole (nested)
    /// array when the buffer is one. `None` when nothing can be read (the
    /// path died).
    pub(super) fn read_buffer(
        &mut self,
        at: Elements<'_>,
        ty: &Type,
    ) -> Result<Option<Expr>, EngineError> {
        let (ev, env, span) = (&mut *self.ev, self.env, self.span);
        let Elements { arg, count, offset } = at;
        let f = ev.factory();
        let reach = Some(f.add(offset, count));
        match locate_reaching(ev, env, arg, count, reach, span)? {
            Buffer::Nothing => Ok(Some(
                f.array_literal(Type::array(ty.clone(), Some(f.int(0))), &[]),
            )),
            Buffer::Array { start, array, .. } => {
                let t = f.type_of(array);
                let off = f.add(start, offset);
                let total = check_bounds(ev, env, array, off, count, span);
                let scalar = scalar_of(&t);
                if f.as_concrete_int(off) == Some(0.into())
                    && total.is_some_and(|total| holds(ev, env, f.eq(total, count)))
                {
                    return Ok(Some(array));
                }
                let out_ty = Type::array(scalar.clone(), Some(count));
                if let Some(k) = f
                    .as_concrete_int(count)
                    .and_then(|k| i64::try_from(k).ok())
                    .filter(|&k| (0..=CONCRETE_LIMIT).contains(&k))
                {
                    let els: Vec<Expr> = (0..k)
                        .map(|j| flat_read(f, array, f.add(off, f.int(j))))
                        .collect();
                    return Ok(Some(f.array_literal(out_ty, &els)));
                }
                let j = f.symbol("__tass_mpi_j", Type::Int);
                let body = flat_read(f, array, f.add(off, j));
                Ok(Some(f.array_lambda(out_ty, j, body)))
            }
            Buffer::Scalar { value, ty: sty, .. } => {
                let one = f.le(f.add(offset, count), f.int(1));
                ev.check(
                    env,
                    one,
                    Property::OutOfBounds,
                    || {
                        format!(
                            "MPI buffer overrun: count {} on a single object",
                            f.pretty(count)
                        )
                    },
                    span,
                );
                let x = match value {
                    Value::Data(x) => x,
                    Value::Undefined => undefined_data(f, sty.unwrap_or_else(|| ty.clone())),
                    other => {
                        return Err(EngineError::unsupported(
                            format!("MPI buffer holding {other:?}"),
                            span,
                        ))
                    }
                };
                let scalar = f.type_of(x);
                if f.as_concrete_int(count) == Some(0.into()) {
                    return Ok(Some(f.array_literal(Type::array(scalar, Some(count)), &[])));
                }
                Ok(Some(
                    f.array_literal(Type::array(scalar, Some(count)), &[x]),
                ))
            }
        }
    }

    /// Reads `at.count` (value, index) pairs at pair offset `at.offset` of
    /// the buffer of pair datatype `dtype` (`MPI_DOUBLE_INT` or `MPI_2INT`);
    /// `None` when the path died.
    pub(super) fn read_pairs(
        &mut self,
        at: Elements<'_>,
        dtype: LC,
    ) -> Result<Option<Vec<(Expr, Expr)>>, EngineError> {
        let (ev, env, span) = (&mut *self.ev, self.env, self.span);
        let Elements { arg, count, offset } = at;
        let f = ev.factory();
        let k = pair_index(ev, count, "count", span)?;
        let off = pair_index(ev, offset, "offset", span)?;
        if k == 0 {
            return Ok(Some(Vec::new()));
        }
        let val_ty = pair_value_type(dtype);
        let text = arg.text(env);
        let text = || text.clone();
        match pair_layout(ev, env, arg, span)? {
            None => Ok(None),
            Some(PairLayout::FlatInts) => {
                if !flat_pairs_allowed(ev, env, dtype, &text, span) {
                    return Ok(None);
                }
                let Some(a) = Reader {
                    ev: &mut *ev,
                    env,
                    span,
                }
                .read_buffer(Elements::new(arg, f.int(2 * k), f.int(2 * off)), &Type::Int)?
                else {
                    return Ok(None);
                };
                Ok(Some(
                    (0..k)
                        .map(|j| {
                            (
                                f.array_read(a, f.int(2 * j)),
                                f.array_read(a, f.int(2 * j + 1)),
                            )
                        })
                        .collect(),
                ))
            }
            Some(PairLayout::Structs(ptr)) => {
                let mut out = Vec::with_capacity(k as usize);
                for j in 0..k {
                    let Some(place) = pair_place(ev, env, &ptr, off + j, &text, span)? else {
                        return Ok(None);
                    };
                    let mut pair = [f.int(0), f.int(0)];
                    for (field, want) in [val_ty.clone(), Type::Int].into_iter().enumerate() {
                        let mut path = place.1.clone();
                        path.push(PStep::Field(field as u32));
                        let x = match ev.read_place(env, &(place.0, path)) {
                            Value::Data(x) => x,
                            Value::Undefined => undefined_data(f, want.clone()),
                            other => {
                                return Err(EngineError::unsupported(
                                    format!("{} buffer holding {other:?}", dtype.c_name()),
                                    span,
                                ))
                            }
                        };
                        if !pair_field_type_ok(ev, env, x, &want, dtype, &text, span) {
                            return Ok(None);
                        }
                        pair[field] = x;
                    }
                    out.push((pair[0], pair[1]));
                }
                Ok(Some(out))
            }
        }
    }
}

pub(super) fn coerce(f: &ExprFactory, x: Expr, ty: &Type) -> Expr {
    if f.type_of(x) == *ty {
        x
    } else {
        f.cast(x, ty)
    }
}

/// Where a write goes in a user buffer: from element `offset` of a buffer
/// for which its call posted `capacity` elements.
#[derive(Clone, Copy, Debug)]
pub(super) struct Window {
    pub(super) capacity: Expr,
    pub(super) offset: Expr,
}

/// Writes the `n` elements of `data` at flat offset `window.offset` of buffer
/// `arg` (`window.capacity` elements were posted).
pub(super) fn write_buffer<'b>(
    ev: &mut Evaluator<'_>,
    env: &mut dyn Environment,
    arg: impl Into<BufArg<'b>>,
    window: Window,
    data: Expr,
    n: Expr,
    span: &Span,
) -> Result<(), EngineError> {
    let Window { capacity, offset } = window;
    let f = ev.factory();
    // The call touches the posted `capacity` elements (checked below) and
    // the `n` written from `offset`: the innermost array serves only when
    // the write stays inside the posted part, as written.
    let written_inside = f.sub(capacity, f.add(offset, n));
    let reach = concrete_non_negative(f, written_inside).then_some(capacity);
    match locate_reaching(ev, &*env, arg.into(), capacity, reach, span)? {
        Buffer::Nothing => Ok(()),
        Buffer::Array {
            root,
            prefix,
            start,
            array,
        } => {
            let t = f.type_of(array);
            let scalar = scalar_of(&t);
            let off = f.add(start, offset);
            // The posted buffer (`capacity` elements from its start) must fit.
            let base = start;
            let total = check_bounds(ev, &*env, array, base, capacity, span);
            let whole = f.as_concrete_int(off) == Some(0.into())
                && total.is_some_and(|total| holds(ev, &*env, f.eq(total, n)));
            if whole && f.type_of(data) == t {
                return ev.write_place(env, &(root, prefix), Value::Data(data), span);
            }
            if let Some(k) = f
                .as_concrete_int(n)
                .and_then(|k| i64::try_from(k).ok())
                .filter(|&k| (0..=CONCRETE_LIMIT).contains(&k))
            {
                let mut new = array;
                for j in 0..k {
                    let x = coerce(f, flat_read(f, data, f.int(j)), &scalar);
                    let mut path = SmallVec::<[PStep; 2]>::new();
                    flat_path(f, &t, f.add(off, f.int(j)), &mut path);
                    let mut v = Value::Data(new);
                    tass_dynamic::api::write_at(f, &mut v, &path, Value::Data(x)).map_err(|e| {
                        EngineError::invalid(format!("MPI receive: {e}"), Some(span))
                    })?;
                    if let Value::Data(x) = v {
                        new = x;
                    }
                }
                return ev.write_place(env, &(root, prefix), Value::Data(new), span);
            }
            if !matches!(&t, Type::Array(e, _) if !matches!(&**e, Type::Array(..))) {
                return Err(EngineError::unsupported(
                    "MPI transfer of a symbolic number of elements into part of a multi-dimensional array",
                    span,
                ));
            }
            let j = f.symbol("__tass_mpi_j", Type::Int);
            let inside = f.and(f.le(off, j), f.lt(j, f.add(off, n)));
            let x = coerce(f, flat_read(f, data, f.sub(j, off)), &scalar);
            let body = if whole {
                x
            } else {
                f.ite(inside, x, f.array_read(array, j))
            };
            let new = f.array_lambda(t, j, body);
            ev.write_place(env, &(root, prefix), Value::Data(new), span)
        }
        Buffer::Scalar { place, ty, .. } => {
            if f.as_concrete_int(n) == Some(0.into()) {
                return Ok(());
            }
            let fits = f.le(f.add(offset, n), f.int(1));
            ev.check(
                &*env,
                fits,
                Property::OutOfBounds,
                || {
                    format!(
                        "MPI buffer overrun: {} elements into a single object",
                        f.pretty(n)
                    )
                },
                span,
            );
            let mut x = flat_read(f, data, f.int(0));
            if let Some(ty) = ty {
                x = coerce(f, x, &ty);
            }
            ev.write_place(env, &place, Value::Data(x), span)
        }
    }
}

/// The datatype of a point-to-point call: a basic one, or a (value, index) pair
/// type (`MPI_DOUBLE_INT`, `MPI_2INT`).
pub(super) enum P2pType {
    Basic(LC, Type),
    Pair(LC),
}

pub(super) fn p2p_datatype(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    e: &MExpr,
    span: &Span,
) -> Result<P2pType, EngineError> {
    if let Value::Handle(Handle::Constant(c @ (LC::MpiDoubleInt | LC::Mpi2Int))) =
        ev.eval(env, e)?
    {
        return Ok(P2pType::Pair(c));
    }
    let (c, ty) = datatype(ev, env, e, span)?;
    Ok(P2pType::Basic(c, ty))
}

/// The data of a message of pairs: the value halves and the index halves as two
/// arrays, in a two-field struct (a message of basic elements is one array).
pub(super) fn pair_message(f: &ExprFactory, dtype: LC, pairs: &[(Expr, Expr)]) -> Value {
    let k = f.int(pairs.len() as i64);
    let half = |ty: Type, xs: Vec<Expr>| {
        Value::Data(f.array_literal(Type::Array(std::sync::Arc::new(ty), Some(k)), &xs))
    };
    let values = half(pair_value_type(dtype), pairs.iter().map(|p| p.0).collect());
    let indices = half(Type::Int, pairs.iter().map(|p| p.1).collect());
    Value::Struct(std::sync::Arc::new(vec![values, indices]))
}

/// The pair datatype of a message of pairs (`None`: the message holds basic
/// elements).
pub(super) fn message_pair_type(f: &ExprFactory, data: &Value) -> Option<LC> {
    let Value::Struct(parts) = data else {
        return None;
    };
    Some(match scalar_of(&f.type_of(parts.first()?.as_data()?)) {
        Type::Real => LC::MpiDoubleInt,
        _ => LC::Mpi2Int,
    })
}

/// The pairs of a message of `count` pairs (`None`: basic elements, or a count
/// that is not a number).
pub(super) fn message_pairs(
    f: &ExprFactory,
    data: &Value,
    count: Expr,
) -> Option<Vec<(Expr, Expr)>> {
    let Value::Struct(parts) = data else {
        return None;
    };
    let (values, indices) = (parts.first()?.as_data()?, parts.get(1)?.as_data()?);
    let k = i64::try_from(f.as_concrete_int(count)?).ok()?;
    Some(
        (0..k)
            .map(|j| {
                (
                    f.array_read(values, f.int(j)),
                    f.array_read(indices, f.int(j)),
                )
            })
            .collect(),
    )
}

/// How the elements of a pair datatype (`MPI_DOUBLE_INT`, `MPI_2INT`) are laid
/// out in a user buffer.
enum PairLayout {
    /// An array of structs (or one struct) of two scalar fields: `ptr` points to
    /// the first pair.
    Structs(Value),
    /// An `int` array holding the pairs flat (`MPI_2INT` over `int v[2 * count]`).
    FlatInts,
}

/// Decides the layout of a pair buffer from what the pointer points to now (or,
/// for an uninitialised object, from the pointer's static pointee type).
fn pair_layout(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    arg: BufArg<'_>,
    span: &Span,
) -> Result<Option<PairLayout>, EngineError> {
    let ptr = match arg {
        BufArg::Expr(e) => ev.eval(env, e)?,
        BufArg::Stored(v, _) => v.clone(),
    };
    let place = ev.deref_place(env, ptr.clone(), true, span, &|| arg.text(env))?;
    if is_placeholder(&place.0) {
        return Ok(None); // an invalid pointer, reported: the path is dead
    }
    Ok(Some(match ev.read_place(env, &place) {
        Value::Struct(_) => PairLayout::Structs(ptr),
        Value::Data(_) => PairLayout::FlatInts,
        _ => match arg.scalar_pointee() {
            Some(Type::Int) => PairLayout::FlatInts,
            _ => PairLayout::Structs(ptr),
        },
    }))
}

fn is_placeholder(root: &Root) -> bool {
    matches!(
        root,
        Root::Heap {
            proc: u32::MAX,
            object: u32::MAX
        }
    )
}

/// A concrete, non-negative element count or offset of a pair transfer.
fn pair_index(ev: &Evaluator<'_>, e: Expr, what: &str, span: &Span) -> Result<i64, EngineError> {
    let k = concrete(ev, e, what, span)?;
    if !(0..=CONCRETE_LIMIT).contains(&k) {
        return Err(EngineError::unsupported(
            format!("MPI transfer of pair elements with {what} {k}"),
            span,
        ));
    }
    Ok(k)
}

/// The place of pair element `k` of a struct buffer `ptr` (bounds checked).
fn pair_place(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    ptr: &Value,
    k: i64,
    text: &dyn Fn() -> String,
    span: &Span,
) -> Result<Option<Place>, EngineError> {
    let f = ev.factory();
    let at_element =
        matches!(ptr, Value::Pointer(p) if matches!(p.path().last(), Some(PStep::Index(_))));
    let p = if k == 0 {
        ptr.clone()
    } else if at_element {
        ev.pointer_add(env, ptr.clone(), f.int(k), span)?
    } else {
        ev.fail(
            env,
            Property::OutOfBounds,
            format!(
                "MPI buffer overrun: pair element {k} of `{}`, a single object",
                text()
            ),
            span,
        );
        return Ok(None);
    };
    let place = ev.deref_place(env, p, false, span, text)?;
    Ok((!is_placeholder(&place.0)).then_some(place))
}

/// Writes (value, index) pairs at pair offset `window.offset` of the buffer of
/// pair datatype `dtype` (`window.capacity` pairs were posted).
pub(super) fn write_pairs(
    ev: &mut Evaluator<'_>,
    env: &mut dyn Environment,
    arg: BufArg<'_>,
    window: Window,
    pairs: &[(Expr, Expr)],
    dtype: LC,
    span: &Span,
) -> Result<(), EngineError> {
    let Window { capacity, offset } = window;
    let f = ev.factory();
    let off = pair_index(ev, offset, "offset", span)?;
    if pairs.is_empty() {
        return Ok(());
    }
    let val_ty = pair_value_type(dtype);
    let text = arg.text(&*env);
    let text = || text.clone();
    match pair_layout(ev, &*env, arg, span)? {
        None => Ok(()),
        Some(PairLayout::FlatInts) => {
            if !flat_pairs_allowed(ev, &*env, dtype, &text, span) {
                return Ok(());
            }
            let flat: Vec<Expr> = pairs.iter().flat_map(|&(v, i)| [v, i]).collect();
            let data = f.array_literal(
                Type::array(Type::Int, Some(f.int(flat.len() as i64))),
                &flat,
            );
            let window = Window {
                capacity: f.mul(f.int(2), capacity),
                offset: f.int(2 * off),
            };
            write_buffer(ev, env, arg, window, data, f.int(flat.len() as i64), span)
        }
        Some(PairLayout::Structs(ptr)) => {
            // The posted buffer (`capacity` pairs from its start) must fit.
            if let Some(cap) = f
                .as_concrete_int(capacity)
                .and_then(|c| i64::try_from(c).ok())
            {
                if cap > 1 && pair_place(ev, &*env, &ptr, cap - 1, &text, span)?.is_none() {
                    return Ok(());
                }
            }
            for (j, &(v, i)) in pairs.iter().enumerate() {
                let Some(place) = pair_place(ev, &*env, &ptr, off + j as i64, &text, span)? else {
                    return Ok(());
                };
                for (field, (x, ty)) in [(v, &val_ty), (i, &Type::Int)].into_iter().enumerate() {
                    let mut path = place.1.clone();
                    path.push(PStep::Field(field as u32));
                    let x = coerce(f, x, ty);
                    ev.write_place(env, &(place.0, path), Value::Data(x), span)?;
                }
            }
            Ok(())
        }
    }
}

/// The type of the value half of a pair datatype.
fn pair_value_type(dtype: LC) -> Type {
    match dtype {
        LC::MpiDoubleInt => Type::Real,
        _ => Type::Int,
    }
}

/// Only `MPI_2INT` pairs may live in a flat `int` array.
fn flat_pairs_allowed(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    dtype: LC,
    text: &dyn Fn() -> String,
    span: &Span,
) -> bool {
    if dtype == LC::Mpi2Int {
        return true;
    }
    ev.fail(
        env,
        Property::MpiType,
        format!(
            "buffer `{}` of {} elements is not an array of {{double, int}} structs",
            text(),
            dtype.c_name()
        ),
        span,
    );
    false
}

/// Checks that a field read from a pair buffer has the datatype's type.
fn pair_field_type_ok(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    x: Expr,
    want: &Type,
    dtype: LC,
    text: &dyn Fn() -> String,
    span: &Span,
) -> bool {
    let f = ev.factory();
    let got = f.type_of(x);
    if got == *want {
        return true;
    }
    ev.fail(
        env,
        Property::MpiType,
        format!(
            "buffer `{}` has a {} field where {} needs {}",
            text(),
            type_name(&got),
            dtype.c_name(),
            type_name(want)
        ),
        span,
    );
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flat_elements_of_nested_arrays_are_row_major() {
        let f = ExprFactory::new();
        let row = Type::array(Type::Int, Some(f.int(3)));
        let rows: Vec<Expr> = (0..2)
            .map(|r| {
                f.array_literal(
                    row.clone(),
                    &[f.int(10 * r), f.int(10 * r + 1), f.int(10 * r + 2)],
                )
            })
            .collect();
        let a = f.array_literal(Type::array(row.clone(), Some(f.int(2))), &rows);
        let t = f.type_of(a);
        assert_eq!(inner_size(&f, &t), Some(f.int(3)));
        assert_eq!(scalar_of(&t), Type::Int);
        assert_eq!(flat_read(&f, a, f.int(4)), f.int(11));
        let mut path = SmallVec::new();
        flat_path(&f, &t, f.int(5), &mut path);
        assert_eq!(
            path.as_slice(),
            &[PStep::Index(f.int(1)), PStep::Index(f.int(2))]
        );
    }
}
