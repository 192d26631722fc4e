//! Expressions: name resolution, type checking, conversions, and the
//! lowering of side effects into statements.

use tass_model::api::*;

use super::calls::CallResult;
use super::operators::Branches;
use super::pragma_exprs::Quantified;
use super::{bx, err, Res, Sym, Tr};
use crate::ast::{Ast, AstKind, Pos, TypeName};

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
    pub(crate) fn side_effect_check(&self, pos: Pos, what: &str) -> Res<()> {
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

    /// An expression used as a value: arrays decay to pointers.
    pub(crate) fn rvalue(&mut self, a: &Ast<'t>) -> Res<Expr> {
        let e = self.expr(a)?;
        Ok(self.decay(e))
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
                self.update_value(*increment, *prefix, arg, pos)?
            }
            AstKind::Call(f, args) => match self.call(f, args, CallResult::Value, pos)? {
                Some(e) => e,
                None => return err(pos, "a function returning void used as a value"),
            },
            AstKind::Index(base, idx) => self.index(base, idx, pos)?,
            AstKind::Member(base, field, arrow) => self.member(base, field, *arrow, pos)?,
            AstKind::Cast(tn, x) => self.cast(tn, x, pos)?,
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
            AstKind::SizeofExpr(x) => self.sizeof_expr(x, pos)?,
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
                let q = Quantified {
                    forall: *forall,
                    ty,
                    var,
                    constraint: constraint.as_deref(),
                    body,
                };
                self.quantifier(q, pos)?
            }
            AstKind::Proc {
                rank,
                function,
                var,
            } => self.remote_variable(rank, function.as_deref(), var, pos)?,
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

    /// `sizeof x` (`sizeof(T)` for a typedef name `T` included).
    fn sizeof_expr(&mut self, x: &Ast<'t>, pos: Pos) -> Res<Expr> {
        let span = self.span(pos);
        let mk = |kind, ty| Expr::new(kind, ty, span.clone());
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
        // A character constant (C11 6.4.4.4) and the result of a comparison,
        // `!`, `&&` or `||` (6.5.3.3, 6.5.8-6.5.14) have type `int` in C:
        // `sizeof('a')` and `sizeof(a < b)` are 4, although the model keeps
        // the first as a `char` and the others as booleans elsewhere (their
        // values are the same once promoted).
        let int_typed = match &x.kind {
            AstKind::Char(_) | AstKind::Unary("!", _) => true,
            AstKind::Binary(op, _, _) => {
                matches!(
                    op.as_str(),
                    "==" | "!=" | "<" | ">" | "<=" | ">=" | "&&" | "||"
                )
            }
            _ => false,
        };
        let ty = e?.ty;
        let ty = if int_typed { Type::INT } else { ty };
        Ok(mk(ExprKind::SizeOf(ty), Type::Int(IntKind::UnsignedLong)))
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

    /// An expression evaluated for its effects only (expression statements,
    /// `for` updates, the left of a comma).
    pub(crate) fn effect(&mut self, a: &Ast<'t>) -> Res<()> {
        match &a.kind {
            AstKind::Assign(op, l, r) => {
                self.side_effect_check(a.pos, "an assignment")?;
                self.assign(op.as_deref(), l, r, a.pos).map(|_| ())
            }
            AstKind::Update { increment, arg, .. } => {
                self.side_effect_check(a.pos, "`++`/`--`")?;
                self.update_effect(*increment, arg, a.pos)
            }
            AstKind::Call(f, args) => self.call(f, args, CallResult::Discard, a.pos).map(|_| ()),
            AstKind::Comma(l, r) => {
                self.effect(l)?;
                self.effect(r)
            }
            AstKind::Cast(TypeName::Node(n), x) if self.text(*n).trim() == "void" => self.effect(x),
            AstKind::Cond(c, x, y) if self.has_effects(x) || self.has_effects(y) => {
                let ce = self.cond(c)?;
                let Branches { yes, no, join } = self.branch_to_join(ce, a.pos)?;
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
