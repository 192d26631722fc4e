//! The front end's pipeline: preprocess, parse, check syntax, translate.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use tass_model::api::Model;
use tree_sitter::{Node, Parser};

use crate::ast::{text, Pos};
use crate::diag::{Diagnostic, Diagnostics, Sources};
use crate::headers::builtin_header;
use crate::preprocess::{preprocess, PreprocessOptions};
use crate::translate::{Ctx, RawInputMacro, RawPragma, Tr, Unit};

/// Options of the front end (the CLI's `-I` and `-D`).
#[derive(Clone, Debug, Default)]
pub struct FrontOptions {
    /// Folders searched by `#include "..."` after the including file's folder
    /// (and by `#include <...>` after the built-in headers).
    pub include_dirs: Vec<PathBuf>,
    /// `-D NAME[=VALUE]`: `(NAME, None)` defines NAME as 1.
    pub defines: Vec<(String, Option<String>)>,
}

/// Reads, preprocesses, parses and translates the given C files into one
/// model (the files are linked: they share globals and functions).
pub fn load_program(files: &[PathBuf], opts: &FrontOptions) -> Result<Model, Diagnostics> {
    let mut sources = Vec::new();
    for f in files {
        match std::fs::read(f) {
            Ok(bytes) => sources.push((f.clone(), String::from_utf8_lossy(&bytes).into_owned())),
            Err(e) => {
                return Err(Diagnostics(vec![Diagnostic {
                    file: f.clone(),
                    line: 0,
                    column: 0,
                    message: format!("cannot read the file: {e}"),
                    source_line: None,
                }]))
            }
        }
    }
    load_sources(&sources, opts)
}

/// Like [`load_program`] for sources already in memory: `(file name, text)`.
/// `#include "..."` still looks next to the file name on disk.
pub fn load_sources(
    sources: &[(PathBuf, String)],
    opts: &FrontOptions,
) -> Result<Model, Diagnostics> {
    // The translator recurses over the syntax tree; a thread with a large
    // (lazily committed) stack plus the nesting limit (`ast::MAX_NESTING`)
    // keeps deeply nested input from overflowing the caller's stack.
    std::thread::scope(|scope| {
        let worker = std::thread::Builder::new()
            .name("tass-front".into())
            .stack_size(STACK_SIZE)
            .spawn_scoped(scope, || load_sources_here(sources, opts));
        match worker {
            Ok(handle) => handle.join().unwrap_or_else(|_| {
                Err(Diagnostics(vec![Diagnostic {
                    file: sources.first().map(|s| s.0.clone()).unwrap_or_default(),
                    line: 0,
                    column: 0,
                    message: "internal error in the front end (please report this input)".into(),
                    source_line: None,
                }]))
            }),
            Err(_) => load_sources_here(sources, opts),
        }
    })
}

const STACK_SIZE: usize = 256 << 20;

