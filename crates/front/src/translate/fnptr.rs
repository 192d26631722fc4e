//! Function pointers: a function-pointer value is the integer `FunctionId + 1`
//! of the function it names (0 is the null pointer), of type
//! [`FN_POINTER_TYPE`]. A call through one branches over the functions of the
//! program with its signature; a value naming none of them is dereferenced as a
//! pointer, so a null function pointer is reported as `invalid-pointer`.

use tass_model::api::*;

use super::calls::CallResult;
use super::{bx, err, FnPointerSig, Res, Sym, Tr, FN_POINTER_TYPE};
use crate::ast::{Ast, AstKind, Pos};

impl<'t> Tr<'t> {
    /// The value of function `i` used as a value (`f` or `&f`).
    pub(crate) fn function_value(&mut self, i: usize, pos: Pos) -> Res<Expr> {
        let info = &self.ctx.fns[i];
        let name = info.name.clone();
        if info.library().is_some() || !matches!(info.kind, FunctionKind::User) {
            return err(
                pos,
                format!("a pointer to the library function `{name}` is not supported (function pointers may name functions defined in the program)"),
            );
        }
        let Some(id) = info.model_id.filter(|_| info.has_body) else {
            return err(
                pos,
                format!(
                    "function `{name}` is used as a value but never defined (tass needs its body)"
                ),
            );
        };
        let span = self.span(pos);
        Ok(Expr::new(
            ExprKind::IntLit(i128::from(id.0) + 1),
            FN_POINTER_TYPE,
            span,
        ))
    }

    /// The signature of a callee that is a function pointer (`op`, `ops[i]`,
    /// `(*op)`), and the expression giving the pointer.
    pub(crate) fn fn_pointer_callee<'a>(
        &self,
        callee: &'a Ast<'t>,
    ) -> Option<(FnPointerSig, &'a Ast<'t>)> {
        match &callee.kind {
            AstKind::Ident(name) => match self.lookup(name) {
                Some(Sym::Var(v)) => self.ctx.fn_pointers.get(&v).map(|s| (s.clone(), callee)),
                _ => None,
            },
            AstKind::Index(base, _) => self.fn_pointer_callee(base).map(|(s, _)| (s, callee)),
            // `(*op)(x)` calls what `op` points to; `(*table)(x)` what the
            // first element does
            AstKind::Unary("*", inner) => {
                let (sig, pointer) = self.fn_pointer_callee(inner)?;
                let plain = match &pointer.kind {
                    AstKind::Ident(name) => matches!(
                        self.lookup(name),
                        Some(Sym::Var(v)) if self.ctx.var(v).ty == FN_POINTER_TYPE
                    ),
                    _ => true,
                };
                Some((sig, if plain { pointer } else { callee }))
            }
            _ => None,
        }
    }

    /// A call through a function pointer: one branch per function of the
    /// signature, then a dereference of the pointer where none matched.
    pub(crate) fn call_through_pointer(
        &mut self,
        pointer: &Ast<'t>,
        sig: FnPointerSig,
        args: &[Ast<'t>],
        result: CallResult,
        pos: Pos,
    ) -> Res<Option<Expr>> {
        self.effect_check_call(pos, "a function pointer")?;
        if args.len() != sig.params.len() {
            return err(
                pos,
                format!(
                    "the function pointer expects {} argument(s), {} given",
                    sig.params.len(),
                    args.len()
                ),
            );
        }
        let target = self.rvalue(pointer)?;
        let mut xs = Vec::with_capacity(args.len());
        for (a, t) in args.iter().zip(&sig.params) {
            let e = self.rvalue(a)?;
            xs.push(self.convert(e, t, a.pos)?);
        }
        let candidates: Vec<FunctionId> = self
            .ctx
            .fns
            .iter()
            .filter(|f| {
                f.has_body
                    && matches!(f.kind, FunctionKind::User)
                    && !f.variadic
                    && f.param_types == sig.params
                    && f.return_type == sig.ret
            })
            .filter_map(|f| f.model_id)
            .collect();
        let returned = (sig.ret != Type::Void && !matches!(result, CallResult::Discard))
            .then(|| self.temp(sig.ret.clone(), pos));
        let span = self.span(pos);
        let Some(fb) = self.fb.as_mut() else {
            return err(pos, "a call is not allowed here");
        };
        let join = fb.new_loc(LocationKind::Plain);
        for id in candidates {
            let code = Expr::new(
                ExprKind::IntLit(i128::from(id.0) + 1),
                FN_POINTER_TYPE,
                span.clone(),
            );
            let names_it = Expr::new(
                ExprKind::Binary(
                    BinaryOp::Compare(Comparison::Eq),
                    bx(target.clone()),
                    bx(code),
                ),
                Type::Bool,
                span.clone(),
            );
            let Some(fb) = self.fb.as_mut() else {
                return err(pos, "a call is not allowed here");
            };
            let (yes, no) = fb.branch(names_it);
            fb.enter(yes);
            fb.emit(Statement::Call {
                lhs: returned.clone(),
                callee: Callee::User(id),
                args: xs.clone(),
            });
            fb.goto(join);
            fb.enter(no);
        }
        // Names no function of this signature: null (reported when
        // dereferenced) or a value tass cannot follow.
        let as_pointer = Expr::new(
            ExprKind::Cast(bx(target)),
            Type::Pointer(Box::new(Type::INT)),
            span.clone(),
        );
        let read = Expr::new(ExprKind::Deref(bx(as_pointer)), Type::INT, span);
        let sink = self.temp(Type::INT, pos);
        if let Some(fb) = self.fb.as_mut() {
            fb.emit(Statement::Assign {
                lhs: sink,
                rhs: read,
            });
            fb.goto(join);
            fb.enter(join);
        }
        match (result, returned) {
            (CallResult::StoreIn(l), Some(t)) => {
                let v = self.convert(t, &l.ty, pos)?;
                self.emit(Statement::Assign {
                    lhs: l.clone(),
                    rhs: v,
                });
                Ok(Some(l))
            }
            (CallResult::StoreIn(_), None) => err(
                pos,
                "the function returns void: its result cannot be assigned",
            ),
            (_, Some(t)) => Ok(Some(t)),
            (CallResult::Value, None) => err(pos, "a function returning void used as a value"),
            (CallResult::Discard, None) => Ok(None),
        }
    }
}
