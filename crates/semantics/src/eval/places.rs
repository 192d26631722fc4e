//! Places (lvalues): evaluating, dereferencing, reading and writing them.

use smallvec::SmallVec;
use tass_dynamic::api::{
    is_undefined_data, read_at, write_at, AccessError, HeapObject, Pointer, Root, Step, Value,
};
use tass_model::api::{Expr as MExpr, ExprKind, Span, Type as MType, VarScope};
use tass_symbolic::api::{Expr, Type};

use super::{int_of, scalar_type, Evaluator, FalseClaim, Place};
use crate::env::Environment;
use crate::report::{EngineError, Property};

impl<'a> Evaluator<'a> {
    // ----- places (lvalues) ------------------------------------------------------

    /// The extent of the array at `root`/`path`, if known.
    pub fn extent_at(&self, env: &dyn Environment, root: Root, path: &[Step]) -> Option<Expr> {
        let f = self.f;
        let mut value = env.get(root)?;
        let mut k = 0;
        // Walk spelled-out components by value; inside data, walk the types (no
        // array reads need to be built just to learn an extent).
        while k < path.len() {
            match (value, path[k]) {
                (Value::Array(items), Step::Index(i)) => {
                    let i = usize::try_from(f.concrete_int_ref(i)?).ok()?;
                    value = items.get(i)?;
                }
                (Value::Struct(fields), Step::Field(j)) => value = fields.get(j as usize)?,
                (Value::Data(_), _) => break,
                _ => return None,
            }
            k += 1;
        }
        match value {
            Value::Data(e) => {
                let mut ty = f.type_of(*e);
                for step in &path[k..] {
                    ty = match (ty, step) {
                        (Type::Array(elem, _), Step::Index(_)) => (*elem).clone(),
                        _ => return None,
                    };
                }
                match ty {
                    Type::Array(_, ext) => ext,
                    _ => None,
                }
            }
            Value::Array(items) if k == path.len() => Some(f.int(items.len())),
            _ => None,
        }
    }

    /// Evaluates an lvalue to the place it denotes. With `address_only` (under `&`),
    /// an index may be one past the end.
    pub fn eval_place(
        &mut self,
        env: &dyn Environment,
        e: &MExpr,
        address_only: bool,
    ) -> Result<Place, EngineError> {
        let f = self.f;
        match &e.kind {
            ExprKind::Var(v) => {
                if matches!(env.model().var(*v).scope, VarScope::Bound) {
                    return Err(EngineError::unsupported(
                        "the address of a quantified variable",
                        &e.span,
                    ));
                }
                Ok((env.root_of(*v), SmallVec::new()))
            }
            ExprKind::Field(s, k) => {
                let (root, mut path) = self.eval_place(env, s, address_only)?;
                path.push(Step::Field(*k as u32));
                Ok((root, path))
            }
            ExprKind::Index(a, i) => {
                let (root, mut path) = self.eval_place(env, a, address_only)?;
                let i = self.eval_int(env, i)?;
                let ext = self.extent_at(env, root, &path).or_else(|| match &a.ty {
                    MType::Array(_, Some(x)) => match x.kind {
                        ExprKind::IntLit(n) => Some(f.int(n)),
                        _ => None,
                    },
                    _ => None,
                });
                if let Some(ext) = ext {
                    let upper = if address_only {
                        f.le(i, ext)
                    } else {
                        f.lt(i, ext)
                    };
                    let claim = f.and(f.le(f.int(0), i), upper);
                    self.check(
                        env,
                        claim,
                        Property::OutOfBounds,
                        || {
                            let text = tass_model::api::render_expr(env.model(), e);
                            let (is, es) = (f.pretty(i), f.pretty(ext));
                            format!("index out of bounds in `{text}`: index {is}, extent {es}")
                        },
                        &e.span,
                    );
                }
                path.push(Step::Index(i));
                Ok((root, path))
            }
            ExprKind::Deref(p) => {
                let pv = self.eval(env, p)?;
                let pv = self.pointer_for_access(env, pv, &e.ty, &e.span)?;
                if let Value::Pointer(Pointer::Bytes { offset, .. }) = &pv {
                    if !address_only {
                        let at = f.pretty(*offset);
                        self.fail(
                            env,
                            Property::OutOfBounds,
                            format!(
                                "dereference of `{}` at byte {at}, the end of its object",
                                tass_model::api::render_expr(env.model(), p)
                            ),
                            &e.span,
                        );
                        return Ok(dead_place());
                    }
                }
                self.deref_place(env, pv, address_only, &e.span, &|| {
                    tass_model::api::render_expr(env.model(), p)
                })
            }
            ExprKind::RemoteVar {
                rank,
                function,
                var,
            } => {
                let rank = self.remote_rank(env, rank)?;
                let root = env
                    .remote_root((rank, *function, *var))
                    .map_err(|why| EngineError::unsupported(why, &e.span))?;
                Ok((root, SmallVec::new()))
            }
            ExprKind::SpecVar(name) => {
                let root = env
                    .spec_root(name)
                    .map_err(|why| EngineError::unsupported(why, &e.span))?;
                Ok((root, SmallVec::new()))
            }
            _ => Err(EngineError::invalid(
                format!(
                    "`{}` is not an lvalue",
                    tass_model::api::render_expr(env.model(), e)
                ),
                Some(&e.span),
            )),
        }
    }

