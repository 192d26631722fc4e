//! Translation of parsed C (tree-sitter) plus pragmas into a model.
//!
//! Pass 1 (every unit, in source order): typedefs, structs, enums, global
//! variables and their initializers, function signatures, top-level pragmas.
//! Pass 2 (every unit): function bodies. Then `finish` checks that `main`
//! exists and every called function is defined, and puts the global
//! initializers at the start of `main`.

mod builder;
mod calls;
mod control;
mod conversions;
mod expr;
mod fnptr;
mod initializers;
mod labels;
mod ltl;
mod lvalues;
mod operators;
mod pragma_exprs;
mod stmt;
mod types;

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use tass_model::api::*;
use tree_sitter::{Node, Tree};

use crate::ast::{text, Ast, AstError, Pos};
use crate::diag::{Diagnostic, Sources};
use crate::pragma::PragmaKind;
use builder::FnBuilder;

/// An invariant pragma read before its loop, its expression not yet translated.
pub(crate) struct PendingInvariant<'t> {
    pub id: String,
    pub kind: CollectiveKind,
    pub expr: Ast<'t>,
    pub span: Span,
}

pub(crate) type Res<T> = Result<T, AstError>;

/// Boxes a model expression (operands of `ExprKind`s).
pub(crate) fn bx(e: Expr) -> Box<Expr> {
    Box::new(e)
}

pub(crate) fn err<T>(pos: Pos, message: impl Into<String>) -> Res<T> {
    Err(AstError {
        pos,
        message: message.into(),
    })
}

/// A pragma found in the preprocessed text.
pub(crate) struct RawPragma {
    pub row: u32,
    /// Column of the text after `TASS`.
    pub col: u32,
    pub text: String,
}

/// An `#pragma TASS input ...` + `#define NAME` pair, with a synthetic row in
/// the unit's line map that points at the pragma.
pub(crate) struct RawInputMacro {
    pub name: String,
    pub pragma_text: String,
    pub row: u32,
}

/// One preprocessed and parsed translation unit.
pub(crate) struct Unit {
    pub text: String,
    pub tree: Tree,
    /// Per row of `text` (then the synthetic rows of input macros): the file
    /// and 1-based line it came from.
    pub origins: Vec<(Arc<str>, PathBuf, u32)>,
    pub pragmas: Vec<RawPragma>,
    pub input_macros: Vec<RawInputMacro>,
    pub uses_mpi: bool,
    /// Unsupported directives (`#pragma omp`), reported with syntax errors.
    pub directive_errors: Vec<(Pos, String)>,
}

impl Unit {
    pub(crate) fn span(&self, pos: Pos) -> Span {
        let get = |row: u32| {
            self.origins
                .get(row as usize)
                .or(self.origins.last())
                .map(|(f, _, l)| (f.clone(), *l))
                .unwrap_or_else(|| (Arc::from("<input>"), 0))
        };
        let (file, start_line) = get(pos.row);
        let (_, end_line) = get(pos.end_row);
        Span {
            file,
            start_line,
            start_column: pos.col + 1,
            end_line: end_line.max(start_line),
            end_column: pos.end_col + 1,
        }
    }

    pub(crate) fn diagnostic(&self, e: &AstError, sources: &mut Sources) -> Diagnostic {
        let (path, line) = self
            .origins
            .get(e.pos.row as usize)
            .or(self.origins.last())
            .map(|(_, p, l)| (p.clone(), *l))
            .unwrap_or_else(|| (PathBuf::from("<input>"), 0));
        sources.diagnostic(&path, line, e.pos.col + 1, e.message.clone())
    }
}

#[derive(Clone, Debug)]
pub(crate) enum Sym {
    Var(VarId),
    Func(usize),
    EnumConst(i128),
    Typedef(Type),
    LibConst(LibraryConstant, Type),
}

