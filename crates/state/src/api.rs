//! The public interface of `tass-state`. Empty until the crate is implemented.
