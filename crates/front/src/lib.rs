//! `tass-front`: C + TASS pragmas -> model (tree-sitter-c).
//!
//! Not implemented yet: this crate holds only its documentation and an empty
//! `api` module. See `docs/architecture.md` for its role in the design.

pub mod api;
mod preprocess;
