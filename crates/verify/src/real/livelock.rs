//! The livelock check: a state from which no process can make progress any
//! more although steps are enabled, because every step left is a *poll* that
//! finds nothing (`MPI_Test`/`MPI_Testall` of a request that cannot complete,
//! `MPI_Iprobe` for a message nobody sends) or local code leading back to
//! one. It is a deadlock hidden behind a polling loop, reported as
//! `deadlock` under the same `--deadlock` switch.
//!
//! At a state where every enabled step (before the reduction) is a failed
//! poll, local code or, with `--deadlock potential`, a step that needs MPI to
//! buffer a standard send, and one is a failed poll, the check explores the
//! *closure* of the state: everything reachable from it by such steps, taken
//! from every process (no reduction), with each test that completes only by
//! buffering an `MPI_Isend` run as zero-buffer MPI runs it (it finds nothing)
//! and the other buffering steps left out. If a state of the closure enables
//! some other step (a communication that completes; a probe that finds a
//! message is taken as local code, since it changes only its process's flag
//! and status), the system can still progress and nothing is reported. If the closure is
//! exhausted without one, no schedule from the state ever completes a
//! communication: reported. Fairness is thus the strongest one: a spinning
//! process does not count as stuck while another can still move, as each
//! process that can move does so in some state of the closure.
//!
//! That is too strong for a wildcard `MPI_Iprobe`, whose choice of sender MPI
//! leaves open for ever: when a probe at the state can report two senders
//! and the closure makes progress, `fair.rs` looks for a cycle without
//! progress that MPI and the scheduler may follow for ever.

use std::collections::HashSet;

mod fair;

use tass_state::api::{PollOutcome, State, Step, Violation};

use super::RealEngine;
use crate::engine::Engine;
use crate::options::DeadlockMode;
use tass_state::api::{EngineError, ProcessStatus, Property as EngineProperty};

/// The closure of one state is explored up to this many states; a bigger one
/// is not reported (see docs/guide.md).
const CLOSURE_LIMIT: usize = 100_000;

/// What the livelock check has learnt, over canonical states.
#[derive(Default)]
pub(super) struct LivelockMemo {
    /// States from which some process can make progress.
    progress: HashSet<State>,
    /// States of a closure reported already (or too big to explore): not
    /// looked at again.
    done: HashSet<State>,
    /// Why a closure was not explored to the end (the first one).
    gave_up: Option<String>,
    /// Whether the check under way has met a step that zero buffering
    /// changes (a test that finds nothing, a send or wait left out).
    zero_buffer_met: bool,
    /// States of a closure searched for an unfair cycle already (see
    /// `fair.rs`): any cycle reachable from them was looked for.
    fair_explored: HashSet<State>,
}

impl LivelockMemo {
    /// Why the check left a state unchecked, if it did (the search is then
    /// inconclusive: a livelock there is not ruled out).
    pub(super) fn unchecked(&self) -> Option<String> {
        self.gave_up.clone()
    }
}

/// How a step counts for the check.
enum Role {
    /// A poll that finds nothing: the step to take (the zero-buffer form of a
    /// test that completes only by buffering).
    FailedPoll(Step),
    /// Code that communicates nothing.
    Local,
    /// Needs MPI to buffer a standard send (`--deadlock potential`): not taken.
    NeedsBuffering,
    /// Completes a communication (or is not known): progress.
    Progress,
}

impl RealEngine {
    fn role(&mut self, state: &State, step: &Step) -> Role {
        let potential = self.deadlock == DeadlockMode::Potential;
        match self.engine.poll_outcome(state, step) {
            Some(PollOutcome::Nothing) => Role::FailedPoll(step.clone()),
            Some(PollOutcome::OnlyByBuffering) if potential => {
                self.livelock_memo.zero_buffer_met = true;
                Role::FailedPoll(self.engine.failed_poll(step))
            }
            // An `MPI_Iprobe` that finds a message changes only its
            // process's flag and status: progress comes only from what the
            // process does next (a receive), which the closure explores. A
            // loop that ignores the message it sees (waiting for another
            // tag) spins for ever.
            Some(PollOutcome::Something) if self.is_iprobe(step) => Role::Local,
            Some(_) => Role::Progress,
            None if Engine::is_local(self, step) => Role::Local,
            None if potential && step.buffered_send => {
                self.livelock_memo.zero_buffer_met = true;
                Role::NeedsBuffering
            }
            None => Role::Progress,
        }
    }

