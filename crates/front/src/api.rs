//! The public interface of `tass-front`.

pub use crate::diag::{Diagnostic, Diagnostics};
pub use crate::driver::{load_program, load_sources, FrontOptions};
pub use crate::headers::{builtin_header, BUILTIN_HEADERS};
pub use tass_model::api::render_model;
