//! Generalized active target synchronisation: `MPI_Win_post` opens an
//! exposure epoch of the target for a group of origins, `MPI_Win_start` an
//! access epoch of the origin to a group of targets, `MPI_Win_complete` ends
//! the origin's access epoch, `MPI_Win_wait` the target's exposure epoch.
//! `MPI_Win_test` is `MPI_Win_wait` that returns a flag instead of waiting:
//! 1 when it closes the epoch (possible once every origin has completed),
//! 0 otherwise (possible at any time in the epoch, since a completion may
//! not have reached the target yet). And `MPI_Win_sync` (a memory barrier between a process's copies of its
//! window memory, of which tass keeps one: only the window is checked).
//!
//! `MPI_Win_start` waits here until every target of its group has posted an
//! exposure epoch that names this origin and that this origin has not
//! completed yet (MPI allows `start` to wait for the matching posts, so a
//! program that needs it to return earlier can deadlock). `MPI_Win_wait`
//! waits until every origin of the post's group has completed. Both stay
//! enabled once enabled. The origin's operations of the access epoch are
//! performed by its `MPI_Win_complete` (after it MPI lets the origin reuse
//! its buffers and read what it got); they then stay in the window as
//! `Window::exposed` until the target's `MPI_Win_wait`: until then the target
//! may not access their memory (`local-concurrency`) nor another origin's
//! operation touch it conflictingly (`rma-race`). The target's accesses to its
//! window memory during its exposure epoch are recorded as in a fence epoch,
//! so the checks hold whatever order the search runs the processes in.

use std::sync::Arc;

use tass_model::api::mpi::{ArgRole, RmaOp};
use tass_semantics::api::{Change, EngineError, Property, Violation};

use super::passive::Performing;
use super::sync::{rma_op, Caller};
use super::window::{PendingOp, Post, Start, Window};
use crate::mpi::comm;
use crate::mpi::context::{Call, Mpi, ProcessCall, NO_MESSAGE};
use crate::mpi::group::group_of_value;
use crate::state::State;
use crate::step::Step;

