//! A small expression AST shared by C expressions (converted from
//! tree-sitter nodes) and TASS pragma expressions (parsed by `pragma.rs`), so
//! that one translator handles both.

use tree_sitter::Node;

/// A position in the preprocessed text (0-based row and column).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Pos {
    pub row: u32,
    pub col: u32,
    pub end_row: u32,
    pub end_col: u32,
}

impl Pos {
    pub(crate) fn of(node: Node<'_>) -> Pos {
        let s = node.start_position();
        let e = node.end_position();
        Pos {
            row: s.row as u32,
            col: s.column as u32,
            end_row: e.row as u32,
            end_col: e.column as u32,
        }
    }
}

/// The deepest nesting of expressions, statements and declarators the front
/// end accepts (deeper input is an error, not a stack overflow).
pub(crate) const MAX_NESTING: usize = 1000;

thread_local! {
    static NESTING: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

/// Counts one level of recursion while alive.
pub(crate) struct NestingGuard(());

impl NestingGuard {
    pub(crate) fn enter(pos: Pos) -> Result<NestingGuard, AstError> {
        NESTING.with(|n| {
            if n.get() >= MAX_NESTING {
                Err(AstError {
                    pos,
                    message: format!(
                        "the program is nested too deeply (more than {MAX_NESTING} levels)"
                    ),
                })
            } else {
                n.set(n.get() + 1);
                Ok(NestingGuard(()))
            }
        })
    }
}

impl Drop for NestingGuard {
    fn drop(&mut self) {
        NESTING.with(|n| n.set(n.get().saturating_sub(1)));
    }
}

/// A type name in a cast, `sizeof` or quantifier.
#[derive(Clone, Debug)]
pub(crate) enum TypeName<'t> {
    /// A tree-sitter `type_descriptor`.
    Node(Node<'t>),
    /// Type keywords from a pragma (`int`, `double`, `unsigned long`).
    Words(Vec<String>),
}

#[derive(Clone, Debug)]
pub(crate) struct Ast<'t> {
    pub kind: AstKind<'t>,
    pub pos: Pos,
}

