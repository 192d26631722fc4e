//! The urgent partial-order reduction applied to the real engine: which
//! process may be explored alone at a state (`reduce_urgent`), the local fast
//! path (`local_steps_alone`), urgent sends and the synchronous send-receive
//! pairs. The per-model tables it reads are built in `crate::por`.

use std::sync::Arc;

use tass_model::api::{
    BinaryOp, Callee, Expr as ModelExpr, ExprKind, FunctionId, LibraryConstant, LibraryFunction,
    LocationId, Statement, UnaryOp, VarScope,
};
use tass_prove::api::Validity;
use tass_state::api::{EngineError, ProcessStatus, State, Step, Value};
use tass_symbolic::api::{BigInt, Expr, Type};

use super::mpi_calls::{is_comm_world, mpi_call, receive_args, send_args, ANY_SOURCE, PROC_NULL};
use super::RealEngine;
use crate::options::{DeadlockMode, Reduction, UrgentChoice};
use crate::por::Access;

/// A state the reduction chooses at: its enabled steps (of every process) and
/// the status of each process, asked of the engine once per state.
#[derive(Clone, Copy)]
pub(super) struct ReductionState<'s> {
    pub(super) state: &'s State,
    pub(super) enabled: &'s [Step],
    pub(super) statuses: &'s [ProcessStatus],
}

/// Where a rank expression is read: process `process` of `state`, whose top
/// frame is a call of `top`.
#[derive(Clone, Copy)]
pub(super) struct Viewpoint<'s> {
    pub(super) state: &'s State,
    pub(super) process: usize,
    pub(super) top: FunctionId,
}

