//! `tass-state`: the state hierarchy and the execution engine built on it.
//!
//! A [`api::State`] is system state -> process states -> call stack -> frames ->
//! values, plus per-process heaps, the message buffer and the path condition
//! (paper Sec. 5.1). Components are behind `Arc`s and change copy-on-write
//! (`Arc::make_mut`): a state held by one owner is updated in place, a state
//! shared with the DFS stack or the seen-set is copied only along the path to
//! the change — the paper's morphic pattern. The hash is computed once and
//! cached. [`api::Engine::canonicalize`] renumbers heap objects in order of first
//! reach and interns the state in a canonic store, so "seen before?" is one
//! lookup and equal canonic states are one object.
//!
//! [`api::Engine`] implements `tass-semantics`' environment over states and drives
//! the evaluator and executor: the initial state (inputs as symbolic constants
//! named after the inputs), enabled steps (symbolic branches split the path
//! condition; infeasible ones are pruned by the prover), execution with checks,
//! termination checks (memory leaks). `tass-verify` builds the transition system
//! and the search on top of it.
//!
//! Several processes: a state holds one process state per rank (its call stack,
//! process globals, its own copies of the outputs, and heap); inputs are shared
//! and read-only. Steps name their process, and [`api::Step::local`] tells
//! partial-order reduction whether a step communicates. The message buffer
//! (ordered by sender, receiver, issue order) is part of the state and of its
//! hash. MPI calls are executed by the private
//! `mpi` module: point-to-point (standard, wildcard, status, `MPI_PROC_NULL`),
//! the blocking collectives on `MPI_COMM_WORLD`, the MPI argument checks, and the
//! potential-deadlock test; other MPI functions are an "unsupported" error.
//!
//! Known limits: a pointer to a local of a frame that was popped is detected as
//! dangling only if another function's frame (or none) now sits at that depth;
//! uninitialised array elements are detected when read at concrete indices;
//! arrays of pointers or structs need concrete indices and extents.
//!
//! ```
//! use std::sync::Arc;
//! use tass_model::api::*;
//! use tass_state::api::{Engine, EngineConfig, Oracle, Property};
//! use tass_symbolic::api::ExprFactory;
//!
//! // int main() { assert(1 / 1 == 1); return 0; }  built by hand
//! let mut m = ModelBuilder::new("m.c");
//! let one = Expr::int(1, m.span(2));
//! let div = Expr::new(ExprKind::Binary(BinaryOp::Div, Box::new(one.clone()), Box::new(one.clone())),
//!     Type::INT, m.span(2));
//! let cond = Expr::new(ExprKind::Binary(BinaryOp::Compare(Comparison::Eq), Box::new(div), Box::new(one)), Type::Bool,
//!     m.span(2));
//! let mut body = m.body();
//! body.then(Statement::Assert { condition: cond, origin: AssertOrigin::CAssert });
//! body.ret(Some(Expr::int(0, m.span(3))));
//! m.add_function(body.function(FunctionId(0), "main", vec![], vec![], Type::INT));
//! let model = Arc::new(m.finish(FunctionId(0)));
//!
//! let factory = ExprFactory::shared();
//! let oracle = Oracle::builtin(Arc::clone(&factory));
//! let mut engine = Engine::new(model, factory, oracle, EngineConfig::default()).unwrap();
//! let mut state = engine.initial_state().unwrap();
//! while !engine.is_terminated(&state) {
//!     let steps = engine.enabled(&state).unwrap();
//!     assert_eq!(steps.len(), 1); // no branching in this program
//!     let outcome = engine.execute(state, &steps[0]).unwrap();
//!     assert!(outcome.violations.is_empty());
//!     state = engine.canonicalize(outcome.state);
//! }
//! assert!(engine.check_termination(&state).is_empty());
//! assert_eq!(Property::MemoryLeak.id(), "memory-leak");
//! ```

pub mod api;
mod call_marks;
mod canon;
mod engine;
mod env;
mod key;
mod loop_joint;
mod loop_lag;
mod loop_sync;
mod mpi;
mod snapshot;
mod state;
mod step;
mod symmetry;
mod worker_symmetry;
mod worker_taint;
