//! Operators: unary and binary arithmetic, comparisons, `&&`/`||` and `?:`
//! (short-circuit with side effects become branches), `++`/`--` and assignment.

use tass_model::api::*;

use super::calls::CallResult;
use super::conversions::{common_type, promoted_type, wrap_to_kind};
use super::expr::peel_casts;
use super::{bx, err, Res, Sym, Tr};
use crate::ast::{Ast, AstKind, Pos};

/// The locations of a branch inside an expression: where the condition holds,
/// where it does not, and where both continue.
pub(crate) struct Branches {
    pub yes: LocationId,
    pub no: LocationId,
    pub join: LocationId,
}

impl<'t> Tr<'t> {
    pub(crate) fn unary(&mut self, op: &str, x: &Ast<'t>, pos: Pos) -> Res<Expr> {
        let span = self.span(pos);
        match op {
            "&" => {
                if let AstKind::Ident(n) = &x.kind {
                    if let Some(Sym::Func(i)) = self.lookup(n) {
                        return self.function_value(i, pos);
                    }
                }
                let e = self.lvalue(x, "`&`")?;
                let ty = Type::Pointer(Box::new(e.ty.clone()));
                Ok(Expr::new(ExprKind::AddressOf(bx(e)), ty, span))
            }
            "*" => {
                let e = self.rvalue(x)?;
                match e.ty.clone() {
                    Type::Pointer(t) if *t == Type::Void => {
                        err(pos, "cannot dereference a `void *` pointer (cast it first)")
                    }
                    Type::Pointer(t) => Ok(Expr::new(ExprKind::Deref(bx(e)), *t, span)),
                    other => err(
                        pos,
                        format!(
                            "cannot dereference a value of type `{}`",
                            self.type_name(&other)
                        ),
                    ),
                }
            }
            "!" => {
                let c = self.cond(x)?;
                Ok(match c.kind {
                    ExprKind::BoolLit(b) => Expr::new(ExprKind::BoolLit(!b), Type::Bool, span),
                    _ => Expr::new(ExprKind::Unary(UnaryOp::Not, bx(c)), Type::Bool, span),
                })
            }
            "-" | "+" | "~" => {
                let e = self.rvalue(x)?;
                if !e.ty.is_arithmetic() || (op == "~" && !e.ty.is_integer()) {
                    return err(
                        pos,
                        format!(
                            "operator `{op}` cannot be applied to `{}`",
                            self.type_name(&e.ty)
                        ),
                    );
                }
                let ty = promoted_type(&e.ty);
                let e = self.to_int(e);
                let e = self.convert(e, &ty, pos)?;
                match op {
                    "+" => Ok(e),
                    "-" => Ok(match &e.kind {
                        ExprKind::IntLit(v) => match &ty {
                            Type::Int(k) => {
                                Expr::new(ExprKind::IntLit(wrap_to_kind(-v, *k)), ty, span)
                            }
                            _ => Expr::new(ExprKind::IntLit(-v), ty, span),
                        },
                        ExprKind::RealLit(t) if !t.starts_with('-') => {
                            Expr::new(ExprKind::RealLit(format!("-{t}")), ty, span)
                        }
                        _ => Expr::new(ExprKind::Unary(UnaryOp::Neg, bx(e)), ty, span),
                    }),
                    _ => Ok(Expr::new(ExprKind::Unary(UnaryOp::BitNot, bx(e)), ty, span)),
                }
            }
            other => err(pos, format!("operator `{other}` is not supported")),
        }
    }

