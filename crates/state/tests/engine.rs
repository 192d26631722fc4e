//! End-to-end tests of the engine on hand-built models.

mod common;

use common::*;
use tass_model::api::*;
use tass_state::api::*;

fn ptr(t: Type) -> Type {
    Type::Pointer(Box::new(t))
}

fn only(vs: &[Violation], p: Property) -> Vec<&Violation> {
    vs.iter().filter(|v| v.property == p).collect()
}

/// `int x; int a[N]; x = N; if (x > 0) a[x] = 1;` with `N >= 1`: a provable
/// out-of-bounds write with a witness for N.
#[test]
fn out_of_bounds_write_is_provable_with_witness() {
    let mut m = ModelBuilder::new("t.c");
    let n0 = m.input("N", Type::INT, None);
    let c = cmp(Comparison::Ge, n0.clone(), int(1));
    let n = m.input("N2", Type::INT, None); // an unrelated second input
    let _ = n;
    let id = var_id(&n0);
    m.constrain(id, c);
    let x = m.var("x", Type::INT, VarScope::Local(FunctionId(0)));
    let arr_ty = Type::Array(Box::new(Type::INT), Some(Box::new(n0.clone())));
    let a = m.var("a", arr_ty, VarScope::Local(FunctionId(0)));
    let mut b = BodyBuilder::new("t.c");
    b.then(Statement::Declare { var: var_id(&a) });
    b.assign(x.clone(), n0.clone());
    let branch = b.current();
    let then_loc = b.location(LocationKind::Plain);
    let join = b.location(LocationKind::IfJoin);
    let guard = cmp(Comparison::Gt, x.clone(), int(0));
    b.edge(branch, then_loc, guard.clone(), Statement::Noop);
    b.edge(branch, join, not(guard), Statement::Noop);
    b.edge(
        then_loc,
        join,
        tt(),
        Statement::Assign {
            lhs: index(a.clone(), x.clone(), Type::INT),
            rhs: int(1),
        },
    );
    b.move_to(join);
    b.ret(Some(int(0)));
    m.add_function(b.function(
        FunctionId(0),
        "main",
        vec![],
        vec![var_id(&x), var_id(&a)],
        Type::INT,
    ));
    let mut e = engine(m.finish(FunctionId(0)), EngineConfig::default());
    let r = explore(&mut e, 100).unwrap();
    let oob = only(&r.violations, Property::OutOfBounds);
    assert_eq!(oob.len(), 1, "{:?} {:?}", r.violations, r.final_states);
    assert_eq!(oob[0].certainty, Certainty::Provable);
    assert!(oob[0].message.contains("a[x]"), "{}", oob[0].message);
    let w = oob[0].witness.as_ref().expect("a witness");
    assert!(w.iter().any(|(k, _)| k == "N"), "{w:?}");
    // The write fails for every N >= 1, so continuing "under the claim" ends the
    // path, and the else branch is infeasible under N >= 1: no final state.
    assert!(r.final_states.is_empty());
    assert_eq!(r.violations.len(), 1);
}

fn division_model(constraint: bool) -> Model {
    let mut m = ModelBuilder::new("t.c");
    let n = m.input("N", Type::INT, None);
    if constraint {
        let id = var_id(&n);
        m.constrain(id, cmp(Comparison::Ge, n.clone(), int(1)));
    }
    let y = m.var("y", Type::INT, VarScope::Local(FunctionId(0)));
    let mut b = BodyBuilder::new("t.c");
    b.assign(y.clone(), bin(BinaryOp::Div, int(10), n.clone(), Type::INT));
    b.then(Statement::Assert {
        condition: cmp(
            Comparison::Le,
            bin(BinaryOp::Mul, y.clone(), n.clone(), Type::INT),
            int(10),
        ),
        origin: AssertOrigin::CAssert,
    });
    b.ret(Some(int(0)));
    m.add_function(b.function(FunctionId(0), "main", vec![], vec![var_id(&y)], Type::INT));
    m.finish(FunctionId(0))
}

