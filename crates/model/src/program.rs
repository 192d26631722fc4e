//! Models, variables, functions and their transition systems.

use petgraph::graph::{DiGraph, EdgeIndex, NodeIndex};
use petgraph::visit::EdgeRef;
use petgraph::Direction;

use crate::expr::Expr;
use crate::span::Span;
use crate::stmt::{LoopArrival, LoopInvariant, Statement, Transition};
use crate::types::{StructDef, StructId, Type};

/// Index of a variable in [`Model::variables`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct VarId(pub u32);

/// Index of a function in [`Model::functions`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FunctionId(pub u32);

/// A location (node) of a function body's graph.
pub type LocationId = NodeIndex<u32>;

/// A transition (edge) of a function body's graph.
pub type TransitionId = EdgeIndex<u32>;

/// The graph type of function bodies: locations are nodes, guarded statements
/// are edges.
pub type BodyGraph = DiGraph<Location, Transition, u32>;

/// Where a variable lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VarScope {
    /// A shared input (`#pragma TASS input`): one instance for all processes,
    /// read-only, initially a symbolic constant satisfying
    /// [`Variable::constraint`].
    Input,
    /// An output (`#pragma TASS output`): like a process-global variable, one
    /// instance per process (a pragma the compiler ignores must not change what
    /// the program does); the copy of process 0 is the program's output,
    /// compared in compare mode. Starts zero (C static storage).
    Output,
    /// A process-global variable (a C global, or a `static` local, see
    /// [`Variable::static_in`]): one instance per process, zero-initialized
    /// before `main` runs (explicit initializers are assignments at the start
    /// of `main`, see [`Model::main`]).
    ProcessGlobal,
    /// A parameter or local of the function (one instance per frame).
    Local(FunctionId),
    /// The bound variable of a quantifier in a pragma expression.
    Bound,
}

/// A variable.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Variable {
    /// This variable's id.
    pub id: VarId,
    /// The C name (for an input macro: the macro's name, e.g. `N`; for a
    /// temporary: `_tN`; for a static local: its plain name).
    pub name: String,
    /// Its type.
    pub ty: Type,
    /// Where it lives.
    pub scope: VarScope,
    /// For inputs: the constraint from `#pragma TASS input {c}` (may refer to
    /// inputs declared earlier, and to this one).
    pub constraint: Option<Expr>,
    /// For inputs: declared by `#pragma TASS input` before a `#define`.
    pub from_macro: bool,
    /// A temporary the front end introduced while removing side effects.
    pub is_temporary: bool,
    /// `const`-qualified.
    pub is_const: bool,
    /// For a `static` local: the function it was declared in.
    pub static_in: Option<FunctionId>,
    /// Where it was declared.
    pub span: Span,
}

impl Variable {
    /// A variable with no constraint, not `const`, not `static`, not a
    /// temporary: what a plain declaration gives.
    pub fn new(id: VarId, name: &str, ty: Type, scope: VarScope, span: Span) -> Variable {
        Variable {
            id,
            name: name.to_string(),
            ty,
            scope,
            constraint: None,
            from_macro: false,
            is_temporary: false,
            is_const: false,
            static_in: None,
            span,
        }
    }
}

/// What kind of function.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FunctionKind {
    /// A C function with a body.
    User,
    /// `#pragma TASS system [guard EXPR]` declaration without body.
    System {
        /// Calls block until the guard holds.
        guard: Option<Expr>,
    },
    /// `#pragma TASS abstract`: an uninterpreted, side-effect-free function,
    /// called through [`crate::expr::ExprKind::AbstractCall`].
    Abstract,
}

/// The kind of a location, for the state-saving heuristic and for printing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LocationKind {
    /// Nothing special.
    Plain,
    /// The head of a `while` or `do/while` loop (where its condition is
    /// tested).
    LoopHead,
    /// The head of a `for` loop (where its condition is tested).
    ForLoopHead,
    /// Where the branches of an `if`/`?:`/`switch`/short-circuit meet.
    IfJoin,
    /// The location after a `return`: no outgoing edges.
    Exit,
    /// A C statement label (`LABEL:`), the target of `goto`s: a no-op step
    /// leads to the labelled statement. Never merged away (location atoms of
    /// `ltl` pragmas name it), and a state-saving point (a backward `goto`
    /// closes a cycle there).
    Label,
}

/// A location of a function body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Location {
    /// Kind flag.
    pub kind: LocationKind,
    /// The source position this location stands for (the statement about to
    /// execute).
    pub span: Span,
    /// Invariants of the loop whose head this is (checked each time control
    /// comes back to the head).
    pub invariants: Vec<LoopInvariant>,
}

/// A function body: a guarded transition system with one initial location.
/// Every path ends in a `Return` edge into an `Exit` location.
#[derive(Clone, Debug)]
pub struct Body {
    /// Locations (nodes) and guarded statements (edges).
    pub graph: BodyGraph,
    /// The initial location.
    pub entry: LocationId,
}

