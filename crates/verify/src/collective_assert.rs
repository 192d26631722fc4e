//! Checks of the collective and joint assertion pragmas made before a search:
//! what the engine cannot give a meaning to is bad input (exit 2) with its
//! position, not a failure halfway through the search.
//!
//! The engine (`tass_state`) takes the snapshots and checks the assertions;
//! joint assertions are ignored by `tass verify` (they only label points of a
//! comparison).

use std::collections::HashMap;

use tass_model::api::{render_expr, CollectiveKind, Expr, ExprKind, Model, Span, Statement};
use tass_semantics::api::EngineError;
use tass_state::api::{Engine, ProcessStatus, State};

/// Which command the model is checked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Command {
    Verify,
    /// The implementation of a `tass compare`.
    Compare,
    /// The specification of a `tass compare`.
    CompareSpec,
}

/// The pragma expressions of `model` with where they may use `PROC[e]` and
/// `spec.x`: `(expression, in a collective/joint assertion, kind)`.
fn pragma_expressions(model: &Model) -> Vec<(&Expr, Option<CollectiveKind>)> {
    let mut out = Vec::new();
    for f in &model.functions {
        let Some(body) = &f.body else { continue };
        for t in body.graph.edge_weights() {
            out.push((&t.guard, None));
            match &t.statement {
                Statement::CollectiveAssert {
                    kind, condition, ..
                } => out.push((condition, Some(*kind))),
                Statement::Assert { condition, .. } | Statement::Assume { condition } => {
                    out.push((condition, None))
                }
                _ => {}
            }
        }
    }
    out
}

/// Refuses an ID given to collective assertions with different expressions:
/// one ID is one assertion. A pragma whose expression is the constant `1` or
/// `true` only marks where a process takes part (the root's `C true` in the
/// paper's wildcard gather) and may share any ID.
fn check_ids(model: &Model) -> Result<(), EngineError> {
    let mut first: HashMap<(&str, CollectiveKind), (String, &Span)> = HashMap::new();
    for f in &model.functions {
        let Some(body) = &f.body else { continue };
        let mut edges: Vec<_> = body.graph.edge_indices().collect();
        edges.sort_by_key(|e| e.index());
        for e in edges {
            let t = body.transition(e);
            let Statement::CollectiveAssert {
                id,
                kind,
                condition,
            } = &t.statement
            else {
                continue;
            };
            if is_label(condition) {
                continue;
            }
            let text = render_expr(model, condition);
            match first.get(&(id.as_str(), *kind)) {
                None => {
                    first.insert((id.as_str(), *kind), (text, &t.span));
                }
                Some((earlier, at)) if *earlier != text => {
                    return Err(EngineError::invalid(
                        format!(
                            "the {} assertion `{id}` is given another expression at {at} \
                             (`{earlier}`, here `{text}`): one ID names one assertion; give this \
                             one its own ID, or write the same expression (or `1` where a \
                             process only takes part)",
                            kind.keyword()
                        ),
                        Some(&t.span),
                    ))
                }
                Some(_) => {}
            }
        }
    }
    Ok(())
}

/// The constant `1` or `true`: a pragma that only marks a point.
fn is_label(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::BoolLit(true) | ExprKind::IntLit(1) => true,
        ExprKind::Cast(inner) => is_label(inner),
        _ => false,
    }
}

/// Refuses what `command` cannot check: an ID with different expressions,
/// `spec.x` outside joint assertions, `PROC[e]` outside collective and joint
/// assertions or with a constant `e` that names no process, and joint
/// assertions in `tass compare` (not implemented yet).
pub(crate) fn check_pragmas(
    model: &Model,
    command: Command,
    nprocs: usize,
) -> Result<(), EngineError> {
    check_ids(model)?;
    for (e, kind) in pragma_expressions(model) {
        if command == Command::CompareSpec && kind == Some(CollectiveKind::Joint) && !is_label(e) {
            return Err(EngineError::invalid(
                "a joint assertion of the specification only marks a point (the \
                 implementation's joint assertions state the relation, with `spec.x`): write \
                 `true` here",
                Some(&e.span),
            ));
        }
        let mut problem: Option<(String, tass_model::api::Span)> = None;
        e.visit(&mut |x| {
            if problem.is_some() {
                return;
            }
            match &x.kind {
                ExprKind::SpecVar(name) if kind != Some(CollectiveKind::Joint) => {
                    problem = Some((
                        format!(
                            "`spec.{name}` names a variable of the specification, which only \
                             joint assertions in `tass compare` have: use `PROC[e].{name}` in a \
                             collective assertion, or move it into a `#pragma TASS joint assert`"
                        ),
                        x.span.clone(),
                    ));
                }
                ExprKind::RemoteVar { .. } if kind.is_none() => {
                    problem = Some((
                        "PROC[e].x is allowed only in collective and joint assertions (their \
                         composite state has every process's snapshot): move it into a \
                         `#pragma TASS collective assert`"
                            .into(),
                        x.span.clone(),
                    ));
                }
                ExprKind::RemoteVar { rank, .. } => {
                    if let ExprKind::IntLit(r) = rank.kind {
                        if r < 0 || r >= nprocs as i128 {
                            problem = Some((
                                format!(
                                    "PROC[{r}] names no process: ranks run from 0 to {} with {} \
                                     process(es) (-n)",
                                    nprocs.saturating_sub(1),
                                    nprocs
                                ),
                                rank.span.clone(),
                            ));
                        }
                    }
                }
                _ => {}
            }
        });
        if let Some((message, span)) = problem {
            return Err(EngineError::invalid(message, Some(&span)));
        }
    }
    Ok(())
}