#[test]
fn division_by_symbolic_zero_is_reported_and_fixed_twin_is_clean() {
    let mut e = engine(division_model(false), EngineConfig::default());
    let r = explore(&mut e, 100).unwrap();
    let dz = only(&r.violations, Property::DivisionByZero);
    assert_eq!(dz.len(), 1, "{:?}", r.violations);
    assert_eq!(dz[0].certainty, Certainty::Provable);
    if let Some(w) = &dz[0].witness {
        assert!(w.contains(&("N".to_string(), "0".to_string())), "{w:?}");
    }
    let mut e = engine(division_model(true), EngineConfig::default());
    let r = explore(&mut e, 100).unwrap();
    assert!(
        only(&r.violations, Property::DivisionByZero).is_empty(),
        "{:?}",
        r.violations
    );
}

#[test]
fn fixed_input_makes_the_division_concrete() {
    let config = EngineConfig {
        fixed_inputs: vec![("N".into(), FixedValue::Int(0.into()))],
        ..EngineConfig::default()
    };
    let mut e = engine(division_model(false), config);
    let r = explore(&mut e, 100).unwrap();
    let dz = only(&r.violations, Property::DivisionByZero);
    assert_eq!(dz.len(), 1);
    assert_eq!(dz[0].certainty, Certainty::Provable);
    // A fixed value for an input that does not exist is a clear error.
    let config = EngineConfig {
        fixed_inputs: vec![("M".into(), FixedValue::Int(1.into()))],
        ..EngineConfig::default()
    };
    let f = tass_symbolic::api::ExprFactory::shared();
    let err = Engine::new(
        division_model(false).into(),
        f.clone(),
        Oracle::builtin(f),
        config,
    )
    .unwrap_err();
    assert!(err.to_string().contains("no input named `M`"), "{err}");
}

fn assert_model(claim_offset: i128) -> Model {
    // x = N + 1; assert(x > N + offset)
    let mut m = ModelBuilder::new("t.c");
    let n = m.input("N", Type::INT, None);
    let x = m.var("x", Type::INT, VarScope::Local(FunctionId(0)));
    let mut b = BodyBuilder::new("t.c");
    b.assign(x.clone(), bin(BinaryOp::Add, n.clone(), int(1), Type::INT));
    b.then(Statement::Assert {
        condition: cmp(
            Comparison::Gt,
            x.clone(),
            bin(BinaryOp::Add, n.clone(), int(claim_offset), Type::INT),
        ),
        origin: AssertOrigin::Pragma,
    });
    b.ret(Some(int(0)));
    m.add_function(b.function(FunctionId(0), "main", vec![], vec![var_id(&x)], Type::INT));
    m.finish(FunctionId(0))
}

#[test]
fn assertion_over_symbolic_input_holds_or_fails() {
    let mut e = engine(assert_model(0), EngineConfig::default());
    let r = explore(&mut e, 100).unwrap();
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    assert_eq!(r.final_states.len(), 1);
    let mut e = engine(assert_model(1), EngineConfig::default());
    let r = explore(&mut e, 100).unwrap();
    let a = only(&r.violations, Property::Assertion);
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].certainty, Certainty::Provable);
    assert!(
        a[0].message.contains("#pragma TASS assert"),
        "{}",
        a[0].message
    );
}

