//! Groups (`MPI_Comm_group`, `MPI_Group_incl`/`excl`/`size`/`rank`/
//! `translate_ranks`/`free`), and the dispatch of the local calls of this
//! block of the library (groups, Cartesian questions, user operators,
//! attached buffers), with the helpers they share for arrays of `int`s and
//! handles written through pointers.
//!
//! A group belongs to the process that made it: `Handle::Group(k)` is entry
//! `k - 1` of its [`super::process::MpiProc::groups`], the world ranks of the
//! members in the order of their ranks in the group. `MPI_GROUP_EMPTY` is the
//! empty group (never freed); `MPI_GROUP_NULL` names none.

use crate::mpi::buffer::{Elements, Reader};
use tass_dynamic::api::{Handle, Value};
use tass_model::api::mpi::{ArgRole, MPI_PROC_NULL, MPI_UNDEFINED};
use tass_model::api::{
    Expr as MExpr, FunctionId, LibraryConstant as LC, LibraryFunction as LF, Span, TransitionId,
};
use tass_semantics::api::{EngineError, Evaluator, Property};
use tass_symbolic::api::Type;

use super::buffer::{write_buffer, Window};
use super::comm;
use super::context::{write_through, ArgReader, MpiCall};
use crate::env::{set_mpi, ProcEnv};

/// A group of a process.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Group {
    /// The world ranks of the members, in the order of their ranks in it.
    pub members: Vec<u32>,
    /// The call that made it (for the `resource-leak` report).
    pub origin: (FunctionId, TransitionId),
}

/// Whether the call ended normally (the process moves past it) or a
/// violation ended the step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Done {
    /// The call returns.
    Returns,
    /// A violation was reported; the step is over.
    Failed,
}

/// What a bad output pointer of the calls here is called in messages.
pub(super) const OUTPUT: &str = "output argument";

/// True for the local calls this module executes.
pub(super) fn is_local_call(lf: LF) -> bool {
    lf.mpi()
        .is_some_and(|d| d.kind == tass_model::api::mpi::MpiKind::Local)
}

