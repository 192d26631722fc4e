//! Building models by hand: for tests of the crates that execute models, and
//! for any producer of models other than the C front end.
//!
//! Everything built gets a position in the model's file: variables and
//! functions line 1, and the statements of a body consecutive lines (2, 3,
//! ...) with the source text `line N`, so that a trace of a built model points
//! at the statement it took.

use std::sync::Arc;

use crate::expr::{Expr, ExprKind};
use crate::program::{
    Body, BodyGraph, Function, FunctionId, FunctionKind, Location, LocationId, LocationKind, Model,
    VarId, VarScope, Variable,
};
use crate::span::Span;
use crate::stmt::{Statement, Transition};
use crate::types::{StructDef, StructId, Type};

/// Builds a [`Model`]: declare its variables and structs, add functions whose
/// bodies a [`BodyBuilder`] made, then [`ModelBuilder::finish`].
///
/// ```
/// use tass_model::api::*;
///
/// // int main() { int x; x = 1; return x; }
/// let mut m = ModelBuilder::new("m.c");
/// let x = m.var("x", Type::INT, VarScope::Local(FunctionId(0)));
/// let mut body = m.body();
/// body.assign(x.clone(), Expr::int(1, m.span(2)));
/// body.ret(Some(x.clone()));
/// let locals = vec![x.var_id().unwrap()];
/// m.add_function(body.function(FunctionId(0), "main", vec![], locals, Type::INT));
/// let model = m.finish(FunctionId(0));
/// assert_eq!(model.function(FunctionId(0)).name, "main");
/// assert!(render_model(&model).contains("x = 1"));
/// ```
pub struct ModelBuilder {
    file: Arc<str>,
    variables: Vec<Variable>,
    structs: Vec<StructDef>,
    functions: Vec<Function>,
    inputs: Vec<VarId>,
    outputs: Vec<VarId>,
    globals: Vec<VarId>,
    mpi_status_struct: Option<StructId>,
    uses_mpi: bool,
}

impl ModelBuilder {
    /// An empty model named after (and placed in) `file`.
    pub fn new(file: &str) -> ModelBuilder {
        ModelBuilder {
            file: Arc::from(file),
            variables: Vec::new(),
            structs: Vec::new(),
            functions: Vec::new(),
            inputs: Vec::new(),
            outputs: Vec::new(),
            globals: Vec::new(),
            mpi_status_struct: None,
            uses_mpi: false,
        }
    }

    /// The position `line:1` of the model's file.
    pub fn span(&self, line: u32) -> Span {
        Span::point(self.file.clone(), line, 1)
    }

    /// Declares a variable; returns the expression that names it. Inputs,
    /// outputs and process-global variables are listed in the model in the
    /// order they are declared.
    pub fn var(&mut self, name: &str, ty: Type, scope: VarScope) -> Expr {
        let id = VarId(self.variables.len() as u32);
        self.variables
            .push(Variable::new(id, name, ty.clone(), scope, self.span(1)));
        match scope {
            VarScope::Input => self.inputs.push(id),
            VarScope::Output => self.outputs.push(id),
            VarScope::ProcessGlobal => self.globals.push(id),
            VarScope::Local(_) | VarScope::Bound => {}
        }
        Expr::new(ExprKind::Var(id), ty, self.span(1))
    }

    /// Declares an input, with the constraint of `#pragma TASS input {c}` if
    /// any (it may name this input and those declared before it).
    pub fn input(&mut self, name: &str, ty: Type, constraint: Option<Expr>) -> Expr {
        let e = self.var(name, ty, VarScope::Input);
        let id = VarId(self.variables.len() as u32 - 1);
        self.variables[id.0 as usize].constraint = constraint;
        e
    }

    /// Sets the constraint of an input declared already.
    pub fn constrain(&mut self, input: VarId, constraint: Expr) {
        self.variables[input.0 as usize].constraint = Some(constraint);
    }

    /// The variable declared with this id (to adjust what [`ModelBuilder::var`]
    /// left at its default: `const`, `static`, ...).
    pub fn variable_mut(&mut self, id: VarId) -> &mut Variable {
        &mut self.variables[id.0 as usize]
    }

    /// Adds a struct definition; returns its id.
    pub fn add_struct(&mut self, def: StructDef) -> StructId {
        self.structs.push(def);
        StructId(self.structs.len() as u32 - 1)
    }

    /// Marks the model as an MPI program, with the `MPI_Status` struct if its
    /// programs use one.
    pub fn uses_mpi(&mut self, status: Option<StructId>) {
        self.uses_mpi = true;
        self.mpi_status_struct = status;
    }

