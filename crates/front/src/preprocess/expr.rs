//! Constant expressions of `#if` / `#elif`, evaluated in `intmax_t` / `uintmax_t`
//! (64-bit) arithmetic as C99 6.10.1 asks. `defined` has already been replaced and
//! macros expanded by the caller; identifiers left over count as 0.

use super::lex::{Kind, Pos, Token};

#[derive(Debug, Clone)]
pub(crate) struct ExprError {
    pub pos: Pos,
    pub message: String,
}

#[derive(Debug, Clone, Copy)]
struct Val {
    bits: u64,
    unsigned: bool,
}

impl Val {
    fn int(v: i64) -> Val {
        Val {
            bits: v as u64,
            unsigned: false,
        }
    }
    fn truth(self) -> bool {
        self.bits != 0
    }
    fn signed(self) -> i64 {
        self.bits as i64
    }
}

/// Parenthesis / operator nesting beyond this is refused rather than risking the stack.
const MAX_NESTING: u32 = 256;

struct Parser<'a> {
    toks: &'a [Token],
    i: usize,
    end: Pos,
    depth: u32,
}

/// Evaluates the expression `toks`; `end` is where "missing operand" errors point
/// when the line ends too early.
pub(crate) fn evaluate(toks: &[Token], end: Pos) -> Result<bool, ExprError> {
    let mut p = Parser {
        toks,
        i: 0,
        end,
        depth: 0,
    };
    if toks.is_empty() {
        return Err(p.err_here("#if with no expression"));
    }
    let v = p.comma(true)?;
    if let Some(t) = p.peek() {
        return Err(ExprError {
            pos: t.pos,
            message: format!("missing binary operator before token \"{}\"", t.text),
        });
    }
    Ok(v.truth())
}

impl Parser<'_> {
    fn peek(&self) -> Option<&Token> {
        self.toks.get(self.i)
    }

    fn peek_punct(&self) -> Option<&str> {
        self.peek()
            .filter(|t| t.kind == Kind::Punct)
            .map(|t| &*t.text)
    }

    fn err_here(&self, message: &str) -> ExprError {
        ExprError {
            pos: self.peek().map_or(self.end, |t| t.pos),
            message: message.to_string(),
        }
    }

    fn expect(&mut self, p: &str, what: &str) -> Result<(), ExprError> {
        if self.peek_punct() == Some(p) {
            self.i += 1;
            Ok(())
        } else {
            let found = self
                .peek()
                .map_or("end of line".to_string(), |t| format!("\"{}\"", t.text));
            Err(self.err_here(&format!("expected '{p}' {what} in #if, found {found}")))
        }
    }

    fn enter(&mut self) -> Result<(), ExprError> {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(self.err_here("#if expression nested too deeply"));
        }
        Ok(())
    }

    fn comma(&mut self, live: bool) -> Result<Val, ExprError> {
        let mut v = self.cond(live)?;
        while self.peek_punct() == Some(",") {
            self.i += 1;
            v = self.cond(live)?;
        }
        Ok(v)
    }

    fn cond(&mut self, live: bool) -> Result<Val, ExprError> {
        self.enter()?;
        let c = self.binary(1, live)?;
        let r = if self.peek_punct() == Some("?") {
            self.i += 1;
            let a = self.comma(live && c.truth())?;
            self.expect(":", "after the '?' branch")?;
            let b = self.cond(live && !c.truth())?;
            let unsigned = a.unsigned || b.unsigned;
            let mut v = if c.truth() { a } else { b };
            v.unsigned = unsigned;
            v
        } else {
            c
        };
        self.depth -= 1;
        Ok(r)
    }

    fn binary(&mut self, min_prec: u8, live: bool) -> Result<Val, ExprError> {
        let mut lhs = self.unary(live)?;
        while let Some(op) = self.peek_punct() {
            let Some(prec) = crate::ast::binary_precedence(op) else {
                break;
            };
            if prec < min_prec {
                break;
            }
            let op_tok = self.toks[self.i].clone();
            self.i += 1;
            let rhs_live = match &*op_tok.text {
                "||" => live && !lhs.truth(),
                "&&" => live && lhs.truth(),
                _ => live,
            };
            let rhs = self.binary(prec + 1, rhs_live)?;
            lhs = apply(&op_tok, lhs, rhs, live)?;
        }
        Ok(lhs)
    }

    fn unary(&mut self, live: bool) -> Result<Val, ExprError> {
        match self.peek_punct() {
            Some(op @ ("+" | "-" | "~" | "!")) => {
                let op = op.to_string();
                self.i += 1;
                self.enter()?;
                let v = self.unary(live)?;
                self.depth -= 1;
                Ok(match op.as_str() {
                    "+" => v,
                    "-" => Val {
                        bits: v.bits.wrapping_neg(),
                        unsigned: v.unsigned,
                    },
                    "~" => Val {
                        bits: !v.bits,
                        unsigned: v.unsigned,
                    },
                    _ => Val::int(i64::from(!v.truth())),
                })
            }
            _ => self.primary(live),
        }
    }

    fn primary(&mut self, live: bool) -> Result<Val, ExprError> {
        let Some(t) = self.peek().cloned() else {
            return Err(self.err_here("missing operand at the end of the #if expression"));
        };
        self.i += 1;
        match t.kind {
            Kind::Number => number(&t),
            Kind::Char => char_value(&t),
            Kind::Ident => Ok(Val::int(0)),
            Kind::Punct if &*t.text == "(" => {
                self.enter()?;
                let v = self.comma(live)?;
                self.expect(")", "to close '('")?;
                self.depth -= 1;
                Ok(v)
            }
            Kind::Str => Err(ExprError {
                pos: t.pos,
                message: "string literals are not allowed in #if expressions".into(),
            }),
            _ => Err(ExprError {
                pos: t.pos,
                message: format!("token \"{}\" is not valid in #if expressions", t.text),
            }),
        }
    }
}

