//! C statement labels and `goto`. A label is a location of kind
//! [`LocationKind::Label`] (never merged away, and always a state-saving point,
//! since a backward `goto` closes a cycle there as a loop's back edge does); a
//! `goto` is a no-op edge to it. Labels have function scope, so a `goto` may
//! jump forward or backward, into or out of blocks; the one jump C forbids is
//! into the scope of a variably modified (VLA) declaration from outside it.

use std::collections::HashMap;

use tass_model::api::*;
use tree_sitter::Node;

use super::stmt::field;
use super::{err, Res, Tr};
use crate::ast::Pos;

/// What a function knows of one label name.
pub(crate) struct LabelSite {
    /// Its location (created by the first `goto` or by the label itself).
    pub location: LocationId,
    /// Where the label is defined, once it is.
    pub defined_at: Option<Pos>,
    /// The variably modified locals in scope at the label.
    pub vlas_in_scope: Vec<VarId>,
    /// The `goto`s seen so far: where, and the variably modified locals in
    /// scope there.
    pub gotos: Vec<(Pos, Vec<VarId>)>,
}

/// The labels of the function being translated.
#[derive(Default)]
pub(crate) struct FunctionLabels {
    pub sites: HashMap<String, LabelSite>,
    /// The variably modified locals in scope at the current point.
    pub vlas_in_scope: Vec<VarId>,
}

impl<'t> Tr<'t> {
    fn label_site(&mut self, name: &str) -> &mut LabelSite {
        let fb = self.fb();
        if !fb.labels.sites.contains_key(name) {
            let location = fb.new_loc(LocationKind::Label);
            fb.labels.sites.insert(
                name.to_string(),
                LabelSite {
                    location,
                    defined_at: None,
                    vlas_in_scope: Vec::new(),
                    gotos: Vec::new(),
                },
            );
        }
        fb.labels.sites.get_mut(name).expect("inserted above")
    }

    /// `LABEL: statement`.
    pub(crate) fn labeled_statement(&mut self, node: Node<'t>) -> Res<()> {
        let pos = Pos::of(node);
        let name = self.text(field(node, "label")?).to_string();
        let in_scope = self.fb().labels.vlas_in_scope.clone();
        let span = self.fb().span.clone();
        let site = self.label_site(&name);
        if let Some(first) = site.defined_at {
            return err(
                pos,
                format!(
                    "duplicate label `{name}` (first defined at line {}); rename one of them",
                    first.row + 1
                ),
            );
        }
        site.defined_at = Some(pos);
        site.vlas_in_scope = in_scope.clone();
        let location = site.location;
        let gotos = site.gotos.clone();
        for (at, from) in gotos {
            self.check_jump(&name, at, &from, &in_scope)?;
        }
        self.fb().graph[location].span = span;
        self.fb().enter(location);
        let mut c = node.walk();
        let label = crate::ast::child(node, "label");
        let inner: Vec<Node<'t>> = node
            .named_children(&mut c)
            .filter(|n| Some(*n) != label && n.kind() != "comment")
            .collect();
        for s in inner {
            if s.kind() == "declaration" {
                self.set_stmt(s);
                self.local_declaration(s)?;
            } else {
                self.statement(s)?;
            }
        }
        Ok(())
    }

    /// `goto LABEL;`.
    pub(crate) fn goto_statement(&mut self, node: Node<'t>) -> Res<()> {
        let pos = Pos::of(node);
        let name = self.text(field(node, "label")?).to_string();
        let in_scope = self.fb().labels.vlas_in_scope.clone();
        let site = self.label_site(&name);
        site.gotos.push((pos, in_scope.clone()));
        let (location, defined) = (site.location, site.defined_at.is_some());
        if defined {
            let into = site.vlas_in_scope.clone();
            self.check_jump(&name, pos, &in_scope, &into)?;
        }
        self.fb().goto(location);
        Ok(())
    }

    /// C11 6.8.6.1p1: a `goto` must not jump from outside the scope of a
    /// variably modified identifier into it.
    /// `from` and `into` are the variably modified locals in scope at the
    /// `goto` (at `at`) and at the label.
    fn check_jump(&self, name: &str, at: Pos, from: &[VarId], into: &[VarId]) -> Res<()> {
        if let Some(v) = into.iter().find(|v| !from.contains(v)) {
            let var = self.ctx.variables[v.0 as usize].name.clone();
            return err(
                at,
                format!(
                    "`goto {name}` jumps into the scope of the variable-length array `{var}` \
                     (C forbids it); move the label before its declaration or the goto after it"
                ),
            );
        }
        Ok(())
    }

    /// At the end of a function body: every label a `goto` names is defined.
    pub(crate) fn check_labels_defined(&mut self) -> Res<()> {
        let fb = self.fb();
        let mut missing: Vec<(Pos, String)> = fb
            .labels
            .sites
            .iter()
            .filter(|(_, s)| s.defined_at.is_none())
            .filter_map(|(n, s)| s.gotos.first().map(|(p, _)| (*p, n.clone())))
            .collect();
        missing.sort_by_key(|(p, _)| (p.row, p.col));
        match missing.into_iter().next() {
            Some((pos, name)) => err(
                pos,
                format!(
                    "`goto {name}`: no label `{name}:` in this function; define it or fix the name"
                ),
            ),
            None => Ok(()),
        }
    }

    /// Records a local variable declared at the current point, if its type is
    /// variably modified (a `goto` must not jump into its scope).
    pub(crate) fn note_vla(&mut self, var: VarId, ty: &Type) {
        if is_variably_modified(ty) {
            self.fb().labels.vlas_in_scope.push(var);
        }
    }

    /// The count of variably modified locals in scope, to restore at the end
    /// of a block with [`Tr::leave_vla_scope`].
    pub(crate) fn vla_scope_mark(&mut self) -> usize {
        self.fb
            .as_ref()
            .map_or(0, |fb| fb.labels.vlas_in_scope.len())
    }

    pub(crate) fn leave_vla_scope(&mut self, mark: usize) {
        if let Some(fb) = self.fb.as_mut() {
            fb.labels.vlas_in_scope.truncate(mark);
        }
    }
}

/// Whether `ty` is a variably modified type: an array with a non-constant
/// extent, or built from one.
fn is_variably_modified(ty: &Type) -> bool {
    match ty {
        Type::Array(elem, extent) => {
            extent
                .as_deref()
                .is_some_and(|e| super::types::fold_int(e).is_none())
                || is_variably_modified(elem)
        }
        Type::Pointer(t) => is_variably_modified(t),
        _ => false,
    }
}
