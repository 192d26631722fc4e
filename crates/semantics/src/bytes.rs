//! Byte-level pointers: what `char *`, `unsigned char *` and `void *` arithmetic,
//! `offsetof` and casts back to `T *` mean, in bytes, as C defines them.
//!
//! A pointer is a path inside a variable ([`Pointer::To`]). Cast to a character or
//! `void` pointer type it keeps that path; byte arithmetic on it turns it into a
//! byte view ([`Pointer::Bytes`]: the whole variable or heap block and an offset
//! in bytes, from the LP64 layout of its type, padding included). A cast of a
//! byte view to `T *`, or its dereference, turns the offset back into a path that
//! ends at an object of type `T`: the offset must be a multiple of the element
//! sizes on the way (proved under the path condition, or reported as a
//! misaligned pointer) and land on a `T` (otherwise the program reinterprets the
//! bytes of another type, which tass refuses by name).

use smallvec::SmallVec;
use tass_dynamic::api::{HeapObject, Pointer, Root, Step, Value};
use tass_model::api::{field_offset, layout_of, Comparison, IntKind, Span, Type as MType};
use tass_symbolic::api::{BigInt, Expr, ExprView};

use crate::env::Environment;
use crate::eval::Evaluator;
use crate::float::compare_exact;
use crate::report::{EngineError, Property};

/// A path inside a variable.
pub type Path = SmallVec<[Step; 2]>;

/// The types whose pointers address bytes: `char`, `signed`/`unsigned char`, `void`.
pub fn is_byte_type(ty: &MType) -> bool {
    matches!(
        ty,
        MType::Char | MType::Void | MType::Int(IntKind::UnsignedChar)
    )
}

fn is_character_type(ty: &MType) -> bool {
    matches!(ty, MType::Char | MType::Int(IntKind::UnsignedChar))
}

/// What resolving a byte offset is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ResolveMode {
    /// A cast: resolve when everything is proved, else keep the byte view.
    Cast,
    /// A dereference: report what fails.
    Access,
}

impl ResolveMode {
    /// The end of a resolution that cannot go on (`what` says why): no answer
    /// for a cast (it keeps the byte view), an unsupported construct for an access.
    fn refuse(self, what: String, span: &Span) -> Result<Option<Resolved>, EngineError> {
        match self {
            ResolveMode::Cast => Ok(None),
            ResolveMode::Access => Err(EngineError::unsupported(what, span)),
        }
    }
}

/// Where a byte offset lands, seen as an object of the requested type.
pub enum Resolved {
    /// The path to an object of the requested type (its last index may be one past
    /// the end of its array).
    Path(Path),
    /// The offset is the end of an object that is not an array element (one past
    /// a scalar or a struct): a valid pointer value that no path can name.
    PastTheEnd,
}

/// What resolving a byte offset asks, carried from
/// [`Evaluator::element_path_at`] into the scalar it lands on: the offset,
/// the type wanted there, what to do on failure, and where.
struct ByteRequest<'q> {
    offset: Expr,
    target: &'q MType,
    mode: ResolveMode,
    span: &'q Span,
}

/// How a C type is spelled in messages.
fn type_text(env: &dyn Environment, ty: &MType) -> String {
    tass_model::api::render_type(env.model(), ty)
}

