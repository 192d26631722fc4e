//! The members of a collective call: who they are, where each is, and
//! whether their roots and operations agree.

use tass_dynamic::api::{Handle, Value};
use tass_model::api::{LibraryConstant as LC, LibraryFunction as LF, Span};
use tass_semantics::api::{EngineError, Environment, Evaluator, Property, Violation};
use tass_symbolic::api::{Expr, ExprFactory, Type};

use super::data::{op_name, op_of, DType, Data, Op};
use super::kind::{comm_arg, positions, shape, Kind};
use super::user_reduce::user_function;
use crate::env::ProcEnv;
use crate::mpi::buffer::holds;
use crate::mpi::comm;
use crate::mpi::context::{ArgReader, Call, Ctx, HandlePassed, Mpi, MpiCall, ProcessCall};
use crate::state::State;

/// One member of the communicator in a collective: at its blocking call, or
/// with the nonblocking collective it posted.
pub(super) struct Member<'m> {
    pub(super) world: usize,
    pub(super) lf: LF,
    pub(super) span: &'m Span,
    /// The blocking call the member is at (`None`: a posted nonblocking one).
    pub(super) call: Option<Call<'m>>,
    pub(super) kind: Kind,
    pub(super) root: Option<Expr>,
    pub(super) op: Option<Op>,
    pub(super) args: Significant,
    /// A posted nonblocking collective: its send data, read at the post.
    pub(super) pieces: Option<Vec<Piece>>,
}

/// A piece of a member's send data: (flat offset, count, the data).
pub(super) type Piece = (Expr, Expr, Data);

/// The arguments of a member's call that are significant at it (MPI ignores
/// the receive arguments of a non-root in a gather, for instance).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(super) struct Significant {
    pub(super) stype: Option<DType>,
    pub(super) rtype: Option<DType>,
    pub(super) scount: Option<Expr>,
    pub(super) rcount: Option<Expr>,
    pub(super) scounts: Option<Vec<Expr>>,
    pub(super) sdispls: Option<Vec<Expr>>,
    pub(super) rcounts: Option<Vec<Expr>>,
    pub(super) rdispls: Option<Vec<Expr>>,
    /// `MPI_Comm_split`'s color and key.
    pub(super) split: Option<(i64, i64)>,
    /// The group of `MPI_Comm_create`, the grid of `MPI_Cart_create`.
    pub(super) made_from: Option<crate::mpi::group::CommSpec>,
    /// The call passes `MPI_IN_PLACE` (its send arguments, or a scatter root's
    /// receive arguments, are filled in from the others).
    pub(super) in_place: bool,
}

impl Significant {
    /// The datatype the member receives as: its receive type, else its send
    /// type, else `MPI_INT` (a member that names neither receives nothing).
    pub(super) fn receive_type(&self) -> DType {
        self.rtype
            .clone()
            .or_else(|| self.stype.clone())
            .unwrap_or(DType::Scalar(LC::MpiInt, Type::Int))
    }
}

/// The members of one collective operation in a state, with its root (comm
/// rank, if it has one): the receiver of the phases that read and check
/// every member's arguments (`check_agreement`, `read_transfers`), which
/// all report into `violations`.
pub(super) struct CollectiveRun<'r, 'a> {
    pub mpi: &'r mut Mpi<'a>,
    pub state: &'r mut State,
    pub members: &'r [Member<'r>],
    pub root: Option<usize>,
    pub violations: &'r mut Vec<Violation>,
}

impl<'a> Mpi<'a> {
    /// The collective operation of `members` (with root `root`) in `state`.
    pub(super) fn run<'r>(
        &'r mut self,
        state: &'r mut State,
        (members, root): (&'r [Member<'r>], Option<usize>),
        violations: &'r mut Vec<Violation>,
    ) -> CollectiveRun<'r, 'a> {
        CollectiveRun {
            mpi: self,
            state,
            members,
            root,
            violations,
        }
    }
}

