//! Statements and function bodies.

use std::collections::HashMap;

use tass_model::api::*;
use tree_sitter::Node;

use super::builder::FnBuilder;
use super::calls::CallResult;
use super::types::{declarator_and_value, DeclarationForm};
use super::{err, first_line, Res, Sym, Tr};
use crate::ast::{convert_full, Pos};
use crate::pragma::PragmaKind;

impl<'t> Tr<'t> {
    pub(crate) fn fb(&mut self) -> &mut FnBuilder {
        self.fb.as_mut().expect("inside a function body")
    }

    pub(crate) fn set_stmt(&mut self, node: Node<'t>) {
        let span = self.span(Pos::of(node));
        // loops and ifs show their head only, functions their signature
        let cut = ["body", "consequence"]
            .iter()
            .find_map(|f| crate::ast::child(node, f))
            .filter(|b| node.kind() != "do_statement" || b.kind() != "compound_statement")
            .map(|b| b.start_byte());
        let full = self.text(node);
        let text = match cut {
            Some(end) if node.kind() != "do_statement" => {
                let len = end.saturating_sub(node.start_byte()).min(full.len());
                first_line(full.get(..len).unwrap_or(full))
            }
            _ if node.kind() == "do_statement" => match crate::ast::child(node, "condition") {
                Some(c) => format!("while {}", first_line(self.text(c))),
                None => first_line(full),
            },
            _ => first_line(full),
        };
        let fb = self.fb();
        fb.span = span;
        fb.text = text;
        fb.touch();
    }

    /// Labels the edges that follow as leaving `node` (an `if`): "end of if
    /// (...)" at its head. The jump to the join after a branch would otherwise
    /// carry the last statement of the branch, and a trace of a process that
    /// skipped that branch would show the statement it did not execute.
    pub(crate) fn end_of(&mut self, node: Node<'t>) {
        self.set_stmt(node);
        let fb = self.fb();
        fb.text = format!("end of {}", fb.text);
    }

    /// Pass 2 for one function definition.
    pub(crate) fn function_body(&mut self, node: Node<'t>, idx: usize) -> Res<()> {
        let pos = Pos::of(node);
        let Some(fid) = self.ctx.fns[idx].model_id else {
            return err(pos, "internal: function without id");
        };
        let name = self.ctx.fns[idx].name.clone();
        let ret = self.ctx.fns[idx].return_type.clone();
        let is_main = name == "main";
        if is_main && !matches!(ret, Type::Void | Type::Int(_)) {
            return err(pos, "`main` must return int or void");
        }
        self.cur_fn = Some(idx);
        self.scopes = vec![HashMap::new()];
        let span = self.span(pos);
        self.fb = Some(FnBuilder::new(span.clone(), ret.clone()));
        let sig = match crate::ast::child(node, "body") {
            Some(b) => self
                .src
                .get(node.start_byte()..b.start_byte())
                .unwrap_or(""),
            None => self.text(node),
        };
        self.fb().text = first_line(sig);
        let params = self.declare_parameters(node, fid)?;
        let params = if is_main {
            self.main_arguments(params, pos)?;
            vec![]
        } else {
            params.into_iter().map(|(v, _)| v).collect()
        };
        let Some(body) = crate::ast::child(node, "body") else {
            return err(pos, "function without body");
        };
        self.compound(body)?;
        self.check_labels_defined()?;
        self.check_no_pragma_left()?;
        self.return_at_end(body);
        let Some(fb) = self.fb.take() else {
            return err(pos, "internal: no builder");
        };
        let locals = fb.locals.clone();
        let (body, labels) = fb.finish();
        for (label, location) in labels {
            self.ctx.labels.push((fid, label, location));
        }
        self.ctx.fns[idx].function = Some(Function {
            id: fid,
            name,
            params,
            locals,
            return_type: ret,
            kind: FunctionKind::User,
            body: Some(body),
            span,
        });
        self.scopes.clear();
        self.cur_fn = None;
        Ok(())
    }

