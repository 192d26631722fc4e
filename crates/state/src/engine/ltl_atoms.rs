//! What an LTL search needs of a state beyond executing steps: the value of
//! an atomic proposition, and the state with its path condition strengthened
//! by an atom's truth or falsity (an atom over symbolic data splits a state as
//! a branch does).

use std::sync::Arc;

use tass_model::api::LtlAtom;
use tass_semantics::api::{Decision, EngineError, Evaluator};
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
        let env = ProcEnv {
            state: &mut scratch,
            proc: 0,
            model: &model,
            factory: &f,
            layout: &self.layout,
        };
        let mut ev = Evaluator::without_checks(&f, &mut self.oracle, 0);
        let (rank_expr, at) = match atom {
            LtlAtom::Condition(c) => return ev.eval_bool(&env, c),
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
            tass_dynamic::api::Value::Data(e) => f.as_concrete_int(e),
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