fn malloc_model(free: bool) -> Model {
    let mut m = ModelBuilder::new("t.c");
    let n = m.input("N", Type::INT, Some(int(0)));
    let id = var_id(&n);
    m.constrain(id, cmp(Comparison::Ge, n.clone(), int(1)));
    let p = m.var("p", ptr(Type::DOUBLE), VarScope::Local(FunctionId(0)));
    let mut b = BodyBuilder::new("t.c");
    b.then(Statement::Allocate {
        lhs: p.clone(),
        elem_type: Type::DOUBLE,
        count: n.clone(),
        zeroed: false,
    });
    // p[N-1] = 2.0  (as *(p + (N-1)))
    let last = bin(
        BinaryOp::PointerAdd,
        p.clone(),
        bin(BinaryOp::Sub, n.clone(), int(1), Type::INT),
        ptr(Type::DOUBLE),
    );
    b.assign(
        deref(last, Type::DOUBLE),
        Expr::new(ExprKind::RealLit("2.0".into()), Type::DOUBLE, sp(1)),
    );
    if free {
        b.then(Statement::Free { pointer: p.clone() });
    }
    b.ret(Some(int(0)));
    m.add_function(b.function(FunctionId(0), "main", vec![], vec![var_id(&p)], Type::INT));
    m.finish(FunctionId(0))
}

#[test]
fn malloc_without_free_leaks_and_twin_does_not() {
    let mut e = engine(malloc_model(false), EngineConfig::default());
    let r = explore(&mut e, 100).unwrap();
    let leaks = only(&r.violations, Property::MemoryLeak);
    assert_eq!(leaks.len(), 1, "{:?}", r.violations);
    assert!(
        leaks[0].message.contains("not freed"),
        "{}",
        leaks[0].message
    );
    assert_eq!(
        r.violations.len(),
        1,
        "the in-bounds write is fine: {:?}",
        r.violations
    );
    let mut e = engine(malloc_model(true), EngineConfig::default());
    let r = explore(&mut e, 100).unwrap();
    assert!(r.violations.is_empty(), "{:?}", r.violations);
}

/// `i = 0; while (i < N) i = i + 1; assert(i == N);` with `0 <= N <= 3`.
#[test]
fn symbolic_loop_bound_explores_each_iteration_count() {
    let mut m = ModelBuilder::new("t.c");
    let n = m.input("N", Type::INT, None);
    let id = var_id(&n);
    let c = Expr::new(
        ExprKind::LogicalAnd(
            Box::new(cmp(Comparison::Ge, n.clone(), int(0))),
            Box::new(cmp(Comparison::Le, n.clone(), int(3))),
        ),
        Type::Bool,
        sp(1),
    );
    m.constrain(id, c);
    let i = m.var("i", Type::INT, VarScope::Local(FunctionId(0)));
    let mut b = BodyBuilder::new("t.c");
    b.assign(i.clone(), int(0));
    let head = b.location(LocationKind::LoopHead);
    let cur = b.current();
    b.edge(cur, head, tt(), Statement::Noop);
    let body = b.location(LocationKind::Plain);
    let after = b.location(LocationKind::Plain);
    let g = cmp(Comparison::Lt, i.clone(), n.clone());
    b.edge(head, body, g.clone(), Statement::Noop);
    b.edge(head, after, not(g), Statement::Noop);
    b.edge(
        body,
        head,
        tt(),
        Statement::Assign {
            lhs: i.clone(),
            rhs: bin(BinaryOp::Add, i.clone(), int(1), Type::INT),
        },
    );
    b.move_to(after);
    b.then(Statement::Assert {
        condition: cmp(Comparison::Eq, i.clone(), n.clone()),
        origin: AssertOrigin::CAssert,
    });
    b.ret(Some(int(0)));
    m.add_function(b.function(FunctionId(0), "main", vec![], vec![var_id(&i)], Type::INT));
    let mut e = engine(m.finish(FunctionId(0)), EngineConfig::default());
    let r = explore(&mut e, 1000).unwrap();
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    assert_eq!(r.final_states.len(), 4, "one final state per N in 0..=3");
    let st = e.stats();
    assert!(st.symbolic_values > 0);
    assert!(st.canonic_states >= r.states as u64);
}

