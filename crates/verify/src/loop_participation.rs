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
//! Through calls: `I`'s head may be in a function `f` every path of the first
//! side calls from `main` (and every path of `f` meets the head) and that the
//! other side never calls, directly or through other functions; the loop
//! without an invariant may be in a function the other side calls and the
//! first side does not. A step that may end the process (`exit`, `abort`,
//! `MPI_Abort`, a call of a function that may reach one) ends a path without
//! meeting anything, so a process that may leave before the head is not
//! counted on to arrive.
//!
//! Then the processes on the other side never arrive at `I`'s head while the
//! processes on the first side wait there for them: the program cannot be
//! verified with the invariant as written, whatever the inputs.

use tass_model::api::{
    BinaryOp, Body, Callee, ExprKind, FunctionId, LibraryFunction, LocationId, LocationKind, Model,
    Statement, Transition, UnaryOp, VarId,
};
use tass_semantics::api::EngineError;

/// A collective invariant loop's head whose ID names no other loop.
#[derive(Clone, Copy)]
struct Head<'m> {
    id: &'m str,
    function: FunctionId,
    location: LocationId,
}

/// What the processes taking one side of the rank test can run: `main`'s
/// locations reachable from the side's first location (not passing the
/// test again), and the user functions called from there, transitively.
struct Side {
    start: LocationId,
    reach: Vec<LocationId>,
    calls: Vec<FunctionId>,
}

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
    let heads = unique_invariant_heads(model);
    if heads.is_empty() {
        return Ok(());
    }
    let ending = functions_that_may_end_the_process(model);
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
        let paths = Paths {
            body,
            ending: &ending,
        };
        if !paths.every_path_meets(body.entry, &|l, _| l == branch, None) {
            continue;
        }
        let sides = [side(model, body, t1, branch), side(model, body, t2, branch)];
        for head in &heads {
            for (mine, other) in [(&sides[0], &sides[1]), (&sides[1], &sides[0])] {
                if !must_arrive(model, &paths, mine, head, branch) || may_arrive(model, other, head)
                {
                    continue;
                }
                if let Some((function, l)) = plain_loop(model, body, mine, other) {
                    return Err(refusal(model, body, head, branch, (function, l)));
                }
            }
        }
    }
    Ok(())
}

/// The exit-2 error at the loop without the invariant (`function`, `l`).
fn refusal(
    model: &Model,
    body: &Body,
    head: &Head,
    branch: LocationId,
    (function, l): (FunctionId, LocationId),
) -> EngineError {
    let id = head.id;
    let at = &location_of(model, head.function, head.location).span;
    let test = &body.location(branch).span;
    let called = if function == model.main {
        String::new()
    } else {
        format!(
            " (in `{}`, which those processes call)",
            model.function(function).name
        )
    };
    let head_in = if head.function == model.main {
        String::new()
    } else {
        format!(" (in `{}`)", model.function(head.function).name)
    };
    EngineError::invalid(
        format!(
            "this loop{called} has no `#pragma TASS collective invariant {id}`, but the \
             processes that take the other side of the rank test at line {} run \
             the loop at line {}{head_in} with that invariant: every process must take part \
             in a collective invariant's loop. Give this loop `#pragma TASS \
             collective invariant {id} ...` (the same ID; the two loops then run \
             in step), or remove the invariant and bound the loops",
            test.start_line, at.start_line
        ),
        Some(&location_of(model, function, l).span),
    )
}

fn location_of(model: &Model, function: FunctionId, l: LocationId) -> &tass_model::api::Location {
    model
        .function(function)
        .body
        .as_ref()
        .expect("a location's function has a body")
        .location(l)
}

/// One side of the rank test starting at `start`.
fn side(model: &Model, body: &Body, start: LocationId, branch: LocationId) -> Side {
    let reach = reachable(body, start, branch);
    let direct: Vec<FunctionId> = reach
        .iter()
        .flat_map(|&l| body.outgoing(l))
        .filter_map(|(_, t, _)| called_user_function(t))
        .collect();
    Side {
        start,
        reach,
        calls: call_closure(model, direct),
    }
}

/// The user function `t` calls, if any.
fn called_user_function(t: &Transition) -> Option<FunctionId> {
    match &t.statement {
        Statement::Call {
            callee: Callee::User(g),
            ..
        } => Some(*g),
        _ => None,
    }
}

/// `roots` and every user function they call, transitively.
fn call_closure(model: &Model, roots: Vec<FunctionId>) -> Vec<FunctionId> {
    let mut seen = Vec::new();
    let mut todo = roots;
    while let Some(g) = todo.pop() {
        if seen.contains(&g) {
            continue;
        }
        seen.push(g);
        if let Some(b) = model.function(g).body.as_ref() {
            todo.extend(b.graph.edge_weights().filter_map(called_user_function));
        }
    }
    seen
}

