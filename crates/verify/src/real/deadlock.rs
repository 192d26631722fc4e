//! Stuck states: a state with no enabled step where some process has not
//! terminated is a deadlock, unless its path condition is unsatisfiable.

use tass_prove::api::Validity;
use tass_state::api::{
    Certainty as EngineCertainty, ProcessStatus, Property as EngineProperty, State, Violation,
};

use super::witness::{prover_witness, WitnessValues};
use super::RealEngine;
use crate::options::DeadlockMode;

impl RealEngine {
    /// The deadlock reported at `state`, where no step is enabled and some
    /// process has not terminated (nothing with `--deadlock none`, or when the
    /// path is vacuous).
    pub(super) fn deadlock_at(&mut self, state: &State) -> Vec<Violation> {
        // No step is enabled but some process has not terminated: a deadlock,
        // unless the path is vacuous.
        if self.deadlock == DeadlockMode::None {
            return Vec::new();
        }
        let Some((certainty, witness)) = self.stuck_certainty(state) else {
            return Vec::new();
        };
        let statuses = self.engine.process_status(state);
        let mpi_calls = self.engine.blocked_calls(state);
        let mut blocked = Vec::new();
        let mut first = None;
        for (p, s) in statuses.iter().enumerate() {
            if let ProcessStatus::Running { function, span, .. } = s {
                match mpi_calls.iter().find(|(q, _)| *q == p) {
                    Some((_, call)) => {
                        blocked.push(format!("process {p} is blocked in {call} at {span}"))
                    }
                    None => blocked.push(format!("process {p} is blocked in {function} at {span}")),
                }
                first.get_or_insert((p, span.clone()));
            }
        }
        let Some((process, span)) = first else {
            return Vec::new();
        };
        vec![Violation {
            property: EngineProperty::Deadlock,
            certainty,
            message: format!("no process can move: {}", blocked.join("; ")),
            span,
            process,
            witness,
            claim: "some process can move or all have terminated".into(),
        }]
    }

    /// How sure a report of a state where the system is stuck (a deadlock or
    /// a livelock) is: `None` when the state's path condition is
    /// unsatisfiable (the path is vacuous), else the certainty and the
    /// prover's witness.
    pub(super) fn stuck_certainty(
        &mut self,
        state: &State,
    ) -> Option<(EngineCertainty, Option<WitnessValues>)> {
        if self.engine.is_vacuous(state) {
            return None;
        }
        let pc = self.engine.path_condition(state);
        let answer = self.prover.valid_with_model(pc, self.factory.ff());
        Some(match answer.validity {
            Validity::Yes => return None,
            Validity::No
                if self.leans_on_stand_in(&[pc])
                    || tass_semantics::api::leans_on_loop_values(&self.factory, &[pc]) =>
            {
                (EngineCertainty::Possible, None)
            }
            Validity::No => (
                EngineCertainty::Provable,
                answer.model.as_ref().map(prover_witness),
            ),
            Validity::Maybe => (EngineCertainty::Possible, None),
        })
    }
}
