//! The warning before a search that may not end: an integer input that a loop
//! tests, with no upper bound (not fixed by `-i`, not bounded above by its
//! constraint or by an assumption). A heuristic for the user's sake only: it
//! decides nothing, and misses loops bounded through a copy of the input.

use tass_model::api::{
    BinaryOp, Comparison, Expr, ExprKind, LocationKind, Model, Statement, VarId,
};

/// The names of the integer inputs of `model` that a loop condition reads and
/// nothing bounds above; `fixed` are the names given values by `-i`.
pub(crate) fn unbounded_loop_inputs(model: &Model, fixed: &[String]) -> Vec<String> {
    let mut bounds: Vec<&Expr> = Vec::new();
    let mut loop_guards: Vec<&Expr> = Vec::new();
    for f in &model.functions {
        let Some(body) = &f.body else { continue };
        for edge in body.graph.edge_indices() {
            let Some((from, _)) = body.graph.edge_endpoints(edge) else {
                continue;
            };
            let t = &body.graph[edge];
            if let Statement::Assume { condition } = &t.statement {
                bounds.push(condition);
            }
            if matches!(
                body.location(from).kind,
                LocationKind::LoopHead | LocationKind::ForLoopHead
            ) && body.location(from).invariants.is_empty()
            {
                // a loop with an invariant is explored once, whatever its count
                loop_guards.push(&t.guard);
            }
        }
    }
    model
        .inputs
        .iter()
        .map(|&v| model.var(v))
        .filter(|var| var.ty.is_integer() && !fixed.contains(&var.name))
        .filter(|var| loop_guards.iter().any(|g| reads(g, var.id)))
        .filter(|var| {
            let own = var.constraint.iter();
            !own.chain(bounds.iter().copied())
                .any(|e| bounds_above(e, var.id))
        })
        .map(|var| var.name.clone())
        .collect()
}

fn reads(e: &Expr, v: VarId) -> bool {
    let mut found = false;
    e.visit(&mut |x| found |= matches!(x.kind, ExprKind::Var(w) if w == v));
    found
}

fn is_var(e: &Expr, v: VarId) -> bool {
    match &e.kind {
        ExprKind::Var(w) => *w == v,
        ExprKind::Cast(inner) => is_var(inner, v),
        _ => false,
    }
}

/// Whether `e` holds a comparison that bounds `v` above (`v <= e`, `e > v`,
/// `v == e`, ...) anywhere in it.
fn bounds_above(e: &Expr, v: VarId) -> bool {
    let mut found = false;
    e.visit(&mut |x| {
        if let ExprKind::Binary(op, a, b) = &x.kind {
            found |= match op {
                BinaryOp::Compare(Comparison::Lt | Comparison::Le) => is_var(a, v),
                BinaryOp::Compare(Comparison::Gt | Comparison::Ge) => is_var(b, v),
                BinaryOp::Compare(Comparison::Eq) => is_var(a, v) || is_var(b, v),
                _ => false,
            };
        }
    });
    found
}
