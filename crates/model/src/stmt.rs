//! Statements: the labels of the edges of a function's transition system.

use crate::expr::Expr;
use crate::library::LibraryFunction;
use crate::loop_writes::{WriteSetError, WriteTarget};
use crate::program::{FunctionId, VarId};
use crate::span::Span;
use crate::types::Type;

/// The function a [`Statement::Call`] invokes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Callee {
    /// A function of this model with a body: push a frame.
    User(FunctionId),
    /// A library function with built-in semantics (MPI, stdio, ...): one
    /// atomic transition (blocking ones are enabled only when they can
    /// complete).
    Library(LibraryFunction),
    /// A user-declared `#pragma TASS system` function (no body): the engine
    /// needs a built-in model for it; its guard is in
    /// [`crate::program::FunctionKind::System`].
    System(FunctionId),
}

/// Who wrote an assertion.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AssertOrigin {
    /// C's `assert(e)` from `<assert.h>`.
    CAssert,
    /// `#pragma TASS assert e`.
    Pragma,
}

/// Collective (one model) or joint (spans the two compared models).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CollectiveKind {
    /// `collective`
    Collective,
    /// `joint`
    Joint,
}

impl CollectiveKind {
    /// The pragma keyword.
    pub fn keyword(self) -> &'static str {
        match self {
            CollectiveKind::Collective => "collective",
            CollectiveKind::Joint => "joint",
        }
    }
}

/// A `#pragma TASS collective|joint invariant ID EXPR` attached to a loop.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoopInvariant {
    /// The name after `invariant`, matching across processes/models.
    pub id: String,
    /// Collective or joint.
    pub kind: CollectiveKind,
    /// The invariant (may use `PROC[e].x`, `spec.x`, quantifiers).
    pub condition: Expr,
    /// The pragma's span.
    pub span: Span,
    /// Which arrival at the loop head this statement is (set by
    /// [`crate::loop_writes::prepare_loop_invariants`]).
    pub arrival: LoopArrival,
    /// What one iteration may change: the objects given fresh values on entry
    /// (computed by [`crate::loop_writes::prepare_loop_invariants`]).
    pub writes: Vec<WriteTarget>,
    /// Why the write set could not be computed, if so: the loop cannot be
    /// used by loop-invariant symbolic execution (`verify` refuses the run).
    pub refused: Option<WriteSetError>,
    /// The first MPI communication call in the loop (or a function it
    /// calls), if any: such a loop needs the collective form (several
    /// processes, aligned at the loop head); one process refuses it.
    pub communication: Option<Span>,
}

/// How control arrives at the head of a loop with an invariant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LoopArrival {
    /// From before the loop: check the invariant, give the loop's write set
    /// fresh values, assume the invariant.
    Entry,
    /// From the end of the body (or a `continue`): check that the invariant is
    /// preserved, then end the path (every later iteration is the entry's
    /// arbitrary one).
    Return,
}

/// A statement. Every expression in it is side-effect free; `lhs` fields are
/// lvalue expressions ([`Expr::is_lvalue`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Statement {
    /// Does nothing (joins, loop back edges, empty statements).
    Noop,
    /// The point where a local variable's declaration is executed: the
    /// variable gets a fresh undefined value (VLA extents in its type are
    /// evaluated now). Locals exist from frame creation, so a `Declare` in a
    /// loop body just resets the variable.
    Declare {
        /// The local variable.
        var: VarId,
    },
    /// `lhs = rhs` (types agree; conversions are explicit casts in `rhs`).
    /// Struct and whole-array assignment copy the value. Two forms occur
    /// only in initializations: `rhs` = [`crate::expr::ExprKind::Zero`]
    /// (everything zero) and a `char` array `lhs` with a string literal
    /// `rhs` (copies the bytes and the NUL; the literal may be shorter).
    Assign {
        /// Target lvalue.
        lhs: Expr,
        /// Value.
        rhs: Expr,
    },
    /// Check `condition`; a violation if it can be false.
    Assert {
        /// Bool condition (pragma asserts may contain quantifiers).
        condition: Expr,
        /// C assert or pragma.
        origin: AssertOrigin,
    },
    /// Add `condition` to the path condition.
    Assume {
        /// Bool condition.
        condition: Expr,
    },
    /// A function call. `lhs` receives the result; its type is exactly the
    /// callee's return type (the front end goes through a temporary and an
    /// `Assign` with a cast otherwise).
    Call {
        /// Where the result goes, if anywhere.
        lhs: Option<Expr>,
        /// Who is called.
        callee: Callee,
        /// Arguments in order (arrays already decayed to pointers). For user
        /// functions and for library parameters of non-pointer type they are
        /// converted to the parameter types; a `void *` library parameter
        /// (MPI buffers, `memcpy`) keeps the argument's own pointer type, so
        /// the engine sees the element type; extra arguments of variadic
        /// functions (`printf`) are passed as they are.
        args: Vec<Expr>,
    },
    /// Return from the function (pop the frame; `main`'s return ends the
    /// process).
    Return {
        /// The value, converted to the function's return type; `None` for
        /// void functions and where control falls off the end of a non-void
        /// function other than `main` (the value is then undefined; `main`
        /// returns 0).
        value: Option<Expr>,
    },
    /// `lhs = malloc(...)`, `calloc(...)`: allocates a heap array of `count`
    /// elements of `elem_type` and stores a pointer to element 0 in `lhs`.
    /// The front end computes `count` from the byte size (`n*sizeof(T)` ->
    /// `n`); when it cannot, `count` is `size / SizeOf(elem_type)`.
    Allocate {
        /// Pointer lvalue receiving the new block.
        lhs: Expr,
        /// Element type (pointee of `lhs`'s type).
        elem_type: Type,
        /// Number of elements.
        count: Expr,
        /// `calloc`: elements are zero; `malloc`: undefined.
        zeroed: bool,
    },
    /// `lhs = realloc(pointer, ...)`: a new block of `count` elements whose
    /// prefix is copied from `pointer`'s block, which is freed.
    Reallocate {
        /// Pointer lvalue receiving the new block.
        lhs: Expr,
        /// The old block (may be null).
        pointer: Expr,
        /// Element type.
        elem_type: Type,
        /// New number of elements.
        count: Expr,
    },
    /// `free(pointer)`: pointer must be null or point to the start of a heap
    /// block that is still allocated.
    Free {
        /// The pointer.
        pointer: Expr,
    },
    /// `#pragma TASS collective|joint assert ID EXPR`: a snapshot point.
    CollectiveAssert {
        /// Name matching the assertions of all processes (and models).
        id: String,
        /// Collective or joint.
        kind: CollectiveKind,
        /// The asserted expression.
        condition: Expr,
    },
    /// Entering a loop that carries an invariant pragma: executed once on the
    /// edge into the loop head (the head location lists the same invariant in
    /// [`crate::program::Location::invariants`] for the later iterations).
    LoopInvariant(LoopInvariant),
}

/// An edge of a function's transition system: when `guard` holds the
/// statement may execute, moving control to the edge's target location.
/// The guards of the edges leaving one location are either all `true` (one
/// edge) or complementary conditions (a branch: exactly one is enabled).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transition {
    /// Bool, side-effect free.
    pub guard: Expr,
    /// What happens.
    pub statement: Statement,
    /// The source construct.
    pub span: Span,
    /// The source text of the construct (one line, for traces), e.g.
    /// `i++` or `MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD)`.
    pub source_text: String,
}
