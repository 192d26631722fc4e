//! Loading a program through the front end.

use std::path::PathBuf;

use tass_front::api::{load_program as front_load, Diagnostics, FrontOptions};
use tass_model::api::Model;

use crate::args::SourceArgs;
use crate::run::defines;

/// Preprocesses, parses and translates `files` (one program) into a model; the
/// error is the front end's diagnostics (`file:line:column: error: ...`).
pub(crate) fn load_program(files: &[PathBuf], source: &SourceArgs) -> Result<Model, Diagnostics> {
    let options = FrontOptions {
        include_dirs: source.include_dirs.clone(),
        defines: defines(source),
    };
    front_load(files, &options)
}