impl MpiCall<'_, '_, '_> {
    /// Executes the local call (made at `origin`).
    pub(super) fn execute_local(
        &mut self,
        origin: (FunctionId, TransitionId),
    ) -> Result<Done, EngineError> {
        match self.call.lf {
            LF::MpiCommGroup => self.comm_group(origin),
            LF::MpiGroupSize | LF::MpiGroupRank => self.group_query(),
            LF::MpiGroupIncl | LF::MpiGroupExcl => self.group_range(origin),
            LF::MpiGroupTranslateRanks => self.translate_ranks(),
            LF::MpiGroupFree => self.group_free(),
            LF::MpiCartCoords
            | LF::MpiCartRank
            | LF::MpiCartShift
            | LF::MpiCartGet
            | LF::MpiCartdimGet
            | LF::MpiDimsCreate => self.cartesian_call(),
            LF::MpiOpCreate | LF::MpiOpFree => self.op_create_or_free(origin),
            LF::MpiBufferAttach | LF::MpiBufferDetach => self.buffer_attach_or_detach(),
            other => Err(EngineError::unsupported(
                format!("not yet supported: {}", other.c_name()),
                self.call.span,
            )),
        }
    }

    /// The concrete `int` argument of `call` in `role` (`what` names it in the
    /// error: unsupported when it depends on the inputs).
    pub(super) fn int_arg(&mut self, role: ArgRole, what: &str) -> Result<i64, EngineError> {
        let (ev, env, call) = self.parts();
        concrete_int(ev, env, call.arg(role), what, (call.lf, call.span))
    }

    /// Reads `n` concrete `int`s from the array argument of `call` in `role`
    /// (`None`: the path died).
    pub(super) fn read_ints(
        &mut self,
        role: ArgRole,
        n: usize,
        what: &str,
    ) -> Result<Option<Vec<i64>>, EngineError> {
        let (ev, env, call) = self.parts();
        let f = ev.factory();
        let count = f.int(n as i64);
        let got = Reader::new(ev, env, call.span)
            .read_buffer(Elements::new(call.arg(role), count, f.int(0)), &Type::Int)?;
        let Some(array) = got else {
            return Ok(None);
        };
        let mut out = Vec::with_capacity(n);
        for j in 0..n as i64 {
            let x = f.array_read(array, f.int(j));
            let Some(x) = f.as_concrete_int(x).and_then(|k| i64::try_from(k).ok()) else {
                return Err(EngineError::unsupported(
                    format!(
                        "{} with {what} that depend on the inputs (or are uninitialised)",
                        call.lf.c_name()
                    ),
                    call.span,
                ));
            };
            out.push(x);
        }
        Ok(Some(out))
    }

    /// `MPI_Comm_group(comm, &group)`: a new group of the communicator's members.
    fn comm_group(&mut self, origin: (FunctionId, TransitionId)) -> Result<Done, EngineError> {
        let Some(c) = self.checked_comm()? else {
            return Ok(Done::Failed);
        };
        let (ev, env, call) = self.parts();
        let members = comm::members(env.state, c);
        let g = new_group(env, members, origin);
        write_through(ev, env, call.arg(ArgRole::NewGroup), g, OUTPUT, call.span)?;
        Ok(Done::Returns)
    }

    /// `MPI_Group_size`, `MPI_Group_rank` (`MPI_UNDEFINED` for a non-member).
    fn group_query(&mut self) -> Result<Done, EngineError> {
        let (group, lf) = (self.call.arg(ArgRole::Group), self.call.lf);
        let Some(g) = self.reader().check_group(group, lf)? else {
            return Ok(Done::Failed);
        };
        let (value, out) = if lf == LF::MpiGroupSize {
            (g.len() as i64, ArgRole::SizeOut)
        } else {
            let me = self.env.proc as u32;
            let rank = g.iter().position(|&w| w == me);
            (rank.map_or(MPI_UNDEFINED, |r| r as i64), ArgRole::RankOut)
        };
        self.write_int(out, value)?;
        Ok(Done::Returns)
    }

    /// Checks the ranks of `MPI_Group_incl`/`excl`: each a rank of the group,
    /// none twice (MPI makes both erroneous: `mpi-rank`).
    fn check_distinct_ranks(&mut self, ranks: &[i64], size: usize) -> bool {
        let (ev, env, call) = self.parts();
        for (j, &r) in ranks.iter().enumerate() {
            let message = if r < 0 || r >= size as i64 {
                format!(
                    "{}: rank {r} (element {j}) is not a rank of the group (0..{})",
                    call.lf.c_name(),
                    size as i64 - 1
                )
            } else if ranks[..j].contains(&r) {
                format!(
                    "{}: rank {r} (element {j}) is listed twice",
                    call.lf.c_name()
                )
            } else {
                continue;
            };
            ev.fail(env, Property::MpiRank, message, call.span);
            return false;
        }
        true
    }

    /// `MPI_Group_incl(group, n, ranks, &new)`, `MPI_Group_excl(...)`.
    fn group_range(&mut self, origin: (FunctionId, TransitionId)) -> Result<Done, EngineError> {
        let call = self.call;
        let (lf, span) = (call.lf, call.span);
        let Some(g) = self.reader().check_group(call.arg(ArgRole::Group), lf)? else {
            return Ok(Done::Failed);
        };
        let n = self.int_arg(ArgRole::Length, "count")?;
        if n < 0 || n > g.len() as i64 {
            let message = format!(
                "{}: count {n} is not between 0 and the group's size {}",
                lf.c_name(),
                g.len()
            );
            self.ev.fail(&*self.env, Property::MpiCount, message, span);
            return Ok(Done::Failed);
        }
        let ranks = if n == 0 {
            Vec::new()
        } else {
            let got = self.read_ints(ArgRole::Ranks, n as usize, "ranks")?;
            let Some(ranks) = got else {
                return Ok(Done::Failed);
            };
            ranks
        };
        if !self.check_distinct_ranks(&ranks, g.len()) {
            return Ok(Done::Failed);
        }
        let members: Vec<u32> = if lf == LF::MpiGroupIncl {
            ranks.iter().map(|&r| g[r as usize]).collect()
        } else {
            (0..g.len())
                .filter(|r| !ranks.contains(&(*r as i64)))
                .map(|r| g[r])
                .collect()
        };
        let new = new_group(self.env, members, origin);
        write_through(
            self.ev,
            self.env,
            call.arg(ArgRole::NewGroup),
            new,
            OUTPUT,
            span,
        )?;
        Ok(Done::Returns)
    }

    /// `MPI_Group_translate_ranks(g1, n, ranks1, g2, ranks2)`: the rank in `g2`
    /// of each listed member of `g1` (`MPI_UNDEFINED` if not in `g2`;
    /// `MPI_PROC_NULL` stays so).
    fn translate_ranks(&mut self) -> Result<Done, EngineError> {
        let call = self.call;
        let (lf, span) = (call.lf, call.span);
        let Some(g1) = self.reader().check_group(call.arg(ArgRole::Group), lf)? else {
            return Ok(Done::Failed);
        };
        let Some(g2) = self
            .reader()
            .check_group(call.arg(ArgRole::OtherGroup), lf)?
        else {
            return Ok(Done::Failed);
        };
        let n = self.int_arg(ArgRole::Length, "count")?;
        if n < 0 {
            let message = format!("{}: negative count {n}", lf.c_name());
            self.ev.fail(&*self.env, Property::MpiCount, message, span);
            return Ok(Done::Failed);
        }
        let got = self.read_ints(ArgRole::Ranks, n as usize, "ranks")?;
        let Some(ranks) = got else {
            return Ok(Done::Failed);
        };
        let mut out = Vec::with_capacity(ranks.len());
        for (j, &r) in ranks.iter().enumerate() {
            if r == MPI_PROC_NULL {
                out.push(MPI_PROC_NULL);
                continue;
            }
            let Some(&w) = usize::try_from(r).ok().and_then(|r| g1.get(r)) else {
                let message = format!(
                    "{}: rank {r} (element {j}) is not a rank of the first group (0..{})",
                    lf.c_name(),
                    g1.len() as i64 - 1
                );
                self.ev.fail(&*self.env, Property::MpiRank, message, span);
                return Ok(Done::Failed);
            };
            out.push(
                g2.iter()
                    .position(|&x| x == w)
                    .map_or(MPI_UNDEFINED, |k| k as i64),
            );
        }
        self.write_ints(ArgRole::RanksOut, &out)?;
        Ok(Done::Returns)
    }

    /// `MPI_Group_free(&group)`: frees the group and sets the handle to
    /// `MPI_GROUP_NULL`.
    fn group_free(&mut self) -> Result<Done, EngineError> {
        let (ev, env, call) = self.parts();
        let (place, v) = read_through(ev, &*env, call.arg(ArgRole::Group), call.span)?;
        match v {
            Value::Handle(Handle::Group(k)) if group_of_value(env, &v).is_some() => {
                set_mpi(env, |m| m.groups[k as usize - 1] = None);
            }
            // MPI_GROUP_EMPTY is a group like another; freeing it is allowed.
            Value::Handle(Handle::Constant(LC::MpiGroupEmpty)) => {}
            _ => {
                let what = match v {
                    Value::Handle(Handle::Constant(LC::MpiGroupNull)) => "MPI_GROUP_NULL",
                    Value::Handle(Handle::Group(_)) => "a group freed already",
                    Value::Undefined => "an uninitialised group",
                    _ => "a value that is no group",
                };
                ev.fail(
                    &*env,
                    Property::InvalidPointer,
                    format!("MPI_Group_free on {what}"),
                    call.span,
                );
                return Ok(Done::Failed);
            }
        }
        let null = Value::Handle(Handle::Constant(LC::MpiGroupNull));
        ev.write_place(env, &place, null, call.span)?;
        Ok(Done::Returns)
    }

    /// Reads what the member at `MPI_Comm_create`/`MPI_Cart_create` call `call`
    /// asks for, with its checks (`None`: a violation ended the step).
    pub(crate) fn comm_spec(&mut self) -> Result<Option<CommSpec>, EngineError> {
        let call = self.call;
        let (lf, span) = (call.lf, call.span);
        if lf == LF::MpiCommCreate {
            let g = self.reader().check_group(call.arg(ArgRole::Group), lf)?;
            return Ok(g.map(CommSpec::Group));
        }
        let ndims = self.int_arg(ArgRole::Length, "ndims")?;
        if ndims < 0 {
            let message = format!("MPI_Cart_create with negative ndims {ndims}");
            self.ev.fail(self.env, Property::MpiCount, message, span);
            return Ok(None);
        }
        let n = ndims as usize;
        let Some(dims) = self.read_ints(ArgRole::Dims, n, "dims")? else {
            return Ok(None);
        };
        let got = self.read_ints(ArgRole::Periods, n, "periods")?;
        let Some(periods) = got else {
            return Ok(None);
        };
        if let Some(d) = dims.iter().position(|&d| d <= 0) {
            let message = format!(
                "MPI_Cart_create: dimension {d} has extent {}, which is not positive",
                dims[d]
            );
            self.ev.fail(self.env, Property::MpiCount, message, span);
            return Ok(None);
        }
        Ok(Some(CommSpec::Grid(super::topology::Cartesian {
            dims,
            periods: periods.iter().map(|&p| p != 0).collect(),
        })))
    }
}

