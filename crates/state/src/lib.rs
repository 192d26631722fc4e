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
//! ```
//! use std::sync::Arc;
//! use tass_state::api::*;
//!
//! // -i N=10 and -i x=2.5 parse as exact numbers.
//! assert_eq!(FixedValue::parse("10"), Ok(FixedValue::Int(10.into())));
//! assert!(matches!(FixedValue::parse("2.5"), Ok(FixedValue::Real(_))));
//! assert!(FixedValue::parse("ten").is_err());
//! let config = EngineConfig { nprocs: 1, ..EngineConfig::default() };
//! assert_eq!(config.arith, Arith::Real);
//! ```

pub mod api;
mod canon;
mod engine;
mod env;
mod state;
