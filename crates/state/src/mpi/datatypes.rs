//! Derived datatypes: `MPI_Type_contiguous`, `MPI_Type_vector`,
//! `MPI_Type_indexed` and `MPI_Type_create_struct` (blocks of one basic
//! datatype, at byte displacements that are whole elements of it) build a
//! datatype in the process's own table (`MpiProc::datatypes`, named by
//! `Handle::Datatype`), `MPI_Type_commit` makes it usable in communication,
//! `MPI_Type_free` ends it. A derived datatype is kept as its *layout*: the
//! one basic datatype all its elements have, their displacements (in units of
//! that basic type) and its lower and upper bound. Its type signature is
//! that basic type repeated, so a message of `count` items of a contiguous
//! layout of `k` elements is `count * k` basic elements.
//!
//! Errors: using `MPI_DATATYPE_NULL`, an uncommitted or a freed datatype in
//! a communication, committing or freeing a freed or null one, freeing a
//! predefined one (`mpi-type`); a derived datatype still allocated at
//! `MPI_Finalize` (`resource-leak`).

use crate::mpi::buffer::{Elements, Reader};
use tass_dynamic::api::{Handle, Value};
use tass_model::api::mpi::ArgRole;
use tass_model::api::{Expr as MExpr, LibraryConstant as LC, LibraryFunction as LF, Span};
use tass_semantics::api::{EngineError, Evaluator, FalseClaim, Property};
use tass_symbolic::api::{Expr, Type};

use super::buffer::{concrete, datatype, flat_read, P2pType};
use super::context::{write_through, ArgReader, MpiCall};
use super::struct_type::{MixedLayout, MixedUse};
use crate::env::{set_mpi, ProcEnv};

/// Where a derived datatype is in its life.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum TypeStatus {
    /// Built, not committed yet: usable only to build other datatypes.
    Built,
    /// Committed: usable in communication.
    Committed,
    /// Freed by `MPI_Type_free`.
    Freed,
}

/// One derived datatype of a process.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct DerivedType {
    pub layout: TypeMap,
    pub status: TypeStatus,
    /// The line of the call that built it (for the leak report).
    pub line: u32,
    /// The function that built it.
    pub builder: &'static str,
}

/// The type map of a derived datatype.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum TypeMap {
    /// Every element of one basic datatype, at whole elements of it.
    Uniform(Layout),
    /// A struct of mixed basic datatypes (or of odd byte displacements).
    Mixed(MixedLayout),
}

impl TypeMap {
    /// The same type map in bytes (`None`: a basic type of unknown size).
    fn in_bytes(&self) -> Option<MixedLayout> {
        match self {
            TypeMap::Mixed(m) => Some(m.clone()),
            TypeMap::Uniform(l) => {
                let size = super::struct_type::basic_size(l.base)?;
                Some(MixedLayout {
                    elements: l.displacements.iter().map(|d| (l.base, d * size)).collect(),
                    lower: l.lower * size,
                    upper: l.upper * size,
                })
            }
        }
    }

    /// The number of basic elements of one item.
    fn elements(&self) -> usize {
        match self {
            TypeMap::Uniform(l) => l.displacements.len(),
            TypeMap::Mixed(m) => m.elements.len(),
        }
    }
}

/// The type map of a datatype, all of one basic type.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Layout {
    /// The basic datatype of every element.
    pub base: LC,
    /// The displacements of the elements, in units of `base`.
    pub displacements: Vec<i64>,
    /// The lower bound, in units of `base`.
    pub lower: i64,
    /// The upper bound, in units of `base`.
    pub upper: i64,
}

impl Layout {
    fn basic(base: LC) -> Layout {
        Layout {
            base,
            displacements: vec![0],
            lower: 0,
            upper: 1,
        }
    }

    fn extent(&self) -> i64 {
        self.upper - self.lower
    }

