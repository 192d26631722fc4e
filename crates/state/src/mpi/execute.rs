//! Executing a process's MPI call (or one stage of it).

use tass_dynamic::api::{Step as PStep, Value};
use tass_model::api::mpi::{ArgRole, MPI_UNDEFINED};
use tass_model::api::{FunctionId, LibraryFunction as LF};
use tass_semantics::api::{
    Change, EngineError, Environment, Evaluator, FalseClaim, Property, Violation,
};
use tass_symbolic::api::Type;

use super::address::AintOp;
use super::buffer::concrete;
use super::collective::{is_collective, push_due_fold};
use super::context::{
    current_call, is_implemented, is_nonblocking_send, is_standard_send, write_through, Call, Mpi,
    MpiCall, ENVELOPE_CASE, NO_MESSAGE,
};
use super::group::Done;
use super::p2p::{receive, send};
use super::process::{CallStage, MpiPhase};
use super::request::RequestKind;
use super::{bsend, collective, comm, datatypes, group, request};
use crate::env::set_mpi;
use crate::state::State;
use crate::step::Step;

/// What executing an MPI step produced: violations and changed variables.
pub(super) type MpiOutcome = Result<(Vec<Violation>, Vec<Change>), EngineError>;

impl Mpi<'_> {
    /// Executes `step` if it is an MPI call (`None` otherwise): the violations and
    /// changes of the step.
    pub(crate) fn execute(&mut self, state: &mut State, step: &Step) -> Option<MpiOutcome> {
        if step.request.is_some() {
            return Some(request::execute_progress(
                &self.ctx,
                self.oracle,
                state,
                step,
            ));
        }
        if step.choice == Some(ENVELOPE_CASE) {
            // Only the path splits; the call runs at the next step.
            let s = state.inner_mut();
            s.pc = self.ctx.f.and(s.pc, step.guard);
            return Some(Ok((Vec::new(), Vec::new())));
        }
        let call = current_call(self.ctx.model, state, step.process)
            .filter(|c| c.tid == step.transition)?;
        Some(self.execute_call(state, step, &call))
    }

    /// Executes MPI call `call` at `step`: RMA calls and collectives by their
    /// own steps, the others by [`MpiCall::dispatch`].
    pub(super) fn execute_call(
        &mut self,
        state: &mut State,
        step: &Step,
        call: &Call<'_>,
    ) -> Result<(Vec<Violation>, Vec<Change>), EngineError> {
        let f = self.ctx.f;
        let p = step.process;
        if !is_implemented(call.lf) {
            return Err(EngineError::unsupported(
                format!("not yet supported: {}", call.lf.c_name()),
                call.span,
            ));
        }
        let phase = state.inner.procs[p].mpi.phase;
        if let (Some(op), MpiPhase::Initialized) = (super::rma::rma_op(call), phase) {
            use tass_model::api::mpi::RmaOp;
            return match op {
                RmaOp::Create | RmaOp::Free | RmaOp::Fence => {
                    self.at(state, p, call).rma_collective()
                }
                RmaOp::Lock | RmaOp::Unlock | RmaOp::Flush => {
                    self.at(state, p, call).passive_call(step)
                }
                RmaOp::Post
                | RmaOp::Start
                | RmaOp::Complete
                | RmaOp::Wait
                | RmaOp::Test
                | RmaOp::Sync => self.at(state, p, call).pscw_call(step),
                RmaOp::Put
                | RmaOp::Get
                | RmaOp::Accumulate
                | RmaOp::FetchAndOp
                | RmaOp::CompareAndSwap
                | RmaOp::GetAccumulate => self.at(state, p, call).rma_operation(),
            };
        }
        if is_collective(call.lf) && phase == MpiPhase::Initialized {
            if !step.guard_known_true {
                // The step for one value of a root that depends on the inputs
                // (`per_root`): the collective runs under it.
                let s = state.inner_mut();
                s.pc = f.and(s.pc, step.guard);
            }
            if collective::is_nonblocking(call.lf) {
                return self.at(state, p, call).post();
            }
            return self.collective_for(state, p);
        }
        let mut env = self.ctx.env(state, p);
        let mut ev = Evaluator::checking(f, self.oracle, p);
        if !step.guard_known_true {
            ev.assumed.push(step.guard);
        }
        let after = MpiCall::new(&mut ev, &mut env, call).dispatch(phase, step)?;
        let mut rma_due = Vec::new();
        match after {
            After::Return => MpiCall::new(&mut ev, &mut env, call).return_success()?,
            After::ReturnOwing(due) => {
                MpiCall::new(&mut ev, &mut env, call).return_success()?;
                for d in &due.folds {
                    push_due_fold(&mut ev, &mut env, d, call.span)?;
                }
                rma_due = due.rma;
            }
            After::Stay => {}
            After::End => return Ok((ev.violations, Vec::new())),
        }
        let pc = ev.current_pc(&env);
        env.set_path_condition(pc);
        let mut violations = std::mem::take(&mut ev.violations);
        drop(ev);
        if matches!(call.lf, LF::MpiStart | LF::MpiStartall) {
            // Started persistent collectives every member has now posted.
            let mut at = self.at(state, p, call);
            at.perform_started()?;
            violations.append(&mut at.violations);
        }
        if !rma_due.is_empty() {
            // The completed requests' RMA operations (`rma/request_ops.rs`).
            let order = super::rma::split_wait_choice(step.choice).1;
            self.complete_rma_requests(state, p, &rma_due, order, &mut violations)?;
        }
        Ok((violations, Vec::new()))
    }
}

