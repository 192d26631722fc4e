//! The bounds check of a run of array elements that a library call reads or
//! writes (`memcpy`'s buffers in `libc.rs`, an MPI message buffer in
//! `tass-state`): one claim, written once.

use tass_model::api::Span;
use tass_symbolic::api::{Expr, ExprFactory};

use crate::env::Environment;
use crate::eval::Evaluator;
use crate::report::Property;

/// Elements `start .. start + count` of an array of `extent` elements.
pub struct ElementWindow {
    pub start: Expr,
    pub count: Expr,
    pub extent: Expr,
}

impl ElementWindow {
    /// The claim that the window lies inside the array:
    /// `0 <= start && start + count <= extent`.
    pub fn inside(&self, f: &ExprFactory) -> Expr {
        let end = f.add(self.start, self.count);
        f.and(f.le(f.int(0), self.start), f.le(end, self.extent))
    }
}

impl Evaluator<'_> {
    /// Checks that `window` lies inside its array (`out-of-bounds` where it may
    /// not; the path continues assuming it does). `message` describes the access.
    pub fn check_window(
        &mut self,
        env: &dyn Environment,
        window: &ElementWindow,
        message: impl FnOnce() -> String,
        span: &Span,
    ) {
        let claim = window.inside(self.factory());
        self.check(env, claim, Property::OutOfBounds, message, span);
    }
}