    /// `count` copies of `self`, copy `i` moved by `start(i)` extents.
    fn replicate(&self, starts: impl Iterator<Item = i64>) -> Layout {
        let extent = self.extent();
        let mut displacements = Vec::new();
        let (mut lower, mut upper) = (i64::MAX, i64::MIN);
        for start in starts {
            let shift = start * extent;
            displacements.extend(self.displacements.iter().map(|d| d + shift));
            lower = lower.min(self.lower + shift);
            upper = upper.max(self.upper + shift);
        }
        if displacements.is_empty() {
            (lower, upper) = (0, 0);
        }
        Layout {
            base: self.base,
            displacements,
            lower,
            upper,
        }
    }

    /// The number of elements of one item when they lie one after the other
    /// from the item's start (`None`: the layout has holes or reorders).
    fn contiguous_length(&self) -> Option<i64> {
        let consecutive = self
            .displacements
            .iter()
            .enumerate()
            .all(|(i, &d)| d == i as i64);
        let n = self.displacements.len() as i64;
        (consecutive && self.lower == 0 && self.upper == n).then_some(n)
    }
}

/// The blocks of `MPI_Type_indexed` or `MPI_Type_create_struct`: each one's
/// length and displacement.
struct Blocks {
    lengths: Vec<i64>,
    displacements: Vec<i64>,
}

/// The largest number of elements tass builds a derived datatype of.
const LAYOUT_LIMIT: i64 = 4096;

/// A datatype argument as a layout to build on; `None` when the path died
/// (a null or freed datatype, reported).
fn building_block(
    ev: &mut Evaluator<'_>,
    env: &ProcEnv<'_>,
    e: &MExpr,
    span: &Span,
) -> Result<Option<Layout>, EngineError> {
    let v = ev.eval(env, e)?;
    if let Value::Handle(Handle::Constant(c)) = v {
        if c != LC::MpiDatatypeNull {
            // A predefined datatype: checked as in a communication.
            let (c, _) = datatype(ev, env, e, span)?;
            return basic_block(c, span).map(Some);
        }
    }
    match layout_of_value(ev, env, v, span)? {
        None => Ok(None),
        Some(TypeMap::Uniform(layout)) => Ok(Some(layout)),
        Some(TypeMap::Mixed(_)) => Err(EngineError::unsupported(
            "a derived datatype built on a struct datatype of mixed basic types (tass \
             builds only MPI_Type_create_struct on those)",
            span,
        )),
    }
}

/// A predefined datatype as a layout to build on (the pair datatypes are refused).
fn basic_block(c: LC, span: &Span) -> Result<Layout, EngineError> {
    if matches!(c, LC::MpiDoubleInt | LC::Mpi2Int) {
        return Err(EngineError::unsupported(
            format!("a derived datatype built on {}", c.c_name()),
            span,
        ));
    }
    Ok(Layout::basic(c))
}

/// Datatype value `v` as a type map to build on; `None` when the path died
/// (a null or freed datatype, reported).
fn layout_of_value(
    ev: &mut Evaluator<'_>,
    env: &ProcEnv<'_>,
    v: Value,
    span: &Span,
) -> Result<Option<TypeMap>, EngineError> {
    match v {
        Value::Handle(Handle::Datatype(i)) => {
            let t = &env.state.inner.procs[env.proc].mpi.datatypes[i as usize];
            if t.status == TypeStatus::Freed {
                let message = format!(
                    "a datatype built on a freed datatype (built by {})",
                    t.builder
                );
                ev.fail(env, Property::MpiType, message, span);
                return Ok(None);
            }
            Ok(Some(t.layout.clone()))
        }
        Value::Handle(Handle::Constant(LC::MpiDatatypeNull)) => {
            let message = "a datatype built on MPI_DATATYPE_NULL".to_string();
            ev.fail(env, Property::MpiType, message, span);
            Ok(None)
        }
        Value::Handle(Handle::Constant(c)) if super::struct_type::basic_size(c).is_some() => {
            basic_block(c, span).map(|l| Some(TypeMap::Uniform(l)))
        }
        other => Err(EngineError::unsupported(
            format!("a derived datatype built on {other:?}"),
            span,
        )),
    }
}

