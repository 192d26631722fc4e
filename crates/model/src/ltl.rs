//! Temporal properties: `#pragma TASS ltl ID FORMULA`, as the front end
//! resolved them. Derived operators are kept as written (the verifier
//! rewrites them), so that reports can print the formula's structure.

use crate::expr::Expr;
use crate::program::{FunctionId, LocationId};
use crate::span::Span;

/// One `ltl` pragma.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LtlProperty {
    /// The formula's name (the pragma's ID).
    pub id: String,
    /// The formula.
    pub formula: LtlFormula,
    /// Where the pragma is.
    pub span: Span,
    /// The formula's text as written.
    pub text: String,
}

/// An LTL formula over the program's states.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LtlFormula {
    /// `true` / `false`.
    Constant(bool),
    /// An atomic proposition.
    Atom(LtlAtom),
    /// `!f`.
    Not(Box<LtlFormula>),
    /// `f && g`.
    And(Box<LtlFormula>, Box<LtlFormula>),
    /// `f || g`.
    Or(Box<LtlFormula>, Box<LtlFormula>),
    /// `f -> g`.
    Implies(Box<LtlFormula>, Box<LtlFormula>),
    /// `f <-> g`.
    Iff(Box<LtlFormula>, Box<LtlFormula>),
    /// `X f`: in the next state.
    Next(Box<LtlFormula>),
    /// `G f` / `[] f`: in every state from now on.
    Always(Box<LtlFormula>),
    /// `F f` / `<> f`: in some state from now on.
    Eventually(Box<LtlFormula>),
    /// `f U g`: `g` eventually, `f` until then.
    Until(Box<LtlFormula>, Box<LtlFormula>),
    /// `f R g`: `g` until and including when `f` first holds (forever if never).
    Release(Box<LtlFormula>, Box<LtlFormula>),
    /// `f W g`: `f U g`, or `f` forever.
    WeakUntil(Box<LtlFormula>, Box<LtlFormula>),
}

impl LtlFormula {
    /// Whether the formula uses `X` anywhere: it is then not invariant under
    /// stuttering, and a partial-order reduction (which drops interleavings of
    /// invisible steps) may change its truth.
    pub fn uses_next(&self) -> bool {
        matches!(self, LtlFormula::Next(_)) || self.operands().any(LtlFormula::uses_next)
    }

    /// The formula's direct subformulas, left to right (none for a constant
    /// or an atom): the one place that knows each operator's arity, for the
    /// walks over a formula.
    pub fn operands(&self) -> impl Iterator<Item = &LtlFormula> {
        use LtlFormula as L;
        let (first, second): (Option<&LtlFormula>, Option<&LtlFormula>) = match self {
            L::Constant(_) | L::Atom(_) => (None, None),
            L::Not(g) | L::Next(g) | L::Always(g) | L::Eventually(g) => (Some(g), None),
            L::And(a, b)
            | L::Or(a, b)
            | L::Implies(a, b)
            | L::Iff(a, b)
            | L::Until(a, b)
            | L::Release(a, b)
            | L::WeakUntil(a, b) => (Some(a), Some(b)),
        };
        first.into_iter().chain(second)
    }

    /// Calls `visit` on each atom of the formula, left to right.
    pub fn for_each_atom<'a>(&'a self, visit: &mut dyn FnMut(&'a LtlAtom)) {
        match self {
            LtlFormula::Atom(a) => visit(a),
            _ => self.operands().for_each(|g| g.for_each_atom(visit)),
        }
    }
}

/// An atomic proposition of an LTL formula.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LtlAtom {
    /// `{EXPR}`: a boolean condition on the state, evaluated as process 0
    /// sees it (its globals, inputs and outputs), and on other processes
    /// through `PROC[e].x` / `PROC[e]@f.x`.
    Condition(Expr),
    /// `PROC[e]@LABEL`: process `e` is at the statement labelled `LABEL:` in
    /// `function` (its top frame is there).
    At {
        /// The rank expression.
        rank: Expr,
        /// The function holding the label.
        function: FunctionId,
        /// The label's location (`None`: unreachable, so never true).
        location: Option<LocationId>,
        /// The label's name.
        label: String,
    },
    /// `PROC[e]@terminated`: process `e` has terminated.
    Terminated {
        /// The rank expression.
        rank: Expr,
    },
}