    /// The place a pointer value points to, checking that it is valid: not null,
    /// not uninitialised, not dangling or freed, and (unless `address_only`) inside
    /// its object. On an invalid pointer the violation is recorded and the path
    /// dies; a placeholder place is returned so evaluation can finish.
    pub fn deref_place(
        &mut self,
        env: &dyn Environment,
        pv: Value,
        address_only: bool,
        span: &Span,
        text: &dyn Fn() -> String,
    ) -> Result<Place, EngineError> {
        let f = self.f;
        let dead = |this: &mut Self, env: &dyn Environment, msg: String| -> Place {
            this.fail(env, Property::InvalidPointer, msg, span);
            dead_place()
        };
        let (root, path) = match pv {
            Value::Pointer(Pointer::To { root, path }) => (root, path),
            Value::Pointer(Pointer::Bytes { .. }) => {
                return Err(EngineError::unsupported(
                    format!(
                        "`{}` is a byte pointer (moved by `char *` arithmetic) used where a \
                         pointer to elements is needed; cast it back to the element type",
                        text()
                    ),
                    span,
                ))
            }
            Value::Pointer(Pointer::Null) => {
                return Ok(dead(
                    self,
                    env,
                    format!("dereference of a null pointer `{}`", text()),
                ))
            }
            Value::Undefined => {
                return Ok(dead(
                    self,
                    env,
                    format!("dereference of an uninitialised pointer `{}`", text()),
                ))
            }
            Value::Data(_) => {
                // e.g. a string literal picked by `?:` (literals have no object to
                // point into); the value's internal form would mean nothing to the user
                return Err(EngineError::unsupported(
                    format!(
                        "dereference of `{}`, which does not point into a variable or a malloc'ed block (a string literal chosen at run time has no object: copy it into a char array first)",
                        text()
                    ),
                    span,
                ));
            }
            other => {
                return Err(EngineError::unsupported(
                    format!("dereference of {other:?}"),
                    span,
                ))
            }
        };
        if let Root::Heap { proc, object } = root {
            match env.heap_object(proc as usize, object) {
                Some(HeapObject::Live { .. }) => {}
                Some(HeapObject::Freed) => {
                    return Ok(dead(
                        self,
                        env,
                        format!("use of `{}`, which points to freed memory", text()),
                    ))
                }
                None => {
                    return Ok(dead(
                        self,
                        env,
                        format!("dereference of a dangling pointer `{}`", text()),
                    ))
                }
            }
        } else if env.get(root).is_none() {
            return Ok(dead(
                self,
                env,
                format!(
                    "dereference of a dangling pointer `{}` (its variable no longer exists)",
                    text()
                ),
            ));
        }
        if !address_only {
            if let Some(Step::Index(i)) = path.last().copied() {
                let prefix = &path[..path.len() - 1];
                if let Some(ext) = self.extent_at(env, root, prefix) {
                    let claim = f.and(f.le(f.int(0), i), f.lt(i, ext));
                    self.check(
                        env,
                        claim,
                        Property::OutOfBounds,
                        || {
                            let (is, es) = (f.pretty(i), f.pretty(ext));
                            format!(
                                "dereference of `{}` outside its object: offset {is}, extent {es}",
                                text()
                            )
                        },
                        span,
                    );
                }
            }
        }
        Ok((root, path))
    }