    /// Whether `step` is a call of `MPI_Iprobe`.
    fn is_iprobe(&self, step: &Step) -> bool {
        let model = std::sync::Arc::clone(&self.model);
        super::mpi_call(&model, step.function, step.transition)
            .is_some_and(|(lf, _)| lf == tass_model::api::LibraryFunction::MpiIprobe)
    }

    /// The steps of `steps` the closure takes at `state`, or `None` if one of
    /// them makes progress; with whether one of them is a failed poll.
    fn futile_steps(&mut self, state: &State, steps: &[Step]) -> Option<(Vec<Step>, bool)> {
        let mut taken = Vec::new();
        let mut locals = Vec::new();
        let mut sends = Vec::new();
        for step in steps {
            match self.role(state, step) {
                Role::Progress => return None,
                Role::NeedsBuffering => sends.push(step),
                Role::Local => locals.push(step.clone()),
                Role::FailedPoll(step) => taken.push(step),
            }
        }
        let polls = !taken.is_empty();
        if polls && sends.into_iter().any(|send| self.a_probe_sees(state, send)) {
            return None;
        }
        // The closure takes the last step first: local code runs on before a
        // poll comes round again, which reaches a process's next
        // communication (progress) soonest.
        taken.extend(locals);
        Some((taken, polls))
    }

    /// Whether an `MPI_Iprobe` of another process finds the message of the
    /// standard send `send` (which needs a buffer) once it is sent: a send
    /// blocked for want of a buffer has still started, and a probe sees it
    /// (the program then receives it, as the zero-buffer run shows).
    fn a_probe_sees(&mut self, state: &State, send: &Step) -> bool {
        if self.engine.poll_outcome(state, send).is_some() {
            return false; // a test or wait: nothing is sent
        }
        let Ok(after) = self.engine.execute(state.clone(), send) else {
            return true; // not known: progress, so nothing is claimed
        };
        let before = self.polls_finding(state, send.process);
        before.is_none() || self.polls_finding(&after.state, send.process) > before
    }

    /// How many polls of processes other than `sender` find something at
    /// `state` (`None` when not known).
    fn polls_finding(&mut self, state: &State, sender: usize) -> Option<usize> {
        let steps = self.engine.enabled(state).ok()?;
        Some(
            steps
                .iter()
                .filter(|step| {
                    step.process != sender
                        && self.engine.poll_outcome(state, step) == Some(PollOutcome::Something)
                })
                .count(),
        )
    }

    /// `Engine::livelock` (see the module comment).
    pub(super) fn livelock_at(
        &mut self,
        state: &State,
        steps: &[Step],
    ) -> Result<Option<Violation>, EngineError> {
        if self.deadlock == DeadlockMode::None || !self.model.uses_mpi || steps.is_empty() {
            return Ok(None);
        }
        self.livelock_memo.zero_buffer_met = false;
        let Some((first, true)) = self.futile_steps(state, steps) else {
            return Ok(None);
        };
        let root = self.engine.canonicalize(state.clone());
        if self.livelock_memo.done.contains(&root) {
            return Ok(None);
        }
        if self.livelock_memo.progress.contains(&root) {
            return self.unfair_livelock_at(state, steps, root);
        }
        match self.closure(root.clone(), first) {
            Closure::Progress => self.unfair_livelock_at(state, steps, root),
            Closure::TooBig(why) => {
                self.livelock_memo.done.insert(root);
                self.give_up_at(state, steps, &why);
                Ok(None)
            }
            Closure::Stuck => Ok(self.livelock_violation(state, steps, Stuck::Always)),
            Closure::Violated(violation) => {
                self.livelock_memo.done.insert(root);
                Ok(Some(violation))
            }
        }
    }