/// What the translator knows about a function name.
pub(crate) struct FnInfo {
    pub name: String,
    pub return_type: Type,
    pub param_types: Vec<Type>,
    /// Parameter names of the latest declaration (for body-less functions).
    pub param_names: Vec<Option<String>>,
    pub variadic: bool,
    /// Seen with a body (in any unit's pass 1).
    pub has_body: bool,
    pub kind: FunctionKind,
    /// Its id in the model (user, system and abstract functions).
    pub model_id: Option<FunctionId>,
    /// The model function once translated.
    pub function: Option<Function>,
    pub span: Span,
    /// First call, for "declared but never defined".
    pub first_call: Option<Span>,
}

impl FnInfo {
    /// The built-in library function this name denotes (declared, never
    /// defined, with a library name).
    pub(crate) fn library(&self) -> Option<LibraryFunction> {
        if self.has_body || !matches!(self.kind, FunctionKind::User) {
            return None;
        }
        LibraryFunction::from_c_name(&self.name)
    }
}

/// State shared by all units.
#[derive(Default)]
pub(crate) struct Ctx {
    pub variables: Vec<Variable>,
    pub structs: Vec<StructDef>,
    /// Structs declared but not (yet) defined.
    pub incomplete: Vec<bool>,
    pub struct_tags: HashMap<String, StructId>,
    /// The type of each enum tag (gcc's choice from its enumerators' values).
    pub enum_tags: HashMap<String, Type>,
    pub fns: Vec<FnInfo>,
    pub model_fn_count: u32,
    pub globals: HashMap<String, Sym>,
    pub inputs: Vec<VarId>,
    pub outputs: Vec<VarId>,
    pub process_globals: Vec<VarId>,
    /// Initializers of globals and static locals: run at the start of main.
    pub init: Vec<(Statement, Span, String)>,
    pub mpi_status: Option<StructId>,
    pub uses_mpi: bool,
    pub temp_count: u32,
    pub name: String,
    /// Function-pointer declarators by the position (row, column) of their
    /// name, until a variable takes them over.
    pub fn_pointer_decls: HashMap<(u32, u32), FnPointerSig>,
    /// Variables (also arrays) holding function pointers.
    pub fn_pointers: HashMap<VarId, FnPointerSig>,
    /// Typedef names of function-pointer types.
    pub fn_pointer_typedefs: HashMap<String, FnPointerSig>,
    /// The signature of the function-pointer typedef the declaration being
    /// translated starts with, if it does.
    pub typedef_fn_pointer: Option<FnPointerSig>,
    /// The labels of the translated functions: function, name, location.
    pub labels: Vec<(FunctionId, String, Option<LocationId>)>,
    /// The `ltl` pragmas, translated after every function body.
    pub ltl: Vec<tass_model::api::LtlProperty>,
    /// `main`'s `argc` and `argv` (as locals), those it declares.
    pub main_arguments: Vec<VarId>,
}

/// The signature of a function pointer: a function pointer value is the
/// integer `FunctionId + 1` of the function it names (0 for none), and a call
/// through it branches over the defined functions of this signature.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct FnPointerSig {
    pub ret: Type,
    pub params: Vec<Type>,
}

/// The model type of a function pointer value.
pub(crate) const FN_POINTER_TYPE: Type = Type::Int(IntKind::Long);

impl Ctx {
    pub(crate) fn new_var(&mut self, name: &str, ty: Type, scope: VarScope, span: Span) -> VarId {
        let id = VarId(self.variables.len() as u32);
        self.variables
            .push(Variable::new(id, name, ty, scope, span));
        id
    }

    pub(crate) fn var(&self, id: VarId) -> &Variable {
        &self.variables[id.0 as usize]
    }

