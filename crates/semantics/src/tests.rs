//! Unit tests of the evaluator over a minimal map-based environment.

use std::collections::HashMap;
use std::sync::Arc;

use tass_dynamic::api::{ElemType, HeapObject, Root, Value};
use tass_model::api::*;
use tass_symbolic::api::{Expr as SExpr, ExprFactory, Type as SType};

use crate::api::{Certainty, Environment, Evaluator, Oracle, Property};

/// Every variable is a local of frame 0 of process 0; no heap, no calls.
struct MapEnv {
    model: Model,
    f: Arc<ExprFactory>,
    pc: SExpr,
    vars: HashMap<Root, Value>,
    heap: Vec<HeapObject>,
}

impl Environment for MapEnv {
    fn model(&self) -> &Model {
        &self.model
    }
    fn factory(&self) -> &ExprFactory {
        &self.f
    }
    fn process(&self) -> usize {
        0
    }
    fn nprocs(&self) -> usize {
        1
    }
    fn path_condition(&self) -> SExpr {
        self.pc
    }
    fn set_path_condition(&mut self, pc: SExpr) {
        self.pc = pc;
    }
    fn root_of(&self, var: VarId) -> Root {
        Root::Local {
            proc: 0,
            frame: 0,
            var,
        }
    }
    fn get(&self, root: Root) -> Option<&Value> {
        self.vars.get(&root)
    }
    fn get_mut(&mut self, root: Root) -> Option<&mut Value> {
        self.vars.get_mut(&root)
    }
    fn heap_object(&self, _proc: usize, object: u32) -> Option<&HeapObject> {
        self.heap.get(object as usize)
    }
    fn allocate(&mut self, value: Value, extent: SExpr, elem: ElemType) -> Root {
        self.heap.push(HeapObject::Live {
            value,
            extent,
            elem,
        });
        Root::Heap {
            proc: 0,
            object: self.heap.len() as u32 - 1,
        }
    }
    fn free(&mut self, object: u32) {
        self.heap[object as usize] = HeapObject::Freed;
    }
    fn location(&self) -> (FunctionId, LocationId) {
        (FunctionId(0), LocationId::new(0))
    }
    fn set_location(&mut self, _location: LocationId) {}
    fn stack_depth(&self) -> usize {
        1
    }
    fn push_frame(&mut self, _: FunctionId, _: Option<TransitionId>, _: Vec<(VarId, Value)>) {}
    fn pop_frame(&mut self) -> Option<TransitionId> {
        None
    }
    fn terminate(&mut self, _exit_code: Option<SExpr>) {}
}

fn sp() -> Span {
    Span::point("u.c".into(), 3, 7)
}

fn int(i: i128) -> Expr {
    Expr::int(i, sp())
}

fn bin(op: BinaryOp, a: Expr, b: Expr, ty: Type) -> Expr {
    Expr::new(ExprKind::Binary(op, Box::new(a), Box::new(b)), ty, sp())
}

fn var(id: u32, ty: Type) -> Expr {
    Expr::new(ExprKind::Var(VarId(id)), ty, sp())
}

/// Variables: 0 = `int i` (symbolic I), 1 = `int a[3]` (zeros), 2 = `int u` (undefined).
fn env() -> MapEnv {
    let f = ExprFactory::shared();
    let arr = Type::Array(Box::new(Type::INT), Some(Box::new(int(3))));
    let mut m = ModelBuilder::new("u.c");
    let local = VarScope::Local(FunctionId(0));
    m.var("i", Type::INT, local);
    m.var("a", arr, local);
    m.var("u", Type::INT, local);
    let model = m.finish(FunctionId(0));
    let mut vars = HashMap::new();
    let root = |v| Root::Local {
        proc: 0,
        frame: 0,
        var: VarId(v),
    };
    vars.insert(root(0), Value::Data(f.symbol("I", SType::Int)));
    let at = SType::array(SType::Int, Some(f.int(3)));
    vars.insert(root(1), Value::Data(f.default_value(&at)));
    vars.insert(root(2), Value::Undefined);
    MapEnv {
        model,
        pc: f.tt(),
        f,
        vars,
        heap: vec![],
    }
}

#[test]
fn integer_division_truncates_and_modulus_takes_the_dividends_sign() {
    let e = env();
    let f = Arc::clone(&e.f);
    let mut oracle = Oracle::builtin(Arc::clone(&f));
    let mut ev = Evaluator::checking(&f, &mut oracle, 0);
    let q = ev
        .eval_int(&e, &bin(BinaryOp::Div, int(7), int(-2), Type::INT))
        .unwrap();
    let r = ev
        .eval_int(&e, &bin(BinaryOp::Mod, int(-7), int(2), Type::INT))
        .unwrap();
    assert_eq!(q, f.int(-3));
    assert_eq!(r, f.int(-1));
    assert!(ev.violations.is_empty());
}

