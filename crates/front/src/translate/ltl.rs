//! `#pragma TASS ltl ID FORMULA`: translated after every function body, so
//! that location atoms `PROC[e]@LABEL` can name any function's labels and
//! `PROC[e]@f.x` any function's locals.

use tass_model::api::*;

use super::{err, Pragma, Res, Tr};
use crate::ast::Pos;
use crate::pragma::{LtlAst, LtlBinary, LtlUnary, PragmaKind};

impl<'t> Tr<'t> {
    /// Translates the `ltl` pragmas of this unit into `ctx.ltl`.
    pub(crate) fn translate_ltl(&mut self) -> Res<()> {
        for pragma in std::mem::take(&mut self.ltl_pragmas) {
            let Pragma { kind, pos, .. } = pragma;
            let PragmaKind::Ltl { id, formula, text } = kind else {
                continue;
            };
            if self.ctx.ltl.iter().any(|p| p.id == id) {
                return err(
                    pos,
                    format!("two `ltl` formulas are named `{id}`; rename one"),
                );
            }
            self.in_pragma = true;
            let f = self.ltl_formula(&formula);
            self.in_pragma = false;
            let span = self.span(pos);
            self.ctx.ltl.push(LtlProperty {
                id,
                formula: f?,
                span,
                text,
            });
        }
        Ok(())
    }

    fn ltl_formula(&mut self, f: &LtlAst<'t>) -> Res<LtlFormula> {
        let bx = |f: LtlFormula| Box::new(f);
        Ok(match f {
            LtlAst::Constant(b) => LtlFormula::Constant(*b),
            LtlAst::Condition(ast) => {
                let c = self.cond(ast)?;
                LtlFormula::Atom(LtlAtom::Condition(c))
            }
            LtlAst::At { rank, label, pos } => self.location_atom(rank, label, *pos)?,
            LtlAst::Unary(op, a) => {
                let a = bx(self.ltl_formula(a)?);
                match op {
                    LtlUnary::Not => LtlFormula::Not(a),
                    LtlUnary::Next => LtlFormula::Next(a),
                    LtlUnary::Always => LtlFormula::Always(a),
                    LtlUnary::Eventually => LtlFormula::Eventually(a),
                }
            }
            LtlAst::Binary(op, a, b) => {
                let a = bx(self.ltl_formula(a)?);
                let b = bx(self.ltl_formula(b)?);
                match op {
                    LtlBinary::And => LtlFormula::And(a, b),
                    LtlBinary::Or => LtlFormula::Or(a, b),
                    LtlBinary::Implies => LtlFormula::Implies(a, b),
                    LtlBinary::Iff => LtlFormula::Iff(a, b),
                    LtlBinary::Until => LtlFormula::Until(a, b),
                    LtlBinary::Release => LtlFormula::Release(a, b),
                    LtlBinary::WeakUntil => LtlFormula::WeakUntil(a, b),
                }
            }
        })
    }

    /// `PROC[e]@LABEL` or `PROC[e]@terminated`.
    fn location_atom(
        &mut self,
        rank: &crate::ast::Ast<'t>,
        label: &str,
        pos: Pos,
    ) -> Res<LtlFormula> {
        let r = self.rvalue(rank)?;
        if !r.ty.is_integer() {
            return err(rank.pos, "the rank in PROC[...] must be an integer");
        }
        let r = self.to_int(r);
        if label == "terminated" {
            return Ok(LtlFormula::Atom(LtlAtom::Terminated { rank: r }));
        }
        let found: Vec<&(FunctionId, String, Option<LocationId>)> = self
            .ctx
            .labels
            .iter()
            .filter(|(_, name, _)| name == label)
            .collect();
        match found.as_slice() {
            [(function, _, location)] => Ok(LtlFormula::Atom(LtlAtom::At {
                rank: r,
                function: *function,
                location: *location,
                label: label.to_string(),
            })),
            [] => err(
                pos,
                format!("no statement is labelled `{label}:` in the program; label the statement (`{label}: ...`) or fix the name"),
            ),
            _ => err(
                pos,
                format!("several functions have a label `{label}:`; rename them so that the atom names one"),
            ),
        }
    }
}
