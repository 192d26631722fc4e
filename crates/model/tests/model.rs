//! Model-level checks: names of library functions and constants, expression
//! printing (precedence), body navigation.

use tass_model::api::*;

fn sp() -> Span {
    Span::point("t.c".into(), 1, 1)
}

fn model_with_vars(names: &[&str]) -> Model {
    let mut m = ModelBuilder::new("t.c");
    for n in names {
        m.var(n, Type::INT, VarScope::ProcessGlobal);
    }
    m.finish(FunctionId(0))
}

fn var(i: u32) -> Expr {
    Expr::new(ExprKind::Var(VarId(i)), Type::INT, sp())
}

fn bin(op: BinaryOp, a: Expr, b: Expr) -> Expr {
    Expr::new(
        ExprKind::Binary(op, Box::new(a), Box::new(b)),
        Type::INT,
        sp(),
    )
}

#[test]
fn library_names_round_trip() {
    for f in LibraryFunction::ALL {
        assert_eq!(LibraryFunction::from_c_name(f.c_name()), Some(*f));
    }
    for c in LibraryConstant::ALL {
        assert_eq!(LibraryConstant::from_c_name(c.c_name()), Some(*c));
    }
    assert_eq!(LibraryFunction::from_c_name("MPI_Nonexistent"), None);
}

#[test]
fn every_mpi_function_of_the_mpi_issue_is_named() {
    let wanted = "MPI_Init MPI_Finalize MPI_Comm_rank MPI_Comm_size MPI_Send MPI_Ssend MPI_Bsend \
        MPI_Rsend MPI_Recv MPI_Sendrecv MPI_Sendrecv_replace MPI_Probe MPI_Iprobe MPI_Isend \
        MPI_Irecv MPI_Wait MPI_Waitall MPI_Waitany MPI_Test MPI_Testall MPI_Request_free \
        MPI_Get_count MPI_Barrier MPI_Bcast MPI_Reduce MPI_Allreduce MPI_Gather MPI_Gatherv \
        MPI_Scatter MPI_Scatterv MPI_Allgather MPI_Allgatherv MPI_Alltoall MPI_Alltoallv MPI_Scan \
        MPI_Exscan MPI_Reduce_scatter MPI_Ibarrier MPI_Ibcast MPI_Ireduce MPI_Iallreduce \
        MPI_Igather MPI_Iscatter MPI_Iallgather MPI_Ialltoall MPI_Comm_dup MPI_Comm_split \
        MPI_Comm_free MPI_Abort MPI_Wtime";
    for name in wanted.split_whitespace() {
        let f = LibraryFunction::from_c_name(name).unwrap_or_else(|| panic!("{name}"));
        assert!(f.is_mpi());
    }
    let constants = "MPI_COMM_WORLD MPI_ANY_SOURCE MPI_ANY_TAG MPI_STATUS_IGNORE \
        MPI_STATUSES_IGNORE MPI_PROC_NULL MPI_REQUEST_NULL MPI_SUCCESS MPI_INT MPI_LONG MPI_FLOAT \
        MPI_DOUBLE MPI_CHAR MPI_BYTE MPI_UNSIGNED MPI_LONG_LONG MPI_DOUBLE_INT MPI_2INT MPI_SUM \
        MPI_PROD MPI_MIN MPI_MAX MPI_LAND MPI_LOR MPI_BAND MPI_BOR MPI_MAXLOC MPI_MINLOC";
    for name in constants.split_whitespace() {
        assert!(LibraryConstant::from_c_name(name).is_some(), "{name}");
    }
    assert!(LibraryFunction::Sqrt.is_pure_math());
    assert!(!LibraryFunction::Printf.is_pure_math());
}

#[test]
fn expressions_print_with_minimal_parentheses() {
    let m = model_with_vars(&["a", "b", "c"]);
    let sum = bin(BinaryOp::Add, var(0), var(1));
    assert_eq!(
        render_expr(&m, &bin(BinaryOp::Mul, sum.clone(), var(2))),
        "(a + b) * c"
    );
    assert_eq!(
        render_expr(&m, &bin(BinaryOp::Add, var(2), sum.clone())),
        "c + (a + b)"
    );
    assert_eq!(
        render_expr(&m, &bin(BinaryOp::Add, sum.clone(), var(2))),
        "a + b + c"
    );
    let lt = Expr::new(
        ExprKind::Binary(
            BinaryOp::Compare(Comparison::Lt),
            Box::new(var(0)),
            Box::new(var(1)),
        ),
        Type::Bool,
        sp(),
    );
    assert_eq!(render_expr(&m, &lt.clone().negated()), "!(a < b)");
    let and = Expr::new(
        ExprKind::LogicalAnd(Box::new(lt.clone()), Box::new(lt)),
        Type::Bool,
        sp(),
    );
    assert_eq!(render_expr(&m, &and), "a < b && a < b");
    assert_eq!(
        render_decl(
            &m,
            &Type::Array(Box::new(Type::DOUBLE), Some(Box::new(var(2)))),
            "u"
        ),
        "double u[c]"
    );
}

#[test]
fn body_outgoing_lists_edges_in_both_orders() {
    let mut graph = BodyGraph::new();
    let loc = |kind| Location {
        kind,
        span: sp(),
        invariants: vec![],
    };
    let head = graph.add_node(loc(LocationKind::LoopHead));
    let body = graph.add_node(loc(LocationKind::Plain));
    let exit = graph.add_node(loc(LocationKind::Exit));
    let c = Expr::new(
        ExprKind::Binary(
            BinaryOp::Compare(Comparison::Lt),
            Box::new(var(0)),
            Box::new(var(1)),
        ),
        Type::Bool,
        sp(),
    );
    let t = |guard: Expr, statement| Transition {
        guard,
        statement,
        span: sp(),
        source_text: String::new(),
    };
    graph.add_edge(head, body, t(c.clone(), Statement::Noop));
    graph.add_edge(
        head,
        exit,
        t(c.negated(), Statement::Return { value: None }),
    );
    graph.add_edge(body, head, t(Expr::true_at(sp()), Statement::Noop));
    let b = Body { graph, entry: head };
    let targets: Vec<LocationId> = b.outgoing_in_order(head).iter().map(|e| e.2).collect();
    assert_eq!(targets, [body, exit]);
    let mut unordered: Vec<LocationId> = b.outgoing(head).map(|e| e.2).collect();
    unordered.sort();
    assert_eq!(unordered, [body, exit]);
    assert_eq!(b.outgoing(exit).count(), 0);
    assert_eq!(b.location_count(), 3);
}