impl RealEngine {
    /// The urgent partial-order reduction (TASS paper Sec. 5.4, after Siegel's
    /// urgent algorithm): at a state where several processes can move, explore
    /// all the enabled steps of one *urgent* process `p` (the lowest rank that
    /// is) instead of every enabled step. `p` is urgent when the engine marks
    /// it `settled` (below) and each of its enabled steps is
    /// ([`RealEngine::safe_alone`])
    ///
    /// - a local step of a transition that touches only `p`'s own memory and
    ///   the read-only inputs ([`Access::Own`]: each process has its own copy
    ///   of every output; a write through a pointer counts as own when no
    ///   pointer of the model can reach another process's variables, `por.rs`),
    ///   or one that may touch shared memory (through such a pointer) while no
    ///   other process can reach a transition touching shared memory any more
    ///   ([`Access::Shared`]);
    /// - an MPI call from a fixed list that the engine marks `commutes`:
    ///   `MPI_Init` (always), `MPI_Finalize`/`Comm_rank`/`Comm_size`/`Get_count`/
    ///   `Request_free`, a receive or probe from one source with its message
    ///   there, the steps of `MPI_Sendrecv(_replace)` (post of the send half,
    ///   receive half, return) and of `MPI_Ssend` (post, return once its
    ///   message was received), `MPI_Bsend`/`MPI_Isend`, `MPI_Send`/
    ///   `MPI_Rsend`, `MPI_Issend`, `MPI_Irecv` (the post), `MPI_Wait(all|any)`
    ///   and `MPI_Test(all)`; with `--deadlock potential`, a
    ///   `MPI_Send`/`MPI_Rsend` only if [`RealEngine::urgent_send`] (its receiver
    ///   waits for exactly this message and cannot leave first) and a wait or
    ///   the return of a send-receive only if it does not complete by buffering. An MPI call that touches shared
    ///   memory is urgent only while no other process can reach such a
    ///   transition. The post of a nonblocking collective is urgent only while
    ///   no other process can still reach an `MPI_Test`/`MPI_Testall` (the last
    ///   post completes the other members' requests, which only a test can
    ///   see before it). Wildcard receives, blocking collectives,
    ///   `MPI_Iprobe`, the steps that split a path on an envelope that depends
    ///   on the inputs, and everything else are never urgent;
    /// - a progress step (a posted `MPI_Irecv` of `p` taking its message) from
    ///   one source (`commutes`).
    ///
    /// `settled` (`Step::settled`, computed by the engine) says that no other
    /// process can enable a new step of `p` where it is: every pending receive
    /// request of `p` has a fixed source and a message to take already (later
    /// messages from that source queue behind it, and only `p` takes them), and
    /// `p`'s next statement is enabled, or is a wait/test whose requests only
    /// `p`'s own progress steps complete (no nonblocking collective some member
    /// has not posted, no `MPI_Issend` not yet received: those complete by the
    /// others' steps). So with nonblocking operations, the point (1) below
    /// holds: the others cannot add a progress step of `p` (no receive of `p`
    /// waits for a message), nor enable `p`'s wait or change what its test
    /// reports. For (2): a progress step takes the first match of a channel
    /// only `p` reads and writes only `p`'s buffer; posting a receive changes
    /// only `p`'s requests (it may make another process's standard send one
    /// that needs no buffer, which matters only at a cut state, see (3));
    /// waits and tests of a settled `p` read only its own requests, and a
    /// completion once possible stays possible. For (3): a state where a
    /// progress step, a post or a test is enabled is never cut (the deadlock
    /// test counts them as moves), and a wait that completes only by buffering
    /// is left out of `A`. An urgent send's receiver must also have no pending
    /// posted receive (the message goes to exactly the receive it waits in).
    /// Other processes' posts that complete a nonblocking collective of `p`
    /// write only `p`'s requests, and `p`'s receive buffers hold the same
    /// "uninitialised" marker before and after; `p`'s local steps therefore
    /// commute with them (a write to the send buffer before the wait is
    /// reported at the wait in either order).
    ///
    /// Why nothing is lost (for each concrete input: the guards of `p`'s steps
    /// cover the path condition, so every concrete execution's next step of `p`
    /// is among them; branches of other processes only strengthen the path
    /// condition, which commutes). Call `A` the steps of `p` explored at `s`.
    /// (1) Every step of `p` that can follow some sequence of other processes'
    /// steps from `s` is in `A`: `p`'s location and local state do not change,
    /// and no other process can enable a new step of `p` there (wildcard
    /// receives, where a new sender could appear, are never urgent; a receive
    /// from one source takes the first matching message of that channel, which
    /// only `p` consumes; a guard reads only `p`'s memory unless the location
    /// is `Shared`, and then nobody else writes shared memory any more). (2) The
    /// steps of `A` commute with every step of the others and stay enabled
    /// while the others move (sends append to a channel, receives from `q` take
    /// its first match, local steps touch nothing another process touches).
    /// (3) With `--deadlock potential` the engine cuts the search at states
    /// where no process could move without buffering a blocking send; a state
    /// where a step of `A` is still enabled is never such a state: `A` holds no
    /// send or wait that needs a buffer (an urgent send stays matched, since its
    /// receiver cannot move without it). Hence the classic ample-set argument:
    /// take a path of the full space from `s` to a deadlock, a terminal state
    /// or a step with a violation. If it contains a step of `p`, the first one
    /// is in `A` by (1) and moves to the front by (2) (a cut state met on the
    /// way is itself a potential deadlock, found); if it contains none, a step
    /// of `A` stays enabled to its end by (2)-(3), so the end is neither
    /// terminal nor a deadlock, and for a violation the step of `A` can be
    /// taken first. The last case makes the path longer; the search's cycle
    /// proviso (every cycle of the explored space has a fully expanded state,
    /// `system.rs`) keeps that from going on forever, so every violation, every
    /// potential (or absolute) deadlock and every terminal state of the full
    /// space, hence every output, is found in the reduced one. (A failed check
    /// lets its path go on under the check's claim; a violation of another
    /// process that only that pruned part of the path reaches can then be
    /// missed, but the verdict is `violated` either way.)
    ///
    /// The condition in the paper is the same in spirit: a send the receiver
    /// does not wait for could hide a potential deadlock, so it is not urgent.
    pub(super) fn reduce_urgent(&mut self, state: &State, steps: Vec<Step>) -> Vec<Step> {
        let Some(first) = steps.first() else {
            return steps;
        };
        if self.reduction == Reduction::Off {
            return steps;
        }
        if steps.iter().all(|s| s.process == first.process) {
            return steps;
        }
        let mut processes: Vec<usize> = steps.iter().map(|s| s.process).collect();
        processes.dedup();
        self.order_by_snapshot_queues(state, &mut processes);
        let statuses = self.engine.process_status(state);
        let at = ReductionState {
            state,
            enabled: &steps,
            statuses: &statuses,
        };
        for p in processes {
            let mut mine = steps.iter().filter(|s| s.process == p);
            if mine.all(|s| self.safe_alone(&at, s)) {
                return steps.iter().filter(|s| s.process == p).cloned().collect();
            }
        }
        if self.deadlock == DeadlockMode::Potential {
            if let Some(synchronous) = self.synchronous_sends(&at) {
                return synchronous;
            }
        }
        steps
    }