/// Two processes each set their own global: both interleavings reach the same
/// canonical state (equal, with the same hash: one lookup in a set of saved
/// states finds it).
#[test]
fn commuting_steps_of_two_processes_reach_one_canonical_state() {
    let mut m = ModelBuilder::new("t.c");
    let g = m.var("g", Type::INT, VarScope::ProcessGlobal);
    let mut b = BodyBuilder::new("t.c");
    b.assign(g.clone(), int(1));
    b.ret(Some(int(0)));
    m.add_function(b.function(FunctionId(0), "main", vec![], vec![], Type::INT));
    let mut e = engine(
        m.finish(FunctionId(0)),
        EngineConfig {
            nprocs: 2,
            ..EngineConfig::default()
        },
    );
    let s0 = e.initial_state().unwrap();
    let steps = e.enabled(&s0).unwrap();
    assert_eq!(steps.len(), 2);
    assert!(steps.iter().all(|s| s.local && s.guard_known_true));
    let run = |e: &mut Engine, order: [usize; 2]| {
        let mut s = s0.clone();
        for p in order {
            let step = e
                .enabled(&s)
                .unwrap()
                .into_iter()
                .find(|st| st.process == p)
                .unwrap();
            s = e.execute(s, &step).unwrap().state;
        }
        e.canonicalize(s)
    };
    let a = run(&mut e, [0, 1]);
    let b2 = run(&mut e, [1, 0]);
    assert_eq!(a, b2);
    assert_eq!(a.hash_value(), b2.hash_value());
    // The compact keys the search keeps agree with state equality.
    let s0_canonical = e.canonicalize(s0.clone());
    assert_eq!(e.state_key(&a), e.state_key(&b2));
    assert_ne!(e.state_key(&a), e.state_key(&s0_canonical));
    assert_eq!(
        e.variable(&a, 1, "g")
            .and_then(|v| v.as_data())
            .map(|x| e.pretty(x)),
        Some("1".into())
    );
    assert_ne!(a, e.canonicalize(s0.clone()));
    let r = explore(&mut e, 100).unwrap();
    // init, p0 done / p1 done, both assigned, then the returns: the diamond joins.
    assert!(r.transitions > r.states - 1, "some state was reached twice");
    assert_eq!(r.final_states.len(), 1);
}

/// Two nondeterministic branches allocate the same two blocks in opposite order;
/// after heap canonicalization the states at the join are equal.
#[test]
fn heap_canonicalization_identifies_allocation_orders() {
    let mut m = ModelBuilder::new("t.c");
    let p = m.var("p", ptr(Type::INT), VarScope::Local(FunctionId(0)));
    let q = m.var("q", ptr(Type::INT), VarScope::Local(FunctionId(0)));
    let mut b = BodyBuilder::new("t.c");
    let start = b.current();
    let (a1, a2, b1, b2, join) = (
        b.location(LocationKind::Plain),
        b.location(LocationKind::Plain),
        b.location(LocationKind::Plain),
        b.location(LocationKind::Plain),
        b.location(LocationKind::IfJoin),
    );
    let alloc = |lhs: &Expr, n: i128| Statement::Allocate {
        lhs: lhs.clone(),
        elem_type: Type::INT,
        count: int(n),
        zeroed: true,
    };
    b.edge(start, a1, tt(), Statement::Noop);
    b.edge(a1, a2, tt(), alloc(&p, 1));
    b.edge(a2, join, tt(), alloc(&q, 2));
    b.edge(start, b1, tt(), Statement::Noop);
    b.edge(b1, b2, tt(), alloc(&q, 2));
    b.edge(b2, join, tt(), alloc(&p, 1));
    b.move_to(join);
    b.then(Statement::Free { pointer: p.clone() });
    b.then(Statement::Free { pointer: q.clone() });
    b.ret(Some(int(0)));
    m.add_function(b.function(
        FunctionId(0),
        "main",
        vec![],
        vec![var_id(&p), var_id(&q)],
        Type::INT,
    ));
    let mut e = engine(m.finish(FunctionId(0)), EngineConfig::default());
    let s0 = e.initial_state().unwrap();
    let steps = e.enabled(&s0).unwrap();
    assert_eq!(steps.len(), 2);
    let mut at_join = Vec::new();
    for st in steps {
        let mut s = e.execute(s0.clone(), &st).unwrap().state;
        for _ in 0..2 {
            let next = e.enabled(&s).unwrap();
            assert_eq!(next.len(), 1);
            s = e.execute(s, &next[0]).unwrap().state;
        }
        at_join.push(e.canonicalize(s));
    }
    assert_eq!(at_join[0], at_join[1]);
    assert_eq!(e.state_key(&at_join[0]), e.state_key(&at_join[1]));
    let r = explore(&mut e, 100).unwrap();
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    assert_eq!(r.final_states.len(), 1);
}

