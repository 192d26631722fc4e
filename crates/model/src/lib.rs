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
//! prints them (`tass show`); [`api::ModelBuilder`] builds them by hand.
//!
//! ```
//! use tass_model::api::*;
//!
//! // int main() { return 0; }  built by hand
//! let mut m = ModelBuilder::new("m.c");
//! let mut body = m.body();
//! body.ret(Some(Expr::int(0, m.span(2))));
//! m.add_function(body.function(FunctionId(0), "main", vec![], vec![], Type::INT));
//! let model = m.finish(FunctionId(0));
//! let text = render_model(&model);
//! assert!(text.contains("function int main() (main)"));
//! assert!(text.contains("return 0 -> L1"));
//! ```

pub mod api;
mod builder;
mod expr;
mod layout;
mod library;
mod loop_writes;
mod ltl;
mod mpi;
mod mpi_guide;
mod program;
mod render;
mod snippet;
mod span;
mod stmt;
mod types;