    /// The urgent reduction for the ltl product (`ltl/product.rs`): the
    /// process whose enabled steps may be explored alone, as in
    /// [`RealEngine::reduce_urgent`] (every step of it safe alone), and are
    /// all `invisible` (they change no atom's value); `None` when no process
    /// qualifies, or only one can move (nothing to gain): explore every step.
    /// Synchronous send-receive pairs are not made up here (the product takes
    /// the steps the engine enables).
    pub(crate) fn ltl_ample(
        &mut self,
        state: &State,
        steps: &[Step],
        invisible: &dyn Fn(&Step) -> bool,
    ) -> Option<usize> {
        let first = steps.first()?;
        if self.reduction == Reduction::Off || steps.iter().all(|s| s.process == first.process) {
            return None;
        }
        let mut processes: Vec<usize> = steps.iter().map(|s| s.process).collect();
        processes.sort_unstable();
        processes.dedup();
        self.order_by_snapshot_queues(state, &mut processes);
        let statuses = self.engine.process_status(state);
        let at = ReductionState {
            state,
            enabled: steps,
            statuses: &statuses,
        };
        processes.into_iter().find(|&p| {
            steps
                .iter()
                .filter(|s| s.process == p)
                .all(|s| invisible(s) && self.safe_alone(&at, s))
        })
    }

    /// The order in which [`RealEngine::reduce_urgent`] tries the processes
    /// (`processes`, by rank) to run one alone. `--cqmin` sorts them by the
    /// length of their collective-assertion snapshot queue. The default keeps
    /// the rank order but puts last every process whose queue is longer than
    /// another candidate's: a process that has run ahead at the assertions is
    /// not run alone while one behind it may be. Without this a process that
    /// asserts in an endless loop would be followed forever by the depth-first
    /// search (its queue, hence its states, growing without end) and the
    /// others' snapshots, which complete the occurrences to check, never come.
    /// Any order is sound: the reduction may explore any one process whose
    /// steps are all safe alone (see `reduce_urgent`); the order only decides
    /// which of them, never whether one is. Without collective assertions every
    /// queue is empty and the order is the rank order.
    fn order_by_snapshot_queues(&self, state: &State, processes: &mut [usize]) {
        match self.urgent_choice {
            UrgentChoice::ShortestSnapshotQueue => {
                processes.sort_by_key(|&p| state.snapshot_queue_len(p));
            }
            UrgentChoice::First => {
                let shortest = processes
                    .iter()
                    .map(|&p| state.snapshot_queue_len(p))
                    .min()
                    .unwrap_or(0);
                processes.sort_by_key(|&p| state.snapshot_queue_len(p) > shortest);
            }
        }
    }

    /// A process that just took a local step and whose next steps are again
    /// all local steps the reduction may explore alone
    /// ([`RealEngine::safe_alone`]: `settled`, and
    /// [`RealEngine::local_step_alone`]): its steps are returned without
    /// computing the other processes' (most of the time of a step when many
    /// processes wait in MPI calls). The reduction may choose any process
    /// whose steps are all safe alone; this keeps the one that is running
    /// instead of the lowest rank.
    pub(super) fn local_steps_alone(
        &mut self,
        state: &State,
        last: Option<(usize, bool)>,
    ) -> Result<Option<Vec<Step>>, EngineError> {
        let Some((p, true)) = last else {
            return Ok(None);
        };
        if self.reduction == Reduction::Off {
            return Ok(None);
        }
        // A process ahead of another at the collective assertions yields to the
        // reduction's choice (`order_by_snapshot_queues`), in both choices.
        if crate::collective_assert::others_queue_less(&self.engine, state, p) {
            return Ok(None);
        }
        let mine = self.engine.enabled_of(state, p)?;
        let mut statuses = None;
        let alone = !mine.is_empty()
            && mine.iter().all(|s| {
                s.local
                    && s.settled
                    && s.request.is_none()
                    && self.local_step_alone(s, || {
                        let statuses =
                            statuses.get_or_insert_with(|| self.engine.process_status(state));
                        self.others_may_touch_shared(statuses, p, s)
                    })
            });
        Ok(alone.then_some(mine))
    }

