//! `tass-symbolic`: typed, hash-consed symbolic expressions in canonical form.
//!
//! Not implemented yet: this crate holds only its documentation and an empty
//! `api` module. See `docs/architecture.md` for its role in the design.

pub mod api;
