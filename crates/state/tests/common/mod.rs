//! Shorthands for hand-made models (built with `tass_model::api::ModelBuilder`)
//! and a test-side explorer.
#![allow(dead_code)]

use std::collections::HashSet;
use std::sync::Arc;

use tass_model::api::*;
use tass_state::api::{Engine, EngineConfig, EngineError, Oracle, State, Violation};
use tass_symbolic::api::ExprFactory;

pub fn sp(line: u32) -> Span {
    Span::point("t.c".into(), line, 1)
}

pub fn int(i: i128) -> Expr {
    Expr::int(i, sp(1))
}

pub fn tt() -> Expr {
    Expr::true_at(sp(1))
}

pub fn bin(op: BinaryOp, a: Expr, b: Expr, ty: Type) -> Expr {
    Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty, sp(1))
}

pub fn cmp(op: Comparison, a: Expr, b: Expr) -> Expr {
    bin(BinaryOp::Compare(op), a, b, Type::Bool)
}

pub fn not(a: Expr) -> Expr {
    a.negated()
}

pub fn index(a: Expr, i: Expr, elem: Type) -> Expr {
    Expr::new(ExprKind::Index(Box::new(a), Box::new(i)), elem, sp(1))
}

pub fn deref(p: Expr, ty: Type) -> Expr {
    Expr::new(ExprKind::Deref(Box::new(p)), ty, sp(1))
}

pub fn var_id(e: &Expr) -> VarId {
    e.var_id().expect("a variable")
}

pub fn engine(model: impl Into<Arc<Model>>, config: EngineConfig) -> Engine {
    let f = ExprFactory::shared();
    let oracle = Oracle::builtin(Arc::clone(&f));
    Engine::new(model.into(), f, oracle, config).expect("engine")
}

/// What an exhaustive exploration found.
#[derive(Debug, Default)]
pub struct Explored {
    pub violations: Vec<Violation>,
    pub final_states: Vec<State>,
    pub states: usize,
    pub transitions: usize,
}

/// Depth-first exploration of every reachable state, saving canonical states.
pub fn explore(engine: &mut Engine, max_states: usize) -> Result<Explored, EngineError> {
    let mut out = Explored::default();
    let mut seen: HashSet<State> = HashSet::new();
    let init = engine.initial_state()?;
    let init = engine.canonicalize(init);
    let mut stack = vec![init];
    while let Some(s) = stack.pop() {
        if !seen.insert(s.clone()) {
            continue;
        }
        out.states += 1;
        assert!(out.states <= max_states, "state explosion in a test model");
        let steps = engine.enabled(&s)?;
        if steps.is_empty() {
            if engine.is_terminated(&s) {
                out.violations.extend(engine.check_termination(&s));
                out.final_states.push(s.clone());
            }
            continue;
        }
        for step in steps {
            let o = engine.execute(s.clone(), &step)?;
            out.transitions += 1;
            out.violations.extend(
                o.violations
                    .into_iter()
                    .filter(|v| !v.property.is_warning()),
            );
            let next = engine.canonicalize(o.state);
            stack.push(next);
        }
    }
    Ok(out)
}
