//! Side-effect-free expressions.
//!
//! The front end lowers every side effect (assignments, `++`, calls of
//! non-pure functions, `&&`/`||`/`?:` whose later operands have effects) into
//! separate statements with temporaries, so evaluating an [`Expr`] never
//! changes the state. Evaluation can still *fail* (division by zero, index out
//! of bounds, invalid pointer): the engine checks those.

use crate::library::{LibraryConstant, LibraryFunction};
use crate::program::{FunctionId, VarId};
use crate::span::Span;
use crate::types::Type;

/// An expression with its type and source span.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expr {
    /// What the expression is.
    pub kind: ExprKind,
    /// Its type after C's conversions (conditions have type `Bool`).
    pub ty: Type,
    /// Where it came from.
    pub span: Span,
}

/// Unary operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-e`
    Neg,
    /// `!e` (operand of type Bool)
    Not,
    /// `~e` (integers; evaluated exactly on concrete operands)
    BitNot,
}

/// Binary operators. Operands have already been converted to a common type
/// by explicit [`ExprKind::Cast`] nodes where C converts implicitly
/// (integer to real), except pointer arithmetic which has its own operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    /// `+` on numbers
    Add,
    /// `-` on numbers
    Sub,
    /// `*`
    Mul,
    /// `/`: integer division truncates toward zero (C99) on integers, real
    /// division on reals. Division by zero is a violation.
    Div,
    /// `%` (integers, C99 sign rules). Modulus by zero is a violation.
    Mod,
    /// `<`, `<=`, `>`, `>=`, `==`, `!=` (an int, 0 or 1, in C; `Bool` here)
    Compare(Comparison),
    /// `&` (integers)
    BitAnd,
    /// `|`
    BitOr,
    /// `^`
    BitXor,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// pointer + integer (left is the pointer; `i + p` is normalised to `p + i`)
    PointerAdd,
    /// pointer - integer
    PointerSub,
    /// pointer - pointer (an integer: distance in elements)
    PointerDiff,
}

/// The six comparison operators of C. One type for every operand kind
/// (numbers, floating values, pointers, MPI handles): each evaluator matches
/// on it rather than on a copy of its own.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Comparison {
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `==` (numbers, pointers, MPI handles)
    Eq,
    /// `!=`
    Ne,
}

impl Comparison {
    /// The C spelling.
    pub fn symbol(self) -> &'static str {
        match self {
            Comparison::Lt => "<",
            Comparison::Le => "<=",
            Comparison::Gt => ">",
            Comparison::Ge => ">=",
            Comparison::Eq => "==",
            Comparison::Ne => "!=",
        }
    }

    /// True for `==` and `!=`, the comparisons defined on every operand kind
    /// (the others order numbers and pointers into one array).
    pub fn is_equality(self) -> bool {
        matches!(self, Comparison::Eq | Comparison::Ne)
    }

    /// The comparison of two concrete values.
    pub fn holds<T: PartialOrd>(self, x: T, y: T) -> bool {
        match self {
            Comparison::Lt => x < y,
            Comparison::Le => x <= y,
            Comparison::Gt => x > y,
            Comparison::Ge => x >= y,
            Comparison::Eq => x == y,
            Comparison::Ne => x != y,
        }
    }
}

impl BinaryOp {
    /// The C spelling.
    pub fn symbol(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Add | PointerAdd => "+",
            Sub | PointerSub | PointerDiff => "-",
            Mul => "*",
            Div => "/",
            Mod => "%",
            Compare(c) => c.symbol(),
            BitAnd => "&",
            BitOr => "|",
            BitXor => "^",
            Shl => "<<",
            Shr => ">>",
        }
    }
}

/// Kinds of quantifier in pragma expressions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum QuantifierKind {
    /// `forall {T i | c} p`
    Forall,
    /// `exists {T i | c} p`
    Exists,
}