    /// The value of the rank expression `e` as the process at `at` sees it,
    /// when it is a literal, an MPI constant, a variable holding an integer, or
    /// sums, differences and products of those. `None` when it cannot tell.
    pub(super) fn rank_value(&self, at: &Viewpoint<'_>, e: &ModelExpr) -> Option<Expr> {
        self.rank_value_within(at, e, 0)
    }

    /// [`RealEngine::rank_value`] of `e`, at `depth` inside the rank expression
    /// (deep ones are not read).
    fn rank_value_within(&self, at: &Viewpoint<'_>, e: &ModelExpr, depth: u32) -> Option<Expr> {
        if depth > 8 {
            return None;
        }
        let f = &self.factory;
        let Viewpoint {
            state,
            process: p,
            top,
        } = *at;
        let sub = |x: &ModelExpr| self.rank_value_within(at, x, depth + 1);
        match &e.kind {
            ExprKind::IntLit(k) => Some(f.int(i64::try_from(*k).ok()?)),
            ExprKind::LibraryConstant(LibraryConstant::MpiAnySource) => Some(f.int(ANY_SOURCE)),
            ExprKind::LibraryConstant(LibraryConstant::MpiProcNull) => Some(f.int(PROC_NULL)),
            ExprKind::Unary(UnaryOp::Neg, inner) => Some(f.neg(sub(inner)?)),
            ExprKind::Binary(op, a, b) => {
                let (a, b) = (sub(a)?, sub(b)?);
                match op {
                    BinaryOp::Add => Some(f.add(a, b)),
                    BinaryOp::Sub => Some(f.sub(a, b)),
                    BinaryOp::Mul => Some(f.mul(a, b)),
                    _ => None,
                }
            }
            ExprKind::Var(v) => {
                let var = self.model.var(*v);
                // `Engine::variable` finds a name among the top frame's locals,
                // the process globals and the shared variables: trust it only
                // when this variable is the one variable of its name there.
                let visible = |w: &tass_model::api::Variable| {
                    w.name == var.name
                        && match w.scope {
                            VarScope::Local(f) => f == top,
                            VarScope::ProcessGlobal | VarScope::Input | VarScope::Output => true,
                            VarScope::Bound => false,
                        }
                };
                if !visible(var) || self.model.variables.iter().filter(|w| visible(w)).count() != 1
                {
                    return None;
                }
                match self.engine.variable(state, p, &var.name)? {
                    Value::Data(x) if matches!(f.type_of(x), Type::Int) => Some(x),
                    _ => None,
                }
            }
            _ => None,
        }
    }

    /// Whether rank value `r` equals `v` wherever `assumption` holds (asking the
    /// prover unless `r` is concrete).
    pub(super) fn rank_is(&self, assumption: Expr, r: Expr, v: i64) -> bool {
        let f = &self.factory;
        match f.as_concrete_int(r) {
            Some(k) => k == BigInt::from(v),
            None => self.prover.valid(assumption, f.eq(r, f.int(v))) == Validity::Yes,
        }
    }

    /// The source rank a process `d` waits for, if it is at a location whose one
    /// outgoing transition is a receive (or the receive half of a
    /// `MPI_Sendrecv(_replace)`) on `MPI_COMM_WORLD`.
    pub(super) fn receive_source(
        &self,
        state: &State,
        statuses: &[ProcessStatus],
        d: usize,
    ) -> Option<Expr> {
        let ProcessStatus::Running { location, .. } = statuses.get(d)? else {
            return None;
        };
        let top = self.top_function(statuses, d)?;
        let body = self.model.function(top).body.as_ref()?;
        let mut outgoing = body.outgoing(*location);
        let (Some((_, t, _)), None) = (outgoing.next(), outgoing.next()) else {
            return None;
        };
        let Statement::Call {
            callee: Callee::Library(lf),
            args,
            ..
        } = &t.statement
        else {
            return None;
        };
        let (source_arg, comm_arg) = receive_args(*lf)?;
        if !is_comm_world(args.get(comm_arg)) {
            return None;
        }
        let at = Viewpoint {
            state,
            process: d,
            top,
        };
        self.rank_value(&at, args.get(source_arg)?)
    }