    /// The parameters of the function definition `node`, resolved again now
    /// that earlier ones are in scope, declared as locals of `fid`.
    fn declare_parameters(&mut self, node: Node<'t>, fid: FunctionId) -> Res<Vec<(VarId, Type)>> {
        let (base, _) = self.specifiers(node)?;
        let mut decl = crate::ast::child(node, "declarator");
        while let Some(d) = decl {
            if d.kind() == "function_declarator" {
                break;
            }
            decl = crate::ast::child(d, "declarator");
        }
        let _ = base;
        let plist = decl.and_then(|d| crate::ast::child(d, "parameters"));
        let mut params = Vec::new();
        if let Some(pl) = plist {
            let mut c = pl.walk();
            let children: Vec<Node<'t>> = pl.named_children(&mut c).collect();
            for p in children {
                if p.kind() != "parameter_declaration" {
                    continue;
                }
                let (pbase, flags) = self.specifiers(p)?;
                let d = self.declarator(crate::ast::child(p, "declarator"), pbase, false)?;
                let ty = match d.ty {
                    Type::Array(elem, _) => Type::Pointer(elem),
                    t => t,
                };
                if ty == Type::Void && d.name.is_empty() {
                    continue;
                }
                if d.name.is_empty() {
                    return err(
                        Pos::of(p),
                        "a parameter of a function definition needs a name",
                    );
                }
                let pspan = self.span(Pos::of(p));
                let v = self
                    .ctx
                    .new_var(&d.name, ty.clone(), VarScope::Local(fid), pspan);
                self.note_fn_pointer(v, d.pos);
                self.ctx.variables[v.0 as usize].is_const =
                    flags.is_const && !matches!(ty, Type::Pointer(_));
                self.declare(&d.name, Sym::Var(v));
                params.push((v, ty));
            }
        }
        Ok(params)
    }

    /// `main`'s parameters: the model's `main` has none, so `argc` and `argv`
    /// are locals set to 1 and NULL at its start.
    fn main_arguments(&mut self, arguments: Vec<(VarId, Type)>, pos: Pos) -> Res<()> {
        // the model's main has no parameters: argc = 1, argv = NULL
        if arguments.len() > 2 {
            return err(pos, "`main` takes at most two parameters (argc, argv)");
        }
        for (k, (v, ty)) in arguments.into_iter().enumerate() {
            self.fb().locals.push(v);
            self.ctx.main_arguments.push(v);
            let sp = self.span(pos);
            let value = match (k, &ty) {
                (0, t) if t.is_integer() => Expr::new(ExprKind::IntLit(1), ty.clone(), sp.clone()),
                (1, Type::Pointer(_)) => Expr::new(ExprKind::NullPointer, ty.clone(), sp.clone()),
                _ => return err(pos, "`main`'s parameters must be `int argc, char **argv`"),
            };
            self.emit(Statement::Assign {
                lhs: Expr::new(ExprKind::Var(v), ty, sp),
                rhs: value,
            });
        }
        Ok(())
    }

    /// Fails on the pragmas of the body no statement took (e.g. before the
    /// closing brace of a nested body) and on invariants no loop followed.
    fn check_no_pragma_left(&mut self) -> Res<()> {
        if let Some(p) = self.body_pragmas.get(self.next_pragma) {
            return err(
                p.pos,
                format!(
                    "`#pragma TASS {}` is not at a statement position",
                    p.kind.keyword()
                ),
            );
        }
        if !self.pending_invariants.is_empty() {
            let p = self.pending_invariants.remove(0);
            return err(
                Pos {
                    row: 0,
                    col: 0,
                    end_row: 0,
                    end_col: 0,
                },
                format!("invariant `{}` is not immediately before a loop", p.id),
            )
            .map_err(|mut e| {
                e.pos = self.pos_of_span(&p.span);
                e
            });
        }
        Ok(())
    }

    /// `return` at the closing brace of `body` when control can reach it
    /// (`return 0` in an `int main`).
    fn return_at_end(&mut self, body: Node<'t>) {
        let is_main = self.cur_fn.is_some_and(|i| self.ctx.fns[i].name == "main");
        let ret = self.fb().return_type.clone();
        if self.fb().cur.is_some() {
            let end = Pos {
                row: body.end_position().row as u32,
                col: body.end_position().column.saturating_sub(1) as u32,
                end_row: body.end_position().row as u32,
                end_col: body.end_position().column as u32,
            };
            let span = self.span(end);
            self.fb().span = span.clone();
            self.fb().text = "}".into();
            let value = if is_main && ret != Type::Void {
                Some(Expr::new(ExprKind::IntLit(0), ret.clone(), span))
            } else {
                None
            };
            self.fb().ret(value);
        }
    }

    fn pos_of_span(&self, span: &Span) -> Pos {
        // find a row of this unit with this origin line
        let row = self
            .unit
            .origins
            .iter()
            .position(|(f, _, l)| *l == span.start_line && **f == *span.file)
            .unwrap_or(0) as u32;
        Pos {
            row,
            col: span.start_column.saturating_sub(1),
            end_row: row,
            end_col: span.start_column,
        }
    }

