//! The public interface of `tass-prove`. Empty until the crate is implemented.