impl MpiCall<'_, '_, '_> {
    /// A concrete, non-negative integer argument of a constructor (`mpi-count`
    /// when negative); `None` when the path died.
    fn size_argument(&mut self, role: ArgRole, what: &str) -> Result<Option<i64>, EngineError> {
        let (ev, env, call) = self.parts();
        let f = ev.factory();
        let n = ev.eval_int(&*env, call.arg(role))?;
        let name = call.lf.c_name();
        let nonneg = f.le(f.int(0), n);
        ev.check(
            &*env,
            nonneg,
            Property::MpiCount,
            || format!("negative {what} {} in {name}", f.pretty(n)),
            call.span,
        );
        if super::buffer::holds(ev, &*env, f.ff()) {
            return Ok(None);
        }
        concrete(ev, n, what, call.span).map(Some)
    }

    /// `MPI_Type_contiguous(count, oldtype, &newtype)` and
    /// `MPI_Type_vector(count, blocklength, stride, oldtype, &newtype)`.
    pub(super) fn build_datatype(&mut self) -> Result<(), EngineError> {
        let call = self.call;
        let Some(count) = self.size_argument(ArgRole::TypeCount, "count")? else {
            return Ok(());
        };
        if call.lf == LF::MpiTypeIndexed {
            return self.build_indexed(count);
        }
        if call.lf == LF::MpiTypeCreateStruct {
            return self.build_struct(count);
        }
        let (block, stride) = if call.lf == LF::MpiTypeVector {
            let Some(block) = self.size_argument(ArgRole::BlockLength, "blocklength")? else {
                return Ok(());
            };
            let stride = self.ev.eval_int(&*self.env, call.arg(ArgRole::Stride))?;
            (block, concrete(self.ev, stride, "stride", call.span)?)
        } else {
            (1, 1)
        };
        let old = building_block(self.ev, self.env, call.arg(ArgRole::OldType), call.span)?;
        let Some(old) = old else {
            return Ok(());
        };
        let elements = count
            .saturating_mul(block)
            .saturating_mul(old.displacements.len() as i64);
        if elements > LAYOUT_LIMIT {
            return Err(EngineError::unsupported(
                format!(
                    "{} of {elements} elements (tass builds derived datatypes of at most \
                     {LAYOUT_LIMIT})",
                    call.lf.c_name()
                ),
                call.span,
            ));
        }
        let starts = (0..count).flat_map(|i| (0..block).map(move |j| i * stride + j));
        let layout = old.replicate(starts);
        self.add_datatype(TypeMap::Uniform(layout))
    }

    /// Adds `layout` to the process's datatypes and writes its handle through
    /// the call's `newtype`.
    fn add_datatype(&mut self, layout: TypeMap) -> Result<(), EngineError> {
        let (ev, env, call) = self.parts();
        let derived = DerivedType {
            layout,
            status: TypeStatus::Built,
            line: call.span.start_line,
            builder: call.lf.c_name(),
        };
        let mut handle = 0;
        set_mpi(env, |m| {
            handle = m.datatypes.len() as u32;
            m.datatypes.push(derived);
        });
        let newtype = Value::Handle(Handle::Datatype(handle));
        write_through(
            ev,
            env,
            call.arg(ArgRole::NewType),
            newtype,
            "newtype",
            call.span,
        )
    }

    /// `MPI_Type_commit(&datatype)` and `MPI_Type_free(&datatype)`.
    pub(super) fn commit_or_free(&mut self) -> Result<(), EngineError> {
        let (ev, env, call) = self.parts();
        let name = call.lf.c_name();
        let freeing = call.lf == LF::MpiTypeFree;
        let pointer = ev.eval(&*env, call.arg(ArgRole::TypeRef))?;
        let place = ev.deref_place(&*env, pointer, false, call.span, &|| "datatype".into())?;
        let handle = match ev.read_place(&*env, &place) {
            Value::Handle(Handle::Datatype(i)) => i,
            Value::Handle(Handle::Constant(LC::MpiDatatypeNull)) => {
                let message = format!("{name} of MPI_DATATYPE_NULL");
                ev.fail(&*env, Property::MpiType, message, call.span);
                return Ok(());
            }
            Value::Handle(Handle::Constant(c)) if freeing => {
                let message = format!("{name} of the predefined datatype {}", c.c_name());
                ev.fail(&*env, Property::MpiType, message, call.span);
                return Ok(());
            }
            // Committing a predefined datatype changes nothing.
            Value::Handle(Handle::Constant(_)) => return Ok(()),
            other => {
                return Err(EngineError::unsupported(
                    format!("{name} of {other:?}"),
                    call.span,
                ))
            }
        };
        let status = env.state.inner.procs[env.proc].mpi.datatypes[handle as usize].status;
        if status == TypeStatus::Freed {
            let message = format!("{name} of a datatype already freed");
            ev.fail(&*env, Property::MpiType, message, call.span);
            return Ok(());
        }
        let next = if freeing {
            TypeStatus::Freed
        } else {
            TypeStatus::Committed
        };
        set_mpi(env, |m| m.datatypes[handle as usize].status = next);
        if freeing {
            let null = Value::Handle(Handle::Constant(LC::MpiDatatypeNull));
            ev.write_place(env, &place, null, call.span)?;
        }
        Ok(())
    }
}