#[derive(Clone, Debug)]
pub(crate) enum AstKind<'t> {
    Ident(String),
    Int(String),
    Float(String),
    Char(u8),
    Str(Vec<u8>),
    Bool(bool),
    Null,
    /// `-` `+` `!` `~` `*` `&`
    Unary(&'static str, Box<Ast<'t>>),
    /// C binary operator text, including `&&` and `||`.
    Binary(String, Box<Ast<'t>>, Box<Ast<'t>>),
    /// `=` (None) or compound `op=` (Some(op)).
    Assign(Option<String>, Box<Ast<'t>>, Box<Ast<'t>>),
    Update {
        increment: bool,
        prefix: bool,
        arg: Box<Ast<'t>>,
    },
    Call(Box<Ast<'t>>, Vec<Ast<'t>>),
    Index(Box<Ast<'t>>, Box<Ast<'t>>),
    Member(Box<Ast<'t>>, String, bool),
    Cast(TypeName<'t>, Box<Ast<'t>>),
    SizeofType(TypeName<'t>),
    /// `offsetof(type, member)`.
    OffsetOf(TypeName<'t>, String),
    SizeofExpr(Box<Ast<'t>>),
    Cond(Box<Ast<'t>>, Box<Ast<'t>>, Box<Ast<'t>>),
    Comma(Box<Ast<'t>>, Box<Ast<'t>>),
    // pragma-only forms
    Quantifier {
        forall: bool,
        ty: TypeName<'t>,
        var: String,
        constraint: Option<Box<Ast<'t>>>,
        body: Box<Ast<'t>>,
    },
    Proc {
        rank: Box<Ast<'t>>,
        function: Option<String>,
        var: String,
    },
    Spec(String),
    Pid,
    NProcs,
}

/// An unsupported or malformed construct found while converting.
#[derive(Debug)]
pub(crate) struct AstError {
    pub pos: Pos,
    pub message: String,
}

thread_local! {
    static FIELD_IDS: std::cell::RefCell<std::collections::HashMap<&'static str, u16>> =
        std::cell::RefCell::new(std::collections::HashMap::new());
}

/// `node.child_by_field_name(name)` with the field id looked up once
/// (tree-sitter compares the name with every field name on each call).
pub(crate) fn child<'t>(node: Node<'t>, name: &'static str) -> Option<Node<'t>> {
    let id = FIELD_IDS.with(|ids| {
        *ids.borrow_mut().entry(name).or_insert_with(|| {
            node.language()
                .field_id_for_name(name)
                .map(|f| f.get())
                .unwrap_or(0)
        })
    });
    if id == 0 {
        return None;
    }
    node.child_by_field_id(id)
}

pub(crate) fn text<'a>(node: Node<'_>, src: &'a str) -> &'a str {
    src.get(node.byte_range()).unwrap_or("")
}

fn field<'t>(node: Node<'t>, name: &'static str) -> Result<Node<'t>, AstError> {
    child(node, name).ok_or_else(|| AstError {
        pos: Pos::of(node),
        message: format!("malformed {}: missing {}", node.kind(), name),
    })
}

fn bx<'t>(node: Node<'t>, name: &'static str, src: &str) -> Result<Box<Ast<'t>>, AstError> {
    Ok(Box::new(convert(field(node, name)?, src)?))
}

/// The precedence of a C binary operator, from 1 (`||`) to 10 (`*`, `/`,
/// `%`); `None` for anything else.
pub(crate) fn binary_precedence(op: &str) -> Option<u8> {
    Some(match op {
        "||" => 1,
        "&&" => 2,
        "|" => 3,
        "^" => 4,
        "&" => 5,
        "==" | "!=" => 6,
        "<" | "<=" | ">" | ">=" => 7,
        "<<" | ">>" => 8,
        "+" | "-" => 9,
        "*" | "/" | "%" => 10,
        _ => return None,
    })
}

/// Decodes the escapes of a C character or string literal body.
pub(crate) fn unescape(body: &str) -> Vec<u8> {
    let b = body.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i] != b'\\' || i + 1 >= b.len() {
            out.push(b[i]);
            i += 1;
            continue;
        }
        i += 1;
        let c = b[i];
        i += 1;
        match c {
            b'n' => out.push(b'\n'),
            b't' => out.push(b'\t'),
            b'r' => out.push(b'\r'),
            b'a' => out.push(7),
            b'b' => out.push(8),
            b'f' => out.push(12),
            b'v' => out.push(11),
            b'x' => {
                let mut v: u32 = 0;
                while i < b.len() && (b[i] as char).is_ascii_hexdigit() {
                    v = v.wrapping_mul(16) + (b[i] as char).to_digit(16).unwrap_or(0);
                    i += 1;
                }
                out.push(v as u8);
            }
            b'0'..=b'7' => {
                let mut v: u32 = (c - b'0') as u32;
                let mut n = 1;
                while n < 3 && i < b.len() && (b'0'..=b'7').contains(&b[i]) {
                    v = v * 8 + (b[i] - b'0') as u32;
                    i += 1;
                    n += 1;
                }
                out.push(v as u8);
            }
            other => out.push(other),
        }
    }
    out
}

fn string_bytes(node: Node<'_>, src: &str) -> Vec<u8> {
    let t = text(node, src);
    let start = t.find('"').map(|i| i + 1).unwrap_or(0);
    let end = t.rfind('"').unwrap_or(t.len()).max(start);
    unescape(&t[start..end])
}

/// A number: floating if it has a fraction or exponent, integer otherwise.
fn number_literal<'t>(t: &str) -> AstKind<'t> {
    let lower = t.to_ascii_lowercase();
    let is_hex = lower.starts_with("0x");
    if (!is_hex && (lower.contains('.') || lower.contains('e'))) || (is_hex && lower.contains('p'))
    {
        AstKind::Float(t.to_string())
    } else {
        AstKind::Int(t.to_string())
    }
}

/// A number whose token carries a sign (tree-sitter's C grammar reads `-1` as
/// one literal). C has no negative integer constants: `-2147483648` is `-`
/// applied to `2147483648`, a `long`, and `-0x80000000` is `-` applied to an
/// `unsigned`, so the sign of an integer becomes a unary operator. (Floating
/// literals keep their sign: `-0.0` is read as negative zero either way.)
fn signed_number_literal<'t>(t: &str, pos: Pos) -> AstKind<'t> {
    let Some((op, digits)) = t
        .strip_prefix('-')
        .map(|d| ("-", d))
        .or_else(|| t.strip_prefix('+').map(|d| ("+", d)))
    else {
        return number_literal(t);
    };
    match number_literal(digits.trim_start()) {
        kind @ AstKind::Int(_) => AstKind::Unary(op, Box::new(Ast { kind, pos })),
        _ => number_literal(t),
    }
}

/// A character constant holding exactly one character (after escapes).
fn char_literal<'t>(node: Node<'t>, src: &str) -> Result<AstKind<'t>, AstError> {
    let t = text(node, src);
    let start = t.find('\'').map(|i| i + 1).unwrap_or(0);
    let end = t.rfind('\'').unwrap_or(t.len()).max(start);
    let bytes = unescape(&t[start..end]);
    if bytes.len() != 1 {
        return Err(AstError {
            pos: Pos::of(node),
            message: format!("character constant {t} must hold exactly one character"),
        });
    }
    Ok(AstKind::Char(bytes[0]))
}