fn apply(op: &Token, a: Val, b: Val, live: bool) -> Result<Val, ExprError> {
    let unsigned = a.unsigned || b.unsigned;
    let bool_val = |c: bool| Val::int(i64::from(c));
    let arith = |bits: u64| Val { bits, unsigned };
    Ok(match &*op.text {
        "||" => bool_val(a.truth() || b.truth()),
        "&&" => bool_val(a.truth() && b.truth()),
        "|" => arith(a.bits | b.bits),
        "^" => arith(a.bits ^ b.bits),
        "&" => arith(a.bits & b.bits),
        "==" => bool_val(a.bits == b.bits),
        "!=" => bool_val(a.bits != b.bits),
        "<" | ">" | "<=" | ">=" => {
            let ord = if unsigned {
                a.bits.cmp(&b.bits)
            } else {
                a.signed().cmp(&b.signed())
            };
            bool_val(match &*op.text {
                "<" => ord.is_lt(),
                ">" => ord.is_gt(),
                "<=" => ord.is_le(),
                _ => ord.is_ge(),
            })
        }
        "<<" | ">>" => {
            // A negative count shifts the other way; the result has the left type.
            let left = &*op.text == "<<";
            let (left, count) = if !b.unsigned && b.signed() < 0 {
                (!left, b.signed().unsigned_abs())
            } else {
                (left, b.bits)
            };
            let bits = if left {
                if count >= 64 {
                    0
                } else {
                    a.bits << count
                }
            } else if a.unsigned {
                if count >= 64 {
                    0
                } else {
                    a.bits >> count
                }
            } else {
                (a.signed() >> count.min(63)) as u64
            };
            Val {
                bits,
                unsigned: a.unsigned,
            }
        }
        "+" => arith(a.bits.wrapping_add(b.bits)),
        "-" => arith(a.bits.wrapping_sub(b.bits)),
        "*" => arith(a.bits.wrapping_mul(b.bits)),
        "/" | "%" => {
            if b.bits == 0 {
                if !live {
                    return Ok(Val::int(0));
                }
                return Err(ExprError {
                    pos: op.pos,
                    message: "division by zero in #if".into(),
                });
            }
            let div = &*op.text == "/";
            if unsigned {
                arith(if div {
                    a.bits / b.bits
                } else {
                    a.bits % b.bits
                })
            } else if div {
                arith(a.signed().wrapping_div(b.signed()) as u64)
            } else {
                arith(a.signed().wrapping_rem(b.signed()) as u64)
            }
        }
        other => {
            return Err(ExprError {
                pos: op.pos,
                message: format!("unexpected operator '{other}' in #if"),
            })
        }
    })
}