    /// Finishes the model: `main`, undefined functions, global initializers.
    pub(crate) fn finish(mut self, sources: &mut Sources) -> Result<Model, Vec<Diagnostic>> {
        let main_index = self.check_complete(sources)?;
        let main_id = self.fns[main_index].model_id.unwrap_or(FunctionId(0));
        let mut functions = self.model_functions();
        if let Some(body) = functions[main_id.0 as usize].body.as_mut() {
            let init = std::mem::take(&mut self.init);
            prepend_initializers(body, init);
        }
        let mut model = Model {
            name: self.name,
            variables: self.variables,
            structs: self.structs,
            functions,
            inputs: self.inputs,
            outputs: self.outputs,
            globals: self.process_globals,
            main: main_id,
            mpi_status_struct: self.mpi_status,
            uses_mpi: self.uses_mpi,
            ltl: std::mem::take(&mut self.ltl),
            main_arguments: std::mem::take(&mut self.main_arguments),
        };
        prepare_loop_invariants(&mut model).map_err(|errors| {
            errors
                .into_iter()
                .map(|e| {
                    sources.diagnostic(
                        &PathBuf::from(&*e.span.file),
                        e.span.start_line,
                        e.span.start_column,
                        e.message,
                    )
                })
                .collect::<Vec<_>>()
        })?;
        Ok(model)
    }

    /// Fails on a called function that is never defined and on a program
    /// without `main`; returns the index of `main` in `fns`.
    fn check_complete(&self, sources: &mut Sources) -> Result<usize, Vec<Diagnostic>> {
        let diag = |sources: &mut Sources, span: &Span, msg: String| {
            sources.diagnostic(
                &PathBuf::from(&*span.file),
                span.start_line,
                span.start_column,
                msg,
            )
        };
        let mut errors = Vec::new();
        for f in &self.fns {
            if let (Some(call), None) = (&f.first_call, &f.function) {
                if matches!(f.kind, FunctionKind::User) && f.library().is_none() {
                    errors.push(diag(
                        sources,
                        call,
                        format!(
                            "function `{}` is declared but never defined (tass needs its body)",
                            f.name
                        ),
                    ));
                }
            }
        }
        let main_index = self
            .fns
            .iter()
            .position(|f| f.name == "main" && f.function.is_some());
        let Some(main_index) = main_index else {
            let span = self
                .fns
                .first()
                .map(|f| f.span.clone())
                .unwrap_or_else(|| Span::point(Arc::from(self.name.as_str()), 1, 1));
            let file = if span.start_line == 0 {
                PathBuf::from(&self.name)
            } else {
                PathBuf::from(&*span.file)
            };
            errors.push(sources.diagnostic(
                &file,
                1,
                1,
                "the program has no `main` function".into(),
            ));
            return Err(errors);
        };
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(main_index)
    }

    /// The model's functions by id: those translated, and for system and
    /// abstract functions (no body) their parameters as new variables.
    fn model_functions(&mut self) -> Vec<Function> {
        let mut functions: Vec<Option<Function>> = vec![None; self.model_fn_count as usize];
        for f in self.fns.iter_mut() {
            if let (Some(id), Some(func)) = (f.model_id, f.function.take()) {
                functions[id.0 as usize] = Some(func);
            } else if let Some(id) = f.model_id {
                // system / abstract functions without body
                let mut params = Vec::new();
                for (k, ty) in f.param_types.iter().enumerate() {
                    let name = f
                        .param_names
                        .get(k)
                        .cloned()
                        .flatten()
                        .unwrap_or_else(|| format!("_p{k}"));
                    let v = VarId(self.variables.len() as u32);
                    self.variables.push(Variable::new(
                        v,
                        &name,
                        ty.clone(),
                        VarScope::Local(id),
                        f.span.clone(),
                    ));
                    params.push(v);
                }
                functions[id.0 as usize] = Some(Function {
                    id,
                    name: f.name.clone(),
                    params,
                    locals: vec![],
                    return_type: f.return_type.clone(),
                    kind: f.kind.clone(),
                    body: None,
                    span: f.span.clone(),
                });
            }
        }
        functions
            .into_iter()
            .enumerate()
            .map(|(i, f)| {
                f.unwrap_or_else(|| Function {
                    id: FunctionId(i as u32),
                    name: format!("?{i}"),
                    params: vec![],
                    locals: vec![],
                    return_type: Type::Void,
                    kind: FunctionKind::Abstract,
                    body: None,
                    span: Span::synthetic(),
                })
            })
            .collect()
    }
}

