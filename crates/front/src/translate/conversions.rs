//! C's conversions: the integer promotions, the usual arithmetic conversions,
//! conversion as by assignment, conditions (`e != 0`) and array decay.

use tass_model::api::*;

use super::{bx, err, Res, Tr};
use crate::ast::{Ast, Pos, TypeName};

/// C's integer promotion (C11 6.3.1.1): `_Bool`, `char`, `short` and their
/// unsigned forms become `int` (under LP64 `int` holds all their values); other
/// types are unchanged.
pub(crate) fn promoted_type(t: &Type) -> Type {
    match t {
        Type::Bool | Type::Char => Type::INT,
        Type::Int(k) if k.rank() < IntKind::Int.rank() => Type::INT,
        other => other.clone(),
    }
}

/// The common type of two promoted integer kinds (C11 6.3.1.8, LP64 widths).
fn common_int_kind(x: IntKind, y: IntKind) -> IntKind {
    if x == y {
        return x;
    }
    if x.is_unsigned() == y.is_unsigned() {
        return if x.rank() >= y.rank() { x } else { y };
    }
    let (unsigned, signed) = if x.is_unsigned() { (x, y) } else { (y, x) };
    if unsigned.rank() >= signed.rank() {
        unsigned
    } else if signed.bits() > unsigned.bits() {
        // the signed type can represent every value of the unsigned one
        signed
    } else {
        signed.to_unsigned()
    }
}

/// The type of `a op b` for arithmetic operands: C's usual arithmetic
/// conversions (C11 6.3.1.8) after the integer promotions, on both sides.
pub(crate) fn common_type(a: &Type, b: &Type) -> Type {
    match (promoted_type(a), promoted_type(b)) {
        (Type::Real(x), Type::Real(y)) => Type::Real(if x as u8 >= y as u8 { x } else { y }),
        (Type::Real(x), _) | (_, Type::Real(x)) => Type::Real(x),
        (Type::Int(x), Type::Int(y)) => Type::Int(common_int_kind(x, y)),
        (Type::Int(x), _) | (_, Type::Int(x)) => Type::Int(x),
        _ => Type::INT,
    }
}

/// Reduces `v` into the values of integer kind `k` as a conversion does: modulo
/// 2^N, into `[0, 2^N)` for the unsigned kinds and into the two's-complement
/// range for the signed ones.
pub(crate) fn wrap_to_kind(v: i128, k: IntKind) -> i128 {
    let (lo, hi) = k.range();
    if (lo..=hi).contains(&v) {
        return v;
    }
    let modulus = 1i128 << k.bits();
    let r = v.rem_euclid(modulus);
    if r > hi {
        r - modulus
    } else {
        r
    }
}

impl<'t> Tr<'t> {
    /// A readable name of a type for messages.
    pub(crate) fn type_name(&self, ty: &Type) -> String {
        match ty {
            Type::Void => "void".into(),
            Type::Bool => "_Bool".into(),
            Type::Char => "char".into(),
            Type::Int(k) => k.c_name().into(),
            Type::Real(k) => k.c_name().into(),
            Type::Pointer(t) => format!("{}*", self.type_name(t)),
            Type::Array(t, _) => format!("{}[]", self.type_name(t)),
            Type::Struct(id) => match self.ctx.structs.get(id.0 as usize) {
                Some(s) => format!("{} {}", s.keyword(), s.name),
                None => "struct ?".into(),
            },
            Type::Mpi(h) => h.c_name().into(),
            Type::Unknown => "?".into(),
        }
    }

    /// Converts an integer-valued (int, char, bool) expression to an int type.
    pub(crate) fn to_int(&self, e: Expr) -> Expr {
        match &e.ty {
            Type::Int(_) => e,
            Type::Char | Type::Bool => {
                if let ExprKind::CharLit(c) = e.kind {
                    return Expr::int(char_byte_value(c), e.span);
                }
                let span = e.span.clone();
                Expr::new(ExprKind::Cast(bx(e)), Type::INT, span)
            }
            _ => e,
        }
    }

    /// A scalar as a condition (`e != 0`).
    pub(crate) fn to_bool(&self, e: Expr, pos: Pos) -> Res<Expr> {
        let span = e.span.clone();
        let zero = match &e.ty {
            Type::Bool => return Ok(e),
            Type::Int(_) => {
                if let ExprKind::IntLit(v) = e.kind {
                    return Ok(Expr::new(ExprKind::BoolLit(v != 0), Type::Bool, span));
                }
                Expr::new(ExprKind::IntLit(0), e.ty.clone(), span.clone())
            }
            Type::Char => {
                let i = self.to_int(e);
                return self.to_bool(i, pos);
            }
            Type::Real(_) => Expr::new(ExprKind::RealLit("0".into()), e.ty.clone(), span.clone()),
            Type::Pointer(_) => Expr::new(ExprKind::NullPointer, e.ty.clone(), span.clone()),
            other => {
                return err(
                    pos,
                    format!(
                        "a value of type `{}` cannot be used as a condition",
                        self.type_name(other)
                    ),
                )
            }
        };
        Ok(Expr::new(
            ExprKind::Binary(BinaryOp::Compare(Comparison::Ne), bx(e), bx(zero)),
            Type::Bool,
            span,
        ))
    }