fn number(t: &Token) -> Result<Val, ExprError> {
    let err = |m: String| ExprError {
        pos: t.pos,
        message: m,
    };
    let text = &*t.text;
    let lower = text.to_ascii_lowercase();
    let (radix, digits_from) = if lower.starts_with("0x") {
        (16, 2)
    } else if lower.starts_with("0b") {
        (2, 2)
    } else if lower.starts_with('0') {
        (8, 0)
    } else {
        (10, 0)
    };
    let body = &lower[digits_from..];
    let digits_end = body
        .find(|c: char| !c.is_digit(radix.max(10)))
        .unwrap_or(body.len());
    let (digits, suffix) = body.split_at(digits_end);
    let is_float = suffix.starts_with('.')
        || (radix == 10 && suffix.starts_with('e'))
        || (radix == 16 && suffix.starts_with('p'));
    if is_float {
        return Err(err(format!(
            "floating-point constant \"{text}\" in #if; only integer constants are allowed"
        )));
    }
    if !suffix.chars().all(|c| c == 'u' || c == 'l')
        || suffix.matches('u').count() > 1
        || suffix.matches('l').count() > 2
        || (digits.is_empty() && radix != 8)
    {
        return Err(err(format!("invalid integer constant \"{text}\" in #if")));
    }
    let mut v: u64 = 0;
    for c in digits.chars() {
        let d = c
            .to_digit(radix)
            .ok_or_else(|| err(format!("invalid digit '{c}' in constant \"{text}\"")))?;
        v = v
            .checked_mul(u64::from(radix))
            .and_then(|v| v.checked_add(u64::from(d)))
            .ok_or_else(|| err(format!("integer constant \"{text}\" is too large")))?;
    }
    Ok(Val {
        bits: v,
        unsigned: suffix.contains('u') || v > i64::MAX as u64,
    })
}

fn char_value(t: &Token) -> Result<Val, ExprError> {
    let err = || ExprError {
        pos: t.pos,
        message: format!("invalid character constant {} in #if", t.text),
    };
    let text = &*t.text;
    let q = text.find('\'').ok_or_else(err)?;
    let wide = q > 0;
    let inner: Vec<char> = text[q + 1..text.len() - 1].chars().collect();
    if inner.is_empty() {
        return Err(ExprError {
            pos: t.pos,
            message: "empty character constant in #if".into(),
        });
    }
    let mut values: Vec<u32> = Vec::new();
    let mut i = 0;
    while i < inner.len() {
        let c = inner[i];
        i += 1;
        if c != '\\' {
            if wide || c.is_ascii() {
                values.push(c as u32);
            } else {
                let mut buf = [0u8; 4];
                values.extend(c.encode_utf8(&mut buf).bytes().map(u32::from));
            }
            continue;
        }
        let e = *inner.get(i).ok_or_else(err)?;
        i += 1;
        let v = match e {
            'n' => 10,
            't' => 9,
            'r' => 13,
            'a' => 7,
            'b' => 8,
            'f' => 12,
            'v' => 11,
            '\\' | '\'' | '"' | '?' => e as u32,
            '0'..='7' => {
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match inner.get(i).and_then(|c| c.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            i += 1;
                        }
                        None => break,
                    }
                }
                v
            }
            'x' | 'u' | 'U' => {
                let mut v: u32 = 0;
                let start = i;
                while let Some(d) = inner.get(i).and_then(|c| c.to_digit(16)) {
                    v = v.wrapping_mul(16).wrapping_add(d);
                    i += 1;
                }
                if i == start {
                    return Err(err());
                }
                v
            }
            _ => e as u32,
        };
        values.push(v);
    }
    if wide {
        return Ok(Val::int(i64::from(*values.last().unwrap_or(&0))));
    }
    if values.len() == 1 {
        // Plain `char` is signed on the platforms tass models.
        return Ok(Val::int(i64::from((values[0] & 0xff) as u8 as i8)));
    }
    let v = values
        .iter()
        .fold(0i64, |acc, &b| (acc << 8) | i64::from(b & 0xff));
    Ok(Val::int(i64::from(v as i32)))
}