/// Puts the initializers of globals and static locals (statement, span,
/// source text) before the entry of `body` (`main`'s), in order.
fn prepend_initializers(body: &mut Body, init: Vec<(Statement, Span, String)>) {
    if init.is_empty() {
        return;
    }
    let first_span = init[0].1.clone();
    let new_entry = body.graph.add_node(Location {
        kind: LocationKind::Plain,
        span: first_span,
        invariants: vec![],
    });
    let mut cur = new_entry;
    let n = init.len();
    for (i, (stmt, span, text)) in init.into_iter().enumerate() {
        let next = if i + 1 == n {
            body.entry
        } else {
            body.graph.add_node(Location {
                kind: LocationKind::Plain,
                span: span.clone(),
                invariants: vec![],
            })
        };
        body.graph.add_edge(
            cur,
            next,
            Transition {
                guard: Expr::true_at(span.clone()),
                statement: stmt,
                span,
                source_text: text,
            },
        );
        cur = next;
    }
    body.entry = new_entry;
}

/// A parsed pragma with its position.
pub(crate) struct Pragma<'t> {
    pub kind: PragmaKind<'t>,
    pub pos: Pos,
    /// `#pragma TASS ...` as written (after preprocessing), for traces.
    pub text: String,
}

/// The translator for one unit.
pub(crate) struct Tr<'t> {
    pub ctx: Ctx,
    pub unit: &'t Unit,
    pub src: &'t str,
    /// Block scopes of the function being translated (innermost last).
    pub scopes: Vec<HashMap<String, Sym>>,
    pub fb: Option<FnBuilder>,
    /// Index in `ctx.fns` of the function being translated.
    pub cur_fn: Option<usize>,
    /// Function definitions found in pass 1, with the pragmas inside them.
    pub bodies: Vec<(Node<'t>, usize, Vec<Pragma<'t>>)>,
    /// Pragmas of the body being translated, in order, and the next one.
    pub body_pragmas: Vec<Pragma<'t>>,
    pub next_pragma: usize,
    /// Loop invariants waiting for the next loop. Their expressions are
    /// translated at the loop, so that a `for` loop's own declarations are
    /// in scope.
    pub pending_invariants: Vec<PendingInvariant<'t>>,
    /// True while translating a pragma expression (quantifiers, PROC, ...).
    pub in_pragma: bool,
    /// Input constraints, translated after all globals are declared.
    pub deferred_constraints: Vec<(VarId, Ast<'t>)>,
    /// Set where side effects are not allowed (names the context).
    pub pure_context: Option<&'static str>,
    /// The file-scope `ltl` pragmas, translated after every function body.
    pub ltl_pragmas: Vec<Pragma<'t>>,
}