    /// Whether the blocking send `step` (`MPI_Send`/`MPI_Rsend`, of process
    /// `p`, enabled in `state`, `enabled` being all the steps enabled there) is
    /// *urgent* when potential deadlocks are checked: it goes to `MPI_PROC_NULL`, or its destination `d` waits in
    /// a receive that only `p` can complete and no other process can move `d`
    /// out of it. Then until `p` sends, `d` stays where it is and the send stays
    /// matched (never one that completes only by buffering), whatever the
    /// other processes do: no state where `p` is still at the send is a
    /// potential deadlock, and the send commutes with every step of the others.
    /// Concretely: both calls are on `MPI_COMM_WORLD`; the destination is rank
    /// `d != p` under the path condition and the step's guard; the engine says
    /// `d` waits in a matching receive (the step is not `buffered_send`); `d` is
    /// at a location with this one outgoing transition, a receive (or the
    /// receive half of a `MPI_Sendrecv(_replace)`) whose source is exactly `p`;
    /// `d` has no enabled step (no message from `p` it could take first and
    /// then leave) and no posted receive (`MPI_Irecv`) pending, so the message
    /// goes to exactly that receive.
    pub(super) fn urgent_send(
        &mut self,
        at: &ReductionState,
        step: &Step,
        lf: LibraryFunction,
        args: &[ModelExpr],
    ) -> bool {
        let ReductionState {
            state,
            enabled,
            statuses,
        } = *at;
        let p = step.process;
        let Some((dest_arg, comm_arg)) = send_args(lf) else {
            return false;
        };
        let Some(top) = self.top_function(statuses, p) else {
            return false;
        };
        if !is_comm_world(args.get(comm_arg)) {
            return false;
        }
        let f = Arc::clone(&self.factory);
        // A destination the rank evaluation here cannot read (a struct field
        // such as `status.MPI_SOURCE`) is asked of the engine, which evaluates
        // it as the send will and proves its value under the path condition.
        let dest = match args.get(dest_arg).and_then(|a| {
            let at = Viewpoint {
                state,
                process: p,
                top,
            };
            self.rank_value(&at, a)
        }) {
            Some(dest) => dest,
            None => match self.engine.send_destination(state, step) {
                Ok(Some(rank)) => f.int(rank.to_int()),
                _ => return false,
            },
        };
        if step.buffered_send {
            return false;
        }
        let pc = self.engine.path_condition(state);
        let here = if step.guard_known_true {
            pc
        } else {
            f.and(pc, step.guard)
        };
        if self.rank_is(here, dest, PROC_NULL) {
            return true; // completes at once, touches nothing shared
        }
        // The receiver: a process with no enabled step waiting for `p`.
        (0..statuses.len()).any(|d| {
            d != p
                && !enabled.iter().any(|s| s.process == d)
                && !self.engine.pending_receives(state, d)
                && self
                    .receive_source(state, statuses, d)
                    .is_some_and(|source| self.rank_is(pc, source, p as i64))
                && self.rank_is(here, dest, d as i64)
        })
    }

