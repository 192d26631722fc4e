//! `tass-state`: the state hierarchy, copy-on-write + canonic store.
//!
//! Not implemented yet: this crate holds only its documentation and an empty
//! `api` module. See `docs/architecture.md` for its role in the design.

pub mod api;
