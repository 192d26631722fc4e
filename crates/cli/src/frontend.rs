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

/// The first line of `text` that only C++ would contain, as a refusal. Asked
/// only after the front end failed, so a C program is never refused by it.
fn cplusplus_line(path: &Path, text: &str) -> Option<RunError> {
    text.lines().enumerate().find_map(|(k, line)| {
        Some(RunError::CPlusPlus {
            path: path.to_path_buf(),
            line: Some(k + 1),
            construct: format!("{} is C++", cplusplus_construct(line.trim_start())?),
        })
    })
}

/// The C++ construct `line` (without its indentation) holds, if any.
fn cplusplus_construct(line: &str) -> Option<String> {
    const STARTS: [(&str, &str); 7] = [
        ("class ", "`class`"),
        ("namespace ", "`namespace`"),
        ("template<", "`template`"),
        ("template <", "`template`"),
        ("using namespace ", "`using namespace`"),
        ("delete ", "`delete`"),
        ("delete[]", "`delete[]`"),
    ];
    if let Some((_, name)) = STARTS.iter().find(|(start, _)| line.starts_with(start)) {
        return Some(name.to_string());
    }
    // Every C header's name ends in `.h`; `<iostream>`, `<vector>`, `<cstdio>` do not.
    if let Some(header) = line
        .strip_prefix("#include <")
        .and_then(|rest| rest.split('>').next())
    {
        return (!header.contains('.')).then(|| format!("`<{header}>`"));
    }
    if line.contains("std::") {
        return Some("`std::`".into());
    }
    if line.contains("::") {
        return Some("`::`".into());
    }
    ["= new ", "return new ", "(new "]
        .iter()
        .any(|form| line.contains(form))
        .then(|| "`new`".into())
}