pub(super) fn path_dead(ctx: &Ctx<'_>, state: &State) -> bool {
    ctx.f.as_bool(state.inner.pc) == Some(false)
}

impl ProcessCall<'_> {
    /// The communicator the process's collective call names, without
    /// checks (`None`: not a valid one). `MPI_Comm_free` names it through
    /// its pointer.
    pub(crate) fn peek_collective_comm(&mut self) -> Result<Option<u32>, EngineError> {
        let passed = if self.call.lf == LF::MpiCommFree {
            HandlePassed::ByAddress("communicator")
        } else {
            HandlePassed::ByValue
        };
        let arg = &self.call.args[comm_arg(self.call.lf)];
        let v = self.peek_handle(arg, passed)?;
        Ok(v.and_then(|v| comm::comm_of_value(self.state, &v)))
    }

    /// The root argument of the process's collective call (no checks;
    /// `None`: the collective has no root).
    pub(crate) fn peek_root(&mut self) -> Result<Option<Expr>, EngineError> {
        let Some(k) = shape(self.call.lf).and_then(|(kind, _)| positions(kind).root) else {
            return Ok(None);
        };
        let arg = &self.call.args[k];
        Ok(Some(self.peek(arg)?))
    }
}

impl MpiCall<'_, '_, '_> {
    /// Evaluates the communicator of collective call `call` with the checks: its
    /// number, or `None` after reporting an invalid one (the path dies).
    pub(super) fn collective_comm(&mut self) -> Result<Option<u32>, EngineError> {
        let (ev, env, call) = self.parts();
        let env = &*env;
        if call.lf != LF::MpiCommFree {
            return ArgReader::new(ev, env, call.span).check_comm(&call.args[comm_arg(call.lf)]);
        }
        let ptr = ev.eval(env, &call.args[0])?;
        let place = ev.deref_place(env, ptr, false, call.span, &|| {
            tass_model::api::render_expr(env.model(), &call.args[0])
        })?;
        let v = ev.read_place(env, &place);
        if let Some(c) = comm::comm_of_value(env.state, &v) {
            if c == 0 {
                ev.fail(
                    env,
                    Property::InvalidPointer,
                    "MPI_Comm_free on MPI_COMM_WORLD, which cannot be freed".into(),
                    call.span,
                );
                return Ok(None);
            }
            return Ok(Some(c));
        }
        ev.fail(
            env,
            Property::InvalidPointer,
            format!(
                "MPI_Comm_free on {}, which is not a valid communicator",
                comm::describe_invalid(&v)
            ),
            call.span,
        );
        Ok(None)
    }

    /// The root and the reduction operation a collective call names (`None` for
    /// collectives without one).
    pub(super) fn root_and_op(
        &mut self,
        kind: Kind,
    ) -> Result<(Option<Expr>, Option<Op>), EngineError> {
        let (ev, env, call) = self.parts();
        let env = &*env;
        let pos = positions(kind);
        let root = match pos.root {
            Some(k) => Some(ev.eval_int(env, &call.args[k])?),
            None => None,
        };
        let op = match pos.op {
            Some(k) => {
                let v = ev.eval(env, &call.args[k])?;
                if v == Value::Handle(Handle::Constant(LC::MpiOpNull)) {
                    // An invalid handle, as MPI_COMM_NULL is (the path dies).
                    let message = format!("{} with MPI_OP_NULL as its operation", call.lf.c_name());
                    ev.fail(env, Property::InvalidPointer, message, call.span);
                    return Ok((root, None));
                }
                match v {
                    Value::Handle(Handle::Op(k)) => match self.user_operator(kind, k)? {
                        Some(op) => Some(op),
                        None => return Ok((root, None)), // reported; the path is dead
                    },
                    v => Some(op_of(&v, call.span)?),
                }
            }
            None => None,
        };
        Ok((root, op))
    }

    /// The user operator `Handle::Op(k)` of the calling process as a reduction
    /// operation: its function. `MPI_Reduce`, `MPI_Allreduce`, `MPI_Scan`,
    /// `MPI_Exscan`, `MPI_Reduce_scatter` and their nonblocking forms run user
    /// functions; the other reductions refuse them by name. `None` after reporting a freed operator.
    fn user_operator(&mut self, kind: Kind, k: u32) -> Result<Option<Op>, EngineError> {
        let (ev, env, call) = self.parts();
        let env = &*env;
        let Some(function) = user_function(ev, env, k, call.lf, call.span)? else {
            return Ok(None);
        };
        let runs_it = matches!(
            call.lf,
            LF::MpiReduce
                | LF::MpiAllreduce
                | LF::MpiScan
                | LF::MpiExscan
                | LF::MpiReduceScatter
                | LF::MpiIreduce
                | LF::MpiIallreduce
                | LF::MpiIscan
                | LF::MpiIexscan
                | LF::MpiIreduceScatter
        ) && matches!(
            kind,
            Kind::Reduce | Kind::Allreduce | Kind::Scan | Kind::Exscan | Kind::ReduceScatter
        );
        if !runs_it {
            return Err(EngineError::unsupported(
                format!(
                    "{} with a user operator (made by MPI_Op_create): not yet supported \
                 (tass runs user operators in MPI_Reduce, MPI_Allreduce, MPI_Scan, MPI_Exscan, \
                 MPI_Reduce_scatter, their nonblocking forms and MPI_Reduce_local)",
                    call.lf.c_name()
                ),
                call.span,
            ));
        }
        Ok(Some(Op::User(function)))
    }
}

