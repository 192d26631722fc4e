//! For traces: which MPI call of which process a step belongs to, and which
//! phase of that call it is ([`MpiCallMark`]).
//!
//! A step is one transition of one process, but an MPI call is not always one
//! step of its own process: `MPI_Ssend` posts its message in one step and
//! returns in another, `MPI_Sendrecv` takes up to three, a blocking collective
//! is one step of all members (taken by one of them), and a blocking receive
//! that waited returns in the step of the send that completes it. A replay of
//! a trace on the real program counts each rank's MPI calls, so it needs to
//! know which steps enter a call. The marks are read off the states before and
//! after the step (call stage, and whether a process left its call's
//! location): nothing in the search depends on them.

use tass_model::api::{Callee, LibraryFunction as LF, LocationId, Model, Statement};

use crate::mpi::{CallStage, PollOutcome};
use crate::state::{State, Status};
use crate::step::Step;

/// The phase of an MPI call one step is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CallPhase {
    /// The call is entered and returns in this step (its process's whole
    /// call, as the trace has it).
    Call,
    /// The call is entered and does not return yet (`MPI_Ssend`'s or
    /// `MPI_Sendrecv`'s message posted).
    Post,
    /// A middle part of a call entered before (`MPI_Sendrecv`'s receive
    /// half), or MPI's background progress on a request (an `MPI_Irecv`'s
    /// posted receive takes its message): no new call.
    Match,
    /// A call entered in an earlier step returns.
    Complete,
}

impl CallPhase {
    /// The word the JSON trace uses.
    pub fn as_str(self) -> &'static str {
        match self {
            CallPhase::Call => "call",
            CallPhase::Post => "post",
            CallPhase::Match => "match",
            CallPhase::Complete => "complete",
        }
    }

    /// Whether the step enters the call (the call counts from this step).
    pub fn enters(self) -> bool {
        matches!(self, CallPhase::Call | CallPhase::Post)
    }
}

/// One process's MPI call that a step is part of.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct MpiCallMark {
    /// The process whose call it is (not always the step's).
    pub process: usize,
    /// The MPI function (`MPI_Ssend`).
    pub call: &'static str,
    pub phase: CallPhase,
    /// What a poll found (`MPI_Test`, `MPI_Testall`, `MPI_Iprobe`): `flag 1`
    /// or `flag 0`.
    pub outcome: Option<&'static str>,
}

/// Where each process is before a step: its call site (stack depth,
/// function, location) and the stage of its MPI call.
pub(crate) struct CallSites {
    sites: Vec<Option<Site>>,
    poll: Option<PollOutcome>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
struct Site {
    depth: usize,
    function: tass_model::api::FunctionId,
    location: LocationId,
    stage: CallStage,
}

fn site(state: &State, p: usize) -> Option<Site> {
    let ps = state.inner.procs.get(p)?;
    if ps.status != Status::Running {
        return None;
    }
    let fr = ps.stack.last()?;
    Some(Site {
        depth: ps.stack.len(),
        function: fr.function,
        location: fr.location,
        stage: ps.mpi.stage,
    })
}

/// The MPI function of the transition a process at `site` takes.
fn mpi_call_at(model: &Model, site: &Site) -> Option<LF> {
    let body = model.function(site.function).body.as_ref()?;
    body.outgoing(site.location)
        .find_map(|(_, t, _)| mpi_function(&t.statement))
}

fn mpi_function(statement: &Statement) -> Option<LF> {
    match statement {
        Statement::Call {
            callee: Callee::Library(lf),
            ..
        } if lf.is_mpi() => Some(*lf),
        _ => None,
    }
}

impl CallSites {
    /// Records where every process is in `state`, before `step`; `poll`: what
    /// the step finds if it is a poll.
    pub(crate) fn before(state: &State, poll: Option<PollOutcome>) -> CallSites {
        CallSites {
            sites: (0..state.inner.procs.len())
                .map(|p| site(state, p))
                .collect(),
            poll,
        }
    }

    /// The marks of `step`, taken from the state these sites were read in to
    /// `after`.
    pub(crate) fn marks(&self, model: &Model, step: &Step, after: &State) -> Vec<MpiCallMark> {
        let mut marks = Vec::new();
        let own = model
            .function(step.function)
            .body
            .as_ref()
            .and_then(|b| mpi_function(&b.transition(step.transition).statement));
        if let (Some(lf), Some(before)) = (own, self.sites.get(step.process).copied().flatten()) {
            let stage_after = site(after, step.process).map(|s| s.stage);
            let phase = if step.request.is_some() {
                CallPhase::Match
            } else {
                match (before.stage, stage_after) {
                    (CallStage::Start, Some(CallStage::Sent { .. })) => CallPhase::Post,
                    (CallStage::Start, _) => CallPhase::Call,
                    (CallStage::Sent { .. }, Some(CallStage::Received { .. })) => CallPhase::Match,
                    _ => CallPhase::Complete,
                }
            };
            let outcome = match (lf, self.poll) {
                (LF::MpiTest | LF::MpiTestall | LF::MpiIprobe, Some(PollOutcome::Nothing)) => {
                    Some("flag 0")
                }
                (LF::MpiTest | LF::MpiTestall | LF::MpiIprobe, Some(_)) => Some("flag 1"),
                _ => None,
            };
            marks.push(MpiCallMark {
                process: step.process,
                call: lf.c_name(),
                phase,
                outcome,
            });
        }
        // The others whose call this step completes: they leave their call.
        for (p, before) in self.sites.iter().enumerate() {
            let Some(before) = before else { continue };
            if p == step.process || site(after, p).as_ref() == Some(before) {
                continue;
            }
            let Some(lf) = mpi_call_at(model, before) else {
                continue;
            };
            marks.push(MpiCallMark {
                process: p,
                call: lf.c_name(),
                phase: if before.stage == CallStage::Start {
                    CallPhase::Call
                } else {
                    CallPhase::Complete
                },
                outcome: None,
            });
        }
        marks
    }
}