#[test]
fn uninitialised_read_and_null_dereference_are_invalid_pointer() {
    let mut m = ModelBuilder::new("t.c");
    let x = m.var("x", Type::INT, VarScope::Local(FunctionId(0)));
    let y = m.var("y", Type::INT, VarScope::Local(FunctionId(0)));
    let p = m.var("p", ptr(Type::INT), VarScope::Local(FunctionId(0)));
    let mut b = BodyBuilder::new("t.c");
    b.assign(y.clone(), bin(BinaryOp::Add, x.clone(), int(1), Type::INT));
    b.assign(
        p.clone(),
        Expr::new(ExprKind::NullPointer, ptr(Type::INT), sp(1)),
    );
    b.assign(deref(p.clone(), Type::INT), int(3));
    b.ret(Some(int(0)));
    m.add_function(b.function(
        FunctionId(0),
        "main",
        vec![],
        vec![var_id(&x), var_id(&y), var_id(&p)],
        Type::INT,
    ));
    let mut e = engine(m.finish(FunctionId(0)), EngineConfig::default());
    let r = explore(&mut e, 100).unwrap();
    let ip = only(&r.violations, Property::InvalidPointer);
    assert_eq!(ip.len(), 2, "{:?}", r.violations);
    assert!(
        ip[0].message.contains("uninitialised `x`"),
        "{}",
        ip[0].message
    );
    assert!(ip[1].message.contains("null pointer"), "{}", ip[1].message);
    assert!(ip.iter().all(|v| v.certainty == Certainty::Provable));
    // The null dereference kills the path: no final state.
    assert!(r.final_states.is_empty());
}

#[test]
fn use_after_free_and_double_free_are_reported() {
    let mut m = ModelBuilder::new("t.c");
    let p = m.var("p", ptr(Type::INT), VarScope::Local(FunctionId(0)));
    let mut b = BodyBuilder::new("t.c");
    b.then(Statement::Allocate {
        lhs: p.clone(),
        elem_type: Type::INT,
        count: int(1),
        zeroed: false,
    });
    b.then(Statement::Free { pointer: p.clone() });
    b.then(Statement::Free { pointer: p.clone() });
    b.ret(Some(int(0)));
    m.add_function(b.function(FunctionId(0), "main", vec![], vec![var_id(&p)], Type::INT));
    let mut e = engine(m.finish(FunctionId(0)), EngineConfig::default());
    let r = explore(&mut e, 100).unwrap();
    let ip = only(&r.violations, Property::InvalidPointer);
    assert_eq!(ip.len(), 1, "{:?}", r.violations);
    assert!(ip[0].message.contains("already freed"), "{}", ip[0].message);
}

/// `int a[3]; int *p = a; *(p + 3) = 1;`
#[test]
fn pointer_offset_past_the_object_is_out_of_bounds() {
    let mut m = ModelBuilder::new("t.c");
    let arr = Type::Array(Box::new(Type::INT), Some(Box::new(int(3))));
    let a = m.var("a", arr, VarScope::Local(FunctionId(0)));
    let p = m.var("p", ptr(Type::INT), VarScope::Local(FunctionId(0)));
    let mut b = BodyBuilder::new("t.c");
    b.assign(
        p.clone(),
        Expr::new(ExprKind::Decay(Box::new(a.clone())), ptr(Type::INT), sp(1)),
    );
    // p + 3 is fine (one past the end), *(p + 3) is not.
    let p3 = bin(BinaryOp::PointerAdd, p.clone(), int(3), ptr(Type::INT));
    b.assign(deref(p3, Type::INT), int(1));
    b.ret(Some(int(0)));
    m.add_function(b.function(
        FunctionId(0),
        "main",
        vec![],
        vec![var_id(&a), var_id(&p)],
        Type::INT,
    ));
    let mut e = engine(m.finish(FunctionId(0)), EngineConfig::default());
    let r = explore(&mut e, 100).unwrap();
    let oob = only(&r.violations, Property::OutOfBounds);
    assert_eq!(oob.len(), 1, "{:?}", r.violations);
    assert!(
        oob[0].message.contains("outside its object"),
        "{}",
        oob[0].message
    );
}

