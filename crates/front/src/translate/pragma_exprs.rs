//! Expressions only pragmas may use: quantifiers and `PROC[rank].x`, the
//! variables of other processes.

use std::collections::HashMap;

use tass_model::api::*;

use super::{bx, err, Res, Sym, Tr};
use crate::ast::{Ast, Pos, TypeName};

/// The parts of a quantified formula (`forall`/`exists`, the bound variable's
/// type and name, an optional constraint on it, the body).
#[derive(Clone, Copy)]
pub(crate) struct Quantified<'a, 't> {
    pub forall: bool,
    pub ty: &'a TypeName<'t>,
    pub var: &'a str,
    pub constraint: Option<&'a Ast<'t>>,
    pub body: &'a Ast<'t>,
}

impl<'t> Tr<'t> {
    /// `\forall` / `\exists` (pragmas only).
    pub(crate) fn quantifier(&mut self, q: Quantified<'_, 't>, pos: Pos) -> Res<Expr> {
        let Quantified {
            forall,
            ty,
            var,
            constraint,
            body,
        } = q;
        let span = self.span(pos);
        let mk = |kind, ty| Expr::new(kind, ty, span.clone());
        if !self.in_pragma {
            return err(pos, "quantifiers are allowed only in pragmas");
        }
        let vty = self.type_name_type(ty, pos)?;
        let v = self.ctx.new_var(var, vty, VarScope::Bound, span.clone());
        let mut scope = HashMap::new();
        scope.insert(var.to_string(), Sym::Var(v));
        self.scopes.push(scope);
        let c = constraint.map(|c| self.cond(c)).transpose();
        let b = self.cond(body);
        self.scopes.pop();
        Ok(mk(
            ExprKind::Quantifier {
                kind: if forall {
                    QuantifierKind::Forall
                } else {
                    QuantifierKind::Exists
                },
                var: v,
                constraint: c?.map(bx),
                body: bx(b?),
            },
            Type::Bool,
        ))
    }

    /// `PROC[rank].var` or `PROC[rank]@function.var`: a variable of another
    /// process (pragmas only).
    pub(crate) fn remote_variable(
        &mut self,
        rank: &Ast<'t>,
        function: Option<&str>,
        var: &str,
        pos: Pos,
    ) -> Res<Expr> {
        let span = self.span(pos);
        let mk = |kind, ty| Expr::new(kind, ty, span.clone());
        let r = self.rvalue(rank)?;
        if !r.ty.is_integer() {
            return err(rank.pos, "the rank in PROC[...] must be an integer");
        }
        let r = self.to_int(r);
        Ok(match function {
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
        })
    }
}
