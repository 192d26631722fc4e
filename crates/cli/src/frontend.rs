//! Loading a program through the front end, after the checks the front end
//! cannot phrase well: an unreadable file (no position to give) and C++ (by its
//! extension, or by its syntax once the front end has refused the file).

use std::path::{Path, PathBuf};

use tass_front::api::{load_program as front_load, FrontOptions};
use tass_model::api::Model;

use crate::args::SourceArgs;
use crate::error::RunError;
use crate::run::defines;

/// The extensions of C++ sources and headers.
const CPLUSPLUS_EXTENSIONS: [&str; 8] = ["cpp", "cc", "cxx", "c++", "C", "hpp", "hh", "hxx"];

/// Preprocesses, parses and translates `files` (one program) into a model; the
/// error is the front end's diagnostics (`file:line:column: error: ...`), or one of
/// the refusals above.
pub(crate) fn load_program(files: &[PathBuf], source: &SourceArgs) -> Result<Model, RunError> {
    let mut texts = Vec::with_capacity(files.len());
    for path in files {
        if let Some(ext) = path.extension().and_then(|e| e.to_str()) {
            if CPLUSPLUS_EXTENSIONS.contains(&ext) {
                return Err(RunError::CPlusPlus {
                    path: path.clone(),
                    line: None,
                    construct: format!("a `.{ext}` file"),
                });
            }
        }
        match std::fs::read(path) {
            Ok(bytes) => texts.push(String::from_utf8_lossy(&bytes).into_owned()),
            Err(source) => {
                return Err(RunError::Unreadable {
                    path: path.clone(),
                    source,
                })
            }
        }
    }
    let options = FrontOptions {
        include_dirs: source.include_dirs.clone(),
        defines: defines(source),
    };
    front_load(files, &options).map_err(|diagnostics| {
        files
            .iter()
            .zip(&texts)
            .find_map(|(path, text)| cplusplus_line(path, text))
            .unwrap_or(RunError::Front(diagnostics))
    })
}

/// The first line of `text` that only C++ would contain, as a refusal.
fn cplusplus_line(path: &Path, text: &str) -> Option<RunError> {
    const STARTS: [(&str, &str); 8] = [
        ("class ", "`class`"),
        ("namespace ", "`namespace`"),
        ("template<", "`template`"),
        ("template <", "`template`"),
        ("using namespace ", "`using namespace`"),
        ("#include <iostream>", "`<iostream>`"),
        ("#include <vector>", "`<vector>`"),
        ("#include <string>", "`<string>`"),
    ];
    text.lines().enumerate().find_map(|(k, line)| {
        let line = line.trim_start();
        let construct = STARTS
            .iter()
            .find(|(start, _)| line.starts_with(start))
            .map(|(_, name)| *name)
            .or_else(|| line.contains("std::").then_some("`std::`"))?;
        Some(RunError::CPlusPlus {
            path: path.to_path_buf(),
            line: Some(k + 1),
            construct: format!("{construct} is C++"),
        })
    })
}
