//! The public interface of `tass-verify`. Empty until the crate is implemented.
