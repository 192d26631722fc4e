//! The public interface of `tass-search`.

pub use crate::dfs::{
    Control, Limit, Limits, Outcome, Search, SearchReport, SearchStats, TransitionSystem,
};
