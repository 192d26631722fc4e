//! Binary operators: integer, floating and pointer arithmetic, comparisons, and their checks.

use smallvec::SmallVec;
use tass_dynamic::api::{Pointer, Step, Value};
use tass_model::api::{BinaryOp, Comparison, Expr as MExpr, Span, Type as MType};
use tass_symbolic::api::{BitOp, Expr, Type};

use super::{int_of, scalar_type, Evaluator};
use crate::env::Environment;
use crate::float::{compare_exact, Arith, Exactness, Floats};
use crate::oracle::SignedOverflow;
use crate::report::{EngineError, Property};

impl<'a> Evaluator<'a> {
    /// The floating operations of model type `ty` at the arithmetic level, if
    /// `ty` is a floating type and the level is herbrand or ieee (`None` at real
    /// level: `float` and `double` are then the reals).
    pub(super) fn floats(&self, ty: &MType) -> Option<Floats<'a>> {
        match (self.oracle.arith(), ty) {
            (Arith::Real, _) => None,
            (level, MType::Real(kind)) => Some(Floats::new(self.f, level, *kind)),
            _ => None,
        }
    }

    /// A floating `+ - * /` or comparison at herbrand/ieee level (`e` the whole
    /// expression, `b` its right operand, for the division check).
    fn float_binary(
        &mut self,
        env: &dyn Environment,
        (e, b): (&MExpr, &MExpr),
        op: BinaryOp,
        (x, y): (Expr, Expr),
        fl: &Floats<'a>,
    ) -> Result<Value, EngineError> {
        use BinaryOp::*;
        match op {
            Add => Ok(Value::Data(fl.add(x, y))),
            Sub => Ok(Value::Data(fl.sub(x, y))),
            Mul => Ok(Value::Data(fl.mul(x, y))),
            Div => {
                // Division by zero is reported for floating operands too (IEEE
                // would give an infinity or NaN); `y != 0` is the IEEE predicate.
                self.check(
                    env,
                    fl.truth(y),
                    Property::DivisionByZero,
                    || {
                        let text = tass_model::api::render_expr(env.model(), b);
                        format!("division by zero: `{text}` can be 0")
                    },
                    &e.span,
                );
                Ok(Value::Data(fl.div(x, y)))
            }
            Compare(c) => Ok(Value::Data(fl.compare(c, x, y))),
            _ => Err(EngineError::unsupported(
                format!("`{}` on floating operands", op.symbol()),
                &e.span,
            )),
        }
    }

    pub(super) fn eval_binary(
        &mut self,
        env: &dyn Environment,
        e: &MExpr,
        op: BinaryOp,
        a: &MExpr,
        b: &MExpr,
    ) -> Result<Value, EngineError> {
        let f = self.f;
        use BinaryOp::*;
        match op {
            PointerAdd | PointerSub => {
                let p = self.eval(env, a)?;
                let k = self.eval_int(env, b)?;
                let k = if op == PointerSub { f.neg(k) } else { k };
                if let Some(v) = self.byte_pointer_add(env, &p, &a.ty, k, &e.span)? {
                    return Ok(v);
                }
                return self.pointer_add(env, p, k, &e.span);
            }
            PointerDiff => return self.pointer_difference(env, e, a, b),
            _ => {}
        }
        let va = self.eval(env, a)?;
        let vb = self.eval(env, b)?;
        // Comparisons of pointers and handles.
        match (&va, &vb) {
            (Value::Pointer(p), Value::Pointer(q)) => {
                if let Some(x) = self.compare_byte_pointers(env, op, (p, q), &a.ty, &e.span)? {
                    return Ok(Value::Data(x));
                }
                return Ok(Value::Data(self.compare_pointers(op, p, q, &e.span)?));
            }
            (Value::Handle(h1), Value::Handle(h2)) => {
                return match op {
                    Compare(c) if c.is_equality() => Ok(Value::Data(f.bool(c.holds(h1, h2)))),
                    _ => Err(EngineError::unsupported("ordering of MPI handles", &e.span)),
                }
            }
            _ => {}
        }
        let undefined_to_fresh = |this: &Self, v: Value, ty: &MType| -> Result<Expr, EngineError> {
            match v {
                Value::Data(x) => Ok(x),
                Value::Undefined => match this.fresh_of(ty) {
                    Value::Data(x) => Ok(x),
                    _ => Err(EngineError::unsupported("undefined operand", &e.span)),
                },
                other => Err(EngineError::unsupported(
                    format!("operand {other:?} of `{}`", op.symbol()),
                    &e.span,
                )),
            }
        };
        let mut x = undefined_to_fresh(self, va, &a.ty)?;
        let mut y = undefined_to_fresh(self, vb, &b.ty)?;
        let operand_floats = self.floats(&a.ty).or_else(|| self.floats(&b.ty));
        if let Some(fl) = operand_floats.or_else(|| self.floats(&e.ty)) {
            if matches!(op, Add | Sub | Mul | Div | Compare(_)) {
                let as_float = |v: Expr| match f.type_of(v) {
                    Type::Real => v,
                    _ => fl.of_int(int_of(f, v), Exactness::MayRound),
                };
                let operands = (as_float(x), as_float(y));
                return self.float_binary(env, (e, b), op, operands, &fl);
            }
        }
        // Bring operands to a common numeric type (the front end inserts casts; be lenient).
        let (tx, ty) = (f.type_of(x), f.type_of(y));
        if tx != ty {
            if tx == Type::Real || ty == Type::Real {
                x = f.cast(x, &Type::Real);
                y = f.cast(y, &Type::Real);
            } else if tx.is_numeric() || ty.is_numeric() {
                x = int_of(f, x);
                y = int_of(f, y);
            }
        } else if (tx == Type::Char || tx == Type::Bool)
            && !matches!(op, Compare(c) if c.is_equality())
        {
            x = int_of(f, x);
            y = int_of(f, y);
        }
        let result = self.arithmetic(env, e, op, b, (x, y));
        // Keep the expression's declared scalar type (e.g. char results).
        Ok(Value::Data(match scalar_type(&e.ty) {
            Some(t)
                if t != f.type_of(result) && t != Type::Bool && f.type_of(result) != Type::Bool =>
            {
                f.cast(result, &t)
            }
            _ => result,
        }))
    }

    /// `a - b` on pointers (`e` the whole expression): the distance between two
    /// elements of one array.
    fn pointer_difference(
        &mut self,
        env: &dyn Environment,
        e: &MExpr,
        a: &MExpr,
        b: &MExpr,
    ) -> Result<Value, EngineError> {
        let f = self.f;
        let p = self.eval(env, a)?;
        let q = self.eval(env, b)?;
        if let Some(d) = self.byte_pointer_difference(env, &p, &q, &a.ty, &e.span)? {
            return Ok(Value::Data(d));
        }
        match (p, q) {
            (
                Value::Pointer(Pointer::To { root: r1, path: p1 }),
                Value::Pointer(Pointer::To { root: r2, path: p2 }),
            ) if r1 == r2
                && p1.len() == p2.len()
                && !p1.is_empty()
                && p1[..p1.len() - 1] == p2[..p2.len() - 1] =>
            {
                match (p1[p1.len() - 1], p2[p2.len() - 1]) {
                    (Step::Index(i), Step::Index(j)) => Ok(Value::Data(f.sub(i, j))),
                    _ => Err(EngineError::unsupported(
                        "difference of pointers to struct fields",
                        &e.span,
                    )),
                }
            }
            _ => {
                self.fail(
                    env,
                    Property::InvalidPointer,
                    format!(
                        "subtraction of pointers into different objects: `{}`",
                        tass_model::api::render_expr(env.model(), e)
                    ),
                    &e.span,
                );
                Ok(Value::Data(f.fresh_symbol("undef", Type::Int)))
            }
        }
    }

    /// The integer or real operation `x op y` (`e` the whole expression, `b`
    /// its right operand, for the checks).
    fn arithmetic(
        &mut self,
        env: &dyn Environment,
        e: &MExpr,
        op: BinaryOp,
        b: &MExpr,
        (x, y): (Expr, Expr),
    ) -> Expr {
        let f = self.f;
        use BinaryOp::*;
        match op {
            Add => f.add(x, y),
            Sub => f.sub(x, y),
            Mul => f.mul(x, y),
            Div | Mod => {
                let zero = f.zero(&f.type_of(y));
                let claim = f.ne(y, zero);
                let what = if op == Div { "division" } else { "modulus" };
                self.check(
                    env,
                    claim,
                    Property::DivisionByZero,
                    || {
                        let text = tass_model::api::render_expr(env.model(), b);
                        format!("{what} by zero: `{text}` can be 0")
                    },
                    &e.span,
                );
                if op == Mod {
                    self.check_signed_operands(env, op, x, y, e);
                }
                match (op, f.type_of(x)) {
                    (Div, Type::Real) => f.div(x, y),
                    (Div, _) => f.int_div(x, y),
                    _ => f.int_mod(x, y),
                }
            }
            Compare(c) => compare_exact(f, c, (x, y)),
            BitAnd | BitOr | BitXor | Shl | Shr => {
                let bit_op = match op {
                    BitAnd => BitOp::And,
                    BitOr => BitOp::Or,
                    BitXor => BitOp::Xor,
                    Shl => BitOp::Shl,
                    _ => BitOp::Shr,
                };
                if matches!(op, Shl | Shr) {
                    self.check_shift_count(env, y, e);
                }
                if op == Shl {
                    self.check_signed_operands(env, op, x, y, e);
                }
                // On symbolic operands the operator is an uninterpreted function to
                // an SMT solver, whose model may give it a meaning `&` lacks: a
                // counterexample relying on it is only a possible one.
                self.oracle.note_abstraction(f.bitwise_function(bit_op));
                f.bitwise(bit_op, x, y)
            }
            PointerAdd | PointerSub | PointerDiff => unreachable!("handled above"),
        }
    }

    fn compare_pointers(
        &mut self,
        op: BinaryOp,
        p: &Pointer,
        q: &Pointer,
        span: &Span,
    ) -> Result<Expr, EngineError> {
        let f = self.f;
        let same = match (p, q) {
            (Pointer::Null, Pointer::Null) => Some(f.tt()),
            (Pointer::Null, _) | (_, Pointer::Null) => Some(f.ff()),
            (Pointer::Bytes { .. }, _) | (_, Pointer::Bytes { .. }) => None,
            (Pointer::To { root: r1, path: p1 }, Pointer::To { root: r2, path: p2 }) => {
                if r1 != r2 || p1.len() != p2.len() {
                    Some(f.ff())
                } else {
                    let mut conj = Vec::new();
                    let mut differ = false;
                    for (s, t) in p1.iter().zip(p2.iter()) {
                        match (s, t) {
                            (Step::Index(i), Step::Index(j)) => conj.push(f.eq(*i, *j)),
                            (Step::Field(a), Step::Field(b)) if a == b => {}
                            _ => differ = true,
                        }
                    }
                    Some(if differ { f.ff() } else { f.and_all(conj) })
                }
            }
        };
        let BinaryOp::Compare(c) = op else {
            return Err(EngineError::unsupported(
                format!("`{}` on pointers", op.symbol()),
                span,
            ));
        };
        match c {
            Comparison::Eq => Ok(same.unwrap_or_else(|| f.ff())),
            Comparison::Ne => Ok(f.not(same.unwrap_or_else(|| f.ff()))),
            // An ordering.
            _ => match (p, q) {
                (Pointer::To { root: r1, path: p1 }, Pointer::To { root: r2, path: p2 })
                    if r1 == r2
                        && p1.len() == p2.len()
                        && !p1.is_empty()
                        && p1[..p1.len() - 1] == p2[..p2.len() - 1] =>
                {
                    match (p1[p1.len() - 1], p2[p2.len() - 1]) {
                        (Step::Index(i), Step::Index(j)) => Ok(compare_exact(f, c, (i, j))),
                        _ => Err(EngineError::unsupported(
                            "ordering of pointers to struct fields",
                            span,
                        )),
                    }
                }
                _ => Err(EngineError::unsupported(
                    "ordering of pointers into different objects",
                    span,
                )),
            },
        }
    }

    /// `p + k` with the pointer-offset check (the result must stay within the
    /// object or one past its end).
    pub fn pointer_add(
        &mut self,
        env: &dyn Environment,
        p: Value,
        k: Expr,
        span: &Span,
    ) -> Result<Value, EngineError> {
        let f = self.f;
        match p {
            Value::Pointer(Pointer::To { root, mut path }) => {
                if f.concrete_int_ref(k).is_some_and(num_traits::Zero::is_zero) {
                    return Ok(Value::Pointer(Pointer::To { root, path }));
                }
                match path.last().copied() {
                    Some(Step::Index(i)) => {
                        let j = f.add(i, k);
                        let prefix: SmallVec<[Step; 2]> =
                            path[..path.len() - 1].iter().copied().collect();
                        if let Some(ext) = self.extent_at(env, root, &prefix) {
                            let claim = f.and(f.le(f.int(0), j), f.le(j, ext));
                            self.check(
                                env,
                                claim,
                                Property::OutOfBounds,
                                || {
                                    let (js, es) = (f.pretty(j), f.pretty(ext));
                                    format!(
                                        "pointer offset {js} outside its object of {es} elements"
                                    )
                                },
                                span,
                            );
                        }
                        let n = path.len();
                        path[n - 1] = Step::Index(j);
                        Ok(Value::Pointer(Pointer::To { root, path }))
                    }
                    _ => Err(EngineError::unsupported(
                        "arithmetic on a pointer to a non-array object",
                        span,
                    )),
                }
            }
            Value::Pointer(Pointer::Null) => {
                self.fail(
                    env,
                    Property::InvalidPointer,
                    "arithmetic on a null pointer".into(),
                    span,
                );
                Ok(Value::Pointer(Pointer::Null))
            }
            Value::Undefined => {
                self.fail(
                    env,
                    Property::InvalidPointer,
                    "arithmetic on an uninitialised pointer".into(),
                    span,
                );
                Ok(Value::Undefined)
            }
            other => Err(EngineError::unsupported(
                format!("pointer arithmetic on {other:?}"),
                span,
            )),
        }
    }

    /// With `--signed-overflow`, checks that `value`, the result of the signed
    /// integer operation `e`, lies within `e`'s type (C11 6.5p5: otherwise the
    /// behaviour is undefined).
    pub(super) fn check_signed_overflow(
        &mut self,
        env: &dyn Environment,
        value: &Value,
        e: &MExpr,
    ) {
        if self.oracle.signed_overflow() == SignedOverflow::Unchecked {
            return;
        }
        let (MType::Int(kind), Value::Data(x)) = (&e.ty, value) else {
            return;
        };
        if kind.is_unsigned() || self.f.type_of(*x) != Type::Int {
            return;
        }
        let f = self.f;
        let (lo, hi) = kind.range();
        let claim = f.and(f.le(f.int(lo), *x), f.le(*x, f.int(hi)));
        self.check_signed(env, claim, e, "can leave");
    }

    /// Checks `claim` (`signed-overflow`) for the operation `e` of a signed type;
    /// the message says that `e` `what` its type.
    fn check_signed(&mut self, env: &dyn Environment, claim: Expr, e: &MExpr, what: &str) {
        let MType::Int(kind) = &e.ty else {
            return;
        };
        self.check(
            env,
            claim,
            Property::SignedOverflow,
            || {
                let text = tass_model::api::render_expr(env.model(), e);
                format!("signed overflow: `{text}` {what} `{}`", kind.c_name())
            },
            &e.span,
        );
    }

    /// With `--signed-overflow`, the undefined signed operations whose result
    /// alone does not show it: `a % b` when `a / b` leaves the type (`INT_MIN % -1`,
    /// C11 6.5.5p6) and `a << b` with a negative `a` (C11 6.5.7p4).
    fn check_signed_operands(
        &mut self,
        env: &dyn Environment,
        op: BinaryOp,
        x: Expr,
        y: Expr,
        e: &MExpr,
    ) {
        if self.oracle.signed_overflow() == SignedOverflow::Unchecked {
            return;
        }
        let MType::Int(kind) = &e.ty else {
            return;
        };
        let f = self.f;
        if kind.is_unsigned() || f.type_of(x) != Type::Int || f.type_of(y) != Type::Int {
            return;
        }
        let (claim, what) = match op {
            BinaryOp::Mod => {
                let (lo, hi) = kind.range();
                let quotient = f.int_div(x, y);
                let fits = f.and(f.le(f.int(lo), quotient), f.le(quotient, f.int(hi)));
                (fits, "its quotient can leave")
            }
            BinaryOp::Shl => (f.le(f.int(0), x), "shifts a negative value of"),
            _ => return,
        };
        self.check_signed(env, claim, e, what);
    }

    /// C leaves `x << n` and `x >> n` undefined unless `0 <= n < width` of the
    /// promoted left operand (the expression's type), for signed and unsigned
    /// types alike: checked always (x86 masks the count, so `1u << 32` gives 1 there,
    /// not 0). Found by the adversarial probe (`shift_count_as_wide_as_the_type`).
    fn check_shift_count(&mut self, env: &dyn Environment, count: Expr, e: &MExpr) {
        let MType::Int(kind) = &e.ty else {
            return;
        };
        let f = self.f;
        if f.type_of(count) != Type::Int {
            return;
        }
        let width = i64::from(kind.bits());
        let claim = f.and(f.le(f.int(0), count), f.lt(count, f.int(width)));
        self.check(
            env,
            claim,
            Property::ShiftCount,
            || {
                let text = tass_model::api::render_expr(env.model(), e);
                format!(
                    "shift count out of range: `{text}` shifts a `{}` by a count outside 0..{}",
                    kind.c_name(),
                    width - 1
                )
            },
            &e.span,
        );
    }
}