    /// A binary operation on already-translated operands.
    pub(crate) fn binary(&mut self, op: &str, l: Expr, r: Expr, pos: Pos) -> Res<Expr> {
        let span = self.span(pos);
        let bad = |s: &Self| s.invalid_operands(op, &l, &r, pos);
        let arith = |s: &Self, bop: BinaryOp, l: Expr, r: Expr| -> Res<Expr> {
            let ty = common_type(&l.ty, &r.ty);
            let l = s.convert(l, &ty, pos)?;
            let r = s.convert(r, &ty, pos)?;
            Ok(Expr::new(
                ExprKind::Binary(bop, bx(l), bx(r)),
                ty,
                span.clone(),
            ))
        };
        let is_ptr = |t: &Type| matches!(t, Type::Pointer(_));
        let unknown = l.ty == Type::Unknown || r.ty == Type::Unknown;
        match op {
            "+" | "-" => {
                if is_ptr(&l.ty) && r.ty.is_integer() {
                    let bop = if op == "+" {
                        BinaryOp::PointerAdd
                    } else {
                        BinaryOp::PointerSub
                    };
                    let ty = l.ty.clone();
                    let r = self.to_int(r);
                    return Ok(Expr::new(ExprKind::Binary(bop, bx(l), bx(r)), ty, span));
                }
                if op == "+" && l.ty.is_integer() && is_ptr(&r.ty) {
                    let ty = r.ty.clone();
                    let l = self.to_int(l);
                    return Ok(Expr::new(
                        ExprKind::Binary(BinaryOp::PointerAdd, bx(r), bx(l)),
                        ty,
                        span,
                    ));
                }
                if op == "-" && is_ptr(&l.ty) && is_ptr(&r.ty) {
                    return Ok(Expr::new(
                        ExprKind::Binary(BinaryOp::PointerDiff, bx(l), bx(r)),
                        Type::Int(IntKind::Long),
                        span,
                    ));
                }
                if (l.ty.is_arithmetic() && r.ty.is_arithmetic()) || unknown {
                    return arith(self, arithmetic_op(op), l, r);
                }
                bad(self)
            }
            "*" | "/" => {
                if (l.ty.is_arithmetic() && r.ty.is_arithmetic()) || unknown {
                    return arith(self, arithmetic_op(op), l, r);
                }
                bad(self)
            }
            "%" | "&" | "|" | "^" | "<<" | ">>" => {
                if !(unknown || l.ty.is_integer() && r.ty.is_integer()) {
                    return bad(self);
                }
                let bop = match op {
                    "%" => BinaryOp::Mod,
                    "&" => BinaryOp::BitAnd,
                    "|" => BinaryOp::BitOr,
                    "^" => BinaryOp::BitXor,
                    "<<" => BinaryOp::Shl,
                    _ => BinaryOp::Shr,
                };
                if matches!(bop, BinaryOp::Shl | BinaryOp::Shr) {
                    // the operands are promoted separately; the result has the
                    // left operand's promoted type
                    let ty = promoted_type(&l.ty);
                    let right_ty = promoted_type(&r.ty);
                    let l = self.convert(l, &ty, pos)?;
                    let r = self.convert(r, &right_ty, pos)?;
                    return Ok(Expr::new(ExprKind::Binary(bop, bx(l), bx(r)), ty, span));
                }
                arith(self, bop, l, r)
            }
            "<" | "<=" | ">" | ">=" | "==" | "!=" => self.comparison(op, l, r, pos),
            other => err(pos, format!("operator `{other}` is not supported")),
        }
    }

    /// The error for operands `op` does not take.
    fn invalid_operands(&self, op: &str, l: &Expr, r: &Expr, pos: Pos) -> Res<Expr> {
        err(
            pos,
            format!(
                "invalid operands to `{op}`: `{}` and `{}`",
                self.type_name(&l.ty),
                self.type_name(&r.ty)
            ),
        )
    }

    /// A comparison: arithmetic operands in their common type, pointers with
    /// pointers or null, MPI handles for (in)equality.
    fn comparison(&mut self, op: &str, l: Expr, r: Expr, pos: Pos) -> Res<Expr> {
        let span = self.span(pos);
        let bad = |s: &Self| s.invalid_operands(op, &l, &r, pos);
        let is_ptr = |t: &Type| matches!(t, Type::Pointer(_));
        let unknown = l.ty == Type::Unknown || r.ty == Type::Unknown;
        let comparison = match op {
            "<" => Comparison::Lt,
            "<=" => Comparison::Le,
            ">" => Comparison::Gt,
            ">=" => Comparison::Ge,
            "==" => Comparison::Eq,
            _ => Comparison::Ne,
        };
        let fn_pointer_null = |x: &Expr, y: &Expr| {
            x.ty == super::FN_POINTER_TYPE && is_ptr(&y.ty) && Self::is_null_constant(y)
        };
        let (l, r) = if fn_pointer_null(&l, &r) || fn_pointer_null(&r, &l) {
            let ty = super::FN_POINTER_TYPE;
            (self.convert(l, &ty, pos)?, self.convert(r, &ty, pos)?)
        } else if (l.ty.is_arithmetic() && r.ty.is_arithmetic()) || unknown {
            let ty = common_type(&l.ty, &r.ty);
            (self.convert(l, &ty, pos)?, self.convert(r, &ty, pos)?)
        } else if is_ptr(&l.ty) && is_ptr(&r.ty) {
            (l, r)
        } else if is_ptr(&l.ty) && Self::is_null_constant(&r) {
            let ty = l.ty.clone();
            (l, Expr::new(ExprKind::NullPointer, ty, r.span))
        } else if is_ptr(&r.ty) && Self::is_null_constant(&l) {
            let ty = r.ty.clone();
            (Expr::new(ExprKind::NullPointer, ty, l.span), r)
        } else if matches!((&l.ty, &r.ty), (Type::Mpi(a), Type::Mpi(b)) if a == b)
            && comparison.is_equality()
        {
            (l, r)
        } else {
            return bad(self);
        };
        Ok(Expr::new(
            ExprKind::Binary(BinaryOp::Compare(comparison), bx(l), bx(r)),
            Type::Bool,
            span,
        ))
    }

