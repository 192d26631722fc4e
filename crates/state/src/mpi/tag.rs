//! The tag argument of point-to-point calls: MPI allows `0..=MPI_TAG_UB` on
//! every call, and `MPI_ANY_TAG` on receives and probes only. An invalid tag
//! makes the call fail (OpenMPI aborts with `MPI_ERR_TAG`), so a send and a
//! receive agreeing on tag -2 are still an error.

use tass_model::api::mpi::MPI_ANY_TAG;
use tass_model::api::Span;
use tass_semantics::api::{Environment, Evaluator, Property};
use tass_symbolic::api::Expr;

use super::buffer::holds;

/// The largest tag tass accepts: the least value of `MPI_TAG_UB` the MPI
/// standard guarantees (OpenMPI's is larger, MPICH's may be this small), so
/// a program tass accepts is portable.
pub(crate) const TAG_UPPER_BOUND: i64 = 32767;

/// Whether a call may take `MPI_ANY_TAG`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum TagUse {
    /// A send: the tag names the message.
    Send,
    /// A receive or probe: the tag selects messages, `MPI_ANY_TAG` allowed.
    Receive,
}

/// What is left of the path after the tag check.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum PathAfterCheck {
    /// Some valid tag remains possible: the call goes on with it.
    Live,
    /// The tag is invalid on every path (reported): the call stops here.
    Dead,
}

/// Reports (`mpi-tag`) a tag that can lie outside `0..=TAG_UPPER_BOUND` (other
/// than `MPI_ANY_TAG` for a receive), symbolically: a tag that may be invalid
/// under the path condition is a possible violation. The path goes on with
/// the tag assumed valid.
pub(super) fn check_tag(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    tag: Expr,
    usage: TagUse,
    function: &str,
    span: &Span,
) -> PathAfterCheck {
    let f = ev.factory();
    let mut valid = f.and(f.le(f.int(0), tag), f.le(tag, f.int(TAG_UPPER_BOUND)));
    if usage == TagUse::Receive {
        valid = f.or(valid, f.eq(tag, f.int(MPI_ANY_TAG)));
    }
    if f.as_bool(valid) == Some(true) {
        return PathAfterCheck::Live;
    }
    ev.check(
        env,
        valid,
        Property::MpiTag,
        || {
            let allowed = match usage {
                TagUse::Send => "",
                TagUse::Receive => ", or MPI_ANY_TAG",
            };
            format!(
                "tag {} of {function} is not a valid tag (0..{TAG_UPPER_BOUND}, the least \
                 MPI_TAG_UB the standard guarantees{allowed})",
                f.pretty(tag)
            )
        },
        span,
    );
    if holds(ev, env, f.ff()) {
        PathAfterCheck::Dead
    } else {
        PathAfterCheck::Live
    }
}
