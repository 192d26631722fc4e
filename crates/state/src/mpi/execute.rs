//! Executing a process's MPI call (or one stage of it).

use tass_dynamic::api::{Step as PStep, Value};
use tass_model::api::mpi::{ArgRole, MPI_UNDEFINED};
use tass_model::api::LibraryFunction as LF;
use tass_semantics::api::{Change, EngineError, Environment, Evaluator, Property, Violation};
use tass_symbolic::api::Type;

use super::buffer::concrete;
use super::collective::{is_collective, push_due_fold, DueFold};
use super::comm::check_comm;
use super::context::{
    current_call, is_implemented, is_nonblocking_send, is_standard_send, write_int_through,
    write_request, write_success, Call, Mpi, MpiCall, ENVELOPE_CASE, NO_MESSAGE,
};
use super::group::Done;
use super::p2p::{receive, send};
use super::process::{CallStage, MpiPhase};
use super::request::RequestKind;
use super::{bsend, collective, comm, datatypes, group, local, request};
use crate::env::{set_mpi, ProcEnv};
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

    /// Executes MPI call `call` at `step`. Longer than 150 lines on purpose: one
    /// `match` arm a call kind, each a line or two that hands over to the module
    /// of that kind; split, the dispatch would be read in pieces.
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
                RmaOp::Create | RmaOp::Free | RmaOp::Fence => self.rma_collective(state, p, call),
                RmaOp::Lock | RmaOp::Unlock | RmaOp::Flush => self.passive_call(state, step, call),
                RmaOp::Post
                | RmaOp::Start
                | RmaOp::Complete
                | RmaOp::Wait
                | RmaOp::Test
                | RmaOp::Sync => self.pscw_call(state, step, call),
                RmaOp::Put
                | RmaOp::Get
                | RmaOp::Accumulate
                | RmaOp::FetchAndOp
                | RmaOp::CompareAndSwap
                | RmaOp::GetAccumulate => self.rma_operation(state, step, call),
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
                return self.post(state, p, call);
            }
            return self.collective_for(state, p);
        }
        let mut env = self.ctx.env(state, p);
        let mut ev = Evaluator::checking(f, self.oracle, p);
        if !step.guard_known_true {
            ev.assumed.push(step.guard);
        }
        let name = call.lf.c_name();
        let after = match (call.lf, phase) {
            (LF::MpiInit, MpiPhase::BeforeInit) => {
                set_mpi(&mut env, |m| m.phase = MpiPhase::Initialized);
                After::Return
            }
            (LF::MpiInitThread, MpiPhase::BeforeInit) => {
                set_mpi(&mut env, |m| m.phase = MpiPhase::Initialized);
                local::init_thread(&mut ev, &mut env, call)?;
                After::Return
            }
            (LF::MpiInit | LF::MpiInitThread, _) => {
                let message = format!("{name} called after MPI_Init or MPI_Init_thread");
                ev.fail(&env, Property::MpiInitFinalize, message, call.span);
                After::Return
            }
            (LF::MpiWtime, _) => wtime(&mut ev, &mut env, call)?,
            (_, MpiPhase::BeforeInit) => {
                let message = format!("{name} called before MPI_Init");
                ev.fail(&env, Property::MpiInitFinalize, message, call.span);
                After::Return
            }
            (_, MpiPhase::Finalized) => {
                let message = format!("{name} called after MPI_Finalize");
                ev.fail(&env, Property::MpiInitFinalize, message, call.span);
                After::Return
            }
            (LF::MpiFinalize, _) => {
                datatypes::check_freed(&mut ev, &env, call.span);
                set_mpi(&mut env, |m| m.phase = MpiPhase::Finalized);
                After::Return
            }
            (LF::MpiAbort, _) => abort(&mut ev, &mut env, call)?,
            (LF::MpiCommRank | LF::MpiCommSize, _) => comm_query(&mut ev, &mut env, call)?,
            (LF::MpiGetCount, _) => get_count(&mut ev, &mut env, call)?,
            (LF::MpiQueryThread, _) => {
                local::query_thread(&mut ev, &mut env, call)?;
                After::Return
            }
            (LF::MpiGetProcessorName, _) => {
                local::processor_name(&mut ev, &mut env, call)?;
                After::Return
            }
            (LF::MpiTypeSize, _) => {
                local::type_size(&mut ev, &mut env, call)?;
                After::Return
            }
            (LF::MpiReduceLocal, _) => {
                // With a user operator the call has returned already.
                if collective::reduce_local(&mut ev, &mut env, call)? {
                    After::Stay
                } else {
                    After::Return
                }
            }
            (LF::MpiSendInit | LF::MpiSsendInit | LF::MpiRsendInit | LF::MpiRecvInit, _) => {
                MpiCall::new(&mut ev, &mut env, call).init_persistent(step.function)?;
                After::Return
            }
            (LF::MpiStart, _) => {
                MpiCall::new(&mut ev, &mut env, call).start()?;
                After::Return
            }
            (LF::MpiTypeGetExtent, _) => {
                datatypes::get_extent(&mut ev, &mut env, call)?;
                After::Return
            }
            (
                LF::MpiTypeContiguous
                | LF::MpiTypeVector
                | LF::MpiTypeIndexed
                | LF::MpiTypeCreateStruct,
                _,
            ) => {
                datatypes::build(&mut ev, &mut env, call)?;
                After::Return
            }
            (LF::MpiTypeCommit | LF::MpiTypeFree, _) => {
                datatypes::commit_or_free(&mut ev, &mut env, call)?;
                After::Return
            }
            (LF::MpiStartall, _) => {
                MpiCall::new(&mut ev, &mut env, call).start_all()?;
                After::Return
            }
            (LF::MpiSsend | LF::MpiSendrecv | LF::MpiSendrecvReplace, _) => {
                if staged_call(&mut ev, &mut env, call, step)? {
                    After::Return
                } else {
                    After::Stay
                }
            }
            (LF::MpiBsend, _) => {
                let before = bsend::before(&env);
                send(&mut ev, &mut env, call.send_half(), call.span, None)?;
                bsend::after(&mut ev, &mut env, &before, call.send_half(), call.span)?;
                After::Return
            }
            (lf, _) if group::is_local_call(lf) => {
                let origin = (step.function, call.tid);
                match group::execute_local(&mut ev, &mut env, call, origin)? {
                    Done::Returns => After::Return,
                    Done::Failed => After::End,
                }
            }
            (lf, _) if is_standard_send(lf) => {
                send(&mut ev, &mut env, call.send_half(), call.span, None)?;
                After::Return
            }
            (lf, _) if is_nonblocking_send(lf) => {
                // Its pending send buffer is kept as basic elements only.
                datatypes::refuse_mixed(&mut ev, &env, call)?;
                let origin = (step.function, call.tid);
                let synchronous = call.lf == LF::MpiIssend;
                let h = request::add_request(&mut env, RequestKind::Send { synchronous }, origin);
                let sent = send(&mut ev, &mut env, call.send_half(), call.span, Some(h))?;
                if let Some(data) = sent {
                    let pointer = ev.eval(&env, call.arg(ArgRole::Buffer))?;
                    let sent = request::sent_of(ev.factory(), call, pointer, data);
                    request::keep_sent(&mut env, h, sent);
                }
                let request = call.arg(ArgRole::Request);
                write_request(&mut ev, &mut env, request, h, call.span)?;
                After::Return
            }
            (LF::MpiIrecv, _) => {
                MpiCall::new(&mut ev, &mut env, call).post_receive(step.function)?;
                After::Return
            }
            (LF::MpiRecv, _) => {
                receive(
                    &mut ev,
                    &mut env,
                    call.receive_half(),
                    step.choice,
                    call.span,
                )?;
                After::Return
            }
            (LF::MpiProbe | LF::MpiIprobe, _) => {
                MpiCall::new(&mut ev, &mut env, call).probe(step.choice)?;
                After::Return
            }
            (LF::MpiWait | LF::MpiTest, _) => wait_or_test(&mut ev, &mut env, call, step)?,
            (LF::MpiWaitall | LF::MpiTestall | LF::MpiWaitany, _) => {
                wait_or_test_many(&mut ev, &mut env, call, step)?
            }
            (LF::MpiRequestFree, _) => {
                let ptr = ev.eval(&env, call.arg(ArgRole::Request))?;
                let place = ev.deref_place(&env, ptr, false, call.span, &|| "request".into())?;
                let v = ev.read_place(&env, &place);
                request::free_request(&mut ev, &mut env, &place, &v, call.span)?;
                After::Return
            }
            (lf, _) => {
                return Err(EngineError::unsupported(
                    format!("not yet supported: {}", lf.c_name()),
                    call.span,
                ))
            }
        };
        match after {
            After::Return => {
                write_success(&mut ev, &mut env, call)?;
                env.set_location(call.target);
            }
            After::ReturnAndFold(due) => {
                write_success(&mut ev, &mut env, call)?;
                env.set_location(call.target);
                for d in &due {
                    push_due_fold(&mut ev, &mut env, d, call.span)?;
                }
            }
            After::Stay => {}
            After::End => return Ok((ev.violations, Vec::new())),
        }
        let pc = ev.current_pc(&env);
        env.set_path_condition(pc);
        Ok((ev.violations, Vec::new()))
    }
}