/// Adjacent string literals, one string (a macro among them is not supported).
fn concatenated_string<'t>(node: Node<'t>, src: &str) -> Result<AstKind<'t>, AstError> {
    let mut all = Vec::new();
    let mut c = node.walk();
    for ch in node.named_children(&mut c) {
        if ch.kind() != "string_literal" {
            return Err(AstError {
                pos: Pos::of(node),
                message: "string concatenation with a macro is not supported".into(),
            });
        }
        all.extend(string_bytes(ch, src));
    }
    Ok(AstKind::Str(all))
}

/// The unary operators tass takes (`sizeof` and casts have nodes of their own).
fn unary_operator(op: Node<'_>, src: &str, pos: Pos) -> Result<&'static str, AstError> {
    Ok(match text(op, src) {
        "-" => "-",
        "+" => "+",
        "!" => "!",
        "~" => "~",
        "*" => "*",
        "&" => "&",
        other => {
            return Err(AstError {
                pos,
                message: format!("unary operator `{other}` is not supported"),
            })
        }
    })
}

/// Converts a tree-sitter expression node into the AST.
/// [`convert`] for a full expression (a statement's expression, a condition, an
/// initializer, a `return` value, a `for` clause): also refuses unsequenced
/// side effects on one object ([`crate::sequence`]).
pub(crate) fn convert_full<'t>(node: Node<'t>, src: &str) -> Result<Ast<'t>, AstError> {
    let ast = convert(node, src)?;
    crate::sequence::check_full_expression(&ast)?;
    Ok(ast)
}

