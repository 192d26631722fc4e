//! `tass-model`: the syntax of a tass model (the paper's Sec. 3.1).
//!
//! A [`api::Model`] is one C program after extraction: shared, read-only
//! **input** variables (with the input constraints of `#pragma TASS input`),
//! **output** variables (one copy per process; rank 0's is the program's
//! output), and the process program that every MPI rank runs:
//! **process-global variables**, **struct definitions** and **functions**. Each function has
//! parameters, locals, a return type and a **guarded transition system**
//! ([`api::Body`]): a petgraph graph whose nodes are [`api::Location`]s
//! (marked plain / loop head / for-loop head / if-join / exit) and whose edges
//! are [`api::Transition`]s: a guard, a [`api::Statement`] and the source text.
//!
//! Expressions ([`api::Expr`]) are side-effect free; calls are statements
//! ([`api::Statement::Call`]) naming a user function or a built-in
//! [`api::LibraryFunction`] (MPI, stdio, ...). `&&`/`||` keep C's short
//! circuit as [`api::ExprKind::LogicalAnd`]/[`api::ExprKind::LogicalOr`]: the
//! right operand is evaluated only where it matters. Every element carries a
//! [`api::Span`]. The front end (`tass-front`) builds models; the engine
//! (`tass-semantics`, `tass-verify`) executes them; [`api::render_model`]
//! prints them (`tass show`).
//!
//! ```
//! use tass_model::api::*;
//!
//! // int main() { return 0; }  built by hand
//! let span = Span::point("m.c".into(), 1, 1);
//! let mut graph = BodyGraph::new();
//! let loc = |kind| Location { kind, span: span.clone(), invariants: vec![] };
//! let entry = graph.add_node(loc(LocationKind::Plain));
//! let exit = graph.add_node(loc(LocationKind::Exit));
//! graph.add_edge(entry, exit, Transition {
//!     guard: Expr::true_at(span.clone()),
//!     statement: Statement::Return { value: Some(Expr::int(0, span.clone())) },
//!     span: span.clone(),
//!     source_text: "return 0;".into(),
//! });
//! let main = Function {
//!     id: FunctionId(0), name: "main".into(), params: vec![], locals: vec![],
//!     return_type: Type::INT, kind: FunctionKind::User,
//!     body: Some(Body { graph, entry }), span: span.clone(),
//! };
//! let model = Model {
//!     name: "m.c".into(), variables: vec![], structs: vec![], functions: vec![main],
//!     inputs: vec![], outputs: vec![], globals: vec![], main: FunctionId(0),
//!     mpi_status_struct: None, uses_mpi: false,
//! };
//! let text = render_model(&model);
//! assert!(text.contains("function int main() (main)"));
//! assert!(text.contains("return 0 -> L1"));
//! ```

pub mod api;
mod expr;
mod layout;
mod library;
mod mpi;
mod program;
mod render;
mod span;
mod stmt;
mod types;
