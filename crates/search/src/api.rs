//! The public interface of `tass-search`. Empty until the crate is implemented.
