//! Communicators: `MPI_COMM_WORLD` (communicator 0), each process's
//! `MPI_COMM_SELF` (communicator `rank + 1`, made at the start), and those made
//! at run time by `MPI_Comm_dup` / `MPI_Comm_split`, each a list of world ranks
//! in the order of their ranks in it. Messages carry their communicator, so traffic on a
//! duplicate never matches traffic on the original (MPI's separate contexts).
//! `MPI_Comm_create` and `MPI_Cart_create` make communicators too; a
//! Cartesian one keeps its grid ([`super::topology::Cartesian`]).

use std::sync::Arc;
use tass_dynamic::api::{Handle, Value};
use tass_model::api::mpi::ArgRole;
use tass_model::api::{Expr as MExpr, FunctionId, LibraryConstant as LC, TransitionId};
use tass_semantics::api::{EngineError, Property};

use super::context::{ArgReader, MpiCall};
use super::topology::Cartesian;
use crate::state::State;

/// A communicator made at run time (or a process's `MPI_COMM_SELF`).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Communicator {
    /// The world ranks of its members, in the order of their ranks in it.
    pub members: Vec<u32>,
    /// The grid of a communicator made by `MPI_Cart_create`.
    pub topology: Option<Arc<Cartesian>>,
    /// The call that made it, as its first member made it (`None` for
    /// `MPI_COMM_SELF`, which the program does not free).
    pub origin: Option<(FunctionId, TransitionId)>,
}

impl Communicator {
    /// A process's `MPI_COMM_SELF`.
    pub(crate) fn self_of(world: u32) -> Communicator {
        Communicator {
            members: vec![world],
            topology: None,
            origin: None,
        }
    }
}

/// The communicator a handle value names, if it is a valid one.
pub(crate) fn comm_of_value(state: &State, v: &Value) -> Option<u32> {
    match v {
        Value::Handle(Handle::Constant(LC::MpiCommWorld)) => Some(0),
        Value::Handle(Handle::Comm(k)) => {
            let live = state
                .inner
                .comms
                .get(k.checked_sub(1)? as usize)
                .is_some_and(Option::is_some);
            live.then_some(*k)
        }
        _ => None,
    }
}

/// The world ranks of the members of communicator `k` (one a program created,
/// not `MPI_COMM_WORLD`), while it exists.
fn created_members(state: &State, k: u32) -> Option<&[u32]> {
    let comm = state.inner.comms.get(k as usize - 1)?.as_ref()?;
    Some(&comm.members)
}

/// Number of processes in communicator `comm`.
pub(crate) fn comm_size(state: &State, comm: u32) -> usize {
    match comm {
        0 => state.inner.procs.len(),
        k => created_members(state, k).map_or(0, <[u32]>::len),
    }
}

/// The world rank of rank `rank` of communicator `comm`.
pub(crate) fn to_world(state: &State, comm: u32, rank: usize) -> Option<u32> {
    match comm {
        0 => (rank < state.inner.procs.len()).then_some(rank as u32),
        k => created_members(state, k)?.get(rank).copied(),
    }
}

/// The rank in communicator `comm` of the process of world rank `world`.
pub(crate) fn rank_in(state: &State, comm: u32, world: u32) -> Option<usize> {
    match comm {
        0 => Some(world as usize),
        k => created_members(state, k)?.iter().position(|&w| w == world),
    }
}

/// The world ranks of the members of `comm`, in rank order.
pub(crate) fn members(state: &State, comm: u32) -> Vec<u32> {
    (0..comm_size(state, comm))
        .filter_map(|r| to_world(state, comm, r))
        .collect()
}

/// Adds a communicator with these members (world ranks in rank order), made
/// by the call at `origin`; its handle number.
pub(crate) fn new_comm(
    state: &mut State,
    members: Vec<u32>,
    origin: Option<(FunctionId, TransitionId)>,
) -> u32 {
    new_communicator(
        state,
        Communicator {
            members,
            topology: None,
            origin,
        },
    )
}

/// Adds communicator `c`; its handle number.
pub(crate) fn new_communicator(state: &mut State, c: Communicator) -> u32 {
    let s = state.inner_mut();
    let comms = Arc::make_mut(&mut s.comms);
    comms.push(Some(c));
    comms.len() as u32
}

/// Communicator `comm` as it was made (`None` for `MPI_COMM_WORLD` and a
/// freed one).
pub(crate) fn communicator(state: &State, comm: u32) -> Option<&Communicator> {
    state
        .inner
        .comms
        .get(comm.checked_sub(1)? as usize)?
        .as_ref()
}

/// Marks communicator `comm` freed (its number is not reused, so a stale handle
/// stays recognisably invalid).
pub(crate) fn free_comm(state: &mut State, comm: u32) {
    if comm == 0 {
        return;
    }
    let s = state.inner_mut();
    if let Some(slot) = Arc::make_mut(&mut s.comms).get_mut(comm as usize - 1) {
        *slot = None;
    }
}

impl ArgReader<'_, '_, '_> {
    /// Evaluates communicator argument `e`: its number, or `None` after
    /// reporting an invalid communicator (the path dies).
    pub(super) fn check_comm(&mut self, e: &MExpr) -> Result<Option<u32>, EngineError> {
        let v = self.ev.eval(self.env, e)?;
        if let Some(c) = comm_of_value(self.env.state, &v) {
            return Ok(Some(c));
        }
        let what = describe_invalid(&v);
        let message = format!("MPI call on {what}, which is not a valid communicator");
        self.ev
            .fail(self.env, Property::InvalidPointer, message, self.span);
        Ok(None)
    }
}

impl MpiCall<'_, '_, '_> {
    /// The call's communicator argument, checked (see [`ArgReader::check_comm`]).
    pub(super) fn checked_comm(&mut self) -> Result<Option<u32>, EngineError> {
        let comm = self.call.arg(ArgRole::Comm);
        self.reader().check_comm(comm)
    }
}

/// What an invalid communicator value is, for messages.
pub(crate) fn describe_invalid(v: &Value) -> String {
    match v {
        Value::Handle(Handle::Constant(LC::MpiCommNull)) => "MPI_COMM_NULL".to_string(),
        Value::Handle(Handle::Constant(LC::MpiCommSelf)) => "MPI_COMM_SELF".to_string(),
        Value::Handle(Handle::Comm(_)) => "a freed communicator".to_string(),
        Value::Undefined => "an uninitialised communicator".to_string(),
        other => format!("{other:?}"),
    }
}
