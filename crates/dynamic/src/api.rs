//! The public interface of `tass-dynamic`. Empty until the crate is implemented.