/// What is left to do after an MPI call's own work.
#[derive(Clone, PartialEq, Eq, Debug)]
enum After {
    /// The call returns: `MPI_SUCCESS` is written, the process moves past it
    /// and the path condition takes what was assumed.
    Return,
    /// As `Return`, then the calls of user functions that the completed
    /// nonblocking reductions still owe run, in frames above the call.
    ReturnAndFold(Vec<DueFold>),
    /// The call has more to do (a stage of a call of several steps): the
    /// process stays at it; the path condition takes what was assumed.
    Stay,
    /// The step is over: the call ended it its own way, or reported an error
    /// that stops it.
    End,
}

/// `MPI_Wtime`: a fresh real, not smaller than the last one the process saw.
fn wtime(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    call: &Call<'_>,
) -> Result<After, EngineError> {
    let f = ev.factory();
    let t = f.fresh_symbol("MPI_Wtime", Type::Real);
    let last = env.state.inner.procs[env.proc].mpi.wtime;
    ev.assumed
        .push(f.le(last.unwrap_or_else(|| f.zero(&Type::Real)), t));
    set_mpi(env, |m| m.wtime = Some(t));
    if let Some(lhs) = call.lhs {
        let place = ev.eval_place(&*env, lhs, false)?;
        ev.write_place(env, &place, Value::Data(t), call.span)?;
    }
    let pc = ev.current_pc(&*env);
    env.set_location(call.target);
    env.set_path_condition(pc);
    Ok(After::End)
}

