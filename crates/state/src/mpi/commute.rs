//! Facts the partial-order reduction uses: which MPI steps commute with
//! the progress of pending receives, and which processes are settled.

use tass_dynamic::api::{Step as PStep, Value};
use tass_model::api::mpi::ArgRole;
use tass_model::api::{LibraryFunction as LF, Model};
use tass_semantics::api::{Decision, Evaluator, Oracle};
use tass_symbolic::api::{Expr, ExprFactory};

use super::buffer::P2pType;
use super::context::{current_call, Mpi, ANY};
use super::request::RequestKind;
use super::{buffer, request};
use crate::state::State;
use crate::step::Step;

impl Mpi<'_> {
    /// Whether `step`, a post of a nonblocking point-to-point call by process `p`
    /// (`MPI_Irecv`, or `MPI_Isend`/`MPI_Issend` from a buffer no pending receive
    /// of `p` writes), commutes with the progress of `p`'s pending receives: the
    /// steps other processes' sends can enable while `p` is here. A post only adds
    /// a request (receives posted earlier still match first) or reads its send
    /// buffer; so `p` is settled for it even while its receives wait for their
    /// messages (a halo exchange: receives posted, then sends). `false` when in
    /// doubt.
    pub(crate) fn post_commutes_with_receives(&mut self, state: &mut State, step: &Step) -> bool {
        let p = step.process;
        if let Some(handle) = step.request {
            return progress_commutes_with_receives(self.ctx.f, self.oracle, state, step, handle);
        }
        if step.choice.is_some() || step.delivered_to.is_some() {
            return false;
        }
        let Some(call) =
            current_call(self.ctx.model, state, p).filter(|c| c.tid == step.transition)
        else {
            return false;
        };
        match call.lf {
            LF::MpiIrecv => true,
            LF::MpiIsend | LF::MpiIssend => {
                let f = self.ctx.f;
                let pc = f.and(state.inner.pc, step.guard);
                let (sent, count, ty) = {
                    let env = self.ctx.env(state, p);
                    let mut ev = Evaluator::without_checks(f, self.oracle, p);
                    let Ok(sent) = ev.eval(&env, call.arg(ArgRole::Buffer)) else {
                        return false;
                    };
                    let Ok(count) = ev.eval_int(&env, call.arg(ArgRole::Count)) else {
                        return false;
                    };
                    let Ok(P2pType::Basic(_, ty)) =
                        buffer::p2p_datatype(&mut ev, &env, call.arg(ArgRole::Datatype), call.span)
                    else {
                        return false;
                    };
                    (sent, count, ty)
                };
                request::posted_receives(state, p).all(|pr| {
                    pr.pair.is_none()
                        && pr.ty == ty
                        && disjoint(
                            f,
                            self.oracle,
                            pc,
                            (&sent, count),
                            (&pr.buffer, pr.capacity),
                        )
                })
            }
            _ => false,
        }
    }
}

/// Whether the progress step `step` of `p`'s posted receive `handle` (from one
/// source) commutes with the progress of `p`'s other pending receives: its
/// buffer is disjoint from theirs. Receives posted earlier match first, so the
/// messages each takes do not depend on the order of these steps.
pub(super) fn progress_commutes_with_receives(
    f: &ExprFactory,
    oracle: &mut Oracle,
    state: &State,
    step: &Step,
    handle: u32,
) -> bool {
    let p = step.process;
    if request::completed_by_others(state, p) {
        // A wait or test of `p` may see another process complete a request.
        return false;
    }
    let requests = &state.inner.procs[p].mpi.requests;
    let Some(RequestKind::Recv(mine)) = requests
        .iter()
        .find(|r| r.handle == handle)
        .map(|r| &r.kind)
    else {
        return false;
    };
    if mine.source == ANY || mine.pair.is_some() {
        return false;
    }
    let pc = f.and(state.inner.pc, step.guard);
    requests.iter().all(|r| match &r.kind {
        _ if r.handle == handle => true,
        RequestKind::Recv(other) => {
            other.pair.is_none()
                && other.ty == mine.ty
                && disjoint(
                    f,
                    oracle,
                    pc,
                    (&mine.buffer, mine.capacity),
                    (&other.buffer, other.capacity),
                )
        }
        _ => true,
    })
}

/// Whether the buffers of `a.1` and `b.1` elements at pointers `a.0` and `b.0`
/// (of one element type) surely do not overlap under `pc`: different objects,
/// different fields, or index ranges at the end of one path that do not meet.
pub(super) fn disjoint(
    f: &ExprFactory,
    oracle: &mut Oracle,
    pc: Expr,
    a: (&Value, Expr),
    b: (&Value, Expr),
) -> bool {
    use tass_dynamic::api::Pointer;
    let (
        Value::Pointer(Pointer::To { root: ra, path: xa }),
        Value::Pointer(Pointer::To { root: rb, path: xb }),
    ) = (a.0, b.0)
    else {
        return false;
    };
    if ra != rb {
        return true;
    }
    let Some(last) = xa.len().checked_sub(1) else {
        return false;
    };
    if xb.len() != xa.len() {
        return false;
    }
    for (sa, sb) in xa[..last].iter().zip(&xb[..last]) {
        match (sa, sb) {
            (PStep::Field(x), PStep::Field(y)) if x != y => return true,
            (PStep::Field(_), PStep::Field(_)) => {}
            (PStep::Index(i), PStep::Index(j)) if i == j => {}
            _ => return false,
        }
    }
    let (PStep::Index(i), PStep::Index(j)) = (xa[last], xb[last]) else {
        return false;
    };
    // Element ranges [i, i + a.1) and [j, j + b.1) (a buffer may run on into
    // the next rows of the same array, which keeps them in this order).
    let apart = f.or(f.le(f.add(i, a.1), j), f.le(f.add(j, b.1), i));
    f.as_bool(apart) == Some(true) || matches!(oracle.valid(f, pc, apart), Decision::Holds)
}

/// Whether no other process can enable a new step of process `p` where it is,
/// nor disable one (`Step::settled`, for partial-order reduction):
/// `statement_enabled` says whether `p`'s next statement has an enabled step.
pub(crate) fn settled(
    model: &Model,
    f: &ExprFactory,
    state: &State,
    p: usize,
    statement_enabled: bool,
) -> bool {
    if !request::receives_settled(state, f, p) {
        return false;
    }
    let waits = current_call(model, state, p).is_some_and(|c| {
        matches!(
            c.lf,
            LF::MpiWait | LF::MpiWaitall | LF::MpiWaitany | LF::MpiTest | LF::MpiTestall
        )
    });
    if waits {
        // Its outcome must depend only on this process's own requests.
        return !request::completed_by_others(state, p);
    }
    statement_enabled
}

/// True if process `p` has posted receives not matched yet.
pub(crate) fn pending_receives(state: &State, p: usize) -> bool {
    request::posted_receives(state, p).next().is_some()
}
