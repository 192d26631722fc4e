//! The order in which the second run with lagged loop records
//! (`real/lagged.rs`) explores the steps of a state: which of the steps the
//! reduction kept the depth-first search takes first. The order decides
//! only which path is searched first, never which steps are searched (the
//! steps of the list are all explored, in some order).

use petgraph::Direction;
use tass_model::api::{CollectiveKind, FunctionId, Statement, TransitionId};
use tass_state::api::{State, Step};

use super::RealEngine;

/// Which branch of an invariant loop's head a step takes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum HeadBranch {
    /// Into the body (the loop's return arrival is reachable from it).
    Enter,
    /// Out of the loop.
    Leave,
}

impl RealEngine {
    /// The lagged run's order of `steps` (the steps the reduction kept at
    /// `state`); other runs keep the engine's order. Call a process *ahead*
    /// when it has arrived at a loop record after the oldest incomplete one
    /// (`State::loop_records_ahead`).
    ///
    /// 1. Processes ahead come last, by how far ahead (a stable sort: the
    ///    rank order stays among equals). A process may thus run into the
    ///    next iteration on the first paths (the paper's `race`: a sender's
    ///    message of the next round taken by rank 0 in this one), but the
    ///    processes still in the oldest record move before it goes further,
    ///    so the first paths complete records, where the checks are, instead
    ///    of one process running ahead to the lag limit.
    /// 2. At the head of an invariant loop, a process ahead leaves the loop
    ///    first, any other process enters it first (the engine's order is
    ///    leaving first, everywhere, which makes the search go through every
    ///    interleaving of the runs with one iteration before any with two:
    ///    race at 10 processes spent its whole budget, 6,440 states, on
    ///    them). Entering first follows the iterations; a process already
    ///    ahead that leaves first ends the schedules in which it takes the
    ///    others' rounds away.
    ///
    /// Why the order is sound: the list holds the same steps in any order,
    /// so `holds` (every step of every explored state searched) means what
    /// it meant; a violation is one on whichever path it is met; what the
    /// order can change is which comes first of a violation, the lag limit
    /// and the budget, and the last two are never a verdict. The cycle
    /// proviso (`system.rs`) depends on the order in which states are met
    /// but makes every cycle of the explored graph fully expanded in any
    /// order.
    pub(super) fn order_for_lagged_records(
        &self,
        state: &State,
        mut steps: Vec<Step>,
    ) -> Vec<Step> {
        if steps.len() < 2 || !self.engine.lagged_loops() {
            return steps;
        }
        steps.sort_by_key(|s| state.loop_records_ahead(s.process));
        let branch: Vec<Option<HeadBranch>> = steps
            .iter()
            .map(|s| self.head_branch(s.function, s.transition))
            .collect();
        let first_of = |p: usize| steps.iter().position(|s| s.process == p).unwrap_or(0);
        let places: Vec<usize> = steps.iter().map(|s| first_of(s.process)).collect();
        let mut keyed: Vec<((usize, usize), Step)> = steps
            .into_iter()
            .zip(branch)
            .zip(places)
            .map(|((s, b), place)| {
                let ahead = state.loop_records_ahead(s.process) > 0;
                let first = if ahead {
                    HeadBranch::Leave
                } else {
                    HeadBranch::Enter
                };
                let rank = usize::from(b.is_some_and(|b| b != first));
                ((place, rank), s)
            })
            .collect();
        keyed.sort_by_key(|(key, _)| *key);
        keyed.into_iter().map(|(_, s)| s).collect()
    }

    /// Which branch of an invariant loop's head the transition `transition`
    /// of `function` takes, if it leaves such a head (a location that a
    /// collective invariant's arrival enters) at all.
    fn head_branch(&self, function: FunctionId, transition: TransitionId) -> Option<HeadBranch> {
        let body = self.model.function(function).body.as_ref()?;
        let (head, target) = body.graph.edge_endpoints(transition)?;
        let inv = body
            .graph
            .edges_directed(head, Direction::Incoming)
            .find_map(|e| match &e.weight().statement {
                Statement::LoopInvariant(inv) if inv.kind == CollectiveKind::Collective => {
                    Some(inv)
                }
                _ => None,
            })?;
        // a head with one way out (`while (1)`) has no branch to order
        body.outgoing(head).nth(1)?;
        let enters = body.reaches_loop_return((head, target), inv);
        Some(if enters {
            HeadBranch::Enter
        } else {
            HeadBranch::Leave
        })
    }
}