    /// The synchronous transitions explored at `state` instead of `enabled`
    /// (with `--deadlock potential`, when no process is urgent), after the
    /// send–receive pairs of the paper's TASS and Siegel's treatment of
    /// wildcard receives: some process `d` waits in a blocking `MPI_Recv` on
    /// `MPI_COMM_WORLD` with nothing to take and no posted receive; every
    /// enabled step is the one step of its process, a standard send on
    /// `MPI_COMM_WORLD` (guard known, `commutes`) whose message that receive
    /// waits for ([`tass_state::api::Engine::waiting_receiver`]); and every
    /// other running process has no enabled step, no posted receive, and waits
    /// in a receive whose source is exactly `d`. Then each send is explored as
    /// one transition together with `d`'s receive of its message
    /// (`Step::delivered_to`); a send is never buffered here.
    ///
    /// Why nothing is lost. Call `S` the senders. Until `d` receives, the only
    /// steps possible are the senders' (the others wait for `d`): each may
    /// buffer its message and go on, and what it does next neither touches
    /// `d` nor lets another process send `d` a message `d` would take first
    /// (a later message of a sender queues behind its first one; the waiting
    /// processes move only after `d` does). So in every execution from
    /// `state` in which `d` receives, it takes the current message of some
    /// `p` in `S`, and that send and receive touch only `p`'s send, the
    /// channel `p -> d` and `d`: they commute with every step before them,
    /// which moves them to the front with every process's own sequence of
    /// steps, every step's violations and the final state unchanged — the
    /// synchronous transition for `p`. Until `d` receives, no state is a
    /// potential deadlock (a sender still at its send is matched by `d`'s
    /// waiting receive; once one has buffered, `d` can take its message) and
    /// none is terminal or deadlocked (`d` waits with a sender at its send or
    /// a message to take), so an execution in which `d` never receives ends in
    /// none of them, and a violation on the way is a step of a sender that it
    /// takes, in the same local state, after its synchronous transition too.
    /// The search counts such a state as reduced, so its cycle proviso
    /// applies.
    pub(super) fn synchronous_sends(&mut self, at: &ReductionState) -> Option<Vec<Step>> {
        let ReductionState {
            state,
            enabled,
            statuses,
        } = *at;
        let mut receiver = None;
        let mut senders = Vec::with_capacity(enabled.len());
        for step in enabled {
            if !step.guard_known_true || !step.commutes || senders.contains(&step.process) {
                return None;
            }
            let (lf, args) = mpi_call(&self.model, step.function, step.transition)?;
            if !matches!(lf, LibraryFunction::MpiSend | LibraryFunction::MpiRsend)
                || !is_comm_world(args.get(5))
            {
                return None;
            }
            let d = self.engine.waiting_receiver(state, step).ok()??;
            if *receiver.get_or_insert(d) != d {
                return None;
            }
            senders.push(step.process);
        }
        let d = receiver?;
        self.receive_source(state, statuses, d)?;
        let pc = self.engine.path_condition(state);
        let d_rank = i64::try_from(d).ok()?;
        let others_wait_for_d = statuses.iter().enumerate().all(|(q, status)| {
            q == d
                || senders.contains(&q)
                || matches!(status, ProcessStatus::Terminated { .. })
                || !self.engine.pending_receives(state, q)
                    && self
                        .receive_source(state, statuses, q)
                        .is_some_and(|source| self.rank_is(pc, source, d_rank))
        });
        others_wait_for_d.then(|| {
            enabled
                .iter()
                .map(|s| Step {
                    delivered_to: Some(d),
                    ..s.clone()
                })
                .collect()
        })
    }

    /// Whether the local step `step` may be explored alone: it touches only
    /// its process's own memory (its outputs included), or shared memory while
    /// no other process can reach a transition touching shared memory any more
    /// (`others_touch_shared`, asked only then).
    pub(super) fn local_step_alone(
        &self,
        step: &Step,
        others_touch_shared: impl FnOnce() -> bool,
    ) -> bool {
        match self.por.access(step.function, step.transition) {
            Access::Own => true,
            Access::Shared => !others_touch_shared(),
            Access::Other => false,
        }
    }

    /// The function of process `p`'s top frame, if it is running.
    pub(super) fn top_function(&self, statuses: &[ProcessStatus], p: usize) -> Option<FunctionId> {
        match statuses.get(p)? {
            ProcessStatus::Running { function, .. } => self.por.function_id(function),
            ProcessStatus::Terminated { .. } => None,
        }
    }

    /// Whether some running process other than `p` may still execute a
    /// transition that touches the shared memory `step` may touch.
    pub(super) fn others_may_touch_shared(
        &self,
        statuses: &[ProcessStatus],
        p: usize,
        step: &Step,
    ) -> bool {
        let regions = self.por.regions(step.function, step.transition);
        !regions.is_empty()
            && others_where(statuses, p, |function, location| {
                self.por.may_touch(function, location, regions)
            })
    }

