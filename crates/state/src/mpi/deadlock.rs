//! What the search asks about blocked processes: the potential-deadlock
//! test, polls that find nothing (for the livelock check), where a send
//! goes and who waits for it, the calls blocked processes wait in, and the
//! MPI checks at termination.

use tass_dynamic::api::Message;
use tass_model::api::mpi::Rank;
use tass_model::api::{LibraryFunction as LF, Model, Span};
use tass_semantics::api::{Certainty, Decision, EngineError, Property, Violation};

use super::commute::pending_receives;
use super::context::{
    call_of, current_call, resolve_int, Mpi, ProcessCall, ENVELOPE_CASE, NO_MESSAGE,
};
use super::envelope::{p2p_args, resolve_rank, P2p};
use super::process::{completion_stage, CallStage, MpiPhase};
use super::request::Leak;
use super::{collective, comm, request};
use crate::state::{State, Status};
use crate::step::Step;

/// What a poll (`MPI_Test`, `MPI_Testall`, `MPI_Iprobe`) finds, for the
/// livelock check (`tass-verify`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PollOutcome {
    /// Nothing: the flag comes back 0 and nothing changes but the flag.
    Nothing,
    /// A test whose requests complete only by buffering an `MPI_Isend` (with
    /// zero buffering it would find nothing).
    OnlyByBuffering,
    /// A completion or a message.
    Something,
}

impl Mpi<'_> {
    /// What the poll `step` finds (`None`: `step` is no poll).
    pub(crate) fn poll_outcome(&mut self, state: &State, step: &Step) -> Option<PollOutcome> {
        if step.request.is_some() || step.choice == Some(ENVELOPE_CASE) {
            return None;
        }
        let call = current_call(self.ctx.model, state, step.process)
            .filter(|c| c.tid == step.transition)?;
        if !matches!(call.lf, LF::MpiTest | LF::MpiTestall | LF::MpiIprobe) {
            return None;
        }
        if step.choice == Some(NO_MESSAGE) {
            return Some(PollOutcome::Nothing);
        }
        if call.lf == LF::MpiIprobe {
            return Some(PollOutcome::Something);
        }
        let mut scratch = state.clone();
        let Some(values) = self.at(&mut scratch, step.process, &call).peek_requests() else {
            return Some(PollOutcome::Something); // executing it reports the error
        };
        let states: Vec<request::Completion> = values
            .iter()
            .map(|v| request::completion(state, step.process, v))
            .collect();
        let outcome = if states
            .iter()
            .any(|c| matches!(c, request::Completion::Pending))
        {
            PollOutcome::Nothing
        } else if states.iter().any(|c| {
            matches!(
                c,
                request::Completion::Ready {
                    by_buffering: true,
                    ..
                }
            )
        }) {
            PollOutcome::OnlyByBuffering
        } else {
            PollOutcome::Something
        };
        Some(outcome)
    }
}

/// The step of test `step` that finds nothing: what it does under zero
/// buffering when its requests complete only by buffering.
pub(crate) fn failed_poll(step: &Step) -> Step {
    Step {
        choice: Some(NO_MESSAGE),
        buffered_send: false,
        ..step.clone()
    }
}