/// The members of the group value `v` names for process `p`, if it is a
/// valid group.
pub(super) fn group_of_value(env: &ProcEnv<'_>, v: &Value) -> Option<Vec<u32>> {
    match v {
        Value::Handle(Handle::Constant(LC::MpiGroupEmpty)) => Some(Vec::new()),
        Value::Handle(Handle::Group(k)) => env.state.inner.procs[env.proc]
            .mpi
            .groups
            .get(k.checked_sub(1)? as usize)?
            .as_ref()
            .map(|g| g.members.clone()),
        _ => None,
    }
}

impl ArgReader<'_, '_, '_> {
    /// Evaluates group argument `e` of a call of `lf`: its members, or `None`
    /// after reporting an invalid group (`invalid-pointer`, as for an invalid
    /// communicator).
    pub(super) fn check_group(
        &mut self,
        e: &MExpr,
        lf: LF,
    ) -> Result<Option<Vec<u32>>, EngineError> {
        let v = self.ev.eval(self.env, e)?;
        if let Some(g) = group_of_value(self.env, &v) {
            return Ok(Some(g));
        }
        let what = match v {
            Value::Handle(Handle::Constant(LC::MpiGroupNull)) => "MPI_GROUP_NULL".to_string(),
            Value::Handle(Handle::Group(_)) => "a freed group".to_string(),
            Value::Undefined => "an uninitialised group".to_string(),
            other => format!("{other:?}"),
        };
        let message = format!("{} on {what}, which is not a valid group", lf.c_name());
        self.ev
            .fail(self.env, Property::InvalidPointer, message, self.span);
        Ok(None)
    }
}

