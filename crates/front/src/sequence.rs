//! Unsequenced side effects: `a[i++] = i`, `i = i++`, `f(i, i++)`.
//!
//! C11 6.5p2 makes an expression undefined when a side effect on an object is
//! unsequenced relative to another side effect on it or to a read of its value.
//! The engine evaluates operands in one fixed order, so such a program would be
//! verified for one of the behaviours a compiler may pick (or none: the
//! behaviour is undefined). The front end refuses it instead, by name.
//!
//! The check is syntactic and follows only objects it can name: variables,
//! their members through `.` (`s.x`) and their elements at a constant index
//! (`a[0]`, `s.a[2].x`). Accesses through pointers or computed indices (`*p`,
//! `a[j]`, `p->x`) are not followed, since whether two of them are the same
//! object depends on values; the reads that locate them (`p`, `j`) are. An
//! element `a[0]` is not taken to overlap `a` itself: `a` may be a pointer,
//! whose value is not the element. Calls are not followed into the callee (its body is indeterminately
//! sequenced with the caller's expression, which C allows).
//!
//! Sequence points between operands: `&&`, `||`, `?:` (after the condition), the
//! comma operator. An assignment's store is sequenced after both operands'
//! values are computed, so `i = i + 1` is fine and `i = i++` is not (the `++`'s
//! store and the assignment's are unsequenced).

use crate::ast::{Ast, AstError, AstKind, Pos};

/// The accesses to nameable objects made by evaluating an expression that are
/// not separated from the rest of the enclosing expression by a sequence point.
#[derive(Default)]
struct Accesses {
    /// Objects stored to (by `=`, `op=`, `++`, `--`).
    writes: Vec<String>,
    /// The stores not yet known to be done when the expression's value is:
    /// `i++` in `i++ + 1`, but not in `f(i++)` or `(i++, 5)` (a sequence
    /// point follows them). An assignment's own store clashes only with these.
    pending: Vec<String>,
    /// Objects whose value is read.
    reads: Vec<String>,
}

impl Accesses {
    fn read(name: String) -> Accesses {
        Accesses {
            reads: vec![name],
            ..Accesses::default()
        }
    }

    /// `self`, a sequence point, then `other`.
    fn then(mut self, other: Accesses) -> Accesses {
        self.writes.extend(other.writes);
        self.pending = other.pending;
        self.reads.extend(other.reads);
        self
    }

    /// One of two alternatives (the branches of `?:`).
    fn or(mut self, other: Accesses) -> Accesses {
        self.writes.extend(other.writes);
        self.pending.extend(other.pending);
        self.reads.extend(other.reads);
        self
    }
}

/// `s` and `s.x` overlap, `s.x` and `s.y` do not.
fn overlap(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    long.starts_with(short) && matches!(long.as_bytes().get(short.len()), None | Some(b'.'))
}

/// The object an lvalue names, when it is a variable, a member of one or an
/// element of one at a constant index.
fn named_object(a: &Ast<'_>) -> Option<String> {
    match &a.kind {
        AstKind::Ident(n) => Some(n.clone()),
        AstKind::Member(base, field, false) => Some(format!("{}.{field}", named_object(base)?)),
        AstKind::Index(base, index) => {
            let AstKind::Int(text) = &index.kind else {
                return None;
            };
            Some(format!("{}[{}]", named_object(base)?, int_literal(text)?))
        }
        _ => None,
    }
}

/// The value of an integer constant's text (`0`, `0x10`, `010`, `2u`), so
/// that `a[0x1]` and `a[1]` name one element.
fn int_literal(text: &str) -> Option<u64> {
    let digits = text.trim_end_matches(['u', 'U', 'l', 'L']);
    if let Some(hex) = digits.strip_prefix("0x").or(digits.strip_prefix("0X")) {
        u64::from_str_radix(hex, 16).ok()
    } else if digits.len() > 1 && digits.starts_with('0') {
        u64::from_str_radix(&digits[1..], 8).ok()
    } else {
        digits.parse().ok()
    }
}

/// Checks a full expression (an expression statement, a condition, an
/// initializer, a `return` value, a `for` clause).
pub(crate) fn check_full_expression(a: &Ast<'_>) -> Result<(), AstError> {
    value(a).map(|_| ())
}

/// Two operands evaluated without a sequence point between them.
fn unsequenced(left: Accesses, right: Accesses, pos: Pos) -> Result<Accesses, AstError> {
    for (writes, other) in [(&left.writes, &right), (&right.writes, &left)] {
        for w in writes {
            let clash = other
                .writes
                .iter()
                .map(|o| (o, "modifies"))
                .chain(other.reads.iter().map(|o| (o, "reads")));
            for (o, how) in clash {
                if overlap(w, o) {
                    return Err(AstError {
                        pos,
                        message: format!(
                            "this expression modifies `{w}` and also {how} `{o}` without a sequence point between them: the behaviour is undefined in C (C11 6.5p2), and compilers differ; split it into separate statements"
                        ),
                    });
                }
            }
        }
    }
    Ok(left.or(right))
}

fn all_unsequenced<'a, 't: 'a>(
    items: impl IntoIterator<Item = &'a Ast<'t>>,
    pos: Pos,
) -> Result<Accesses, AstError> {
    let mut acc = Accesses::default();
    for item in items {
        acc = unsequenced(acc, value(item)?, pos)?;
    }
    Ok(acc)
}

