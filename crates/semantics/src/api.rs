//! The public interface of `tass-semantics`. Empty until the crate is implemented.
