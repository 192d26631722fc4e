//! The public interface of `tass-search`.

pub use crate::dfs::{
    resident_bytes, Control, Limit, Limits, Outcome, Search, SearchReport, SearchStats,
    TransitionSystem, MEMORY_CHECK_EVERY,
};
pub use crate::fair_cycle::{find_fair_lasso, Bits, Fairness, Lasso, LassoGraph};