/// The accesses of evaluating `a` for its value (or effect).
fn value(a: &Ast<'_>) -> Result<Accesses, AstError> {
    let pos = a.pos;
    Ok(match &a.kind {
        AstKind::Ident(n) => Accesses::read(n.clone()),
        AstKind::Member(..) => match named_object(a) {
            Some(name) => Accesses::read(name),
            None => location(a)?,
        },
        AstKind::Unary("&", x) => location(x)?,
        AstKind::Unary(_, x) | AstKind::Cast(_, x) => value(x)?,
        AstKind::Binary(op, l, r) if op == "&&" || op == "||" => value(l)?.then(value(r)?),
        AstKind::Binary(_, l, r) => unsequenced(value(l)?, value(r)?, pos)?,
        AstKind::Comma(l, r) => value(l)?.then(value(r)?),
        AstKind::Cond(c, x, y) => value(c)?.then(value(x)?.or(value(y)?)),
        AstKind::Index(base, index) => {
            let mut acc = all_unsequenced([&**base, &**index], pos)?;
            acc.reads.extend(named_object(a));
            acc
        }
        AstKind::Call(function, args) => {
            // The arguments' stores are done before the call.
            let mut acc = all_unsequenced(std::iter::once(&**function).chain(args.iter()), pos)?;
            acc.pending.clear();
            acc
        }
        AstKind::Assign(op, target, source) => {
            let operands = unsequenced(location(target)?, value(source)?, pos)?;
            store(operands, target, op.is_some(), pos)?
        }
        AstKind::Update { arg, .. } => store(location(arg)?, arg, true, pos)?,
        // Not evaluated (sizeof, offsetof), constants, pragma-only forms.
        _ => Accesses::default(),
    })
}

/// The store of an assignment or `++`/`--` to `target`, after `operands`
/// (whose side effects it is unsequenced with).
fn store(
    operands: Accesses,
    target: &Ast<'_>,
    reads_target: bool,
    pos: Pos,
) -> Result<Accesses, AstError> {
    let Some(name) = named_object(target) else {
        return Ok(operands);
    };
    let own = Accesses {
        writes: vec![name.clone()],
        ..Accesses::default()
    };
    // Only the operands' pending stores clash with this one: their reads are
    // value computations, sequenced before it.
    let side_effects = Accesses {
        writes: operands.pending.clone(),
        ..Accesses::default()
    };
    unsequenced(side_effects, own, pos)?;
    let mut acc = operands;
    acc.writes.push(name.clone());
    acc.pending.push(name.clone());
    if reads_target {
        acc.reads.push(name);
    }
    Ok(acc)
}

/// The accesses of locating the object an lvalue designates (not reading it):
/// `a[i]` reads `a` and `i`, `*p` and `p->x` read `p`, `s.x` reads nothing.
fn location(a: &Ast<'_>) -> Result<Accesses, AstError> {
    Ok(match &a.kind {
        AstKind::Ident(_) => Accesses::default(),
        AstKind::Member(base, _, false) => location(base)?,
        AstKind::Member(base, _, true) => value(base)?,
        AstKind::Unary("*", x) => value(x)?,
        AstKind::Index(base, index) => all_unsequenced([&**base, &**index], a.pos)?,
        _ => value(a)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(expr: &str) -> Result<(), String> {
        let src = format!("void f(void) {{ {expr}; }}");
        let mut parser = tree_sitter::Parser::new();
        parser
            .set_language(&tree_sitter_c::LANGUAGE.into())
            .expect("tree-sitter-c");
        let tree = parser.parse(&src, None).expect("parse");
        let body = tree
            .root_node()
            .child(0)
            .and_then(|f| crate::ast::child(f, "body"))
            .expect("body");
        let statement = body.named_child(0).expect("statement");
        let e = statement.named_child(0).expect("expression");
        let ast = crate::ast::convert(e, &src).map_err(|e| e.message)?;
        check_full_expression(&ast).map_err(|e| e.message)
    }

    #[test]
    fn unsequenced_accesses_are_refused() {
        for bad in [
            "a[i++] = i",
            "i = i++",
            "i = ++i + 1",
            "x = i++ + i",
            "f(i, i++)",
            "f(i++, i--)",
            "a[i] = i++",
            "p->next = p = q",
            "s.x = s.x++",
            "t = s, s.x++ + s.y + s",
            "x = (i = 1) + i",
            "i += i++",
            "f(i++) + i",
            "i = i = 1",
            "(i++, 1) + i",
            "a[0] = a[0]++",
            "s.a[0] = s.a[0]++",
            "a[1] = a[0x1]++ + 1",
            "x = a[2]++ + a[2]",
            "f(a[0]++, a[0])",
            "s.a[0].x = s.a[0].x--",
        ] {
            let message = check(bad).expect_err(bad);
            assert!(
                message.contains("without a sequence point"),
                "{bad}: {message}"
            );
        }
    }

    #[test]
    fn sequenced_or_distinct_accesses_are_accepted() {
        for good in [
            "i = i + 1",
            "i++",
            "a[i] = i",
            "x = y = 0",
            "i++, i++",
            "(i++ && i) || i--",
            "x = i ? i++ : i--",
            "s.a = s.b++",
            "a[i] = a[j]++",
            "*p = (*p)++",
            "f(i, j++)",
            "i = f(i++)",
            "x = sizeof(i++) + i",
            "p = &i, i++",
            "x = y++ + z++",
            "i = (i++, 5)",
            "i = (i++ && 1)",
            "a[0] = a[0] + 1",
            "a[0] = a[1]++",
            "x = a[0]++ + a[1]",
            "p[0] = p[0] + 1",
            "x = p[0]++ + *q",
            "a[0]++, a[0]++",
            "x = a[0]++ + a",
        ] {
            assert_eq!(check(good), Ok(()), "{good}");
        }
    }
}