    /// Executes the pragmas that come before `row`.
    fn flush_pragmas(&mut self, row: u32) -> Res<()> {
        while let Some(p) = self.body_pragmas.get(self.next_pragma) {
            if p.pos.row >= row {
                break;
            }
            let idx = self.next_pragma;
            self.next_pragma += 1;
            let pos = self.body_pragmas[idx].pos;
            let span = self.span(pos);
            let text = first_line(&self.body_pragmas[idx].text);
            {
                let fb = self.fb();
                fb.span = span.clone();
                fb.text = text;
            }
            // take the pragma out to translate its expression
            let kind = std::mem::replace(&mut self.body_pragmas[idx].kind, PragmaKind::Output);
            self.in_pragma = true;
            let r = self.pragma_statement(kind, pos, span);
            self.in_pragma = false;
            r?;
        }
        Ok(())
    }

    fn pragma_statement(&mut self, kind: PragmaKind<'t>, pos: Pos, span: Span) -> Res<()> {
        if let Some(first) = self.pending_invariants.first() {
            let message = match &kind {
                PragmaKind::Invariant { id, .. } => format!(
                    "invariant `{id}` follows invariant `{}` before the same loop, but a loop (while, do or for) takes one invariant pragma: write both claims in one pragma, joined with &&",
                    first.id
                ),
                _ => "a loop invariant pragma must be immediately followed by a while, do or for loop".to_string(),
            };
            return err(pos, message);
        }
        match kind {
            PragmaKind::Assume(e) => {
                let c = self.cond(&e)?;
                self.emit(Statement::Assume { condition: c });
            }
            PragmaKind::Assert(e) => {
                let c = self.cond(&e)?;
                self.emit(Statement::Assert {
                    condition: c,
                    origin: AssertOrigin::Pragma,
                });
            }
            PragmaKind::CollectiveAssert { kind, id, expr } => {
                let c = self.cond(&expr)?;
                self.emit(Statement::CollectiveAssert {
                    id,
                    kind,
                    condition: c,
                });
            }
            PragmaKind::Invariant { kind, id, expr } => {
                // translated at the loop (see `take_invariants`)
                self.pending_invariants.push(super::PendingInvariant {
                    id,
                    kind,
                    expr,
                    span,
                });
            }
            other => {
                return err(
                    pos,
                    format!(
                    "`#pragma TASS {}` must precede a global declaration, not be inside a function",
                    other.keyword()
                ),
                )
            }
        }
        Ok(())
    }

    pub(crate) fn compound(&mut self, node: Node<'t>) -> Res<()> {
        self.scopes.push(HashMap::new());
        let vla_mark = self.vla_scope_mark();
        let mut c = node.walk();
        let children: Vec<Node<'t>> = node.named_children(&mut c).collect();
        for ch in children {
            self.statement(ch)?;
        }
        self.flush_pragmas(node.end_position().row as u32 + 1)?;
        self.leave_vla_scope(vla_mark);
        self.scopes.pop();
        Ok(())
    }

    pub(crate) fn statement(&mut self, node: Node<'t>) -> Res<()> {
        let pos = Pos::of(node);
        let _depth = crate::ast::NestingGuard::enter(pos)?;
        if node.kind() == "comment" {
            return Ok(());
        }
        self.flush_pragmas(pos.row)?;
        let is_loop = matches!(
            node.kind(),
            "while_statement" | "for_statement" | "do_statement"
        );
        if !is_loop && !self.pending_invariants.is_empty() {
            return err(
                pos,
                "a loop invariant pragma must be immediately followed by a while, do or for loop",
            );
        }
        self.set_stmt(node);
        match node.kind() {
            "compound_statement" => self.compound(node),
            "expression_statement" => self.expression_statement(node),
            "declaration" => self.local_declaration(node),
            "type_definition" => self.type_definition(node),
            "if_statement" => self.if_statement(node),
            "while_statement" => self.while_loop(node),
            "do_statement" => self.do_loop(node),
            "for_statement" => self.for_loop(node),
            "break_statement" => match self.fb().breaks.last().copied() {
                Some(t) => {
                    self.fb().goto(t);
                    Ok(())
                }
                None => err(pos, "`break` outside a loop or switch"),
            },
            "continue_statement" => match self.fb().continues.last().copied() {
                Some(t) => {
                    self.fb().goto(t);
                    Ok(())
                }
                None => err(pos, "`continue` outside a loop"),
            },
            "return_statement" => self.return_statement(node),
            "switch_statement" => self.switch(node),
            "case_statement" => err(pos, "`case` outside a switch"),
            "labeled_statement" => self.labeled_statement(node),
            "goto_statement" => self.goto_statement(node),
            "gnu_asm_expression" | "asm_statement" => err(pos, "inline assembly is not supported"),
            "attributed_statement" => err(pos, "attributes are not supported"),
            "struct_specifier" | "enum_specifier" | "union_specifier" => {
                self.base_type_node(node).map(|_| ())
            }
            "function_definition" => err(pos, "nested functions are not supported"),
            "seh_try_statement" | "seh_leave_statement" => {
                err(pos, "structured exception handling is not supported")
            }
            other => err(
                pos,
                format!(
                    "statement `{}` ({other}) is not supported",
                    first_line(self.text(node))
                ),
            ),
        }
    }

