//! Which MPI steps a process has in a state.

use tass_dynamic::api::{Handle, Value};
use tass_model::api::mpi::ArgRole;
use tass_model::api::LibraryFunction as LF;
use tass_semantics::api::{EngineError, Evaluator};

use super::collective::is_collective;
use super::context::{
    concrete_i64, current_call, is_implemented, is_own_state_only, is_standard_send, resolve_int,
    Call, Mpi, ProcessCall, ANY, ENVELOPE_CASE, NO_MESSAGE, PROC_NULL,
};
use super::envelope::{
    blocking_match, p2p_args, rank_cases, resolve_rank, tag_cases, with_case, P2p,
};
use super::process::{completion_stage, MpiPhase};
use super::{collective, comm, group, request};
use crate::state::State;
use crate::step::Step;

impl ProcessCall<'_> {
    /// The receive the process waits in at its call: (world rank of the
    /// source or `ANY`, tag, communicator), if it is at one and all three
    /// are determined.
    fn pending_receive(&mut self) -> Result<Option<(i64, i64, u32)>, EngineError> {
        // A blocking probe waits as a receive does (it sees a send's envelope
        // before any data moves, so a zero-buffer send can proceed).
        let call = self.call;
        let Some((src, tag, comm, P2p::Recv | P2p::Probe)) =
            p2p_args(call, self.state.inner.procs[self.p].mpi.stage)
        else {
            return Ok(None);
        };
        let Some(comm) = self.peek_comm(&call.args[comm])? else {
            return Ok(None);
        };
        let pc = self.state.inner.pc;
        let s = self.peek(&call.args[src])?;
        let t = self.peek(&call.args[tag])?;
        let size = comm::comm_size(self.state, comm);
        let f = self.mpi.ctx.f;
        let s = match resolve_rank(f, self.mpi.oracle, pc, s, size) {
            Some(ANY) => Some(ANY),
            Some(r) if r >= 0 => comm::to_world(self.state, comm, r as usize).map(i64::from),
            _ => None,
        };
        let t = resolve_int(f, self.mpi.oracle, pc, t);
        Ok(s.zip(t).map(|(s, t)| (s, t, comm)))
    }

    /// The request handle values the process's wait/test call looks at (no
    /// checks): `None` if they cannot be read (executing the call reports it).
    pub(super) fn peek_requests(&mut self) -> Option<Vec<Value>> {
        let (call, f, p) = (self.call, self.mpi.ctx.f, self.p);
        let env = self.mpi.ctx.env(self.state, p);
        let mut ev = Evaluator::without_checks(f, self.mpi.oracle, p);
        let (array, count) = match call.lf {
            LF::MpiWait | LF::MpiTest => (call.arg(ArgRole::Request), 1),
            _ => {
                let n = ev.eval_int(&env, call.arg(ArgRole::RequestCount)).ok()?;
                let n = usize::try_from(concrete_i64(f, n)?).ok()?;
                (call.arg(ArgRole::Requests), n)
            }
        };
        let ptr = ev.eval(&env, array).ok()?;
        let places = request::request_places(&mut ev, &env, ptr, count, call.span).ok()?;
        if !ev.violations.is_empty() {
            return None;
        }
        Some(places.iter().map(|pl| ev.read_place(&env, pl)).collect())
    }
}

impl Mpi<'_> {
    /// True if process `d` waits for a message from world rank `p` with `tag` on
    /// `comm`: in a blocking receive, or with a posted `MPI_Irecv`.
    pub(super) fn receiver_waits(
        &mut self,
        state: &mut State,
        d: usize,
        p: usize,
        tag: Option<i64>,
        comm: u32,
    ) -> Result<bool, EngineError> {
        if request::posted_receive_matches(state, self.ctx.f, d, p as u32, tag, comm) {
            return Ok(true);
        }
        let Some(rcall) = current_call(self.ctx.model, state, d) else {
            return Ok(false);
        };
        let Some((s, t, c)) = self.at(state, d, &rcall).pending_receive()? else {
            return Ok(false);
        };
        if !((s == ANY || s == p as i64) && (t == ANY || Some(t) == tag) && c == comm) {
            return Ok(false);
        }
        // A receive that can already take another message may not be left for
        // this one: only a receive with nothing to take waits for it.
        let sources = if s == ANY {
            comm::members(state, c)
        } else {
            vec![s as u32]
        };
        Ok(!sources
            .into_iter()
            .any(|src| blocking_match(state, self.ctx.f, src, d, t, c).is_some()))
    }

    /// Adds to `steps` the steps of the MPI call `base` (enabled by its guard): none
    /// while a receive has no matching message, a wait has an unfinished receive
    /// or a collective waits for the other processes; one per possible sender for
    /// a wildcard receive; else `base`.
    pub(crate) fn push_steps(
        &mut self,
        scratch: &mut State,
        base: Step,
        steps: &mut Vec<Step>,
    ) -> Result<(), EngineError> {
        let p = base.process;
        let Some(call) =
            current_call(self.ctx.model, scratch, p).filter(|c| c.tid == base.transition)
        else {
            steps.push(base);
            return Ok(());
        };
        if !is_implemented(call.lf) || scratch.inner.procs[p].mpi.phase != MpiPhase::Initialized {
            // Executing it reports the error or the init/finalize violation.
            steps.push(base);
            return Ok(());
        }
        steps.extend(self.at(scratch, p, &call).steps(base)?);
        Ok(())
    }
}

