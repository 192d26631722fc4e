//! What every MPI step needs: the engine's context, the call a process is
//! about to make, the special values of ranks and tags, and reading and
//! writing the call's scalar arguments.

use tass_dynamic::api::{Handle, Message, Value};
pub(crate) use tass_model::api::mpi::MPI_PROC_NULL as PROC_NULL;
use tass_model::api::mpi::{ArgRole, MPI_ANY_SOURCE, MPI_ANY_TAG};
use tass_model::api::{
    Callee, Expr as MExpr, LibraryFunction as LF, LocationId, Model, Span, Statement, TransitionId,
};
use tass_semantics::api::{
    Change, Decision, EngineError, Environment, Evaluator, Oracle, Property, Violation,
};
use tass_symbolic::api::{Expr, ExprFactory};

use super::comm;
use crate::env::{Layout, ProcEnv};
use crate::state::{State, Status};
use crate::step::Step;

/// The MPI call a process is about to make.
pub(crate) struct Call<'m> {
    pub(super) lf: LF,
    pub(super) args: &'m [MExpr],
    pub(super) lhs: Option<&'m MExpr>,
    pub(super) tid: TransitionId,
    pub(super) target: LocationId,
    pub(super) span: &'m Span,
}

impl<'m> Call<'m> {
    /// The argument with role `role` (the description of every MPI function
    /// this module executes has the roles it asks for).
    pub(super) fn arg(&self, role: ArgRole) -> &'m MExpr {
        let at = self.lf.mpi().and_then(|d| d.position(role));
        &self.args[at.unwrap_or_else(|| panic!("{} has no {role:?}", self.lf.c_name()))]
    }

    /// The argument with role `role`, if the function has one.
    pub(super) fn arg_if(&self, role: ArgRole) -> Option<&'m MExpr> {
        let at = self.lf.mpi().and_then(|d| d.position(role))?;
        self.args.get(at)
    }

    /// (buffer, count, datatype, destination, tag, communicator) of the send
    /// (or send half) the call makes.
    pub(super) fn send_half(&self) -> [&'m MExpr; 6] {
        let at = self.lf.mpi().and_then(|d| d.send_half());
        let at = at.unwrap_or_else(|| panic!("{} sends nothing", self.lf.c_name()));
        at.map(|i| &self.args[i])
    }

    /// (buffer, count, datatype, source, tag, communicator, status) of the
    /// blocking receive (or receive half) the call makes.
    pub(super) fn receive_half(&self) -> [&'m MExpr; 7] {
        let at = self.lf.mpi().and_then(|d| d.receive_half());
        let at = at.unwrap_or_else(|| panic!("{} receives nothing", self.lf.c_name()));
        at.map(|i| &self.args[i])
    }
}

pub(crate) fn current_call<'m>(model: &'m Model, state: &State, p: usize) -> Option<Call<'m>> {
    let ps = state.inner.procs.get(p)?;
    if ps.status != Status::Running {
        return None;
    }
    let fr = ps.stack.last()?;
    let body = model.function(fr.function).body.as_ref()?;
    body.outgoing(fr.location)
        .find_map(|(tid, t, target)| match &t.statement {
            Statement::Call {
                lhs,
                callee: Callee::Library(lf),
                args,
            } if lf.is_mpi() => Some(Call {
                lf: *lf,
                args,
                lhs: lhs.as_ref(),
                tid,
                target,
                span: &t.span,
            }),
            _ => None,
        })
}

/// The MPI call `step` makes, for a step of a process's next statement (not
/// a progress step, not a synchronous pair).
pub(super) fn call_of<'m>(ctx: &Ctx<'m>, state: &State, step: &Step) -> Option<Call<'m>> {
    if step.request.is_some() || step.delivered_to.is_some() {
        return None;
    }
    current_call(ctx.model, state, step.process).filter(|c| c.tid == step.transition)
}

pub(super) fn is_standard_send(lf: LF) -> bool {
    matches!(lf, LF::MpiSend | LF::MpiSsend | LF::MpiBsend | LF::MpiRsend)
}

pub(super) fn is_nonblocking_send(lf: LF) -> bool {
    matches!(lf, LF::MpiIsend | LF::MpiIssend)
}

