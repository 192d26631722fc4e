//! Parsing `#pragma TASS ...` lines (the syntax DESIGN.md lists).

use crate::ast::{unescape, Ast, AstError, AstKind, Pos, TypeName};
use tass_model::api::CollectiveKind;

/// A parsed TASS pragma.
#[derive(Debug)]
pub(crate) enum PragmaKind<'t> {
    Input {
        constraint: Option<Ast<'t>>,
        type_words: Vec<String>,
    },
    Output,
    Assume(Ast<'t>),
    Assert(Ast<'t>),
    CollectiveAssert {
        kind: CollectiveKind,
        id: String,
        expr: Ast<'t>,
    },
    Invariant {
        kind: CollectiveKind,
        id: String,
        expr: Ast<'t>,
    },
    System {
        guard: Option<Ast<'t>>,
    },
    Abstract,
    /// `#pragma TASS ltl ID FORMULA` (file scope).
    Ltl {
        id: String,
        formula: LtlAst<'t>,
        /// The formula's text.
        text: String,
    },
}

/// An LTL formula as parsed: atoms still C syntax.
#[derive(Clone, Debug)]
pub(crate) enum LtlAst<'t> {
    Constant(bool),
    /// `{EXPR}`.
    Condition(Ast<'t>),
    /// `PROC[e]@LABEL` or `PROC[e]@terminated`.
    At {
        rank: Ast<'t>,
        label: String,
        pos: Pos,
    },
    /// `!`, `X`, `G`, `F`.
    Unary(LtlUnary, Box<LtlAst<'t>>),
    /// `&&`, `||`, `->`, `<->`, `U`, `R`, `W`.
    Binary(LtlBinary, Box<LtlAst<'t>>, Box<LtlAst<'t>>),
}

impl<'t> LtlAst<'t> {
    /// `left op right`.
    fn binary(op: LtlBinary, left: LtlAst<'t>, right: LtlAst<'t>) -> LtlAst<'t> {
        LtlAst::Binary(op, Box::new(left), Box::new(right))
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LtlUnary {
    Not,
    Next,
    Always,
    Eventually,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum LtlBinary {
    And,
    Or,
    Implies,
    Iff,
    Until,
    Release,
    WeakUntil,
}

impl PragmaKind<'_> {
    pub(crate) fn keyword(&self) -> &'static str {
        match self {
            PragmaKind::Input { .. } => "input",
            PragmaKind::Output => "output",
            PragmaKind::Assume(_) => "assume",
            PragmaKind::Assert(_) => "assert",
            PragmaKind::CollectiveAssert { .. } => "collective assert",
            PragmaKind::Invariant { .. } => "invariant",
            PragmaKind::System { .. } => "system",
            PragmaKind::Abstract => "abstract",
            PragmaKind::Ltl { .. } => "ltl",
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Tok {
    Ident(String),
    Int(String),
    Float(String),
    Char(u8),
    Punct(&'static str),
    End,
}

const PUNCTS: &[&str] = &[
    "<<", ">>", "<=", ">=", "==", "!=", "&&", "||", "->", "+", "-", "*", "/", "%", "<", ">", "!",
    "~", "&", "|", "^", "?", ":", "(", ")", "[", "]", "{", "}", ".", ",", "@",
];

/// The C operators that change a variable (increments and assignments): a
/// pragma only reads the state, so these are refused by name rather than
/// misread (`g++` would otherwise lex as `g + +`).
fn side_effect_operator(rest: &str) -> Option<&'static str> {
    const CHANGING: &[&str] = &[
        "<<=", ">>=", "++", "--", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=",
    ];
    if let Some(op) = CHANGING.iter().find(|op| rest.starts_with(**op)) {
        return Some(op);
    }
    (rest.starts_with('=') && !rest.starts_with("==")).then_some("=")
}

struct Lexer {
    toks: Vec<(Tok, u32)>,
}

fn lex(text: &str, row: u32, col0: u32) -> Result<Lexer, AstError> {
    let b = text.as_bytes();
    let mut i = 0;
    let mut toks = Vec::new();
    let err = |i: usize, m: String| AstError {
        pos: Pos {
            row,
            col: col0 + i as u32,
            end_row: row,
            end_col: col0 + i as u32 + 1,
        },
        message: m,
    };
    'outer: while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            toks.push((Tok::Ident(text[start..i].to_string()), start as u32));
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && i + 1 < b.len() && b[i + 1].is_ascii_digit()) {
            let mut is_float = false;
            while i < b.len() {
                let d = b[i];
                if d.is_ascii_alphanumeric() || d == b'.' || d == b'_' {
                    if d == b'.' {
                        is_float = true;
                    }
                    if (d == b'e' || d == b'E') && !text[start..].starts_with("0x") {
                        is_float = true;
                        if i + 1 < b.len() && (b[i + 1] == b'+' || b[i + 1] == b'-') {
                            i += 1;
                        }
                    }
                    i += 1;
                } else {
                    break;
                }
            }
            let t = text[start..i].to_string();
            toks.push((
                if is_float { Tok::Float(t) } else { Tok::Int(t) },
                start as u32,
            ));
            continue;
        }
        if c == b'\'' {
            let mut j = i + 1;
            while j < b.len() && b[j] != b'\'' {
                if b[j] == b'\\' {
                    j += 1;
                }
                j += 1;
            }
            if j >= b.len() {
                return Err(err(i, "unterminated character constant in pragma".into()));
            }
            let bytes = unescape(&text[i + 1..j]);
            if bytes.len() != 1 {
                return Err(err(i, "character constant must hold one character".into()));
            }
            toks.push((Tok::Char(bytes[0]), start as u32));
            i = j + 1;
            continue;
        }
        if let Some(op) = side_effect_operator(&text[i..]) {
            return Err(AstError {
                pos: Pos {
                    row,
                    col: col0 + i as u32,
                    end_row: row,
                    end_col: col0 + (i + op.len()) as u32,
                },
                message: format!(
                    "`{op}` is not allowed in a pragma expression (it has side effects): a pragma \
                     only reads the state; compute the value in the program, or compare with \
                     `==` (for `x++ == v` write `x == v`)"
                ),
            });
        }
        for p in PUNCTS {
            if text[i..].starts_with(p) {
                toks.push((Tok::Punct(p), start as u32));
                i += p.len();
                continue 'outer;
            }
        }
        return Err(err(
            i,
            format!("unexpected character `{}` in pragma", c as char),
        ));
    }
    toks.push((Tok::End, b.len() as u32));
    Ok(Lexer { toks })
}

const TYPE_WORDS: &[&str] = &[
    "int", "long", "short", "unsigned", "signed", "char", "float", "double", "_Bool", "bool",
];

struct Parser {
    toks: Vec<(Tok, u32)>,
    at: usize,
    row: u32,
    col0: u32,
    /// True while parsing a quantifier's body outside any parentheses of its
    /// own: a quantifier after `&&` / `||` there would be nested in that body.
    in_bare_body: bool,
}

impl Parser {
    fn peek(&self) -> &Tok {
        &self.toks[self.at.min(self.toks.len() - 1)].0
    }
    fn peek2(&self) -> &Tok {
        &self.toks[(self.at + 1).min(self.toks.len() - 1)].0
    }
    fn col(&self) -> u32 {
        self.col0 + self.toks[self.at.min(self.toks.len() - 1)].1
    }
    fn pos(&self) -> Pos {
        let c = self.col();
        Pos {
            row: self.row,
            col: c,
            end_row: self.row,
            end_col: c + 1,
        }
    }
    fn pos_from(&self, start: u32) -> Pos {
        Pos {
            row: self.row,
            col: start,
            end_row: self.row,
            end_col: self.col().max(start + 1),
        }
    }
    fn bump(&mut self) -> Tok {
        let t = self.peek().clone();
        if self.at < self.toks.len() - 1 {
            self.at += 1;
        }
        t
    }
    fn describe(t: &Tok) -> String {
        match t {
            Tok::Ident(s) | Tok::Int(s) | Tok::Float(s) => format!("`{s}`"),
            Tok::Char(c) => format!("'{}'", *c as char),
            Tok::Punct(p) => format!("`{p}`"),
            Tok::End => "the end of the pragma".into(),
        }
    }
    /// A quantifier's body runs to the end of the expression, so in
    /// `forall {..} P && forall {..} Q` the second quantifier is inside the
    /// first one's body, which is rarely what was meant (a conjunction of two
    /// claims): ask for parentheses either way. `name` was just read.
    fn refuse_quantifier_joined_inside_a_body(&self, name: &str) -> Result<(), AstError> {
        let before = self.at.checked_sub(2).map(|k| &self.toks[k].0);
        let Some(Tok::Punct(op @ ("&&" | "||"))) = before else {
            return Ok(());
        };
        if !self.in_bare_body {
            return Ok(());
        }
        let col = self.col0 + self.toks[self.at - 1].1;
        Err(AstError {
            pos: Pos {
                row: self.row,
                col,
                end_row: self.row,
                end_col: col + name.len() as u32,
            },
            message: format!(
                "`{op} {name}` inside the body of another quantifier, which runs to the end of the expression: \
                 this `{name}` would be nested in that body, not joined to it. For two joined claims write \
                 `(forall {{...}} P) {op} {name} {{...}} Q`; for the nesting, parenthesise the outer body: \
                 `forall {{...}} (P {op} {name} {{...}} Q)`"
            ),
        })
    }

    fn error<T>(&self, expected: &str) -> Result<T, AstError> {
        Err(AstError {
            pos: self.pos(),
            message: format!(
                "expected {} in pragma, found {}",
                expected,
                Self::describe(self.peek())
            ),
        })
    }
    fn expect(&mut self, p: &'static str) -> Result<(), AstError> {
        if *self.peek() == Tok::Punct(p) {
            self.bump();
            Ok(())
        } else {
            self.error(&format!("`{p}`"))
        }
    }
    fn ident(&mut self, what: &str) -> Result<String, AstError> {
        match self.peek().clone() {
            Tok::Ident(s) => {
                self.bump();
                Ok(s)
            }
            _ => self.error(what),
        }
    }
    fn is_punct(&self, p: &str) -> bool {
        matches!(self.peek(), Tok::Punct(q) if *q == p)
    }
    fn type_words(&mut self) -> Vec<String> {
        let mut words = Vec::new();
        while let Tok::Ident(s) = self.peek() {
            if TYPE_WORDS.contains(&s.as_str()) {
                words.push(s.clone());
                self.bump();
            } else {
                break;
            }
        }
        words
    }

    fn expr<'t>(&mut self) -> Result<Ast<'t>, AstError> {
        let start = self.col();
        let _depth = crate::ast::NestingGuard::enter(self.pos())?;
        let c = self.binary(1)?;
        if self.is_punct("?") {
            self.bump();
            let a = self.expr()?;
            self.expect(":")?;
            let b = self.expr()?;
            return Ok(Ast {
                kind: AstKind::Cond(Box::new(c), Box::new(a), Box::new(b)),
                pos: self.pos_from(start),
            });
        }
        Ok(c)
    }

    fn binary<'t>(&mut self, min: u8) -> Result<Ast<'t>, AstError> {
        let start = self.col();
        let mut left = self.unary()?;
        while let Tok::Punct(op) = self.peek() {
            let op = *op;
            let Some(prec) = crate::ast::binary_precedence(op) else {
                break;
            };
            if prec < min {
                break;
            }
            self.bump();
            let right = self.binary(prec + 1)?;
            left = Ast {
                kind: AstKind::Binary(op.to_string(), Box::new(left), Box::new(right)),
                pos: self.pos_from(start),
            };
        }
        Ok(left)
    }

    fn unary<'t>(&mut self) -> Result<Ast<'t>, AstError> {
        let start = self.col();
        let _depth = crate::ast::NestingGuard::enter(self.pos())?;
        if let Tok::Punct(p) = self.peek().clone() {
            let op = match p {
                "-" => Some("-"),
                "+" => Some("+"),
                "!" => Some("!"),
                "~" => Some("~"),
                "*" => Some("*"),
                "&" => Some("&"),
                _ => None,
            };
            if let Some(op) = op {
                self.bump();
                let a = self.unary()?;
                return Ok(Ast {
                    kind: AstKind::Unary(op, Box::new(a)),
                    pos: self.pos_from(start),
                });
            }
            if p == "(" {
                if let Tok::Ident(w) = self.peek2() {
                    if TYPE_WORDS.contains(&w.as_str()) {
                        self.bump();
                        let words = self.type_words();
                        self.expect(")")?;
                        let a = self.unary()?;
                        return Ok(Ast {
                            kind: AstKind::Cast(TypeName::Words(words), Box::new(a)),
                            pos: self.pos_from(start),
                        });
                    }
                }
            }
        }
        self.postfix()
    }

    fn postfix<'t>(&mut self) -> Result<Ast<'t>, AstError> {
        let start = self.col();
        let mut e = self.primary()?;
        loop {
            if self.is_punct("[") {
                self.bump();
                let i = self.expr()?;
                self.expect("]")?;
                e = Ast {
                    kind: AstKind::Index(Box::new(e), Box::new(i)),
                    pos: self.pos_from(start),
                };
            } else if self.is_punct(".") || self.is_punct("->") {
                let arrow = self.is_punct("->");
                self.bump();
                let f = self.ident("a field name")?;
                e = Ast {
                    kind: AstKind::Member(Box::new(e), f, arrow),
                    pos: self.pos_from(start),
                };
            } else if self.is_punct("(") {
                self.bump();
                let mut args = Vec::new();
                if !self.is_punct(")") {
                    loop {
                        args.push(self.expr()?);
                        if self.is_punct(",") {
                            self.bump();
                        } else {
                            break;
                        }
                    }
                }
                self.expect(")")?;
                e = Ast {
                    kind: AstKind::Call(Box::new(e), args),
                    pos: self.pos_from(start),
                };
            } else {
                return Ok(e);
            }
        }
    }

    fn primary<'t>(&mut self) -> Result<Ast<'t>, AstError> {
        let start = self.col();
        let kind = match self.peek().clone() {
            Tok::Int(t) => {
                self.bump();
                AstKind::Int(t)
            }
            Tok::Float(t) => {
                self.bump();
                AstKind::Float(t)
            }
            Tok::Char(c) => {
                self.bump();
                AstKind::Char(c)
            }
            Tok::Punct("(") => {
                self.bump();
                let outer = std::mem::replace(&mut self.in_bare_body, false);
                let e = self.expr();
                self.in_bare_body = outer;
                let e = e?;
                self.expect(")")?;
                return Ok(e);
            }
            Tok::Ident(name) => {
                self.bump();
                match name.as_str() {
                    "PID" => AstKind::Pid,
                    "NPROCS" => AstKind::NProcs,
                    "true" => AstKind::Bool(true),
                    "false" => AstKind::Bool(false),
                    "forall" | "exists" => {
                        self.refuse_quantifier_joined_inside_a_body(&name)?;
                        self.expect("{")?;
                        let words = self.type_words();
                        if words.is_empty() {
                            return self.error("a type (`int` or `double`) for the bound variable");
                        }
                        let var = self.ident("the bound variable's name")?;
                        let outer = std::mem::replace(&mut self.in_bare_body, false);
                        let constraint = if self.is_punct("|") {
                            self.bump();
                            self.expr().map(|c| Some(Box::new(c)))
                        } else {
                            Ok(None)
                        };
                        let body = constraint.and_then(|constraint| {
                            self.expect("}")?;
                            self.in_bare_body = true;
                            Ok((constraint, self.expr()?))
                        });
                        self.in_bare_body = outer;
                        let (constraint, body) = body?;
                        AstKind::Quantifier {
                            forall: name == "forall",
                            ty: TypeName::Words(words),
                            var,
                            constraint,
                            body: Box::new(body),
                        }
                    }
                    "PROC" => {
                        self.expect("[")?;
                        let rank = self.expr()?;
                        self.expect("]")?;
                        let function = if self.is_punct("@") {
                            self.bump();
                            Some(self.ident("a function name after `@`")?)
                        } else {
                            None
                        };
                        self.expect(".")?;
                        let var = self.ident("a variable name")?;
                        AstKind::Proc {
                            rank: Box::new(rank),
                            function,
                            var,
                        }
                    }
                    "spec" if self.is_punct(".") => {
                        self.bump();
                        AstKind::Spec(self.ident("a variable name after `spec.`")?)
                    }
                    _ => AstKind::Ident(name),
                }
            }
            _ => return self.error("an expression"),
        };
        Ok(Ast {
            kind,
            pos: self.pos_from(start),
        })
    }

    /// An LTL formula: `<->` binds loosest, then `->` (to the right), `||`,
    /// `&&`, the binary temporal operators `U`, `R`, `W` (to the right), and
    /// the prefix operators `!`, `X`, `G`/`[]`, `F`/`<>`.
    fn ltl<'t>(&mut self) -> Result<LtlAst<'t>, AstError> {
        let _depth = crate::ast::NestingGuard::enter(self.pos())?;
        let left = self.ltl_implies()?;
        if self.is_punct("<") && matches!(self.peek2(), Tok::Punct("->")) {
            self.bump();
            self.bump();
            let right = self.ltl()?;
            return Ok(LtlAst::binary(LtlBinary::Iff, left, right));
        }
        Ok(left)
    }

    fn ltl_implies<'t>(&mut self) -> Result<LtlAst<'t>, AstError> {
        let left = self.ltl_or()?;
        if self.is_punct("->") {
            self.bump();
            let right = self.ltl_implies()?;
            return Ok(LtlAst::binary(LtlBinary::Implies, left, right));
        }
        Ok(left)
    }

    fn ltl_or<'t>(&mut self) -> Result<LtlAst<'t>, AstError> {
        self.ltl_grouped_left("||", LtlBinary::Or, Self::ltl_and)
    }

    fn ltl_and<'t>(&mut self) -> Result<LtlAst<'t>, AstError> {
        self.ltl_grouped_left("&&", LtlBinary::And, Self::ltl_until)
    }

    /// `operand (punct operand)*`, grouped to the left.
    fn ltl_grouped_left<'t>(
        &mut self,
        punct: &str,
        op: LtlBinary,
        operand: fn(&mut Self) -> Result<LtlAst<'t>, AstError>,
    ) -> Result<LtlAst<'t>, AstError> {
        let mut left = operand(self)?;
        while self.is_punct(punct) {
            self.bump();
            let right = operand(self)?;
            left = LtlAst::binary(op, left, right);
        }
        Ok(left)
    }

    fn ltl_until<'t>(&mut self) -> Result<LtlAst<'t>, AstError> {
        let left = self.ltl_unary()?;
        let op = match self.peek() {
            Tok::Ident(w) if w == "U" => LtlBinary::Until,
            Tok::Ident(w) if w == "R" => LtlBinary::Release,
            Tok::Ident(w) if w == "W" => LtlBinary::WeakUntil,
            _ => return Ok(left),
        };
        self.bump();
        let right = self.ltl_until()?;
        Ok(LtlAst::binary(op, left, right))
    }

    fn ltl_unary<'t>(&mut self) -> Result<LtlAst<'t>, AstError> {
        let _depth = crate::ast::NestingGuard::enter(self.pos())?;
        let op = match self.peek().clone() {
            Tok::Punct("!") => Some(LtlUnary::Not),
            Tok::Ident(w) if w == "X" => Some(LtlUnary::Next),
            Tok::Ident(w) if w == "G" => Some(LtlUnary::Always),
            Tok::Ident(w) if w == "F" => Some(LtlUnary::Eventually),
            Tok::Punct("[") if matches!(self.peek2(), Tok::Punct("]")) => {
                self.bump();
                Some(LtlUnary::Always)
            }
            Tok::Punct("<") if matches!(self.peek2(), Tok::Punct(">")) => {
                self.bump();
                Some(LtlUnary::Eventually)
            }
            _ => None,
        };
        if let Some(op) = op {
            self.bump();
            let inner = self.ltl_unary()?;
            return Ok(LtlAst::Unary(op, Box::new(inner)));
        }
        self.ltl_primary()
    }

    fn ltl_primary<'t>(&mut self) -> Result<LtlAst<'t>, AstError> {
        match self.peek().clone() {
            Tok::Punct("(") => {
                self.bump();
                let f = self.ltl()?;
                self.expect(")")?;
                Ok(f)
            }
            Tok::Punct("{") => {
                self.bump();
                let e = self.expr()?;
                self.expect("}")?;
                Ok(LtlAst::Condition(e))
            }
            Tok::Ident(w) if w == "true" || w == "false" => {
                self.bump();
                Ok(LtlAst::Constant(w == "true"))
            }
            Tok::Ident(w) if w == "PROC" => {
                let start = self.col();
                self.bump();
                self.expect("[")?;
                let rank = self.expr()?;
                self.expect("]")?;
                self.expect("@")?;
                let label = self.ident("a statement label or `terminated` after `@`")?;
                if self.is_punct(".") {
                    return self.error(
                        "a label: a data atom `PROC[e]@f.x` must be inside braces, `{PROC[e]@f.x == 1}`",
                    );
                }
                Ok(LtlAst::At {
                    rank,
                    label,
                    pos: self.pos_from(start),
                })
            }
            _ => self.error(
                "an LTL formula: `{condition}`, `PROC[e]@LABEL`, `true`, `false`, `(`, `!`, `X`, `G`, `F`, `[]` or `<>`",
            ),
        }
    }

    fn end(&self) -> Result<(), AstError> {
        if *self.peek() == Tok::End {
            Ok(())
        } else {
            Err(AstError {
                pos: self.pos(),
                message: format!(
                    "expected the end of the pragma, found {}",
                    Self::describe(self.peek())
                ),
            })
        }
    }
}

/// Parses the text after `#pragma TASS`. `row`/`col0` locate the text's
/// first byte in the preprocessed file, for error positions.
pub(crate) fn parse_pragma<'t>(
    text: &str,
    row: u32,
    col0: u32,
) -> Result<PragmaKind<'t>, AstError> {
    let lexer = lex(text, row, col0)?;
    let mut p = Parser {
        toks: lexer.toks,
        at: 0,
        row,
        col0,
        in_bare_body: false,
    };
    let kw_col = p.col();
    let keyword = match p.peek().clone() {
        Tok::Ident(k) => k,
        _ => {
            return p.error("a TASS pragma keyword (input, output, assume, assert, collective, joint, system, abstract, ltl)")
        }
    };
    p.bump();
    let kind = match keyword.as_str() {
        "input" => {
            let constraint = if p.is_punct("{") {
                p.bump();
                let c = p.expr()?;
                p.expect("}")?;
                Some(c)
            } else {
                None
            };
            let mut type_words = p.type_words();
            if let (true, Tok::Ident(name)) = (type_words.is_empty(), p.peek().clone()) {
                // a typedef name
                p.bump();
                type_words.push(name);
            }
            if let Tok::Ident(name) = p.peek().clone() {
                return Err(AstError {
                    pos: p.pos(),
                    message: format!(
                        "expected the end of the pragma, found `{name}`: the input pragma stands \
                         alone on the line before the declaration (`#pragma TASS input ...` then \
                         `int {name};` on the next line)"
                    ),
                });
            }
            PragmaKind::Input {
                constraint,
                type_words,
            }
        }
        "output" => PragmaKind::Output,
        "assume" => PragmaKind::Assume(p.expr()?),
        "assert" => PragmaKind::Assert(p.expr()?),
        "collective" | "joint" => {
            let kind = if keyword == "joint" {
                CollectiveKind::Joint
            } else {
                CollectiveKind::Collective
            };
            let what = p.ident("`assert` or `invariant`")?;
            let id = p.ident("a name (identifier) for the assertion")?;
            let expr = p.expr()?;
            match what.as_str() {
                "assert" => PragmaKind::CollectiveAssert { kind, id, expr },
                "invariant" => PragmaKind::Invariant { kind, id, expr },
                other => {
                    return Err(AstError {
                        pos: Pos {
                            row,
                            col: col0,
                            end_row: row,
                            end_col: col0 + 1,
                        },
                        message: format!(
                            "expected `assert` or `invariant` after `{keyword}`, found `{other}`"
                        ),
                    })
                }
            }
        }
        "system" => {
            if matches!(p.peek(), Tok::Ident(g) if g == "guard") {
                p.bump();
                PragmaKind::System {
                    guard: Some(p.expr()?),
                }
            } else {
                PragmaKind::System { guard: None }
            }
        }
        "abstract" => PragmaKind::Abstract,
        "ltl" => {
            let id = p.ident("a name (identifier) for the formula")?;
            let from = p.toks[p.at.min(p.toks.len() - 1)].1 as usize;
            let formula = p.ltl()?;
            PragmaKind::Ltl {
                id,
                formula,
                text: text.get(from..).unwrap_or("").trim().to_string(),
            }
        }
        other => {
            return Err(AstError {
                pos: Pos {
                    row,
                    col: kw_col,
                    end_row: row,
                    end_col: kw_col + other.len() as u32,
                },
                message: format!(
                    "unknown TASS pragma `{other}` (expected input, output, assume, assert, collective, joint, system, abstract or ltl)"
                ),
            })
        }
    };
    p.end()?;
    Ok(kind)
}