/// What is left to do after an MPI call's own work.
#[derive(Clone, PartialEq, Eq, Debug)]
enum After {
    /// The call returns: `MPI_SUCCESS` is written, the process moves past it
    /// and the path condition takes what was assumed.
    Return,
    /// As `Return`, then the calls of user functions that the completed
    /// nonblocking reductions still owe run, in frames above the call, and
    /// the completed request-based RMA operations are performed.
    ReturnOwing(request::Due),
    /// The call has more to do (a stage of a call of several steps): the
    /// process stays at it; the path condition takes what was assumed.
    Stay,
    /// The step is over: the call ended it its own way, or reported an error
    /// that stops it.
    End,
}

/// What a `dispatch` arm gives whose call returns once its work, `done`,
/// succeeded.
fn returns(done: Result<(), EngineError>) -> Result<After, EngineError> {
    done.map(|()| After::Return)
}

impl MpiCall<'_, '_, '_> {
    /// Executes the call at `step` in `phase`, when it is neither an RMA call
    /// nor a collective: one `match` arm a call kind, each a line or two that
    /// hands over to the method of that kind.
    fn dispatch(&mut self, phase: MpiPhase, step: &Step) -> Result<After, EngineError> {
        let call = self.call;
        Ok(match (call.lf, phase) {
            (LF::MpiInit, MpiPhase::BeforeInit) => {
                set_mpi(self.env, |m| m.phase = MpiPhase::Initialized);
                After::Return
            }
            (LF::MpiInitThread, MpiPhase::BeforeInit) => {
                set_mpi(self.env, |m| m.phase = MpiPhase::Initialized);
                self.init_thread()?;
                After::Return
            }
            (LF::MpiInit | LF::MpiInitThread, _) => {
                self.misplaced("after MPI_Init or MPI_Init_thread");
                After::Return
            }
            (LF::MpiWtime, _) => self.wtime()?,
            (_, MpiPhase::BeforeInit) => {
                self.misplaced("before MPI_Init");
                After::Return
            }
            (_, MpiPhase::Finalized) => {
                self.misplaced("after MPI_Finalize");
                After::Return
            }
            (LF::MpiFinalize, _) => {
                self.finalize();
                After::Return
            }
            (LF::MpiAbort, _) => self.abort()?,
            (LF::MpiCommRank | LF::MpiCommSize, _) => self.comm_query()?,
            (LF::MpiGetCount, _) => self.get_count()?,
            (LF::MpiQueryThread, _) => returns(self.query_thread())?,
            (LF::MpiGetProcessorName, _) => returns(self.processor_name())?,
            (LF::MpiTypeSize, _) => returns(self.type_size())?,
            (LF::MpiReduceLocal, _) => {
                // With a user operator the call has returned already.
                if self.reduce_local()? {
                    After::Stay
                } else {
                    After::Return
                }
            }
            (
                LF::MpiSendInit
                | LF::MpiSsendInit
                | LF::MpiRsendInit
                | LF::MpiBsendInit
                | LF::MpiRecvInit,
                _,
            ) => returns(self.init_persistent(step.function))?,
            (lf, _) if collective::is_persistent_init(lf) => {
                returns(self.init_persistent_collective(step.function))?
            }
            (LF::MpiStart, _) => returns(self.start())?,
            (LF::MpiTypeGetExtent, _) => returns(self.get_extent())?,
            (LF::MpiGetAddress, _) => returns(self.get_address())?,
            (LF::MpiAintAdd, _) => {
                self.aint_arithmetic(AintOp::Add)?;
                After::End
            }
            (LF::MpiAintDiff, _) => {
                self.aint_arithmetic(AintOp::Diff)?;
                After::End
            }
            (
                LF::MpiTypeContiguous
                | LF::MpiTypeVector
                | LF::MpiTypeIndexed
                | LF::MpiTypeCreateStruct,
                _,
            ) => returns(self.build_datatype())?,
            (LF::MpiTypeCommit | LF::MpiTypeFree, _) => returns(self.commit_or_free())?,
            (LF::MpiStartall, _) => returns(self.start_all())?,
            (LF::MpiSsend | LF::MpiSendrecv | LF::MpiSendrecvReplace, _) => {
                if self.staged_call(step)? {
                    After::Return
                } else {
                    After::Stay
                }
            }
            (LF::MpiBsend, _) => returns(self.buffered_send())?,
            (lf, _) if group::is_local_call(lf) => {
                let origin = (step.function, call.tid);
                match self.execute_local(origin)? {
                    Done::Returns => After::Return,
                    Done::Failed => After::End,
                }
            }
            (lf, _) if is_standard_send(lf) => {
                let (ev, env, call) = self.parts();
                send(ev, env, call.send_half(), call.span, None)?;
                After::Return
            }
            (lf, _) if is_nonblocking_send(lf) => returns(self.nonblocking_send(step.function))?,
            (LF::MpiIrecv, _) => returns(self.post_receive(step.function))?,
            (LF::MpiRecv, _) => {
                let (ev, env, call) = self.parts();
                receive(ev, env, call.receive_half(), step.choice, call.span)?;
                After::Return
            }
            (LF::MpiProbe | LF::MpiIprobe, _) => returns(self.probe(step.choice))?,
            (LF::MpiWait | LF::MpiTest, _) => self.wait_or_test(step)?,
            (LF::MpiWaitall | LF::MpiTestall | LF::MpiWaitany, _) => {
                self.wait_or_test_many(step)?
            }
            (LF::MpiRequestFree, _) => returns(self.request_free())?,
            (lf, _) => {
                return Err(EngineError::unsupported(
                    format!("not yet supported: {}", lf.c_name()),
                    call.span,
                ))
            }
        })
    }
    /// Reports the call as made `when` MPI does not allow it
    /// (`mpi-init-finalize`).
    fn misplaced(&mut self, when: &str) {
        let (ev, env, call) = self.parts();
        let message = format!("{} called {when}", call.lf.c_name());
        ev.fail(&*env, Property::MpiInitFinalize, message, call.span);
    }

    /// `MPI_Finalize`: every derived datatype must have been freed.
    fn finalize(&mut self) {
        let (ev, env, call) = self.parts();
        datatypes::check_freed(ev, &*env, call.span);
        set_mpi(env, |m| m.phase = MpiPhase::Finalized);
    }

    /// `MPI_Bsend`: the send, taking its room in the attached buffer.
    fn buffered_send(&mut self) -> Result<(), EngineError> {
        let (ev, env, call) = self.parts();
        let before = bsend::before(&*env);
        send(ev, env, call.send_half(), call.span, None)?;
        bsend::after(ev, env, &before, call.send_half(), call.span)
    }

    /// `MPI_Isend`, `MPI_Issend` (made in `function`): the send and its request.
    fn nonblocking_send(&mut self, function: FunctionId) -> Result<(), EngineError> {
        // Its pending send buffer is kept as basic elements only.
        self.refuse_mixed()?;
        let (ev, env, call) = self.parts();
        let origin = (function, call.tid);
        let synchronous = call.lf == LF::MpiIssend;
        let h = request::add_request(env, RequestKind::Send { synchronous }, origin);
        let sent = send(ev, env, call.send_half(), call.span, Some(h))?;
        if let Some(data) = sent {
            let pointer = ev.eval(&*env, call.arg(ArgRole::Buffer))?;
            let sent = request::sent_of(ev.factory(), call, pointer, data);
            request::keep_sent(env, h, sent);
        }
        self.write_request(call.arg(ArgRole::Request), h)
    }

    /// `MPI_Request_free(&request)`.
    fn request_free(&mut self) -> Result<(), EngineError> {
        let (ev, env, call) = self.parts();
        let ptr = ev.eval(&*env, call.arg(ArgRole::Request))?;
        let place = ev.deref_place(&*env, ptr, false, call.span, &|| "request".into())?;
        let v = ev.read_place(&*env, &place);
        request::free_request(ev, env, &place, &v, call.span)
    }

    /// `MPI_Wtime`: a fresh real, not smaller than the last one the process saw.
    fn wtime(&mut self) -> Result<After, EngineError> {
        let (ev, env, _) = self.parts();
        let f = ev.factory();
        let t = f.fresh_symbol("MPI_Wtime", Type::Real);
        let last = env.state.inner.procs[env.proc].mpi.wtime;
        ev.assumed
            .push(f.le(last.unwrap_or_else(|| f.zero(&Type::Real)), t));
        set_mpi(env, |m| m.wtime = Some(t));
        self.return_value(t)?;
        Ok(After::End)
    }

    /// `MPI_Abort`: an assertion failure; the process ends at the call.
    fn abort(&mut self) -> Result<After, EngineError> {
        self.checked_comm()?;
        let (ev, env, call) = self.parts();
        let message = "MPI_Abort is called: the program aborts".into();
        let claim = FalseClaim::new(Property::Assertion, message, call.span);
        ev.record_false(&*env, claim.claiming("MPI_Abort is not called"));
        let pc = ev.current_pc(&*env);
        // terminates at the call's own location: later reports point at it
        env.terminate(None);
        env.set_path_condition(pc);
        Ok(After::End)
    }

    /// `MPI_Comm_rank`, `MPI_Comm_size`.
    fn comm_query(&mut self) -> Result<After, EngineError> {
        let Some(comm) = self.checked_comm()? else {
            return Ok(After::End);
        };
        let (ev, env, call) = self.parts();
        let f = ev.factory();
        let name = call.lf.c_name();
        let value = if call.lf == LF::MpiCommRank {
            comm::rank_in(env.state, comm, env.proc as u32).unwrap_or(0)
        } else {
            comm::comm_size(env.state, comm)
        };
        let out = if call.lf == LF::MpiCommRank {
            ArgRole::RankOut
        } else {
            ArgRole::SizeOut
        };
        let value = Value::Data(f.int(value as i64));
        write_through(ev, env, call.arg(out), value, name, call.span)?;
        Ok(After::Return)
    }

    /// `MPI_Get_count`: the count the status records.
    fn get_count(&mut self) -> Result<After, EngineError> {
        let (ev, env, call) = self.parts();
        let f = ev.factory();
        let st = ev.eval(&*env, call.arg(ArgRole::Status))?;
        let (root, mut path) = ev.deref_place(&*env, st, false, call.span, &|| "status".into())?;
        path.push(PStep::Field(3));
        let count = ev.read_place(&*env, &(root, path));
        let count = match count {
            Value::Data(c) => c,
            _ => f.fresh_symbol("undef", Type::Int),
        };
        let count = self.items_of_elements(count)?;
        let (ev, env, call) = self.parts();
        let out = call.arg(ArgRole::CountOut);
        write_through(ev, env, out, Value::Data(count), "count", call.span)?;
        Ok(After::Return)
    }

    /// `MPI_Wait`, `MPI_Test`.
    fn wait_or_test(&mut self, step: &Step) -> Result<After, EngineError> {
        let (ev, env, call) = self.parts();
        let name = call.lf.c_name();
        let ptr = ev.eval(&*env, call.arg(ArgRole::Request))?;
        let place = ev.deref_place(&*env, ptr, false, call.span, &|| "request".into())?;
        let v = ev.read_place(&*env, &place);
        let flag = call.arg_if(ArgRole::Flag);
        let status = ev.eval(&*env, call.arg(ArgRole::Status))?;
        // `NO_MESSAGE`: the test as zero-buffer MPI runs it (`failed_poll`).
        let pending = step.choice == Some(NO_MESSAGE)
            || matches!(
                request::completion(env.state, env.proc, &v),
                request::Completion::Pending
            );
        let mut due = request::Due::default();
        if !pending {
            request::complete(ev, env, (&place, &v), status, (name, call.span), &mut due)?;
        }
        if let Some(flag) = flag {
            self.write_int_through(flag, i64::from(!pending))?;
        }
        Ok(returning(due))
    }

    /// `MPI_Waitall`, `MPI_Testall`, `MPI_Waitany`.
    fn wait_or_test_many(&mut self, step: &Step) -> Result<After, EngineError> {
        let (ev, env, call) = self.parts();
        let f = ev.factory();
        let name = call.lf.c_name();
        let count = ev.eval_int(&*env, call.arg(ArgRole::RequestCount))?;
        let count = concrete(ev, count, "request count", call.span)?;
        let Ok(count) = usize::try_from(count) else {
            let message = format!("negative count {count} in {name}");
            ev.fail(&*env, Property::MpiCount, message, call.span);
            return Ok(After::End);
        };
        let ptr = ev.eval(&*env, call.arg(ArgRole::Requests))?;
        let places = request::request_places(ev, &*env, ptr, count, call.span)?;
        let values: Vec<Value> = places.iter().map(|pl| ev.read_place(&*env, pl)).collect();
        let pending = step.choice == Some(NO_MESSAGE)
            || values.iter().any(|v| {
                matches!(
                    request::completion(env.state, env.proc, v),
                    request::Completion::Pending
                )
            });
        let mut due = request::Due::default();
        if call.lf == LF::MpiWaitany {
            let status = ev.eval(&*env, call.arg(ArgRole::Status))?;
            let index = match super::rma::split_wait_choice(step.choice).0 {
                Some(k) => {
                    let k = k as usize;
                    let request = (&places[k], &values[k]);
                    request::complete(ev, env, request, status, (name, call.span), &mut due)?;
                    k as i64
                }
                None => {
                    let empty = request::empty_status(f);
                    request::write_status(ev, env, status, empty, call.span)?;
                    MPI_UNDEFINED
                }
            };
            self.write_int_through(call.arg(ArgRole::Index), index)?;
            return Ok(returning(due));
        }
        let statuses = ev.eval(&*env, call.arg(ArgRole::Statuses))?;
        if !pending {
            for k in 0..count {
                let st = request::status_at(ev, &*env, &statuses, k, call.span)?;
                let request = (&places[k], &values[k]);
                request::complete(ev, env, request, st, (name, call.span), &mut due)?;
            }
        }
        if let Some(flag) = call.arg_if(ArgRole::Flag) {
            self.write_int_through(flag, i64::from(!pending))?;
        }
        Ok(returning(due))
    }

    /// One step of `MPI_Ssend` or `MPI_Sendrecv(_replace)` (see [`CallStage`]):
    /// posts the message, takes the receive half's message, or returns once the
    /// send has completed. True if the call returned.
    pub(super) fn staged_call(&mut self, step: &Step) -> Result<bool, EngineError> {
        let (ev, env, call) = self.parts();
        let p = env.proc;
        match env.state.inner.procs[p].mpi.stage {
            CallStage::Start => {
                if call.lf == LF::MpiSendrecv {
                    self.check_disjoint_buffers()?;
                }
                let (ev, env, call) = self.parts();
                let origin = (step.function, call.tid);
                let synchronous = call.lf == LF::MpiSsend;
                let request = request::add_request(env, RequestKind::Send { synchronous }, origin);
                send(ev, env, call.send_half(), call.span, Some(request))?;
                set_mpi(env, |m| m.stage = CallStage::Sent { request });
                Ok(false)
            }
            CallStage::Sent { request } if call.lf != LF::MpiSsend => {
                receive(ev, env, call.receive_half(), step.choice, call.span)?;
                set_mpi(env, |m| m.stage = CallStage::Received { request });
                Ok(false)
            }
            CallStage::Sent { request } | CallStage::Received { request } => {
                let requests = &env.state.inner.procs[p].mpi.requests;
                let index = requests
                    .iter()
                    .position(|r| r.handle == request)
                    .ok_or_else(|| {
                        EngineError::invalid(
                            "the request of a blocking send vanished",
                            Some(call.span),
                        )
                    })?;
                request::remove_request(env, index);
                set_mpi(env, |m| m.stage = CallStage::Start);
                Ok(true)
            }
        }
    }
}

/// How a wait or test returns: with what its completions owe, if anything.
fn returning(due: request::Due) -> After {
    if due.folds.is_empty() && due.rma.is_empty() {
        After::Return
    } else {
        After::ReturnOwing(due)
    }
}