impl Mpi<'_> {
    /// True if `state` is a potential deadlock: some process has not terminated and
    /// no process could move if no pending standard send were buffered (a send
    /// moves only when its destination waits in a matching receive; a wait for an
    /// `MPI_Isend` only once its message was received). `steps` are the state's
    /// enabled steps (with buffering).
    pub(crate) fn potentially_deadlocked(
        &mut self,
        state: &State,
        steps: &[Step],
    ) -> Result<bool, EngineError> {
        let mut scratch = state.clone();
        for step in steps {
            let p = step.process;
            if step.request.is_some() {
                return Ok(false); // a posted receive takes a message
            }
            if step.choice == Some(ENVELOPE_CASE) {
                return Ok(false); // the path splits first
            }
            let Some(call) =
                current_call(self.ctx.model, state, p).filter(|c| c.tid == step.transition)
            else {
                return Ok(false); // a step that is not an MPI call
            };
            if matches!(call.lf, LF::MpiWait | LF::MpiWaitall | LF::MpiWaitany) {
                if self.wait_needs_buffering(&mut scratch, step, &call) {
                    continue;
                }
                return Ok(false);
            }
            // The return of an MPI_Ssend or MPI_Sendrecv(_replace) whose message
            // was posted: it needs a buffer while nobody has received it (never
            // enabled then for MPI_Ssend). Posting the message is a move: the
            // posted send half of a send-receive proceeds together with its
            // receive half (so a ring of them cannot deadlock).
            let stage = state.inner.procs[p].mpi.stage;
            if completion_stage(call.lf, stage).is_some() {
                if step.buffered_send {
                    continue;
                }
                return Ok(false);
            }
            // MPI_Buffer_detach waits until the buffered messages are
            // transmitted: under zero buffering, until they are received.
            if call.lf == LF::MpiBufferDetach && super::bsend::bytes_in_use(state, p) > 0 {
                continue;
            }
            let is_blocking_send = matches!(call.lf, LF::MpiSend | LF::MpiRsend);
            if !is_blocking_send || scratch.inner.procs[p].mpi.phase != MpiPhase::Initialized {
                return Ok(false);
            }
            let envelope = self.at(&mut scratch, p, &call).send_envelope(step, stage)?;
            let Some((d, tag, comm)) = envelope else {
                return Ok(false); // MPI_PROC_NULL, a bad rank, or not known: not counted
            };
            if self.receiver_waits(&mut scratch, d, p, Some(tag), comm)? {
                return Ok(false);
            }
        }
        Ok(state
            .inner
            .procs
            .iter()
            .any(|ps| ps.status == Status::Running))
    }

    /// Asks `question` of the MPI call `step` makes (`None` when it makes
    /// none), on a scratch copy of `state`: answering may evaluate the
    /// call's arguments, which must not change the state asked about.
    fn ask_call<R>(
        &mut self,
        state: &State,
        step: &Step,
        question: impl FnOnce(&mut ProcessCall<'_>) -> Result<Option<R>, EngineError>,
    ) -> Result<Option<R>, EngineError> {
        let Some(call) = call_of(&self.ctx, state, step) else {
            return Ok(None);
        };
        let mut scratch = state.clone();
        question(&mut self.at(&mut scratch, step.process, &call))
    }

    /// See `Engine::send_destination`.
    pub(crate) fn send_destination(
        &mut self,
        state: &State,
        step: &Step,
    ) -> Result<Option<Rank>, EngineError> {
        let stage = state.inner.procs[step.process].mpi.stage;
        self.ask_call(state, step, |at| {
            let Some((dest, comm)) = at.send_destination_rank(step, stage)? else {
                return Ok(None);
            };
            Ok(match dest {
                Rank::ProcNull => Some(Rank::ProcNull),
                Rank::Process(d) => comm::to_world(at.state, comm, d as usize).map(Rank::Process),
                Rank::Any => None, // not a destination: the send reports it
            })
        })
    }

    /// See `Engine::waiting_receiver`.
    pub(crate) fn waiting_receiver(
        &mut self,
        state: &State,
        step: &Step,
    ) -> Result<Option<usize>, EngineError> {
        let p = step.process;
        if state.inner.procs[p].mpi.phase != MpiPhase::Initialized {
            return Ok(None);
        }
        self.ask_call(state, step, |at| {
            if !matches!(at.call.lf, LF::MpiSend | LF::MpiRsend) {
                return Ok(None);
            }
            let Some((d, tag, comm)) = at.send_envelope(step, CallStage::Start)? else {
                return Ok(None);
            };
            if d == p || pending_receives(state, d) {
                return Ok(None);
            }
            if current_call(at.mpi.ctx.model, state, d).map(|c| c.lf) != Some(LF::MpiRecv) {
                return Ok(None);
            }
            Ok(at
                .mpi
                .receiver_waits(at.state, d, p, Some(tag), comm)?
                .then_some(d))
        })
    }
}