pub(crate) fn convert<'t>(node: Node<'t>, src: &str) -> Result<Ast<'t>, AstError> {
    let pos = Pos::of(node);
    let _depth = NestingGuard::enter(pos)?;
    let unsupported = |what: &str| AstError {
        pos,
        message: format!("{what} is not supported"),
    };
    let kind = match node.kind() {
        "identifier" => AstKind::Ident(text(node, src).to_string()),
        "number_literal" => signed_number_literal(text(node, src), pos),
        "char_literal" => char_literal(node, src)?,
        "string_literal" => AstKind::Str(string_bytes(node, src)),
        "concatenated_string" => concatenated_string(node, src)?,
        "true" => AstKind::Bool(true),
        "false" => AstKind::Bool(false),
        "null" => AstKind::Null,
        "parenthesized_expression" => {
            let inner = node
                .named_child(0)
                .ok_or_else(|| unsupported("empty parentheses"))?;
            return convert(inner, src);
        }
        "binary_expression" => {
            let op = text(field(node, "operator")?, src).to_string();
            AstKind::Binary(op, bx(node, "left", src)?, bx(node, "right", src)?)
        }
        "unary_expression" | "pointer_expression" => {
            let op = unary_operator(field(node, "operator")?, src, pos)?;
            AstKind::Unary(op, bx(node, "argument", src)?)
        }
        "update_expression" => {
            let op = field(node, "operator")?;
            let arg = field(node, "argument")?;
            AstKind::Update {
                increment: text(op, src) == "++",
                prefix: op.start_byte() < arg.start_byte(),
                arg: Box::new(convert(arg, src)?),
            }
        }
        "assignment_expression" => {
            let op = text(field(node, "operator")?, src);
            let op = if op == "=" {
                None
            } else {
                Some(op.trim_end_matches('=').to_string())
            };
            AstKind::Assign(op, bx(node, "left", src)?, bx(node, "right", src)?)
        }
        "call_expression" => {
            let f = bx(node, "function", src)?;
            let args_node = field(node, "arguments")?;
            let mut args = Vec::new();
            let mut c = args_node.walk();
            for a in args_node.named_children(&mut c) {
                if a.kind() != "comment" {
                    args.push(convert(a, src)?);
                }
            }
            AstKind::Call(f, args)
        }
        "subscript_expression" => {
            AstKind::Index(bx(node, "argument", src)?, bx(node, "index", src)?)
        }
        "field_expression" => {
            let op = text(field(node, "operator")?, src);
            let name = text(field(node, "field")?, src).to_string();
            AstKind::Member(bx(node, "argument", src)?, name, op == "->")
        }
        "cast_expression" => AstKind::Cast(
            TypeName::Node(field(node, "type")?),
            bx(node, "value", src)?,
        ),
        "sizeof_expression" => {
            if let Some(t) = child(node, "type") {
                AstKind::SizeofType(TypeName::Node(t))
            } else {
                AstKind::SizeofExpr(bx(node, "value", src)?)
            }
        }
        "conditional_expression" => AstKind::Cond(
            bx(node, "condition", src)?,
            bx(node, "consequence", src)?,
            bx(node, "alternative", src)?,
        ),
        "comma_expression" => AstKind::Comma(bx(node, "left", src)?, bx(node, "right", src)?),
        "compound_literal_expression" => return Err(unsupported("a compound literal")),
        "gnu_asm_expression" => return Err(unsupported("inline assembly")),
        "generic_expression" => return Err(unsupported("_Generic")),
        "offsetof_expression" => AstKind::OffsetOf(
            TypeName::Node(field(node, "type")?),
            text(field(node, "member")?, src).to_string(),
        ),
        "alignof_expression" => return Err(unsupported("_Alignof")),
        "initializer_list" => {
            return Err(AstError {
                pos,
                message: "an initializer list is allowed only in a declaration".into(),
            })
        }
        "statement_expression" | "compound_statement" => {
            return Err(unsupported("a statement expression"))
        }
        other => {
            return Err(AstError {
                pos,
                message: format!(
                    "expression `{}` ({other}) is not supported",
                    text(node, src)
                ),
            })
        }
    };
    Ok(Ast { kind, pos })
}

impl Ast<'_> {
    /// True if evaluating this expression may change the state (assignment,
    /// `++`/`--`, or a call of anything but a pure math function; the
    /// translator decides the last point, so calls count here).
    pub(crate) fn has_effects(&self, pure_call: &dyn Fn(&str) -> bool) -> bool {
        use AstKind::*;
        match &self.kind {
            Assign(..) | Update { .. } => true,
            Call(f, args) => {
                let pure = matches!(&f.kind, Ident(n) if pure_call(n));
                !pure || args.iter().any(|a| a.has_effects(pure_call))
            }
            Unary(_, a) | SizeofExpr(a) | Cast(_, a) | Member(a, _, _) => {
                // sizeof does not evaluate its operand
                !matches!(self.kind, SizeofExpr(_)) && a.has_effects(pure_call)
            }
            Binary(_, a, b) | Index(a, b) | Comma(a, b) => {
                a.has_effects(pure_call) || b.has_effects(pure_call)
            }
            Cond(a, b, c) => {
                a.has_effects(pure_call) || b.has_effects(pure_call) || c.has_effects(pure_call)
            }
            _ => false,
        }
    }
}