/// The calls that change only the calling process's own MPI state (its
/// phase, its requests, its memory): their steps commute with every other
/// process's.
pub(super) fn is_own_state_only(lf: LF) -> bool {
    matches!(
        lf,
        LF::MpiInit
            | LF::MpiFinalize
            | LF::MpiCommRank
            | LF::MpiCommSize
            | LF::MpiGetCount
            | LF::MpiRequestFree
            | LF::MpiInitThread
            | LF::MpiQueryThread
            | LF::MpiGetProcessorName
            | LF::MpiTypeSize
            | LF::MpiReduceLocal
            | LF::MpiSendInit
            | LF::MpiSsendInit
            | LF::MpiRsendInit
            | LF::MpiBsendInit
            | LF::MpiRecvInit
            | LF::MpiTypeContiguous
            | LF::MpiTypeVector
            | LF::MpiTypeCommit
            | LF::MpiTypeFree
            | LF::MpiTypeIndexed
            | LF::MpiTypeCreateStruct
            | LF::MpiTypeGetExtent
            | LF::MpiGetAddress
            | LF::MpiAintAdd
            | LF::MpiAintDiff
            | LF::MpiBarrierInit
            | LF::MpiBcastInit
            | LF::MpiReduceInit
            | LF::MpiAllreduceInit
            | LF::MpiGatherInit
            | LF::MpiScatterInit
            | LF::MpiAllgatherInit
    )
}

/// The functions this module implements; any other MPI call is an error naming it.
pub(super) fn is_implemented(lf: LF) -> bool {
    lf.mpi().is_some_and(|d| d.collective().is_some())
        || matches!(
            lf.mpi().map(|d| d.kind),
            Some(tass_model::api::mpi::MpiKind::Rma(_))
        )
        || is_standard_send(lf)
        || is_nonblocking_send(lf)
        || super::group::is_local_call(lf)
        || is_own_state_only(lf)
        || matches!(
            lf,
            LF::MpiRecv
                | LF::MpiIrecv
                | LF::MpiSendrecv
                | LF::MpiSendrecvReplace
                | LF::MpiProbe
                | LF::MpiIprobe
                | LF::MpiWait
                | LF::MpiWaitall
                | LF::MpiWaitany
                | LF::MpiTest
                | LF::MpiTestall
                | LF::MpiAbort
                | LF::MpiWtime
                | LF::MpiStart
                | LF::MpiStartall
        )
}

/// The parts of the engine the MPI semantics reads: the model, the
/// expression factory and the C layout.
#[derive(Clone, Copy)]
pub(crate) struct Ctx<'a> {
    pub model: &'a Model,
    pub f: &'a ExprFactory,
    pub layout: &'a Layout,
}

/// The receiver of the MPI semantics: the engine's context and its prover.
/// Every operation that asks the prover is a method of it; the state it
/// works on is an argument, since the engine runs it on scratch copies as
/// well as on the state being executed.
pub(crate) struct Mpi<'a> {
    pub ctx: Ctx<'a>,
    pub oracle: &'a mut Oracle,
}

/// How a call passes a handle: its value, or its address (the `MPI_*_free`
/// calls, which write the null handle back); the address's name for messages.
#[derive(Clone, Copy)]
pub(crate) enum HandlePassed {
    ByValue,
    ByAddress(&'static str),
}

impl<'a> Ctx<'a> {
    /// The MPI semantics over this context, asking `oracle`.
    pub(crate) fn mpi<'o>(self, oracle: &'o mut Oracle) -> Mpi<'o>
    where
        'a: 'o,
    {
        Mpi { ctx: self, oracle }
    }

    /// The environment of process `proc` in `state`, for the evaluator.
    pub(crate) fn env<'s>(&self, state: &'s mut State, proc: usize) -> ProcEnv<'s>
    where
        'a: 's,
    {
        ProcEnv {
            state,
            proc,
            model: self.model,
            factory: self.f,
            layout: self.layout,
        }
    }
}

/// `MPI_ANY_SOURCE`, which is also `MPI_ANY_TAG`'s value: a source or a tag
/// that matches any.
pub(crate) const ANY: i64 = MPI_ANY_SOURCE;

const _: () = assert!(MPI_ANY_SOURCE == MPI_ANY_TAG);

/// `Step::choice` of an `MPI_Iprobe` that finds no message.
pub(super) const NO_MESSAGE: u32 = u32::MAX;