impl Evaluator<'_> {
    /// The model type of a variable or heap block (a heap block is an array of
    /// its element type); `None` for a block that no longer exists.
    pub(crate) fn root_type(&self, env: &dyn Environment, root: Root) -> Option<MType> {
        match root {
            Root::Shared(v) | Root::Global { var: v, .. } | Root::Local { var: v, .. } => {
                Some(env.model().var(v).ty.clone())
            }
            Root::Heap { proc, object } => match env.heap_object(proc as usize, object)? {
                HeapObject::Live { elem, .. } => {
                    Some(MType::Array(Box::new(elem.model_type()?), None))
                }
                HeapObject::Freed => None,
            },
        }
    }

    /// The size in bytes of the object of type `ty` at `root`/`path` (array
    /// extents that are not constants are read from the value).
    fn size_at(
        &self,
        env: &dyn Environment,
        root: Root,
        path: &[Step],
        ty: &MType,
    ) -> Option<Expr> {
        let f = self.factory();
        if let Some(l) = layout_of(&env.model().structs, ty) {
            return Some(f.int(l.size));
        }
        let MType::Array(elem, _) = ty else {
            return None;
        };
        let extent = self.extent_at(env, root, path)?;
        let mut inner: Path = path.iter().copied().collect();
        inner.push(Step::Index(f.int(0)));
        Some(f.mul(extent, self.size_at(env, root, &inner, elem)?))
    }

    /// The size in bytes of the whole variable or heap block `root`.
    pub fn object_size(&self, env: &dyn Environment, root: Root) -> Option<Expr> {
        let ty = self.root_type(env, root)?;
        self.size_at(env, root, &[], &ty)
    }

    /// The byte offset of `root`/`path` from the start of `root`, and the type of
    /// the object there. This is "the byte offset of a pointer" for library models
    /// (`memcpy`, `memset`, ...).
    pub fn byte_offset(
        &self,
        env: &dyn Environment,
        root: Root,
        path: &[Step],
    ) -> Result<(Expr, MType), String> {
        let f = self.factory();
        let model = env.model();
        let mut ty = self
            .root_type(env, root)
            .ok_or("its object no longer exists or has no known layout")?;
        let mut offset = f.int(0);
        for (k, step) in path.iter().enumerate() {
            ty = match (ty, *step) {
                (MType::Array(elem, _), Step::Index(i)) => {
                    let size = self
                        .size_at(env, root, &path[..=k], &elem)
                        .ok_or("an element size is not known")?;
                    offset = f.add(offset, f.mul(i, size));
                    *elem
                }
                (MType::Struct(id), Step::Field(j)) => {
                    let at = field_offset(&model.structs, id, j as usize)
                        .ok_or("a struct layout is not constant")?;
                    offset = f.add(offset, f.int(at));
                    model.struct_def(id).fields[j as usize].ty.clone()
                }
                _ => return Err("its path does not match its type".into()),
            };
        }
        Ok((offset, ty))
    }

    /// The type of the object at `root`/`path` (`None` if unknown).
    pub fn place_type(&self, env: &dyn Environment, root: Root, path: &[Step]) -> Option<MType> {
        let model = env.model();
        let mut ty = self.root_type(env, root)?;
        for step in path {
            ty = match (ty, *step) {
                (MType::Array(elem, _), Step::Index(_)) => *elem,
                (MType::Struct(id), Step::Field(j)) => {
                    model.struct_def(id).fields.get(j as usize)?.ty.clone()
                }
                _ => return None,
            };
        }
        Some(ty)
    }

    /// A pointer as (root, byte offset), for byte arithmetic and comparisons.
    pub fn byte_position(
        &self,
        env: &dyn Environment,
        p: &Pointer,
        span: &Span,
    ) -> Result<Option<(Root, Expr)>, EngineError> {
        Ok(match p {
            Pointer::Null => None,
            Pointer::Bytes { root, offset } => Some((*root, *offset)),
            Pointer::To { root, path } => {
                let (offset, _) = self.byte_offset(env, *root, path).map_err(|why| {
                    EngineError::unsupported(
                        format!("byte arithmetic on this pointer ({why})"),
                        span,
                    )
                })?;
                Some((*root, offset))
            }
        })
    }

    /// `p + bytes` for a byte view or a pointer seen as one, with the check that
    /// the result stays within its object or one past its end (in bytes).
    pub fn byte_add(
        &mut self,
        env: &dyn Environment,
        p: &Pointer,
        bytes: Expr,
        span: &Span,
    ) -> Result<Pointer, EngineError> {
        let f = self.factory();
        let Some((root, offset)) = self.byte_position(env, p, span)? else {
            return Ok(Pointer::Null);
        };
        let offset = f.add(offset, bytes);
        let size = self.object_size(env, root).ok_or_else(|| {
            EngineError::unsupported("byte arithmetic in an object of unknown size", span)
        })?;
        let claim = f.and(f.le(f.int(0), offset), f.le(offset, size));
        self.check(
            env,
            claim,
            Property::OutOfBounds,
            || {
                let (os, ss) = (f.pretty(offset), f.pretty(size));
                format!("pointer offset {os} bytes outside its object of {ss} bytes")
            },
            span,
        );
        Ok(Pointer::Bytes { root, offset })
    }

    /// `p - q` in bytes (both pointers into the same object).
    pub fn byte_difference(
        &mut self,
        env: &dyn Environment,
        p: &Pointer,
        q: &Pointer,
        span: &Span,
    ) -> Result<Option<Expr>, EngineError> {
        let f = self.factory();
        match (
            self.byte_position(env, p, span)?,
            self.byte_position(env, q, span)?,
        ) {
            (Some((r1, o1)), Some((r2, o2))) if r1 == r2 => Ok(Some(f.sub(o1, o2))),
            _ => Ok(None),
        }
    }

    /// The pointer of type `target *` that a byte view (or a pointer of another
    /// pointee type) denotes: "the element pointer at a byte offset", for a cast.
    /// A cast never fails: when the offset does not resolve to a `target` (one past
    /// a non-array object, misaligned, inside another type's bytes, not provably a
    /// multiple of the element size), the result stays a byte view and the access
    /// through it is checked ([`Evaluator::pointer_for_access`]), as in C, where the
    /// access is what goes wrong.
    pub fn typed_pointer(
        &mut self,
        env: &dyn Environment,
        p: Pointer,
        target: &MType,
        span: &Span,
    ) -> Result<Pointer, EngineError> {
        self.resolve_pointer(env, p, target, ResolveMode::Cast, span)
    }

    fn resolve_pointer(
        &mut self,
        env: &dyn Environment,
        p: Pointer,
        target: &MType,
        mode: ResolveMode,
        span: &Span,
    ) -> Result<Pointer, EngineError> {
        let (root, offset) = match &p {
            Pointer::Null => return Ok(p),
            Pointer::To { root, path } => {
                let here = self.place_type(env, *root, path);
                if here.as_ref().is_some_and(|t| compatible(env, t, target)) {
                    return Ok(p);
                }
                match self.byte_position(env, &p, span) {
                    Ok(Some(x)) => x,
                    Ok(None) => return Ok(p),
                    Err(_) if mode == ResolveMode::Cast => return Ok(p),
                    Err(e) => return Err(e),
                }
            }
            Pointer::Bytes { root, offset } => (*root, *offset),
        };
        Ok(
            match self.element_path_at(env, root, offset, target, mode, span)? {
                Some(Resolved::Path(path)) => Pointer::To { root, path },
                Some(Resolved::PastTheEnd) | None => Pointer::Bytes { root, offset },
            },
        )
    }

    /// Where byte `offset` of `root` lands as an object of type `target`: the
    /// path to it, descending arrays (index = offset / element size) and structs
    /// (the member whose bytes hold the offset). In [`ResolveMode::Access`] what fails is
    /// reported (a misaligned offset as a violation, reinterpretation of another
    /// type's bytes as an unsupported construct); in [`ResolveMode::Cast`] it gives `None`.
    pub fn element_path_at(
        &mut self,
        env: &dyn Environment,
        root: Root,
        offset: Expr,
        target: &MType,
        mode: ResolveMode,
        span: &Span,
    ) -> Result<Option<Resolved>, EngineError> {
        let f = self.factory();
        let refuse = |what: String| mode.refuse(what, span);
        let Some(mut ty) = self.root_type(env, root) else {
            return refuse("a byte pointer into an object that no longer exists".into());
        };
        let mut path = Path::new();
        let mut offset = offset;
        loop {
            let at_start = f
                .as_concrete_int(offset)
                .is_some_and(|o| o == BigInt::from(0));
            if at_start && compatible(env, &ty, target) {
                return Ok(Some(Resolved::Path(path)));
            }
            match ty.clone() {
                MType::Array(elem, _) => {
                    let Some(size) = self.size_at(env, root, &with_index(&path, f.int(0)), &elem)
                    else {
                        return refuse(
                            "a byte offset into an array of unknown element size".into(),
                        );
                    };
                    let (index, rest) = match split_offset(self, offset, size) {
                        Some(x) => x,
                        None if compatible(env, &elem, target) || layout_is_scalar(env, &elem) => {
                            if !self.require_aligned(env, offset, size, target, mode, span) {
                                return Ok(None);
                            }
                            (f.int_div(offset, size), f.int(0))
                        }
                        None => {
                            return refuse(format!(
                                "a symbolic byte offset {} into an array of `{}` that tass cannot resolve to a member",
                                f.pretty(offset),
                                type_text(env, &elem)
                            ))
                        }
                    };
                    path.push(Step::Index(index));
                    let whole_element = f
                        .as_concrete_int(rest)
                        .is_some_and(|r| r == BigInt::from(0))
                        && compatible(env, &elem, target);
                    // Going inside the element: it must exist.
                    if !whole_element && !self.require_inside(env, root, &path, index, mode, span) {
                        return Ok(None);
                    }
                    ty = *elem;
                    offset = rest;
                }
                MType::Struct(id) => {
                    let Some(r) = f
                        .as_concrete_int(offset)
                        .and_then(|r| u64::try_from(r).ok())
                    else {
                        return refuse(format!(
                            "a symbolic byte offset {} inside a `{}`",
                            f.pretty(offset),
                            type_text(env, &ty)
                        ));
                    };
                    let model = env.model();
                    let def = model.struct_def(id);
                    let size = layout_of(&model.structs, &ty).map(|l| l.size);
                    let holds = |k: usize| -> Option<u64> {
                        let start = field_offset(&model.structs, id, k)?;
                        let len = layout_of(&model.structs, &def.fields[k].ty)?.size;
                        (start <= r && r < start + len).then_some(start)
                    };
                    let candidates: Vec<(usize, u64)> = (0..def.fields.len())
                        .filter_map(|k| holds(k).map(|s| (k, s)))
                        .collect();
                    // In a union, prefer the member of the requested type.
                    let chosen = candidates
                        .iter()
                        .find(|(k, s)| *s == r && compatible(env, &def.fields[*k].ty, target))
                        .or(candidates.first());
                    match chosen {
                        Some(&(k, start)) => {
                            path.push(Step::Field(k as u32));
                            offset = f.int(r - start);
                            ty = def.fields[k].ty.clone();
                        }
                        None if Some(r) == size => return Ok(Some(Resolved::PastTheEnd)),
                        None => {
                            return refuse(format!(
                                "a pointer to padding byte {r} of a `{}`",
                                type_text(env, &ty)
                            ))
                        }
                    }
                }
                other => {
                    let request = ByteRequest {
                        offset,
                        target,
                        mode,
                        span,
                    };
                    return self.inside_scalar(env, &other, request);
                }
            }
        }
    }

    /// The end of resolving a byte offset that lands on a scalar of type `here`
    /// that is not the requested `target` (or not at its start).
    fn inside_scalar(
        &mut self,
        env: &dyn Environment,
        here: &MType,
        request: ByteRequest<'_>,
    ) -> Result<Option<Resolved>, EngineError> {
        let ByteRequest {
            offset,
            target,
            mode,
            span,
        } = request;
        let f = self.factory();
        let structs = &env.model().structs;
        let size = layout_of(structs, here).map(|l| l.size);
        let refused = |what: String| mode.refuse(what, span);
        let Some(o) = f.as_concrete_int(offset) else {
            return refused(format!(
                "a symbolic byte offset {} inside a `{}`",
                f.pretty(offset),
                type_text(env, here)
            ));
        };
        if u64::try_from(&o).ok() == size {
            return Ok(Some(Resolved::PastTheEnd));
        }
        let align = layout_of(structs, target).map_or(1, |l| l.align);
        if &o % BigInt::from(align) != BigInt::from(0) {
            if mode == ResolveMode::Access {
                self.fail(
                    env,
                    Property::InvalidPointer,
                    format!(
                        "access as `{}` at {o} byte(s) into an object of type `{}` (misaligned)",
                        type_text(env, target),
                        type_text(env, here)
                    ),
                    span,
                );
            }
            return Ok(None);
        }
        refused(format!(
            "accessing the bytes of an object of type `{}` as `{}` (type punning through \
             pointer casts is not modelled; convert the value instead)",
            type_text(env, here),
            type_text(env, target)
        ))
    }

    /// Whether `claim` holds: in [`ResolveMode::Access`] checked (reported if it may
    /// fail, then assumed: true); in [`ResolveMode::Cast`] only asked of the prover.
    fn require(
        &mut self,
        env: &dyn Environment,
        claim: Expr,
        property: Property,
        mode: ResolveMode,
        message: impl FnOnce() -> String,
        span: &Span,
    ) -> bool {
        let f = self.factory();
        match mode {
            ResolveMode::Access => {
                self.check(env, claim, property, message, span);
                true
            }
            ResolveMode::Cast => {
                if f.as_bool(claim) == Some(true) {
                    return true;
                }
                let pc = self.current_pc(env);
                matches!(
                    self.oracle().valid(f, pc, claim),
                    crate::oracle::Decision::Holds
                )
            }
        }
    }

    /// The byte offset is a multiple of the element size.
    fn require_aligned(
        &mut self,
        env: &dyn Environment,
        offset: Expr,
        size: Expr,
        target: &MType,
        mode: ResolveMode,
        span: &Span,
    ) -> bool {
        let f = self.factory();
        let claim = f.eq(f.int_mod(offset, size), f.int(0));
        let text = type_text(env, target);
        self.require(
            env,
            claim,
            Property::InvalidPointer,
            mode,
            || {
                let (os, ss) = (f.pretty(offset), f.pretty(size));
                format!("access as `{text}` at byte offset {os}, which may not be a multiple of the element size {ss} (misaligned)")
            },
            span,
        )
    }

    /// `index` (the last step of `path`) names an existing element.
    fn require_inside(
        &mut self,
        env: &dyn Environment,
        root: Root,
        path: &[Step],
        index: Expr,
        mode: ResolveMode,
        span: &Span,
    ) -> bool {
        let f = self.factory();
        let Some(extent) = self.extent_at(env, root, &path[..path.len() - 1]) else {
            return true;
        };
        let claim = f.and(f.le(f.int(0), index), f.lt(index, extent));
        self.require(
            env,
            claim,
            Property::OutOfBounds,
            mode,
            || {
                let (is, es) = (f.pretty(index), f.pretty(extent));
                format!("byte pointer into element {is} of an array of {es} elements")
            },
            span,
        )
    }
}

