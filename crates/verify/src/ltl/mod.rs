//! Checking `#pragma TASS ltl` formulas: each negated formula becomes a
//! generalized Büchi automaton (`buchi.rs`), whose product with the program's
//! state space is explored in full (`product.rs`); a reachable accepting,
//! weakly fair cycle of the product is a run violating the formula.

mod buchi;
mod product;

pub(crate) use product::{check_formulas, LtlOutcome};