/// `Step::choice` of a step that only splits the path on the value of a rank
/// or tag argument that depends on the inputs (`Step::guard` fixes it); the
/// call itself runs at the process's next step, on each path.
pub(crate) const ENVELOPE_CASE: u32 = u32::MAX - 1;

pub(super) fn tag_matches(wanted: i64, tag: &Expr, f: &ExprFactory) -> bool {
    wanted == ANY || f.as_concrete_int(*tag).and_then(|t| i64::try_from(t).ok()) == Some(wanted)
}

/// Index of the first buffered message from `source` to `dest` on `comm` whose
/// tag matches.
pub(super) fn first_match(
    messages: &[Message],
    f: &ExprFactory,
    source: u32,
    dest: u32,
    tag: i64,
    comm: u32,
) -> Option<usize> {
    messages.iter().position(|m| {
        m.source == source && m.dest == dest && m.comm == comm && tag_matches(tag, &m.tag, f)
    })
}

impl Mpi<'_> {
    /// Runs `body` as a step of process `p` with a checking evaluator: its
    /// violations go to `violations`, and the assumptions it made become the
    /// state's path condition.
    pub(crate) fn as_process<R>(
        &mut self,
        state: &mut State,
        p: usize,
        violations: &mut Vec<Violation>,
        body: impl FnOnce(&mut Evaluator<'_>, &mut ProcEnv<'_>) -> Result<R, EngineError>,
    ) -> Result<R, EngineError> {
        let mut env = self.ctx.env(state, p);
        let mut ev = Evaluator::checking(self.ctx.f, self.oracle, p);
        let r = body(&mut ev, &mut env)?;
        let pc = ev.current_pc(&env);
        env.set_path_condition(pc);
        violations.append(&mut ev.violations);
        Ok(r)
    }

    /// Process `p` of `state` at its MPI call `call`: the receiver of the
    /// reads and effects of that call.
    pub(crate) fn at<'r>(
        &'r mut self,
        state: &'r mut State,
        p: usize,
        call: &'r Call<'_>,
    ) -> ProcessCall<'r> {
        ProcessCall {
            mpi: Mpi {
                ctx: self.ctx,
                oracle: &mut *self.oracle,
            },
            state,
            p,
            call,
            violations: Vec::new(),
        }
    }
}

/// One process at one MPI call in a state: the receiver of the operations
/// that read the call's arguments (without checks, to decide which steps
/// the process has) or execute it, so that the state, the process, the call
/// and the violations found are named once rather than threaded through
/// every operation. ([`MpiCall`] is the receiver inside one evaluator run;
/// this one spans several, each on `state`.)
pub(crate) struct ProcessCall<'r> {
    pub mpi: Mpi<'r>,
    pub state: &'r mut State,
    pub p: usize,
    pub call: &'r Call<'r>,
    /// What executing the call has found so far.
    pub violations: Vec<Violation>,
}

