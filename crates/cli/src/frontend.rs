//! Loading a program through the front end, after the checks the front end
//! cannot phrase well: an unreadable file (no position to give) and C++ (by its
//! extension, or by its syntax once the front end has refused the file).

use std::path::{Path, PathBuf};

use tass_front::api::{load_sources, Diagnostics, FrontOptions};
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
    let sources: Vec<(PathBuf, String)> = files.iter().cloned().zip(texts.clone()).collect();
    load_with_implicit_headers(sources, &options).map_err(|diagnostics| {
        files
            .iter()
            .zip(&texts)
            .find_map(|(path, text)| cplusplus_line(path, text))
            .unwrap_or(RunError::Front(diagnostics))
    })
}

/// The standard C headers whose functions may be called without the
/// `#include` (see [`load_with_implicit_headers`]).
const IMPLICIT_HEADERS: [&str; 6] = [
    "<string.h>",
    "<stdio.h>",
    "<stdlib.h>",
    "<math.h>",
    "<time.h>",
    "<assert.h>",
];

/// Loads `sources`; when the front end stops at a call of a C library
/// function whose header the file does not include, loads it again with that
/// header read at the end of the file (so no line moves) and warns, as gcc
/// before version 14 accepts such an implicit declaration with a warning
/// (C99 requires the `#include`; programs of the MPI Bugs Initiative call
/// `memset` so). Only the standard headers above, never `<mpi.h>` or a
/// function tass does not model.
fn load_with_implicit_headers(
    mut sources: Vec<(PathBuf, String)>,
    options: &FrontOptions,
) -> Result<Model, Diagnostics> {
    let mut warnings: Vec<String> = Vec::new();
    let result = loop {
        let diagnostics = match load_sources(&sources, options) {
            Ok(model) => break Ok(model),
            Err(diagnostics) => diagnostics,
        };
        let Some((file, header, warning)) = implicit_declaration(&diagnostics) else {
            break Err(diagnostics);
        };
        let line = format!("\n#include {header}\n");
        let source = sources.iter_mut().find(|(path, _)| *path == file);
        match source {
            // Each round adds a header a file lacks, so the loop ends.
            Some(source) if !source.1.ends_with(&line) && !source.1.contains(&line) => {
                source.1.push_str(&line);
                warnings.push(warning);
            }
            _ => break Err(diagnostics),
        }
    };
    // The warnings hold for the lines as written (the headers were added at the
    // ends of the files), also when another error follows.
    for w in &warnings {
        eprintln!("{w}");
    }
    result
}

/// For the front end's "unknown function `f` (did you forget `#include
/// <h>`?)" with `h` one of [`IMPLICIT_HEADERS`]: the file, the header and
/// the warning to give.
fn implicit_declaration(diagnostics: &Diagnostics) -> Option<(PathBuf, &'static str, String)> {
    let [d] = diagnostics.0.as_slice() else {
        return None;
    };
    let rest = d.message.strip_prefix("unknown function `")?;
    let (name, rest) = rest.split_once('`')?;
    let header = rest
        .strip_prefix(" (did you forget `#include ")?
        .strip_suffix("`?)")?;
    let header = IMPLICIT_HEADERS.into_iter().find(|h| *h == header)?;
    let warning = format!(
        "{}:{}:{}: warning: implicit declaration of `{name}`: tass reads {header} for it, as gcc \
         before version 14 does (C99 requires `#include {header}`)",
        d.file.display(),
        d.line,
        d.column
    );
    Some((d.file.clone(), header, warning))
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