impl Body {
    /// The location data.
    pub fn location(&self, id: LocationId) -> &Location {
        &self.graph[id]
    }
    /// The transition data.
    pub fn transition(&self, id: TransitionId) -> &Transition {
        &self.graph[id]
    }
    /// The edges leaving `from`: (edge id, transition, target), without
    /// allocating, in petgraph's deterministic order (the most recently
    /// created edge first). Use [`Body::outgoing_in_order`] for source order.
    pub fn outgoing(
        &self,
        from: LocationId,
    ) -> impl Iterator<Item = (TransitionId, &Transition, LocationId)> + '_ {
        self.graph
            .edges_directed(from, Direction::Outgoing)
            .map(|e| (e.id(), e.weight(), e.target()))
    }
    /// The edges leaving `from` in the order the front end created them
    /// (then-branch before else-branch); allocates, for printing.
    pub fn outgoing_in_order(
        &self,
        from: LocationId,
    ) -> Vec<(TransitionId, &Transition, LocationId)> {
        let mut edges: Vec<_> = self.outgoing(from).collect();
        edges.sort_by_key(|(id, _, _)| id.index());
        edges
    }
    /// Number of locations.
    pub fn location_count(&self) -> usize {
        self.graph.node_count()
    }
    /// True if the return arrival of `inv`'s loop (the statement with its id
    /// and span, `LoopArrival::Return`) can be reached from `from` without
    /// passing `head`, the loop's head: whether the branch into `from` enters
    /// the loop's body.
    pub fn reaches_loop_return(
        &self,
        (head, from): (LocationId, LocationId),
        inv: &LoopInvariant,
    ) -> bool {
        let mut seen = vec![from];
        let mut todo = vec![from];
        while let Some(at) = todo.pop() {
            if at == head {
                continue;
            }
            for (_, t, target) in self.outgoing(at) {
                if let Statement::LoopInvariant(other) = &t.statement {
                    if other.arrival == LoopArrival::Return
                        && other.id == inv.id
                        && other.span == inv.span
                    {
                        return true;
                    }
                }
                if !seen.contains(&target) {
                    seen.push(target);
                    todo.push(target);
                }
            }
        }
        false
    }
}

/// A function of the program.
#[derive(Clone, Debug)]
pub struct Function {
    /// This function's id.
    pub id: FunctionId,
    /// C name.
    pub name: String,
    /// Formal parameters in order (scope `Local(id)`).
    pub params: Vec<VarId>,
    /// Other locals, including temporaries and block-scoped variables
    /// (scope `Local(id)`).
    pub locals: Vec<VarId>,
    /// Return type (`Void` for none).
    pub return_type: Type,
    /// What kind of function.
    pub kind: FunctionKind,
    /// The body (`None` for system and abstract functions).
    pub body: Option<Body>,
    /// Where it was declared (the definition, if any).
    pub span: Span,
}

/// A TASS model of one C program: the shared inputs/outputs and the process
/// program that every MPI rank runs (the engine instantiates it once per
/// process).
#[derive(Clone, Debug)]
pub struct Model {
    /// A name for the model (the first source file).
    pub name: String,
    /// All variables, indexed by [`VarId`].
    pub variables: Vec<Variable>,
    /// All struct definitions, indexed by [`StructId`].
    pub structs: Vec<StructDef>,
    /// All functions, indexed by [`FunctionId`].
    pub functions: Vec<Function>,
    /// Shared inputs in declaration order (constraints refer only to earlier
    /// or the same input).
    pub inputs: Vec<VarId>,
    /// Outputs in declaration order.
    pub outputs: Vec<VarId>,
    /// Process-global variables (globals and static locals) in order.
    pub globals: Vec<VarId>,
    /// The function each process starts in. Its body begins with the
    /// assignments of global and static-local initializers. It has no
    /// parameters in the model: C's `argc`/`argv` are locals set to 1 and
    /// NULL at its start.
    pub main: FunctionId,
    /// The `MPI_Status` struct when `<mpi.h>` is included; its fields are
    /// `MPI_SOURCE`, `MPI_TAG`, `MPI_ERROR`, `tass_count` (received element
    /// count) in that order.
    pub mpi_status_struct: Option<StructId>,
    /// True if `<mpi.h>` was included.
    pub uses_mpi: bool,
    /// The `#pragma TASS ltl` properties, in source order.
    pub ltl: Vec<crate::ltl::LtlProperty>,
    /// The locals of `main` standing for its parameters `argc` and `argv` (those
    /// it declares, in order). Their first assignments on the way from the
    /// entry of `main` (`argc = 1`, `argv = NULL`, after the initializers of
    /// the globals) give the command line a program gets by default.
    pub main_arguments: Vec<VarId>,
}

impl Model {
    /// The variable with this id.
    pub fn var(&self, id: VarId) -> &Variable {
        &self.variables[id.0 as usize]
    }
    /// The function with this id.
    pub fn function(&self, id: FunctionId) -> &Function {
        &self.functions[id.0 as usize]
    }
    /// The struct with this id.
    pub fn struct_def(&self, id: StructId) -> &StructDef {
        &self.structs[id.0 as usize]
    }
    /// The function with this name.
    pub fn function_by_name(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }
    /// A shared (input or output) or process-global variable with this name.
    pub fn global_by_name(&self, name: &str) -> Option<&Variable> {
        self.inputs
            .iter()
            .chain(&self.outputs)
            .chain(&self.globals)
            .map(|&v| self.var(v))
            .find(|v| v.name == name && v.static_in.is_none())
    }
}