/// The datatype and element count [`datatype_and_count`] found, for a
/// point-to-point call that cannot gather (a receive, a persistent send): a
/// layout with holes is refused here; sends take it through
/// [`datatype_and_count`]'s `Gather`.
pub(super) fn without_holes(
    (dtype, count, gather): (P2pType, Expr, Option<Gather>),
    span: &Span,
) -> Result<(P2pType, Expr), EngineError> {
    match gather {
        None => Ok((dtype, count)),
        Some(gather) => Err(EngineError::unsupported(
            format!(
                "a derived datatype with holes (built by {} on line {}) in a receive or a \
                 persistent send; tass moves such datatypes in MPI_Send, MPI_Ssend, MPI_Isend \
                 and the send half of MPI_Sendrecv only",
                gather.builder, gather.line
            ),
            span,
        )),
    }
}

/// The elements a send of a layout with holes takes from its buffer.
pub(super) struct Gather {
    /// The flat offsets (in elements of the basic datatype) of the elements
    /// sent, in order.
    pub offsets: Vec<i64>,
    builder: &'static str,
    line: u32,
}

/// The datatype and element count of a point-to-point call with `count`
/// items of datatype `e`: a derived datatype of a contiguous layout is
/// `count * k` elements of its basic datatype; a layout with holes is
/// gathered (`Some(gather)`: `count` items of a concrete count, which only
/// sends take: the others pass the result through [`without_holes`]). A
/// null, uncommitted or freed datatype is `mpi-type` (the path dies; the
/// datatype returned then is a placeholder).
pub(super) fn datatype_and_count(
    ev: &mut Evaluator<'_>,
    env: &ProcEnv<'_>,
    count: &MExpr,
    e: &MExpr,
    span: &Span,
) -> Result<(P2pType, Expr, Option<Gather>), EngineError> {
    let f = ev.factory();
    let count = ev.eval_int(env, count)?;
    let Value::Handle(Handle::Datatype(i)) = ev.eval(env, e)? else {
        return Ok((super::buffer::p2p_datatype(ev, env, e, span)?, count, None));
    };
    let t = &env.state.inner.procs[env.proc].mpi.datatypes[i as usize];
    let problem = match t.status {
        TypeStatus::Built => Some("not committed (MPI_Type_commit)"),
        TypeStatus::Freed => Some("freed"),
        TypeStatus::Committed => None,
    };
    if let Some(problem) = problem {
        let message = format!(
            "the datatype built by {} on line {} is {problem}",
            t.builder, t.line
        );
        ev.fail(env, Property::MpiType, message, span);
        // The path is dead: the datatype returned is a placeholder.
        return Ok((P2pType::Basic(LC::MpiInt, Type::Int), count, None));
    }
    let layout = match &t.layout {
        TypeMap::Uniform(layout) => layout,
        TypeMap::Mixed(mixed) => {
            return Err(EngineError::unsupported(
                format!(
                    "a struct datatype of mixed basic types ({} elements, built by {} on line \
                     {}) in this call; tass moves such datatypes in MPI_Send, MPI_Ssend, \
                     MPI_Recv and MPI_Sendrecv only",
                    mixed.elements.len(),
                    t.builder,
                    t.line
                ),
                span,
            ))
        }
    };
    let ty = basic_type(layout.base);
    let dtype = P2pType::Basic(layout.base, ty);
    if let Some(k) = layout.contiguous_length() {
        return Ok((dtype, f.mul(count, f.int(k)), None));
    }
    let items = concrete(ev, count, "count with a derived datatype with holes", span)?;
    let n = items.saturating_mul(layout.displacements.len() as i64);
    if !(0..=LAYOUT_LIMIT).contains(&n) {
        return Err(EngineError::unsupported(
            format!("a message of {n} elements of a derived datatype with holes"),
            span,
        ));
    }
    let extent = layout.extent();
    let offsets = (0..items)
        .flat_map(|i| layout.displacements.iter().map(move |d| i * extent + d))
        .collect();
    let gather = Gather {
        offsets,
        builder: t.builder,
        line: t.line,
    };
    Ok((dtype, f.int(n), Some(gather)))
}

