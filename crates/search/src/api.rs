//! The public interface of `tass-search`.

pub use crate::dfs::{
    resident_bytes, Control, Limit, Limits, Outcome, Search, SearchReport, SearchStats,
    TransitionSystem, MEMORY_CHECK_EVERY,
};