    /// Whether the enabled step `step` may form, with the other enabled steps of
    /// its process, the whole set explored at a state (see [`RealEngine::reduce_urgent`]).
    /// MPI calls are taken one by one, and only those whose behaviour the
    /// reduction's argument covers; everything else is never explored alone.
    pub(super) fn safe_alone(&mut self, at: &ReductionState, step: &Step) -> bool {
        use LibraryFunction as L;
        let statuses = at.statuses;
        let p = step.process;
        if !step.settled {
            // Another process could enable a new step of `p` here (a message
            // for a posted receive with nothing to take, a wildcard one, a
            // statement that waits for others) or complete a request `p`'s
            // wait or test looks at.
            return false;
        }
        if step.request.is_some() {
            // Progress of a posted receive from one source (`commutes`) with
            // its message there: only `p` takes messages from that channel, and
            // later messages queue behind it. It writes the receive buffer, so
            // it is shared when the `MPI_Irecv` is.
            return step.commutes && !self.others_may_touch_shared(statuses, p, step);
        }
        if step.local && self.is_assume(step) {
            return self.assumption_alone(at, step);
        }
        if step.local {
            return self.local_step_alone(step, || self.others_may_touch_shared(statuses, p, step));
        }
        let model = Arc::clone(&self.model);
        let Some((lf, args)) = mpi_call(&model, step.function, step.transition) else {
            return false;
        };
        if self.others_may_touch_shared(statuses, p, step) {
            return false;
        }
        let potential = self.deadlock == DeadlockMode::Potential;
        match lf {
            // Changes only the process's own MPI phase (the engine does not mark
            // it `commutes`, as MPI is not initialised yet).
            L::MpiInit | L::MpiInitThread => true,
            L::MpiFinalize
            | L::MpiCommRank
            | L::MpiCommSize
            | L::MpiGetCount
            | L::MpiRequestFree
            | L::MpiQueryThread
            | L::MpiGetProcessorName
            | L::MpiTypeSize
            | L::MpiReduceLocal
            // An inactive persistent request matches nothing until started.
            | L::MpiSendInit
            | L::MpiSsendInit
            | L::MpiRsendInit
            | L::MpiBsendInit
            | L::MpiRecvInit => step.commutes,
            // From one source (`commutes`), with the message there: only this
            // process takes messages from that channel.
            L::MpiRecv | L::MpiProbe => step.commutes,
            // Never blocks (not a "blocking send" of the deadlock test). An
            // `MPI_Issend` appends its message as `MPI_Isend` does; only its
            // wait differs (and `settled` keeps that wait out while the
            // receiver has not matched it).
            L::MpiBsend | L::MpiIsend | L::MpiIssend => step.commutes,
            // Posts a receive (its progress steps come later): changes only
            // `p`'s requests. It may make a sender's standard send one that
            // needs no buffer, which matters only at states where no process
            // can move (never one where this post is enabled).
            L::MpiIrecv => step.commutes,
            L::MpiSend | L::MpiRsend => {
                step.commutes && (!potential || self.urgent_send(at, step, lf, args))
            }
            // Three steps (engine's `CallStage`): the post of the send half
            // (never blocks, as an `MPI_Isend`); the receive half, a receive
            // from one source (`commutes`) with its message there; the return,
            // once the send half completes, which depends on `p` alone (its
            // message is received or not) and, as a wait, is left out with
            // `--deadlock potential` while it completes only by buffering.
            L::MpiSendrecv | L::MpiSendrecvReplace => {
                step.commutes && !(potential && step.buffered_send)
            }
            // Two steps: the post of its message (as an `MPI_Issend`), and
            // the return, enabled only once the message was received (then
            // `settled`: it stays enabled and changes only `p`).
            L::MpiSsend => step.commutes,
            // With `settled`, the requests looked at complete only by `p`'s own
            // steps (its receives' progress) or are complete already (sends
            // buffered or received, collectives every member posted): the
            // outcome depends on `p` alone, and a completion once possible
            // stays possible. A wait completing an `MPI_Isend` only by
            // buffering is left out with `--deadlock potential`.
            L::MpiWait | L::MpiWaitall | L::MpiWaitany => {
                step.commutes && !(potential && step.buffered_send)
            }
            // A test never blocks, but one that completes an `MPI_Isend` only
            // by buffering finds nothing with zero buffering: taken alone, it
            // could let its process leave a polling loop in which the
            // livelock check (`real/livelock.rs`) would find every process
            // stuck, so it is left out with `--deadlock potential` as the
            // wait is.
            L::MpiTest | L::MpiTestall => step.commutes && !(potential && step.buffered_send),
            // Posts this process's part of a nonblocking collective: never
            // blocks, and other posts commute with it (the operation works on
            // the data each member gave at its post, whoever posts last). It
            // decides when the operation completes, which only the members'
            // waits and tests see: a wait is enabled only after every post,
            // but an `MPI_Test` (`MPI_Testall`) has an outcome for "not yet",
            // so the post is taken alone only when no other process can still
            // reach one. (The last post also checks that the members' send
            // buffers are unchanged; a change undone before the wait can be
            // missed, as the guide says.)
            lf if lf.is_nonblocking_collective() => !self.others_may_test(statuses, p),
            // Groups, Cartesian questions, operators, MPI_Buffer_attach: the
            // process's own MPI objects and immutable communicators only
            // (MPI_Buffer_detach may need a buffer, as a standard send does).
            lf if lf
                .mpi()
                .is_some_and(|d| d.kind == tass_model::api::mpi::MpiKind::Local)
                && lf != L::MpiBufferDetach =>
            {
                step.commutes
            }
            _ => false,
        }
    }

