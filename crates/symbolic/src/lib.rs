//! `tass-symbolic`: typed, hash-consed symbolic expressions in canonical form.
//!
//! Symbolic execution represents program inputs by *symbolic constants* and the
//! values of variables by *symbolic expressions* over them. This crate provides
//! those expressions (paper Sec. 4.5):
//!
//! - **Types**: boolean, integer and real (mathematical, exact), char, tuple,
//!   array (element type + symbolic extent), uninterpreted function.
//! - **Hash-consing**: every expression is interned in an
//!   [`ExprFactory`](api::ExprFactory) and handled through a `Copy` id
//!   ([`Expr`](api::Expr)); equality and hashing are O(1). The factory is
//!   `Send + Sync`.
//! - **Canonical forms** kept while building: integer expressions are polynomials
//!   with exact coefficients over integer *primitives* (anything that is not a
//!   sum, product or constant); real expressions are quotients `p/q` of real
//!   polynomials whose known factorizations are cached and whose common factors
//!   cancel; boolean expressions are a CNF over literals, quantifiers and the
//!   relations `f > 0`, `f >= 0`, `f == 0`, `f != 0` (integer relations use only
//!   `>=`, `==`, `!=`: `x < y` becomes `y - x - 1 >= 0`); `forall x.(a && b)` is
//!   split; constants fold everywhere. Expressions equal by the ring axioms get
//!   the same id.
//! - **Arrays**: reads, writes, concrete array expressions (writes at concrete
//!   indices stay concrete), array lambdas; tuples; uninterpreted functions;
//!   bitwise operators (exact on constants, reserved uninterpreted functions
//!   otherwise).
//! - A C-like printer, substitution, free symbols, and concrete evaluation.
//!
//! Semantics worth knowing:
//! - C integer division truncates toward zero and `%` takes the sign of the
//!   dividend; division by zero is *defined* (`x / 0 == 0`, `x % 0 == x`) so every
//!   expression has a value; the engine reports division by zero itself.
//! - Real division cancels the common factors it knows of (`(x*y)/y == x`), which
//!   assumes the divisor is non-zero; a quotient by the concrete zero stays an
//!   opaque primitive `a/0`.
//! - Bitwise operators on symbolic operands are applications of the reserved
//!   uninterpreted functions named in
//!   [`BITWISE_FUNCTIONS`](api::BITWISE_FUNCTIONS) (`x << k` for a concrete `k`
//!   is `x * 2^k`, `~x` is `-x - 1`).
//! - Building an ill-typed expression (adding an array to an int, reading a
//!   tuple component out of range, ...) is a bug in the caller and panics with a
//!   message naming the operation; int/real/char/bool operands of arithmetic are
//!   converted as in C.
//!
//! Ordering: inside a node, children are kept sorted by id (deterministic for a
//! deterministic sequence of constructions); the printer and
//! [`ExprFactory::compare`](api::ExprFactory::compare) use a structural total order
//! that does not depend on interning order.
//!
//! ```
//! use tass_symbolic::api::{ExprFactory, Type};
//!
//! let f = ExprFactory::new();
//! let x = f.symbol("X0", Type::Int);
//! let y = f.symbol("X1", Type::Int);
//! // (x + y) * (x + y) - 2*x*y  ==  x*x + y*y   (same id)
//! let s = f.add(x, y);
//! let two = f.int(2);
//! let lhs = f.sub(f.mul(s, s), f.mul(two, f.mul(x, y)));
//! let rhs = f.add(f.mul(x, x), f.mul(y, y));
//! assert_eq!(lhs, rhs);
//! assert_eq!(f.pretty(lhs), "X0*X0 + X1*X1");
//! // x < y over the integers is y - x - 1 >= 0, printed C-like:
//! assert_eq!(f.pretty(f.lt(x, y)), "X0 < X1");
//! ```

pub mod api;
mod boolean;
mod compound;
mod eval;
mod factory;
mod ieee;
mod node;
mod numeric;
mod order;
mod print;
mod quotient;
mod rational;
mod subst;
mod types;
