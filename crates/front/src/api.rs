//! The public interface of `tass-front`. Empty until the crate is implemented.