#[test]
fn symbolic_index_is_checked_against_the_extent_under_the_path_condition() {
    let mut e = env();
    let f = Arc::clone(&e.f);
    let i = f.symbol("I", SType::Int);
    let read = Expr::new(
        ExprKind::Index(
            Box::new(var(1, Type::Array(Box::new(Type::INT), None))),
            Box::new(var(0, Type::INT)),
        ),
        Type::INT,
        sp(),
    );
    // Unconstrained I: the read can be out of bounds.
    let mut oracle = Oracle::builtin(Arc::clone(&f));
    let mut ev = Evaluator::checking(&f, &mut oracle, 0);
    ev.eval(&e, &read).unwrap();
    assert_eq!(ev.violations.len(), 1);
    assert_eq!(ev.violations[0].property, Property::OutOfBounds);
    assert_eq!(ev.violations[0].span, sp());
    // ... and evaluation went on assuming 0 <= I < 3.
    assert_eq!(ev.assumed.len(), 1);
    // With 0 <= I <= 2 in the path condition, the read is fine.
    e.pc = f.and(f.le(f.int(0), i), f.le(i, f.int(2)));
    let mut ev = Evaluator::checking(&f, &mut oracle, 0);
    let v = ev.eval(&e, &read).unwrap();
    assert!(ev.violations.is_empty(), "{:?}", ev.violations);
    assert_eq!(
        v,
        Value::Data(f.int(0)),
        "the zero array reads 0 everywhere"
    );
}

#[test]
fn short_circuit_and_conditional_guard_their_operands() {
    let e = env();
    let f = Arc::clone(&e.f);
    let mut oracle = Oracle::builtin(Arc::clone(&f));
    let mut ev = Evaluator::checking(&f, &mut oracle, 0);
    let i = var(0, Type::INT);
    let guarded = Expr::new(
        ExprKind::LogicalAnd(
            Box::new(bin(
                BinaryOp::Compare(Comparison::Ne),
                i.clone(),
                int(0),
                Type::Bool,
            )),
            Box::new(bin(
                BinaryOp::Compare(Comparison::Gt),
                bin(BinaryOp::Div, int(10), i.clone(), Type::INT),
                int(1),
                Type::Bool,
            )),
        ),
        Type::Bool,
        sp(),
    );
    ev.eval_bool(&e, &guarded).unwrap();
    let cond = Expr::new(
        ExprKind::Conditional(
            Box::new(Expr::true_at(sp())),
            Box::new(int(5)),
            Box::new(bin(BinaryOp::Div, int(1), int(0), Type::INT)),
        ),
        Type::INT,
        sp(),
    );
    assert_eq!(ev.eval_int(&e, &cond).unwrap(), f.int(5));
    assert!(ev.violations.is_empty(), "{:?}", ev.violations);
    // Unguarded, the same division is a possible or provable violation.
    ev.eval_int(&e, &bin(BinaryOp::Div, int(10), i, Type::INT))
        .unwrap();
    assert_eq!(ev.violations.len(), 1);
    assert_eq!(ev.violations[0].property, Property::DivisionByZero);
}

#[test]
fn uninitialised_read_is_reported_and_evaluation_goes_on() {
    let e = env();
    let f = Arc::clone(&e.f);
    let mut oracle = Oracle::builtin(Arc::clone(&f));
    let mut ev = Evaluator::checking(&f, &mut oracle, 0);
    let v = ev
        .eval(
            &e,
            &bin(BinaryOp::Add, var(2, Type::INT), int(1), Type::INT),
        )
        .unwrap();
    assert!(matches!(v, Value::Data(_)));
    assert_eq!(ev.violations.len(), 1);
    let viol = &ev.violations[0];
    assert_eq!(viol.property, Property::InvalidPointer);
    assert_eq!(viol.certainty, Certainty::Provable);
    assert!(
        viol.message.contains("uninitialised `u`"),
        "{}",
        viol.message
    );
    assert!(
        ev.assumed.is_empty(),
        "an uninitialised read does not end the path"
    );
    // Without checking (guards of enabled transitions), nothing is reported.
    let mut ev = Evaluator::without_checks(&f, &mut oracle, 0);
    ev.eval(&e, &var(2, Type::INT)).unwrap();
    assert!(ev.violations.is_empty());
}