    /// Branches on `cond` inside the function being built: where it holds,
    /// where it does not, and a new join location for both to go to.
    pub(crate) fn branch_to_join(&mut self, cond: Expr, pos: Pos) -> Res<Branches> {
        let Some(fb) = self.fb.as_mut() else {
            return err(pos, "not allowed here");
        };
        let join = fb.new_loc(LocationKind::IfJoin);
        let (yes, no) = fb.branch(cond);
        Ok(Branches { yes, no, join })
    }

    pub(crate) fn logical(&mut self, and: bool, l: &Ast<'t>, r: &Ast<'t>, pos: Pos) -> Res<Expr> {
        let span = self.span(pos);
        if !self.has_effects(r) {
            let a = self.cond(l)?;
            let b = self.cond(r)?;
            let kind = if and {
                ExprKind::LogicalAnd(bx(a), bx(b))
            } else {
                ExprKind::LogicalOr(bx(a), bx(b))
            };
            return Ok(Expr::new(kind, Type::Bool, span));
        }
        self.side_effect_check(pos, "a side effect in the right operand of `&&`/`||`")?;
        let t = self.temp(Type::Bool, pos);
        let a = self.cond(l)?;
        let Branches { yes, no, join } = self.branch_to_join(a, pos)?;
        // && evaluates the right side where the left is true; || where false
        let (eval_at, short_at) = if and { (yes, no) } else { (no, yes) };
        self.set_cur(eval_at);
        let b = self.cond(r)?;
        self.emit(Statement::Assign {
            lhs: t.clone(),
            rhs: b,
        });
        self.goto_loc(join);
        self.set_cur(short_at);
        self.emit(Statement::Assign {
            lhs: t.clone(),
            rhs: Expr::new(ExprKind::BoolLit(!and), Type::Bool, span),
        });
        self.goto_loc(join);
        self.set_cur(join);
        Ok(t)
    }

    pub(crate) fn conditional(
        &mut self,
        c: &Ast<'t>,
        x: &Ast<'t>,
        y: &Ast<'t>,
        pos: Pos,
    ) -> Res<Expr> {
        let span = self.span(pos);
        if !self.has_effects(x) && !self.has_effects(y) {
            let ce = self.cond(c)?;
            let a = self.rvalue(x)?;
            let b = self.rvalue(y)?;
            let ty = if a.ty.is_arithmetic() && b.ty.is_arithmetic() {
                common_type(&a.ty, &b.ty)
            } else if Self::is_null_constant(&b) {
                a.ty.clone()
            } else {
                b.ty.clone()
            };
            let a = self.convert(a, &ty, x.pos)?;
            let b = self.convert(b, &ty, y.pos)?;
            return Ok(match ce.kind {
                ExprKind::BoolLit(true) => a,
                ExprKind::BoolLit(false) => b,
                _ => Expr::new(ExprKind::Conditional(bx(ce), bx(a), bx(b)), ty, span),
            });
        }
        self.side_effect_check(pos, "a side effect in `?:`")?;
        let ce = self.cond(c)?;
        let Branches { yes, no, join } = self.branch_to_join(ce, pos)?;
        self.set_cur(yes);
        let a = self.rvalue(x)?;
        let result = if a.ty == Type::Void {
            None
        } else {
            Some(self.temp(a.ty.clone(), pos))
        };
        if let Some(t) = &result {
            self.assign_converted(t, a, x.pos)?;
        }
        self.goto_loc(join);
        self.set_cur(no);
        let b = self.rvalue(y)?;
        if let Some(t) = &result {
            self.assign_converted(t, b, y.pos)?;
        }
        self.goto_loc(join);
        self.set_cur(join);
        match result {
            Some(t) => Ok(t),
            None => err(pos, "a `?:` of type void has no value"),
        }
    }