/// True if every process taking side `mine` arrives at `head`: every path
/// of `main` from the side meets the head (in `main`) or a direct call of
/// the head's function, and (in the latter case) every path of that
/// function from its start meets the head.
fn must_arrive(model: &Model, paths: &Paths, mine: &Side, head: &Head, branch: LocationId) -> bool {
    if head.function == model.main {
        return paths.every_path_meets(mine.start, &|l, _| l == head.location, Some(branch));
    }
    let calls_head = |_: LocationId, t: Option<&Transition>| {
        t.and_then(called_user_function) == Some(head.function)
    };
    if !paths.every_path_meets(mine.start, &calls_head, Some(branch)) {
        return false;
    }
    let Some(f_body) = model.function(head.function).body.as_ref() else {
        return false;
    };
    let in_f = Paths {
        body: f_body,
        ending: paths.ending,
    };
    in_f.every_path_meets(f_body.entry, &|l, _| l == head.location, None)
}

/// True if a process taking side `other` may arrive at `head` (always, when
/// the head is in `main` and the side can call `main`).
fn may_arrive(model: &Model, other: &Side, head: &Head) -> bool {
    if head.function == model.main {
        other.reach.contains(&head.location) || other.calls.contains(&model.main)
    } else {
        other.calls.contains(&head.function)
    }
}

/// A loop head with no invariant that side `other` can run and side `mine`
/// cannot: in `main`, or in a function only `other` calls.
fn plain_loop(
    model: &Model,
    body: &Body,
    mine: &Side,
    other: &Side,
) -> Option<(FunctionId, LocationId)> {
    let plain = |b: &Body, l: LocationId| {
        let loc = b.location(l);
        matches!(loc.kind, LocationKind::LoopHead | LocationKind::ForLoopHead)
            && loc.invariants.is_empty()
    };
    if let Some(&l) = other
        .reach
        .iter()
        .find(|&&l| plain(body, l) && !mine.reach.contains(&l))
    {
        return Some((model.main, l));
    }
    other
        .calls
        .iter()
        .filter(|g| !mine.calls.contains(g) && **g != model.main)
        .find_map(|&g| {
            let b = model.function(g).body.as_ref()?;
            let l = b.graph.node_indices().find(|&l| plain(b, l))?;
            Some((g, l))
        })
}

/// The user functions a call of which may end the process (`exit`,
/// `abort`, `MPI_Abort`, directly or in a function they call).
fn functions_that_may_end_the_process(model: &Model) -> Vec<FunctionId> {
    let ends_directly = |g: &tass_model::api::Function| {
        g.body
            .as_ref()
            .is_some_and(|b| b.graph.edge_weights().any(ends_the_process))
    };
    let direct: Vec<FunctionId> = model
        .functions
        .iter()
        .filter(|g| ends_directly(g))
        .map(|g| g.id)
        .collect();
    model
        .functions
        .iter()
        .filter(|g| {
            call_closure(model, vec![g.id])
                .iter()
                .any(|h| direct.contains(h))
        })
        .map(|g| g.id)
        .collect()
}

/// True if `t` is a call of `exit`, `abort` or `MPI_Abort`.
fn ends_the_process(t: &Transition) -> bool {
    matches!(
        &t.statement,
        Statement::Call {
            callee: Callee::Library(
                LibraryFunction::Exit | LibraryFunction::Abort | LibraryFunction::MpiAbort
            ),
            ..
        }
    )
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

/// The heads of the model's collective invariant loops whose ID names no
/// other loop of the model.
fn unique_invariant_heads(model: &Model) -> Vec<Head<'_>> {
    let all: Vec<Head> = model
        .functions
        .iter()
        .filter_map(|g| Some((g.id, g.body.as_ref()?)))
        .flat_map(|(function, b)| {
            b.graph.node_indices().filter_map(move |l| {
                let inv = b.location(l).invariants.first()?;
                Some(Head {
                    id: inv.id.as_str(),
                    function,
                    location: l,
                })
            })
        })
        .collect();
    all.iter()
        .filter(|h| all.iter().filter(|o| o.id == h.id).count() == 1)
        .copied()
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

/// Path questions on one function's graph; a step that may end the
/// process (`exit`, `abort`, `MPI_Abort`, a call of a function that may)
/// counts as the end of a path.
struct Paths<'a> {
    body: &'a Body,
    ending: &'a [FunctionId],
}

impl Paths<'_> {
    /// True if every path from `from` meets a target (a location, or a step
    /// out of it: `target(l, None)`, `target(l, Some(t))`) before it ends
    /// (and before it comes back to `back`, if given).
    fn every_path_meets(
        &self,
        from: LocationId,
        target: &dyn Fn(LocationId, Option<&Transition>) -> bool,
        back: Option<LocationId>,
    ) -> bool {
        let mut seen = vec![from];
        let mut todo = vec![from];
        while let Some(at) = todo.pop() {
            if target(at, None) {
                continue;
            }
            if Some(at) == back {
                return false;
            }
            let mut out = self.body.outgoing(at).peekable();
            if out.peek().is_none() {
                return false;
            }
            for (_, t, to) in out {
                if target(at, Some(t)) {
                    continue;
                }
                let ends = ends_the_process(t)
                    || called_user_function(t).is_some_and(|g| self.ending.contains(&g));
                if ends {
                    return false;
                }
                if !seen.contains(&to) {
                    seen.push(to);
                    todo.push(to);
                }
            }
        }
        true
    }
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
            let BinaryOp::Compare(c) = op else {
                return None;
            };
            Bool(c.holds(x, y))
        }
        _ => return None,
    })
}
