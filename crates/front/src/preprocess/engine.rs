//! The driver: the include stack, conditionals, directives and the top-level
//! expansion loop.
//!
//! Tokens reach the top level from `pending` (expansion results waiting to be
//! rescanned) and, once that is empty, from the current file. Directives are
//! handled as the reader meets them at the start of a line, so a macro call whose
//! arguments span lines sees `#if` / `#define` lines in between as C requires.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::expr;
use super::lex::{self, Kind, Pos, Token};
use super::macros::{
    collect_args, missing_quote_message, parse_define, pos_err, Budget, Builtin, Macro, MacroTable,
    PosError, MAX_EXPANSION_TOKENS,
};
use super::writer::{needs_separator, Writer};
use super::{
    InputMacro, LineOrigin, PreprocessError, PreprocessOptions, PreprocessWarning, Preprocessed,
    Severity, BUILTIN_DIR, COMMAND_LINE, MAX_INCLUDE_DEPTH,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    /// Ordinary reading at the top level.
    Normal,
    /// Looking for the `(` of a function-like macro call: stop at a directive or
    /// at the end of the file.
    Peek,
    /// Reading macro arguments: directives are handled, the file end is not crossed.
    Collect,
}

#[derive(Debug)]
struct Cond {
    /// The `#` of the `#if`.
    pos: Pos,
    directive: &'static str,
    parent_active: bool,
    /// Some branch has been chosen already.
    taken: bool,
    seen_else: bool,
    active: bool,
}

#[derive(Debug)]
struct FileState {
    id: u32,
    toks: Vec<Token>,
    idx: usize,
    conds: Vec<Cond>,
    lines: u32,
    /// Folder searched first by `#include "..."` (none for built-in headers).
    dir: Option<PathBuf>,
    /// Identity for `#pragma once`.
    key: PathBuf,
    /// The line of the `#include` in the including file.
    included_at: u32,
}

impl FileState {
    fn active(&self) -> bool {
        !matches!(self.conds.last(), Some(c) if !c.active)
    }
}

struct Engine<'a> {
    opts: &'a PreprocessOptions,
    files: Vec<PathBuf>,
    stack: Vec<FileState>,
    table: MacroTable,
    once: HashSet<PathBuf>,
    writer: Writer,
    pending: Vec<Token>,
    budget: Budget,
    input_macros: Vec<InputMacro>,
    builtin_headers: Vec<String>,
    warnings: Vec<PreprocessWarning>,
    orphan_conds: Vec<Cond>,
}

pub(crate) fn run(
    main_file: &Path,
    source: &str,
    opts: &PreprocessOptions,
) -> Result<Preprocessed, PreprocessError> {
    let mut e = Engine {
        opts,
        files: Vec::new(),
        stack: Vec::new(),
        table: MacroTable::default(),
        once: HashSet::new(),
        writer: Writer::default(),
        pending: Vec::new(),
        budget: Budget::default(),
        input_macros: Vec::new(),
        builtin_headers: Vec::new(),
        warnings: Vec::new(),
        orphan_conds: Vec::new(),
    };
    let result = e.start(main_file, source).and_then(|()| e.top_loop());
    if let Err(err) = result {
        return Err(e.error(err));
    }
    let Engine {
        files,
        writer,
        input_macros,
        builtin_headers,
        warnings,
        ..
    } = e;
    let (text, origins) = writer.finish();
    let line_origins = origins
        .into_iter()
        .map(|(f, line)| LineOrigin {
            file: files[f as usize].clone(),
            line,
        })
        .collect();
    Ok(Preprocessed {
        text,
        line_origins,
        input_macros,
        included_builtin_headers: builtin_headers,
        warnings,
    })
}

/// The text of `toks` as written, whitespace collapsed to single spaces.
fn join_tokens(toks: &[Token]) -> String {
    let mut s = String::new();
    let mut last = None;
    for t in toks {
        if !s.is_empty() && (t.space || needs_separator(last, t)) {
            s.push(' ');
        }
        s.push_str(&t.text);
        last = t.text.chars().last().map(|c| (t.kind, c));
    }
    s
}