/// `MPI_Abort`: an assertion failure; the process ends at the call.
fn abort(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    call: &Call<'_>,
) -> Result<After, EngineError> {
    check_comm(ev, &*env, call.arg(ArgRole::Comm), call.span)?;
    ev.fail_claiming(
        &*env,
        Property::Assertion,
        "MPI_Abort is called: the program aborts".into(),
        "MPI_Abort is not called",
        call.span,
    );
    let pc = ev.current_pc(&*env);
    // terminates at the call's own location: later reports point at it
    env.terminate(None);
    env.set_path_condition(pc);
    Ok(After::End)
}

/// `MPI_Comm_rank`, `MPI_Comm_size`.
fn comm_query(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    call: &Call<'_>,
) -> Result<After, EngineError> {
    let f = ev.factory();
    let name = call.lf.c_name();
    let Some(comm) = check_comm(ev, &*env, call.arg(ArgRole::Comm), call.span)? else {
        return Ok(After::End);
    };
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
    let ptr = ev.eval(&*env, call.arg(out))?;
    let place = ev.deref_place(&*env, ptr, false, call.span, &|| name.to_string())?;
    ev.write_place(env, &place, Value::Data(f.int(value as i64)), call.span)?;
    Ok(After::Return)
}

/// `MPI_Get_count`: the count the status records.
fn get_count(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    call: &Call<'_>,
) -> Result<After, EngineError> {
    let f = ev.factory();
    let st = ev.eval(&*env, call.arg(ArgRole::Status))?;
    let (root, mut path) = ev.deref_place(&*env, st, false, call.span, &|| "status".into())?;
    path.push(PStep::Field(3));
    let count = ev.read_place(&*env, &(root, path));
    let count = match count {
        Value::Data(c) => c,
        _ => f.fresh_symbol("undef", Type::Int),
    };
    let count = datatypes::items_of_elements(ev, &*env, call, count)?;
    let ptr = ev.eval(&*env, call.arg(ArgRole::CountOut))?;
    let place = ev.deref_place(&*env, ptr, false, call.span, &|| "count".into())?;
    ev.write_place(env, &place, Value::Data(count), call.span)?;
    Ok(After::Return)
}

/// `MPI_Wait`, `MPI_Test`.
fn wait_or_test(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    call: &Call<'_>,
    step: &Step,
) -> Result<After, EngineError> {
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
    let mut due = Vec::new();
    if !pending {
        request::complete(ev, env, (&place, &v), status, (name, call.span), &mut due)?;
    }
    if let Some(flag) = flag {
        write_int_through(ev, env, flag, i64::from(!pending), call.span)?;
    }
    Ok(returning(due))
}

/// `MPI_Waitall`, `MPI_Testall`, `MPI_Waitany`.
fn wait_or_test_many(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    call: &Call<'_>,
    step: &Step,
) -> Result<After, EngineError> {
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
    let mut due = Vec::new();
    if call.lf == LF::MpiWaitany {
        let status = ev.eval(&*env, call.arg(ArgRole::Status))?;
        let index = match step.choice {
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
        write_int_through(ev, env, call.arg(ArgRole::Index), index, call.span)?;
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
        write_int_through(ev, env, flag, i64::from(!pending), call.span)?;
    }
    Ok(returning(due))
}

/// How a wait or test returns: with the user-operator folds it owes, if any.
fn returning(due: Vec<DueFold>) -> After {
    if due.is_empty() {
        After::Return
    } else {
        After::ReturnAndFold(due)
    }
}

/// One step of `MPI_Ssend` or `MPI_Sendrecv(_replace)` (see [`CallStage`]):
/// posts the message, takes the receive half's message, or returns once the
/// send has completed. True if the call returned.
pub(super) fn staged_call(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    call: &Call<'_>,
    step: &Step,
) -> Result<bool, EngineError> {
    let p = env.proc;
    match env.state.inner.procs[p].mpi.stage {
        CallStage::Start => {
            if call.lf == LF::MpiSendrecv {
                MpiCall::new(ev, env, call).check_disjoint_buffers()?;
            }
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
                    EngineError::invalid("the request of a blocking send vanished", Some(call.span))
                })?;
            request::remove_request(env, index);
            set_mpi(env, |m| m.stage = CallStage::Start);
            Ok(true)
        }
    }
}
