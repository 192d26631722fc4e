//! The public interface of `tass-simplify`. Empty until the crate is implemented.