fn with_index(path: &[Step], i: Expr) -> Path {
    let mut p: Path = path.iter().copied().collect();
    p.push(Step::Index(i));
    p
}

fn layout_is_scalar(env: &dyn Environment, ty: &MType) -> bool {
    !matches!(ty, MType::Array(..) | MType::Struct(_))
        && layout_of(&env.model().structs, ty).is_some()
}

/// `offset = size * index + rest` with `rest` a concrete number in `[0, size)`,
/// when the non-constant part of `offset` is a multiple of `size` (exact algebra,
/// no rounding: `(24*i + 8)` by 24 is `(i, 8)`, `4*k - 4` by 4 is `(k - 1, 0)`).
fn split_offset(ev: &Evaluator<'_>, offset: Expr, size: Expr) -> Option<(Expr, Expr)> {
    let f = ev.factory();
    let s = f.as_concrete_int(size).filter(|s| *s > BigInt::from(0))?;
    let constant = match f.view(offset) {
        ExprView::Int(c) => c,
        ExprView::Add(terms) => terms
            .iter()
            .filter_map(|&t| f.as_concrete_int(t))
            .fold(BigInt::from(0), |a, b| a + b),
        _ => BigInt::from(0),
    };
    let rest = ((&constant % &s) + &s) % &s;
    let base = f.sub(offset, f.int(rest.clone()));
    if f.as_concrete_int(f.int_mod(base, size)) != Some(BigInt::from(0)) {
        return None;
    }
    Some((f.int_div(base, size), f.int(rest)))
}