    pub(crate) fn is_null_constant(e: &Expr) -> bool {
        match &e.kind {
            ExprKind::NullPointer => true,
            ExprKind::IntLit(0) => true,
            ExprKind::Cast(a) => Self::is_null_constant(a),
            _ => false,
        }
    }

    /// Converts `e` to `target` as C's assignment does.
    pub(crate) fn convert(&self, e: Expr, target: &Type, pos: Pos) -> Res<Expr> {
        if &e.ty == target {
            return Ok(e);
        }
        let span = e.span.clone();
        match target {
            Type::Bool if e.ty.is_scalar() => return self.to_bool(e, pos),
            Type::Real(_) if e.ty.is_arithmetic() => {
                if let ExprKind::IntLit(v) = e.kind {
                    return Ok(Expr::new(
                        ExprKind::RealLit(v.to_string()),
                        target.clone(),
                        span,
                    ));
                }
                return Ok(Expr::new(ExprKind::Cast(bx(e)), target.clone(), span));
            }
            Type::Int(_) | Type::Char if e.ty.is_arithmetic() => {
                if let (ExprKind::IntLit(v), Type::Int(k)) = (&e.kind, target) {
                    let v = wrap_to_kind(*v, *k);
                    return Ok(Expr::new(ExprKind::IntLit(v), target.clone(), span));
                }
                return Ok(Expr::new(ExprKind::Cast(bx(e)), target.clone(), span));
            }
            Type::Pointer(to) => {
                if Self::is_null_constant(&e) {
                    return Ok(Expr::new(ExprKind::NullPointer, target.clone(), span));
                }
                if let Type::Pointer(from) = &e.ty {
                    if **to == Type::Void || **from == Type::Void {
                        return Ok(Expr::new(ExprKind::Cast(bx(e)), target.clone(), span));
                    }
                    if let (Type::Array(a, _), Type::Array(b, _)) = (&**to, &**from) {
                        if a == b {
                            return Ok(Expr::new(ExprKind::Cast(bx(e)), target.clone(), span));
                        }
                    }
                }
            }
            Type::Array(to, _) => {
                if let Type::Array(from, _) = &e.ty {
                    if to == from {
                        return Ok(e);
                    }
                }
            }
            Type::Unknown => return Ok(e),
            // `NULL` for a function pointer (an integer naming a function)
            t if *t == super::FN_POINTER_TYPE
                && matches!(e.ty, Type::Pointer(_))
                && Self::is_null_constant(&e) =>
            {
                return Ok(Expr::new(ExprKind::IntLit(0), target.clone(), span));
            }
            _ => {}
        }
        if e.ty == Type::Unknown {
            return Ok(e);
        }
        err(
            pos,
            format!(
                "cannot convert a value of type `{}` to `{}`",
                self.type_name(&e.ty),
                self.type_name(target)
            ),
        )
    }

    pub(crate) fn decay(&self, e: Expr) -> Expr {
        if let Type::Array(elem, _) = &e.ty {
            let ty = Type::Pointer(elem.clone());
            let span = e.span.clone();
            return Expr::new(ExprKind::Decay(bx(e)), ty, span);
        }
        e
    }

    /// A cast expression `(T) x`.
    pub(crate) fn cast(&mut self, tn: &TypeName<'t>, x: &Ast<'t>, pos: Pos) -> Res<Expr> {
        let span = self.span(pos);
        let mk = |kind, ty| Expr::new(kind, ty, span.clone());
        if let TypeName::Node(n) = tn {
            let text: String = self.text(*n).split_whitespace().collect();
            if text == "MPI_User_function*" {
                return self.user_function_cast(x, pos);
            }
        }
        let ty = self.type_name_type(tn, pos)?;
        if ty == Type::Void {
            return err(pos, "a cast to void has no value");
        }
        let e = self.rvalue(x)?;
        if e.ty == ty {
            return Ok(e);
        }
        Ok(match (&ty, &e.ty) {
            (t, f) if t.is_arithmetic() && f.is_arithmetic() => mk(ExprKind::Cast(bx(e)), ty),
            (Type::Pointer(_), Type::Pointer(_)) => mk(ExprKind::Cast(bx(e)), ty),
            (Type::Pointer(_), _) if Self::is_null_constant(&e) => mk(ExprKind::NullPointer, ty),
            (Type::Pointer(_), f) | (f, Type::Pointer(_)) if f.is_integer() => {
                return err(pos, "casts between integers and pointers are not supported")
            }
            _ => {
                return err(
                    pos,
                    format!(
                        "cannot cast `{}` to `{}`",
                        self.type_name(&e.ty),
                        self.type_name(&ty)
                    ),
                )
            }
        })
    }

    /// `(MPI_User_function *)f`, as programs write it for `MPI_Op_create`:
    /// the function pointer itself (whatever the pointer types of its four
    /// parameters; the reduction checks that there are four).
    fn user_function_cast(&mut self, x: &Ast<'t>, pos: Pos) -> Res<Expr> {
        let e = self.rvalue(x)?;
        if e.ty != super::FN_POINTER_TYPE {
            return err(
                pos,
                format!(
                    "a cast to `MPI_User_function *` of a `{}`, which is no function (pass \
                     the function, as in `MPI_Op_create((MPI_User_function *)my_op, 1, &op)`)",
                    self.type_name(&e.ty)
                ),
            );
        }
        Ok(e)
    }
}
