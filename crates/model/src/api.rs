//! The public interface of `tass-model`. Empty until the crate is implemented.