/// `if (N != 0 && 10 / N > 1) ...`: the division is only evaluated where N != 0.
#[test]
fn short_circuit_protects_the_right_operand() {
    let mut m = ModelBuilder::new("t.c");
    let n = m.input("N", Type::INT, None);
    let x = m.var("x", Type::Bool, VarScope::Local(FunctionId(0)));
    let cond = Expr::new(
        ExprKind::LogicalAnd(
            Box::new(cmp(Comparison::Ne, n.clone(), int(0))),
            Box::new(cmp(
                Comparison::Gt,
                bin(BinaryOp::Div, int(10), n.clone(), Type::INT),
                int(1),
            )),
        ),
        Type::Bool,
        sp(1),
    );
    let mut b = BodyBuilder::new("t.c");
    b.assign(x.clone(), cond);
    b.ret(Some(int(0)));
    m.add_function(b.function(FunctionId(0), "main", vec![], vec![var_id(&x)], Type::INT));
    let mut e = engine(m.finish(FunctionId(0)), EngineConfig::default());
    let r = explore(&mut e, 100).unwrap();
    assert!(r.violations.is_empty(), "{:?}", r.violations);
}

/// `int fact(int n) { int t; if (n <= 1) return 1; t = fact(n - 1); return n * t; }`
/// `main: r = fact(4); assert(r == 24);`
#[test]
fn recursive_calls_return_values() {
    let mut m = ModelBuilder::new("t.c");
    let n = m.var("n", Type::INT, VarScope::Local(FunctionId(1)));
    let t = m.var("t", Type::INT, VarScope::Local(FunctionId(1)));
    let r = m.var("r", Type::INT, VarScope::Local(FunctionId(0)));
    let mut main = BodyBuilder::new("t.c");
    main.then(Statement::Call {
        lhs: Some(r.clone()),
        callee: Callee::User(FunctionId(1)),
        args: vec![int(4)],
    });
    main.then(Statement::Assert {
        condition: cmp(Comparison::Eq, r.clone(), int(24)),
        origin: AssertOrigin::CAssert,
    });
    main.ret(Some(int(0)));
    let mut fb = BodyBuilder::new("t.c");
    let start = fb.current();
    let (base, rec, exit) = (
        fb.location(LocationKind::Plain),
        fb.location(LocationKind::Plain),
        fb.location(LocationKind::Exit),
    );
    let g = cmp(Comparison::Le, n.clone(), int(1));
    fb.edge(start, base, g.clone(), Statement::Noop);
    fb.edge(start, rec, not(g), Statement::Noop);
    fb.edge(
        base,
        exit,
        tt(),
        Statement::Return {
            value: Some(int(1)),
        },
    );
    let after = fb.location(LocationKind::Plain);
    fb.edge(
        rec,
        after,
        tt(),
        Statement::Call {
            lhs: Some(t.clone()),
            callee: Callee::User(FunctionId(1)),
            args: vec![bin(BinaryOp::Sub, n.clone(), int(1), Type::INT)],
        },
    );
    fb.edge(
        after,
        exit,
        tt(),
        Statement::Return {
            value: Some(bin(BinaryOp::Mul, n.clone(), t.clone(), Type::INT)),
        },
    );
    m.add_function(main.function(FunctionId(0), "main", vec![], vec![var_id(&r)], Type::INT));
    m.add_function(fb.function(
        FunctionId(1),
        "fact",
        vec![var_id(&n)],
        vec![var_id(&t)],
        Type::INT,
    ));
    let mut e = engine(m.finish(FunctionId(0)), EngineConfig::default());
    let res = explore(&mut e, 1000).unwrap();
    assert!(res.violations.is_empty(), "{:?}", res.violations);
    assert_eq!(res.final_states.len(), 1);
    assert!(matches!(
        e.process_status(&res.final_states[0])[0],
        ProcessStatus::Terminated { .. }
    ));
}