impl ProcessCall<'_> {
    /// The world rank of the destination, the tag and the communicator of
    /// the send (or send half) the call makes at `step` (the process at
    /// `stage` of it), when all three are known: `None` for
    /// `MPI_PROC_NULL`, a bad rank or values that are not concrete.
    pub(super) fn send_envelope(
        &mut self,
        step: &Step,
        stage: CallStage,
    ) -> Result<Option<(usize, i64, u32)>, EngineError> {
        let call = self.call;
        let Some((dest, comm)) = self.send_destination_rank(step, stage)? else {
            return Ok(None);
        };
        let Some((_, tag_arg, _, _)) = p2p_args(call, stage) else {
            return Ok(None);
        };
        let tag = self.peek(&call.args[tag_arg])?;
        // A tag that depends on the inputs is fixed by the step's guard.
        let f = self.mpi.ctx.f;
        let pc = f.and(self.state.inner.pc, step.guard);
        let Some(tag) = resolve_int(f, self.mpi.oracle, pc, tag) else {
            return Ok(None);
        };
        let Rank::Process(dest) = dest else {
            return Ok(None);
        };
        let d = comm::to_world(self.state, comm, dest as usize);
        Ok(d.map(|d| (d as usize, tag, comm)))
    }

    /// The destination rank (in its communicator) and the communicator of
    /// the send (or send half) the call makes at `step`, when the path
    /// condition and the step's guard fix them to a rank or `MPI_PROC_NULL`.
    pub(super) fn send_destination_rank(
        &mut self,
        step: &Step,
        stage: CallStage,
    ) -> Result<Option<(Rank, u32)>, EngineError> {
        let call = self.call;
        let Some((rank_arg, _, comm_arg, P2p::Send)) = p2p_args(call, stage) else {
            return Ok(None);
        };
        let Some(comm) = self.peek_comm(&call.args[comm_arg])? else {
            return Ok(None);
        };
        let dest = self.peek(&call.args[rank_arg])?;
        let n = comm::comm_size(self.state, comm);
        let f = self.mpi.ctx.f;
        let pc = f.and(self.state.inner.pc, step.guard);
        let dest = resolve_rank(f, self.mpi.oracle, pc, dest, n).and_then(|d| Rank::from_int(d, n));
        Ok(dest.map(|d| (d, comm)))
    }
}

/// What the processes that have not terminated wait for, one phrase each (for
/// deadlock reports).
pub(crate) fn blocked_calls(model: &Model, state: &State) -> Vec<(usize, String)> {
    (0..state.inner.procs.len())
        .filter_map(|p| {
            let call = current_call(model, state, p)?;
            let text = model
                .function(state.inner.procs[p].stack.last()?.function)
                .body
                .as_ref()
                .map(|b| b.transition(call.tid).source_text.clone())
                .unwrap_or_default();
            let mut phrase = format!("{} ({text})", call.lf.c_name());
            if matches!(
                call.lf,
                LF::MpiWait | LF::MpiWaitall | LF::MpiWaitany | LF::MpiTest | LF::MpiTestall
            ) {
                let pending = collective::pending_posts(model, state, p);
                if !pending.is_empty() {
                    phrase.push(' ');
                    phrase.push_str(&pending.join(" and "));
                }
            }
            Some((p, phrase))
        })
        .collect()
}

