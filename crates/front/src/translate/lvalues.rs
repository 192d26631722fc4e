//! Lvalues: what may be assigned or have its address taken, array elements and
//! struct fields.

use tass_model::api::*;

use super::{bx, err, Res, Tr};
use crate::ast::{Ast, Pos};

impl<'t> Tr<'t> {
    pub(crate) fn lvalue(&mut self, a: &Ast<'t>, what: &str) -> Res<Expr> {
        let e = self.expr(a)?;
        if !e.is_lvalue() {
            return err(
                a.pos,
                format!(
                    "the operand of {what} must be a variable, array element, field or dereference"
                ),
            );
        }
        if let ExprKind::Var(v) = &e.kind {
            let var = self.ctx.var(*v);
            if var.is_const && !matches!(what, "`&`") {
                return err(a.pos, format!("cannot modify `{}`: it is const", var.name));
            }
        }
        // An element or field of an input array or struct is part of the input.
        if let Some(v) = written_variable(&e) {
            let var = self.ctx.var(v);
            if var.scope == VarScope::Input && !matches!(what, "`&`") {
                return err(
                    a.pos,
                    format!("cannot modify input `{}`: inputs are read-only", var.name),
                );
            }
        }
        Ok(e)
    }

    /// `base[index]` (also `index[base]`): an array element, or `*(p + i)` for a
    /// pointer.
    pub(crate) fn index(&mut self, base: &Ast<'t>, idx: &Ast<'t>, pos: Pos) -> Res<Expr> {
        let span = self.span(pos);
        let mk = |kind, ty| Expr::new(kind, ty, span.clone());
        let b = self.expr(base)?;
        let i = self.rvalue(idx)?;
        let (b, i) = if b.ty.is_integer() && matches!(i.ty, Type::Pointer(_)) {
            (i, b)
        } else {
            (b, i)
        };
        if !i.ty.is_integer() {
            return err(idx.pos, "an array index must be an integer");
        }
        let i = self.to_int(i);
        Ok(match b.ty.clone() {
            Type::Array(elem, _) => mk(ExprKind::Index(bx(b), bx(i)), *elem),
            Type::Pointer(elem) => {
                if *elem == Type::Void {
                    return err(pos, "cannot index a `void *` pointer");
                }
                let p = mk(
                    ExprKind::Binary(BinaryOp::PointerAdd, bx(b.clone()), bx(i)),
                    b.ty.clone(),
                );
                mk(ExprKind::Deref(bx(p)), *elem)
            }
            Type::Unknown => mk(ExprKind::Index(bx(b), bx(i)), Type::Unknown),
            other => {
                return err(
                    base.pos,
                    format!(
                        "subscripted value has type `{}`, not an array or pointer",
                        self.type_name(&other)
                    ),
                )
            }
        })
    }

    /// `base.field`, or `base->field` when `arrow`.
    pub(crate) fn member(
        &mut self,
        base: &Ast<'t>,
        field: &str,
        arrow: bool,
        pos: Pos,
    ) -> Res<Expr> {
        let span = self.span(pos);
        let mk = |kind, ty| Expr::new(kind, ty, span.clone());
        let mut b = self.expr(base)?;
        if arrow {
            b = self.decay(b);
            match b.ty.clone() {
                Type::Pointer(t) => {
                    let sp = b.span.clone();
                    b = Expr::new(ExprKind::Deref(bx(b)), *t, sp);
                }
                other => {
                    return err(
                        base.pos,
                        format!(
                            "`->` applied to a value of type `{}`, not a pointer to a struct",
                            self.type_name(&other)
                        ),
                    )
                }
            }
        }
        Ok(match b.ty.clone() {
            Type::Struct(id) => {
                let def = &self.ctx.structs[id.0 as usize];
                match def.field_index(field) {
                    Some(i) => {
                        let ty = def.fields[i].ty.clone();
                        mk(ExprKind::Field(bx(b), i), ty)
                    }
                    None => {
                        return err(pos, format!("struct `{}` has no field `{field}`", def.name))
                    }
                }
            }
            other => {
                return err(
                    base.pos,
                    format!(
                        "member `{field}` of a value of type `{}`, which is not a struct",
                        self.type_name(&other)
                    ),
                )
            }
        })
    }
}

/// The variable a write to the lvalue `e` changes when the write names it: the
/// variable itself, or the array or struct variable an element or field of it
/// belongs to (`None` through a pointer).
fn written_variable(e: &Expr) -> Option<VarId> {
    match &e.kind {
        ExprKind::Var(v) => Some(*v),
        ExprKind::Index(base, _) | ExprKind::Field(base, _)
            if !matches!(base.ty, Type::Pointer(_)) =>
        {
            written_variable(base)
        }
        _ => None,
    }
}