impl Reader<'_, '_> {
    /// Reads the elements `gather` selects from the send buffer `buffer` (each
    /// checked in bounds): the message's data. `None` when the path died.
    pub(super) fn read_gathered(
        &mut self,
        buffer: &MExpr,
        gather: &Gather,
        ty: &Type,
    ) -> Result<Option<Expr>, EngineError> {
        let f = self.ev.factory();
        let mut elements = Vec::with_capacity(gather.offsets.len());
        for &offset in &gather.offsets {
            let at = Elements::new(buffer, f.int(1), f.int(offset));
            let Some(one) = self.read_buffer(at, ty)? else {
                return Ok(None);
            };
            elements.push(flat_read(f, one, f.int(0)));
        }
        let scalar = elements
            .first()
            .map(|&x| f.type_of(x))
            .unwrap_or_else(|| ty.clone());
        let n = f.int(elements.len() as i64);
        Ok(Some(
            f.array_literal(Type::array(scalar, Some(n)), &elements),
        ))
    }
}

/// The symbolic type of the elements of basic datatype `c` (one that
/// [`datatype`] accepted).
fn basic_type(c: LC) -> Type {
    match c {
        LC::MpiFloat | LC::MpiDouble | LC::MpiLongDouble => Type::Real,
        LC::MpiChar | LC::MpiByte => Type::Char,
        _ => Type::Int,
    }
}

/// `MPI_Type_size` of a derived datatype: its elements times the size of
/// its basic datatype.
pub(super) fn derived_size(env: &ProcEnv<'_>, handle: u32, basic_size: impl Fn(LC) -> i64) -> i64 {
    let t = &env.state.inner.procs[env.proc].mpi.datatypes[handle as usize];
    match &t.layout {
        TypeMap::Uniform(l) => l.displacements.len() as i64 * basic_size(l.base),
        TypeMap::Mixed(m) => m.elements.iter().map(|&(c, _)| basic_size(c)).sum(),
    }
}

/// At `MPI_Finalize`: every derived datatype still allocated is a
/// `resource-leak`.
pub(super) fn check_freed(ev: &mut Evaluator<'_>, env: &ProcEnv<'_>, span: &Span) {
    let leaked: Vec<String> = env.state.inner.procs[env.proc]
        .mpi
        .datatypes
        .iter()
        .filter(|t| t.status != TypeStatus::Freed)
        .map(|t| format!("{} on line {}", t.builder, t.line))
        .collect();
    if let Some(first) = leaked.first() {
        let message = format!(
            "the datatype built by {first} is never freed (MPI_Type_free){}",
            match leaked.len() {
                1 => String::new(),
                n => format!(", and {} more", n - 1),
            }
        );
        let claim = FalseClaim::new(Property::ResourceLeak, message, span);
        ev.record_false(env, claim.keeping_path());
    }
}