#[test]
fn unsupported_library_calls_are_an_error_naming_the_function() {
    let mut m = ModelBuilder::new("t.c");
    let x = m.var("x", Type::INT, VarScope::Local(FunctionId(0)));
    let text = Expr::new(
        ExprKind::StringLit(b"12".to_vec()),
        Type::Array(Box::new(Type::Char), Some(Box::new(int(3)))),
        sp(1),
    );
    let arg = Expr::new(
        ExprKind::Decay(Box::new(text)),
        Type::Pointer(Box::new(Type::Char)),
        sp(1),
    );
    let mut b = BodyBuilder::new("t.c");
    b.then(Statement::Call {
        lhs: Some(x.clone()),
        // sprintf has no model (atoi, which this test used, now has one)
        callee: Callee::Library(LibraryFunction::Sprintf),
        args: vec![arg],
    });
    b.ret(Some(int(0)));
    m.add_function(b.function(FunctionId(0), "main", vec![], vec![var_id(&x)], Type::INT));
    let mut e = engine(m.finish(FunctionId(0)), EngineConfig::default());
    let err = explore(&mut e, 100).unwrap_err();
    assert!(
        matches!(&err, EngineError::Unsupported { construct, .. } if construct.contains("sprintf")),
        "{err}"
    );
    assert!(err.to_string().contains("t.c:2:1"), "{err}");
}

#[test]
fn outputs_and_path_condition_are_visible() {
    // output double out; out = N * 2.0 (N a real input with N > 0)
    let mut m = ModelBuilder::new("t.c");
    let n = m.input("N", Type::DOUBLE, None);
    let id = var_id(&n);
    let zero = Expr::new(ExprKind::RealLit("0.0".into()), Type::DOUBLE, sp(1));
    m.constrain(id, cmp(Comparison::Gt, n.clone(), zero));
    let out = m.var("out", Type::DOUBLE, VarScope::Output);
    let two = Expr::new(ExprKind::RealLit("2.0".into()), Type::DOUBLE, sp(1));
    let mut b = BodyBuilder::new("t.c");
    b.assign(
        out.clone(),
        bin(BinaryOp::Mul, n.clone(), two, Type::DOUBLE),
    );
    b.ret(Some(int(0)));
    m.add_function(b.function(FunctionId(0), "main", vec![], vec![], Type::INT));
    let mut e = engine(m.finish(FunctionId(0)), EngineConfig::default());
    let s = e.initial_state().unwrap();
    assert_eq!(e.pretty(e.path_condition(&s)), "N > 0.0");
    let outs = e.outputs(&s);
    assert_eq!(outs.len(), 1);
    assert_eq!(e.pretty_value(&outs[0].1), "0.0");
    let step = e.enabled(&s).unwrap().remove(0);
    let o = e.execute(s, &step).unwrap();
    assert_eq!(o.changes.len(), 1);
    assert_eq!(o.changes[0].variable, "out");
    let outs = e.outputs(&o.state);
    let v = outs[0].1.as_data().unwrap();
    assert_eq!(e.pretty(v), o.changes[0].value);
    assert!(o.changes[0].value.contains('N'), "{}", o.changes[0].value);
}

