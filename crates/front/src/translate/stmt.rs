//! Statements and function bodies.

use std::collections::HashMap;

use tass_model::api::*;
use tree_sitter::Node;

use super::builder::FnBuilder;
use super::{err, first_line, Res, Sym, Tr};
use crate::ast::{convert, Pos};
use crate::pragma::PragmaKind;

impl<'t> Tr<'t> {
    fn fb(&mut self) -> &mut FnBuilder {
        self.fb.as_mut().expect("inside a function body")
    }

    fn set_stmt(&mut self, node: Node<'t>) {
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
    fn end_of(&mut self, node: Node<'t>) {
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
        // parameters, resolved again now that earlier ones are in scope
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
        let mut main_args = Vec::new();
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
                if is_main {
                    main_args.push((v, ty));
                } else {
                    params.push(v);
                }
            }
        }
        if is_main {
            // the model's main has no parameters: argc = 1, argv = NULL
            if main_args.len() > 2 {
                return err(pos, "`main` takes at most two parameters (argc, argv)");
            }
            for (k, (v, ty)) in main_args.into_iter().enumerate() {
                self.fb().locals.push(v);
                let sp = self.span(pos);
                let value = match (k, &ty) {
                    (0, t) if t.is_integer() => {
                        Expr::new(ExprKind::IntLit(1), ty.clone(), sp.clone())
                    }
                    (1, Type::Pointer(_)) => {
                        Expr::new(ExprKind::NullPointer, ty.clone(), sp.clone())
                    }
                    _ => return err(pos, "`main`'s parameters must be `int argc, char **argv`"),
                };
                self.emit(Statement::Assign {
                    lhs: Expr::new(ExprKind::Var(v), ty, sp),
                    rhs: value,
                });
            }
        }
        let Some(body) = crate::ast::child(node, "body") else {
            return err(pos, "function without body");
        };
        self.compound(body)?;
        // pragmas left over (e.g. before the closing brace of a nested body)
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
        // falling off the end
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
        let Some(fb) = self.fb.take() else {
            return err(pos, "internal: no builder");
        };
        let locals = fb.locals.clone();
        let body = fb.finish();
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
        if !self.pending_invariants.is_empty() {
            return err(
                pos,
                "a loop invariant pragma must be immediately followed by a while or for loop",
            );
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
                let c = self.cond(&expr)?;
                self.pending_invariants.push(LoopInvariant {
                    id,
                    kind,
                    condition: c,
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

    fn take_invariants(&mut self, node: Node<'t>) -> Res<Vec<LoopInvariant>> {
        let inv = std::mem::take(&mut self.pending_invariants);
        let _ = node;
        Ok(inv)
    }

    pub(crate) fn compound(&mut self, node: Node<'t>) -> Res<()> {
        self.scopes.push(HashMap::new());
        let mut c = node.walk();
        let children: Vec<Node<'t>> = node.named_children(&mut c).collect();
        for ch in children {
            self.statement(ch)?;
        }
        self.flush_pragmas(node.end_position().row as u32 + 1)?;
        self.scopes.pop();
        Ok(())
    }

    fn loop_head(&mut self, kind: LocationKind, invariants: Vec<LoopInvariant>) -> LocationId {
        for inv in &invariants {
            self.emit(Statement::LoopInvariant(inv.clone()));
        }
        let fb = self.fb();
        // reuse the current location when nothing leaves it yet
        let head = match fb.cur {
            Some(c)
                if fb.graph.neighbors(c).next().is_none()
                    && fb.graph[c].kind == LocationKind::Plain
                    && c != fb.entry =>
            {
                fb.graph[c].kind = kind;
                fb.graph[c].span = fb.span.clone();
                c
            }
            _ => {
                let h = fb.new_loc(kind);
                fb.enter(h);
                h
            }
        };
        fb.graph[head].invariants = invariants;
        head
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
            "expression_statement" => {
                let Some(e) = node.named_child(0) else {
                    return Ok(());
                };
                if e.kind() == "comment" {
                    return Ok(());
                }
                let ast = convert(e, self.src)?;
                self.effect(&ast)
            }
            "declaration" => self.local_declaration(node),
            "type_definition" => self.type_definition(node),
            "if_statement" => {
                let c = field(node, "condition")?;
                let ast = convert(c, self.src)?;
                let ce = self.cond(&ast)?;
                let (yes, no) = self.fb().branch(ce);
                let join = self.fb().new_loc(LocationKind::IfJoin);
                self.fb().cur = Some(yes);
                self.statement(field(node, "consequence")?)?;
                self.end_of(node);
                self.fb().goto(join);
                self.fb().cur = Some(no);
                if let Some(alt) = crate::ast::child(node, "alternative") {
                    let inner = if alt.kind() == "else_clause" {
                        alt.named_child(0)
                    } else {
                        Some(alt)
                    };
                    if let Some(s) = inner {
                        self.statement(s)?;
                    }
                }
                self.end_of(node);
                self.fb().goto(join);
                self.fb().cur = Some(join);
                Ok(())
            }
            "while_statement" => {
                let inv = self.take_invariants(node)?;
                let head = self.loop_head(LocationKind::LoopHead, inv);
                let c = field(node, "condition")?;
                let ast = convert(c, self.src)?;
                let ce = self.cond(&ast)?;
                let (body, exit) = self.fb().branch(ce);
                self.fb().cur = Some(body);
                self.fb().breaks.push(exit);
                self.fb().continues.push(head);
                let r = self.statement(field(node, "body")?);
                self.fb().breaks.pop();
                self.fb().continues.pop();
                r?;
                self.set_stmt(node);
                self.fb().goto(head);
                self.fb().cur = Some(exit);
                Ok(())
            }
            "do_statement" => {
                let inv = self.take_invariants(node)?;
                let head = self.loop_head(LocationKind::LoopHead, inv);
                let cont = self.fb().new_loc(LocationKind::Plain);
                let exit = self.fb().new_loc(LocationKind::Plain);
                self.fb().breaks.push(exit);
                self.fb().continues.push(cont);
                let r = self.statement(field(node, "body")?);
                self.fb().breaks.pop();
                self.fb().continues.pop();
                r?;
                self.set_stmt(node);
                self.fb().enter(cont);
                let c = field(node, "condition")?;
                let ast = convert(c, self.src)?;
                let ce = self.cond(&ast)?;
                let (again, out) = self.fb().branch(ce);
                self.fb().cur = Some(again);
                self.fb().goto(head);
                self.fb().cur = Some(out);
                self.fb().goto(exit);
                self.fb().cur = Some(exit);
                Ok(())
            }
            "for_statement" => {
                let inv = self.take_invariants(node)?;
                self.scopes.push(HashMap::new());
                if let Some(init) = crate::ast::child(node, "initializer") {
                    if init.kind() == "declaration" {
                        self.local_declaration(init)?;
                    } else {
                        let ast = convert(init, self.src)?;
                        self.effect(&ast)?;
                    }
                }
                self.set_stmt(node);
                let head = self.loop_head(LocationKind::ForLoopHead, inv);
                let exit = match crate::ast::child(node, "condition") {
                    Some(c) => {
                        let ast = convert(c, self.src)?;
                        let ce = self.cond(&ast)?;
                        let (body, exit) = self.fb().branch(ce);
                        self.fb().cur = Some(body);
                        exit
                    }
                    None => self.fb().new_loc(LocationKind::Plain),
                };
                let cont = self.fb().new_loc(LocationKind::Plain);
                self.fb().breaks.push(exit);
                self.fb().continues.push(cont);
                let r = self.statement(field(node, "body")?);
                self.fb().breaks.pop();
                self.fb().continues.pop();
                r?;
                self.fb().enter(cont);
                if let Some(u) = crate::ast::child(node, "update") {
                    self.set_stmt(u);
                    let ast = convert(u, self.src)?;
                    self.effect(&ast)?;
                }
                self.set_stmt(node);
                self.fb().goto(head);
                self.fb().cur = Some(exit);
                self.scopes.pop();
                Ok(())
            }
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
            "return_statement" => {
                let ret = self.fb().return_type.clone();
                let value = match node.named_child(0) {
                    Some(v) if v.kind() != "comment" => {
                        let ast = convert(v, self.src)?;
                        if ret == Type::Void {
                            return err(pos, "a void function cannot return a value");
                        }
                        if let super::expr::PeelCall::Call = super::expr::peel_kind(&ast) {
                            let t = self.temp(ret.clone(), pos);
                            self.initialize_from_ast(t.clone(), &ast)?;
                            Some(t)
                        } else {
                            let e = self.rvalue(&ast)?;
                            Some(self.convert(e, &ret, pos)?)
                        }
                    }
                    _ => {
                        if ret != Type::Void {
                            return err(pos, "a non-void function must return a value");
                        }
                        None
                    }
                };
                self.fb().ret(value);
                Ok(())
            }
            "switch_statement" => self.switch(node),
            "case_statement" => err(pos, "`case` outside a switch"),
            "labeled_statement" => err(pos, "labels (and `goto`) are not supported"),
            "goto_statement" => err(pos, "`goto` is not supported"),
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

    fn initialize_from_ast(&mut self, lhs: Expr, ast: &crate::ast::Ast<'t>) -> Res<()> {
        if let crate::ast::AstKind::Call(f, args) = &super::expr::peel_casts(ast).kind {
            self.call(f, args, Some(lhs), false, ast.pos)?;
            return Ok(());
        }
        let e = self.rvalue(ast)?;
        let e = self.convert(e, &lhs.ty, ast.pos)?;
        self.emit(Statement::Assign { lhs, rhs: e });
        Ok(())
    }

    fn switch(&mut self, node: Node<'t>) -> Res<()> {
        let pos = Pos::of(node);
        let c = field(node, "condition")?;
        let ast = convert(c, self.src)?;
        let sel = self.rvalue(&ast)?;
        if !sel.ty.is_integer() {
            return err(Pos::of(c), "a switch needs an integer");
        }
        // the selector is promoted; each case constant is converted to its type
        let sel_ty = super::conversions::promoted_type(&sel.ty);
        let sel = self.to_int(sel);
        let sel = self.convert(sel, &sel_ty, Pos::of(c))?;
        // keep the selector in a temporary so the case guards read one value
        let t = self.temp(sel.ty.clone(), pos);
        self.emit(Statement::Assign {
            lhs: t.clone(),
            rhs: sel,
        });
        let body = field(node, "body")?;
        let mut c2 = body.walk();
        let items: Vec<Node<'t>> = body.named_children(&mut c2).collect();
        // case locations
        let from = self.fb().here();
        let exit = self.fb().new_loc(LocationKind::IfJoin);
        let mut labels = Vec::new();
        let mut conds: Vec<Expr> = Vec::new();
        let mut default = None;
        for it in &items {
            if it.kind() != "case_statement" {
                if it.kind() == "comment" {
                    continue;
                }
                return err(
                    Pos::of(*it),
                    "statements in a switch must follow a `case` or `default` label",
                );
            }
            self.set_stmt(*it);
            let loc = self.fb().new_loc(LocationKind::Plain);
            match crate::ast::child(*it, "value") {
                Some(v) => {
                    let vast = convert(v, self.src)?;
                    let ve = self.rvalue(&vast)?;
                    if super::types::fold_int(&ve).is_none() {
                        return err(Pos::of(v), "a case label must be an integer constant");
                    }
                    let ve = self.to_int(ve);
                    let ve = self.convert(ve, &sel_ty, Pos::of(v))?;
                    let g = self.binary("==", t.clone(), ve, Pos::of(v))?;
                    conds.push(g.clone());
                    labels.push((loc, Some(g), *it));
                }
                None => {
                    if default.is_some() {
                        return err(Pos::of(*it), "more than one `default` in a switch");
                    }
                    default = Some(loc);
                    labels.push((loc, None, *it));
                }
            }
        }
        self.set_stmt(node);
        for (loc, g, _) in &labels {
            if let Some(g) = g {
                let g = g.clone();
                self.fb().edge(from, *loc, g, Statement::Noop);
            }
        }
        // default (or the exit) when no case matches
        let none = conds.iter().cloned().reduce(|a, b| {
            let span = a.span.clone();
            Expr::new(
                ExprKind::LogicalOr(Box::new(a), Box::new(b)),
                Type::Bool,
                span,
            )
        });
        let target = default.unwrap_or(exit);
        match none {
            Some(n) => {
                let g = n.negated();
                self.fb().edge(from, target, g, Statement::Noop);
            }
            None => {
                let span = self.fb().span.clone();
                self.fb()
                    .edge(from, target, Expr::true_at(span), Statement::Noop);
            }
        }
        self.fb().cur = None;
        self.fb().breaks.push(exit);
        let mut result = Ok(());
        for (loc, _, it) in labels {
            self.fb().enter(loc);
            let mut c3 = it.walk();
            let stmts: Vec<Node<'t>> = it.named_children(&mut c3).collect();
            let value = crate::ast::child(it, "value");
            for s in stmts {
                if Some(s) == value {
                    continue;
                }
                if let Err(e) = self.statement(s) {
                    result = Err(e);
                    break;
                }
            }
            if result.is_err() {
                break;
            }
        }
        self.fb().breaks.pop();
        result?;
        self.fb().enter(exit);
        Ok(())
    }

    fn local_declaration(&mut self, node: Node<'t>) -> Res<()> {
        let (base, flags) = self.specifiers(node)?;
        let fid = self
            .cur_fn
            .and_then(|i| self.ctx.fns[i].model_id)
            .unwrap_or(FunctionId(0));
        let mut c = node.walk();
        let decls: Vec<Node<'t>> = node.children_by_field_name("declarator", &mut c).collect();
        for dn in decls {
            let (dnode, value) = if dn.kind() == "init_declarator" {
                (
                    crate::ast::child(dn, "declarator"),
                    crate::ast::child(dn, "value"),
                )
            } else {
                (Some(dn), None)
            };
            let d = self.declarator(dnode, base.clone(), false)?;
            if let Some((params, variadic)) = &d.params {
                self.register_function(
                    &d.name,
                    d.ty.clone(),
                    params,
                    *variadic,
                    false,
                    FunctionKind::User,
                    d.pos,
                )?;
                continue;
            }
            if flags.is_extern {
                continue;
            }
            if d.ty == Type::Void {
                return err(d.pos, format!("variable `{}` has type void", d.name));
            }
            let mut ty = d.ty.clone();
            if let (Type::Array(elem, None), Some(v)) = (&ty, value) {
                if let Some(n) = self.initializer_length(v) {
                    ty = Type::Array(
                        elem.clone(),
                        Some(Box::new(Expr::int(n, Span::synthetic()))),
                    );
                }
            }
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

fn field<'t>(node: Node<'t>, name: &'static str) -> Res<Node<'t>> {
    match crate::ast::child(node, name) {
        Some(n) => Ok(n),
        None => err(
            Pos::of(node),
            format!("malformed {}: missing {name}", node.kind()),
        ),
    }
}
