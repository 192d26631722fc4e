//! The public interface of `tass-symbolic`. Empty until the crate is implemented.