impl ProcessCall<'_> {
    /// The ranks in window `window`'s communicator of the members of the
    /// call's group argument, sorted; `None` if the group is invalid or has
    /// a member outside the window's communicator.
    fn window_ranks_of_group(&mut self, window: u32) -> Result<Option<Vec<u32>>, EngineError> {
        let v = self.peek_value(self.call.arg(ArgRole::Group))?;
        let env = self.mpi.ctx.env(self.state, self.p);
        let Some(members) = group_of_value(&env, &v) else {
            return Ok(None);
        };
        let state = &*self.state;
        let comm = state.inner.windows[window as usize]
            .as_ref()
            .map_or(0, |w| w.comm);
        let mut ranks = Vec::with_capacity(members.len());
        for world in members {
            match comm::rank_in(state, comm, world) {
                Some(r) => ranks.push(r as u32),
                None => return Ok(None),
            }
        }
        ranks.sort_unstable();
        ranks.dedup();
        Ok(Some(ranks))
    }

    /// Whether the process can return from `MPI_Win_start` (every target has
    /// posted for it) or `MPI_Win_wait` (every origin has completed) now. An
    /// invalid call can: executing reports it.
    pub(super) fn pscw_available(&mut self) -> Result<bool, EngineError> {
        let Some(caller) = self.peek_caller()? else {
            return Ok(true);
        };
        if rma_op(self.call) == Some(RmaOp::Start) {
            let Some(targets) = self.window_ranks_of_group(caller.window)? else {
                return Ok(true);
            };
            let Some(w) = self.state.inner.windows[caller.window as usize].as_ref() else {
                return Ok(true);
            };
            if w.starts.iter().any(|s| s.origin == caller.rank) {
                return Ok(true); // a second start: executing reports it
            }
            return Ok(targets.iter().all(|&t| {
                w.posts.iter().any(|post| {
                    post.target == t
                        && post.origins.contains(&caller.rank)
                        && !post.completed.contains(&caller.rank)
                })
            }));
        }
        let Some(w) = self.state.inner.windows[caller.window as usize].as_ref() else {
            return Ok(true);
        };
        Ok(w.posts
            .iter()
            .find(|post| post.target == caller.rank)
            .is_none_or(|post| post.origins == post.completed))
    }

    /// [`super::passive::early_update_choices`] for the process's
    /// `MPI_Win_complete`: the operations of its access epoch.
    pub(super) fn complete_early_choices(&mut self) -> Result<Vec<u32>, EngineError> {
        let Some(caller) = self.peek_caller()? else {
            return Ok(Vec::new());
        };
        let sync = access_epoch(self.state, &caller);
        super::passive::early_update_choices(self.state, &sync, self.call)
    }

    /// Executes `MPI_Win_post`, `MPI_Win_start`, `MPI_Win_complete`,
    /// `MPI_Win_wait` or `MPI_Win_sync` (`step` of its process).
    pub(crate) fn pscw_call(
        mut self,
        step: &Step,
    ) -> Result<(Vec<Violation>, Vec<Change>), EngineError> {
        if let Some(caller) = self.checked_caller()? {
            let problem = match rma_op(self.call) {
                Some(op @ (RmaOp::Post | RmaOp::Start)) => self.open_epoch((caller, op))?,
                Some(RmaOp::Complete) => {
                    let violations = &mut self.violations;
                    if let Some(order) = super::passive::early_order(step) {
                        let sync = access_epoch(self.state, &caller);
                        self.mpi
                            .apply_early_updates(self.state, &sync, order, violations)?;
                    }
                    self.mpi.complete_epoch(self.state, caller, violations)?
                }
                Some(RmaOp::Wait) => wait_epoch(self.state, caller, self.call),
                Some(RmaOp::Test) => self.test_epoch((step, caller))?,
                _ => None, // MPI_Win_sync
            };
            if let Some(message) = problem {
                self.fail(Property::Epoch, message)?;
            }
        }
        self.finish()
    }

    /// The window and rank of the call, checked (`None` after a reported
    /// invalid window).
    fn checked_caller(&mut self) -> Result<Option<Caller>, EngineError> {
        let caller = self.peek_caller()?;
        if caller.is_none() {
            let name = self.call.lf.c_name();
            let message = format!("{name} on an invalid window (never created, or freed)");
            self.fail(Property::InvalidPointer, message)?;
        }
        Ok(caller)
    }

    /// The group of a post or start in window ranks, checked: an invalid
    /// group is `invalid-pointer`, a member outside the window's
    /// communicator `mpi-rank` (`None` after either).
    fn checked_group(&mut self, caller: Caller) -> Result<Option<Vec<u32>>, EngineError> {
        let valid = self.checked(|c| {
            let (group, lf) = (c.call.arg(ArgRole::Group), c.call.lf);
            Ok(c.reader().check_group(group, lf)?.is_some())
        })?;
        if !valid {
            return Ok(None);
        }
        let ranks = self.window_ranks_of_group(caller.window)?;
        if ranks.is_none() {
            let name = self.call.lf.c_name();
            let message = format!("{name} with a group member outside the window's communicator");
            self.fail(Property::MpiRank, message)?;
        }
        Ok(ranks)
    }

    /// `MPI_Win_post` (`op` is [`RmaOp::Post`]): opens the caller's exposure
    /// epoch; `MPI_Win_start` (every target has posted: the step is enabled
    /// only then): opens its access epoch. The message of an epoch error, if
    /// any.
    fn open_epoch(&mut self, (caller, op): (Caller, RmaOp)) -> Result<Option<String>, EngineError> {
        let p = self.p;
        let Some(group) = self.checked_group(caller)? else {
            return Ok(None);
        };
        let state = &mut *self.state;
        let Some(w) = state.inner.windows[caller.window as usize].as_ref() else {
            return Ok(None);
        };
        let problem = if op == RmaOp::Post {
            post_problem(w, caller, p)
        } else {
            start_problem(w, caller, p)
        };
        if problem.is_some() {
            return Ok(problem);
        }
        let s = state.inner_mut();
        let Some(w) = Arc::make_mut(&mut s.windows)[caller.window as usize].as_mut() else {
            return Ok(None);
        };
        if op == RmaOp::Post {
            w.posts.push(Post {
                target: caller.rank,
                origins: group,
                completed: Vec::new(),
            });
            w.posts.sort_by_key(|post| post.target);
            w.local.retain(|a| a.rank != caller.rank);
        } else {
            w.starts.push(Start {
                origin: caller.rank,
                targets: group,
            });
            w.starts.sort_by_key(|st| st.origin);
        }
        Ok(None)
    }

    /// Whether the process (at `MPI_Win_test`) has an open exposure epoch
    /// on the call's window (an invalid window: no).
    pub(super) fn has_posted(&mut self) -> Result<bool, EngineError> {
        let Some(caller) = self.peek_caller()? else {
            return Ok(false);
        };
        Ok(self.state.inner.windows[caller.window as usize]
            .as_ref()
            .is_some_and(|w| w.posts.iter().any(|post| post.target == caller.rank)))
    }

    /// `MPI_Win_test`: at the step that finds every origin completed (no
    /// choice), as `MPI_Win_wait`, flag 1; at the other (`NO_MESSAGE`), flag 0
    /// and the exposure epoch stays open. The `epoch` error without one.
    fn test_epoch(
        &mut self,
        (step, caller): (&Step, Caller),
    ) -> Result<Option<String>, EngineError> {
        let closes = step.choice != Some(NO_MESSAGE);
        if closes {
            if let Some(problem) = wait_epoch(self.state, caller, self.call) {
                return Ok(Some(problem));
            }
        }
        self.checked(|c| {
            let flag = c.call.arg(ArgRole::Flag);
            c.write_int_through(flag, i64::from(closes))
        })?;
        Ok(None)
    }
}