fn load_sources_here(
    sources: &[(PathBuf, String)],
    opts: &FrontOptions,
) -> Result<Model, Diagnostics> {
    let mut src_texts = Sources::default();
    if sources.is_empty() {
        return Err(Diagnostics(vec![Diagnostic {
            file: PathBuf::from("<input>"),
            line: 0,
            column: 0,
            message: "no input files".into(),
            source_line: None,
        }]));
    }
    let pp_opts = PreprocessOptions {
        include_dirs: opts.include_dirs.clone(),
        defines: opts.defines.clone(),
        builtin_header,
    };
    let mut units = Vec::new();
    for (path, text) in sources {
        src_texts.add(path, text);
        let pre = match preprocess(path, text, &pp_opts).and_then(|mut p| {
            crate::civl::rewrite(&mut p)?;
            Ok(p)
        }) {
            Ok(p) => p,
            Err(e) => {
                let d = src_texts.diagnostic(&e.file, e.line, e.column, e.message);
                return Err(Diagnostics(vec![d]));
            }
        };
        let unit = make_unit(pre)?;
        let mut errors = syntax_errors(&unit);
        errors.extend(unit.directive_errors.iter().cloned());
        errors.sort_by_key(|(p, _)| (p.row, p.col));
        if !errors.is_empty() {
            let diags = errors
                .iter()
                .map(|(pos, msg)| {
                    unit.diagnostic(
                        &crate::ast::AstError {
                            pos: *pos,
                            message: msg.clone(),
                        },
                        &mut src_texts,
                    )
                })
                .collect();
            return Err(Diagnostics(diags));
        }
        units.push(unit);
    }
    let mut ctx = Ctx {
        name: sources[0].0.display().to_string(),
        ..Ctx::default()
    };
    let mut trs: Vec<Tr<'_>> = Vec::new();
    for unit in &units {
        let mut tr = Tr::new(ctx, unit);
        let r = tr.pass1();
        if let Err(e) = r {
            return Err(Diagnostics(vec![unit.diagnostic(&e, &mut src_texts)]));
        }
        ctx = std::mem::take(&mut tr.ctx);
        trs.push(tr);
    }
    for tr in trs.iter_mut() {
        tr.ctx = std::mem::take(&mut ctx);
        if let Err(e) = tr.pass2() {
            return Err(Diagnostics(vec![tr.unit.diagnostic(&e, &mut src_texts)]));
        }
        ctx = std::mem::take(&mut tr.ctx);
    }
    // `ltl` pragmas may name any unit's labels and locals
    for tr in trs.iter_mut() {
        tr.ctx = std::mem::take(&mut ctx);
        if let Err(e) = tr.translate_ltl() {
            return Err(Diagnostics(vec![tr.unit.diagnostic(&e, &mut src_texts)]));
        }
        ctx = std::mem::take(&mut tr.ctx);
    }
    ctx.finish(&mut src_texts).map_err(Diagnostics)
}

fn make_unit(pre: crate::preprocess::Preprocessed) -> Result<Unit, Diagnostics> {
    let mut bytes = pre.text.into_bytes();
    let mut pragmas = Vec::new();
    let mut directive_errors = Vec::new();
    let mut origins: Vec<(Arc<str>, PathBuf, u32)> = Vec::new();
    let mut cache: Option<(PathBuf, Arc<str>)> = None;
    let mut name_of = |p: &Path| -> Arc<str> {
        if let Some((cp, name)) = &cache {
            if cp == p {
                return name.clone();
            }
        }
        let name: Arc<str> = Arc::from(p.display().to_string().as_str());
        cache = Some((p.to_path_buf(), name.clone()));
        name
    };
    for o in &pre.line_origins {
        origins.push((name_of(&o.file), o.file.clone(), o.line));
    }
    // find directive lines (pragmas), record TASS ones and blank them all
    let mut row: u32 = 0;
    let mut start = 0usize;
    while start < bytes.len() {
        let end = bytes[start..]
            .iter()
            .position(|b| *b == b'\n')
            .map(|k| start + k)
            .unwrap_or(bytes.len());
        let line = String::from_utf8_lossy(&bytes[start..end]).into_owned();
        let trimmed = line.trim_start();
        if let Some(after_hash) = trimmed.strip_prefix('#') {
            let after_hash = after_hash.trim_start();
            if let Some(rest) = after_hash.strip_prefix("pragma") {
                let rest_trim = rest.trim_start();
                if let Some(tass) = rest_trim.strip_prefix("TASS") {
                    if tass.is_empty() || tass.starts_with(char::is_whitespace) {
                        let col = (line.len() - tass.len()) as u32;
                        pragmas.push(RawPragma {
                            row,
                            col,
                            text: tass.to_string(),
                        });
                    }
                } else {
                    // other pragmas are hints a verifier may ignore, except
                    // those that bring in threads and `pack`, which changes
                    // the struct layout tass computes
                    let word = rest_trim.split_whitespace().next().unwrap_or("");
                    let word = word.split('(').next().unwrap_or("");
                    if matches!(word, "omp" | "acc" | "pack") {
                        let col = (line.len() - rest_trim.len()) as u32;
                        directive_errors.push((
                            Pos {
                                row,
                                col,
                                end_row: row,
                                end_col: col + word.len() as u32,
                            },
                            format!(
                                "`#pragma {word}` ({}) is not supported",
                                match word {
                                    "omp" => "OpenMP threads",
                                    "acc" => "OpenACC",
                                    _ => "a packed struct layout, which tass does not compute",
                                }
                            ),
                        ));
                    }
                }
            }
            for b in &mut bytes[start..end] {
                *b = b' ';
            }
        }
        start = end + 1;
        row += 1;
    }
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let text_rows = origins.len().max(row as usize) as u32;
    while origins.len() < text_rows as usize {
        let last = origins
            .last()
            .cloned()
            .unwrap_or_else(|| (Arc::from("<input>"), PathBuf::from("<input>"), 0));
        origins.push(last);
    }
    let mut input_macros = Vec::new();
    for (k, m) in pre.input_macros.iter().enumerate() {
        origins.push((name_of(&m.file), m.file.clone(), m.line));
        input_macros.push(RawInputMacro {
            name: m.name.clone(),
            pragma_text: m.pragma_text.clone(),
            row: text_rows + k as u32,
        });
    }
    let mut parser = Parser::new();
    if parser
        .set_language(&tree_sitter_c::LANGUAGE.into())
        .is_err()
    {
        return Err(Diagnostics(vec![Diagnostic {
            file: PathBuf::from("<tass>"),
            line: 0,
            column: 0,
            message: "internal error: the C grammar could not be loaded".into(),
            source_line: None,
        }]));
    }
    let no_tree = || {
        Diagnostics(vec![Diagnostic {
            file: PathBuf::from("<tass>"),
            line: 0,
            column: 0,
            message: "internal error: the parser gave no tree".into(),
            source_line: None,
        }])
    };
    let mut text = text;
    let mut tree = parser.parse(&text, None).ok_or_else(no_tree)?;
    // `(v) - x` with `v` a variable was read as a cast: blank the parentheses and
    // parse again (a blanked form can reveal another, so repeat; each round blanks
    // at least one pair, so this ends).
    while let Some(fixed) = crate::disambiguate::blank_false_casts(&text, tree.root_node()) {
        text = fixed;
        tree = parser.parse(&text, None).ok_or_else(no_tree)?;
    }
    let uses_mpi = pre.included_builtin_headers.iter().any(|h| h == "mpi.h");
    Ok(Unit {
        text,
        tree,
        origins,
        pragmas,
        input_macros,
        uses_mpi,
        directive_errors,
    })
}