/// Adds a group with these members to the process; the handle value
/// (`MPI_GROUP_EMPTY` for no members, as MPI returns it).
fn new_group(
    env: &mut ProcEnv<'_>,
    members: Vec<u32>,
    origin: (FunctionId, TransitionId),
) -> Value {
    if members.is_empty() {
        return Value::Handle(Handle::Constant(LC::MpiGroupEmpty));
    }
    let mut k = 0;
    set_mpi(env, |m| {
        m.groups.push(Some(Group { members, origin }));
        k = m.groups.len() as u32;
    });
    Value::Handle(Handle::Group(k))
}

/// Reads the handle pointer argument `ptr` points to: its place and value.
pub(super) fn read_through(
    ev: &mut Evaluator<'_>,
    env: &ProcEnv<'_>,
    ptr: &MExpr,
    span: &Span,
) -> Result<(tass_semantics::api::Place, Value), EngineError> {
    let p = ev.eval(env, ptr)?;
    let place = ev.deref_place(env, p, false, span, &|| "handle".into())?;
    let v = ev.read_place(env, &place);
    Ok((place, v))
}

/// The concrete value of `int` expression `e`, an argument of `caller` (`Err`:
/// unsupported when it depends on the inputs).
pub(super) fn concrete_int(
    ev: &mut Evaluator<'_>,
    env: &ProcEnv<'_>,
    e: &MExpr,
    what: &str,
    (lf, span): (LF, &Span),
) -> Result<i64, EngineError> {
    let x = ev.eval_int(env, e)?;
    ev.factory()
        .as_concrete_int(x)
        .and_then(|k| i64::try_from(k).ok())
        .ok_or_else(|| {
            EngineError::unsupported(
                format!("{} with a {what} that depends on the inputs", lf.c_name()),
                span,
            )
        })
}