    /// Reads the place an lvalue denotes; reports uninitialised scalar reads.
    pub(super) fn read_lvalue(
        &mut self,
        env: &dyn Environment,
        e: &MExpr,
    ) -> Result<Value, EngineError> {
        let (root, path) = self.eval_place(env, e, false)?;
        let Some(value) = env.get(root) else {
            return Ok(self.fresh_of(&e.ty));
        };
        self.check_union_read(env, root, &path, &e.span)?;
        let v = match read_at(self.f, value, &path) {
            Ok(v) => v,
            Err(AccessError::Undefined) => Value::Undefined,
            Err(AccessError::IndexOutOfRange) => return Ok(self.fresh_of(&e.ty)),
            Err(AccessError::SymbolicIndex) => {
                return Err(EngineError::unsupported(
                    "a symbolic index into an array of pointers or structs",
                    &e.span,
                ))
            }
            Err(err) => return Err(EngineError::invalid(err.to_string(), Some(&e.span))),
        };
        let scalar = scalar_type(&e.ty).is_some() || matches!(e.ty, MType::Pointer(_));
        let undefined = match &v {
            Value::Undefined => scalar,
            Value::Data(x) => scalar && is_undefined_data(self.f, *x),
            _ => false,
        };
        if undefined {
            let text = tass_model::api::render_expr(env.model(), e);
            let message = format!("read of uninitialised `{text}`");
            let claim = FalseClaim::new(Property::InvalidPointer, message, &e.span);
            self.record_false(env, claim.keeping_path());
            return Ok(self.fresh_of(&e.ty));
        }
        if !path.is_empty() {
            self.assume_input_element_in_range(env, root, &v, &e.ty);
        }
        Ok(v)
    }

    /// An element of an input array is a symbolic value of its C type: assume
    /// it lies in the type's range when it is read (scalar inputs get theirs in
    /// the initial path condition). Only the unsigned and the sub-`int` types are
    /// bounded this way: the bounds of `int` and wider signed elements would only
    /// lengthen the path conditions of common programs (3x the time of fevs'
    /// coll-pivot-ok) for the rare claim that needs them; unbounded, such an
    /// element can at worst give a false alarm, never a wrong "holds". A `char`
    /// element is bounded through its code as an integer (plain `char` is signed).
    fn assume_input_element_in_range(
        &mut self,
        env: &dyn Environment,
        root: Root,
        value: &Value,
        ty: &MType,
    ) {
        let (Root::Shared(var), Value::Data(x)) = (root, value) else {
            return;
        };
        let bounded = match ty {
            MType::Int(kind) => kind.is_unsigned() || kind.bits() < 32,
            MType::Char => true,
            _ => false,
        };
        let f = self.f;
        if !bounded
            || env.model().var(var).scope != VarScope::Input
            || !matches!(f.type_of(*x), Type::Int | Type::Char)
            || f.concrete_int_ref(*x).is_some()
            || f.as_concrete_char(*x).is_some()
        {
            return;
        }
        let Some((lo, hi)) = ty.int_range() else {
            return;
        };
        let x = int_of(f, *x);
        let in_range = f.and(f.le(f.int(lo), x), f.le(x, f.int(hi)));
        if !self.assumed.contains(&in_range) {
            self.assumed.push(in_range);
        }
    }