impl ProcessCall<'_> {
    /// Runs `body` as a step of the process (see [`Mpi::as_process`]); its
    /// violations join the call's.
    pub(crate) fn as_process<R>(
        &mut self,
        body: impl FnOnce(&mut Evaluator<'_>, &mut ProcEnv<'_>) -> Result<R, EngineError>,
    ) -> Result<R, EngineError> {
        let mpi = &mut self.mpi;
        mpi.as_process(self.state, self.p, &mut self.violations, body)
    }

    /// Runs `body` on the call's [`MpiCall`], as a step of the process.
    pub(super) fn checked<R>(
        &mut self,
        body: impl FnOnce(&mut MpiCall<'_, '_, '_>) -> Result<R, EngineError>,
    ) -> Result<R, EngineError> {
        let call = self.call;
        self.as_process(|ev, env| body(&mut MpiCall::new(ev, env, call)))
    }

    /// Reports `message` as a violation of `property` at the call.
    pub(super) fn fail(&mut self, property: Property, message: String) -> Result<(), EngineError> {
        let span = self.call.span;
        self.as_process(|ev, env| {
            ev.fail(&*env, property, message, span);
            Ok(())
        })
    }

    /// The end of a call of the process alone: `MPI_SUCCESS` as its result,
    /// the process moves past the call, and what executing it found.
    pub(super) fn finish(mut self) -> Result<(Vec<Violation>, Vec<Change>), EngineError> {
        self.checked(|c| c.return_success())?;
        Ok((self.violations, Vec::new()))
    }

    /// What `read` finds with the process's view of the state, evaluating
    /// without checks (the argument reads of the peek functions below).
    fn peek_with<T>(
        &mut self,
        read: impl FnOnce(&mut Evaluator<'_>, &ProcEnv<'_>) -> Result<T, EngineError>,
    ) -> Result<T, EngineError> {
        let env = self.mpi.ctx.env(self.state, self.p);
        let mut ev = Evaluator::without_checks(self.mpi.ctx.f, self.mpi.oracle, self.p);
        read(&mut ev, &env)
    }

    /// The handle argument `arg` names (no checks): read through the
    /// pointer when the call takes the handle's address (the `MPI_*_free`
    /// calls); `None` for a null address.
    pub(super) fn peek_handle(
        &mut self,
        arg: &MExpr,
        passed: HandlePassed,
    ) -> Result<Option<Value>, EngineError> {
        let span = self.call.span;
        self.peek_with(|ev, env| {
            let v = ev.eval(env, arg)?;
            let HandlePassed::ByAddress(what) = passed else {
                return Ok(Some(v));
            };
            if !matches!(v, Value::Pointer(ref q) if !q.is_null()) {
                return Ok(None);
            }
            let place = ev.deref_place(env, v, true, span, &|| what.into())?;
            Ok(Some(ev.read_place(env, &place)))
        })
    }

    /// The value of integer argument `e` (no checks).
    pub(super) fn peek(&mut self, e: &MExpr) -> Result<Expr, EngineError> {
        self.peek_with(|ev, env| ev.eval_int(env, e))
    }

    /// The value of argument `e` (no checks).
    pub(super) fn peek_value(&mut self, e: &MExpr) -> Result<Value, EngineError> {
        self.peek_with(|ev, env| ev.eval(env, e))
    }

    /// The communicator argument `e` names (no checks).
    pub(super) fn peek_comm(&mut self, e: &MExpr) -> Result<Option<u32>, EngineError> {
        let v = self.peek_value(e)?;
        Ok(comm::comm_of_value(self.state, &v))
    }
}

pub(super) fn concrete_i64(f: &ExprFactory, e: Expr) -> Option<i64> {
    f.as_concrete_int(e).and_then(|t| i64::try_from(t).ok())
}

/// The value `pc` fixes integer `e` to, if it does and the prover shows it (the
/// value of a model of `pc` is the only one worth proving).
pub(super) fn resolve_int(f: &ExprFactory, oracle: &mut Oracle, pc: Expr, e: Expr) -> Option<i64> {
    if let Some(k) = f.as_concrete_int(e) {
        return i64::try_from(k).ok();
    }
    let v = i64::try_from(oracle.candidate_value(f, pc, e)?).ok()?;
    matches!(oracle.valid(f, pc, f.eq(e, f.int(v))), Decision::Holds).then_some(v)
}

/// `*ptr = value` for the output argument `ptr` of a call; `what` names
/// the argument when `ptr` is no valid pointer.
pub(super) fn write_through(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    ptr: &MExpr,
    value: Value,
    what: &str,
    span: &Span,
) -> Result<(), EngineError> {
    let v = ev.eval(&*env, ptr)?;
    let place = ev.deref_place(&*env, v, false, span, &|| what.into())?;
    ev.write_place(env, &place, value, span)
}

/// The receiver of the checks and reads of MPI arguments (communicators,
/// groups, peers, datatypes, struct messages): the evaluator, the process's
/// view of the state (read only) and the span a violation or refusal points
/// at, one value instead of three parameters threaded through each.
pub(super) struct ArgReader<'r, 'e, 'p> {
    pub ev: &'r mut Evaluator<'e>,
    pub env: &'r ProcEnv<'p>,
    pub span: &'r Span,
}

impl<'r, 'e, 'p> ArgReader<'r, 'e, 'p> {
    pub(super) fn new(ev: &'r mut Evaluator<'e>, env: &'r ProcEnv<'p>, span: &'r Span) -> Self {
        ArgReader { ev, env, span }
    }

    /// The three parts, for bodies written over them.
    pub(super) fn parts(&mut self) -> (&mut Evaluator<'e>, &ProcEnv<'p>, &'r Span) {
        (&mut *self.ev, self.env, self.span)
    }
}

