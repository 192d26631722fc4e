//! The public interface of `tass-search`.

pub use crate::dfs::{
    resident_bytes, Control, Limit, Limits, Outcome, Region, Search, SearchReport, SearchStats,
    Split, SplitInfo, SplitSystem, TransitionSystem, MEMORY_CHECK_EVERY,
};
pub use crate::fair_cycle::{find_fair_lasso, Bits, Fairness, Lasso, LassoGraph};
pub use crate::paths::{PathId, PathTree};
