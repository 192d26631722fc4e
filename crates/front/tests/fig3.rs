//! The paper's Fig. 3 programs (array sum, sequential and MPI), rewritten in
//! tests/data/, translate; their inputs B, n, a and output sum are in the
//! model and in `tass show`'s text.

use std::path::PathBuf;
use tass_front::api::*;
use tass_model::api::*;

fn load(name: &str) -> Model {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data")
        .join(name);
    load_program(&[path], &FrontOptions::default()).unwrap_or_else(|d| panic!("{d}"))
}

fn check_signature(model: &Model) {
    let inputs: Vec<&str> = model
        .inputs
        .iter()
        .map(|&v| model.var(v).name.as_str())
        .collect();
    assert_eq!(inputs, ["B", "n", "a"]);
    let outputs: Vec<&str> = model
        .outputs
        .iter()
        .map(|&v| model.var(v).name.as_str())
        .collect();
    assert_eq!(outputs, ["sum"]);
    let b = model.global_by_name("B").unwrap();
    assert!(b.from_macro && b.ty == Type::INT && b.constraint.is_none());
    let n = model.global_by_name("n").unwrap();
    assert!(n.from_macro);
    assert_eq!(
        render_expr(model, n.constraint.as_ref().unwrap()),
        "n >= 0 && n <= B"
    );
    let a = model.global_by_name("a").unwrap();
    assert_eq!(render_decl(model, &a.ty, &a.name), "double a[n]");
    let text = render_model(model);
    for line in [
        "input int B (macro)",
        "input int n (macro) {n >= 0 && n <= B}",
        "input double a[n]",
        "output double sum",
    ] {
        assert!(text.contains(line), "missing `{line}` in\n{text}");
    }
}

#[test]
fn sequential_adder_translates() {
    let m = load("adder_seq.c");
    check_signature(&m);
    assert!(!m.uses_mpi);
    let main = m.function(m.main);
    assert_eq!(main.name, "main");
    let body = main.body.as_ref().unwrap();
    let heads = body
        .graph
        .node_indices()
        .filter(|&l| body.location(l).kind == LocationKind::ForLoopHead)
        .count();
    assert_eq!(heads, 1);
}

#[test]
fn parallel_adder_translates() {
    let m = load("adder_par.c");
    check_signature(&m);
    assert!(m.uses_mpi);
    assert!(m.mpi_status_struct.is_some());
    let text = render_model(&m);
    assert!(text.contains(
        "call MPI_Recv(&incoming, 1, MPI_DOUBLE, src, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE)"
    ));
    assert!(text.contains("call MPI_Send(&partial, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD)"));
    assert!(text.contains("sum = call collect()"));
    // every path of every function ends in a return
    for f in &m.functions {
        let body = f.body.as_ref().unwrap();
        for l in body.graph.node_indices() {
            let loc = body.location(l);
            let out = body.outgoing(l).count();
            if loc.kind == LocationKind::Exit {
                assert_eq!(out, 0);
            } else if out == 0 {
                panic!("location L{} of {} is a dead end", l.index(), f.name);
            }
        }
    }
}