/// True if a running process other than `p` has fewer snapshots queued than
/// `p`, so that the local fast path should not keep `p` running (the reduction
/// then chooses among all processes it may take alone, those behind first).
pub(crate) fn others_queue_less(engine: &Engine, state: &State, p: usize) -> bool {
    let mine = state.snapshot_queue_len(p);
    mine > 0
        && engine
            .process_status(state)
            .iter()
            .enumerate()
            .any(|(q, status)| {
                q != p
                    && matches!(status, ProcessStatus::Running { .. })
                    && state.snapshot_queue_len(q) < mine
            })
}

/// The joint assertion IDs of `model`, with the first place of each.
fn joint_ids(model: &Model) -> Vec<(&str, &Span)> {
    let mut out: Vec<(&str, &Span)> = Vec::new();
    for f in &model.functions {
        let Some(body) = &f.body else { continue };
        for t in body.graph.edge_weights() {
            let (id, at) = match &t.statement {
                Statement::CollectiveAssert {
                    id,
                    kind: CollectiveKind::Joint,
                    ..
                } => (id, &t.span),
                Statement::LoopInvariant(inv) if inv.kind == CollectiveKind::Joint => {
                    (&inv.id, &inv.span)
                }
                _ => continue,
            };
            if !out.iter().any(|(known, _)| known == id) {
                out.push((id.as_str(), at));
            }
        }
    }
    out
}

/// `tass compare`: whether joint assertions are to be checked (either program
/// has one). Refuses an implementation ID the specification does not have,
/// and a specification run by several processes (the implementation's
/// `spec.x` names one process's variable).
pub(crate) fn check_joint_pragmas(
    spec: &Model,
    imp: &Model,
    spec_procs: usize,
) -> Result<bool, EngineError> {
    let (in_spec, in_impl) = (joint_ids(spec), joint_ids(imp));
    for (id, at) in &in_impl {
        if !in_spec.iter().any(|(known, _)| known == id) {
            let known: Vec<&str> = in_spec.iter().map(|(k, _)| *k).collect();
            return Err(EngineError::invalid(
                format!(
                    "unknown joint assertion ID `{id}`: the specification has no `#pragma TASS \
                     joint assert {id} ...` or `joint invariant {id} ...` (its joint IDs: {}); \
                     add one where the specification reaches the matching point (the matching \
                     loop, for an invariant)",
                    if known.is_empty() {
                        "none".to_string()
                    } else {
                        known.join(", ")
                    }
                ),
                Some(at),
            ));
        }
    }
    // A joint invariant loop of the specification runs in step with the
    // implementation's loop of the same ID: without one, every iteration of
    // the specification would be out of step.
    for f in &spec.functions {
        let Some(body) = &f.body else { continue };
        for t in body.graph.edge_weights() {
            let Statement::LoopInvariant(inv) = &t.statement else {
                continue;
            };
            if inv.kind == CollectiveKind::Joint
                && !in_impl.iter().any(|(known, _)| *known == inv.id)
            {
                return Err(EngineError::invalid(
                    format!(
                        "joint loop invariant `{}`: the implementation has no loop with \
                         `#pragma TASS joint invariant {} ...`; the two programs' loops run in \
                         step, so give the implementation's corresponding loop one (to summarise \
                         the specification's loop alone, check it with `tass verify` and a \
                         collective invariant)",
                        inv.id, inv.id
                    ),
                    Some(&inv.span),
                ));
            }
        }
    }
    let joint = !in_spec.is_empty() || !in_impl.is_empty();
    if joint && spec_procs != 1 {
        let at = in_spec.first().or(in_impl.first()).map(|(_, at)| *at);
        return Err(EngineError::invalid(
            "joint assertions need a specification run by one process (--spec-procs 1): \
             `spec.x` names that process's variable",
            at,
        ));
    }
    Ok(joint)
}