    /// Writes `value` into `place`, materialising undefined structs/arrays on the
    /// way from the root variable's static type. A write into a union member
    /// makes the union's other members unwritten (see unions.rs).
    pub fn write_place(
        &mut self,
        env: &mut dyn Environment,
        place: &Place,
        value: Value,
        span: &Span,
    ) -> Result<(), EngineError> {
        self.store_place(env, place, value, span)?;
        self.forget_other_union_members(env, place, span)
    }

    /// The write itself, without the union bookkeeping [`Evaluator::write_place`] adds.
    fn store_place(
        &mut self,
        env: &mut dyn Environment,
        (root, path): &Place,
        value: Value,
        span: &Span,
    ) -> Result<(), EngineError> {
        if root.eq(&(Root::Heap {
            proc: u32::MAX,
            object: u32::MAX,
        })) {
            return Ok(()); // the placeholder of an invalid pointer: the path is dead
        }
        if let Root::Shared(v) = root {
            // Inputs are the one memory all processes share; they stay read-only
            // so that sharing them never carries data between processes. The
            // front end rejects assignments that name an input; this catches the
            // rest (through a pointer, as an MPI receive buffer, a library call).
            let var = env.model().var(*v);
            if var.scope == VarScope::Input {
                return Err(EngineError::invalid(
                    format!(
                        "this writes into input `{}` (through a pointer or a buffer \
                         argument): inputs are read-only; copy the input into a \
                         variable of your own and write that",
                        var.name
                    ),
                    Some(span),
                ));
            }
        }
        let f = self.f;
        let attempt = |env: &mut dyn Environment, value: Value| -> Result<(), AccessError> {
            match env.get_mut(*root) {
                Some(slot) => write_at(f, slot, path, value),
                None => Ok(()),
            }
        };
        match attempt(env, value.clone()) {
            Ok(()) => Ok(()),
            Err(AccessError::Undefined) => {
                let ty = match root {
                    Root::Shared(v) | Root::Global { var: v, .. } | Root::Local { var: v, .. } => {
                        env.model().var(*v).ty.clone()
                    }
                    Root::Heap { .. } => {
                        return Err(EngineError::unsupported(
                            "a write into an undefined heap value",
                            span,
                        ))
                    }
                };
                let fresh = self.undefined_value(env, &ty, span)?;
                if let Some(slot) = env.get_mut(*root) {
                    // Merge: only replace the undefined whole value.
                    if matches!(slot, Value::Undefined) {
                        *slot = fresh;
                    }
                }
                attempt(env, value)
                    .map_err(|e| EngineError::unsupported(format!("write: {e}"), span))
            }
            Err(AccessError::IndexOutOfRange) => Ok(()),
            Err(AccessError::SymbolicIndex) => Err(EngineError::unsupported(
                "a write at a symbolic index into an array of pointers or structs",
                span,
            )),
            Err(e) => Err(EngineError::invalid(format!("write: {e}"), Some(span))),
        }
    }

    /// Reads a place (no uninitialised check), for library functions.
    pub fn read_place(&self, env: &dyn Environment, place: &Place) -> Value {
        match env.get(place.0) {
            Some(v) => read_at(self.f, v, &place.1).unwrap_or(Value::Undefined),
            None => Value::Undefined,
        }
    }
}

/// The place returned for an invalid pointer once its violation is recorded (the
/// path is dead; [`Evaluator::write_place`] ignores it).
fn dead_place() -> Place {
    (
        Root::Heap {
            proc: u32::MAX,
            object: u32::MAX,
        },
        SmallVec::new(),
    )
}