/// True if an object of type `here` may be used as a `target`: the same type, any
/// two pointer types, or the character types (which C lets alias each other).
pub fn compatible(env: &dyn Environment, here: &MType, target: &MType) -> bool {
    match (here, target) {
        (MType::Pointer(_), MType::Pointer(_)) => true,
        (a, b) if is_character_type(a) && is_character_type(b) => true,
        (MType::Array(a, _), MType::Array(b, _)) => {
            let model = env.model();
            compatible(env, a, b)
                && layout_of(&model.structs, here).map(|l| l.size)
                    == layout_of(&model.structs, target).map(|l| l.size)
        }
        (a, b) => a == b,
    }
}

impl Evaluator<'_> {
    /// `p + k` where byte semantics apply: on a byte view (`k` scaled by the
    /// size of `pointer_type`'s pointee), or on a `char *`/`void *` pointer whose
    /// object is not an array of characters. `None`: plain element arithmetic.
    pub fn byte_pointer_add(
        &mut self,
        env: &dyn Environment,
        p: &Value,
        pointer_type: &MType,
        k: Expr,
        span: &Span,
    ) -> Result<Option<Value>, EngineError> {
        let f = self.factory();
        let Value::Pointer(p) = p else {
            return Ok(None);
        };
        let pointee = pointer_type.element().cloned().unwrap_or(MType::Void);
        let bytes = match p {
            Pointer::Bytes { .. } if is_byte_type(&pointee) => k,
            Pointer::Bytes { .. } => {
                let size = layout_of(&env.model().structs, &pointee).ok_or_else(|| {
                    EngineError::unsupported(
                        "arithmetic on a pointer to a type of unknown size",
                        span,
                    )
                })?;
                f.mul(k, f.int(size.size))
            }
            Pointer::To { root, path } if is_byte_type(&pointee) => {
                let on_characters = matches!(path.last(), Some(Step::Index(_)))
                    && self
                        .place_type(env, *root, path)
                        .is_some_and(|t| is_character_type(&t));
                if on_characters || f.as_concrete_int(k).is_some_and(|k| k == BigInt::from(0)) {
                    return Ok(None);
                }
                k
            }
            _ => return Ok(None),
        };
        Ok(Some(Value::Pointer(self.byte_add(env, p, bytes, span)?)))
    }

    /// `p - q` where byte semantics apply (a byte view, or `char *`/`void *`
    /// operands), in units of `pointer_type`'s pointee. `None`: element arithmetic.
    pub fn byte_pointer_difference(
        &mut self,
        env: &dyn Environment,
        p: &Value,
        q: &Value,
        pointer_type: &MType,
        span: &Span,
    ) -> Result<Option<Expr>, EngineError> {
        let f = self.factory();
        let (Value::Pointer(p), Value::Pointer(q)) = (p, q) else {
            return Ok(None);
        };
        let pointee = pointer_type.element().cloned().unwrap_or(MType::Void);
        let bytes_apply = is_byte_type(&pointee)
            || matches!(p, Pointer::Bytes { .. })
            || matches!(q, Pointer::Bytes { .. });
        if !bytes_apply || p.is_null() || q.is_null() {
            return Ok(None);
        }
        let views = matches!(p, Pointer::Bytes { .. }) || matches!(q, Pointer::Bytes { .. });
        let d = match self.byte_difference(env, p, q, span) {
            Ok(Some(d)) => d,
            Ok(None) => return Ok(None),
            // Paths subtract without a layout; byte views cannot.
            Err(_) if !views => return Ok(None),
            Err(e) => return Err(e),
        };
        if is_byte_type(&pointee) {
            return Ok(Some(d));
        }
        let size = layout_of(&env.model().structs, &pointee).ok_or_else(|| {
            EngineError::unsupported("difference of pointers to a type of unknown size", span)
        })?;
        Ok(Some(f.int_div(d, f.int(size.size))))
    }

    /// Compares two pointers by byte position when one at least is a byte view
    /// or they are `char *`/`void *` pointers (`(void *)&s == (void *)&s.first` is
    /// true in C). `None`: compare paths.
    pub fn compare_byte_pointers(
        &self,
        env: &dyn Environment,
        op: tass_model::api::BinaryOp,
        (p, q): (&Pointer, &Pointer),
        pointer_type: &MType,
        span: &Span,
    ) -> Result<Option<Expr>, EngineError> {
        use tass_model::api::BinaryOp::*;
        let f = self.factory();
        let views = matches!(p, Pointer::Bytes { .. }) || matches!(q, Pointer::Bytes { .. });
        let bytes = pointer_type.element().is_some_and(is_byte_type);
        if !(views || bytes) || p.is_null() || q.is_null() {
            return Ok(None);
        }
        let position = |x: &Pointer| match self.byte_position(env, x, span) {
            Ok(pos) => Ok(pos),
            // Paths compare without a layout; byte views cannot.
            Err(_) if !views => Ok(None),
            Err(e) => Err(e),
        };
        let (Some((r1, o1)), Some((r2, o2))) = (position(p)?, position(q)?) else {
            return Ok(None);
        };
        Ok(Some(match op {
            Compare(Comparison::Eq) if r1 != r2 => f.ff(),
            Compare(Comparison::Ne) if r1 != r2 => f.tt(),
            _ if r1 != r2 => {
                return Err(EngineError::unsupported(
                    "ordering of pointers into different objects",
                    span,
                ))
            }
            Compare(c) => compare_exact(f, c, (o1, o2)),
            _ => return Ok(None),
        }))
    }

    /// The pointer to dereference at type `pointee`: a byte view is turned back
    /// into a path; a character read through a pointer to another type is refused.
    pub fn pointer_for_access(
        &mut self,
        env: &dyn Environment,
        pv: Value,
        pointee: &MType,
        span: &Span,
    ) -> Result<Value, EngineError> {
        match pv {
            Value::Pointer(p @ Pointer::Bytes { .. }) => Ok(Value::Pointer(self.resolve_pointer(
                env,
                p,
                pointee,
                ResolveMode::Access,
                span,
            )?)),
            Value::Pointer(p @ Pointer::To { .. }) if is_character_type(pointee) => Ok(
                Value::Pointer(self.resolve_pointer(env, p, pointee, ResolveMode::Access, span)?),
            ),
            other => Ok(other),
        }
    }
}
