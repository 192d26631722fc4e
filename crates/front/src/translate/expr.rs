//! Expressions: name resolution, type checking, conversions, and the
//! lowering of side effects into statements.

use tass_model::api::*;
use tree_sitter::Node;

use super::{err, Res, Sym, Tr};
use crate::ast::{convert, Ast, AstKind, Pos, TypeName};

fn bx(e: Expr) -> Box<Expr> {
    Box::new(e)
}

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

/// Parses a C integer literal: value and type.
pub(crate) fn parse_int_literal(t: &str) -> Option<(i128, Type)> {
    let lower = t.to_ascii_lowercase().replace('\'', "");
    let digits_end = lower.trim_end_matches(['u', 'l']).len();
    let (body, suffix) = lower.split_at(digits_end);
    let unsigned = suffix.contains('u');
    let longs = suffix.matches('l').count();
    let v = if let Some(h) = body.strip_prefix("0x") {
        i128::from_str_radix(h, 16).ok()?
    } else if let Some(b) = body.strip_prefix("0b") {
        i128::from_str_radix(b, 2).ok()?
    } else if body.len() > 1 && body.starts_with('0') {
        i128::from_str_radix(&body[1..], 8).ok()?
    } else {
        body.parse::<i128>().ok()?
    };
    if v > u64::MAX as i128 {
        return None;
    }
    // C11 6.4.4.1: the first type of the list that holds the value; octal and
    // hexadecimal constants may also take the unsigned forms.
    let decimal = !(body.starts_with('0') && body.len() > 1);
    let candidates: &[IntKind] = match (unsigned, longs, decimal) {
        (false, 0, true) => &[IntKind::Int, IntKind::Long],
        (false, 0, false) => &[
            IntKind::Int,
            IntKind::Unsigned,
            IntKind::Long,
            IntKind::UnsignedLong,
        ],
        (true, 0, _) => &[IntKind::Unsigned, IntKind::UnsignedLong],
        (false, 1, true) => &[IntKind::Long],
        (false, 1, false) => &[IntKind::Long, IntKind::UnsignedLong],
        (true, 1, _) => &[IntKind::UnsignedLong],
        (false, _, true) => &[IntKind::LongLong],
        (false, _, false) => &[IntKind::LongLong, IntKind::UnsignedLongLong],
        (true, _, _) => &[IntKind::UnsignedLongLong],
    };
    // A decimal constant too large for every signed type is an error in C; gcc
    // accepts it as an unsigned type with a warning, and so does tass.
    let kind = candidates
        .iter()
        .copied()
        .find(|k| v <= k.range().1)
        .unwrap_or(IntKind::UnsignedLongLong);
    Some((v, Type::Int(kind)))
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

    fn side_effect_check(&self, pos: Pos, what: &str) -> Res<()> {
        if let Some(ctx) = self.pure_context {
            return err(
                pos,
                format!("{what} is not allowed in {ctx} (it has side effects)"),
            );
        }
        if self.in_pragma {
            return err(pos, format!("{what} is not allowed in a pragma expression"));
        }
        if self.fb.is_none() {
            return err(pos, format!("{what} is not allowed here"));
        }
        Ok(())
    }

    pub(crate) fn set_cur(&mut self, loc: LocationId) {
        if let Some(fb) = self.fb.as_mut() {
            fb.cur = Some(loc);
        }
    }

    pub(crate) fn goto_loc(&mut self, loc: LocationId) {
        if let Some(fb) = self.fb.as_mut() {
            fb.goto(loc);
        }
    }

    /// Appends a statement to the function being built.
    pub(crate) fn emit(&mut self, st: Statement) {
        if let Some(fb) = self.fb.as_mut() {
            fb.emit(st);
        }
    }

    /// A fresh temporary local of the given type.
    pub(crate) fn temp(&mut self, ty: Type, pos: Pos) -> Expr {
        self.ctx.temp_count += 1;
        let name = format!("_t{}", self.ctx.temp_count);
        let span = self.span(pos);
        let fid = self
            .cur_fn
            .and_then(|i| self.ctx.fns[i].model_id)
            .unwrap_or(FunctionId(u32::MAX));
        let v = self
            .ctx
            .new_var(&name, ty.clone(), VarScope::Local(fid), span.clone());
        self.ctx.variables[v.0 as usize].is_temporary = true;
        if let Some(fb) = self.fb.as_mut() {
            fb.locals.push(v);
        }
        Expr::new(ExprKind::Var(v), ty, span)
    }

    /// Converts an integer-valued (int, char, bool) expression to an int type.
    pub(crate) fn to_int(&self, e: Expr) -> Expr {
        match &e.ty {
            Type::Int(_) => e,
            Type::Char | Type::Bool => {
                if let ExprKind::CharLit(c) = e.kind {
                    return Expr::int(c as i128, e.span);
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
            ExprKind::Binary(BinaryOp::Ne, bx(e), bx(zero)),
            Type::Bool,
            span,
        ))
    }

    fn is_null_constant(e: &Expr) -> bool {
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

    /// An expression used as a value: arrays decay to pointers.
    pub(crate) fn rvalue(&mut self, a: &Ast<'t>) -> Res<Expr> {
        let e = self.expr(a)?;
        Ok(self.decay(e))
    }

    pub(crate) fn decay(&self, e: Expr) -> Expr {
        if let Type::Array(elem, _) = &e.ty {
            let ty = Type::Pointer(elem.clone());
            let span = e.span.clone();
            return Expr::new(ExprKind::Decay(bx(e)), ty, span);
        }
        e
    }

    /// An expression used as a condition.
    pub(crate) fn cond(&mut self, a: &Ast<'t>) -> Res<Expr> {
        let e = self.rvalue(a)?;
        self.to_bool(e, a.pos)
    }

    fn pure_call_name(&self, name: &str) -> bool {
        match self.lookup(name) {
            Some(Sym::Func(i)) => {
                let f = &self.ctx.fns[i];
                matches!(f.kind, FunctionKind::Abstract)
                    || f.library().map(|l| l.is_pure_math()).unwrap_or(false)
            }
            _ => false,
        }
    }

    pub(crate) fn has_effects(&self, a: &Ast<'t>) -> bool {
        a.has_effects(&|n| self.pure_call_name(n))
    }

    fn lvalue(&mut self, a: &Ast<'t>, what: &str) -> Res<Expr> {
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

    /// Translates an expression (lvalues stay lvalues; arrays do not decay).
    pub(crate) fn expr(&mut self, a: &Ast<'t>) -> Res<Expr> {
        let pos = a.pos;
        let span = self.span(pos);
        let mk = |kind, ty| Expr::new(kind, ty, span.clone());
        Ok(match &a.kind {
            AstKind::Ident(name) => self.ident(name, pos)?,
            AstKind::Int(t) => match parse_int_literal(t) {
                Some((v, ty)) => mk(ExprKind::IntLit(v), ty),
                None => {
                    return err(
                        pos,
                        format!("integer constant `{t}` is malformed or too large"),
                    )
                }
            },
            AstKind::Float(t) => {
                let lower = t.to_ascii_lowercase();
                let (body, kind) = if !lower.starts_with("0x") && lower.ends_with('f') {
                    (&t[..t.len() - 1], RealKind::Float)
                } else if lower.ends_with('l') {
                    (&t[..t.len() - 1], RealKind::LongDouble)
                } else {
                    (&t[..], RealKind::Double)
                };
                mk(ExprKind::RealLit(body.to_string()), Type::Real(kind))
            }
            AstKind::Char(c) => mk(ExprKind::CharLit(*c), Type::Char),
            AstKind::Str(bytes) => {
                let n = bytes.len() as i128 + 1;
                mk(
                    ExprKind::StringLit(bytes.clone()),
                    Type::Array(
                        Box::new(Type::Char),
                        Some(bx(Expr::int(n, Span::synthetic()))),
                    ),
                )
            }
            AstKind::Bool(b) => mk(ExprKind::BoolLit(*b), Type::Bool),
            AstKind::Null => mk(ExprKind::NullPointer, Type::Pointer(Box::new(Type::Void))),
            AstKind::Unary(op, x) => self.unary(op, x, pos)?,
            AstKind::Binary(op, l, r) => {
                if op == "&&" || op == "||" {
                    return self.logical(op == "&&", l, r, pos);
                }
                let le = self.rvalue(l)?;
                let re = self.rvalue(r)?;
                self.binary(op, le, re, pos)?
            }
            AstKind::Assign(op, l, r) => {
                self.side_effect_check(pos, "an assignment")?;
                self.assign(op.as_deref(), l, r, pos)?
            }
            AstKind::Update {
                increment,
                prefix,
                arg,
            } => {
                self.side_effect_check(pos, if *increment { "`++`" } else { "`--`" })?;
                match self.update(*increment, *prefix, arg, true, pos)? {
                    Some(e) => e,
                    None => return err(pos, "internal: update without value"),
                }
            }
            AstKind::Call(f, args) => match self.call(f, args, None, true, pos)? {
                Some(e) => e,
                None => return err(pos, "a function returning void used as a value"),
            },
            AstKind::Index(base, idx) => {
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
                match b.ty.clone() {
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
                }
            }
            AstKind::Member(base, field, arrow) => {
                let mut b = self.expr(base)?;
                if *arrow {
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
                match b.ty.clone() {
                    Type::Struct(id) => {
                        let def = &self.ctx.structs[id.0 as usize];
                        match def.field_index(field) {
                            Some(i) => {
                                let ty = def.fields[i].ty.clone();
                                mk(ExprKind::Field(bx(b), i), ty)
                            }
                            None => {
                                return err(
                                    pos,
                                    format!("struct `{}` has no field `{field}`", def.name),
                                )
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
                }
            }
            AstKind::Cast(tn, x) => {
                let ty = self.type_name_type(tn, pos)?;
                if ty == Type::Void {
                    return err(pos, "a cast to void has no value");
                }
                let e = self.rvalue(x)?;
                if e.ty == ty {
                    return Ok(e);
                }
                match (&ty, &e.ty) {
                    (t, f) if t.is_arithmetic() && f.is_arithmetic() => {
                        mk(ExprKind::Cast(bx(e)), ty)
                    }
                    (Type::Pointer(_), Type::Pointer(_)) => mk(ExprKind::Cast(bx(e)), ty),
                    (Type::Pointer(_), _) if Self::is_null_constant(&e) => {
                        mk(ExprKind::NullPointer, ty)
                    }
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
                }
            }
            AstKind::SizeofType(tn) => {
                let ty = self.type_name_type(tn, pos)?;
                mk(ExprKind::SizeOf(ty), Type::Int(IntKind::UnsignedLong))
            }
            AstKind::OffsetOf(tn, member) => {
                let ty = self.type_name_type(tn, pos)?;
                let offset = self.offset_of(&ty, member, pos)?;
                mk(
                    ExprKind::IntLit(offset.into()),
                    Type::Int(IntKind::UnsignedLong),
                )
            }
            AstKind::SizeofExpr(x) => {
                // `sizeof(T)` for a typedef name T parses as an expression
                // (tree-sitter cannot tell type names from variables).
                if let AstKind::Ident(name) = &x.kind {
                    if let Some(Sym::Typedef(ty)) = self.lookup(name) {
                        return Ok(mk(ExprKind::SizeOf(ty), Type::Int(IntKind::UnsignedLong)));
                    }
                }
                let saved = self.pure_context.replace("the operand of sizeof");
                let e = self.expr(x);
                self.pure_context = saved;
                mk(ExprKind::SizeOf(e?.ty), Type::Int(IntKind::UnsignedLong))
            }
            AstKind::Cond(c, x, y) => self.conditional(c, x, y, pos)?,
            AstKind::Comma(l, r) => {
                self.effect(l)?;
                self.expr(r)?
            }
            AstKind::Quantifier {
                forall,
                ty,
                var,
                constraint,
                body,
            } => {
                if !self.in_pragma {
                    return err(pos, "quantifiers are allowed only in pragmas");
                }
                let vty = self.type_name_type(ty, pos)?;
                let v = self.ctx.new_var(var, vty, VarScope::Bound, span.clone());
                let mut scope = std::collections::HashMap::new();
                scope.insert(var.clone(), Sym::Var(v));
                self.scopes.push(scope);
                let c = constraint.as_ref().map(|c| self.cond(c)).transpose();
                let b = self.cond(body);
                self.scopes.pop();
                mk(
                    ExprKind::Quantifier {
                        kind: if *forall {
                            QuantifierKind::Forall
                        } else {
                            QuantifierKind::Exists
                        },
                        var: v,
                        constraint: c?.map(bx),
                        body: bx(b?),
                    },
                    Type::Bool,
                )
            }
            AstKind::Proc {
                rank,
                function,
                var,
            } => {
                let r = self.rvalue(rank)?;
                if !r.ty.is_integer() {
                    return err(rank.pos, "the rank in PROC[...] must be an integer");
                }
                let r = self.to_int(r);
                match function {
                    None => match self.ctx.globals.get(var).cloned() {
                        Some(Sym::Var(v)) => {
                            let ty = self.ctx.var(v).ty.clone();
                            mk(
                                ExprKind::RemoteVar {
                                    rank: bx(r),
                                    function: None,
                                    var: v,
                                },
                                ty,
                            )
                        }
                        _ => {
                            return err(
                                pos,
                                format!("unknown global variable `{var}` in PROC[...].{var}"),
                            )
                        }
                    },
                    Some(fname) => {
                        let Some(Sym::Func(i)) = self.ctx.globals.get(fname).cloned() else {
                            return err(
                                pos,
                                format!("unknown function `{fname}` in PROC[...]@{fname}"),
                            );
                        };
                        let f = &self.ctx.fns[i];
                        let found = f.function.as_ref().and_then(|func| {
                            func.params
                                .iter()
                                .chain(&func.locals)
                                .copied()
                                .find(|v| self.ctx.var(*v).name == *var)
                        });
                        let found = found.or_else(|| {
                            // the function being translated right now
                            if self.cur_fn == Some(i) {
                                self.scopes.iter().rev().find_map(|s| match s.get(var) {
                                    Some(Sym::Var(v)) => Some(*v),
                                    _ => None,
                                })
                            } else {
                                None
                            }
                        });
                        let (Some(v), Some(fid)) = (found, f.model_id) else {
                            return err(
                                pos,
                                format!("function `{fname}` has no local `{var}` (it must be defined before this pragma)"),
                            );
                        };
                        let ty = self.ctx.var(v).ty.clone();
                        mk(
                            ExprKind::RemoteVar {
                                rank: bx(r),
                                function: Some(fid),
                                var: v,
                            },
                            ty,
                        )
                    }
                }
            }
            AstKind::Spec(name) => {
                let ty = match self.ctx.globals.get(name) {
                    Some(Sym::Var(v)) => self.ctx.var(*v).ty.clone(),
                    _ => Type::Unknown,
                };
                mk(ExprKind::SpecVar(name.clone()), ty)
            }
            AstKind::Pid => mk(ExprKind::Pid, Type::INT),
            AstKind::NProcs => mk(ExprKind::NProcs, Type::INT),
        })
    }

    pub(crate) fn type_name_type(&mut self, tn: &TypeName<'t>, pos: Pos) -> Res<Type> {
        match tn {
            TypeName::Node(n) => self.type_descriptor(*n),
            TypeName::Words(w) => self.type_from_words(w, pos),
        }
    }

    fn ident(&mut self, name: &str, pos: Pos) -> Res<Expr> {
        let span = self.span(pos);
        match self.lookup(name) {
            Some(Sym::Var(v)) => {
                let var = self.ctx.var(v);
                if var.scope == VarScope::Output && self.in_pragma {
                    // outputs are write-only for the program but pragmas may read them
                }
                Ok(Expr::new(ExprKind::Var(v), var.ty.clone(), span))
            }
            Some(Sym::EnumConst(k)) => Ok(Expr::int(k, span)),
            Some(Sym::LibConst(c, ty)) => Ok(Expr::new(ExprKind::LibraryConstant(c), ty, span)),
            Some(Sym::Func(i)) => self.function_value(i, pos),
            Some(Sym::Typedef(_)) => err(pos, format!("type name `{name}` used as a value")),
            None => {
                let hint = if name.starts_with("MPI_") && self.ctx.uses_mpi {
                    " (tass's <mpi.h> does not provide it)"
                } else if name.starts_with("MPI_") {
                    " (did you forget `#include <mpi.h>`?)"
                } else if name == "NULL" {
                    " (include <stddef.h> or <stdlib.h>)"
                } else if matches!(name, "true" | "false" | "bool") {
                    " (include <stdbool.h>)"
                } else if matches!(name, "INT_MAX" | "INT_MIN" | "LONG_MAX") {
                    " (include <limits.h>)"
                } else {
                    ""
                };
                err(pos, format!("unknown identifier `{name}`{hint}"))
            }
        }
    }

    fn unary(&mut self, op: &str, x: &Ast<'t>, pos: Pos) -> Res<Expr> {
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
        let bad = |s: &Self| {
            err(
                pos,
                format!(
                    "invalid operands to `{op}`: `{}` and `{}`",
                    s.type_name(&l.ty),
                    s.type_name(&r.ty)
                ),
            )
        };
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
                    return arith(
                        self,
                        if op == "+" {
                            BinaryOp::Add
                        } else {
                            BinaryOp::Sub
                        },
                        l,
                        r,
                    );
                }
                bad(self)
            }
            "*" | "/" => {
                if (l.ty.is_arithmetic() && r.ty.is_arithmetic()) || unknown {
                    return arith(
                        self,
                        if op == "*" {
                            BinaryOp::Mul
                        } else {
                            BinaryOp::Div
                        },
                        l,
                        r,
                    );
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
            "<" | "<=" | ">" | ">=" | "==" | "!=" => {
                let bop = match op {
                    "<" => BinaryOp::Lt,
                    "<=" => BinaryOp::Le,
                    ">" => BinaryOp::Gt,
                    ">=" => BinaryOp::Ge,
                    "==" => BinaryOp::Eq,
                    _ => BinaryOp::Ne,
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
                    && matches!(bop, BinaryOp::Eq | BinaryOp::Ne)
                {
                    (l, r)
                } else {
                    return bad(self);
                };
                Ok(Expr::new(
                    ExprKind::Binary(bop, bx(l), bx(r)),
                    Type::Bool,
                    span,
                ))
            }
            other => err(pos, format!("operator `{other}` is not supported")),
        }
    }

    fn join_location(&mut self) -> Option<LocationId> {
        self.fb.as_mut().map(|fb| fb.new_loc(LocationKind::IfJoin))
    }

    fn logical(&mut self, and: bool, l: &Ast<'t>, r: &Ast<'t>, pos: Pos) -> Res<Expr> {
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
        let Some(join) = self.join_location() else {
            return err(pos, "not allowed here");
        };
        let (yes, no) = self
            .fb
            .as_mut()
            .map(|fb| fb.branch(a))
            .unwrap_or((join, join));
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

    fn conditional(&mut self, c: &Ast<'t>, x: &Ast<'t>, y: &Ast<'t>, pos: Pos) -> Res<Expr> {
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
        let Some(join) = self.join_location() else {
            return err(pos, "not allowed here");
        };
        let (yes, no) = self
            .fb
            .as_mut()
            .map(|fb| fb.branch(ce))
            .unwrap_or((join, join));
        self.set_cur(yes);
        let a = self.rvalue(x)?;
        let result = if a.ty == Type::Void {
            None
        } else {
            Some(self.temp(a.ty.clone(), pos))
        };
        if let Some(t) = &result {
            let a = self.convert(a, &t.ty, x.pos)?;
            self.emit(Statement::Assign {
                lhs: t.clone(),
                rhs: a,
            });
        }
        self.goto_loc(join);
        self.set_cur(no);
        let b = self.rvalue(y)?;
        if let Some(t) = &result {
            let b = self.convert(b, &t.ty, y.pos)?;
            self.emit(Statement::Assign {
                lhs: t.clone(),
                rhs: b,
            });
        }
        self.goto_loc(join);
        self.set_cur(join);
        match result {
            Some(t) => Ok(t),
            None => err(pos, "a `?:` of type void has no value"),
        }
    }

    /// `x++`, `--x`, ...; returns the value if `want`.
    pub(crate) fn update(
        &mut self,
        inc: bool,
        prefix: bool,
        arg: &Ast<'t>,
        want: bool,
        pos: Pos,
    ) -> Res<Option<Expr>> {
        let lv = self.lvalue(arg, if inc { "`++`" } else { "`--`" })?;
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
        let new = self.binary(if inc { "+" } else { "-" }, lv.clone(), one, pos)?;
        let new = self.convert(new, &lv.ty, pos)?;
        let old = if want && !prefix {
            let t = self.temp(lv.ty.clone(), pos);
            self.emit(Statement::Assign {
                lhs: t.clone(),
                rhs: lv.clone(),
            });
            Some(t)
        } else {
            None
        };
        self.emit(Statement::Assign {
            lhs: lv.clone(),
            rhs: new,
        });
        Ok(if !want {
            None
        } else if prefix {
            Some(lv)
        } else {
            old
        })
    }

    /// `l = r` or `l op= r`; returns the assigned lvalue.
    fn assign(&mut self, op: Option<&str>, l: &Ast<'t>, r: &Ast<'t>, pos: Pos) -> Res<Expr> {
        let lv = self.lvalue(l, "an assignment")?;
        if matches!(lv.ty, Type::Array(..)) {
            return err(pos, "cannot assign to an array (assign its elements)");
        }
        if op.is_none() {
            if let AstKind::Call(f, args) = &peel_casts(r).kind {
                self.call(f, args, Some(lv.clone()), false, r.pos)?;
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

    /// An expression evaluated for its effects only (expression statements,
    /// `for` updates, the left of a comma).
    pub(crate) fn effect(&mut self, a: &Ast<'t>) -> Res<()> {
        match &a.kind {
            AstKind::Assign(op, l, r) => {
                self.side_effect_check(a.pos, "an assignment")?;
                self.assign(op.as_deref(), l, r, a.pos).map(|_| ())
            }
            AstKind::Update {
                increment,
                prefix,
                arg,
            } => {
                self.side_effect_check(a.pos, "`++`/`--`")?;
                self.update(*increment, *prefix, arg, false, a.pos)
                    .map(|_| ())
            }
            AstKind::Call(f, args) => self.call(f, args, None, false, a.pos).map(|_| ()),
            AstKind::Comma(l, r) => {
                self.effect(l)?;
                self.effect(r)
            }
            AstKind::Cast(TypeName::Node(n), x) if self.text(*n).trim() == "void" => self.effect(x),
            AstKind::Cond(c, x, y) if self.has_effects(x) || self.has_effects(y) => {
                let ce = self.cond(c)?;
                let Some(join) = self.join_location() else {
                    return err(a.pos, "not allowed here");
                };
                let (yes, no) = self
                    .fb
                    .as_mut()
                    .map(|fb| fb.branch(ce))
                    .unwrap_or((join, join));
                self.set_cur(yes);
                self.effect(x)?;
                self.goto_loc(join);
                self.set_cur(no);
                self.effect(y)?;
                self.goto_loc(join);
                self.set_cur(join);
                Ok(())
            }
            _ => {
                // evaluated for nothing: still type-checked, and its effects
                // (if any, inside) are kept
                self.expr(a).map(|_| ())
            }
        }
    }

    /// Initializes `lhs` (of type `ty`) from an initializer node.
    pub(crate) fn initialize(&mut self, lhs: Expr, ty: &Type, value: Node<'t>) -> Res<()> {
        let pos = Pos::of(value);
        let span = self.span(pos);
        match value.kind() {
            "initializer_list" => {
                let mut c = value.walk();
                let items: Vec<Node<'t>> = value
                    .named_children(&mut c)
                    .filter(|n| n.kind() != "comment")
                    .collect();
                match ty {
                    Type::Array(elem, _) => {
                        self.emit(Statement::Assign {
                            lhs: lhs.clone(),
                            rhs: Expr::new(ExprKind::Zero, ty.clone(), span.clone()),
                        });
                        let mut idx: i128 = 0;
                        for it in items {
                            let v = if it.kind() == "initializer_pair" {
                                let d = crate::ast::child(it, "designator");
                                match d {
                                    Some(d) if d.kind() == "subscript_designator" => {
                                        let Some(inner) = d.named_child(0) else {
                                            return err(Pos::of(d), "malformed designator");
                                        };
                                        let ast = convert(inner, self.src)?;
                                        let e = self.rvalue(&ast)?;
                                        match super::types::fold_int(&e) {
                                            Some(k) => idx = k,
                                            None => return err(
                                                Pos::of(d),
                                                "an array designator must be an integer constant",
                                            ),
                                        }
                                    }
                                    _ => {
                                        return err(
                                            Pos::of(it),
                                            "this designator is not supported for an array",
                                        )
                                    }
                                }
                                let mut c2 = it.walk();
                                if it.children_by_field_name("designator", &mut c2).count() > 1 {
                                    return err(
                                        Pos::of(it),
                                        "nested designators are not supported",
                                    );
                                }
                                match crate::ast::child(it, "value") {
                                    Some(v) => v,
                                    None => return err(Pos::of(it), "designator without a value"),
                                }
                            } else {
                                it
                            };
                            let el = Expr::new(
                                ExprKind::Index(bx(lhs.clone()), bx(Expr::int(idx, span.clone()))),
                                (**elem).clone(),
                                span.clone(),
                            );
                            self.initialize(el, elem, v)?;
                            idx += 1;
                        }
                        Ok(())
                    }
                    Type::Struct(id) => {
                        let id = *id;
                        if self.ctx.structs[id.0 as usize].is_union() && items.len() > 1 {
                            return err(pos, "an initializer list for a union holds one value");
                        }
                        self.emit(Statement::Assign {
                            lhs: lhs.clone(),
                            rhs: Expr::new(ExprKind::Zero, ty.clone(), span.clone()),
                        });
                        let mut fi = 0usize;
                        for it in items {
                            let v = if it.kind() == "initializer_pair" {
                                let d = crate::ast::child(it, "designator");
                                let fname = match d {
                                    Some(d) if d.kind() == "field_designator" => d
                                        .named_child(0)
                                        .map(|n| self.text(n).to_string())
                                        .unwrap_or_default(),
                                    Some(d) if d.kind() == "field_identifier" => {
                                        self.text(d).to_string()
                                    }
                                    _ => {
                                        return err(
                                            Pos::of(it),
                                            "this designator is not supported for a struct",
                                        )
                                    }
                                };
                                let def = &self.ctx.structs[id.0 as usize];
                                match def.field_index(&fname) {
                                    Some(i) => fi = i,
                                    None => {
                                        return err(
                                            Pos::of(it),
                                            format!("struct `{}` has no field `{fname}`", def.name),
                                        )
                                    }
                                }
                                match crate::ast::child(it, "value") {
                                    Some(v) => v,
                                    None => return err(Pos::of(it), "designator without a value"),
                                }
                            } else {
                                it
                            };
                            let def = &self.ctx.structs[id.0 as usize];
                            let Some(field) = def.fields.get(fi) else {
                                return err(
                                    Pos::of(it),
                                    format!("too many initializers for struct `{}`", def.name),
                                );
                            };
                            let fty = field.ty.clone();
                            let fe = Expr::new(
                                ExprKind::Field(bx(lhs.clone()), fi),
                                fty.clone(),
                                span.clone(),
                            );
                            self.initialize(fe, &fty, v)?;
                            fi += 1;
                        }
                        Ok(())
                    }
                    _ => match items.first() {
                        Some(first) if items.len() == 1 => self.initialize(lhs, ty, *first),
                        _ => err(
                            pos,
                            "an initializer list for a scalar must hold exactly one value",
                        ),
                    },
                }
            }
            _ => {
                let ast = convert(value, self.src)?;
                if let (Type::Array(elem, size), AstKind::Str(bytes)) = (ty, &ast.kind) {
                    if **elem == Type::Char {
                        let declared = size.as_deref().and_then(super::types::fold_int);
                        return self.initialize_char_array(lhs, bytes, declared, span);
                    }
                }
                if matches!(ty, Type::Array(..)) {
                    return err(pos, "an array must be initialized with `{...}`");
                }
                if let AstKind::Call(f, args) = &peel_casts(&ast).kind {
                    self.call(f, args, Some(lhs), false, ast.pos)?;
                    return Ok(());
                }
                let e = self.rvalue(&ast)?;
                let e = self.convert(e, ty, pos)?;
                self.emit(Statement::Assign { lhs, rhs: e });
                Ok(())
            }
        }
    }
}

impl<'t> Tr<'t> {
    /// `char s[N] = "..."`: the array keeps its declared length `N`, as in C: a
    /// shorter literal is padded with zeros, one of exactly `N` characters keeps no
    /// terminating zero (and a longer one is cut to `N`, as gcc does after its
    /// warning). Without a declared length the literal's own length (with the zero)
    /// is the array's.
    fn initialize_char_array(
        &mut self,
        lhs: Expr,
        bytes: &[u8],
        declared: Option<i128>,
        span: Span,
    ) -> Res<()> {
        let length = match declared {
            Some(n) if n >= 0 => n as usize,
            _ => bytes.len() + 1,
        };
        if length > bytes.len() {
            let mut padded = bytes.to_vec();
            padded.resize(length - 1, 0);
            let ty = Type::Array(
                Box::new(Type::Char),
                Some(bx(Expr::int(length as i128, span.clone()))),
            );
            let rhs = Expr::new(ExprKind::StringLit(padded), ty, span);
            self.emit(Statement::Assign { lhs, rhs });
            return Ok(());
        }
        // no room for the terminating zero: the characters one by one
        for (i, &b) in bytes.iter().take(length).enumerate() {
            let element = Expr::new(
                ExprKind::Index(bx(lhs.clone()), bx(Expr::int(i as i128, span.clone()))),
                Type::Char,
                span.clone(),
            );
            let rhs = Expr::new(ExprKind::CharLit(b), Type::Char, span.clone());
            self.emit(Statement::Assign { lhs: element, rhs });
        }
        Ok(())
    }
}

/// Strips casts (for `p = (double *) malloc(...)`).
pub(crate) fn peel_casts<'a, 't>(a: &'a Ast<'t>) -> &'a Ast<'t> {
    match &a.kind {
        AstKind::Cast(_, x) => peel_casts(x),
        _ => a,
    }
}

/// Whether an expression (under casts) is a call.
pub(crate) enum PeelCall {
    Call,
    Other,
}

pub(crate) fn peel_kind(a: &Ast<'_>) -> PeelCall {
    match &peel_casts(a).kind {
        AstKind::Call(..) => PeelCall::Call,
        _ => PeelCall::Other,
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