impl MpiCall<'_, '_, '_> {
    /// The block lengths and displacements (the `displacements` argument: in
    /// extents of the old type, or in bytes) of `MPI_Type_indexed` or
    /// `MPI_Type_create_struct`: concrete arrays of `count` ints, no length
    /// negative (`mpi-count`); `None` when the path died.
    fn blocks(
        &mut self,
        count: i64,
        displacements: ArgRole,
    ) -> Result<Option<Blocks>, EngineError> {
        let (ev, env, call) = self.parts();
        let f = ev.factory();
        let (name, span) = (call.lf.c_name(), call.span);
        if count > LAYOUT_LIMIT {
            return Err(EngineError::unsupported(
                format!("{name} of {count} blocks"),
                span,
            ));
        }
        let mut arrays = Vec::new();
        for (role, what) in [
            (ArgRole::BlockLengths, "block length"),
            (displacements, "displacement"),
        ] {
            let n = f.int(count);
            let array = Reader::new(ev, &*env, span)
                .read_buffer(Elements::new(call.arg(role), n, f.int(0)), &Type::Int)?;
            let Some(array) = array else {
                return Ok(None); // an invalid array, reported
            };
            let mut values = Vec::with_capacity(count as usize);
            for j in 0..count {
                let value = flat_read(f, array, f.int(j));
                if super::address::depends_on_placement(f, value) {
                    return Err(EngineError::unsupported(
                        format!(
                            "{name} with {what} {j} depending on where objects lie in memory \
                             (an absolute address, or the difference of addresses of two \
                             objects): tass takes displacements between places of one object \
                             (MPI_Get_address of the object and of its fields, then \
                             MPI_Aint_diff)"
                        ),
                        span,
                    ));
                }
                values.push(concrete(ev, value, what, span)?);
            }
            arrays.push(values);
        }
        let displacements = arrays.pop().expect("two arrays");
        let lengths = arrays.pop().expect("two arrays");
        if let Some(j) = lengths.iter().position(|&b| b < 0) {
            let message = format!("negative block length {} in {name}", lengths[j]);
            ev.fail(&*env, Property::MpiCount, message, span);
            return Ok(None);
        }
        Ok(Some(Blocks {
            lengths,
            displacements,
        }))
    }

    /// `MPI_Type_indexed(count, blocklengths, displacements, oldtype, &newtype)`:
    /// block `i` is `blocklengths[i]` copies of `oldtype` from `displacements[i]`
    /// extents of it (concrete arrays of `count` ints).
    fn build_indexed(&mut self, count: i64) -> Result<(), EngineError> {
        let Some(Blocks {
            lengths,
            displacements,
        }) = self.blocks(count, ArgRole::Displacements)?
        else {
            return Ok(());
        };
        let (ev, env, call) = self.parts();
        let span = call.span;
        let Some(old) = building_block(ev, env, call.arg(ArgRole::OldType), span)? else {
            return Ok(());
        };
        let elements: i64 = lengths.iter().sum::<i64>() * old.displacements.len() as i64;
        if elements > LAYOUT_LIMIT {
            return Err(EngineError::unsupported(
                format!("MPI_Type_indexed of {elements} elements"),
                span,
            ));
        }
        let starts = lengths
            .iter()
            .zip(&displacements)
            .flat_map(|(&b, &d)| (0..b).map(move |j| d + j));
        let layout = old.replicate(starts);
        self.add_datatype(TypeMap::Uniform(layout))
    }

    /// `MPI_Type_create_struct(count, blocklengths, displacements, types,
    /// &newtype)`: a uniform layout when every element has one basic datatype
    /// at whole elements of it (a C struct of fields of one type, and arrays of
    /// them), else a struct of mixed basic types (`struct_type.rs`).
    fn build_struct(&mut self, count: i64) -> Result<(), EngineError> {
        let Some(Blocks {
            lengths,
            displacements: bytes,
        }) = self.blocks(count, ArgRole::ByteDisplacements)?
        else {
            return Ok(());
        };
        let (ev, env, call) = self.parts();
        let span = call.span;
        let types = ev.eval(&*env, call.arg(ArgRole::OldTypes))?;
        let places = super::request::request_places(ev, &*env, types, count as usize, span)?;
        let mut blocks = Vec::with_capacity(places.len());
        for place in &places {
            let v = ev.read_place(&*env, place);
            let Some(layout) = layout_of_value(ev, env, v, span)? else {
                return Ok(());
            };
            blocks.push(layout);
        }
        let elements: i64 = lengths
            .iter()
            .zip(&blocks)
            .map(|(&b, l)| b.saturating_mul(l.elements() as i64))
            .sum();
        if elements > LAYOUT_LIMIT {
            return Err(EngineError::unsupported(
                format!("MPI_Type_create_struct of {elements} elements"),
                span,
            ));
        }
        let mut parts = Vec::with_capacity(blocks.len());
        for ((&b, &d), block) in lengths.iter().zip(&bytes).zip(&blocks) {
            let Some(block) = block.in_bytes() else {
                return Err(EngineError::unsupported(
                    "MPI_Type_create_struct of a block of a basic datatype of unknown size",
                    span,
                ));
            };
            parts.push(block.replicate(b, d));
        }
        let map = MixedLayout::union(parts);
        let map = match map.uniform() {
            Some((base, displacements, lower, upper)) => TypeMap::Uniform(Layout {
                base,
                displacements,
                lower,
                upper,
            }),
            None if map.elements.is_empty() => {
                TypeMap::Uniform(Layout::basic(LC::MpiInt).replicate(0..0))
            }
            None => TypeMap::Mixed(map),
        };
        self.add_datatype(map)
    }
}

