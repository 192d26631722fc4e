//! Macro definitions and their expansion.
//!
//! Expansion follows Prosser's hide-set algorithm (the reference algorithm behind
//! C99 6.10.3): each token carries the set of macro names already being expanded
//! where it came from, and a name in its own token's hide set is never expanded
//! again. This gives the standard "blue paint" behaviour (`#define A A` is fine,
//! mutually recursive macros stop), while a budget on the number of tokens produced
//! turns a blow-up into an error instead of a hang.

use std::collections::HashMap;
use std::rc::Rc;

use super::lex::{single_token, FastMap, FastSet, HideSet, Kind, Pos, Token};

/// The body of a macro, with parameters and operators resolved at definition time.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum BodyItem {
    Tok(Token),
    /// A use of parameter `index`.
    Param {
        index: usize,
        space: bool,
    },
    /// `# param`.
    Stringize {
        index: usize,
        space: bool,
    },
    /// `##`.
    Paste,
}

impl PartialEq for Token {
    /// Same spelling and spacing: what makes two macro definitions identical.
    fn eq(&self, other: &Token) -> bool {
        self.kind == other.kind && self.text == other.text && self.space == other.space
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Builtin {
    File,
    Line,
}

#[derive(Debug, Clone)]
pub(crate) struct Macro {
    pub name: Rc<str>,
    /// `None` for an object-like macro; the parameter names otherwise (a variadic
    /// macro's last parameter is `__VA_ARGS__`).
    pub params: Option<Vec<Rc<str>>>,
    pub variadic: bool,
    pub body: Vec<BodyItem>,
    pub builtin: Option<Builtin>,
    /// `{name}`, the hide set every expansion of this macro adds.
    pub own_hide: Rc<Vec<Rc<str>>>,
}

impl Macro {
    pub fn same_definition(&self, other: &Macro) -> bool {
        self.params == other.params && self.variadic == other.variadic && self.body == other.body
    }
}

/// An error at a position in the sources.
#[derive(Debug, Clone)]
pub(crate) struct PosError {
    pub pos: Pos,
    pub message: String,
}

pub(crate) fn pos_err<T>(pos: Pos, message: impl Into<String>) -> Result<T, PosError> {
    Err(PosError {
        pos,
        message: message.into(),
    })
}

/// Parses the tokens of a `#define` after the directive name (`NAME ...`).
/// `end` is the position of the end of the line, for errors there.
pub(crate) fn parse_define(toks: &[Token], end: Pos) -> Result<Macro, PosError> {
    let Some(name_tok) = toks.first() else {
        return pos_err(end, "macro name missing after #define");
    };
    if name_tok.kind != Kind::Ident {
        return pos_err(
            name_tok.pos,
            format!(
                "macro names must be identifiers, found \"{}\"",
                name_tok.text
            ),
        );
    }
    if &*name_tok.text == "defined" {
        return pos_err(name_tok.pos, "\"defined\" cannot be used as a macro name");
    }
    let mut i = 1;
    let mut params = None;
    let mut variadic = false;
    if toks.get(1).is_some_and(|t| t.is_punct("(") && !t.space) {
        i = 2;
        let mut names: Vec<Rc<str>> = Vec::new();
        loop {
            let Some(t) = toks.get(i) else {
                return pos_err(
                    end,
                    format!(
                        "missing ')' in the parameter list of macro \"{}\"",
                        name_tok.text
                    ),
                );
            };
            i += 1;
            if t.is_punct(")") && names.is_empty() {
                break;
            }
            if t.is_punct("...") {
                variadic = true;
                names.push(Rc::from("__VA_ARGS__"));
            } else if t.kind == Kind::Ident && &*t.text != "__VA_ARGS__" {
                if names.contains(&t.text) {
                    return pos_err(t.pos, format!("duplicate macro parameter \"{}\"", t.text));
                }
                names.push(t.text.clone());
            } else {
                return pos_err(
                    t.pos,
                    format!("expected a parameter name, found \"{}\"", t.text),
                );
            }
            match toks.get(i) {
                Some(t) if t.is_punct(")") => {
                    i += 1;
                    break;
                }
                Some(t) if t.is_punct(",") && !variadic => i += 1,
                Some(t) => {
                    return pos_err(t.pos, format!("expected ',' or ')' in the parameter list of macro \"{}\", found \"{}\"", name_tok.text, t.text));
                }
                None => {
                    return pos_err(
                        end,
                        format!(
                            "missing ')' in the parameter list of macro \"{}\"",
                            name_tok.text
                        ),
                    );
                }
            }
        }
        params = Some(names);
    }
    let rest = &toks[i..];
    let param_index = |t: &Token| -> Option<usize> {
        if t.kind != Kind::Ident {
            return None;
        }
        params.as_ref()?.iter().position(|p| *p == t.text)
    };
    let mut body = Vec::with_capacity(rest.len());
    let mut j = 0;
    while j < rest.len() {
        let t = &rest[j];
        if t.is_punct("##") {
            if body.is_empty() || j + 1 == rest.len() {
                return pos_err(t.pos, "'##' cannot appear at either end of a macro body");
            }
            body.push(BodyItem::Paste);
        } else if t.is_punct("#") && params.is_some() {
            match rest.get(j + 1).and_then(param_index) {
                Some(index) => {
                    body.push(BodyItem::Stringize {
                        index,
                        space: t.space && !body.is_empty(),
                    });
                    j += 1;
                }
                None => return pos_err(t.pos, "'#' is not followed by a macro parameter"),
            }
        } else if let Some(index) = param_index(t) {
            body.push(BodyItem::Param {
                index,
                space: t.space && !body.is_empty(),
            });
        } else {
            if t.is_ident("__VA_ARGS__") {
                return pos_err(
                    t.pos,
                    "__VA_ARGS__ can only appear in the body of a variadic macro",
                );
            }
            let mut t = t.clone();
            t.space = t.space && !body.is_empty();
            t.bol = false;
            body.push(BodyItem::Tok(t));
        }
        j += 1;
    }
    Ok(Macro {
        name: name_tok.text.clone(),
        params,
        variadic,
        body,
        builtin: None,
        own_hide: Rc::new(vec![name_tok.text.clone()]),
    })
}

/// Caps that turn runaway expansion into an error.
pub(crate) const MAX_EXPANSION_TOKENS: u64 = 2_000_000;
pub(crate) const MAX_EXPANSION_DEPTH: u32 = 200;

/// Work done for the current top-level expansion.
#[derive(Debug, Default)]
pub(crate) struct Budget {
    pub produced: u64,
    /// The macro whose expansion started this work (named in the error).
    pub outermost: Option<Rc<str>>,
}

impl Budget {
    fn spend(&mut self, n: usize, at: &Token, name: &Rc<str>) -> Result<(), PosError> {
        self.produced += 1 + n as u64;
        let name = self.outermost.get_or_insert_with(|| name.clone());
        if self.produced > MAX_EXPANSION_TOKENS {
            return pos_err(
                at.pos,
                format!(
                    "expansion of macro \"{name}\" produced more than {MAX_EXPANSION_TOKENS} tokens; \
                     check for macros defined in terms of each other that grow without end"
                ),
            );
        }
        Ok(())
    }
}

/// The macro table plus the names that must never be expanded (TASS inputs).
#[derive(Debug, Default)]
pub(crate) struct MacroTable {
    pub defs: FastMap<Rc<str>, Rc<Macro>>,
    pub never_expand: FastSet<Rc<str>>,
    /// Presumed file name and line offset (from `#line`) per file id, for `__FILE__`
    /// and `__LINE__`.
    pub presumed: HashMap<u32, (Option<String>, i64)>,
    pub file_names: Vec<String>,
}

/// The arguments of a function-like macro call, as written.
pub(crate) struct CallArgs {
    pub args: Vec<Vec<Token>>,
    pub rparen: Token,
}

/// Collects the arguments after the `(` of a call to `m` (named by `name`), pulling
/// tokens from `next`; `None` from `next` means the input ended first.
pub(crate) fn collect_args(
    m: &Macro,
    name: &Token,
    next: &mut dyn FnMut() -> Result<Option<Token>, PosError>,
) -> Result<CallArgs, PosError> {
    let nparams = m.params.as_ref().map_or(0, Vec::len);
    let mut args: Vec<Vec<Token>> = vec![Vec::new()];
    let mut depth = 0u32;
    loop {
        let Some(mut t) = next()? else {
            return pos_err(
                name.pos,
                format!(
                    "unterminated argument list invoking macro \"{}\": no closing ')'",
                    name.text
                ),
            );
        };
        if t.kind == Kind::Unterminated {
            return pos_err(t.pos, missing_quote_message(&t));
        }
        if t.kind == Kind::Punct {
            match &*t.text {
                "(" => depth += 1,
                ")" if depth == 0 => {
                    return finish_args(m, name, args, nparams, t);
                }
                ")" => depth -= 1,
                "," if depth == 0 && !(m.variadic && args.len() == nparams) => {
                    args.push(Vec::new());
                    continue;
                }
                _ => {}
            }
        }
        if let Some(current) = args.last_mut() {
            if current.is_empty() {
                t.space = false;
            }
            t.bol = false;
            current.push(t);
        }
    }
}

fn finish_args(
    m: &Macro,
    name: &Token,
    mut args: Vec<Vec<Token>>,
    nparams: usize,
    rparen: Token,
) -> Result<CallArgs, PosError> {
    if nparams == 0 && args.len() == 1 && args[0].is_empty() {
        args.clear();
    }
    if m.variadic && args.len() + 1 == nparams {
        args.push(Vec::new());
    }
    if args.len() != nparams {
        let message = if args.len() > nparams {
            format!(
                "macro \"{}\" passed {} arguments, but takes just {}",
                name.text,
                args.len(),
                nparams
            )
        } else {
            format!(
                "macro \"{}\" requires {} arguments, but only {} given",
                name.text,
                nparams,
                args.len()
            )
        };
        return pos_err(name.pos, message);
    }
    Ok(CallArgs { args, rparen })
}

pub(crate) fn missing_quote_message(t: &Token) -> String {
    let q = if t.text.contains('"') { '"' } else { '\'' };
    format!("missing terminating {q} character")
}

fn hide_with(hide: &HideSet, extra: &HideSet) -> HideSet {
    match (hide, extra) {
        (None, e) => e.clone(),
        (h, None) => h.clone(),
        (Some(h), Some(e)) if Rc::ptr_eq(h, e) || e.iter().all(|n| h.contains(n)) => {
            Some(h.clone())
        }
        (Some(h), Some(e)) => {
            let mut v: Vec<Rc<str>> = h.as_ref().clone();
            for n in e.iter() {
                if !v.contains(n) {
                    v.push(n.clone());
                }
            }
            Some(Rc::new(v))
        }
    }
}

fn intersect(a: &HideSet, b: &HideSet) -> HideSet {
    match (a, b) {
        (Some(a), Some(b)) => {
            let v: Vec<Rc<str>> = a.iter().filter(|n| b.contains(n)).cloned().collect();
            (!v.is_empty()).then(|| Rc::new(v))
        }
        _ => None,
    }
}

fn stringize(arg: &[Token], pos: Pos) -> Token {
    let mut s = String::from("\"");
    for (k, t) in arg.iter().enumerate() {
        if k > 0 && t.space {
            s.push(' ');
        }
        if matches!(t.kind, Kind::Str | Kind::Char | Kind::Unterminated) {
            for c in t.text.chars() {
                if c == '"' || c == '\\' {
                    s.push('\\');
                }
                s.push(c);
            }
        } else {
            s.push_str(&t.text);
        }
    }
    s.push('"');
    Token::new(Kind::Str, &s, pos)
}

impl MacroTable {
    /// The macro `t` names, if it is to be expanded here.
    pub fn lookup(&self, t: &Token) -> Option<Rc<Macro>> {
        if t.kind != Kind::Ident {
            return None;
        }
        let m = self.defs.get(&*t.text)?;
        if t.is_hidden(&t.text) || self.never_expand.contains(&*t.text) {
            return None;
        }
        Some(m.clone())
    }

    fn builtin_token(&self, b: Builtin, at: &Token) -> Token {
        let (name, delta) = self
            .presumed
            .get(&at.pos.file)
            .cloned()
            .unwrap_or((None, 0));
        match b {
            Builtin::Line => {
                let line = (i64::from(at.pos.line) + delta).max(0);
                Token::new(Kind::Number, &line.to_string(), at.pos)
            }
            Builtin::File => {
                let name = name.unwrap_or_else(|| {
                    self.file_names
                        .get(at.pos.file as usize)
                        .cloned()
                        .unwrap_or_default()
                });
                let mut s = String::from("\"");
                for c in name.chars() {
                    if c == '"' || c == '\\' {
                        s.push('\\');
                    }
                    s.push(c);
                }
                s.push('"');
                Token::new(Kind::Str, &s, at.pos)
            }
        }
    }

    /// The replacement of one invocation of `m` at `name`, before rescanning.
    pub fn substitute(
        &self,
        m: &Macro,
        name: &Token,
        call: Option<CallArgs>,
        depth: u32,
        budget: &mut Budget,
    ) -> Result<Vec<Token>, PosError> {
        if let Some(b) = m.builtin {
            let mut t = self.builtin_token(b, name);
            t.space = name.space;
            t.expanded = true;
            budget.spend(1, name, &m.name)?;
            return Ok(vec![t]);
        }
        let (args, hs) = match call {
            None => (Vec::new(), hide_with(&name.hide, &Some(m.own_hide.clone()))),
            Some(c) => {
                let both = intersect(&name.hide, &c.rparen.hide);
                (c.args, hide_with(&both, &Some(m.own_hide.clone())))
            }
        };
        let mut expanded: Vec<Option<Vec<Token>>> = vec![None; args.len()];
        let mut items: Vec<Token> = Vec::with_capacity(m.body.len());
        let pasting = |k: usize| -> bool {
            matches!(m.body.get(k + 1), Some(BodyItem::Paste))
                || (k > 0 && matches!(m.body.get(k - 1), Some(BodyItem::Paste)))
        };
        let placemarker = |space: bool| {
            let mut t = Token::new(Kind::Placemarker, "", name.pos);
            t.space = space;
            t
        };
        let mut k = 0;
        while k < m.body.len() {
            match &m.body[k] {
                BodyItem::Tok(t) => {
                    // GNU `, ## __VA_ARGS__`: drop the comma when there are no
                    // variable arguments, else keep it and do not paste.
                    if t.is_punct(",")
                        && m.variadic
                        && matches!(m.body.get(k + 1), Some(BodyItem::Paste))
                        && matches!(m.body.get(k + 2), Some(BodyItem::Param { index, .. }) if *index + 1 == args.len())
                    {
                        let va = &args[args.len() - 1];
                        if !va.is_empty() {
                            items.push(t.clone());
                            let mut first = true;
                            for a in va {
                                let mut a = a.clone();
                                if first {
                                    a.space = true;
                                    first = false;
                                }
                                items.push(a);
                            }
                        }
                        k += 3;
                        continue;
                    }
                    items.push(t.clone());
                }
                BodyItem::Paste => items.push(Token::new(Kind::Paste, "##", name.pos)),
                BodyItem::Stringize { index, space } => {
                    let mut t = stringize(&args[*index], name.pos);
                    t.space = *space;
                    items.push(t);
                }
                BodyItem::Param { index, space } => {
                    let arg: &[Token] = if pasting(k) {
                        &args[*index]
                    } else {
                        if expanded[*index].is_none() {
                            expanded[*index] =
                                Some(self.expand_list(args[*index].clone(), depth + 1, budget)?);
                        }
                        expanded[*index].as_deref().unwrap_or(&[])
                    };
                    if arg.is_empty() {
                        if pasting(k) {
                            items.push(placemarker(*space));
                        }
                    } else {
                        for (n, a) in arg.iter().enumerate() {
                            let mut a = a.clone();
                            if n == 0 {
                                a.space = *space;
                            }
                            items.push(a);
                        }
                    }
                }
            }
            k += 1;
        }
        let mut out = if m.body.contains(&BodyItem::Paste) {
            self.paste(m, name, items)?
        } else {
            items
        };
        for (n, t) in out.iter_mut().enumerate() {
            t.pos = name.pos;
            t.bol = false;
            t.hide = hide_with(&t.hide, &hs);
            t.expanded = true;
            if n == 0 {
                t.space = name.space;
            }
        }
        budget.spend(out.len(), name, &m.name)?;
        Ok(out)
    }

    /// Applies the `##` operators in `items`, left to right, and drops placemarkers.
    fn paste(&self, m: &Macro, name: &Token, items: Vec<Token>) -> Result<Vec<Token>, PosError> {
        let mut out: Vec<Token> = Vec::with_capacity(items.len());
        let mut it = items.into_iter();
        while let Some(t) = it.next() {
            if t.kind != Kind::Paste {
                out.push(t);
                continue;
            }
            let (Some(lhs), Some(rhs)) = (out.pop(), it.next()) else {
                return pos_err(name.pos, "'##' without an operand");
            };
            let glued = if lhs.kind == Kind::Placemarker {
                rhs
            } else if rhs.kind == Kind::Placemarker {
                lhs
            } else {
                let joined = format!("{}{}", lhs.text, rhs.text);
                match single_token(&joined, name.pos) {
                    Some(mut g) => {
                        g.space = lhs.space;
                        g.hide = lhs.hide.clone();
                        g
                    }
                    None => {
                        return pos_err(
                            name.pos,
                            format!(
                                "pasting \"{}\" and \"{}\" in macro \"{}\" does not give a valid preprocessing token",
                                lhs.text, rhs.text, m.name
                            ),
                        )
                    }
                }
            };
            out.push(glued);
        }
        out.retain(|t| t.kind != Kind::Placemarker);
        Ok(out)
    }

    /// Fully macro-expands `input` on its own (a macro argument, a `#if` line, a
    /// pragma): a function-like macro name at the end does not look further.
    pub fn expand_list(
        &self,
        input: Vec<Token>,
        depth: u32,
        budget: &mut Budget,
    ) -> Result<Vec<Token>, PosError> {
        if let Some(first) = input.first() {
            if depth > MAX_EXPANSION_DEPTH {
                return pos_err(
                    first.pos,
                    format!("macro expansion nested more than {MAX_EXPANSION_DEPTH} levels deep"),
                );
            }
        }
        let mut stack: Vec<Token> = input;
        stack.reverse();
        let mut out = Vec::with_capacity(stack.len());
        while let Some(t) = stack.pop() {
            let Some(m) = self.lookup(&t) else {
                out.push(t);
                continue;
            };
            let call = if m.params.is_some() {
                if !stack.last().is_some_and(|p| p.is_punct("(")) {
                    out.push(t);
                    continue;
                }
                stack.pop();
                Some(collect_args(&m, &t, &mut || Ok(stack.pop()))?)
            } else {
                None
            };
            let r = self.substitute(&m, &t, call, depth, budget)?;
            stack.extend(r.into_iter().rev());
            if stack.len() as u64 > MAX_EXPANSION_TOKENS {
                return pos_err(
                    t.pos,
                    format!("expansion of macro \"{}\" is too large", m.name),
                );
            }
        }
        Ok(out)
    }
}
