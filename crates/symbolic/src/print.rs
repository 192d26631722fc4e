//! C-like pretty printer.

use std::fmt;

use num_bigint::BigInt;
use num_integer::Integer;
use num_rational::BigRational;
use num_traits::{One, Signed, Zero};

use crate::compound::BitOp;
use crate::factory::ExprFactory;
use crate::node::{Op, Term};
use crate::types::{Expr, Quantifier, RelOp, Type};

// Precedence levels (higher binds tighter).
const P_COND: u8 = 1;
const P_OR: u8 = 2;
const P_AND: u8 = 3;
const P_BITOR: u8 = 4;
const P_BITXOR: u8 = 5;
const P_BITAND: u8 = 6;
const P_EQ: u8 = 7;
const P_REL: u8 = 8;
const P_SHIFT: u8 = 9;
const P_ADD: u8 = 10;
const P_MUL: u8 = 11;
const P_UNARY: u8 = 12;
const P_POSTFIX: u8 = 13;

/// Displays an expression C-like (see [`ExprFactory::display`]).
pub struct ExprDisplay<'a> {
    factory: &'a ExprFactory,
    expr: Expr,
}

impl fmt::Display for ExprDisplay<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.factory.pretty(self.expr))
    }
}

fn fmt_real(r: &BigRational) -> String {
    if r.is_integer() {
        return format!("{}.0", r.to_integer());
    }
    // A finite decimal expansion exists iff the denominator is 2^a 5^b.
    let mut d = r.denom().clone();
    let two = BigInt::from(2);
    let five = BigInt::from(5);
    let (mut a, mut b) = (0u32, 0u32);
    while d.is_multiple_of(&two) {
        d /= &two;
        a += 1;
    }
    while d.is_multiple_of(&five) {
        d /= &five;
        b += 1;
    }
    if d.is_one() {
        let digits = a.max(b);
        let scaled = (r * BigRational::from_integer(BigInt::from(10).pow(digits))).to_integer();
        let neg = scaled.is_negative();
        let s = scaled.abs().to_string();
        let s = format!("{:0>width$}", s, width = digits as usize + 1);
        let (ip, fp) = s.split_at(s.len() - digits as usize);
        return format!("{}{}.{}", if neg { "-" } else { "" }, ip, fp);
    }
    format!("{}.0/{}", r.numer(), r.denom())
}