/// `assume(N > 5)` with the input constraint `N <= 3` ends the path with an
/// `assumption-vacuous` warning; `assume(N > 1)` restricts the path condition so
/// that `10 / (N - 1)` is safe.
#[test]
fn assume_restricts_the_path_and_a_vacuous_one_warns() {
    let build = |bound: i128| {
        let mut m = ModelBuilder::new("t.c");
        let n = m.input("N", Type::INT, None);
        let id = var_id(&n);
        m.constrain(id, cmp(Comparison::Le, n.clone(), int(3)));
        let y = m.var("y", Type::INT, VarScope::Local(FunctionId(0)));
        let mut b = BodyBuilder::new("t.c");
        b.then(Statement::Assume {
            condition: cmp(Comparison::Gt, n.clone(), int(bound)),
        });
        b.assign(
            y.clone(),
            bin(
                BinaryOp::Div,
                int(10),
                bin(BinaryOp::Sub, n.clone(), int(1), Type::INT),
                Type::INT,
            ),
        );
        b.ret(Some(int(0)));
        m.add_function(b.function(FunctionId(0), "main", vec![], vec![var_id(&y)], Type::INT));
        m.finish(FunctionId(0))
    };
    let mut e = engine(build(1), EngineConfig::default());
    let r = explore(&mut e, 100).unwrap();
    assert!(r.violations.is_empty(), "{:?}", r.violations);
    assert_eq!(r.final_states.len(), 1);

    let mut e = engine(build(5), EngineConfig::default());
    let s = e.initial_state().unwrap();
    let step = e.enabled(&s).unwrap().remove(0);
    let info = e.step_info(&step);
    assert_eq!(info.function, "main");
    assert_eq!(info.span.start_line, 2);
    let o = e.execute(s, &step).unwrap();
    assert_eq!(o.violations.len(), 1);
    assert_eq!(o.violations[0].property, Property::AssumptionVacuous);
    assert!(o.violations[0].property.is_warning());
    assert!(e.is_vacuous(&o.state));
    assert!(e.enabled(&o.state).unwrap().is_empty());
    assert!(!e.is_terminated(&o.state));
    match &e.process_status(&o.state)[0] {
        ProcessStatus::Running {
            function, depth, ..
        } => {
            assert_eq!(function, "main");
            assert_eq!(*depth, 1);
        }
        other => panic!("{other:?}"),
    }
    assert!(e.check_termination(&o.state).is_empty());
}

#[test]
fn states_and_engines_can_cross_threads() {
    fn send_sync<T: Send + Sync>() {}
    fn send<T: Send>() {}
    send_sync::<State>();
    send_sync::<Step>();
    send::<Engine>();
}

#[test]
fn fixed_values_parse_like_the_command_line_writes_them() {
    use tass_symbolic::api::BigRational;
    assert_eq!(FixedValue::parse("10"), Ok(FixedValue::Int(10.into())));
    assert_eq!(FixedValue::parse("-3"), Ok(FixedValue::Int((-3).into())));
    assert_eq!(
        FixedValue::parse("2.5"),
        Ok(FixedValue::Real(BigRational::new(5.into(), 2.into())))
    );
    assert_eq!(
        FixedValue::parse("-1e-3"),
        Ok(FixedValue::Real(BigRational::new((-1).into(), 1000.into())))
    );
    assert_eq!(FixedValue::parse("true"), Ok(FixedValue::Bool(true)));
    // A zero with a minus sign is IEEE's negative zero (for floating inputs).
    assert_eq!(FixedValue::parse("-0.0"), Ok(FixedValue::NegativeZero));
    assert_eq!(FixedValue::parse("-0"), Ok(FixedValue::NegativeZero));
    assert_eq!(FixedValue::parse("-0e5"), Ok(FixedValue::NegativeZero));
    assert_eq!(
        FixedValue::parse("0.0"),
        Ok(FixedValue::Real(BigRational::from_integer(0.into())))
    );
    assert_eq!(FixedValue::parse("0"), Ok(FixedValue::Int(0.into())));
    assert!(FixedValue::parse("ten")
        .unwrap_err()
        .contains("not a number"));
}