impl MpiCall<'_, '_, '_> {
    /// Writes `values` into the array argument with role `role`.
    pub(super) fn write_ints(&mut self, role: ArgRole, values: &[i64]) -> Result<(), EngineError> {
        let (ev, env, call) = self.parts();
        let (e, span) = (call.arg(role), call.span);
        if values.is_empty() {
            return Ok(());
        }
        let f = ev.factory();
        let n = f.int(values.len() as i64);
        let items: Vec<_> = values.iter().map(|&v| f.int(v)).collect();
        let data = f.array_literal(Type::array(Type::Int, Some(n)), &items);
        let window = Window {
            capacity: n,
            offset: f.int(0),
        };
        write_buffer(ev, env, e, window, data, n, span)
    }

    /// Writes `value` into the `int` that the pointer argument with role
    /// `role` points to.
    pub(super) fn write_int(&mut self, role: ArgRole, value: i64) -> Result<(), EngineError> {
        let (ev, env, call) = self.parts();
        let f = ev.factory();
        write_through(
            ev,
            env,
            call.arg(role),
            Value::Data(f.int(value)),
            OUTPUT,
            call.span,
        )
    }
}

/// The groups of process `p` never freed: the calls that made them.
pub(super) fn leaked_groups(ps: &super::process::MpiProc) -> Vec<(FunctionId, TransitionId)> {
    ps.groups.iter().flatten().map(|g| g.origin).collect()
}

/// What a member of `MPI_Comm_create` or `MPI_Cart_create` asks for.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum CommSpec {
    /// `MPI_Comm_create`: the members of the group (world ranks).
    Group(Vec<u32>),
    /// `MPI_Cart_create`: the grid.
    Grid(super::topology::Cartesian),
}

/// Why `MPI_Comm_create`/`MPI_Cart_create` cannot make its communicator:
/// the member (index among the members) and the violation.
pub(crate) type CreateError = (usize, Property, String);

/// The communicators `MPI_Comm_create`/`MPI_Cart_create` makes, and which
/// one each member gets (`None`: `MPI_COMM_NULL`).
pub(crate) struct Created {
    /// Each new communicator: its members (world ranks in rank order), its grid.
    pub comms: Vec<(Vec<u32>, Option<super::topology::Cartesian>)>,
    /// For each member (by index), the communicator it belongs to.
    pub of_member: Vec<Option<usize>>,
}

