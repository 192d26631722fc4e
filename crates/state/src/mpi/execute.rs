//! Executing a process's MPI call (or one stage of it).

use tass_dynamic::api::{Step as PStep, Value};

use tass_model::api::{Expr as MExpr, LibraryFunction as LF};

use tass_semantics::api::{Change, EngineError, Environment, Evaluator, Property, Violation};

use tass_symbolic::api::Type;

use super::buffer::concrete;

use super::collective;

use super::collective::is_collective;

use super::comm;

use super::comm::check_comm;

use super::context::current_call;

use super::context::is_implemented;

use super::context::is_nonblocking_send;

use super::context::is_standard_send;

use super::context::write_int_through;

use super::context::write_request;

use super::context::write_success;

use super::context::Call;

use super::context::ENVELOPE_CASE;

use super::context::NO_MESSAGE;

use super::p2p::post_receive;

use super::p2p::probe;

use super::p2p::receive;

use super::p2p::send;

use super::process::CallStage;

use super::process::MpiPhase;

use super::request;

use super::request::RequestKind;

use crate::env::set_mpi;

use crate::env::ProcEnv;

use crate::state::State;

use crate::mpi::context::Mpi;
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
        let mut ev = Evaluator::new(f, self.oracle, p, true);
        if !step.guard_known_true {
            ev.assumed.push(step.guard);
        }
        let name = call.lf.c_name();
        let mut moved = true;
        match (call.lf, phase) {
            (LF::MpiInit, MpiPhase::BeforeInit) => {
                set_mpi(&mut env, |m| m.phase = MpiPhase::Initialized)
            }
            (LF::MpiInit, _) => ev.fail(
                &env,
                Property::MpiInitFinalize,
                "MPI_Init called a second time".into(),
                call.span,
            ),
            (LF::MpiWtime, _) => {
                let t = f.fresh_symbol("MPI_Wtime", Type::Real);
                let last = env.state.inner.procs[p].mpi.wtime;
                ev.assumed
                    .push(f.le(last.unwrap_or_else(|| f.zero(&Type::Real)), t));
                set_mpi(&mut env, |m| m.wtime = Some(t));
                if let Some(lhs) = call.lhs {
                    let place = ev.eval_place(&env, lhs, false)?;
                    ev.write_place(&mut env, &place, Value::Data(t), call.span)?;
                }
                let pc = ev.current_pc(&env);
                env.set_location(call.target);
                env.set_path_condition(pc);
                return Ok((ev.violations, Vec::new()));
            }
            (_, MpiPhase::BeforeInit) => ev.fail(
                &env,
                Property::MpiInitFinalize,
                format!("{name} called before MPI_Init"),
                call.span,
            ),
            (_, MpiPhase::Finalized) => ev.fail(
                &env,
                Property::MpiInitFinalize,
                format!("{name} called after MPI_Finalize"),
                call.span,
            ),
            (LF::MpiFinalize, _) => set_mpi(&mut env, |m| m.phase = MpiPhase::Finalized),
            (LF::MpiAbort, _) => {
                check_comm(&mut ev, &env, &call.args[0], call.span)?;
                ev.fail_claiming(
                    &env,
                    Property::Assertion,
                    "MPI_Abort is called: the program aborts".into(),
                    "MPI_Abort is not called",
                    call.span,
                );
                let pc = ev.current_pc(&env);
                // terminates at the call's own location: later reports point at it
                env.terminate(None);
                env.set_path_condition(pc);
                return Ok((ev.violations, Vec::new()));
            }
            (LF::MpiCommRank | LF::MpiCommSize, _) => {
                let Some(comm) = check_comm(&mut ev, &env, &call.args[0], call.span)? else {
                    return Ok((ev.violations, Vec::new()));
                };
                let value = if call.lf == LF::MpiCommRank {
                    comm::rank_in(env.state, comm, p as u32).unwrap_or(0)
                } else {
                    comm::comm_size(env.state, comm)
                };
                let ptr = ev.eval(&env, &call.args[1])?;
                let place = ev.deref_place(&env, ptr, false, call.span, &|| name.to_string())?;
                ev.write_place(
                    &mut env,
                    &place,
                    Value::Data(f.int(value as i64)),
                    call.span,
                )?;
            }
            (LF::MpiGetCount, _) => {
                let st = ev.eval(&env, &call.args[0])?;
                let (root, mut path) =
                    ev.deref_place(&env, st, false, call.span, &|| "status".into())?;
                path.push(PStep::Field(3));
                let count = ev.read_place(&env, &(root, path));
                let count = match count {
                    Value::Data(c) => c,
                    _ => f.fresh_symbol("undef", Type::Int),
                };
                let ptr = ev.eval(&env, &call.args[2])?;
                let place = ev.deref_place(&env, ptr, false, call.span, &|| "count".into())?;
                ev.write_place(&mut env, &place, Value::Data(count), call.span)?;
            }
            (LF::MpiSsend | LF::MpiSendrecv | LF::MpiSendrecvReplace, _) => {
                moved = staged_call(&mut ev, &mut env, call, step)?;
            }
            (lf, _) if is_standard_send(lf) => {
                send(&mut ev, &mut env, &call.args[0..6], call.span, None)?;
            }
            (lf, _) if is_nonblocking_send(lf) => {
                let origin = (step.function, call.tid);
                let synchronous = call.lf == LF::MpiIssend;
                let h = request::add_request(&mut env, RequestKind::Send { synchronous }, origin);
                send(&mut ev, &mut env, &call.args[0..6], call.span, Some(h))?;
                write_request(&mut ev, &mut env, &call.args[6], h, call.span)?;
            }
            (LF::MpiIrecv, _) => post_receive(&mut ev, &mut env, call, step.function)?,
            (LF::MpiRecv, _) => {
                receive(&mut ev, &mut env, &call.args[0..7], step.choice, call.span)?;
            }
            (LF::MpiProbe | LF::MpiIprobe, _) => probe(&mut ev, &mut env, call, step.choice)?,
            (LF::MpiWait | LF::MpiTest, _) => {
                let ptr = ev.eval(&env, &call.args[0])?;
                let place = ev.deref_place(&env, ptr, false, call.span, &|| "request".into())?;
                let v = ev.read_place(&env, &place);
                let (flag, status) = if call.lf == LF::MpiTest {
                    (Some(&call.args[1]), &call.args[2])
                } else {
                    (None, &call.args[1])
                };
                let status = ev.eval(&env, status)?;
                // `NO_MESSAGE`: the test as zero-buffer MPI runs it (`failed_poll`).
                let pending = step.choice == Some(NO_MESSAGE)
                    || matches!(
                        request::completion(env.state, p, &v),
                        request::Completion::Pending
                    );
                if !pending {
                    request::complete(&mut ev, &mut env, &place, &v, status, name, call.span)?;
                }
                if let Some(flag) = flag {
                    write_int_through(&mut ev, &mut env, flag, i64::from(!pending), call.span)?;
                }
            }
            (LF::MpiWaitall | LF::MpiTestall | LF::MpiWaitany, _) => {
                let count = ev.eval_int(&env, &call.args[0])?;
                let count = concrete(&ev, count, "request count", call.span)?;
                let Ok(count) = usize::try_from(count) else {
                    ev.fail(
                        &env,
                        Property::MpiCount,
                        format!("negative count {count} in {name}"),
                        call.span,
                    );
                    return Ok((ev.violations, Vec::new()));
                };
                let ptr = ev.eval(&env, &call.args[1])?;
                let places = request::request_places(&mut ev, &env, ptr, count, call.span)?;
                let values: Vec<Value> = places.iter().map(|pl| ev.read_place(&env, pl)).collect();
                let pending = step.choice == Some(NO_MESSAGE)
                    || values.iter().any(|v| {
                        matches!(
                            request::completion(env.state, p, v),
                            request::Completion::Pending
                        )
                    });
                match call.lf {
                    LF::MpiWaitany => {
                        let status = ev.eval(&env, &call.args[3])?;
                        let index = match step.choice {
                            Some(k) => {
                                let k = k as usize;
                                request::complete(
                                    &mut ev, &mut env, &places[k], &values[k], status, name,
                                    call.span,
                                )?;
                                k as i64
                            }
                            None => {
                                request::write_status(
                                    &mut ev,
                                    &mut env,
                                    status,
                                    request::empty_status(f),
                                    call.span,
                                )?;
                                -32766 // MPI_UNDEFINED
                            }
                        };
                        write_int_through(&mut ev, &mut env, &call.args[2], index, call.span)?;
                    }
                    _ => {
                        let statuses = if call.lf == LF::MpiTestall {
                            &call.args[3]
                        } else {
                            &call.args[2]
                        };
                        let statuses = ev.eval(&env, statuses)?;
                        if !pending {
                            for k in 0..count {
                                let st =
                                    request::status_at(&mut ev, &env, &statuses, k, call.span)?;
                                request::complete(
                                    &mut ev, &mut env, &places[k], &values[k], st, name, call.span,
                                )?;
                            }
                        }
                        if call.lf == LF::MpiTestall {
                            let flag = i64::from(!pending);
                            write_int_through(&mut ev, &mut env, &call.args[2], flag, call.span)?;
                        }
                    }
                }
            }
            (LF::MpiRequestFree, _) => {
                let ptr = ev.eval(&env, &call.args[0])?;
                let place = ev.deref_place(&env, ptr, false, call.span, &|| "request".into())?;
                let v = ev.read_place(&env, &place);
                request::free_request(&mut ev, &mut env, &place, &v, call.span)?;
            }
            (lf, _) => {
                return Err(EngineError::unsupported(
                    format!("not yet supported: {}", lf.c_name()),
                    call.span,
                ))
            }
        }
        if moved {
            write_success(&mut ev, &mut env, call)?;
            env.set_location(call.target);
        }
        let pc = ev.current_pc(&env);
        env.set_path_condition(pc);
        Ok((ev.violations, Vec::new()))
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
    let a = call.args;
    // (buf, count, datatype, dest, tag, comm) of the send, (buf, count,
    // datatype, source, tag, comm, status) of the receive half.
    let (sends, receives): (Vec<&MExpr>, Vec<&MExpr>) = match call.lf {
        LF::MpiSsend => (a[0..6].iter().collect(), Vec::new()),
        LF::MpiSendrecv => (
            [&a[0], &a[1], &a[2], &a[3], &a[4], &a[10]].into(),
            [&a[5], &a[6], &a[7], &a[8], &a[9], &a[10], &a[11]].into(),
        ),
        _ => (
            [&a[0], &a[1], &a[2], &a[3], &a[4], &a[7]].into(),
            [&a[0], &a[1], &a[2], &a[5], &a[6], &a[7], &a[8]].into(),
        ),
    };
    let p = env.proc;
    match env.state.inner.procs[p].mpi.stage {
        CallStage::Start => {
            let origin = (step.function, call.tid);
            let synchronous = call.lf == LF::MpiSsend;
            let request = request::add_request(env, RequestKind::Send { synchronous }, origin);
            let sends: Vec<MExpr> = sends.into_iter().cloned().collect();
            send(ev, env, &sends, call.span, Some(request))?;
            set_mpi(env, |m| m.stage = CallStage::Sent { request });
            Ok(false)
        }
        CallStage::Sent { request } if !receives.is_empty() => {
            let receives: Vec<MExpr> = receives.into_iter().cloned().collect();
            receive(ev, env, &receives, step.choice, call.span)?;
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