impl MpiCall<'_, '_, '_> {
    /// `MPI_Get_count` of a status recording `elements` basic elements with the
    /// call's datatype: for a derived datatype of `k` elements an item, the
    /// whole items (`MPI_UNDEFINED` when the elements are not whole items).
    pub(super) fn items_of_elements(&mut self, elements: Expr) -> Result<Expr, EngineError> {
        let (ev, env, call) = self.parts();
        let f = ev.factory();
        let datatype = call.arg(ArgRole::Datatype);
        let Value::Handle(Handle::Datatype(i)) = ev.eval(&*env, datatype)? else {
            return Ok(elements);
        };
        let k = env.state.inner.procs[env.proc].mpi.datatypes[i as usize]
            .layout
            .elements() as i64;
        let n = concrete(ev, elements, "element count of MPI_Get_count", call.span)?;
        Ok(if n == 0 {
            f.int(0)
        } else if k > 0 && n % k == 0 {
            f.int(n / k)
        } else {
            f.int(tass_model::api::mpi::MPI_UNDEFINED)
        })
    }
}

impl ArgReader<'_, '_, '_> {
    /// The datatype of a transfer whose elements tass moves one by one at their
    /// byte positions (`struct_type.rs`): a committed struct datatype of mixed
    /// basic types, or a committed derived datatype of one basic type over a C
    /// struct buffer (whose fields are no flat array of elements).
    pub(super) fn bytewise_datatype(
        &mut self,
        datatype: &MExpr,
        buffer: &MExpr,
    ) -> Result<Option<MixedUse>, EngineError> {
        let (ev, env, _) = self.parts();
        if let Some(mixed) = committed_mixed(ev, env, datatype)? {
            return Ok(Some(mixed));
        }
        // A pointer to a struct, or into one (`&s.first_field`): the struct's
        // fields are no flat array of elements.
        let into_struct = matches!(
            ev.eval(env, buffer)?,
            Value::Pointer(tass_dynamic::api::Pointer::To { ref path, .. })
                if path.iter().any(|s| matches!(s, tass_dynamic::api::Step::Field(_)))
        );
        let of_structs = into_struct
            || matches!(
                &buffer.ty,
                tass_model::api::Type::Pointer(t) if matches!(**t, tass_model::api::Type::Struct(_))
            );
        let Value::Handle(Handle::Datatype(i)) = ev.eval(env, datatype)? else {
            return Ok(None);
        };
        let t = &env.state.inner.procs[env.proc].mpi.datatypes[i as usize];
        if !of_structs || t.status != TypeStatus::Committed {
            return Ok(None);
        }
        Ok(t.layout.in_bytes().map(|layout| MixedUse {
            layout,
            builder: t.builder,
            line: t.line,
        }))
    }
}