    /// An expression statement `e;`.
    fn expression_statement(&mut self, node: Node<'t>) -> Res<()> {
        let Some(e) = node.named_child(0) else {
            return Ok(());
        };
        if e.kind() == "comment" {
            return Ok(());
        }
        let ast = convert_full(e, self.src)?;
        self.effect(&ast)
    }

    pub(crate) fn initialize_from_ast(&mut self, lhs: Expr, ast: &crate::ast::Ast<'t>) -> Res<()> {
        if let crate::ast::AstKind::Call(f, args) = &super::expr::peel_casts(ast).kind {
            self.call(f, args, CallResult::StoreIn(lhs), ast.pos)?;
            return Ok(());
        }
        let e = self.rvalue(ast)?;
        let e = self.convert(e, &lhs.ty, ast.pos)?;
        self.emit(Statement::Assign { lhs, rhs: e });
        Ok(())
    }

    pub(crate) fn local_declaration(&mut self, node: Node<'t>) -> Res<()> {
        let (base, flags) = self.specifiers(node)?;
        let fid = self
            .cur_fn
            .and_then(|i| self.ctx.fns[i].model_id)
            .unwrap_or(FunctionId(0));
        let mut c = node.walk();
        let decls: Vec<Node<'t>> = node.children_by_field_name("declarator", &mut c).collect();
        for dn in decls {
            let (dnode, value) = declarator_and_value(dn);
            let d = self.declarator(dnode, base.clone(), false)?;
            if d.params.is_some() {
                self.register_function(&d, FunctionKind::User, DeclarationForm::Prototype)?;
                continue;
            }
            if flags.is_extern {
                continue;
            }
            if d.ty == Type::Void {
                return err(d.pos, format!("variable `{}` has type void", d.name));
            }
            let ty = self.sized_by_initializer(&d.ty, value);
            let span = self.span(d.pos);
            if flags.is_static {
                let v = self
                    .ctx
                    .new_var(&d.name, ty.clone(), VarScope::ProcessGlobal, span);
                self.note_fn_pointer(v, d.pos);
                self.ctx.variables[v.0 as usize].static_in = Some(fid);
                self.ctx.variables[v.0 as usize].is_const =
                    flags.is_const && !matches!(ty, Type::Pointer(_));
                self.ctx.process_globals.push(v);
                self.declare(&d.name, Sym::Var(v));
                if let Some(value) = value {
                    let saved_fb = self.fb.take();
                    self.fb = saved_fb;
                    // static initializers run once, before main
                    let r = {
                        let fb = self.fb.take();
                        let r = self.global_initializer(v, ty, value);
                        self.fb = fb;
                        r
                    };
                    r?;
                }
                continue;
            }
            let v = self
                .ctx
                .new_var(&d.name, ty.clone(), VarScope::Local(fid), span);
            self.note_fn_pointer(v, d.pos);
            self.fb().locals.push(v);
            self.declare(&d.name, Sym::Var(v));
            self.note_vla(v, &ty);
            self.emit(Statement::Declare { var: v });
            if let Some(value) = value {
                let lhs = Expr::new(ExprKind::Var(v), ty.clone(), self.span(d.pos));
                self.initialize(lhs, &ty, value)?;
            }
            // const after initialization
            self.ctx.variables[v.0 as usize].is_const =
                flags.is_const && !matches!(ty, Type::Pointer(_));
        }
        Ok(())
    }
}

pub(crate) fn field<'t>(node: Node<'t>, name: &'static str) -> Res<Node<'t>> {
    match crate::ast::child(node, name) {
        Some(n) => Ok(n),
        None => err(
            Pos::of(node),
            format!("malformed {}: missing {name}", node.kind()),
        ),
    }
}
