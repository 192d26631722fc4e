//! Which program steps may change the value of an atom of an `ltl` formula
//! (*visible* steps): the partial-order reduction of the product search
//! (`product.rs`) explores one process alone only through invisible steps.
//!
//! Conservative by construction: a step is invisible only when its
//! transition provably writes none of the memory a condition atom reads and
//! cannot move the process onto or off a location atom's label or end it.
//!
//! - `{EXPR}` atoms read variables: a plain `x` is process 0's copy (the
//!   atom is evaluated as process 0 sees the state), `PROC[e].x` and
//!   `PROC[e]@f.x` process `e`'s (any process when `e` is not a constant);
//!   inputs are read-only. An atom reading through a pointer (`*p`, `p[i]`
//!   with `p` a pointer) reads anything of its process. A step of such a
//!   process is visible unless it is a `Noop`, `Assert`, `Assume`, or a
//!   `Declare`/`Assign` whose target's base variable is not read by an atom
//!   of that process (a target through a pointer is visible). Calls, returns
//!   and library (MPI) calls of such a process are visible: they write
//!   parameters, results and buffers.
//! - `PROC[e]@LABEL` changes only when process `e`'s top frame enters or
//!   leaves the label's location: a step of `e` leaving or entering it, and
//!   every call and return of `e` (the top frame changes), are visible.
//! - `PROC[e]@terminated` changes only when `e` ends: every step of `e`
//!   other than an assignment, declaration, check or `Noop` is visible.

use tass_model::api::{
    Callee, Expr as ModelExpr, ExprKind, FunctionId, LocationId, LtlAtom, Model, Statement, VarId,
};
use tass_state::api::Step;

/// A process an atom names: one rank, or any.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rank {
    One(usize),
    Any,
}

impl Rank {
    fn of(e: &ModelExpr) -> Rank {
        match e.kind {
            ExprKind::IntLit(r) if r >= 0 => Rank::One(r as usize),
            _ => Rank::Any,
        }
    }

    fn covers(self, process: usize) -> bool {
        match self {
            Rank::One(r) => r == process,
            Rank::Any => true,
        }
    }
}

/// What the atoms of one formula read.
#[derive(Debug, Default)]
pub(crate) struct Visibility {
    /// Variables condition atoms read, with the process whose copy.
    reads: Vec<(Rank, VarId)>,
    /// Processes whose memory a condition atom reads through a pointer.
    reads_anything: Vec<Rank>,
    /// Processes some condition atom reads at all (calls, returns and
    /// library calls of these are visible).
    readers: Vec<Rank>,
    /// Location atoms: process, function, location (`None`: unknown, every
    /// step of the process is visible).
    at: Vec<(Rank, FunctionId, Option<LocationId>)>,
    /// `PROC[e]@terminated` atoms.
    terminated: Vec<Rank>,
}

impl Visibility {
    pub(crate) fn new(atoms: &[LtlAtom]) -> Visibility {
        let mut v = Visibility::default();
        for atom in atoms {
            match atom {
                LtlAtom::Condition(c) => v.note_condition(c),
                LtlAtom::At {
                    rank,
                    function,
                    location,
                    ..
                } => v.at.push((Rank::of(rank), *function, *location)),
                LtlAtom::Terminated { rank } => v.terminated.push(Rank::of(rank)),
            }
        }
        v
    }

    fn note_condition(&mut self, c: &ModelExpr) {
        c.visit(&mut |x| match &x.kind {
            ExprKind::Var(var) => {
                self.reads.push((Rank::One(0), *var));
                self.readers.push(Rank::One(0));
            }
            ExprKind::RemoteVar { rank, var, .. } => {
                let r = Rank::of(rank);
                self.reads.push((r, *var));
                self.readers.push(r);
            }
            ExprKind::Deref(_) => {
                // Whose pointer: process 0's unless it is a remote one; any
                // process, to stay on the safe side.
                self.reads_anything.push(Rank::Any);
                self.readers.push(Rank::Any);
            }
            _ => {}
        });
    }

    /// Whether `step` may change the value of an atom.
    pub(crate) fn visible(&self, model: &Model, step: &Step) -> bool {
        let p = step.process;
        let Some(body) = model.function(step.function).body.as_ref() else {
            return true;
        };
        let transition = body.transition(step.transition);
        let Some((from, to)) = body.graph.edge_endpoints(step.transition) else {
            return true;
        };
        let frame_change = matches!(
            transition.statement,
            Statement::Call {
                callee: Callee::User(_),
                ..
            } | Statement::Return { .. }
        );
        for &(rank, function, location) in &self.at {
            if !rank.covers(p) {
                continue;
            }
            match location {
                None => return true,
                Some(l) => {
                    if frame_change || (step.function == function && (from == l || to == l)) {
                        return true;
                    }
                }
            }
        }
        let plain = matches!(
            transition.statement,
            Statement::Noop
                | Statement::Assert { .. }
                | Statement::Assume { .. }
                | Statement::Assign { .. }
                | Statement::Declare { .. }
        );
        if self.terminated.iter().any(|r| r.covers(p)) && (!plain || step.request.is_some()) {
            return true;
        }
        if !self.readers.iter().any(|r| r.covers(p)) {
            return false;
        }
        if step.request.is_some() {
            return true;
        }
        match &transition.statement {
            Statement::Noop | Statement::Assert { .. } | Statement::Assume { .. } => false,
            Statement::Declare { var } => self.reads_var(p, var),
            Statement::Assign { lhs, .. } => match base_variable(lhs) {
                Some(var) => self.reads_var(p, &var),
                None => true,
            },
            _ => true,
        }
    }

    fn reads_var(&self, process: usize, var: &VarId) -> bool {
        self.reads_anything.iter().any(|r| r.covers(process))
            || self
                .reads
                .iter()
                .any(|(r, v)| v == var && r.covers(process))
    }
}

/// The variable an lvalue writes into, when it is one of the process's own
/// named variables (through indices and fields, never through a pointer).
fn base_variable(lhs: &ModelExpr) -> Option<VarId> {
    match &lhs.kind {
        ExprKind::Var(v) => Some(*v),
        ExprKind::Index(base, _) | ExprKind::Field(base, _) => {
            // An index of a pointer is a write through it.
            if matches!(base.ty, tass_model::api::Type::Pointer(_)) {
                None
            } else {
                base_variable(base)
            }
        }
        _ => None,
    }
}