    /// The second part of the check, at a state whose closure makes progress
    /// on some schedule: when a probe there can report messages of two
    /// senders, whether MPI may keep giving answers that never lead to
    /// progress (`fair.rs`).
    fn unfair_livelock_at(
        &mut self,
        state: &State,
        steps: &[Step],
        root: State,
    ) -> Result<Option<Violation>, EngineError> {
        if self.livelock_memo.fair_explored.contains(&root)
            || !self.wildcard_choice_at(state, steps)
        {
            return Ok(None);
        }
        let mut explored = std::mem::take(&mut self.livelock_memo.fair_explored);
        let outcome = self.fair_search(root, &mut explored);
        self.livelock_memo.fair_explored = explored;
        match outcome {
            fair::FairSearch::Ends => Ok(None),
            fair::FairSearch::TooBig(why) => {
                self.give_up_at(state, steps, &why);
                Ok(None)
            }
            fair::FairSearch::Spins(on_cycle) => {
                Ok(self.livelock_violation(state, steps, Stuck::Unfairly(&on_cycle)))
            }
        }
    }

    /// Records (once) that the check of the polling loop at `state` was not
    /// finished, and `why`: the search is then inconclusive.
    fn give_up_at(&mut self, state: &State, steps: &[Step], why: &str) {
        if self.livelock_memo.gave_up.is_some() {
            return;
        }
        let at = steps
            .iter()
            .find(|s| self.engine.poll_outcome(state, s).is_some())
            .map(|s| self.engine.step_info(s).span.to_string())
            .unwrap_or_default();
        self.livelock_memo.gave_up = Some(format!(
            "the livelock check of a polling loop at {at} {why}: \
             whether some process can still make progress there is not known"
        ));
    }

    /// Explores the closure of `root` (canonical), whose steps to take are
    /// `first`, depth first; remembers what it learns.
    fn closure(&mut self, root: State, first: Vec<Step>) -> Closure {
        let mut visited: HashSet<State> = HashSet::from([root.clone()]);
        let mut stack: Vec<(State, Vec<Step>)> = vec![(root, first)];
        while let Some((state, steps)) = stack.last_mut() {
            let Some(step) = steps.pop() else {
                stack.pop();
                continue;
            };
            let state = state.clone();
            let next = match self.engine.execute(state, &step) {
                // A step that goes wrong (an assertion after a probe that
                // found its message, or after a test that found nothing):
                // the program stops there rather than spin. That violation is
                // reported, not a deadlock.
                Ok(outcome) if !outcome.violations.is_empty() => {
                    self.livelock_memo.done.extend(visited);
                    let first = outcome.violations.into_iter().next();
                    return Closure::Violated(first.expect("a violation"));
                }
                Ok(outcome) => self.engine.canonicalize(outcome.state),
                // An error the search meets and reports itself, or one only
                // zero buffering reaches: nothing is claimed.
                Err(error) => return self.gave_up(visited, format!("met an error ({error})")),
            };
            if self.livelock_memo.progress.contains(&next) {
                return self.progressed(stack);
            }
            if self.livelock_memo.done.contains(&next) || !visited.insert(next.clone()) {
                continue;
            }
            if visited.len() > CLOSURE_LIMIT {
                let why = format!("stopped after {CLOSURE_LIMIT} states");
                return self.gave_up(visited, why);
            }
            if self.engine.is_vacuous(&next) {
                continue;
            }
            if self.engine.is_terminated(&next) {
                // Every process ends: that is progress too.
                self.livelock_memo.progress.insert(next);
                return self.progressed(stack);
            }
            let enabled = match self.engine.enabled(&next) {
                Ok(enabled) => enabled,
                Err(error) => return self.gave_up(visited, format!("met an error ({error})")),
            };
            match self.futile_steps(&next, &enabled) {
                Some((taken, _)) => stack.push((next, taken)),
                None => {
                    self.livelock_memo.progress.insert(next);
                    return self.progressed(stack);
                }
            }
        }
        self.livelock_memo.done.extend(visited);
        Closure::Stuck
    }

