//! Before a run with several processes: a loop that *corresponds* to a
//! collective invariant loop of other processes but has no invariant itself
//! is refused (exit 2) at its position, instead of a violation or a timeout
//! at run time. Collective loop invariants need every process to take part
//! in the loop (each arrival is composed over all processes).
//!
//! "Corresponding" is defined conservatively (docs/pragmas.md), so that no
//! program that could verify is refused. In `main`:
//!
//! - `r` is set once, by `MPI_Comm_rank(MPI_COMM_WORLD, &r)`, and never
//!   assigned or address-taken elsewhere;
//! - a two-way branch `B` tests `r` only, against integer constants, and with
//!   the given number of processes some ranks take each side;
//! - every path from `main`'s start to its end passes `B` (every process that
//!   ends reaches it);
//! - on one side, the head of a loop with a collective invariant `I` is met on
//!   every path that leaves that side (so each process taking it runs the
//!   loop), `I` names no other loop of the program, and the head cannot be
//!   reached from the other side;
//! - the other side has a loop (a head not reachable from the first side)
//!   with no invariant.
//!
//! Then the processes on the other side never arrive at `I`'s head while the
//! processes on the first side wait there for them: the program cannot be
//! verified with the invariant as written, whatever the inputs.

use tass_model::api::{
    BinaryOp, Body, Callee, ExprKind, LocationId, LocationKind, Model, Statement, UnaryOp, VarId,
};
use tass_semantics::api::EngineError;

