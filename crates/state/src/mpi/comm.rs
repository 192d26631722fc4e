//! Communicators: `MPI_COMM_WORLD` (communicator 0), each process's
//! `MPI_COMM_SELF` (communicator `rank + 1`, made at the start), and those made
//! at run time by `MPI_Comm_dup` / `MPI_Comm_split`, each a list of world ranks
//! in the order of their ranks in it. Messages carry their communicator, so traffic on a
//! duplicate never matches traffic on the original (MPI's separate contexts).

use std::sync::Arc;
use tass_dynamic::api::{Handle, Value};
use tass_model::api::{Expr as MExpr, LibraryConstant as LC, Span};
use tass_semantics::api::{EngineError, Evaluator, Property};

use crate::env::ProcEnv;
use crate::state::State;

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

/// Number of processes in communicator `comm`.
pub(crate) fn comm_size(state: &State, comm: u32) -> usize {
    match comm {
        0 => state.inner.procs.len(),
        k => state
            .inner
            .comms
            .get(k as usize - 1)
            .and_then(|c| c.as_ref())
            .map_or(0, Vec::len),
    }
}

/// The world rank of rank `rank` of communicator `comm`.
pub(crate) fn to_world(state: &State, comm: u32, rank: usize) -> Option<u32> {
    match comm {
        0 => (rank < state.inner.procs.len()).then_some(rank as u32),
        k => state
            .inner
            .comms
            .get(k as usize - 1)?
            .as_ref()?
            .get(rank)
            .copied(),
    }
}

/// The rank in communicator `comm` of the process of world rank `world`.
pub(crate) fn rank_in(state: &State, comm: u32, world: u32) -> Option<usize> {
    match comm {
        0 => Some(world as usize),
        k => state
            .inner
            .comms
            .get(k as usize - 1)?
            .as_ref()?
            .iter()
            .position(|&w| w == world),
    }
}

/// The world ranks of the members of `comm`, in rank order.
pub(crate) fn members(state: &State, comm: u32) -> Vec<u32> {
    (0..comm_size(state, comm))
        .filter_map(|r| to_world(state, comm, r))
        .collect()
}

/// Adds a communicator with these members (world ranks in rank order); its
/// handle number.
pub(crate) fn new_comm(state: &mut State, members: Vec<u32>) -> u32 {
    let s = state.inner_mut();
    let comms = Arc::make_mut(&mut s.comms);
    comms.push(Some(members));
    comms.len() as u32
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

/// Evaluates communicator argument `e`: its number, or `None` after reporting
/// an invalid communicator (the path dies).
pub(crate) fn check_comm(
    ev: &mut Evaluator<'_>,
    env: &ProcEnv<'_>,
    e: &MExpr,
    span: &Span,
) -> Result<Option<u32>, EngineError> {
    let v = ev.eval(env, e)?;
    if let Some(c) = comm_of_value(env.state, &v) {
        return Ok(Some(c));
    }
    ev.fail(
        env,
        Property::InvalidPointer,
        format!(
            "MPI call on {}, which is not a valid communicator",
            describe_invalid(&v)
        ),
        span,
    );
    Ok(None)
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
