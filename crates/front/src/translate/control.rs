//! Control flow: `if`, the loops (with their invariants), `switch` and
//! `return`.

use std::collections::HashMap;

use tass_model::api::*;
use tree_sitter::Node;

use super::stmt::field;
use super::{err, Res, Tr};
use crate::ast::{convert_full, Pos};

impl<'t> Tr<'t> {
    /// Translates the invariants waiting for this loop. A `for` loop calls
    /// this after its initialiser, so the invariant may name the variables
    /// the `for` declares.
    pub(crate) fn take_invariants(&mut self) -> Res<Vec<LoopInvariant>> {
        let pending = std::mem::take(&mut self.pending_invariants);
        let mut invariants = Vec::with_capacity(pending.len());
        for p in pending {
            let saved_span = std::mem::replace(&mut self.fb().span, p.span.clone());
            self.in_pragma = true;
            let condition = self.cond(&p.expr);
            self.in_pragma = false;
            self.fb().span = saved_span;
            invariants.push(LoopInvariant {
                id: p.id,
                kind: p.kind,
                condition: condition?,
                span: p.span,
                arrival: LoopArrival::Entry,
                writes: Vec::new(),
                refused: None,
                communication: None,
            });
        }
        Ok(invariants)
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

    /// `if (c) s1 else s2`: a branch, and a join after both.
    pub(crate) fn if_statement(&mut self, node: Node<'t>) -> Res<()> {
        let ce = self.condition_of(node)?;
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

    /// `while (c) s`.
    pub(crate) fn while_loop(&mut self, node: Node<'t>) -> Res<()> {
        let inv = self.take_invariants()?;
        let head = self.loop_head(LocationKind::LoopHead, inv);
        let ce = self.condition_of(node)?;
        let (body, exit) = self.fb().branch(ce);
        self.fb().cur = Some(body);
        self.loop_body(node, exit, head)?;
        self.set_stmt(node);
        self.fb().goto(head);
        self.fb().cur = Some(exit);
        Ok(())
    }

    /// `do s while (c);`.
    pub(crate) fn do_loop(&mut self, node: Node<'t>) -> Res<()> {
        let inv = self.take_invariants()?;
        let head = self.loop_head(LocationKind::LoopHead, inv);
        let cont = self.fb().new_loc(LocationKind::Plain);
        let exit = self.fb().new_loc(LocationKind::Plain);
        self.loop_body(node, exit, cont)?;
        self.set_stmt(node);
        self.fb().enter(cont);
        let ce = self.condition_of(node)?;
        let (again, out) = self.fb().branch(ce);
        self.fb().cur = Some(again);
        self.fb().goto(head);
        self.fb().cur = Some(out);
        self.fb().goto(exit);
        self.fb().cur = Some(exit);
        Ok(())
    }

    /// `for (init; c; update) s`, with its own scope for declarations in `init`.
    pub(crate) fn for_loop(&mut self, node: Node<'t>) -> Res<()> {
        self.scopes.push(HashMap::new());
        let vla_mark = self.vla_scope_mark();
        if let Some(init) = crate::ast::child(node, "initializer") {
            if init.kind() == "declaration" {
                self.local_declaration(init)?;
            } else {
                let ast = convert_full(init, self.src)?;
                self.effect(&ast)?;
            }
        }
        let inv = self.take_invariants()?;
        self.set_stmt(node);
        let head = self.loop_head(LocationKind::ForLoopHead, inv);
        let exit = match crate::ast::child(node, "condition") {
            Some(c) => {
                let ast = convert_full(c, self.src)?;
                let ce = self.cond(&ast)?;
                let (body, exit) = self.fb().branch(ce);
                self.fb().cur = Some(body);
                exit
            }
            None => self.fb().new_loc(LocationKind::Plain),
        };
        let cont = self.fb().new_loc(LocationKind::Plain);
        self.loop_body(node, exit, cont)?;
        self.fb().enter(cont);
        if let Some(u) = crate::ast::child(node, "update") {
            self.set_stmt(u);
            let ast = convert_full(u, self.src)?;
            self.effect(&ast)?;
        }
        self.set_stmt(node);
        self.fb().goto(head);
        self.fb().cur = Some(exit);
        self.leave_vla_scope(vla_mark);
        self.scopes.pop();
        Ok(())
    }

    /// `return;` or `return e;`.
    pub(crate) fn return_statement(&mut self, node: Node<'t>) -> Res<()> {
        let pos = Pos::of(node);
        let ret = self.fb().return_type.clone();
        let value = match node.named_child(0) {
            Some(v) if v.kind() != "comment" => {
                let ast = convert_full(v, self.src)?;
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

    pub(crate) fn switch(&mut self, node: Node<'t>) -> Res<()> {
        let pos = Pos::of(node);
        let c = field(node, "condition")?;
        let ast = convert_full(c, self.src)?;
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
                    let vast = convert_full(v, self.src)?;
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

    /// The `condition` of an `if`, `while` or `do`, as a condition.
    fn condition_of(&mut self, node: Node<'t>) -> Res<Expr> {
        let ast = convert_full(field(node, "condition")?, self.src)?;
        self.cond(&ast)
    }

    /// The body of a loop, with `break` going to `exit` and `continue` to
    /// `next` (the condition, or the update of a `for`).
    fn loop_body(&mut self, node: Node<'t>, exit: LocationId, next: LocationId) -> Res<()> {
        let body = field(node, "body")?;
        self.fb().breaks.push(exit);
        self.fb().continues.push(next);
        let r = self.statement(body);
        self.fb().breaks.pop();
        self.fb().continues.pop();
        r
    }
}