impl Engine<'_> {
    fn path_of(&self, file: u32) -> PathBuf {
        self.files.get(file as usize).cloned().unwrap_or_default()
    }

    fn error(&self, e: PosError) -> PreprocessError {
        PreprocessError {
            severity: Severity::Error,
            file: self.path_of(e.pos.file),
            line: e.pos.line,
            column: e.pos.col,
            message: e.message,
        }
    }

    fn warn(&mut self, pos: Pos, message: String) {
        self.warnings.push(PreprocessWarning {
            severity: Severity::Warning,
            file: self.path_of(pos.file),
            line: pos.line,
            column: pos.col,
            message,
        });
    }

    fn add_file(&mut self, path: PathBuf) -> u32 {
        self.table.file_names.push(path.display().to_string());
        self.files.push(path);
        u32::try_from(self.files.len() - 1).unwrap_or(u32::MAX)
    }

    fn tokenize(&self, src: &str, id: u32) -> Result<Vec<Token>, PosError> {
        lex::tokenize(src, id).map_err(|e| PosError {
            pos: Pos {
                file: id,
                line: e.line,
                col: e.col,
            },
            message: e.message,
        })
    }

    fn start(&mut self, main_file: &Path, source: &str) -> Result<(), PosError> {
        let main_id = self.add_file(main_file.to_path_buf());
        let cmd = self.add_file(PathBuf::from(COMMAND_LINE));
        let at = Pos {
            file: cmd,
            line: 1,
            col: 1,
        };
        for (name, value) in [
            ("__STDC__", "1"),
            ("__STDC_VERSION__", "199901L"),
            ("__TASS__", "1"),
            // Fixed, so that verification results never depend on the clock.
            ("__DATE__", "\"Jan  1 1970\""),
            ("__TIME__", "\"00:00:00\""),
        ] {
            self.define_text(name, value, cmd)?;
        }
        for (name, b) in [("__FILE__", Builtin::File), ("__LINE__", Builtin::Line)] {
            let name: Rc<str> = Rc::from(name);
            let m = Macro {
                name: name.clone(),
                params: None,
                variadic: false,
                body: Vec::new(),
                builtin: Some(b),
                own_hide: Rc::new(vec![name.clone()]),
            };
            self.table.defs.insert(name, Rc::new(m));
        }
        for (name, value) in &self.opts.defines {
            if name.trim().is_empty() {
                return pos_err(at, "-D needs a macro name");
            }
            self.define_text(name, value.as_deref().unwrap_or("1"), cmd)?;
        }
        let toks = self.tokenize(source, main_id)?;
        if !source.is_empty() {
            self.writer.sync(main_id, 1);
        }
        let dir = main_file.parent().map(Path::to_path_buf);
        let key = std::fs::canonicalize(main_file).unwrap_or_else(|_| main_file.to_path_buf());
        self.stack.push(FileState {
            id: main_id,
            toks,
            idx: 0,
            conds: Vec::new(),
            lines: lex::line_count(source),
            dir,
            key,
            included_at: 0,
        });
        Ok(())
    }

    /// Defines a macro from `-D` style text: `NAME` (or `F(x)`) and its value.
    fn define_text(&mut self, name: &str, value: &str, file: u32) -> Result<(), PosError> {
        let text = format!("{name} {value}");
        let toks = self.tokenize(&text, file)?;
        let line: Vec<Token> = toks
            .into_iter()
            .take_while(|t| !matches!(t.kind, Kind::Newline | Kind::Eof))
            .collect();
        let end = Pos {
            file,
            line: 1,
            col: text.chars().count() as u32 + 1,
        };
        let m = parse_define(&line, end)?;
        self.table.defs.insert(m.name.clone(), Rc::new(m));
        Ok(())
    }

    fn top_loop(&mut self) -> Result<(), PosError> {
        loop {
            let t = match self.pending.pop() {
                Some(t) => t,
                None => {
                    self.budget = Budget::default();
                    match self.read(Mode::Normal)? {
                        Some(t) => t,
                        None => return Ok(()),
                    }
                }
            };
            if let Some(m) = self.table.lookup(&t) {
                self.expand_top(t, m)?;
                continue;
            }
            if t.kind == Kind::Unterminated {
                return pos_err(t.pos, missing_quote_message(&t));
            }
            self.writer.emit(&t, None);
        }
    }

    fn expand_top(&mut self, t: Token, m: Rc<Macro>) -> Result<(), PosError> {
        let call = if m.params.is_some() {
            let next = match self.pending.pop() {
                Some(p) => Some(p),
                None => self.read(Mode::Peek)?,
            };
            match next {
                Some(p) if p.is_punct("(") => {
                    Some(collect_args(&m, &t, &mut || match self.pending.pop() {
                        Some(p) => Ok(Some(p)),
                        None => self.read(Mode::Collect),
                    })?)
                }
                other => {
                    self.pending.extend(other);
                    self.writer.emit(&t, None);
                    return Ok(());
                }
            }
        } else {
            None
        };
        let r = self.table.substitute(&m, &t, call, 0, &mut self.budget)?;
        self.pending.extend(r.into_iter().rev());
        if self.pending.len() as u64 > MAX_EXPANSION_TOKENS {
            return pos_err(
                t.pos,
                format!("expansion of macro \"{}\" is too large", m.name),
            );
        }
        Ok(())
    }

    /// The next token of the current file that is program text, handling
    /// directives and skipping inactive lines; `None` at the end (of everything in
    /// `Normal` mode, of the current file or a directive line otherwise).
    fn read(&mut self, mode: Mode) -> Result<Option<Token>, PosError> {
        loop {
            let Some(f) = self.stack.last_mut() else {
                return Ok(None);
            };
            let t = &f.toks[f.idx];
            match t.kind {
                Kind::Newline => f.idx += 1,
                Kind::Eof => {
                    if mode != Mode::Normal {
                        return Ok(None);
                    }
                    if let Some(c) = f.conds.last() {
                        return pos_err(
                            c.pos,
                            format!("unterminated #{}: no matching #endif", c.directive),
                        );
                    }
                    let (id, lines, included_at) = (f.id, f.lines, f.included_at);
                    if lines > 0 {
                        self.writer.sync(id, lines);
                    }
                    self.stack.pop();
                    if let Some(parent) = self.stack.last() {
                        if included_at < parent.lines {
                            self.writer.sync(parent.id, included_at + 1);
                        }
                    }
                }
                _ => {
                    if t.bol && t.is_punct("#") {
                        if mode == Mode::Peek {
                            return Ok(None);
                        }
                        self.directive(mode)?;
                        continue;
                    }
                    if !f.active() {
                        while !matches!(f.toks[f.idx].kind, Kind::Newline | Kind::Eof) {
                            f.idx += 1;
                        }
                        continue;
                    }
                    let t = t.clone();
                    f.idx += 1;
                    return Ok(Some(t));
                }
            }
        }
    }

    /// Handles the directive whose `#` is at the reader's position.
    fn directive(&mut self, mode: Mode) -> Result<(), PosError> {
        let Some(f) = self.stack.last_mut() else {
            return Ok(());
        };
        let hash = f.toks[f.idx].clone();
        let mut j = f.idx + 1;
        while !matches!(f.toks[j].kind, Kind::Newline | Kind::Eof) {
            j += 1;
        }
        let line: Vec<Token> = f.toks[f.idx + 1..j].to_vec();
        let end = f.toks[j].pos;
        f.idx = j;
        let active = f.active();
        let Some(name) = line.first() else {
            return Ok(()); // the null directive
        };
        if name.kind == Kind::Number {
            // GCC line marker `# 33 "file"`: same as #line.
            return if active {
                self.line_directive(&line, end)
            } else {
                Ok(())
            };
        }
        let directive = if name.kind == Kind::Ident {
            &*name.text
        } else {
            ""
        };
        match directive {
            "if" | "ifdef" | "ifndef" => self.if_directive(&hash, &line, end)?,
            "elif" | "elifdef" | "elifndef" => self.elif_directive(&hash, &line, end)?,
            "else" => {
                let Some(c) = self.conds().last_mut() else {
                    return pos_err(hash.pos, "#else without #if");
                };
                if c.seen_else {
                    return pos_err(hash.pos, "#else after #else");
                }
                c.seen_else = true;
                c.active = c.parent_active && !c.taken;
                c.taken = true;
            }
            "endif" => {
                if self.conds().pop().is_none() {
                    return pos_err(hash.pos, "#endif without #if");
                }
            }
            _ if !active => {}
            "define" => self.define_directive(&line, end)?,
            "undef" => {
                let n = macro_name_operand(&line, end, "undef")?;
                self.table.defs.remove(&*n.text);
            }
            "include" => {
                if mode == Mode::Collect {
                    return pos_err(
                        hash.pos,
                        "#include inside the arguments of a macro call is not supported",
                    );
                }
                self.include(&hash, &line, end)?;
            }
            "line" => self.line_directive(&line[1..], end)?,
            "error" => {
                return pos_err(hash.pos, format!("#error {}", join_tokens(&line[1..])));
            }
            "warning" => {
                let message = format!("#warning {}", join_tokens(&line[1..]));
                self.warn(hash.pos, message);
            }
            "pragma" => self.pragma(&hash, &line, mode)?,
            "ident" | "sccs" => {}
            _ => {
                return pos_err(
                    name.pos,
                    format!("invalid preprocessing directive #{}", name.text),
                );
            }
        }
        Ok(())
    }

    /// `#if`, `#ifdef`, `#ifndef`: opens a conditional (its branch is taken
    /// only inside an active one). `line` is the directive's line after `#`.
    fn if_directive(&mut self, hash: &Token, line: &[Token], end: Pos) -> Result<(), PosError> {
        let active = !matches!(self.conds().last(), Some(c) if !c.active);
        let directive = match &*line[0].text {
            "if" => "if",
            "ifdef" => "ifdef",
            _ => "ifndef",
        };
        let value = if !active {
            false
        } else if directive == "if" {
            self.eval_condition(&line[1..], &line[0], end)?
        } else {
            let n = macro_name_operand(line, end, directive)?;
            let defined = self.table.defs.contains_key(&*n.text);
            defined == (directive == "ifdef")
        };
        let cond = Cond {
            pos: hash.pos,
            directive,
            parent_active: active,
            taken: value || !active,
            seen_else: false,
            active: value,
        };
        self.conds().push(cond);
        Ok(())
    }

    /// `#elif`, `#elifdef`, `#elifndef`: evaluated only when no branch of
    /// the conditional was taken yet.
    fn elif_directive(&mut self, hash: &Token, line: &[Token], end: Pos) -> Result<(), PosError> {
        let directive = &*line[0].text;
        let (evaluate, seen_else) = match self.conds().last() {
            None => return pos_err(hash.pos, format!("#{directive} without #if")),
            Some(c) => (c.parent_active && !c.taken, c.seen_else),
        };
        if seen_else {
            return pos_err(hash.pos, format!("#{directive} after #else"));
        }
        let value = evaluate
            && if directive == "elif" {
                self.eval_condition(&line[1..], &line[0], end)?
            } else {
                let n = macro_name_operand(line, end, directive)?;
                self.table.defs.contains_key(&*n.text) == (directive == "elifdef")
            };
        if let Some(c) = self.conds().last_mut() {
            c.active = value;
            c.taken |= value;
        }
        Ok(())
    }

    /// `#define`: TASS inputs stay undefined (with a warning), built-in macros
    /// cannot be redefined, a different redefinition is warned about.
    fn define_directive(&mut self, line: &[Token], end: Pos) -> Result<(), PosError> {
        let m = parse_define(&line[1..], end)?;
        if self.table.never_expand.contains(&m.name) {
            let message = format!(
                "\"{}\" is a TASS input (#pragma TASS input); this #define is ignored",
                m.name
            );
            self.warn(line[1].pos, message);
            return Ok(());
        }
        if let Some(old) = self.table.defs.get(&m.name) {
            if old.builtin.is_some() {
                return pos_err(
                    line[1].pos,
                    format!("cannot redefine the built-in macro \"{}\"", m.name),
                );
            }
            if !old.same_definition(&m) {
                let message = format!("macro \"{}\" redefined", m.name);
                self.warn(line[1].pos, message);
            }
        }
        self.table.defs.insert(m.name.clone(), Rc::new(m));
        Ok(())
    }

    /// The conditional stack of the current file (a directive is always read
    /// from an open file; the fallback is never used).
    fn conds(&mut self) -> &mut Vec<Cond> {
        match self.stack.last_mut() {
            Some(f) => &mut f.conds,
            None => &mut self.orphan_conds,
        }
    }

    /// Replaces `defined X` and `defined ( X )` by `1` / `0`.
    fn replace_defined(&self, toks: Vec<Token>) -> Result<Vec<Token>, PosError> {
        let mut out = Vec::with_capacity(toks.len());
        let mut i = 0;
        while i < toks.len() {
            let t = &toks[i];
            if !t.is_ident("defined") {
                out.push(t.clone());
                i += 1;
                continue;
            }
            let paren = toks.get(i + 1).is_some_and(|p| p.is_punct("("));
            let name_at = if paren { i + 2 } else { i + 1 };
            let Some(n) = toks.get(name_at).filter(|n| n.kind == Kind::Ident) else {
                return pos_err(t.pos, "operator \"defined\" requires a macro name");
            };
            if paren && !toks.get(name_at + 1).is_some_and(|p| p.is_punct(")")) {
                return pos_err(t.pos, "missing ')' after \"defined\"");
            }
            let value = self.table.defs.contains_key(&*n.text);
            let mut r = Token::new(Kind::Number, if value { "1" } else { "0" }, t.pos);
            r.space = t.space;
            out.push(r);
            i = name_at + 1 + usize::from(paren);
        }
        Ok(out)
    }

    fn eval_condition(
        &mut self,
        toks: &[Token],
        directive: &Token,
        end: Pos,
    ) -> Result<bool, PosError> {
        if toks.is_empty() {
            return pos_err(
                directive.pos,
                format!("#{} with no expression", directive.text),
            );
        }
        let toks = self.replace_defined(toks.to_vec())?;
        let toks = self.table.expand_list(toks, 0, &mut Budget::default())?;
        let toks = self.replace_defined(toks)?;
        if let Some(t) = toks.iter().find(|t| t.kind == Kind::Unterminated) {
            return pos_err(t.pos, missing_quote_message(t));
        }
        expr::evaluate(&toks, end).map_err(|e| PosError {
            pos: e.pos,
            message: e.message,
        })
    }

    fn line_directive(&mut self, toks: &[Token], end: Pos) -> Result<(), PosError> {
        let toks = self
            .table
            .expand_list(toks.to_vec(), 0, &mut Budget::default())?;
        let number = toks
            .first()
            .filter(|t| t.kind == Kind::Number)
            .and_then(|t| t.text.parse::<u32>().ok());
        let Some(number) = number else {
            return pos_err(
                toks.first().map_or(end, |t| t.pos),
                "#line needs a line number (a positive decimal integer)",
            );
        };
        let name = match toks.get(1) {
            None => None,
            Some(t) if t.kind == Kind::Str && t.text.starts_with('"') => {
                Some(t.text[1..t.text.len() - 1].to_string())
            }
            Some(t) => return pos_err(t.pos, "#line: the file name must be a string literal"),
        };
        let entry = self.table.presumed.entry(end.file).or_insert((None, 0));
        if name.is_some() {
            entry.0 = name;
        }
        entry.1 = i64::from(number) - (i64::from(end.line) + 1);
        Ok(())
    }

    fn include(&mut self, hash: &Token, line: &[Token], end: Pos) -> Result<(), PosError> {
        let spec = &line[1..];
        let (name, angled) = match spec.first() {
            Some(t) if t.kind == Kind::HeaderName => {
                (t.text[1..t.text.len() - 1].to_string(), true)
            }
            Some(t) if t.kind == Kind::Str && t.text.starts_with('"') => {
                (t.text[1..t.text.len() - 1].to_string(), false)
            }
            Some(_) => {
                let toks = self
                    .table
                    .expand_list(spec.to_vec(), 0, &mut Budget::default())?;
                match toks.first() {
                    Some(t) if t.kind == Kind::Str && t.text.starts_with('"') => {
                        (t.text[1..t.text.len() - 1].to_string(), false)
                    }
                    Some(t) if t.is_punct("<") => {
                        let close = toks.iter().position(|t| t.is_punct(">"));
                        match close {
                            Some(c) => {
                                let mut name = String::new();
                                for (k, t) in toks[1..c].iter().enumerate() {
                                    if k > 0 && t.space {
                                        name.push(' ');
                                    }
                                    name.push_str(&t.text);
                                }
                                (name, true)
                            }
                            None => {
                                return pos_err(t.pos, "missing '>' to end the #include file name")
                            }
                        }
                    }
                    _ => {
                        return pos_err(spec[0].pos, "#include expects \"FILENAME\" or <FILENAME>")
                    }
                }
            }
            None => return pos_err(end, "#include expects \"FILENAME\" or <FILENAME>"),
        };
        if name.is_empty() {
            return pos_err(spec[0].pos, "empty file name in #include");
        }
        if self.stack.len() >= MAX_INCLUDE_DEPTH {
            let looping = self
                .stack
                .iter()
                .any(|f| self.files[f.id as usize].file_name() == Path::new(&name).file_name());
            let hint = if looping {
                format!("\"{name}\" includes itself (directly or through other files) without an include guard")
            } else {
                "too many nested includes".to_string()
            };
            return pos_err(
                hash.pos,
                format!("#include nested more than {MAX_INCLUDE_DEPTH} levels deep: {hint}"),
            );
        }
        let (path, text, dir, builtin) = self.find_include(hash, &name, angled)?;
        let key = if builtin {
            path.clone()
        } else {
            std::fs::canonicalize(&path).unwrap_or_else(|_| path.clone())
        };
        if self.once.contains(&key) {
            return Ok(());
        }
        if builtin && !self.builtin_headers.contains(&name) {
            self.builtin_headers.push(name.clone());
        }
        let id = self.add_file(path);
        let toks = self.tokenize(&text, id)?;
        self.writer.sync(hash.pos.file, hash.pos.line);
        if !text.is_empty() {
            self.writer.sync(id, 1);
        }
        self.stack.push(FileState {
            id,
            toks,
            idx: 0,
            conds: Vec::new(),
            lines: lex::line_count(&text),
            dir,
            key,
            included_at: end.line,
        });
        Ok(())
    }

    /// Finds an include file: (path, text, its folder, is built in).
    #[allow(clippy::type_complexity)]
    fn find_include(
        &self,
        hash: &Token,
        name: &str,
        angled: bool,
    ) -> Result<(PathBuf, String, Option<PathBuf>, bool), PosError> {
        let builtin = |name: &str| {
            (self.opts.builtin_header)(name).map(|text| {
                (
                    Path::new(BUILTIN_DIR).join(name),
                    text.to_string(),
                    None,
                    true,
                )
            })
        };
        let mut dirs: Vec<PathBuf> = Vec::new();
        if !angled {
            if let Some(d) = self.stack.last().and_then(|f| f.dir.clone()) {
                dirs.push(d);
            }
        }
        dirs.extend(self.opts.include_dirs.iter().cloned());
        if angled {
            if let Some(found) = builtin(name) {
                return Ok(found);
            }
        }
        for d in &dirs {
            let p = d.join(name);
            if p.is_file() {
                return match std::fs::read(&p) {
                    Ok(bytes) => {
                        let text = String::from_utf8_lossy(&bytes).into_owned();
                        let dir = p.parent().map(Path::to_path_buf);
                        Ok((p, text, dir, false))
                    }
                    Err(e) => pos_err(
                        hash.pos,
                        format!("cannot read include file \"{}\": {e}", p.display()),
                    ),
                };
            }
        }
        if !angled {
            if let Some(found) = builtin(name) {
                return Ok(found);
            }
        }
        let mut places: Vec<String> = dirs
            .iter()
            .map(|d| {
                let s = d.display().to_string();
                if s.is_empty() {
                    "the current folder".to_string()
                } else {
                    s
                }
            })
            .collect();
        places.push("the built-in headers".to_string());
        let (open, close) = if angled { ('<', '>') } else { ('"', '"') };
        pos_err(
            hash.pos,
            format!(
                "cannot find include file {open}{name}{close}; searched: {}. Add its folder with -I",
                places.join(", ")
            ),
        )
    }

    fn pragma(&mut self, hash: &Token, line: &[Token], mode: Mode) -> Result<(), PosError> {
        match line.get(1) {
            Some(t) if t.is_ident("once") => {
                if let Some(f) = self.stack.last() {
                    self.once.insert(f.key.clone());
                }
                Ok(())
            }
            Some(t) if t.is_ident("TASS") => {
                if mode == Mode::Collect {
                    return pos_err(
                        hash.pos,
                        "#pragma TASS inside the arguments of a macro call is not supported",
                    );
                }
                self.tass_pragma(hash, line)
            }
            // OpenMP and OpenACC pragmas bring in threads, and `pack` changes
            // the struct layout: pass them on so the translator rejects them
            // by name instead of verifying a different program.
            Some(t) if t.is_ident("omp") || t.is_ident("acc") || t.is_ident("pack") => {
                let l = hash.pos.line;
                self.writer.fresh_line(hash.pos.file, l);
                for t in std::iter::once(hash).chain(line) {
                    self.writer.emit(t, Some(l));
                }
                Ok(())
            }
            // Other pragmas (GCC, STDC, ...) mean nothing to tass.
            _ => Ok(()),
        }
    }

    fn tass_pragma(&mut self, hash: &Token, line: &[Token]) -> Result<(), PosError> {
        let after = &line[2..];
        let first = after
            .first()
            .filter(|t| t.kind == Kind::Ident)
            .map(|t| &*t.text);
        let keywords = match first {
            Some("collective" | "joint") => 3.min(after.len()),
            Some("system") if after.get(1).is_some_and(|t| t.is_ident("guard")) => 2,
            Some(_) => 1,
            None => 0,
        };
        let rest = self
            .table
            .expand_list(after[keywords..].to_vec(), 0, &mut Budget::default())?;
        if let Some(t) = rest.iter().find(|t| t.kind == Kind::Unterminated) {
            return pos_err(t.pos, missing_quote_message(t));
        }
        if first == Some("input") {
            if let Some(name) = self.input_define_after_pragma() {
                let im = InputMacro {
                    name: name.to_string(),
                    pragma_text: join_tokens(&rest).trim().to_string(),
                    file: self.path_of(hash.pos.file),
                    line: hash.pos.line,
                };
                self.table.defs.remove(&name);
                self.table.never_expand.insert(name);
                self.input_macros.push(im);
                return Ok(());
            }
        }
        let l = hash.pos.line;
        self.writer.fresh_line(hash.pos.file, l);
        for t in std::iter::once(hash)
            .chain(&line[..2 + keywords])
            .chain(&rest)
        {
            self.writer.emit(t, Some(l));
        }
        Ok(())
    }

    /// If the next non-blank line of the current file is an object-like
    /// `#define NAME ...`, consumes it and returns NAME.
    fn input_define_after_pragma(&mut self) -> Option<Rc<str>> {
        let f = self.stack.last_mut()?;
        let mut j = f.idx;
        while f.toks[j].kind == Kind::Newline {
            j += 1;
        }
        let toks = &f.toks;
        let is_define = toks[j].bol
            && toks[j].is_punct("#")
            && toks.get(j + 1).is_some_and(|t| t.is_ident("define"))
            && toks.get(j + 2).is_some_and(|t| t.kind == Kind::Ident);
        if !is_define {
            return None;
        }
        let after = toks.get(j + 3)?;
        if after.is_punct("(") && !after.space {
            return None; // function-like: not an input
        }
        let name = toks[j + 2].text.clone();
        if matches!(&*name, "defined" | "__FILE__" | "__LINE__") {
            return None;
        }
        let mut k = j + 3;
        while !matches!(toks[k].kind, Kind::Newline | Kind::Eof) {
            k += 1;
        }
        f.idx = k;
        Some(name)
    }
}

/// The macro name after `#ifdef`, `#undef`, ... (`line` is the directive's
/// line after `#`, ending at `end`).
fn macro_name_operand<'l>(
    line: &'l [Token],
    end: Pos,
    directive: &str,
) -> Result<&'l Token, PosError> {
    match line.get(1).filter(|t| t.kind == Kind::Ident) {
        Some(n) => Ok(n),
        None => pos_err(
            line.get(1).map_or(end, |t| t.pos),
            format!("#{directive} needs a macro name"),
        ),
    }
}