impl Mpi<'_> {
    /// `MPI_Win_complete`: performs the caller's operations of its access
    /// epoch (kept as exposed until their targets' waits), marks it completed
    /// at each target, and closes it.
    fn complete_epoch(
        &mut self,
        state: &mut State,
        caller: Caller,
        violations: &mut Vec<Violation>,
    ) -> Result<Option<String>, EngineError> {
        let k = caller.window as usize;
        let Some(w) = state.inner.windows[k].clone() else {
            return Ok(None);
        };
        let Some(start) = w.starts.iter().find(|st| st.origin == caller.rank) else {
            return Ok(Some(format!(
                "MPI_Win_complete without an access epoch: rank {} called no MPI_Win_start on \
                 this window since its last MPI_Win_complete",
                caller.rank
            )));
        };
        let origin_world = comm::to_world(state, w.comm, caller.rank as usize).unwrap_or(u32::MAX);
        let done: Vec<_> = w
            .ops
            .iter()
            .filter(|o| o.under_start && o.origin == origin_world)
            .map(|o| super::window::PendingOp {
                data: None,
                buffer: tass_dynamic::api::Value::Undefined,
                compare: None,
                ..o.clone()
            })
            .collect();
        self.perform_where(state, caller.window, violations, &|o| {
            o.under_start && o.origin == origin_world
        })?;
        let targets = start.targets.clone();
        let s = state.inner_mut();
        if let Some(w) = Arc::make_mut(&mut s.windows)[k].as_mut() {
            w.exposed.extend(done);
            for post in w
                .posts
                .iter_mut()
                .filter(|post| targets.contains(&post.target))
            {
                if !post.completed.contains(&caller.rank) {
                    post.completed.push(caller.rank);
                    post.completed.sort_unstable();
                }
            }
            w.starts.retain(|st| st.origin != caller.rank);
        }
        Ok(None)
    }
}

/// Why process `p` (rank `caller.rank`) may not open an exposure epoch on
/// window `w` now, if it may not.
fn post_problem(w: &Window, caller: Caller, p: usize) -> Option<String> {
    if w.posts.iter().any(|post| post.target == caller.rank) {
        return Some(format!(
            "MPI_Win_post: process {p} already exposes this window (an exposure epoch opened \
             twice: no MPI_Win_wait since its last MPI_Win_post)"
        ));
    }
    let l = w.locks.iter().find(|l| l.target == caller.rank)?;
    Some(format!(
        "MPI_Win_post while rank {} holds a lock on this window of process {p} (a window \
         may not be locked and exposed at once)",
        l.origin
    ))
}

/// Why process `p` (rank `caller.rank`) may not open an access epoch on
/// window `w` now, if it may not.
fn start_problem(w: &Window, caller: Caller, p: usize) -> Option<String> {
    w.starts.iter().any(|st| st.origin == caller.rank).then(|| {
        format!(
            "MPI_Win_start: process {p} already has an access epoch on this window (opened \
             twice: no MPI_Win_complete since its last MPI_Win_start)"
        )
    })
}

/// `MPI_Win_wait` (every origin has completed: the step is enabled only
/// then): closes the caller's exposure epoch; the message of an epoch error,
/// if any.
fn wait_epoch(state: &mut State, caller: Caller, call: &Call<'_>) -> Option<String> {
    let k = caller.window as usize;
    let w = state.inner.windows[k].as_ref()?;
    if !w.posts.iter().any(|post| post.target == caller.rank) {
        return Some(no_exposure_epoch(caller, call));
    }
    let s = state.inner_mut();
    if let Some(w) = Arc::make_mut(&mut s.windows)[k].as_mut() {
        w.posts.retain(|post| post.target != caller.rank);
        w.exposed.retain(|o| o.target != caller.rank);
        w.local.retain(|a| a.rank != caller.rank);
    }
    None
}

/// The `epoch` error of an `MPI_Win_wait` or `MPI_Win_test` of a process
/// that has not posted.
fn no_exposure_epoch(caller: Caller, call: &Call<'_>) -> String {
    format!(
        "{} without an exposure epoch: rank {} called no MPI_Win_post on this \
         window since its last MPI_Win_wait (or successful MPI_Win_test)",
        call.lf.c_name(),
        caller.rank
    )
}

/// What the `MPI_Win_complete` of `caller` performs: the operations of its
/// access epoch.
fn access_epoch(state: &State, caller: &Caller) -> Performing<'static> {
    let mine = |_, o: &PendingOp| o.under_start;
    Performing::of_rank(state, caller.window, caller.rank, Box::new(mine))
}