impl Mpi<'_> {
    /// The MPI checks at a final state: processes that initialised MPI and ended
    /// without `MPI_Finalize`; messages never received. The findings come first
    /// and the path condition's satisfiability (with its witness) only when there
    /// is one: most final states have none, and at herbrand/ieee level the
    /// oracle's search for a witness in IEEE doubles was most of a floating-point
    /// program's time (gauss 4 x 4: ~90%). An unsatisfiable path condition still
    /// reports nothing, as before.
    pub(crate) fn termination_checks(&mut self, state: &State) -> Vec<Violation> {
        let mut out = self.termination_findings(state);
        if out.is_empty() {
            return out;
        }
        let f = self.ctx.f;
        let (certainty, witness) = match self.oracle.valid(f, state.inner.pc, f.ff()) {
            Decision::Holds => return Vec::new(),
            Decision::Fails { witness } => (Certainty::Provable, witness),
            Decision::Unknown => (Certainty::Possible, None),
        };
        for v in &mut out {
            v.certainty = certainty;
            v.witness = witness.clone();
        }
        out
    }

    /// [`Mpi::termination_checks`]'s findings, each `Possible` without a witness
    /// until the caller decides the path condition. (Over 150 lines: a list of
    /// independent checks in report order, each a short block; see docs/style.md.)
    fn termination_findings(&mut self, state: &State) -> Vec<Violation> {
        let f = self.ctx.f;
        let mut out = Vec::new();
        let (certainty, witness): (Certainty, Option<Vec<(String, String)>>) =
            (Certainty::Possible, None);
        let span_of = |p: usize| -> Span {
            match &state.inner.procs[p].status {
                Status::Terminated {
                    at: Some((func, loc)),
                    ..
                } => self
                    .ctx
                    .model
                    .function(*func)
                    .body
                    .as_ref()
                    .map(|b| b.location(*loc).span.clone())
                    .unwrap_or_else(|| self.ctx.model.function(*func).span.clone()),
                _ => self.ctx.model.function(self.ctx.model.main).span.clone(),
            }
        };
        for (p, ps) in state.inner.procs.iter().enumerate() {
            if ps.mpi.phase == MpiPhase::Initialized {
                out.push(Violation {
                    property: Property::MpiInitFinalize,
                    certainty,
                    message: format!("process {p} terminates without calling MPI_Finalize"),
                    span: span_of(p),
                    process: p,
                    witness: witness.clone(),
                    claim: "every process that calls MPI_Init calls MPI_Finalize".into(),
                    snapshots: None,
                });
            }
        }
        let (finalized, taken) = request::taken_at_finalize(state, f);
        let left: Vec<&Message> = (state.inner.messages.iter().enumerate())
            .filter(|(k, _)| !taken.contains(k))
            .map(|(_, m)| m)
            .collect();
        if let Some(m) = left.first() {
            let list: Vec<String> = left
                .iter()
                .map(|m| format!("{} -> {} (tag {})", m.source, m.dest, f.pretty(m.tag)))
                .collect();
            out.push(Violation {
                property: Property::UnreceivedMessage,
                certainty,
                message: format!(
                    "{} message(s) sent but never received: {}",
                    list.len(),
                    list.join(", ")
                ),
                span: span_of(m.dest as usize),
                process: m.dest as usize,
                witness: witness.clone(),
                claim: "every message sent is received".into(),
                snapshots: None,
            });
        }
        for w in state.inner.windows.iter().flatten() {
            let (func, tid) = w.created_at;
            let span = match self.ctx.model.function(func).body.as_ref() {
                Some(b) => b.transition(tid).span.clone(),
                None => span_of(0),
            };
            let owner = comm::to_world(state, w.comm, 0).unwrap_or(0) as usize;
            if !w.ops.is_empty() {
                out.push(Violation {
                    snapshots: None,
                    property: Property::Epoch,
                    certainty,
                    message: format!(
                        "an epoch of the window created at line {} is never closed: {} RMA \
                         operation(s) not completed by a synchronisation",
                        span.start_line,
                        w.ops.len()
                    ),
                    span: span.clone(),
                    process: owner,
                    witness: witness.clone(),
                    claim: "every epoch is closed".into(),
                });
            }
            if let Some(open) = crate::mpi::rma::open_pscw_epoch(w) {
                out.push(Violation {
                    snapshots: None,
                    property: Property::Epoch,
                    certainty,
                    message: format!("in the window created at line {}, {open}", span.start_line),
                    span: span.clone(),
                    process: owner,
                    witness: witness.clone(),
                    claim: "every epoch is closed".into(),
                });
            }
            if let Some(l) = w.locks.first() {
                out.push(Violation {
                    snapshots: None,
                    property: Property::Epoch,
                    certainty,
                    message: format!(
                        "rank {} still holds a lock on rank {} of the window created at line {} \
                         (a passive-target epoch never closed by MPI_Win_unlock)",
                        l.origin, l.target, span.start_line
                    ),
                    span: span.clone(),
                    process: owner,
                    witness: witness.clone(),
                    claim: "every epoch is closed".into(),
                });
            }
            out.push(Violation {
                snapshots: None,
                property: Property::ResourceLeak,
                certainty,
                message: "window leak: the window is never freed (MPI_Win_free)".into(),
                span,
                process: owner,
                witness: witness.clone(),
                claim: "every MPI window is freed".into(),
            });
        }
        for (p, (func, tid), leak) in request::leaked(state, &finalized) {
            let (span, text) = match self.ctx.model.function(func).body.as_ref() {
                Some(b) => (
                    b.transition(tid).span.clone(),
                    b.transition(tid).source_text.clone(),
                ),
                None => (span_of(p), String::new()),
            };
            let (property, message, claim) = match leak {
                Leak::Request => (
                    Property::MemoryLeak,
                    format!(
                        "request leak: the request of `{text}` of process {p} is never completed \
                         (MPI_Wait/MPI_Test) nor freed (MPI_Request_free)"
                    ),
                    "every request is completed or freed",
                ),
                Leak::Persistent => (
                    Property::ResourceLeak,
                    format!(
                        "the persistent request of `{text}` of process {p} is never freed \
                         (MPI_Request_free)"
                    ),
                    "every persistent request is freed",
                ),
                Leak::FreedPending => (
                    Property::MemoryLeak,
                    format!(
                        "the receive of `{text}` of process {p}, whose request was freed \
                         (MPI_Request_free), never completes: no message reaches it before \
                         the program ends"
                    ),
                    "every operation of a freed request completes",
                ),
            };
            out.push(Violation {
                property,
                certainty,
                message,
                span,
                process: p,
                witness: witness.clone(),
                claim: claim.into(),
                snapshots: None,
            });
        }
        out.extend(super::group::resource_leaks(
            self.ctx.model,
            state,
            certainty,
            witness.as_ref(),
        ));
        out
    }
}