/// The receiver of an MPI call model: the evaluator, the calling process's
/// view of the state and the call being executed, one value instead of three
/// parameters threaded through every model and its helpers. The modules
/// that still pass the three are listed in style.md, "Repetition".
pub(super) struct MpiCall<'r, 'e, 'p> {
    pub ev: &'r mut Evaluator<'e>,
    pub env: &'r mut ProcEnv<'p>,
    pub call: &'r Call<'r>,
}

impl<'r, 'e, 'p> MpiCall<'r, 'e, 'p> {
    pub(super) fn new(
        ev: &'r mut Evaluator<'e>,
        env: &'r mut ProcEnv<'p>,
        call: &'r Call<'r>,
    ) -> Self {
        MpiCall { ev, env, call }
    }

    /// The three parts, for the helpers that take them separately.
    pub(super) fn parts(&mut self) -> (&mut Evaluator<'e>, &mut ProcEnv<'p>, &'r Call<'r>) {
        (&mut *self.ev, &mut *self.env, self.call)
    }

    /// The reader of the call's arguments (see [`ArgReader`]).
    pub(super) fn reader(&mut self) -> ArgReader<'_, 'e, 'p> {
        ArgReader::new(self.ev, self.env, self.call.span)
    }

    /// The call returns: `lhs = MPI_SUCCESS` when its result is used, and
    /// the process moves past it.
    pub(super) fn return_success(&mut self) -> Result<(), EngineError> {
        let (ev, env, call) = self.parts();
        if let Some(lhs) = call.lhs {
            let place = ev.eval_place(&*env, lhs, false)?;
            let zero = Value::Data(ev.factory().int(0));
            ev.write_place(env, &place, zero, call.span)?;
        }
        env.set_location(call.target);
        Ok(())
    }

    /// The call returns `value`, its result rather than `MPI_SUCCESS`
    /// (`MPI_Wtime`, `MPI_Aint_add`, ...): written to `lhs` when used; the
    /// process moves past it and the path condition takes what was assumed,
    /// so that the step ends here.
    pub(super) fn return_value(&mut self, value: Expr) -> Result<(), EngineError> {
        let (ev, env, call) = self.parts();
        if let Some(lhs) = call.lhs {
            let place = ev.eval_place(&*env, lhs, false)?;
            ev.write_place(env, &place, Value::Data(value), call.span)?;
        }
        let pc = ev.current_pc(&*env);
        env.set_location(call.target);
        env.set_path_condition(pc);
        Ok(())
    }

    /// `*ptr = Handle::Request(h)` for the request argument `ptr` of the call.
    pub(super) fn write_request(&mut self, ptr: &MExpr, h: u32) -> Result<(), EngineError> {
        let request = Value::Handle(Handle::Request(h));
        write_through(self.ev, self.env, ptr, request, "request", self.call.span)
    }

    /// `*ptr = value` for an `int *` output argument `ptr` of the call.
    pub(super) fn write_int_through(&mut self, ptr: &MExpr, value: i64) -> Result<(), EngineError> {
        let value = Value::Data(self.ev.factory().int(value));
        write_through(self.ev, self.env, ptr, value, "flag", self.call.span)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn receives_take_the_first_matching_message_of_a_sender() {
        let f = ExprFactory::new();
        let msg = |source, dest, tag: i64, x: i64| Message {
            source,
            dest,
            tag: f.int(tag),
            comm: 0,
            data: Value::Data(f.int(x)),
            count: f.int(1),
            request: None,
            bsend_bytes: None,
            signature: None,
            mixed_signature: None,
        };
        let buffer = vec![
            msg(0, 1, 7, 1),
            msg(0, 1, 3, 2),
            msg(0, 1, 3, 3),
            msg(2, 1, 3, 4),
        ];
        assert_eq!(first_match(&buffer, &f, 0, 1, 3, 0), Some(1));
        assert_eq!(first_match(&buffer, &f, 0, 1, ANY, 0), Some(0));
        assert_eq!(first_match(&buffer, &f, 2, 1, 3, 0), Some(3));
        assert_eq!(first_match(&buffer, &f, 2, 1, 7, 0), None);
        assert_eq!(first_match(&buffer, &f, 1, 0, ANY, 0), None);
        // a duplicate communicator is a separate context
        assert_eq!(first_match(&buffer, &f, 0, 1, ANY, 1), None);
    }
}