impl<'t> Tr<'t> {
    pub(crate) fn new(ctx: Ctx, unit: &'t Unit) -> Tr<'t> {
        Tr {
            ctx,
            unit,
            src: &unit.text,
            scopes: Vec::new(),
            fb: None,
            cur_fn: None,
            bodies: Vec::new(),
            body_pragmas: Vec::new(),
            next_pragma: 0,
            pending_invariants: Vec::new(),
            in_pragma: false,
            deferred_constraints: Vec::new(),
            pure_context: None,
            ltl_pragmas: Vec::new(),
        }
    }

    pub(crate) fn span(&self, pos: Pos) -> Span {
        self.unit.span(pos)
    }

    pub(crate) fn text(&self, node: Node<'_>) -> &'t str {
        text(node, self.src)
    }

    pub(crate) fn lookup(&self, name: &str) -> Option<Sym> {
        for s in self.scopes.iter().rev() {
            if let Some(sym) = s.get(name) {
                return Some(sym.clone());
            }
        }
        self.ctx.globals.get(name).cloned()
    }

    pub(crate) fn declare(&mut self, name: &str, sym: Sym) {
        match self.scopes.last_mut() {
            Some(s) => {
                s.insert(name.to_string(), sym);
            }
            None => {
                self.ctx.globals.insert(name.to_string(), sym);
            }
        }
    }

    /// Pass 1 over the unit's top level.
    pub(crate) fn pass1(&mut self) -> Res<()> {
        self.ctx.uses_mpi |= self.unit.uses_mpi;
        let root = self.unit.tree.root_node();
        let mut items: Vec<Node<'t>> = Vec::new();
        let mut c = root.walk();
        for ch in root.named_children(&mut c) {
            if ch.kind() != "comment" {
                items.push(ch);
            }
        }
        // parse pragmas and assign each to the item containing it (function
        // bodies) or to the next item
        let mut top: Vec<Vec<Pragma<'t>>> = items.iter().map(|_| Vec::new()).collect();
        let mut inside: Vec<Vec<Pragma<'t>>> = items.iter().map(|_| Vec::new()).collect();
        for raw in &self.unit.pragmas {
            let kind = crate::pragma::parse_pragma(&raw.text, raw.row, raw.col)?;
            let pos = Pos {
                row: raw.row,
                col: raw.col,
                end_row: raw.row,
                end_col: raw.col + raw.text.len() as u32,
            };
            let p = Pragma {
                kind,
                pos,
                text: format!("#pragma TASS {}", raw.text.trim()),
            };
            if let PragmaKind::Ltl { .. } = p.kind {
                let inside_an_item = items.iter().any(|it| {
                    it.start_position().row as u32 <= raw.row
                        && raw.row <= it.end_position().row as u32
                });
                if inside_an_item {
                    return err(
                        pos,
                        "`#pragma TASS ltl` must be at file scope, outside functions",
                    );
                }
                self.ltl_pragmas.push(p);
                continue;
            }
            let containing = items.iter().position(|it| {
                it.start_position().row as u32 <= raw.row && raw.row <= it.end_position().row as u32
            });
            match containing {
                Some(i) if items[i].kind() == "function_definition" => inside[i].push(p),
                Some(_) => return err(
                    pos,
                    "a TASS pragma must be on a line of its own between declarations or statements",
                ),
                None => match items
                    .iter()
                    .position(|it| it.start_position().row as u32 > raw.row)
                {
                    Some(i) => top[i].push(p),
                    None => {
                        return err(
                            pos,
                            format!(
                                "`#pragma TASS {}` is not followed by a declaration",
                                p.kind.keyword()
                            ),
                        )
                    }
                },
            }
        }
        self.declare_input_macros()?;
        for (i, item) in items.iter().enumerate() {
            let pragmas = std::mem::take(&mut top[i]);
            let inner = std::mem::take(&mut inside[i]);
            self.top_level(*item, pragmas, inner)?;
        }
        // input constraints (may mention any global)
        for (var, ast) in std::mem::take(&mut self.deferred_constraints) {
            self.in_pragma = true;
            let c = self.cond(&ast);
            self.in_pragma = false;
            let c = c?;
            self.ctx.variables[var.0 as usize].constraint = Some(c);
        }
        Ok(())
    }

    fn declare_input_macros(&mut self) -> Res<()> {
        for m in &self.unit.input_macros {
            let pos = Pos {
                row: m.row,
                col: 0,
                end_row: m.row,
                end_col: 1,
            };
            let full = format!("input {}", m.pragma_text);
            let kind = crate::pragma::parse_pragma(&full, m.row, 0)?;
            let PragmaKind::Input {
                constraint,
                type_words,
            } = kind
            else {
                return err(pos, "malformed input pragma");
            };
            if type_words.is_empty() {
                return err(
                    pos,
                    format!(
                        "`#pragma TASS input` before `#define {}` needs a type, e.g. `#pragma TASS input int`",
                        m.name
                    ),
                );
            }
            let ty = self.type_from_words(&type_words, pos)?;
            let span = self.span(pos);
            let id = self.ctx.new_var(&m.name, ty, VarScope::Input, span);
            self.ctx.variables[id.0 as usize].from_macro = true;
            self.ctx.variables[id.0 as usize].is_const = true;
            self.ctx.inputs.push(id);
            self.ctx.globals.insert(m.name.clone(), Sym::Var(id));
            if let Some(c) = constraint {
                self.deferred_constraints.push((id, c));
            }
        }
        Ok(())
    }

    fn top_level(
        &mut self,
        item: Node<'t>,
        pragmas: Vec<Pragma<'t>>,
        inner: Vec<Pragma<'t>>,
    ) -> Res<()> {
        let pos = Pos::of(item);
        let kind = item.kind();
        for p in &pragmas {
            let ok = match &p.kind {
                PragmaKind::Input { .. } | PragmaKind::Output => kind == "declaration",
                PragmaKind::System { .. } | PragmaKind::Abstract => {
                    kind == "declaration" || kind == "function_definition"
                }
                _ => {
                    return err(
                        p.pos,
                        format!(
                            "`#pragma TASS {}` must be inside a function body",
                            p.kind.keyword()
                        ),
                    )
                }
            };
            if !ok {
                return err(
                    p.pos,
                    format!(
                        "`#pragma TASS {}` must be followed by a global declaration",
                        p.kind.keyword()
                    ),
                );
            }
        }
        if pragmas.len() > 1 {
            return err(
                pragmas[1].pos,
                "only one TASS pragma may precede a declaration",
            );
        }
        let pragma = pragmas.into_iter().next();
        match kind {
            "function_definition" => {
                if let Some(p) = &pragma {
                    return err(
                        p.pos,
                        format!(
                            "`#pragma TASS {}` must precede a function declaration without a body",
                            p.kind.keyword()
                        ),
                    );
                }
                let idx = self.function_signature(item)?;
                self.bodies.push((item, idx, inner));
                Ok(())
            }
            "declaration" => self.global_declaration(item, pragma),
            "type_definition" => self.type_definition(item),
            "struct_specifier" | "enum_specifier" | "union_specifier" => {
                self.base_type_node(item).map(|_| ())
            }
            "expression_statement" if self.text(item).trim() == ";" => Ok(()),
            "preproc_call"
            | "preproc_def"
            | "preproc_function_def"
            | "preproc_include"
            | "preproc_if"
            | "preproc_ifdef" => err(pos, "unexpected preprocessor directive after preprocessing"),
            "linkage_specification" => err(pos, "`extern \"C\"` blocks are not supported"),
            other => err(
                pos,
                format!(
                    "`{}` ({other}) is not allowed at file scope",
                    first_line(self.text(item))
                ),
            ),
        }
    }

    /// Pass 2: function bodies.
    pub(crate) fn pass2(&mut self) -> Res<()> {
        for (node, idx, pragmas) in std::mem::take(&mut self.bodies) {
            self.body_pragmas = pragmas;
            self.next_pragma = 0;
            self.function_body(node, idx)?;
        }
        Ok(())
    }
}

/// The first line of a construct's text, trimmed, for messages and traces.
pub(crate) fn first_line(s: &str) -> String {
    let mut out: String = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if out.len() > 100 {
        let mut cut = 97;
        while !out.is_char_boundary(cut) {
            cut -= 1;
        }
        out.truncate(cut);
        out.push_str("...");
    }
    out
}