    /// A builder for a function body in the model's file.
    pub fn body(&self) -> BodyBuilder {
        BodyBuilder::new(&self.file)
    }

    /// Adds a function. Functions may be added in any order; their ids must
    /// be `0..n` once all are added.
    pub fn add_function(&mut self, function: Function) {
        self.functions.push(function);
    }

    /// The model, starting in `main`.
    ///
    /// # Panics
    /// When the ids of the functions added are not `0..n`: the model indexes
    /// functions by id.
    pub fn finish(mut self, main: FunctionId) -> Model {
        self.functions.sort_by_key(|f| f.id);
        for (k, f) in self.functions.iter().enumerate() {
            assert_eq!(f.id.0 as usize, k, "function ids must be 0..n");
        }
        Model {
            name: self.file.to_string(),
            variables: self.variables,
            structs: self.structs,
            functions: self.functions,
            inputs: self.inputs,
            outputs: self.outputs,
            globals: self.globals,
            main,
            mpi_status_struct: self.mpi_status_struct,
            uses_mpi: self.uses_mpi,
            ltl: Vec::new(),
            main_arguments: Vec::new(),
        }
    }
}

/// Builds a function body: a chain of statements from the entry location,
/// plus locations and edges of any shape.
pub struct BodyBuilder {
    file: Arc<str>,
    graph: BodyGraph,
    entry: LocationId,
    current: LocationId,
    line: u32,
}

impl BodyBuilder {
    /// An empty body (its entry location only) in `file`.
    pub fn new(file: &str) -> BodyBuilder {
        let file: Arc<str> = Arc::from(file);
        let mut graph = BodyGraph::new();
        let entry = graph.add_node(Location {
            kind: LocationKind::Plain,
            span: Span::point(file.clone(), 1, 1),
            invariants: vec![],
        });
        BodyBuilder {
            file,
            graph,
            entry,
            current: entry,
            line: 1,
        }
    }

    /// The entry location.
    pub fn entry(&self) -> LocationId {
        self.entry
    }

    /// Where [`BodyBuilder::then`] appends the next statement.
    pub fn current(&self) -> LocationId {
        self.current
    }

    /// Makes `location` the place where the next statement is appended.
    pub fn move_to(&mut self, location: LocationId) {
        self.current = location;
    }

    /// A new location, not connected yet.
    pub fn location(&mut self, kind: LocationKind) -> LocationId {
        self.graph.add_node(Location {
            kind,
            span: Span::point(self.file.clone(), self.line, 1),
            invariants: vec![],
        })
    }

    /// The location data (to give a loop head its invariants).
    pub fn location_mut(&mut self, location: LocationId) -> &mut Location {
        &mut self.graph[location]
    }

    /// An edge `from -> to` taken when `guard` holds, executing `statement`,
    /// on the next line of the file.
    pub fn edge(&mut self, from: LocationId, to: LocationId, guard: Expr, statement: Statement) {
        self.line += 1;
        let span = Span::point(self.file.clone(), self.line, 1);
        self.graph.add_edge(
            from,
            to,
            Transition {
                guard,
                statement,
                span,
                source_text: format!("line {}", self.line),
            },
        );
    }

    /// Appends `statement` after the current location (unguarded).
    pub fn then(&mut self, statement: Statement) -> &mut Self {
        let next = self.location(LocationKind::Plain);
        let guard = Expr::true_at(Span::point(self.file.clone(), 1, 1));
        self.edge(self.current, next, guard, statement);
        self.current = next;
        self
    }

    /// Appends `lhs = rhs`.
    pub fn assign(&mut self, lhs: Expr, rhs: Expr) -> &mut Self {
        self.then(Statement::Assign { lhs, rhs })
    }

    /// Appends `return value` into a new exit location.
    pub fn ret(&mut self, value: Option<Expr>) {
        let exit = self.location(LocationKind::Exit);
        let guard = Expr::true_at(Span::point(self.file.clone(), 1, 1));
        self.edge(self.current, exit, guard, Statement::Return { value });
        self.current = exit;
    }

    /// The body built.
    pub fn finish(self) -> Body {
        Body {
            graph: self.graph,
            entry: self.entry,
        }
    }

    /// A user function with this body: `params` and `locals` are variables
    /// declared with scope `Local(id)`.
    pub fn function(
        self,
        id: FunctionId,
        name: &str,
        params: Vec<VarId>,
        locals: Vec<VarId>,
        return_type: Type,
    ) -> Function {
        let span = Span::point(self.file.clone(), 1, 1);
        Function {
            id,
            name: name.into(),
            params,
            locals,
            return_type,
            kind: FunctionKind::User,
            body: Some(self.finish()),
            span,
        }
    }
}