const MAX_SYNTAX_ERRORS: usize = 10;

const UNSUPPORTED_WORDS: &[(&str, &str)] = &[
    ("_Thread_local", "thread-local storage (threads) is"),
    ("__thread", "thread-local storage (threads) is"),
    ("_Atomic", "atomics (threads) are"),
    ("__attribute__", "attributes are"),
    ("asm", "inline assembly is"),
    ("_Generic", "_Generic is"),
];

fn syntax_errors(unit: &Unit) -> Vec<(Pos, String)> {
    let mut out = Vec::new();
    let root = unit.tree.root_node();
    if root.has_error() {
        collect(root, &unit.text, &mut out);
    }
    out
}

fn snippet(s: &str) -> String {
    let line = s
        .lines()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("")
        .trim();
    let mut out: String = line.chars().take(40).collect();
    if line.chars().count() > 40 {
        out.push_str("...");
    }
    out
}

fn collect(node: Node<'_>, src: &str, out: &mut Vec<(Pos, String)>) {
    if out.len() >= MAX_SYNTAX_ERRORS {
        return;
    }
    if node.is_missing() {
        let kind = node.kind();
        let what = if kind.chars().all(|c| c.is_ascii_punctuation()) {
            format!("`{kind}`")
        } else {
            format!("{} ", kind.replace('_', " "))
                .trim_end()
                .to_string()
        };
        out.push((Pos::of(node), format!("syntax error: missing {what}")));
        return;
    }
    if node.is_error() {
        let t = snippet(text(node, src));
        let mut msg = if t.is_empty() {
            "syntax error".to_string()
        } else {
            format!("syntax error near `{t}`")
        };
        // name constructs tree-sitter-c does not know and tass rejects anyway
        let row = node.start_position().row;
        let line = src.lines().nth(row).unwrap_or("");
        for (word, what) in UNSUPPORTED_WORDS {
            if line.contains(word) {
                msg.push_str(&format!(" (`{word}`: {what} not supported)"));
                break;
            }
        }
        out.push((Pos::of(node), msg));
        return;
    }
    let mut c = node.walk();
    for ch in node.children(&mut c) {
        if ch.has_error() || ch.is_missing() || ch.is_error() {
            collect(ch, src, out);
        }
    }
}