impl ProcessCall<'_> {
    /// The steps of the process's implemented MPI call `base`, once MPI is
    /// initialised (see [`Mpi::push_steps`]).
    fn steps(&mut self, base: Step) -> Result<Vec<Step>, EngineError> {
        let (p, call) = (self.p, self.call);
        if super::rma::rma_op(call).is_some() {
            return self.rma_steps(base);
        }
        if is_collective(call.lf) {
            return self.collective_steps(base);
        }
        if matches!(
            call.lf,
            LF::MpiWait | LF::MpiWaitall | LF::MpiWaitany | LF::MpiTest | LF::MpiTestall
        ) {
            return self.completion_steps(base);
        }
        let stage = self.state.inner.procs[p].mpi.stage;
        if let Some(request) = completion_stage(call.lf, stage) {
            // The call returns once its send completes; as for a wait, that
            // depends only on the process's own request.
            let handle = Value::Handle(Handle::Request(request));
            return Ok(match request::completion(self.state, p, &handle) {
                request::Completion::Pending => Vec::new(),
                request::Completion::Ready { by_buffering, .. } => vec![Step {
                    commutes: true,
                    buffered_send: by_buffering,
                    ..base
                }],
                _ => vec![base], // executing it reports the lost request
            });
        }
        let Some(envelope) = p2p_args(call, stage) else {
            let own_state_only = (group::is_local_call(call.lf) && call.lf != LF::MpiBufferDetach)
                || is_own_state_only(call.lf);
            return Ok(vec![Step {
                commutes: own_state_only,
                ..base
            }]);
        };
        self.envelope_steps(base, envelope)
    }

    /// The steps of collective call `call` of process `base.process`: a
    /// nonblocking one posts alone; a blocking one is one step of all members,
    /// owned by the first, once every member has arrived.
    fn collective_steps(&mut self, base: Step) -> Result<Vec<Step>, EngineError> {
        let p = self.p;
        let Some(comm) = self.peek_collective_comm()? else {
            return Ok(vec![base]); // an invalid communicator: executing it reports it
        };
        let n = comm::comm_size(self.state, comm);
        if collective::is_nonblocking(self.call.lf) {
            // A nonblocking collective posts this process's part: never blocks.
            return self.per_root(n, base);
        }
        // One step for all members, owned by the first, once all have arrived.
        if collective::has_post(self.state, p, comm) {
            // Its earlier nonblocking collectives on `comm` come first.
            return Ok(Vec::new());
        }
        let members = comm::members(self.state, comm);
        if members
            .iter()
            .any(|&q| collective::has_post(self.state, q as usize, comm))
        {
            // Another member's next collective there is a nonblocking one it
            // posted: this call does not match it (executing reports it).
            return Ok(vec![base]);
        }
        if members.first() != Some(&(p as u32)) {
            return Ok(Vec::new());
        }
        for &q in &members {
            let q = q as usize;
            let Some(c) = current_call(self.mpi.ctx.model, self.state, q)
                .filter(|c| is_collective(c.lf) && !collective::is_nonblocking(c.lf))
            else {
                return Ok(Vec::new());
            };
            if self.state.inner.procs[q].mpi.phase != MpiPhase::Initialized
                || self.mpi.at(self.state, q, &c).peek_collective_comm()? != Some(comm)
            {
                return Ok(Vec::new());
            }
        }
        // The first member's root is the one the others must agree with.
        self.per_root(n, base)
    }

    /// The steps of a wait or test `call`: one per request `MPI_Waitany` may
    /// complete, else one if the call can complete (or only tests).
    fn completion_steps(&mut self, base: Step) -> Result<Vec<Step>, EngineError> {
        let (p, call) = (self.p, self.call);
        // Completions depend only on the process's own requests (its progress
        // steps match them), so these steps commute with the other processes'.
        let Some(values) = self.peek_requests() else {
            return Ok(vec![base]);
        };
        let scratch = &*self.state;
        let mut steps = Vec::new();
        let states: Vec<request::Completion> = values
            .iter()
            .map(|v| request::completion(scratch, p, v))
            .collect();
        // Completing an MPI_Rput/MPI_Rget request ends the hold on its
        // origin buffer and an MPI_Rget's access to its target: the target's
        // steps must be tried on both sides of it.
        let ends_rma = values.iter().any(|v| {
            request::requests_named(scratch, p, v).any(|(_, r)| r.kind == request::RequestKind::Rma)
        });
        let by_buffering = states.iter().any(|c| {
            matches!(
                c,
                request::Completion::Ready {
                    by_buffering: true,
                    ..
                }
            )
        });
        let pending = states
            .iter()
            .any(|c| matches!(c, request::Completion::Pending));
        match call.lf {
            LF::MpiWait | LF::MpiWaitall if pending => {}
            LF::MpiWaitany => {
                let ready: Vec<usize> = (0..states.len())
                    .filter(|&k| {
                        matches!(
                            states[k],
                            request::Completion::Ready { .. } | request::Completion::Invalid(_)
                        )
                    })
                    .collect();
                if ready.is_empty() && !pending {
                    steps.push(Step {
                        commutes: true,
                        ..base
                    }); // all null: MPI_UNDEFINED
                }
                for k in ready {
                    steps.push(Step {
                        choice: Some(k as u32),
                        commutes: true,
                        buffered_send: matches!(
                            states[k],
                            request::Completion::Ready {
                                by_buffering: true,
                                ..
                            }
                        ),
                        ..base.clone()
                    });
                }
            }
            _ => {
                let may_fail = matches!(call.lf, LF::MpiTest | LF::MpiTestall)
                    && request::test_may_find_incomplete(&states);
                let failed = may_fail.then(|| request::failed_test(&base, NO_MESSAGE));
                steps.push(Step {
                    commutes: true,
                    buffered_send: by_buffering,
                    ..base
                });
                steps.extend(failed);
            }
        }
        if ends_rma {
            for step in steps.iter_mut().filter(|s| s.choice != Some(NO_MESSAGE)) {
                step.commutes = false;
            }
            let early = self.early_update_steps(&values, &steps)?;
            steps.extend(early);
        }
        Ok(steps)
    }

    /// For each of the wait or test's `steps` that completes request-based
    /// RMA operations still pending (an `MPI_Rget_accumulate`, performed by
    /// the completion), one more step per way other origins' pending
    /// updates of that memory may have been applied first
    /// (`rma/request_ops.rs`). `values` are the request handles the call
    /// looks at.
    fn early_update_steps(
        &mut self,
        values: &[Value],
        steps: &[Step],
    ) -> Result<Vec<Step>, EngineError> {
        let call = self.call;
        let rma_handle = |v: &Value| match v {
            Value::Handle(Handle::Request(h)) => Some(*h),
            _ => None,
        };
        let mut early = Vec::new();
        for step in steps {
            if step.choice == Some(NO_MESSAGE) {
                continue;
            }
            let handles: Vec<u32> = match (call.lf, step.choice) {
                (LF::MpiWaitany, Some(k)) => values
                    .get(k as usize)
                    .and_then(rma_handle)
                    .into_iter()
                    .collect(),
                (LF::MpiWaitany, None) => Vec::new(),
                _ => values.iter().filter_map(rma_handle).collect(),
            };
            let index = step.choice.filter(|_| call.lf == LF::MpiWaitany);
            let choices = (self.mpi).request_early_choices(self.state, self.p, &handles, call)?;
            for order in choices {
                early.push(Step {
                    choice: Some(crate::mpi::rma::wait_choice(index, order)),
                    ..step.clone()
                });
            }
        }
        Ok(early)
    }

    /// The steps of point-to-point call `call` whose rank, tag and
    /// communicator are at `envelope`: the call itself when they are known,
    /// else one step per value that splits the path.
    fn envelope_steps(
        &mut self,
        base: Step,
        (rank_arg, tag_arg, comm_arg, kind): (usize, usize, usize, P2p),
    ) -> Result<Vec<Step>, EngineError> {
        let call = self.call;
        let f = self.mpi.ctx.f;
        let Some(comm) = self.peek_comm(&call.args[comm_arg])? else {
            return Ok(vec![base]); // an invalid communicator: executing it reports it
        };
        let n = comm::comm_size(self.state, comm);
        let pc = self.state.inner.pc;
        let tag = self.peek(&call.args[tag_arg])?;
        let Some(tags) = tag_cases(f, self.mpi.oracle, pc, tag) else {
            // Too many values to split on: executing it reports that.
            return Ok(vec![base]);
        };
        let rank = self.peek(&call.args[rank_arg])?;
        let mut cases = Vec::new();
        for (tag_guard, tag) in tags {
            let pc = tag_guard.map_or(pc, |g| f.and(pc, g));
            for (rank_guard, rank) in rank_cases(f, self.mpi.oracle, pc, rank, n) {
                let guard = match (tag_guard, rank_guard) {
                    (Some(a), Some(b)) => Some(f.and(a, b)),
                    (a, b) => a.or(b),
                };
                cases.push((guard, rank, tag));
            }
        }
        if let [(guard, rank, tag)] = cases[..] {
            // One case: the call runs under it.
            let step = with_case(f, &base, guard);
            return self.p2p_steps(step, (kind, comm, n), (rank, tag));
        }
        // The rank or tag depends on the inputs: split the path first, one step per
        // value, and let the call run on each path where its envelope is known.
        // (Matching and the deadlock test see one value per path; steps for
        // different values at one state would let one path's match hide another
        // path's deadlock.)
        Ok(cases
            .into_iter()
            .filter_map(|(guard, _, _)| guard)
            .map(|guard| Step {
                guard,
                guard_known_true: false,
                choice: Some(ENVELOPE_CASE),
                commutes: false,
                ..base.clone()
            })
            .collect())
    }

    /// The steps of point-to-point call `call` (`step`) whose rank argument is
    /// `value` (`None`: not a rank of the communicator, which executing reports)
    /// and whose tag is `tag`: for a blocking receive or probe one per sender with
    /// a matching message, else `step` itself.
    fn p2p_steps(
        &mut self,
        step: Step,
        (kind, comm, n): (P2p, u32, usize),
        (value, tag): (Option<i64>, i64),
    ) -> Result<Vec<Step>, EngineError> {
        let (f, p, call) = (self.mpi.ctx.f, self.p, self.call);
        let blocking = matches!(kind, P2p::Recv | P2p::Probe | P2p::Iprobe);
        let source = match value {
            Some(v) if blocking && (v == ANY || (0..n as i64).contains(&v)) => v,
            _ => {
                // a send, a posted receive, MPI_PROC_NULL (completes at once) or
                // a bad rank (reported)
                let mut step = step;
                match value {
                    Some(PROC_NULL) => step.commutes = true,
                    Some(_) if kind == P2p::Post => step.commutes = true,
                    Some(d) if kind == P2p::Send && (0..n as i64).contains(&d) => {
                        step.commutes = true;
                        if is_standard_send(call.lf) {
                            let tag = Some(tag);
                            let waiting = match comm::to_world(self.state, comm, d as usize) {
                                Some(dw) => (self.mpi).receiver_waits(
                                    self.state,
                                    dw as usize,
                                    p,
                                    tag,
                                    comm,
                                )?,
                                None => false,
                            };
                            // MPI_Bsend uses the buffer the program attached, not
                            // MPI's: it always completes locally. MPI_Ssend posts
                            // its message here and waits for the receive at its
                            // next step (`CallStage`).
                            step.buffered_send =
                                !waiting && !matches!(call.lf, LF::MpiBsend | LF::MpiSsend);
                        }
                    }
                    _ => {}
                }
                return Ok(vec![step]);
            }
        };
        let scratch = &*self.state;
        let mut steps = Vec::new();
        let commutes = source != ANY && kind != P2p::Iprobe;
        let sources: Vec<u32> = if source == ANY {
            comm::members(scratch, comm)
        } else {
            comm::to_world(scratch, comm, source as usize)
                .into_iter()
                .collect()
        };
        if kind == P2p::Iprobe {
            // MPI may report "no message" even when one was sent (it may still
            // be in transit), so that outcome is always possible.
            steps.push(Step {
                choice: Some(NO_MESSAGE),
                ..step.clone()
            });
        }
        for s in sources {
            if blocking_match(scratch, f, s, p, tag, comm).is_some() {
                steps.push(Step {
                    choice: Some(s),
                    commutes,
                    ..step.clone()
                });
            }
        }
        Ok(steps)
    }
}

impl Mpi<'_> {
    /// Whether step `step` of a wait call completes only by buffering (an
    /// `MPI_Isend` whose message nobody has received yet).
    pub(super) fn wait_needs_buffering(
        &mut self,
        state: &mut State,
        step: &Step,
        call: &Call<'_>,
    ) -> bool {
        let p = step.process;
        let Some(values) = self.at(state, p, call).peek_requests() else {
            return false;
        };
        let buffered = |v: &Value| {
            matches!(
                request::completion(state, p, v),
                request::Completion::Ready {
                    by_buffering: true,
                    ..
                }
            )
        };
        match (call.lf, step.choice) {
            (LF::MpiWaitany, Some(k)) => values.get(k as usize).is_some_and(buffered),
            (LF::MpiWait | LF::MpiWaitall, _) => values.iter().any(buffered),
            _ => false,
        }
    }
}