/// Phase 1 for one member: its call, operation and root agree with the
/// first member's (`first`: its world rank, call, root, op); reports a
/// `collective-mismatch` otherwise (the path dies). `false` on a mismatch of
/// call or op (the root is a check, the path goes on under it).
pub(super) fn agrees(
    ev: &mut Evaluator<'_>,
    env: &ProcEnv<'_>,
    (w0, lf0, root0, op0): (usize, LF, Option<Expr>, Option<Op>),
    (w, lf, root, op): (usize, LF, Option<Expr>, Option<Op>),
    span: &Span,
) -> bool {
    if lf0 != lf {
        ev.fail(
            env,
            Property::CollectiveMismatch,
            format!(
                "process {w} calls {} while process {w0} calls {} (collective \
                 calls on a communicator must match in order)",
                lf.c_name(),
                lf0.c_name()
            ),
            span,
        );
        return false;
    }
    if op0 != op {
        ev.fail(
            env,
            Property::CollectiveMismatch,
            format!(
                "process {w} uses {} in {} while process {w0} uses {}",
                op.map_or("no operation", op_name),
                lf.c_name(),
                op0.map_or("no operation", op_name)
            ),
            span,
        );
        return false;
    }
    if let (Some(r0), Some(r)) = (root0, root) {
        let name = lf.c_name();
        check_gives_same(ev, env, (name, "root"), (w0, r0), (w, r), span);
    }
    true
}

/// Checks that process `w` gives collective `name` the same `what`
/// (`mine`) as process `w0` (`first`): `collective-mismatch` otherwise.
pub(super) fn check_gives_same(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    (name, what): (&str, &str),
    (w0, first): (usize, Expr),
    (w, mine): (usize, Expr),
    span: &Span,
) {
    let f = ev.factory();
    let message = || {
        let (mine, first) = (f.pretty(mine), f.pretty(first));
        format!("process {w} gives {what} {mine} to {name} while process {w0} gives {first}")
    };
    ev.check(
        env,
        f.eq(first, mine),
        Property::CollectiveMismatch,
        message,
        span,
    );
}