    /// Progress was found below every state on `stack`: so they make progress.
    fn progressed(&mut self, stack: Vec<(State, Vec<Step>)>) -> Closure {
        self.livelock_memo
            .progress
            .extend(stack.into_iter().map(|(state, _)| state));
        Closure::Progress
    }

    fn gave_up(&mut self, visited: HashSet<State>, why: String) -> Closure {
        self.livelock_memo.done.extend(visited);
        Closure::TooBig(why)
    }

    /// The report of a livelock found at `state` (whose enabled steps are
    /// `steps`): at the first process's failed poll.
    fn livelock_violation(
        &mut self,
        state: &State,
        steps: &[Step],
        stuck: Stuck<'_>,
    ) -> Option<Violation> {
        // an unfair cycle may lie on a narrower path than `state`'s: its
        // path condition gives the certainty and the witness
        let (certainty, witness) = match stuck {
            Stuck::Always => self.stuck_certainty(state)?,
            Stuck::Unfairly(on_cycle) => self.stuck_certainty(on_cycle)?,
        };
        let mut at = None;
        for step in steps {
            let outcome = self.engine.poll_outcome(state, step);
            if matches!(
                outcome,
                Some(PollOutcome::Nothing | PollOutcome::OnlyByBuffering)
            ) && at.is_none()
            {
                at = Some(step.clone());
            }
        }
        let at = at?;
        let span = self.engine.step_info(&at).span;
        let calls = self.engine.blocked_calls(state);
        let mut doing = Vec::new();
        for (p, status) in self.engine.process_status(state).iter().enumerate() {
            if let ProcessStatus::Running { function, span, .. } = status {
                match calls.iter().find(|(q, _)| *q == p) {
                    Some((_, call)) => doing.push(format!("process {p} is at {call} at {span}")),
                    None => doing.push(format!("process {p} is in {function} at {span}")),
                }
            }
        }
        let buffering = if self.livelock_memo.zero_buffer_met {
            ", or needs a send to be buffered (with zero buffering a standard send \
             completes only when it is received)"
        } else {
            ""
        };
        let message = match stuck {
            Stuck::Always => format!(
                "no process can make progress: every step left is an \
                 MPI_Test/MPI_Testall/MPI_Iprobe that finds nothing, local code{buffering}: {}",
                doing.join("; ")
            ),
            Stuck::Unfairly(_) => format!(
                "the processes can spin for ever without progress: MPI_Iprobe may keep \
                 reporting a message that does not end the polling loop (MPI promises no \
                 fairness among the senders a wildcard probe matches){buffering}: {}",
                doing.join("; ")
            ),
        };
        Some(Violation {
            property: EngineProperty::Deadlock,
            certainty,
            message,
            span,
            process: at.process,
            witness,
            claim: "some process can complete a communication or terminate".into(),
            snapshots: None,
        })
    }
}

/// Why a livelock is reported.
#[derive(Clone, Copy)]
enum Stuck<'a> {
    /// No schedule from the state makes progress.
    Always,
    /// Some schedule does, but MPI may keep answering a wildcard probe so that
    /// none does; a state of such a cycle.
    Unfairly(&'a State),
}

/// How the exploration of a closure ended.
enum Closure {
    /// Some state of it lets a process make progress.
    Progress,
    /// No state of it does.
    Stuck,
    /// Not explored to the end (too big, or an error: why): nothing claimed.
    TooBig(String),
    /// A step of it reports this violation (reached by a real schedule).
    Violated(Violation),
}
