//! What an LTL search needs of a state beyond executing steps: the value of
//! an atomic proposition, and the state with its path condition strengthened
//! by an atom's truth or falsity (an atom over symbolic data splits a state as
//! a branch does).

use std::sync::Arc;

use tass_dynamic::api::{Root, Value};
use tass_model::api::LtlAtom;
use tass_semantics::api::{Decision, EngineError, Environment, Evaluator, RemoteVar};
use tass_symbolic::api::Expr;

use super::Engine;
use crate::env::ProcEnv;
use crate::state::{State, Status};

impl Engine {
    /// The value of `atom` at `state`, a boolean expression over the inputs.
    /// Conditions are evaluated as process 0 sees the state (its globals, the
    /// inputs, `PROC[e].x` for the others'); location atoms are `true` or
    /// `false`. A rank outside `0..nprocs`, or not a number, is an error.
    pub fn ltl_atom(&mut self, state: &State, atom: &LtlAtom) -> Result<Expr, EngineError> {
        let f = Arc::clone(&self.factory);
        let model = Arc::clone(&self.model);
        let mut scratch = state.clone();
        let env = WholeStateEnv(ProcEnv {
            state: &mut scratch,
            proc: 0,
            model: &model,
            factory: &f,
            layout: &self.layout,
        });
        let mut ev = Evaluator::checking(&f, &mut self.oracle, 0);
        let (rank_expr, at) = match atom {
            LtlAtom::Condition(c) => {
                let value = ev.eval_bool(&env, c)?;
                // An atom that reads an uninitialised variable (a local before
                // its declaration ran) or divides by zero has no truth value.
                if let Some(v) = ev.violations.first() {
                    return Err(EngineError::invalid(
                        format!(
                            "an ltl atom cannot be evaluated in some state: {} (atoms are \
                             evaluated in every state, the initial one too: read globals, or \
                             guard the atom with a location atom)",
                            v.message
                        ),
                        Some(&c.span),
                    ));
                }
                return Ok(value);
            }
            LtlAtom::At {
                rank,
                function,
                location,
                ..
            } => (rank, Some((*function, *location))),
            LtlAtom::Terminated { rank } => (rank, None),
        };
        let rank = ev.eval(&env, rank_expr)?;
        let rank = match rank {
            Value::Data(e) => f.as_concrete_int(e),
            _ => None,
        };
        let nprocs = state.inner.procs.len();
        let Some(p) = rank
            .and_then(|r| usize::try_from(r).ok())
            .filter(|&r| r < nprocs)
        else {
            return Err(EngineError::invalid(
                format!("PROC[...] in an ltl atom must name a rank in 0..{nprocs}"),
                Some(&rank_expr.span),
            ));
        };
        let proc = &state.inner.procs[p];
        let running = proc.status == Status::Running;
        let truth = match at {
            None => !running,
            Some((function, location)) => {
                running
                    && location.is_some()
                    && proc
                        .stack
                        .last()
                        .is_some_and(|fr| fr.function == function && Some(fr.location) == location)
            }
        };
        Ok(f.bool(truth))
    }

    /// Whether `condition` holds in every execution `state` stands for.
    pub fn decide(&mut self, state: &State, condition: Expr) -> Decision {
        let f = Arc::clone(&self.factory);
        self.oracle.valid(&f, state.inner.pc, condition)
    }

    /// `state` with `condition` added to its path condition (canonicalized).
    pub fn assume_condition(&mut self, state: &State, condition: Expr) -> State {
        let mut s = state.clone();
        let pc = self.factory.and(s.inner.pc, condition);
        s.inner_mut().pc = pc;
        self.canonicalize(s.seal())
    }
}

/// Process 0's view of a whole system state, in which `PROC[e].x` and
/// `PROC[e]@f.x` read process `e`'s variables (its globals; the locals of its
/// innermost frame of `f`).
struct WholeStateEnv<'a>(ProcEnv<'a>);

impl Environment for WholeStateEnv<'_> {
    crate::env::forward_to_proc_env!(0);
    fn remote_root(&self, remote: RemoteVar) -> Result<Root, String> {
        let (rank, _, var) = remote;
        let name = &self.0.model.var(var).name;
        self.0.remote_root(remote, |fname| {
            format!(
                "process {rank} is not inside `{fname}` here (PROC[{rank}]@{fname}.{name} \
                 in an ltl atom): guard the atom, e.g. `PROC[{rank}]@terminated || ...`"
            )
        })
    }
    fn get(&self, root: Root) -> Option<&Value> {
        self.0.get(root)
    }
}