/// What `MPI_Comm_create`/`MPI_Cart_create` makes on `worlds` (the old
/// communicator's members in rank order) from each member's `specs`. Since
/// MPI 2.2 the groups of `MPI_Comm_create` may differ when they are
/// disjoint: one communicator per group, a process getting the one of the
/// group it passed if it is in it; groups that differ and overlap are a
/// `collective-mismatch`. Every member passes the same grid.
pub(crate) fn created_comms(
    worlds: &[u32],
    specs: &[CommSpec],
    lf: LF,
) -> Result<Created, CreateError> {
    let name = lf.c_name();
    let mut groups: Vec<Vec<u32>> = Vec::new();
    let mut of_member = Vec::with_capacity(specs.len());
    for (j, s) in specs.iter().enumerate() {
        let g = match s {
            CommSpec::Grid(grid) => {
                if s != &specs[0] {
                    let message = format!(
                        "{name}: the members pass different grids (ndims, dims, periods) \
                         (member 0 and member {j}); MPI requires the same on every process"
                    );
                    return Err((j, Property::CollectiveMismatch, message));
                }
                of_member.push(((j as i64) < grid.size()).then_some(0));
                continue;
            }
            CommSpec::Group(g) => g,
        };
        if let Some(w) = g.iter().find(|w| !worlds.contains(w)) {
            let message =
                format!("{name}: the group has process {w}, which is not in the communicator");
            return Err((j, Property::MpiRank, message));
        }
        let known = groups.iter().position(|h| h == g);
        if known.is_none() && groups.iter().any(|h| h.iter().any(|w| g.contains(w))) {
            let message = format!(
                "{name}: member {j} passes a group that differs from another member's \
                 but shares processes with it; MPI requires equal or disjoint groups"
            );
            return Err((j, Property::CollectiveMismatch, message));
        }
        let k = match known {
            Some(k) => k,
            None if g.is_empty() => {
                of_member.push(None);
                continue;
            }
            None => {
                groups.push(g.clone());
                groups.len() - 1
            }
        };
        of_member.push(g.contains(&worlds[j]).then_some(k));
    }
    let comms = match specs.first() {
        Some(CommSpec::Grid(grid)) => {
            let size = grid.size();
            if size > worlds.len() as i64 {
                let message = format!(
                    "{name}: the grid {:?} has {size} places but the communicator only {} processes",
                    grid.dims,
                    worlds.len()
                );
                return Err((0, Property::MpiCount, message));
            }
            vec![(worlds[..size as usize].to_vec(), Some(grid.clone()))]
        }
        _ => groups.into_iter().map(|g| (g, None)).collect(),
    };
    Ok(Created { comms, of_member })
}

/// The `resource-leak`s of a final state: each communicator, group or user
/// operator the program made and never freed, reported at the call that
/// made it (a communicator once, at its first member).
pub(super) fn resource_leaks(
    model: &tass_model::api::Model,
    state: &crate::state::State,
    certainty: tass_semantics::api::Certainty,
    witness: Option<&Vec<(String, String)>>,
) -> Vec<tass_semantics::api::Violation> {
    let mut leaks: Vec<(usize, (FunctionId, TransitionId), &str, &str)> = Vec::new();
    for c in state.inner.comms.iter().flatten() {
        if let (Some(origin), Some(&first)) = (c.origin, c.members.first()) {
            leaks.push((first as usize, origin, "communicator", "MPI_Comm_free"));
        }
    }
    for (p, ps) in state.inner.procs.iter().enumerate() {
        for origin in leaked_groups(&ps.mpi) {
            leaks.push((p, origin, "group", "MPI_Group_free"));
        }
        for origin in super::user_op::leaked_ops(&ps.mpi) {
            leaks.push((p, origin, "operator", "MPI_Op_free"));
        }
    }
    leaks
        .into_iter()
        .map(|(p, (func, tid), what, free)| {
            let function = model.function(func);
            let (span, text) = match function.body.as_ref() {
                Some(b) => (
                    b.transition(tid).span.clone(),
                    b.transition(tid).source_text.clone(),
                ),
                None => (function.span.clone(), String::new()),
            };
            tass_semantics::api::Violation {
                property: Property::ResourceLeak,
                certainty,
                message: format!(
                    "resource leak: the {what} made by `{text}` (process {p}) is never freed ({free})"
                ),
                span,
                process: p,
                witness: witness.cloned(),
                claim: format!("every {what} made is freed"),
                snapshots: None,
            }
        })
        .collect()
}