impl Mpi<'_> {
    /// The root (comm rank) of a collective, from its first member's call:
    /// `Ok(Some(None))` for a collective without root, `Ok(None)` for a bad root
    /// (already reported).
    pub(super) fn members_root(
        &mut self,
        state: &mut State,
        members: &[Member<'_>],
    ) -> Result<Option<Option<usize>>, EngineError> {
        let f = self.ctx.f;
        let Some(r) = members[0].root else {
            return Ok(Some(None));
        };
        let n = members.len();
        let env = self.ctx.env(state, members[0].world);
        let mut ev = Evaluator::without_checks(f, self.oracle, members[0].world);
        match resolve_root(&mut ev, &env, r, n) {
            Some(v) if (0..n as i64).contains(&v) => Ok(Some(Some(v as usize))),
            Some(_) => Ok(None),
            None => Err(EngineError::unsupported(
                format!(
                    "{} with a root that depends on the inputs",
                    members[0].lf.c_name()
                ),
                members[0].span,
            )),
        }
    }
}

/// The value of root expression `r` when it is determined.
pub(super) fn resolve_root(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    r: Expr,
    n: usize,
) -> Option<i64> {
    let f = ev.factory();
    match f.as_concrete_int(r).and_then(|r| i64::try_from(r).ok()) {
        Some(v) => Some(v),
        None => (0..n as i64).find(|&v| holds(ev, env, f.eq(r, f.int(v)))),
    }
}

/// The pieces of send data (flat offset, count) a member with significant
/// arguments `a` contributes: exactly the reads [`read_transfers`] makes of it.
pub(super) fn send_pieces(
    f: &ExprFactory,
    kind: Kind,
    a: &Significant,
    n: usize,
    is_root: bool,
) -> Vec<(Expr, Expr)> {
    let zero = f.int(0);
    let count = |x: &Option<Expr>| x.unwrap_or(zero);
    let at = |xs: &Option<Vec<Expr>>, k: usize| {
        xs.as_ref().and_then(|v| v.get(k).copied()).unwrap_or(zero)
    };
    match kind {
        Kind::Bcast if is_root => vec![(zero, count(&a.scount))],
        Kind::Reduce | Kind::Allreduce | Kind::Scan | Kind::Exscan => {
            vec![(zero, count(&a.scount))]
        }
        Kind::ReduceScatter => {
            let total = (0..n).fold(zero, |acc, i| f.add(acc, at(&a.rcounts, i)));
            vec![(zero, total)]
        }
        Kind::Gather | Kind::Gatherv | Kind::Allgather | Kind::Allgatherv => {
            vec![(zero, count(&a.scount))]
        }
        Kind::Scatter if is_root => {
            let sc = count(&a.scount);
            (0..n).map(|j| (f.mul(sc, f.int(j as i64)), sc)).collect()
        }
        Kind::Scatterv | Kind::Alltoallv if is_root || kind == Kind::Alltoallv => (0..n)
            .map(|j| (at(&a.sdispls, j), at(&a.scounts, j)))
            .collect(),
        Kind::Alltoall => {
            let sc = count(&a.scount);
            (0..n).map(|j| (f.mul(sc, f.int(j as i64)), sc)).collect()
        }
        _ => Vec::new(),
    }
}

/// The receive buffers (argument position, optional) the result of a
/// collective goes to at the member of comm rank `rank`: exactly the
/// destinations of [`read_transfers`] for it.
pub(super) fn recv_args(kind: Kind, is_root: bool, rank: usize) -> Vec<(usize, bool)> {
    let pos = positions(kind);
    let (Some(sbuf), Some(rbuf)) = (pos.sbuf, pos.rbuf.or(pos.sbuf)) else {
        return Vec::new();
    };
    match kind {
        Kind::Bcast if !is_root => vec![(sbuf, false)],
        Kind::Reduce | Kind::Gather | Kind::Gatherv if is_root => vec![(rbuf, false)],
        Kind::Exscan => vec![(rbuf, rank == 0)],
        Kind::Allreduce
        | Kind::Scan
        | Kind::ReduceScatter
        | Kind::Allgather
        | Kind::Allgatherv
        | Kind::Scatter
        | Kind::Scatterv
        | Kind::Alltoall
        | Kind::Alltoallv => vec![(rbuf, false)],
        _ => Vec::new(),
    }
}
