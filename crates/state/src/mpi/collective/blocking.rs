//! A blocking collective: one synchronous step of all members.

use std::collections::BTreeMap;
use tass_dynamic::api::{Handle, Value};
use tass_model::api::LibraryConstant as LC;
use tass_semantics::api::{Change, EngineError, Property, Violation};
use tass_symbolic::api::Type;

use super::data::{write_data, DType, Op};
use super::kind::{shape, Kind, UNDEFINED};
use super::members::{agrees, path_dead, Member, Significant};
use super::nonblocking::first_post;
use super::pending::span_of;
use super::transfer::Transfer;
use super::user_reduce::{push_fold, Fold, Inputs};
use crate::mpi::buffer::check_rank;
use crate::mpi::comm;
use crate::mpi::context::{current_call, Mpi, MpiCall};
use crate::mpi::group::{created_comms, CommSpec};
use crate::state::State;

impl Mpi<'_> {
    /// The collective step owned by process `owner` (the first member of the
    /// communicator its call names; every member is at a collective call on it).
    pub(crate) fn collective_for(
        &mut self,
        state: &mut State,
        owner: usize,
    ) -> Result<(Vec<Violation>, Vec<Change>), EngineError> {
        let mut violations = Vec::new();
        let owner_call = current_call(self.ctx.model, state, owner)
            .ok_or_else(|| EngineError::invalid("collective step without a call", None))?;
        let comm = self.as_process(state, owner, &mut violations, |ev, env| {
            MpiCall::new(ev, env, &owner_call).collective_comm()
        })?;
        let Some(comm) = comm else {
            return Ok((violations, Vec::new())); // reported; the path is dead
        };
        let worlds: Vec<usize> = comm::members(state, comm)
            .into_iter()
            .map(|w| w as usize)
            .collect();
        let n = worlds.len();
        if n == 0 {
            return Err(EngineError::invalid(
                "collective on an empty communicator",
                None,
            ));
        }
        // A member with a pending nonblocking collective here: the owner's blocking
        // call is its counterpart, and a blocking call never matches a nonblocking one.
        if let Some((q, (_, origin, posted))) = worlds
            .iter()
            .find_map(|&q| first_post(state, q, comm).map(|x| (q, x)))
        {
            let line = span_of(self.ctx.model, origin).start_line;
            self.as_process(state, owner, &mut violations, |ev, env| {
                ev.fail(
                    &*env,
                    Property::CollectiveMismatch,
                    format!(
                        "process {owner} calls {} while process {q} has posted {} (line {line}); \
                     collective calls on a communicator must match in order",
                        owner_call.lf.c_name(),
                        posted.call.lf.c_name()
                    ),
                    owner_call.span,
                );
                Ok(())
            })?;
            return Ok((violations, Vec::new()));
        }

        // Phase 1: the call, root and op of every member; they must agree.
        let Some(mut members) = self.members_agreeing(state, &worlds, comm, &mut violations)?
        else {
            return Ok((violations, Vec::new()));
        };
        let kind = members[0].kind;
        let Some(root) = self.members_root(state, &members)? else {
            return Ok((violations, Vec::new())); // a bad root, reported
        };

        // Phase 2: the arguments significant at each member.
        for (i, &w) in worlds.iter().enumerate() {
            let is_root = root == Some(i);
            let Some(call) = &members[i].call else {
                continue;
            };
            let got = self.as_process(state, w, &mut violations, |ev, env| {
                MpiCall::new(ev, env, call).significant_args(kind, n, (i, is_root))
            })?;
            let Some(args) = got else {
                return Ok((violations, Vec::new()));
            };
            members[i].args = args;
            if path_dead(&self.ctx, state) {
                return Ok((violations, Vec::new()));
            }
        }

        // Phase 3: datatypes and counts must agree.
        if !(self.run(state, (&members, root), &mut violations)).check_agreement()?
            || path_dead(&self.ctx, state)
        {
            return Ok((violations, Vec::new()));
        }

        // Phase 4: the operation.
        let mut folds = Vec::new();
        match kind {
            Kind::CommDup
            | Kind::CommSplit
            | Kind::CommFree
            | Kind::CommCreate
            | Kind::CartCreate => {
                if !self.comm_operation(state, &members, comm, &mut violations)? {
                    return Ok((violations, Vec::new()));
                }
            }
            Kind::Barrier => {}
            _ => {
                let mut run = self.run(state, (&members, root), &mut violations);
                let Some(transfers) = run.read_transfers()? else {
                    return Ok((violations, Vec::new()));
                };
                if path_dead(&self.ctx, state) {
                    return Ok((violations, Vec::new()));
                }
                folds = self.write_transfers(state, &members, transfers, &mut violations)?;
            }
        }

        // Phase 5: every member moves on.
        for m in &members {
            let Some(call) = &m.call else { continue };
            self.as_process(state, m.world, &mut violations, |ev, env| {
                MpiCall::new(ev, env, call).return_success()
            })?;
        }
        // A user operator: its function runs on each receiving member, in
        // frames above the call that has returned.
        for t in folds {
            let m = &members[t.dest];
            let (Some(call), Some(Op::User(function)), Some(ins)) = (&m.call, m.op, &t.fold) else {
                continue;
            };
            let dtype = m
                .args
                .stype
                .clone()
                .or_else(|| m.args.rtype.clone())
                .unwrap_or(DType::Scalar(LC::MpiInt, Type::Int));
            self.as_process(state, m.world, &mut violations, |ev, env| {
                let inout = ev.eval(&*env, &call.args[t.arg])?;
                let fold = Fold {
                    function,
                    ins: Inputs::Copies(ins),
                    dtype: &dtype,
                    count: t.n,
                    inout,
                };
                push_fold(ev, env, fold, m.span)
            })?;
        }
        Ok((violations, Vec::new()))
    }

    /// `MPI_Comm_dup`, `MPI_Comm_split`, `MPI_Comm_free`, `MPI_Comm_create`,
    /// `MPI_Cart_create`: make or free the communicators and write the handles
    /// through the members' pointer arguments. False when a violation ended
    /// the step.
    pub(super) fn comm_operation(
        &mut self,
        state: &mut State,
        members: &[Member<'_>],
        comm: u32,
        violations: &mut Vec<Violation>,
    ) -> Result<bool, EngineError> {
        let kind = members[0].kind;
        let origin = members[0].call.as_ref().and_then(|c| {
            let frame = state.inner.procs[members[0].world].stack.last()?;
            Some((frame.function, c.tid))
        });
        let handles: Vec<(usize, Value)> = match kind {
            Kind::CommCreate | Kind::CartCreate => {
                match self.created_handles(state, members, origin, violations)? {
                    Some(handles) => handles,
                    None => return Ok(false),
                }
            }
            Kind::CommDup => {
                let worlds = members.iter().map(|m| m.world as u32).collect();
                let k = comm::new_comm(state, worlds, origin);
                (0..members.len())
                    .map(|j| (j, Value::Handle(Handle::Comm(k))))
                    .collect()
            }
            Kind::CommSplit => {
                // color -> (key, old rank, world rank) of its members
                let mut groups: BTreeMap<i64, Vec<(i64, usize, u32)>> = BTreeMap::new();
                let mut out = Vec::new();
                for (j, m) in members.iter().enumerate() {
                    match m.args.split {
                        Some((color, _)) if color == UNDEFINED => {
                            out.push((j, Value::Handle(Handle::Constant(LC::MpiCommNull))));
                        }
                        Some((color, key)) => {
                            groups
                                .entry(color)
                                .or_default()
                                .push((key, j, m.world as u32))
                        }
                        None => {}
                    }
                }
                for (_, mut g) in groups {
                    g.sort();
                    let worlds = g.iter().map(|&(_, _, w)| w).collect();
                    let k = comm::new_comm(state, worlds, origin);
                    out.extend(
                        g.iter()
                            .map(|&(_, j, _)| (j, Value::Handle(Handle::Comm(k)))),
                    );
                }
                out.sort_by_key(|(j, _)| *j);
                out
            }
            Kind::CommFree => {
                comm::free_comm(state, comm);
                (0..members.len())
                    .map(|j| (j, Value::Handle(Handle::Constant(LC::MpiCommNull))))
                    .collect()
            }
            _ => Vec::new(),
        };
        let out_arg = kind
            .blocking_form()
            .position(tass_model::api::mpi::ArgRole::NewComm)
            .unwrap_or(0);
        for (j, h) in handles {
            let m = &members[j];
            let Some(call) = &m.call else { continue };
            self.as_process(state, m.world, violations, |ev, env| {
                let ptr = ev.eval(&*env, &call.args[out_arg])?;
                let place =
                    ev.deref_place(&*env, ptr, false, m.span, &|| "new communicator".into())?;
                ev.write_place(env, &place, h, m.span)
            })?;
        }
        Ok(true)
    }

    /// The handles `MPI_Comm_create`/`MPI_Cart_create` give each member (by
    /// index): the new communicator, or `MPI_COMM_NULL` for a process left
    /// out; `None` after reporting why it cannot be made.
    fn created_handles(
        &mut self,
        state: &mut State,
        members: &[Member<'_>],
        origin: Option<(tass_model::api::FunctionId, tass_model::api::TransitionId)>,
        violations: &mut Vec<Violation>,
    ) -> Result<Option<Vec<(usize, Value)>>, EngineError> {
        let worlds: Vec<u32> = members.iter().map(|m| m.world as u32).collect();
        let specs: Vec<CommSpec> = members
            .iter()
            .map(|m| m.args.made_from.clone())
            .collect::<Option<_>>()
            .ok_or_else(|| EngineError::invalid("communicator creation without its spec", None))?;
        let created = match created_comms(&worlds, &specs, members[0].lf) {
            Ok(created) => created,
            Err((j, property, message)) => {
                let m = &members[j];
                self.as_process(state, m.world, violations, |ev, env| {
                    ev.fail(&*env, property, message, m.span);
                    Ok(())
                })?;
                return Ok(None);
            }
        };
        let handles: Vec<u32> = created
            .comms
            .into_iter()
            .map(|(in_it, topology)| {
                comm::new_communicator(
                    state,
                    comm::Communicator {
                        members: in_it,
                        topology: topology.map(std::sync::Arc::new),
                        origin,
                    },
                )
            })
            .collect();
        Ok(Some(
            created
                .of_member
                .iter()
                .enumerate()
                .map(|(j, k)| {
                    let h = match k {
                        Some(k) => Handle::Comm(handles[*k]),
                        None => Handle::Constant(LC::MpiCommNull),
                    };
                    (j, Value::Handle(h))
                })
                .collect(),
        ))
    }
}

impl<'a> Mpi<'a> {
    /// The members of a blocking collective on `comm` (world ranks `worlds`)
    /// with their calls, roots and operations, checked to agree; `None` when
    /// a violation ended the step.
    fn members_agreeing(
        &mut self,
        state: &mut State,
        worlds: &[usize],
        comm: u32,
        violations: &mut Vec<Violation>,
    ) -> Result<Option<Vec<Member<'a>>>, EngineError> {
        let n = worlds.len();
        let mut members: Vec<Member<'_>> = Vec::with_capacity(n);
        for (i, &w) in worlds.iter().enumerate() {
            let call = current_call(self.ctx.model, state, w).ok_or_else(|| {
                EngineError::invalid("collective step: a member is not at a call", None)
            })?;
            let Some((kind, false)) = shape(call.lf) else {
                return Err(EngineError::invalid(
                    "collective step: a member is not at a blocking collective call",
                    Some(call.span),
                ));
            };
            let first = members.first().map(|m| (m.world, m.lf, m.root, m.op));
            let member = self.as_process(state, w, violations, |ev, env| {
                let mut member_call = MpiCall::new(ev, env, &call);
                if i > 0 {
                    match member_call.collective_comm()? {
                        None => return Ok(None),
                        Some(c) if c != comm => {
                            return Err(EngineError::invalid(
                                "collective step: members on different communicators",
                                Some(call.span),
                            ))
                        }
                        Some(_) => {}
                    }
                }
                let (root, op) = member_call.root_and_op(kind)?;
                if let Some(first) = first {
                    if !agrees(ev, env, first, (w, call.lf, root, op), call.span) {
                        return Ok(None);
                    }
                }
                if let Some(r) = root {
                    check_rank(ev, &*env, r, false, "root", call.span, n);
                }
                Ok(Some(Member {
                    world: w,
                    lf: call.lf,
                    span: call.span,
                    call: Some(call),
                    kind,
                    root,
                    op,
                    args: Significant::default(),
                    pieces: None,
                }))
            })?;
            match member {
                Some(m) => members.push(m),
                None => return Ok(None),
            }
            if path_dead(&self.ctx, state) {
                return Ok(None);
            }
        }
        Ok(Some(members))
    }

    /// Writes each transfer into its member's receive buffer; gives back
    /// those a user operator's function still has to fold into.
    fn write_transfers(
        &mut self,
        state: &mut State,
        members: &[Member<'_>],
        transfers: Vec<Transfer>,
        violations: &mut Vec<Violation>,
    ) -> Result<Vec<Transfer>, EngineError> {
        let mut folds = Vec::new();
        for t in transfers {
            let m = &members[t.dest];
            let Some(call) = &m.call else { continue };
            let arg = &call.args[t.arg];
            let dt = m.args.receive_type();
            let span = m.span;
            self.as_process(state, m.world, violations, |ev, env| {
                if t.optional
                    && matches!(ev.eval(&*env, arg)?, Value::Pointer(ref q) if q.is_null())
                {
                    return Ok(());
                }
                write_data(ev, env, arg.into(), t.window(), (&t.data, t.n), &dt, span)
            })?;
            if t.fold.is_some() {
                folds.push(t);
            }
        }
        Ok(folds)
    }
}