    /// Whether `step` executes an `assume` statement.
    fn is_assume(&self, step: &Step) -> bool {
        self.model
            .function(step.function)
            .body
            .as_ref()
            .is_some_and(|b| {
                matches!(
                    b.transition(step.transition).statement,
                    Statement::Assume { .. }
                )
            })
    }

    /// Whether the `assume` step `step` (settled, of process `p`) may be
    /// explored alone. An assumption ends every execution in which its
    /// condition `c` is false, so in general it does not commute with the other
    /// processes' steps: one of them taken before it could fail a check on
    /// inputs that `c` excludes, a violation a real run reports. It may be
    /// taken alone in two cases, provided `c` reads no memory another process
    /// may still write (its regions, as for a local step):
    ///
    /// 1. The path condition (with the step's guard) implies `c`: for every
    ///    input of the path `c` is true and stays true (it reads only `p`'s
    ///    own memory and the read-only inputs), so the step is enabled for
    ///    every concrete execution the state stands for, stays enabled while
    ///    the others move, and changes nothing but `p`'s location (the path
    ///    condition `pc && c` is equivalent to `pc`, so no assumption-vacuous
    ///    warning is lost either): an invisible local step.
    /// 2. Every enabled step of every other process is an `assume` of the same
    ///    condition (the same value: SPMD programs assume the same thing about
    ///    their inputs in every process). For an input where `c` holds, the
    ///    steps are no-ops as in 1. For an input where `c` is false, no
    ///    process can move at all: each enabled step is an assumption that is
    ///    false, and the processes without an enabled step wait for the others.
    ///    So no execution from this state is lost by taking `p`'s first (and
    ///    the others' assumptions then fall under case 1, with the same
    ///    vacuity warning if `pc && c` is unsatisfiable).
    fn assumption_alone(&mut self, at: &ReductionState, step: &Step) -> bool {
        let p = step.process;
        if self.others_may_touch_shared(at.statuses, p, step) {
            return false;
        }
        let Some(c) = self.engine.assumed_condition(at.state, step) else {
            return false;
        };
        let f = Arc::clone(&self.factory);
        if f.as_bool(c) == Some(true) {
            return true;
        }
        let pc = self.engine.path_condition(at.state);
        let here = if step.guard_known_true {
            pc
        } else {
            f.and(pc, step.guard)
        };
        if self.prover.valid(here, c) == Validity::Yes {
            return true;
        }
        at.enabled.iter().filter(|s| s.process != p).all(|s| {
            s.local
                && s.request.is_none()
                && self.is_assume(s)
                && self.engine.assumed_condition(at.state, s) == Some(c)
        })
    }

    /// Whether a process other than `p` may still call `MPI_Test` or
    /// `MPI_Testall`.
    pub(super) fn others_may_test(&self, statuses: &[ProcessStatus], p: usize) -> bool {
        others_where(statuses, p, |function, location| {
            self.por.may_test(function, location)
        })
    }
}

/// Whether some running process other than `p` sits where `at(function,
/// location)` holds.
pub(super) fn others_where(
    statuses: &[ProcessStatus],
    p: usize,
    at: impl Fn(&str, LocationId) -> bool,
) -> bool {
    statuses.iter().enumerate().any(|(q, s)| match s {
        ProcessStatus::Running {
            function, location, ..
        } => q != p && at(function, *location),
        ProcessStatus::Terminated { .. } => false,
    })
}
