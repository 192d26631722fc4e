//! `MPI_Rget_accumulate` performed lazily. MPI applies a request-based
//! fetching accumulate at some moment between its issue and its completion:
//! the wait or test that completes its request, or its origin's flush or
//! unlock, whichever comes first. Another origin's accumulate of the same
//! operation on the same memory does not conflict with it, so that moment
//! changes what it fetches (and what a fetch of the other origin sees). tass
//! keeps it pending from its issue and performs it at that completion: the
//! flush or unlock as every operation under a lock (`passive.rs`), the wait
//! or test here, after its origin's earlier pending operations on that
//! memory (MPI orders one origin's accumulates) and, in extra step choices,
//! after the other origins' pending updates MPI may have applied first
//! ([`super::passive::early_update_choices`], as for a flush).
//!
//! A wait or test step that performs such an operation carries its choice
//! of early updates in `Step::choice` ([`wait_choice`]) together with the
//! index `MPI_Waitany` completes.

use std::sync::Arc;

use tass_semantics::api::{EngineError, Violation};

use super::passive::{
    early_candidates, early_update_choices, Performing, EARLY_CHOICE_BITS, EARLY_UPDATES,
};
use super::window::{settle_request, OriginHold, Window};
use crate::mpi::context::{Call, Mpi, ENVELOPE_CASE};
use crate::state::State;

/// `Step::choice` of a wait or test that first applies the other origins'
/// pending updates in order `order` (an index of
/// [`super::passive::early_orders`]) and, for `MPI_Waitany`, completes
/// request `index` (below `EARLY_UPDATES`, as its plain choice).
pub(crate) fn wait_choice(index: Option<u32>, order: u32) -> u32 {
    EARLY_UPDATES + order + (index.map_or(0, |k| k + 1) << EARLY_CHOICE_BITS)
}

/// The parts of a wait's or test's `Step::choice`: the choice without the
/// early updates (`MPI_Waitany`'s index, `NO_MESSAGE`), and the order of
/// early updates ([`wait_choice`]) if it has one.
pub(crate) fn split_wait_choice(choice: Option<u32>) -> (Option<u32>, Option<u32>) {
    match choice {
        Some(c) if (EARLY_UPDATES..ENVELOPE_CASE).contains(&c) => {
            let code = c - EARLY_UPDATES;
            let index = (code >> EARLY_CHOICE_BITS).checked_sub(1);
            (index, Some(code & ((1 << EARLY_CHOICE_BITS) - 1)))
        }
        other => (other, None),
    }
}

/// The operations of origin `p` (world rank) in window `w` that completing
/// its requests `handles` performs: those the requests hold and have not
/// been performed, with the origin's earlier pending ones on the same
/// memory, in the order to perform them (empty if none).
fn request_ops(w: &Window, p: usize, handles: &[u32]) -> Vec<usize> {
    let held: Vec<usize> = w
        .ops
        .iter()
        .enumerate()
        .filter(|(_, o)| {
            o.origin as usize == p
                && !o.performed
                && matches!(o.hold, OriginHold::Request(h) if handles.contains(&h))
        })
        .map(|(i, _)| i)
        .collect();
    if held.is_empty() {
        return held;
    }
    w.with_earlier_of_origin(held)
}

/// Each window in which completing requests `handles` of process `p`
/// performs operations, with their indices there ([`request_ops`]).
fn performed_by(state: &State, p: usize, handles: &[u32]) -> Vec<(u32, Vec<usize>)> {
    state
        .inner
        .windows
        .iter()
        .enumerate()
        .filter_map(|(k, w)| {
            let indices = request_ops(w.as_ref()?, p, handles);
            (!indices.is_empty()).then_some((k as u32, indices))
        })
        .collect()
}

/// What a completion of process `p` performs in window `k`: operations
/// `indices`.
fn performing(k: u32, p: usize, indices: Vec<usize>) -> Performing<'static> {
    Performing {
        window: k,
        origin_world: p as u32,
        mine: Box::new(move |i, _| indices.contains(&i)),
    }
}

impl Mpi<'_> {
    /// The orders of other origins' pending updates that may have been
    /// applied before a wait or test `call` of process `p` that completes
    /// requests `handles` performs their operations (one extra step each;
    /// empty if nothing fetched or replaced can see them).
    pub(crate) fn request_early_choices(
        &mut self,
        state: &State,
        p: usize,
        handles: &[u32],
        call: &Call<'_>,
    ) -> Result<Vec<u32>, EngineError> {
        let mut found: Vec<Vec<u32>> = Vec::new();
        for (k, indices) in performed_by(state, p, handles) {
            let orders = early_update_choices(state, &performing(k, p, indices), call)?;
            if !orders.is_empty() {
                found.push(orders);
            }
        }
        if found.len() > 1 {
            return Err(EngineError::unsupported(
                format!(
                    "{} completes request-based operations on {} windows whose results depend \
                     on other processes' pending updates; tass explores those orders on one \
                     window per call",
                    call.lf.c_name(),
                    found.len()
                ),
                call.span,
            ));
        }
        Ok(found.pop().unwrap_or_default())
    }

    /// Completes the request-based RMA requests `handles` of process `p`
    /// at a wait or test: performs the operations still pending that they
    /// hold (an `MPI_Rget_accumulate`, after its origin's earlier pending
    /// operations on that memory and, for step choice `order`, after the
    /// other origins' updates [`Self::request_early_choices`] named), then
    /// frees their origin buffers (`settle_request`).
    pub(crate) fn complete_rma_requests(
        &mut self,
        state: &mut State,
        p: usize,
        handles: &[u32],
        order: Option<u32>,
        violations: &mut Vec<Violation>,
    ) -> Result<(), EngineError> {
        for (k, indices) in performed_by(state, p, handles) {
            // The early updates are other origins' operations: `indices`
            // stay the same.
            let sync = performing(k, p, indices.clone());
            if let Some(order) = order.filter(|_| !early_candidates(state, &sync).is_empty()) {
                self.apply_early_updates(state, &sync, order, violations)?;
            }
            let Some(w) = state.inner.windows[k as usize].clone() else {
                continue;
            };
            for &i in &indices {
                self.perform_op(state, &w, &w.ops[i], violations)?;
            }
            let s = state.inner_mut();
            if let Some(w) = Arc::make_mut(&mut s.windows)[k as usize].as_mut() {
                for &i in &indices {
                    w.ops[i].performed = true;
                }
            }
        }
        for &h in handles {
            settle_request(state, p, h);
        }
        Ok(())
    }
}