/// The kinds of expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExprKind {
    /// An integer constant (decimal/hex/octal literal or enum constant, or the
    /// value of a character constant used as an int).
    IntLit(i128),
    /// A real constant, kept as its decimal (or hex-float) source text without
    /// suffix, e.g. `"0.1"`, `"1e-3"`: the engine turns it into an exact
    /// rational.
    RealLit(String),
    /// A character constant such as `'a'` (type `Char`).
    CharLit(u8),
    /// `true` / `false` (type `Bool`).
    BoolLit(bool),
    /// A string literal: its bytes without the terminating NUL (type
    /// `Array(Char, len+1)`); the engine adds the NUL.
    StringLit(Vec<u8>),
    /// The null pointer (type `Pointer(..)`).
    NullPointer,
    /// The zero value of `ty` (all fields/elements zero): used for the parts
    /// of an initializer list the program leaves out and for `calloc`.
    Zero,
    /// A variable of this process (or a shared input/output).
    Var(VarId),
    /// A unary operation.
    Unary(UnaryOp, Box<Expr>),
    /// A binary operation (operands are evaluated both, no short circuit).
    Binary(BinaryOp, Box<Expr>, Box<Expr>),
    /// `a && b`: the engine evaluates `b` only where `a` is true (so
    /// `x != 0 && y / x > 1` never reports a division by zero). Operands are
    /// `Bool`.
    LogicalAnd(Box<Expr>, Box<Expr>),
    /// `a || b`: `b` is evaluated only where `a` is false.
    LogicalOr(Box<Expr>, Box<Expr>),
    /// `c ? a : b` with side-effect-free operands: only the chosen branch is
    /// evaluated (for checks).
    Conditional(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `&e` where `e` is an lvalue.
    AddressOf(Box<Expr>),
    /// `*e` where `e` is a pointer.
    Deref(Box<Expr>),
    /// `a[i]` where `a` has array type (pointer indexing is lowered to
    /// `Deref(PointerAdd(p, i))`).
    Index(Box<Expr>, Box<Expr>),
    /// `s.f` by field index (`p->f` is `Field(Deref(p), f)`).
    Field(Box<Expr>, usize),
    /// An array used as a pointer value (C's array-to-pointer decay): a
    /// pointer to element 0 of the array lvalue (or of a string literal,
    /// a read-only constant object).
    Decay(Box<Expr>),
    /// A conversion to `ty`: int<->real (real to int truncates toward zero),
    /// int/char/bool conversions, pointer casts, a scalar to Bool (`!= 0`).
    Cast(Box<Expr>),
    /// `sizeof(T)`: a positive integer the engine may keep symbolic.
    SizeOf(Type),
    /// An uninterpreted math function of `<math.h>` (and `abs`).
    MathCall(LibraryFunction, Vec<Expr>),
    /// A call of a `#pragma TASS abstract` function: an uninterpreted,
    /// side-effect-free function.
    AbstractCall(FunctionId, Vec<Expr>),
    /// An engine-defined library constant (`MPI_COMM_WORLD`, `MPI_INT`, ...).
    LibraryConstant(LibraryConstant),
    /// Pragma expressions: `forall {T v | constraint} body` /
    /// `exists ...`; `var` is a [`crate::program::VarScope::Bound`] variable.
    Quantifier {
        /// forall or exists
        kind: QuantifierKind,
        /// the bound variable
        var: VarId,
        /// the optional restriction `c` in `{T v | c}`
        constraint: Option<Box<Expr>>,
        /// the predicate
        body: Box<Expr>,
    },
    /// `PROC[rank].x` (process-global `x` of process `rank`) or
    /// `PROC[rank]@f.x` (local `x` in the top frame of function `f`).
    RemoteVar {
        /// the rank expression
        rank: Box<Expr>,
        /// `Some(f)` for `PROC[e]@f.x`
        function: Option<FunctionId>,
        /// the variable in this model
        var: VarId,
    },
    /// `spec.x` in joint pragmas: the variable named `x` of the specification
    /// model (resolved in compare mode; type `Unknown` unless the
    /// implementation has a shared variable of the same name).
    SpecVar(String),
    /// `PID`: the rank of the executing process.
    Pid,
    /// `NPROCS`: the number of processes.
    NProcs,
}

impl Expr {
    /// Builds an expression.
    pub fn new(kind: ExprKind, ty: Type, span: Span) -> Expr {
        Expr { kind, ty, span }
    }
    /// The constant `true`.
    pub fn true_at(span: Span) -> Expr {
        Expr::new(ExprKind::BoolLit(true), Type::Bool, span)
    }
    /// An `int` constant.
    pub fn int(value: i128, span: Span) -> Expr {
        Expr::new(ExprKind::IntLit(value), Type::INT, span)
    }
    /// `!self` (for a Bool expression).
    pub fn negated(self) -> Expr {
        let span = self.span.clone();
        Expr::new(
            ExprKind::Unary(UnaryOp::Not, Box::new(self)),
            Type::Bool,
            span,
        )
    }
    /// The variable this expression names, if it is a variable.
    pub fn var_id(&self) -> Option<VarId> {
        match self.kind {
            ExprKind::Var(v) => Some(v),
            _ => None,
        }
    }
    /// True for the literal `true`.
    pub fn is_true(&self) -> bool {
        matches!(self.kind, ExprKind::BoolLit(true))
    }
    /// True if the expression denotes an object (may stand on the left of an
    /// assignment or under `&`).
    pub fn is_lvalue(&self) -> bool {
        matches!(
            self.kind,
            ExprKind::Var(_)
                | ExprKind::Deref(_)
                | ExprKind::Index(..)
                | ExprKind::Field(..)
                | ExprKind::RemoteVar { .. }
        )
    }
    /// Calls `f` on this expression and every subexpression (pre-order).
    pub fn visit(&self, f: &mut dyn FnMut(&Expr)) {
        f(self);
        match &self.kind {
            ExprKind::Unary(_, a)
            | ExprKind::AddressOf(a)
            | ExprKind::Deref(a)
            | ExprKind::Field(a, _)
            | ExprKind::Decay(a)
            | ExprKind::Cast(a) => a.visit(f),
            ExprKind::Binary(_, a, b)
            | ExprKind::LogicalAnd(a, b)
            | ExprKind::LogicalOr(a, b)
            | ExprKind::Index(a, b) => {
                a.visit(f);
                b.visit(f);
            }
            ExprKind::Conditional(a, b, c) => {
                a.visit(f);
                b.visit(f);
                c.visit(f);
            }
            ExprKind::MathCall(_, args) | ExprKind::AbstractCall(_, args) => {
                for a in args {
                    a.visit(f);
                }
            }
            ExprKind::Quantifier {
                constraint, body, ..
            } => {
                if let Some(c) = constraint {
                    c.visit(f);
                }
                body.visit(f);
            }
            ExprKind::RemoteVar { rank, .. } => rank.visit(f),
            _ => {}
        }
    }
}