impl ExprFactory {
    /// A `Display` adapter printing `e` C-like.
    pub fn display(&self, e: Expr) -> ExprDisplay<'_> {
        ExprDisplay {
            factory: self,
            expr: e,
        }
    }

    /// `e` printed C-like, e.g. `X0*X0 + 2*X1 + 16`, `a[i]`, `X > 0 && Y == 2`.
    ///
    /// Terms are printed in the structural order (higher degree first, then by
    /// name), relations with the constant moved to the right (`X0 + X2 == 10`,
    /// `X > 0` for the integer relation `X - 1 >= 0`). Real constants print as
    /// decimals when exact (`2.5`), else as `1.0/3`. Quantifiers print in the TASS
    /// pragma syntax `forall {int i} body`.
    pub fn pretty(&self, e: Expr) -> String {
        let mut s = String::new();
        self.pp(e, 0, &mut s);
        s
    }

    fn pp(&self, e: Expr, min: u8, out: &mut String) {
        let mut s = String::new();
        let p = self.pp_inner(e, &mut s);
        if p < min {
            out.push('(');
            out.push_str(&s);
            out.push(')');
        } else {
            out.push_str(&s);
        }
    }

    fn type_name(&self, t: &Type) -> String {
        match t {
            Type::Bool => "_Bool".into(),
            Type::Int => "int".into(),
            Type::Real => "double".into(),
            Type::Char => "char".into(),
            Type::Tuple(_) => "struct".into(),
            Type::Array(e, _) => format!("{}[]", self.type_name(e)),
            Type::Function(..) => "function".into(),
        }
    }

    /// Prints the node of `e` into `out`; returns its precedence.
    fn pp_inner(&self, e: Expr, out: &mut String) -> u8 {
        let node = self.node(e);
        match &node.op {
            Op::Bool(b) => {
                out.push_str(if *b { "true" } else { "false" });
                P_POSTFIX
            }
            Op::Int(i) => {
                out.push_str(&i.to_string());
                if i.is_negative() {
                    P_UNARY
                } else {
                    P_POSTFIX
                }
            }
            Op::Real(r) => {
                let s = fmt_real(r);
                out.push_str(&s);
                if r.is_negative() || s.contains('/') {
                    P_MUL
                } else {
                    P_POSTFIX
                }
            }
            Op::Char(c) => {
                pp_char(*c, out);
                P_POSTFIX
            }
            Op::Symbol(s) => {
                out.push_str(s);
                P_POSTFIX
            }
            Op::Poly(p) => {
                let terms = self.sorted_terms(&p.terms);
                self.pp_sum(&terms, &node.ty, out)
            }
            Op::Div(a, b) => {
                self.pp(*a, P_MUL, out);
                out.push('/');
                self.pp(*b, P_UNARY, out);
                P_MUL
            }
            Op::IntDiv(a, b) | Op::IntMod(a, b) => {
                self.pp(*a, P_MUL, out);
                out.push_str(if matches!(node.op, Op::IntDiv(..)) {
                    "/"
                } else {
                    "%"
                });
                self.pp(*b, P_UNARY, out);
                P_MUL
            }
            Op::ToReal(a) => {
                out.push_str("(double)");
                self.pp(*a, P_UNARY, out);
                P_UNARY
            }
            Op::ToInt(a) => {
                out.push_str("(int)");
                self.pp(*a, P_UNARY, out);
                P_UNARY
            }
            Op::Cast(a) => {
                out.push_str(&format!("({})", self.type_name(&node.ty)));
                self.pp(*a, P_UNARY, out);
                P_UNARY
            }
            Op::Rel(op, f) => self.pp_rel(*op, *f, out),
            Op::Equal(a, b) => {
                self.pp(*a, P_REL, out);
                out.push_str(" == ");
                self.pp(*b, P_REL, out);
                P_EQ
            }
            Op::And(ks) | Op::Or(ks) => {
                let is_and = matches!(node.op, Op::And(_));
                let (sep, p) = if is_and {
                    (" && ", P_AND)
                } else {
                    (" || ", P_OR)
                };
                let mut v = ks.to_vec();
                v.sort_by(|&a, &b| self.compare(a, b));
                self.pp_separated(&v, sep, p + 1, out);
                p
            }
            Op::Not(a) => {
                out.push('!');
                self.pp(*a, P_UNARY, out);
                P_UNARY
            }
            Op::Ite(c, a, b) => {
                self.pp(*c, P_OR, out);
                out.push_str(" ? ");
                self.pp(*a, P_OR, out);
                out.push_str(" : ");
                self.pp(*b, P_COND, out);
                P_COND
            }
            Op::ArrayRead(a, i) => {
                self.pp(*a, P_POSTFIX, out);
                out.push('[');
                self.pp(*i, 0, out);
                out.push(']');
                P_POSTFIX
            }
            Op::ArrayWrite(a, i, v) => {
                self.pp(*a, P_POSTFIX, out);
                out.push_str("{[");
                self.pp(*i, 0, out);
                out.push_str("] = ");
                self.pp(*v, P_COND, out);
                out.push('}');
                P_POSTFIX
            }
            Op::ConcreteArray(b, els) => self.pp_concrete_array(*b, els, out),
            Op::ArrayLambda(var, body) => {
                out.push_str("(lambda int ");
                self.pp(*var, P_POSTFIX, out);
                out.push_str(". ");
                self.pp(*body, 0, out);
                out.push(')');
                P_POSTFIX
            }
            Op::Tuple(ks) => {
                out.push('{');
                self.pp_separated(ks, ", ", P_COND, out);
                out.push('}');
                P_POSTFIX
            }
            Op::TupleRead(t, k) => {
                self.pp(*t, P_POSTFIX, out);
                out.push_str(&format!(".{k}"));
                P_POSTFIX
            }
            Op::Apply(g, args) => self.pp_apply(*g, args, out),
            Op::Quant(q, var, body) => self.pp_quantifier(*q, *var, *body, out),
        }
    }

    /// `items` printed one after the other with `sep` between them.
    fn pp_separated(&self, items: &[Expr], sep: &str, prec: u8, out: &mut String) {
        for (i, k) in items.iter().enumerate() {
            if i > 0 {
                out.push_str(sep);
            }
            self.pp(*k, prec, out);
        }
    }

    /// An array of known elements: `{a, b}` when all are known on top of a
    /// lambda array, otherwise `base{[k] = v, ...}`.
    fn pp_concrete_array(&self, b: Expr, els: &[Option<Expr>], out: &mut String) -> u8 {
        let lambda_base = matches!(self.node(b).op, Op::ArrayLambda(..));
        let full = els.iter().all(|x| x.is_some());
        if lambda_base && full {
            out.push('{');
        } else {
            self.pp(b, P_POSTFIX, out);
            out.push('{');
        }
        let mut first = true;
        for (k, v) in els.iter().enumerate() {
            if let Some(v) = v {
                if !first {
                    out.push_str(", ");
                }
                first = false;
                if !(lambda_base && full) {
                    out.push_str(&format!("[{k}] = "));
                }
                self.pp(*v, P_COND, out);
            }
        }
        out.push('}');
        P_POSTFIX
    }

    /// `forall {int x} body`.
    fn pp_quantifier(&self, q: Quantifier, var: Expr, body: Expr, out: &mut String) -> u8 {
        out.push_str(match q {
            Quantifier::Forall => "forall {",
            Quantifier::Exists => "exists {",
        });
        out.push_str(&self.type_name(&self.type_of(var)));
        out.push(' ');
        self.pp(var, P_POSTFIX, out);
        out.push_str("} ");
        self.pp(body, P_UNARY, out);
        P_UNARY
    }

    /// An application: bit operations infix, other functions `g(a, b)`.
    fn pp_apply(&self, g: Expr, args: &[Expr], out: &mut String) -> u8 {
        let name = self.symbol_name(g);
        if let (Some(op), 2) = (
            name.as_deref().and_then(BitOp::from_function_name),
            args.len(),
        ) {
            let (sym, p) = match op {
                BitOp::And => (" & ", P_BITAND),
                BitOp::Or => (" | ", P_BITOR),
                BitOp::Xor => (" ^ ", P_BITXOR),
                BitOp::Shl => (" << ", P_SHIFT),
                BitOp::Shr => (" >> ", P_SHIFT),
            };
            self.pp(args[0], p, out);
            out.push_str(sym);
            self.pp(args[1], p + 1, out);
            return p;
        }
        self.pp(g, P_POSTFIX, out);
        out.push('(');
        self.pp_separated(args, ", ", P_COND, out);
        out.push(')');
        P_POSTFIX
    }

    fn coef_string(&self, c: &BigRational, ty: &Type) -> String {
        if *ty == Type::Real {
            fmt_real(c)
        } else {
            c.to_integer().to_string()
        }
    }

    /// Prints a monomial (coefficient's absolute value handled by the caller).
    fn pp_mono(&self, t: &Term, out: &mut String) {
        let mut first = true;
        for &(x, k) in &t.mono {
            let reps = if k <= 4 { k } else { 1 };
            for _ in 0..reps {
                if !first {
                    out.push('*');
                }
                first = false;
                if k > 4 {
                    out.push_str("pow(");
                    self.pp(x, 0, out);
                    out.push_str(&format!(", {k})"));
                } else {
                    self.pp(x, P_MUL + 1, out);
                }
            }
        }
    }

    /// Prints a sum of (structurally sorted) terms; returns its precedence.
    fn pp_sum(&self, terms: &[Term], ty: &Type, out: &mut String) -> u8 {
        if terms.is_empty() {
            out.push_str(&self.coef_string(&BigRational::zero(), ty));
            return P_POSTFIX;
        }
        for (i, t) in terms.iter().enumerate() {
            let neg = t.coef.is_negative();
            let abs = t.coef.abs();
            if i == 0 {
                if neg {
                    out.push('-');
                }
            } else {
                out.push_str(if neg { " - " } else { " + " });
            }
            if t.mono.is_empty() {
                out.push_str(&self.coef_string(&abs, ty));
                continue;
            }
            if !abs.is_one() {
                let s = self.coef_string(&abs, ty);
                if s.contains('/') {
                    out.push('(');
                    out.push_str(&s);
                    out.push(')');
                } else {
                    out.push_str(&s);
                }
                out.push('*');
            }
            self.pp_mono(t, out);
        }
        if terms.len() > 1 {
            P_ADD
        } else if terms[0].coef.is_negative() {
            P_UNARY
        } else if terms[0].mono.len() == 1 && terms[0].mono[0].1 == 1 && terms[0].coef.is_one() {
            P_POSTFIX
        } else {
            P_MUL
        }
    }

    fn pp_rel(&self, op: RelOp, f: Expr, out: &mut String) -> u8 {
        let ty = self.type_of(f);
        let p = self.poly_of(f);
        let mut terms = self.sorted_terms(&p.terms);
        let mut c = match terms.last() {
            Some(t) if t.mono.is_empty() => terms.pop().map(|t| t.coef).unwrap_or_default(),
            _ => BigRational::zero(),
        };
        let mut op = op;
        // Integer `g + c >= 0` with c < 0 reads better as `g + c + 1 > 0`.
        if ty == Type::Int && op == RelOp::Ge && c.is_negative() {
            op = RelOp::Gt;
            c += BigRational::one();
        }
        // f = pos - neg + c;  print `pos op neg - c`, or flipped when the first
        // term is negative: `neg op' pos + c`.
        let flip = terms.first().is_some_and(|t| t.coef.is_negative());
        let (mut lhs, mut rhs): (Vec<Term>, Vec<Term>) = (Vec::new(), Vec::new());
        for t in terms {
            let goes_left = t.coef.is_negative() == flip;
            let t = if flip {
                Term {
                    mono: t.mono,
                    coef: -t.coef,
                }
            } else {
                t
            };
            if goes_left {
                lhs.push(t);
            } else {
                rhs.push(Term {
                    mono: t.mono,
                    coef: -t.coef,
                });
            }
        }
        // Constant goes right: lhs - rhs + c' op 0  =>  lhs op rhs - c'.
        let c_side = if flip { c.clone() } else { -c.clone() };
        if !c_side.is_zero() {
            rhs.push(Term {
                mono: Default::default(),
                coef: c_side,
            });
        }
        let sym = match (op, flip) {
            (RelOp::Gt, false) => " > ",
            (RelOp::Gt, true) => " < ",
            (RelOp::Ge, false) => " >= ",
            (RelOp::Ge, true) => " <= ",
            (RelOp::Eq, _) => " == ",
            (RelOp::Ne, _) => " != ",
        };
        let mut l = String::new();
        let pl = self.pp_sum(&lhs, &ty, &mut l);
        let mut r = String::new();
        let pr = self.pp_sum(&rhs, &ty, &mut r);
        let _ = (pl, pr);
        out.push_str(&l);
        out.push_str(sym);
        out.push_str(&r);
        if matches!(op, RelOp::Eq | RelOp::Ne) {
            P_EQ
        } else {
            P_REL
        }
    }
}

/// A character constant: `'x'` when printable, `(char)N` otherwise.
fn pp_char(c: u32, out: &mut String) {
    match char::from_u32(c) {
        Some(ch) if (' '..='~').contains(&ch) && ch != '\'' && ch != '\\' => {
            out.push('\'');
            out.push(ch);
            out.push('\'');
        }
        _ => out.push_str(&format!("(char){c}")),
    }
}