/// Refuses a loop without an invariant that corresponds (see the module
/// documentation) to another process's collective invariant loop.
pub(crate) fn check_every_process_takes_part(
    model: &Model,
    nprocs: usize,
) -> Result<(), EngineError> {
    if nprocs < 2 {
        return Ok(());
    }
    let Some(body) = model.function(model.main).body.as_ref() else {
        return Ok(());
    };
    let Some(rank) = rank_variable(body) else {
        return Ok(());
    };
    let heads = unique_invariant_heads(model, body);
    if heads.is_empty() {
        return Ok(());
    }
    for branch in body.graph.node_indices() {
        let edges: Vec<_> = body.outgoing(branch).collect();
        let [(_, first, t1), (_, _, t2)] = edges[..] else {
            continue;
        };
        let outcomes: Option<Vec<bool>> = (0..nprocs)
            .map(|r| eval_rank_test(&first.guard, rank, r as i128)?.as_bool())
            .collect();
        let Some(outcomes) = outcomes else { continue };
        if !(outcomes.contains(&true) && outcomes.contains(&false)) {
            continue;
        }
        if !every_path_meets(body, body.entry, branch, None) {
            continue;
        }
        let reach1 = reachable(body, t1, branch);
        let reach2 = reachable(body, t2, branch);
        for &(id, head) in &heads {
            for (side, mine, other) in [(t1, &reach1, &reach2), (t2, &reach2, &reach1)] {
                if !mine.contains(&head)
                    || other.contains(&head)
                    || !every_path_meets(body, side, head, Some(branch))
                {
                    continue;
                }
                let plain_loop = other.iter().copied().find(|&l| {
                    let loc = body.location(l);
                    matches!(loc.kind, LocationKind::LoopHead | LocationKind::ForLoopHead)
                        && loc.invariants.is_empty()
                        && !mine.contains(&l)
                });
                if let Some(l) = plain_loop {
                    let at = &body.location(head).span;
                    let test = &body.location(branch).span;
                    return Err(EngineError::invalid(
                        format!(
                            "this loop has no `#pragma TASS collective invariant {id}`, but the \
                             processes that take the other side of the rank test at line {} run \
                             the loop at line {} with that invariant: every process must take part \
                             in a collective invariant's loop. Give this loop `#pragma TASS \
                             collective invariant {id} ...` (the same ID; the two loops then run \
                             in step), or remove the invariant and bound the loops",
                            test.start_line, at.start_line
                        ),
                        Some(&body.location(l).span),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The variable `main` sets by `MPI_Comm_rank(MPI_COMM_WORLD, &r)` and in no
/// other way (assigned or address-taken nowhere else).
fn rank_variable(body: &Body) -> Option<VarId> {
    let mut found = None;
    let mut other_uses = Vec::new();
    for t in body.graph.edge_weights() {
        match &t.statement {
            Statement::Call {
                callee: Callee::Library(lf),
                args,
                ..
            } if lf.c_name() == "MPI_Comm_rank" => {
                let world = args.first().is_some_and(|c| {
                    matches!(&c.kind, ExprKind::LibraryConstant(k) if k.c_name() == "MPI_COMM_WORLD")
                });
                match args.get(1).map(|a| &a.kind) {
                    Some(ExprKind::AddressOf(x)) if world && found.is_none() => match x.kind {
                        ExprKind::Var(v) => found = Some(v),
                        _ => return None,
                    },
                    _ => return None,
                }
            }
            _ => {}
        }
        // Every written variable and every `&v` counts as a use besides the
        // one `&r` of the MPI_Comm_rank call.
        let (written, exprs): (Option<&tass_model::api::Expr>, Vec<&tass_model::api::Expr>) =
            match &t.statement {
                Statement::Assign { lhs, rhs } => (Some(lhs), vec![lhs, rhs]),
                Statement::Call { lhs, args, .. } => {
                    (lhs.as_ref(), lhs.iter().chain(args.iter()).collect())
                }
                _ => (None, Vec::new()),
            };
        if let Some(ExprKind::Var(v)) = written.map(|e| &e.kind) {
            other_uses.push(*v);
        }
        for e in exprs {
            e.visit(&mut |x| {
                if let ExprKind::AddressOf(inner) = &x.kind {
                    if let ExprKind::Var(v) = inner.kind {
                        other_uses.push(v);
                    }
                }
            });
        }
    }
    let rank = found?;
    // the one `&r` is the MPI_Comm_rank argument itself
    let taken = other_uses.iter().filter(|&&v| v == rank).count();
    (taken == 1).then_some(rank)
}

/// The heads of `main`'s collective invariant loops whose ID names no other
/// loop of the model.
fn unique_invariant_heads<'m>(model: &'m Model, body: &'m Body) -> Vec<(&'m str, LocationId)> {
    let count = |id: &str| -> usize {
        model
            .functions
            .iter()
            .filter_map(|f| f.body.as_ref())
            .flat_map(|b| b.graph.node_weights())
            .filter(|l| l.invariants.iter().any(|inv| inv.id == id))
            .count()
    };
    body.graph
        .node_indices()
        .filter_map(|l| {
            let inv = body.location(l).invariants.first()?;
            (count(&inv.id) == 1).then_some((inv.id.as_str(), l))
        })
        .collect()
}

/// The locations reachable from `from` without passing `avoid`.
fn reachable(body: &Body, from: LocationId, avoid: LocationId) -> Vec<LocationId> {
    let mut seen = vec![from];
    let mut todo = vec![from];
    while let Some(at) = todo.pop() {
        if at == avoid {
            continue;
        }
        for (_, _, to) in body.outgoing(at) {
            if !seen.contains(&to) {
                seen.push(to);
                todo.push(to);
            }
        }
    }
    seen.retain(|&l| l != avoid);
    seen
}

/// True if every path from `from` meets `target` before it ends (and before
/// it comes back to `back`, if given).
fn every_path_meets(
    body: &Body,
    from: LocationId,
    target: LocationId,
    back: Option<LocationId>,
) -> bool {
    if from == target {
        return true;
    }
    let mut seen = vec![from];
    let mut todo = vec![from];
    while let Some(at) = todo.pop() {
        if Some(at) == back {
            return false;
        }
        let mut out = body.outgoing(at).peekable();
        if out.peek().is_none() {
            return false;
        }
        for (_, _, to) in out {
            if to != target && !seen.contains(&to) {
                seen.push(to);
                todo.push(to);
            }
        }
    }
    true
}

/// A constant value of a rank test.
#[derive(Clone, Copy)]
enum Constant {
    Int(i128),
    Bool(bool),
}

impl Constant {
    fn as_bool(self) -> Option<bool> {
        match self {
            Constant::Bool(b) => Some(b),
            Constant::Int(_) => None,
        }
    }
}

/// The value of `e` when `rank` is `r`, if `e` reads nothing but `rank` and
/// integer constants (comparisons, `!`, `&&`, `||`, conversions).
fn eval_rank_test(e: &tass_model::api::Expr, rank: VarId, r: i128) -> Option<Constant> {
    use Constant::{Bool, Int};
    Some(match &e.kind {
        ExprKind::IntLit(c) => Int(*c),
        ExprKind::BoolLit(b) => Bool(*b),
        ExprKind::Var(v) if *v == rank => Int(r),
        ExprKind::Cast(x) => match eval_rank_test(x, rank, r)? {
            Int(c) if matches!(e.ty, tass_model::api::Type::Bool) => Bool(c != 0),
            other => other,
        },
        ExprKind::Unary(UnaryOp::Not, x) => Bool(!eval_rank_test(x, rank, r)?.as_bool()?),
        ExprKind::LogicalAnd(a, b) => {
            Bool(eval_rank_test(a, rank, r)?.as_bool()? && eval_rank_test(b, rank, r)?.as_bool()?)
        }
        ExprKind::LogicalOr(a, b) => {
            Bool(eval_rank_test(a, rank, r)?.as_bool()? || eval_rank_test(b, rank, r)?.as_bool()?)
        }
        ExprKind::Binary(op, a, b) => {
            let (Int(x), Int(y)) = (eval_rank_test(a, rank, r)?, eval_rank_test(b, rank, r)?)
            else {
                return None;
            };
            Bool(match op {
                BinaryOp::Eq => x == y,
                BinaryOp::Ne => x != y,
                BinaryOp::Lt => x < y,
                BinaryOp::Le => x <= y,
                BinaryOp::Gt => x > y,
                BinaryOp::Ge => x >= y,
                _ => return None,
            })
        }
        _ => return None,
    })
}