    /// `lhs = value`, converted to the type of `lhs`.
    fn assign_converted(&mut self, lhs: &Expr, value: Expr, pos: Pos) -> Res<()> {
        let value = self.convert(value, &lhs.ty, pos)?;
        self.emit(Statement::Assign {
            lhs: lhs.clone(),
            rhs: value,
        });
        Ok(())
    }

    /// `x++`, `--x`, ... used as a value: the old value (in a temporary) for
    /// postfix forms, the updated lvalue for prefix ones.
    pub(crate) fn update_value(
        &mut self,
        increment: bool,
        prefix: bool,
        arg: &Ast<'t>,
        pos: Pos,
    ) -> Res<Expr> {
        let (lv, new) = self.updated(increment, arg, pos)?;
        let old = if prefix {
            None
        } else {
            let t = self.temp(lv.ty.clone(), pos);
            self.emit(Statement::Assign {
                lhs: t.clone(),
                rhs: lv.clone(),
            });
            Some(t)
        };
        self.emit(Statement::Assign {
            lhs: lv.clone(),
            rhs: new,
        });
        Ok(old.unwrap_or(lv))
    }

    /// `x++`, `--x`, ... evaluated for its effect only.
    pub(crate) fn update_effect(&mut self, increment: bool, arg: &Ast<'t>, pos: Pos) -> Res<()> {
        let (lv, new) = self.updated(increment, arg, pos)?;
        self.emit(Statement::Assign { lhs: lv, rhs: new });
        Ok(())
    }

    /// The lvalue `++`/`--` changes and its new value (`x + 1` or `x - 1` in
    /// the type of `x`).
    fn updated(&mut self, increment: bool, arg: &Ast<'t>, pos: Pos) -> Res<(Expr, Expr)> {
        let lv = self.lvalue(arg, if increment { "`++`" } else { "`--`" })?;
        if !lv.ty.is_scalar() {
            return err(
                pos,
                format!(
                    "cannot increment a value of type `{}`",
                    self.type_name(&lv.ty)
                ),
            );
        }
        let one = Expr::int(1, lv.span.clone());
        let new = self.binary(if increment { "+" } else { "-" }, lv.clone(), one, pos)?;
        let new = self.convert(new, &lv.ty, pos)?;
        Ok((lv, new))
    }

    /// `l = r` or `l op= r`; returns the assigned lvalue.
    pub(crate) fn assign(
        &mut self,
        op: Option<&str>,
        l: &Ast<'t>,
        r: &Ast<'t>,
        pos: Pos,
    ) -> Res<Expr> {
        let lv = self.lvalue(l, "an assignment")?;
        if matches!(lv.ty, Type::Array(..)) {
            return err(pos, "cannot assign to an array (assign its elements)");
        }
        if op.is_none() {
            if let AstKind::Call(f, args) = &peel_casts(r).kind {
                self.call(f, args, CallResult::StoreIn(lv.clone()), r.pos)?;
                return Ok(lv);
            }
        }
        let rhs = self.rvalue(r)?;
        let value = match op {
            None => rhs,
            Some(o) => self.binary(o, lv.clone(), rhs, pos)?,
        };
        let value = self.convert(value, &lv.ty, pos)?;
        self.emit(Statement::Assign {
            lhs: lv.clone(),
            rhs: value,
        });
        Ok(lv)
    }
}

/// The model operator of the arithmetic operator `op` (`+`, `-`, `*`, `/`).
fn arithmetic_op(op: &str) -> BinaryOp {
    match op {
        "+" => BinaryOp::Add,
        "-" => BinaryOp::Sub,
        "*" => BinaryOp::Mul,
        _ => BinaryOp::Div,
    }
}