impl MpiCall<'_, '_, '_> {
    /// Refuses by name a struct datatype of mixed basic types as the datatype
    /// of `call`, which does not move them.
    pub(super) fn refuse_mixed(&mut self) -> Result<(), EngineError> {
        let (ev, env, call) = self.parts();
        match committed_mixed(ev, env, call.arg(ArgRole::Datatype))? {
            None => Ok(()),
            Some(mixed) => Err(EngineError::unsupported(
                format!(
                    "a struct datatype of mixed basic types (built by {} on line {}) in {}; \
                     tass moves such datatypes in MPI_Send, MPI_Ssend, MPI_Recv and \
                     MPI_Sendrecv only",
                    mixed.builder,
                    mixed.line,
                    call.lf.c_name()
                ),
                call.span,
            )),
        }
    }
}

/// The committed struct datatype of mixed basic types that datatype
/// argument `e` names, if it names one (an uncommitted or freed one is
/// reported by [`datatype_and_count`]).
pub(super) fn committed_mixed(
    ev: &mut Evaluator<'_>,
    env: &ProcEnv<'_>,
    e: &MExpr,
) -> Result<Option<MixedUse>, EngineError> {
    let Value::Handle(Handle::Datatype(i)) = ev.eval(env, e)? else {
        return Ok(None);
    };
    let t = &env.state.inner.procs[env.proc].mpi.datatypes[i as usize];
    Ok(match (&t.layout, t.status) {
        (TypeMap::Mixed(layout), TypeStatus::Committed) => Some(MixedUse {
            layout: layout.clone(),
            builder: t.builder,
            line: t.line,
        }),
        _ => None,
    })
}

impl MpiCall<'_, '_, '_> {
    /// `MPI_Type_get_extent(datatype, &lb, &extent)`, in bytes.
    pub(super) fn get_extent(&mut self) -> Result<(), EngineError> {
        let (ev, env, call) = self.parts();
        let span = call.span;
        let (lb, extent) = match ev.eval(&*env, call.arg(ArgRole::Datatype))? {
            Value::Handle(Handle::Datatype(i)) => {
                match &env.state.inner.procs[env.proc].mpi.datatypes[i as usize].layout {
                    TypeMap::Uniform(l) => (
                        l.lower * basic_size(l.base),
                        l.extent() * basic_size(l.base),
                    ),
                    TypeMap::Mixed(m) => (m.lower, m.extent()),
                }
            }
            _ => {
                let datatype = call.arg(ArgRole::Datatype);
                let Some(layout) = building_block(ev, env, datatype, span)? else {
                    return Ok(());
                };
                let size = basic_size(layout.base);
                (layout.lower * size, layout.extent() * size)
            }
        };
        self.write_int_through(call.arg(ArgRole::LowerBoundOut), lb)?;
        self.write_int_through(call.arg(ArgRole::ExtentOut), extent)
    }
}

/// The size in bytes of a basic datatype a layout is made of.
fn basic_size(c: LC) -> i64 {
    match c {
        LC::MpiChar | LC::MpiByte => 1,
        LC::MpiInt | LC::MpiUnsigned | LC::MpiFloat => 4,
        LC::MpiLongDouble => 16,
        _ => 8,
    }
}
