//! A small builder for hand-made models and a test-side explorer.
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

pub fn cmp(op: BinaryOp, a: Expr, b: Expr) -> Expr {
    bin(op, a, b, Type::Bool)
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

/// Builds a model: variables first, then functions with `FnBuilder`.
#[derive(Default)]
pub struct ModelBuilder {
    pub variables: Vec<Variable>,
    pub functions: Vec<Function>,
    pub inputs: Vec<VarId>,
    pub outputs: Vec<VarId>,
    pub globals: Vec<VarId>,
}

impl ModelBuilder {
    pub fn var(&mut self, name: &str, ty: Type, scope: VarScope) -> Expr {
        let id = VarId(self.variables.len() as u32);
        self.variables.push(Variable {
            id,
            name: name.into(),
            ty: ty.clone(),
            scope,
            constraint: None,
            from_macro: false,
            is_temporary: false,
            is_const: false,
            static_in: None,
            span: sp(1),
        });
        match scope {
            VarScope::Input => self.inputs.push(id),
            VarScope::Output => self.outputs.push(id),
            VarScope::ProcessGlobal => self.globals.push(id),
            _ => {}
        }
        Expr::new(ExprKind::Var(id), ty, sp(1))
    }

    pub fn input(&mut self, name: &str, ty: Type, constraint: Option<Expr>) -> Expr {
        let e = self.var(name, ty, VarScope::Input);
        let id = var_id(&e);
        self.variables[id.0 as usize].constraint = constraint;
        e
    }

    pub fn finish(self, main: FunctionId) -> Arc<Model> {
        Arc::new(Model {
            name: "t.c".into(),
            variables: self.variables,
            structs: vec![],
            functions: self.functions,
            inputs: self.inputs,
            outputs: self.outputs,
            globals: self.globals,
            main,
            mpi_status_struct: None,
            uses_mpi: false,
        })
    }
}

pub fn var_id(e: &Expr) -> VarId {
    match e.kind {
        ExprKind::Var(v) => v,
        _ => panic!("not a variable"),
    }
}

/// A function body under construction: a chain of locations.
pub struct FnBuilder {
    pub graph: BodyGraph,
    pub entry: LocationId,
    pub current: LocationId,
    line: u32,
}

impl FnBuilder {
    pub fn new() -> FnBuilder {
        let mut graph = BodyGraph::new();
        let entry = graph.add_node(Location {
            kind: LocationKind::Plain,
            span: sp(1),
            invariants: vec![],
        });
        FnBuilder {
            graph,
            entry,
            current: entry,
            line: 1,
        }
    }

    pub fn loc(&mut self, kind: LocationKind) -> LocationId {
        self.graph.add_node(Location {
            kind,
            span: sp(self.line),
            invariants: vec![],
        })
    }

    pub fn edge(&mut self, from: LocationId, to: LocationId, guard: Expr, statement: Statement) {
        self.line += 1;
        let text = format!("line {}", self.line);
        self.graph.add_edge(
            from,
            to,
            Transition {
                guard,
                statement,
                span: sp(self.line),
                source_text: text,
            },
        );
    }

    /// Appends `statement` after the current location.
    pub fn then(&mut self, statement: Statement) -> &mut Self {
        let next = self.loc(LocationKind::Plain);
        let cur = self.current;
        self.edge(cur, next, tt(), statement);
        self.current = next;
        self
    }

    pub fn assign(&mut self, lhs: Expr, rhs: Expr) -> &mut Self {
        self.then(Statement::Assign { lhs, rhs })
    }

    pub fn ret(&mut self, value: Option<Expr>) {
        let exit = self.loc(LocationKind::Exit);
        let cur = self.current;
        self.edge(cur, exit, tt(), Statement::Return { value });
        self.current = exit;
    }

    pub fn function(
        self,
        id: u32,
        name: &str,
        params: Vec<VarId>,
        locals: Vec<VarId>,
        return_type: Type,
    ) -> Function {
        Function {
            id: FunctionId(id),
            name: name.into(),
            params,
            locals,
            return_type,
            kind: FunctionKind::User,
            body: Some(Body {
                graph: self.graph,
                entry: self.entry,
            }),
            span: sp(1),
        }
    }
}

pub fn engine(model: Arc<Model>, config: EngineConfig) -> Engine {
    let f = ExprFactory::shared();
    let oracle = Oracle::builtin(Arc::clone(&f));
    Engine::new(model, f, oracle, config).expect("engine")
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
