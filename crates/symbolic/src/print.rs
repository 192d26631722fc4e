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

/// The precedence levels of C's operators, loosest first: the derived order
/// is binding strength (a later level binds tighter).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Prec {
    /// Anything: an index, an argument, the whole expression.
    Any,
    /// `c ? a : b`
    Cond,
    /// `||`
    Or,
    /// `&&`
    And,
    /// `|`
    BitOr,
    /// `^`
    BitXor,
    /// `&`
    BitAnd,
    /// `==`, `!=`
    Eq,
    /// `<`, `<=`, `>`, `>=`
    Rel,
    /// `<<`, `>>`
    Shift,
    /// `+`, `-`
    Add,
    /// `*`, `/`, `%`
    Mul,
    /// `-x`, `!x`, casts
    Unary,
    /// `a[i]`, `f(x)`, `t.k`, constants, symbols
    Postfix,
}

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
        self.pp(e, Prec::Any, &mut s);
        s
    }

    /// Prints `e`, in parentheses if it binds looser than `min`.
    fn pp(&self, e: Expr, min: Prec, out: &mut String) {
        self.pp_bare_if(e, |p| p >= min, out);
    }

    /// Prints `e`, in parentheses unless it binds tighter than `level`: the
    /// operands of `&&` and `||`, the right operand of a left-associative
    /// operator.
    fn pp_tighter(&self, e: Expr, level: Prec, out: &mut String) {
        self.pp_bare_if(e, |p| p > level, out);
    }

    /// Prints `e`, without parentheses if `bare` accepts its precedence.
    fn pp_bare_if(&self, e: Expr, bare: impl Fn(Prec) -> bool, out: &mut String) {
        let mut s = String::new();
        let p = self.pp_inner(e, &mut s);
        if bare(p) {
            out.push_str(&s);
        } else {
            out.push('(');
            out.push_str(&s);
            out.push(')');
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
    fn pp_inner(&self, e: Expr, out: &mut String) -> Prec {
        let node = self.node(e);
        match &node.op {
            Op::Bool(b) => {
                out.push_str(if *b { "true" } else { "false" });
                Prec::Postfix
            }
            Op::Int(i) => {
                out.push_str(&i.to_string());
                if i.is_negative() {
                    Prec::Unary
                } else {
                    Prec::Postfix
                }
            }
            Op::Real(r) => {
                let s = fmt_real(r);
                out.push_str(&s);
                if r.is_negative() || s.contains('/') {
                    Prec::Mul
                } else {
                    Prec::Postfix
                }
            }
            Op::Char(c) => {
                pp_char(*c, out);
                Prec::Postfix
            }
            Op::Symbol(s) => {
                out.push_str(s);
                Prec::Postfix
            }
            Op::Poly(p) => {
                let terms = self.sorted_terms(&p.terms);
                self.pp_sum(&terms, &node.ty, out)
            }
            Op::Div(a, b) => {
                self.pp(*a, Prec::Mul, out);
                out.push('/');
                self.pp(*b, Prec::Unary, out);
                Prec::Mul
            }
            Op::IntDiv(a, b) | Op::IntMod(a, b) => {
                self.pp(*a, Prec::Mul, out);
                out.push_str(if matches!(node.op, Op::IntDiv(..)) {
                    "/"
                } else {
                    "%"
                });
                self.pp(*b, Prec::Unary, out);
                Prec::Mul
            }
            Op::ToReal(a) => {
                out.push_str("(double)");
                self.pp(*a, Prec::Unary, out);
                Prec::Unary
            }
            Op::ToInt(a) => {
                out.push_str("(int)");
                self.pp(*a, Prec::Unary, out);
                Prec::Unary
            }
            Op::Cast(a) => {
                out.push_str(&format!("({})", self.type_name(&node.ty)));
                self.pp(*a, Prec::Unary, out);
                Prec::Unary
            }
            Op::Rel(op, f) => self.pp_rel(*op, *f, out),
            Op::Equal(a, b) => {
                self.pp(*a, Prec::Rel, out);
                out.push_str(" == ");
                self.pp(*b, Prec::Rel, out);
                Prec::Eq
            }
            Op::And(ks) | Op::Or(ks) => {
                let is_and = matches!(node.op, Op::And(_));
                let (sep, p) = if is_and {
                    (" && ", Prec::And)
                } else {
                    (" || ", Prec::Or)
                };
                let mut v = ks.to_vec();
                v.sort_by(|&a, &b| self.compare(a, b));
                self.pp_separated(&v, sep, |q| q > p, out);
                p
            }
            Op::Not(a) => {
                out.push('!');
                self.pp(*a, Prec::Unary, out);
                Prec::Unary
            }
            Op::Ite(c, a, b) => {
                self.pp(*c, Prec::Or, out);
                out.push_str(" ? ");
                self.pp(*a, Prec::Or, out);
                out.push_str(" : ");
                self.pp(*b, Prec::Cond, out);
                Prec::Cond
            }
            Op::ArrayRead(a, i) => {
                self.pp(*a, Prec::Postfix, out);
                out.push('[');
                self.pp(*i, Prec::Any, out);
                out.push(']');
                Prec::Postfix
            }
            Op::ArrayWrite(a, i, v) => {
                self.pp(*a, Prec::Postfix, out);
                out.push_str("{[");
                self.pp(*i, Prec::Any, out);
                out.push_str("] = ");
                self.pp(*v, Prec::Cond, out);
                out.push('}');
                Prec::Postfix
            }
            Op::ConcreteArray(b, els) => self.pp_concrete_array(*b, els, out),
            Op::ArrayLambda(var, body) => {
                out.push_str("(lambda int ");
                self.pp(*var, Prec::Postfix, out);
                out.push_str(". ");
                self.pp(*body, Prec::Any, out);
                out.push(')');
                Prec::Postfix
            }
            Op::Tuple(ks) => {
                out.push('{');
                self.pp_separated(ks, ", ", |q| q >= Prec::Cond, out);
                out.push('}');
                Prec::Postfix
            }
            Op::TupleRead(t, k) => {
                self.pp(*t, Prec::Postfix, out);
                out.push_str(&format!(".{k}"));
                Prec::Postfix
            }
            Op::Apply(g, args) => self.pp_apply(*g, args, out),
            Op::Quant(q, var, body) => self.pp_quantifier(*q, *var, *body, out),
        }
    }

    /// `items` printed one after the other with `sep` between them.
    /// (`bare`: the precedences an item may have without parentheses.)
    fn pp_separated(
        &self,
        items: &[Expr],
        sep: &str,
        bare: impl Fn(Prec) -> bool + Copy,
        out: &mut String,
    ) {
        for (i, k) in items.iter().enumerate() {
            if i > 0 {
                out.push_str(sep);
            }
            self.pp_bare_if(*k, bare, out);
        }
    }

    /// An array of known elements: `{a, b}` when all are known on top of a
    /// lambda array, otherwise `base{[k] = v, ...}`.
    fn pp_concrete_array(&self, b: Expr, els: &[Option<Expr>], out: &mut String) -> Prec {
        let lambda_base = matches!(self.node(b).op, Op::ArrayLambda(..));
        let full = els.iter().all(|x| x.is_some());
        if lambda_base && full {
            out.push('{');
        } else {
            self.pp(b, Prec::Postfix, out);
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
                self.pp(*v, Prec::Cond, out);
            }
        }
        out.push('}');
        Prec::Postfix
    }

    /// `forall {int x} body`.
    fn pp_quantifier(&self, q: Quantifier, var: Expr, body: Expr, out: &mut String) -> Prec {
        out.push_str(match q {
            Quantifier::Forall => "forall {",
            Quantifier::Exists => "exists {",
        });
        out.push_str(&self.type_name(&self.type_of(var)));
        out.push(' ');
        self.pp(var, Prec::Postfix, out);
        out.push_str("} ");
        self.pp(body, Prec::Unary, out);
        Prec::Unary
    }

    /// An application: bit operations infix, other functions `g(a, b)`.
    fn pp_apply(&self, g: Expr, args: &[Expr], out: &mut String) -> Prec {
        let name = self.symbol_name(g);
        if let (Some(op), 2) = (
            name.as_deref().and_then(BitOp::from_function_name),
            args.len(),
        ) {
            let (sym, p) = match op {
                BitOp::And => (" & ", Prec::BitAnd),
                BitOp::Or => (" | ", Prec::BitOr),
                BitOp::Xor => (" ^ ", Prec::BitXor),
                BitOp::Shl => (" << ", Prec::Shift),
                BitOp::Shr => (" >> ", Prec::Shift),
            };
            self.pp(args[0], p, out);
            out.push_str(sym);
            self.pp_tighter(args[1], p, out);
            return p;
        }
        self.pp(g, Prec::Postfix, out);
        out.push('(');
        self.pp_separated(args, ", ", |q| q >= Prec::Cond, out);
        out.push(')');
        Prec::Postfix
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
                    self.pp(x, Prec::Any, out);
                    out.push_str(&format!(", {k})"));
                } else {
                    self.pp_tighter(x, Prec::Mul, out);
                }
            }
        }
    }

    /// Prints a sum of (structurally sorted) terms; returns its precedence.
    fn pp_sum(&self, terms: &[Term], ty: &Type, out: &mut String) -> Prec {
        if terms.is_empty() {
            out.push_str(&self.coef_string(&BigRational::zero(), ty));
            return Prec::Postfix;
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
            Prec::Add
        } else if terms[0].coef.is_negative() {
            Prec::Unary
        } else if terms[0].mono.len() == 1 && terms[0].mono[0].1 == 1 && terms[0].coef.is_one() {
            Prec::Postfix
        } else {
            Prec::Mul
        }
    }

    fn pp_rel(&self, op: RelOp, f: Expr, out: &mut String) -> Prec {
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
            Prec::Eq
        } else {
            Prec::Rel
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
