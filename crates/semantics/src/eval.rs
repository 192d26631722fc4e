//! The evaluator: model expression + environment -> dynamic value, with checks.

use std::sync::Arc;

use smallvec::SmallVec;
use tass_dynamic::api::{
    is_undefined_data, read_at, size_of, undefined_data, write_at, AccessError, Handle, HeapObject,
    Pointer, Root, Step, Value,
};
use tass_model::api::{
    BinaryOp, Expr as MExpr, ExprKind, LibraryConstant, LibraryFunction, QuantifierKind, Span,
    Type as MType, UnaryOp, VarId, VarScope,
};
use tass_symbolic::api::{BigInt, BigRational, BitOp, Expr, ExprFactory, Type};

use crate::env::Environment;
use crate::float::{Arith, Exactness, FloatComparison, Floats};
use crate::oracle::{Decision, Oracle, SignedOverflow};
use crate::report::{Certainty, EngineError, Property, Violation};

/// `RAND_MAX` of the library model (glibc's value).
pub const RAND_MAX: i64 = 2_147_483_647;

/// A place in memory: a dynamic variable and a path inside it (a non-null pointer).
pub type Place = (Root, SmallVec<[Step; 2]>);

/// Evaluates expressions against an [`Environment`], checking as it goes.
///
/// Each check (array bounds, division by zero, pointer validity, uninitialised
/// reads) asks the [`Oracle`] whether the claim follows from the path condition
/// (plus the conditions of enclosing `&&`, `||`, `?:`). If not, a [`Violation`]
/// is recorded (`provable` when the prover found a counterexample, `possible`
/// when it could not decide) and evaluation continues assuming the claim, so one
/// bug does not hide the next: the assumed claims are in
/// [`Evaluator::assumed`] and the executor conjoins them to the path condition.
pub struct Evaluator<'a> {
    f: &'a ExprFactory,
    oracle: &'a mut Oracle,
    /// Violations found so far.
    pub violations: Vec<Violation>,
    /// Claims assumed after failed checks (to be conjoined to the path condition).
    pub assumed: Vec<Expr>,
    context: Vec<Expr>,
    bound: Vec<(VarId, Expr)>,
    checking: bool,
    process: usize,
}

fn int_of(f: &ExprFactory, e: Expr) -> Expr {
    match f.type_of(e) {
        Type::Int => e,
        _ => f.cast(e, &Type::Int),
    }
}

/// The symbolic type of a scalar model type (bool, char, integers, reals).
pub fn scalar_type(ty: &MType) -> Option<Type> {
    match ty {
        MType::Bool => Some(Type::Bool),
        MType::Char => Some(Type::Char),
        MType::Int(_) => Some(Type::Int),
        MType::Real(_) => Some(Type::Real),
        _ => None,
    }
}

/// True if values of `ty` are [`Value::Data`] (scalars and arrays of them).
pub fn is_data_type(ty: &MType) -> bool {
    match ty {
        MType::Array(e, _) => is_data_type(e),
        t => scalar_type(t).is_some(),
    }
}

/// Exponents beyond these are far outside every C floating type (long double
/// reaches about 1e4932); refusing them keeps `1e-99999999` from building a
/// hundred-million-digit number.
const MAX_DECIMAL_EXPONENT: i64 = 5_000;
const MAX_BINARY_EXPONENT: i64 = 17_000;

/// Parses a C floating constant (decimal or hexadecimal, suffix already removed)
/// into an exact rational (`None` if malformed or with an absurd exponent).
pub fn parse_real_literal(text: &str) -> Option<BigRational> {
    // The front folds a unary minus into the constant: `-2.5` arrives as one literal.
    if let Some(magnitude) = text.trim().strip_prefix('-') {
        return parse_real_literal(magnitude).map(|r| -r);
    }
    let t = text.trim().trim_end_matches(['f', 'F', 'l', 'L']);
    let ten = BigInt::from(10);
    if let Some(hex) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        let (mant, exp) = match hex.find(['p', 'P']) {
            Some(k) => (&hex[..k], hex[k + 1..].parse::<i64>().ok()?),
            None => (hex, 0),
        };
        let (ip, fp) = mant.split_once('.').unwrap_or((mant, ""));
        let digits = format!("{ip}{fp}");
        let m = BigInt::parse_bytes(
            if digits.is_empty() {
                b"0"
            } else {
                digits.as_bytes()
            },
            16,
        )?;
        let e2 = exp.checked_sub(4 * fp.len() as i64)?;
        if e2.abs() > MAX_BINARY_EXPONENT {
            return None;
        }
        let two = BigInt::from(2);
        let r = BigRational::from_integer(m);
        return Some(if e2 >= 0 {
            r * BigRational::from_integer(num_traits::pow(two, e2 as usize))
        } else {
            r / BigRational::from_integer(num_traits::pow(two, (-e2) as usize))
        });
    }
    let (mant, exp) = match t.find(['e', 'E']) {
        Some(k) => (&t[..k], t[k + 1..].parse::<i64>().ok()?),
        None => (t, 0),
    };
    let (ip, fp) = mant.split_once('.').unwrap_or((mant, ""));
    if ip.is_empty() && fp.is_empty() {
        return None;
    }
    if !ip.chars().chain(fp.chars()).all(|c| c.is_ascii_digit()) {
        return None;
    }
    let digits = format!("{ip}{fp}");
    let m = BigInt::parse_bytes(digits.as_bytes(), 10)?;
    let e10 = exp.checked_sub(fp.len() as i64)?;
    if e10.abs() > MAX_DECIMAL_EXPONENT {
        return None;
    }
    let r = BigRational::from_integer(m);
    Some(if e10 >= 0 {
        r * BigRational::from_integer(num_traits::pow(ten, e10 as usize))
    } else {
        r / BigRational::from_integer(num_traits::pow(ten, (-e10) as usize))
    })
}

/// What a check claims, in words (for claims that are simply `false`).
fn claim_phrase(property: Property) -> &'static str {
    match property {
        Property::OutOfBounds => "the index or offset lies within its object",
        Property::DivisionByZero => "the divisor is not 0",
        Property::SignedOverflow => "the result lies within its type",
        Property::ShiftCount => "the shift count lies in 0 .. width - 1",
        Property::OverlappingCopy => "the source and destination do not overlap",
        Property::InvalidPointer => "the pointer (or variable) is valid and initialised",
        Property::Assertion => "the asserted condition holds",
        Property::MemoryLeak => "every heap block and request is freed or completed",
        Property::MpiInitFinalize => "MPI is initialised before use and finalised once",
        Property::Deadlock => "some process can make progress",
        Property::MpiCount => "the count is non-negative and fits the buffer",
        Property::MpiRank => "the rank names a process of the communicator",
        Property::MpiType => "the datatypes of sender and receiver agree",
        Property::UnreceivedMessage => "every message sent is received",
        Property::BufferOverflow => "the message fits the receive buffer",
        Property::CollectiveMismatch => "all processes make the same collective call",
        Property::NotEquivalent => "the outputs of both programs are equal",
        Property::CollectiveAssertion => "the collective assertion holds",
        Property::Invariant => "the invariant holds",
        Property::AssumptionVacuous => "the assumption is satisfiable",
        Property::Unsupported => "the construct is supported",
    }
}

/// The integer value of an MPI library constant used as an `int`.
fn library_int(c: LibraryConstant) -> Option<i64> {
    c.int_value()
}

impl<'a> Evaluator<'a> {
    /// An evaluator for the step of process `process`. With `checking` false no
    /// check is made (used for guards when computing enabled transitions).
    pub fn new(f: &'a ExprFactory, oracle: &'a mut Oracle, process: usize, checking: bool) -> Self {
        Evaluator {
            f,
            oracle,
            violations: Vec::new(),
            assumed: Vec::new(),
            context: Vec::new(),
            bound: Vec::new(),
            checking,
            process,
        }
    }

    /// The factory.
    pub fn factory(&self) -> &'a ExprFactory {
        self.f
    }

    /// The oracle.
    pub fn oracle(&mut self) -> &mut Oracle {
        self.oracle
    }

    /// Path condition and everything assumed so far (without the `&&`/`||` context).
    pub fn current_pc(&self, env: &dyn Environment) -> Expr {
        let mut pc = env.path_condition();
        for &a in &self.assumed {
            pc = self.f.and(pc, a);
        }
        pc
    }

    fn assumption(&self, env: &dyn Environment) -> Expr {
        let mut pc = self.current_pc(env);
        for &c in &self.context {
            pc = self.f.and(pc, c);
        }
        pc
    }

    fn context_conj(&self) -> Expr {
        self.f.and_all(self.context.iter().copied())
    }

    /// Checks `claim` under the current assumption; records a violation of
    /// `property` if it may fail and then assumes it.
    pub fn check(
        &mut self,
        env: &dyn Environment,
        claim: Expr,
        property: Property,
        message: impl FnOnce() -> String,
        span: &Span,
    ) {
        self.check_and_assume(env, claim, None, property, message, span, true)
    }

    /// Reports a violation that does not constrain the path (an uninitialised
    /// read: execution continues with an arbitrary value), if the path is feasible.
    pub fn report(
        &mut self,
        env: &dyn Environment,
        property: Property,
        message: String,
        span: &Span,
    ) {
        let ff = self.f.ff();
        self.check_and_assume(env, ff, None, property, || message, span, false)
    }

    /// `phrase` says in words what a claim that is simply `false` asks for
    /// (default: [`claim_phrase`] of the property).
    #[allow(clippy::too_many_arguments)]
    fn check_and_assume(
        &mut self,
        env: &dyn Environment,
        claim: Expr,
        phrase: Option<&str>,
        property: Property,
        message: impl FnOnce() -> String,
        span: &Span,
        assume: bool,
    ) {
        if !self.checking || self.f.as_bool(claim) == Some(true) {
            return;
        }
        let assumption = self.assumption(env);
        if self.f.as_bool(assumption) == Some(false) {
            return;
        }
        let decision = self.oracle.valid(self.f, assumption, claim);
        let (certainty, witness) = match decision {
            Decision::Holds => return,
            // With `sqrt` and co uninterpreted the oracle answers `Fails` only for
            // a counterexample that does not lean on them (or, at herbrand/ieee
            // level, one confirmed in IEEE doubles).
            Decision::Fails { witness } => (Certainty::Provable, witness),
            Decision::Unknown => (Certainty::Possible, None),
        };
        self.violations.push(Violation {
            property,
            certainty,
            message: message(),
            span: span.clone(),
            process: self.process,
            witness,
            claim: if self.f.as_bool(claim) == Some(false) {
                format!(
                    "{} (false on every execution of this path)",
                    phrase.unwrap_or_else(|| claim_phrase(property))
                )
            } else {
                self.f.pretty(claim)
            },
        });
        if assume {
            let ctx = self.context_conj();
            let keep = self.f.implies(ctx, claim);
            self.assumed.push(keep);
        }
    }

    /// Reports a definite violation (the claim is `false`) if the current path is
    /// feasible; afterwards the path (under the current context) is dead.
    pub fn fail(
        &mut self,
        env: &dyn Environment,
        property: Property,
        message: String,
        span: &Span,
    ) {
        let ff = self.f.ff();
        self.check(env, ff, property, || message, span);
    }

    /// [`Evaluator::fail`] with the claim that fails said in words (e.g.
    /// "MPI_Abort is not called"), for a check no expression of the program states.
    pub fn fail_claiming(
        &mut self,
        env: &dyn Environment,
        property: Property,
        message: String,
        claim: &str,
        span: &Span,
    ) {
        let ff = self.f.ff();
        self.check_and_assume(env, ff, Some(claim), property, || message, span, true);
    }

    /// Evaluates a condition to a boolean expression.
    pub fn eval_bool(&mut self, env: &dyn Environment, e: &MExpr) -> Result<Expr, EngineError> {
        let v = self.eval(env, e)?;
        self.as_condition(v, &e.span)
    }

    fn as_condition(&mut self, v: Value, span: &Span) -> Result<Expr, EngineError> {
        match v {
            Value::Data(x) => Ok(match self.f.type_of(x) {
                Type::Bool => x,
                // Which floating type does not matter: `fp_eq` compares values.
                Type::Real => match self.floats(&MType::DOUBLE) {
                    Some(fl) => fl.truth(x),
                    None => self.f.cast(x, &Type::Bool),
                },
                _ => self.f.cast(x, &Type::Bool),
            }),
            Value::Pointer(p) => Ok(self.f.bool(!p.is_null())),
            Value::Undefined => Ok(self.f.fresh_symbol("undef", Type::Bool)),
            other => Err(EngineError::unsupported(
                format!("condition of value {other:?}"),
                span,
            )),
        }
    }

    /// Evaluates an integer expression.
    pub fn eval_int(&mut self, env: &dyn Environment, e: &MExpr) -> Result<Expr, EngineError> {
        match self.eval(env, e)? {
            Value::Data(x) => Ok(int_of(self.f, x)),
            Value::Undefined => Ok(self.f.fresh_symbol("undef", Type::Int)),
            other => Err(EngineError::unsupported(
                format!("integer expression with value {other:?}"),
                &e.span,
            )),
        }
    }

    fn fresh_of(&self, ty: &MType) -> Value {
        match scalar_type(ty) {
            Some(t) => Value::Data(self.f.fresh_symbol("undef", t)),
            None => Value::Undefined,
        }
    }

    /// Evaluates `e` to a value (an rvalue).
    pub fn eval(&mut self, env: &dyn Environment, e: &MExpr) -> Result<Value, EngineError> {
        let f = self.f;
        Ok(match &e.kind {
            ExprKind::IntLit(i) => match scalar_type(&e.ty) {
                Some(Type::Real) if self.floats(&e.ty).is_some() => {
                    let fl = self.floats(&e.ty).expect("a floating type");
                    Value::Data(fl.of_int(f.int(BigInt::from(*i)), Exactness::MayRound))
                }
                Some(Type::Real) => {
                    Value::Data(f.real(BigRational::from_integer(BigInt::from(*i))))
                }
                Some(Type::Bool) => Value::Data(f.bool(*i != 0)),
                Some(Type::Char) => {
                    Value::Data(wrap_signed(f, f.int(BigInt::from(*i)), &MType::Char))
                }
                _ => Value::Data(f.int(BigInt::from(*i))).wrapped_to(f, &e.ty),
            },
            ExprKind::RealLit(text) => {
                let r = parse_real_literal(text).ok_or_else(|| {
                    EngineError::invalid(
                        format!("malformed or out-of-range floating constant `{text}`"),
                        Some(&e.span),
                    )
                })?;
                if matches!(e.ty, MType::Int(_)) {
                    Value::Data(f.int(r.to_integer()))
                } else if let Some(fl) = self.floats(&e.ty) {
                    Value::Data(fl.literal(&r, Some(text)))
                } else {
                    Value::Data(f.real(r))
                }
            }
            ExprKind::CharLit(c) => match scalar_type(&e.ty) {
                Some(Type::Int) => Value::Data(f.int(*c)),
                _ => Value::Data(f.char(*c as u32)),
            },
            ExprKind::BoolLit(b) => Value::Data(f.bool(*b)),
            ExprKind::StringLit(bytes) => {
                let mut els: Vec<Expr> = bytes.iter().map(|&b| f.char(b as u32)).collect();
                els.push(f.char(0));
                let ty = Type::array(Type::Char, Some(f.int(els.len())));
                Value::Data(f.array_literal(ty, &els))
            }
            ExprKind::NullPointer => Value::Pointer(Pointer::Null),
            ExprKind::Zero => self.zero_value(env, &e.ty, &e.span)?,
            ExprKind::Var(v) => {
                if let Some(&(_, s)) = self.bound.iter().rev().find(|(b, _)| b == v) {
                    return Ok(Value::Data(s));
                }
                self.read_lvalue(env, e)?
            }
            ExprKind::Index(..) | ExprKind::Field(..) | ExprKind::Deref(_) => {
                self.read_lvalue(env, e)?
            }
            ExprKind::RemoteVar { .. } => self.read_lvalue(env, e)?,
            ExprKind::SpecVar(_) => self.read_lvalue(env, e)?,
            ExprKind::Unary(op, a) => {
                let x = self.eval_data(env, a)?;
                let value = Value::Data(match op {
                    UnaryOp::Neg if !f.type_of(x).is_numeric() => f.neg(int_of(f, x)),
                    UnaryOp::Neg if self.floats(&e.ty).is_some() => {
                        self.floats(&e.ty).expect("a floating type").neg(x)
                    }
                    UnaryOp::Neg => f.neg(x),
                    UnaryOp::Not => {
                        let b = self.as_condition(Value::Data(x), &a.span)?;
                        f.not(b)
                    }
                    UnaryOp::BitNot => f.bit_not(int_of(f, x)),
                })
                .wrapped_to(f, &e.ty);
                if *op == UnaryOp::Neg {
                    self.check_signed_overflow(env, &value, e);
                }
                value
            }
            ExprKind::Binary(op, a, b) => {
                let value = self.eval_binary(env, e, *op, a, b)?.wrapped_to(f, &e.ty);
                use BinaryOp::{Add, Div, Mul, Shl, Sub};
                if matches!(op, Add | Sub | Mul | Div | Shl) {
                    self.check_signed_overflow(env, &value, e);
                }
                value
            }
            ExprKind::LogicalAnd(a, b) => {
                let x = self.eval_bool(env, a)?;
                if f.as_bool(x) == Some(false) {
                    return Ok(Value::Data(x));
                }
                self.context.push(x);
                let y = self.eval_bool(env, b);
                self.context.pop();
                Value::Data(f.and(x, y?))
            }
            ExprKind::LogicalOr(a, b) => {
                let x = self.eval_bool(env, a)?;
                if f.as_bool(x) == Some(true) {
                    return Ok(Value::Data(x));
                }
                self.context.push(f.not(x));
                let y = self.eval_bool(env, b);
                self.context.pop();
                Value::Data(f.or(x, y?))
            }
            ExprKind::Conditional(c, a, b) => {
                let x = self.eval_bool(env, c)?;
                match f.as_bool(x) {
                    Some(true) => return self.eval(env, a),
                    Some(false) => return self.eval(env, b),
                    None => {}
                }
                self.context.push(x);
                let va = self.eval(env, a);
                self.context.pop();
                self.context.push(f.not(x));
                let vb = self.eval(env, b);
                self.context.pop();
                match (va?, vb?) {
                    (Value::Data(p), Value::Data(q)) => Value::Data(f.ite(x, p, q)),
                    (p, q) if p == q => p,
                    _ => {
                        return Err(EngineError::unsupported(
                            "a conditional choosing between non-numeric values (pointers, structs) on a symbolic condition",
                            &e.span,
                        ))
                    }
                }
            }
            ExprKind::AddressOf(a) => {
                let (root, path) = self.eval_place(env, a, true)?;
                Value::Pointer(Pointer::To { root, path })
            }
            ExprKind::Decay(a) if matches!(a.kind, ExprKind::StringLit(_)) => {
                // A string literal has no variable to point into: its pointer is
                // represented by the characters themselves (enough for printf & co;
                // dereferencing it is reported as unsupported).
                self.eval(env, a)?
            }
            ExprKind::Decay(a) => {
                let (root, mut path) = self.eval_place(env, a, true)?;
                path.push(Step::Index(f.int(0)));
                Value::Pointer(Pointer::To { root, path })
            }
            ExprKind::Cast(a) => {
                let v = self.eval(env, a)?;
                match (v, &a.ty, &e.ty) {
                    // Between pointers to different types: the object must hold a
                    // `T` there (byte views are resolved, see bytes.rs).
                    (Value::Pointer(p), MType::Pointer(from), MType::Pointer(to))
                        if from != to && !crate::bytes::is_byte_type(to) =>
                    {
                        Value::Pointer(self.typed_pointer(env, p, to, &e.span)?)
                    }
                    (v, _, _) => self.convert(v, &a.ty, &e.ty, &e.span)?,
                }
            }
            ExprKind::SizeOf(t) => match size_of(env.model(), t) {
                Some(n) => Value::Data(f.int(n)),
                None => {
                    return Err(EngineError::unsupported(
                        "sizeof of a type with a non-constant size",
                        &e.span,
                    ))
                }
            },
            ExprKind::MathCall(func, args) => {
                let mut xs = Vec::with_capacity(args.len());
                for a in args {
                    xs.push(self.eval_data(env, a)?);
                }
                Value::Data(self.math(*func, &xs, &e.ty, &e.span)?)
            }
            ExprKind::AbstractCall(fid, args) => {
                let mut xs = Vec::with_capacity(args.len());
                let mut tys = Vec::with_capacity(args.len());
                for a in args {
                    let x = self.eval_data(env, a)?;
                    tys.push(f.type_of(x));
                    xs.push(x);
                }
                let rt = scalar_type(&e.ty).ok_or_else(|| {
                    EngineError::unsupported("abstract function with a non-scalar result", &e.span)
                })?;
                let name = &env.model().function(*fid).name;
                let sym = f.symbol(name, Type::function(tys, rt));
                Value::Data(f.apply(sym, &xs))
            }
            ExprKind::LibraryConstant(c) => match (library_int(*c), scalar_type(&e.ty)) {
                (Some(n), Some(Type::Int)) => Value::Data(f.int(n)),
                // Each process's MPI_COMM_SELF is communicator `rank + 1`, made
                // when the run starts (see tass-state's communicator table).
                _ if *c == LibraryConstant::MpiCommSelf => {
                    Value::Handle(Handle::Comm(env.process() as u32 + 1))
                }
                _ => Value::Handle(Handle::Constant(*c)),
            },
            ExprKind::Quantifier {
                kind,
                var,
                constraint,
                body,
            } => {
                let model = env.model();
                let bv = model.var(*var);
                let ty = scalar_type(&bv.ty)
                    .filter(|t| t.is_numeric())
                    .ok_or_else(|| {
                        EngineError::unsupported(
                            "a quantifier over a non-numeric variable",
                            &e.span,
                        )
                    })?;
                let sym = f.symbol(&format!("{}'", bv.name), ty);
                self.bound.push((*var, sym));
                let was = std::mem::replace(&mut self.checking, false);
                let c = match constraint {
                    Some(c) => self.eval_bool(env, c),
                    None => Ok(f.tt()),
                };
                let b = self.eval_bool(env, body);
                self.checking = was;
                self.bound.pop();
                let (c, b) = (c?, b?);
                Value::Data(match kind {
                    QuantifierKind::Forall => f.forall(sym, f.implies(c, b)),
                    QuantifierKind::Exists => f.exists(sym, f.and(c, b)),
                })
            }
            ExprKind::Pid => Value::Data(f.int(env.process())),
            ExprKind::NProcs => Value::Data(f.int(env.nprocs())),
        })
    }

    /// Evaluates an expression whose value must be data.
    pub fn eval_data(&mut self, env: &dyn Environment, e: &MExpr) -> Result<Expr, EngineError> {
        match self.eval(env, e)? {
            Value::Data(x) => Ok(x),
            Value::Undefined => match self.fresh_of(&e.ty) {
                Value::Data(x) => Ok(x),
                _ => Err(EngineError::unsupported(
                    "an undefined non-scalar operand",
                    &e.span,
                )),
            },
            other => Err(EngineError::unsupported(
                format!("operand with value {other:?} where a number was expected"),
                &e.span,
            )),
        }
    }

    fn math(
        &mut self,
        func: LibraryFunction,
        xs: &[Expr],
        ty: &MType,
        span: &Span,
    ) -> Result<Expr, EngineError> {
        use LibraryFunction::*;
        let f = self.f;
        if let (Delta, [x, y]) = (func, xs) {
            // 1 when x < y, else 0: an integer, so `in += delta(..)` adds without
            // branching; `<` of the arithmetic level (uninterpreted at herbrand/ieee).
            let (x, y) = (f.cast(*x, &Type::Real), f.cast(*y, &Type::Real));
            let less = match self.floats(&MType::DOUBLE) {
                Some(fl) => fl.compare(FloatComparison::Lt, x, y),
                None => f.lt(x, y),
            };
            return Ok(f.ite(less, f.int(1), f.int(0)));
        }
        if let Some(fl) = self.floats(ty) {
            if matches!(
                func,
                Fabs | Fmin | Fmax | Pow | Floor | Ceil | Sqrt | Exp | Log | Sin | Cos
            ) {
                let args: Vec<Expr> = xs
                    .iter()
                    .map(|&x| match f.type_of(x) {
                        Type::Real => x,
                        _ => fl.of_int(int_of(f, x), Exactness::MayRound),
                    })
                    .collect();
                return Ok(fl.math(func.c_name(), &args));
            }
        }
        let rt = scalar_type(ty).unwrap_or(Type::Real);
        let arg = |k: usize| -> Result<Expr, EngineError> {
            xs.get(k).copied().ok_or_else(|| {
                EngineError::invalid(
                    format!("{} needs {} argument(s)", func.c_name(), k + 1),
                    Some(span),
                )
            })
        };
        let num = |x: Expr| -> Expr {
            if f.type_of(x) == rt {
                x
            } else {
                f.cast(x, &rt)
            }
        };
        Ok(match func {
            Abs | Labs | Fabs => {
                let x = num(arg(0)?);
                let z = f.zero(&rt);
                f.ite(f.ge(x, z), x, f.neg(x))
            }
            Fmin | Fmax => {
                let (x, y) = (num(arg(0)?), num(arg(1)?));
                if func == Fmin {
                    f.ite(f.le(x, y), x, y)
                } else {
                    f.ite(f.ge(x, y), x, y)
                }
            }
            Pow => {
                let (x, y) = (num(arg(0)?), arg(1)?);
                match f.as_concrete_rational(y) {
                    Some(k)
                        if k.is_integer()
                            && k >= BigRational::from_integer(0.into())
                            && k <= BigRational::from_integer(64.into()) =>
                    {
                        let k: u32 = k.to_integer().try_into().unwrap_or(0);
                        if k == 0 {
                            f.one(&rt)
                        } else {
                            f.pow(x, k)
                        }
                    }
                    _ => self.uninterpreted(func.c_name(), &[x, num(y)], rt),
                }
            }
            Floor | Ceil => {
                // Exact, from truncation: t = trunc(x); floor = t or t-1, ceil = t or t+1.
                let x = num(arg(0)?);
                let real_x = if f.type_of(x) == Type::Real {
                    x
                } else {
                    f.to_real(x)
                };
                let t = f.to_real(f.to_int(real_x));
                let one = f.one(&Type::Real);
                let r = if func == Floor {
                    f.ite(f.le(t, real_x), t, f.sub(t, one))
                } else {
                    f.ite(f.ge(t, real_x), t, f.add(t, one))
                };
                num(r)
            }
            Sqrt => {
                let x = num(arg(0)?);
                match f.as_concrete_rational(x).and_then(|q| exact_sqrt(&q)) {
                    Some(root) => f.number(root, &rt),
                    None => self.uninterpreted(func.c_name(), &[x], rt),
                }
            }
            Exp | Log | Sin | Cos => {
                let x = num(arg(0)?);
                let zero = BigRational::from_integer(0.into());
                let one = BigRational::from_integer(1.into());
                match (func, f.as_concrete_rational(x)) {
                    (Exp | Cos, Some(q)) if q == zero => f.one(&rt),
                    (Sin, Some(q)) if q == zero => f.zero(&rt),
                    (Log, Some(q)) if q == one => f.zero(&rt),
                    _ => self.uninterpreted(func.c_name(), &[x], rt),
                }
            }
            other => {
                return Err(EngineError::unsupported(
                    format!("{} as a pure function", other.c_name()),
                    span,
                ))
            }
        })
    }

    /// The floating operations of model type `ty` at the arithmetic level, if
    /// `ty` is a floating type and the level is herbrand or ieee (`None` at real
    /// level: `float` and `double` are then the reals).
    fn floats(&self, ty: &MType) -> Option<Floats<'a>> {
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
        let comparison = |c| Ok(Value::Data(fl.compare(c, x, y)));
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
            Lt => comparison(FloatComparison::Lt),
            Le => comparison(FloatComparison::Le),
            Gt => comparison(FloatComparison::Gt),
            Ge => comparison(FloatComparison::Ge),
            Eq => comparison(FloatComparison::Eq),
            Ne => comparison(FloatComparison::Ne),
            _ => Err(EngineError::unsupported(
                format!("`{}` on floating operands", op.symbol()),
                &e.span,
            )),
        }
    }

    /// A math library function left uninterpreted; recorded so that a violation
    /// depending on it is reported as possible, not provable.
    fn uninterpreted(&mut self, name: &str, xs: &[Expr], rt: Type) -> Expr {
        let f = self.f;
        let tys: Vec<Type> = xs.iter().map(|&x| f.type_of(x)).collect();
        let sym = f.symbol(name, Type::function(tys, rt));
        self.oracle.note_abstraction(sym);
        f.apply(sym, xs)
    }

    fn eval_binary(
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
            PointerDiff => {
                let p = self.eval(env, a)?;
                let q = self.eval(env, b)?;
                if let Some(d) = self.byte_pointer_difference(env, &p, &q, &a.ty, &e.span)? {
                    return Ok(Value::Data(d));
                }
                return match (p, q) {
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
                };
            }
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
                    Eq => Ok(Value::Data(f.bool(h1 == h2))),
                    Ne => Ok(Value::Data(f.bool(h1 != h2))),
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
            if matches!(op, Add | Sub | Mul | Div | Lt | Le | Gt | Ge | Eq | Ne) {
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
        } else if (tx == Type::Char || tx == Type::Bool) && !matches!(op, Eq | Ne) {
            x = int_of(f, x);
            y = int_of(f, y);
        }
        let result = match op {
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
            Lt => f.lt(x, y),
            Le => f.le(x, y),
            Gt => f.gt(x, y),
            Ge => f.ge(x, y),
            Eq => f.eq(x, y),
            Ne => f.ne(x, y),
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
        };
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
        match op {
            BinaryOp::Eq => Ok(same.unwrap_or_else(|| f.ff())),
            BinaryOp::Ne => Ok(f.not(same.unwrap_or_else(|| f.ff()))),
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => match (p, q) {
                (Pointer::To { root: r1, path: p1 }, Pointer::To { root: r2, path: p2 })
                    if r1 == r2
                        && p1.len() == p2.len()
                        && !p1.is_empty()
                        && p1[..p1.len() - 1] == p2[..p2.len() - 1] =>
                {
                    match (p1[p1.len() - 1], p2[p2.len() - 1]) {
                        (Step::Index(i), Step::Index(j)) => Ok(match op {
                            BinaryOp::Lt => f.lt(i, j),
                            BinaryOp::Le => f.le(i, j),
                            BinaryOp::Gt => f.gt(i, j),
                            _ => f.ge(i, j),
                        }),
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
            _ => Err(EngineError::unsupported(
                format!("`{}` on pointers", op.symbol()),
                span,
            )),
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
    fn check_signed_overflow(&mut self, env: &dyn Environment, value: &Value, e: &MExpr) {
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
        self.check(
            env,
            claim,
            Property::SignedOverflow,
            || {
                let text = tass_model::api::render_expr(env.model(), e);
                format!("signed overflow: `{text}` can leave `{}`", kind.c_name())
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

    /// Converts `v` from model type `from` to `to` (C conversions).
    pub fn convert(
        &mut self,
        v: Value,
        from: &MType,
        to: &MType,
        span: &Span,
    ) -> Result<Value, EngineError> {
        let f = self.f;
        if let Value::Data(x) = v {
            if let Some(fl) = self.floats(to) {
                return Ok(Value::Data(match from {
                    MType::Real(kind) => fl.convert_from(*kind, x),
                    MType::Int(kind) => fl.of_int(int_of(f, x), fl.holds_integers_of(kind.bits())),
                    MType::Char | MType::Bool => fl.of_int(int_of(f, x), Exactness::Exact),
                    _ => fl.of_int(int_of(f, x), Exactness::MayRound),
                }));
            }
            if let (Some(fl), MType::Bool) = (self.floats(from), to) {
                return Ok(Value::Data(fl.truth(x)));
            }
            if let (MType::Real(_), Some(range), Type::Real) = (from, to.int_range(), f.type_of(x))
            {
                if !matches!(to, MType::Bool) {
                    return Ok(Value::Data(truncated_into(f, x, range)));
                }
            }
        }
        match (v, to) {
            (Value::Data(x), t) if scalar_type(t).is_some() => {
                let st = scalar_type(t).unwrap_or(Type::Int);
                if needs_signed_wrap(from, t) && f.type_of(x) != Type::Real {
                    return Ok(Value::Data(wrap_signed(f, int_of(f, x), t)));
                }
                let x = if f.type_of(x) == st {
                    x
                } else {
                    f.cast(x, &st)
                };
                if fits_in(from, t) {
                    // every value of `from` is one of `t`: nothing to reduce
                    return Ok(Value::Data(x));
                }
                Ok(Value::Data(wrap_unsigned(f, x, t)))
            }
            (Value::Pointer(p), MType::Bool) => Ok(Value::Data(f.bool(!p.is_null()))),
            (Value::Pointer(p), MType::Pointer(_)) => Ok(Value::Pointer(p)),
            (Value::Data(x), MType::Pointer(_)) => {
                if f.concrete_int_ref(x).is_some_and(num_traits::Zero::is_zero) {
                    Ok(Value::Pointer(Pointer::Null))
                } else if matches!(f.type_of(x), Type::Array(..)) {
                    // string literals have no object of their own
                    Err(EngineError::unsupported(
                        "a pointer to a string literal (copy the string into a `char` array, or pass the literal to the library function directly)",
                        span,
                    ))
                } else {
                    Err(EngineError::unsupported(
                        "conversion of an integer to a pointer",
                        span,
                    ))
                }
            }
            (Value::Pointer(_), _) => Err(EngineError::unsupported(
                "conversion of a pointer to an integer",
                span,
            )),
            (v, _) => Ok(v),
        }
    }

    // ----- places (lvalues) ------------------------------------------------------

    /// The extent of the array at `root`/`path`, if known.
    pub fn extent_at(&self, env: &dyn Environment, root: Root, path: &[Step]) -> Option<Expr> {
        let f = self.f;
        let mut value = env.get(root)?;
        let mut k = 0;
        // Walk spelled-out components by value; inside data, walk the types (no
        // array reads need to be built just to learn an extent).
        while k < path.len() {
            match (value, path[k]) {
                (Value::Array(items), Step::Index(i)) => {
                    let i = usize::try_from(f.concrete_int_ref(i)?).ok()?;
                    value = items.get(i)?;
                }
                (Value::Struct(fields), Step::Field(j)) => value = fields.get(j as usize)?,
                (Value::Data(_), _) => break,
                _ => return None,
            }
            k += 1;
        }
        match value {
            Value::Data(e) => {
                let mut ty = f.type_of(*e);
                for step in &path[k..] {
                    ty = match (ty, step) {
                        (Type::Array(elem, _), Step::Index(_)) => (*elem).clone(),
                        _ => return None,
                    };
                }
                match ty {
                    Type::Array(_, ext) => ext,
                    _ => None,
                }
            }
            Value::Array(items) if k == path.len() => Some(f.int(items.len())),
            _ => None,
        }
    }

    /// Evaluates an lvalue to the place it denotes. With `address_only` (under `&`),
    /// an index may be one past the end.
    pub fn eval_place(
        &mut self,
        env: &dyn Environment,
        e: &MExpr,
        address_only: bool,
    ) -> Result<Place, EngineError> {
        let f = self.f;
        match &e.kind {
            ExprKind::Var(v) => {
                if matches!(env.model().var(*v).scope, VarScope::Bound) {
                    return Err(EngineError::unsupported(
                        "the address of a quantified variable",
                        &e.span,
                    ));
                }
                Ok((env.root_of(*v), SmallVec::new()))
            }
            ExprKind::Field(s, k) => {
                let (root, mut path) = self.eval_place(env, s, address_only)?;
                path.push(Step::Field(*k as u32));
                Ok((root, path))
            }
            ExprKind::Index(a, i) => {
                let (root, mut path) = self.eval_place(env, a, address_only)?;
                let i = self.eval_int(env, i)?;
                let ext = self.extent_at(env, root, &path).or_else(|| match &a.ty {
                    MType::Array(_, Some(x)) => match x.kind {
                        ExprKind::IntLit(n) => Some(f.int(n)),
                        _ => None,
                    },
                    _ => None,
                });
                if let Some(ext) = ext {
                    let upper = if address_only {
                        f.le(i, ext)
                    } else {
                        f.lt(i, ext)
                    };
                    let claim = f.and(f.le(f.int(0), i), upper);
                    self.check(
                        env,
                        claim,
                        Property::OutOfBounds,
                        || {
                            let text = tass_model::api::render_expr(env.model(), e);
                            let (is, es) = (f.pretty(i), f.pretty(ext));
                            format!("index out of bounds in `{text}`: index {is}, extent {es}")
                        },
                        &e.span,
                    );
                }
                path.push(Step::Index(i));
                Ok((root, path))
            }
            ExprKind::Deref(p) => {
                let pv = self.eval(env, p)?;
                let pv = self.pointer_for_access(env, pv, &e.ty, &e.span)?;
                if let Value::Pointer(Pointer::Bytes { offset, .. }) = &pv {
                    if !address_only {
                        let at = f.pretty(*offset);
                        self.fail(
                            env,
                            Property::OutOfBounds,
                            format!(
                                "dereference of `{}` at byte {at}, the end of its object",
                                tass_model::api::render_expr(env.model(), p)
                            ),
                            &e.span,
                        );
                        return Ok(dead_place());
                    }
                }
                self.deref_place(env, pv, address_only, &e.span, &|| {
                    tass_model::api::render_expr(env.model(), p)
                })
            }
            ExprKind::RemoteVar {
                rank,
                function,
                var,
            } => {
                let rank = self.remote_rank(env, rank)?;
                let root = env
                    .remote_root(rank, *function, *var)
                    .map_err(|why| EngineError::unsupported(why, &e.span))?;
                Ok((root, SmallVec::new()))
            }
            ExprKind::SpecVar(name) => {
                let root = env
                    .spec_root(name)
                    .map_err(|why| EngineError::unsupported(why, &e.span))?;
                Ok((root, SmallVec::new()))
            }
            _ => Err(EngineError::invalid(
                format!(
                    "`{}` is not an lvalue",
                    tass_model::api::render_expr(env.model(), e)
                ),
                Some(&e.span),
            )),
        }
    }

    /// The place a pointer value points to, checking that it is valid: not null,
    /// not uninitialised, not dangling or freed, and (unless `address_only`) inside
    /// its object. On an invalid pointer the violation is recorded and the path
    /// dies; a placeholder place is returned so evaluation can finish.
    pub fn deref_place(
        &mut self,
        env: &dyn Environment,
        pv: Value,
        address_only: bool,
        span: &Span,
        text: &dyn Fn() -> String,
    ) -> Result<Place, EngineError> {
        let f = self.f;
        let dead = |this: &mut Self, env: &dyn Environment, msg: String| -> Place {
            this.fail(env, Property::InvalidPointer, msg, span);
            dead_place()
        };
        let (root, path) = match pv {
            Value::Pointer(Pointer::To { root, path }) => (root, path),
            Value::Pointer(Pointer::Bytes { .. }) => {
                return Err(EngineError::unsupported(
                    format!(
                        "`{}` is a byte pointer (moved by `char *` arithmetic) used where a \
                         pointer to elements is needed; cast it back to the element type",
                        text()
                    ),
                    span,
                ))
            }
            Value::Pointer(Pointer::Null) => {
                return Ok(dead(
                    self,
                    env,
                    format!("dereference of a null pointer `{}`", text()),
                ))
            }
            Value::Undefined => {
                return Ok(dead(
                    self,
                    env,
                    format!("dereference of an uninitialised pointer `{}`", text()),
                ))
            }
            Value::Data(_) => {
                // e.g. a string literal picked by `?:` (literals have no object to
                // point into); the value's internal form would mean nothing to the user
                return Err(EngineError::unsupported(
                    format!(
                        "dereference of `{}`, which does not point into a variable or a malloc'ed block (a string literal chosen at run time has no object: copy it into a char array first)",
                        text()
                    ),
                    span,
                ));
            }
            other => {
                return Err(EngineError::unsupported(
                    format!("dereference of {other:?}"),
                    span,
                ))
            }
        };
        if let Root::Heap { proc, object } = root {
            match env.heap_object(proc as usize, object) {
                Some(HeapObject::Live { .. }) => {}
                Some(HeapObject::Freed) => {
                    return Ok(dead(
                        self,
                        env,
                        format!("use of `{}`, which points to freed memory", text()),
                    ))
                }
                None => {
                    return Ok(dead(
                        self,
                        env,
                        format!("dereference of a dangling pointer `{}`", text()),
                    ))
                }
            }
        } else if env.get(root).is_none() {
            return Ok(dead(
                self,
                env,
                format!(
                    "dereference of a dangling pointer `{}` (its variable no longer exists)",
                    text()
                ),
            ));
        }
        if !address_only {
            if let Some(Step::Index(i)) = path.last().copied() {
                let prefix = &path[..path.len() - 1];
                if let Some(ext) = self.extent_at(env, root, prefix) {
                    let claim = f.and(f.le(f.int(0), i), f.lt(i, ext));
                    self.check(
                        env,
                        claim,
                        Property::OutOfBounds,
                        || {
                            let (is, es) = (f.pretty(i), f.pretty(ext));
                            format!(
                                "dereference of `{}` outside its object: offset {is}, extent {es}",
                                text()
                            )
                        },
                        span,
                    );
                }
            }
        }
        Ok((root, path))
    }

    /// Reads the place an lvalue denotes; reports uninitialised scalar reads.
    fn read_lvalue(&mut self, env: &dyn Environment, e: &MExpr) -> Result<Value, EngineError> {
        let (root, path) = self.eval_place(env, e, false)?;
        let Some(value) = env.get(root) else {
            return Ok(self.fresh_of(&e.ty));
        };
        self.check_union_read(env, root, &path, &e.span)?;
        let v = match read_at(self.f, value, &path) {
            Ok(v) => v,
            Err(AccessError::Undefined) => Value::Undefined,
            Err(AccessError::IndexOutOfRange) => return Ok(self.fresh_of(&e.ty)),
            Err(AccessError::SymbolicIndex) => {
                return Err(EngineError::unsupported(
                    "a symbolic index into an array of pointers or structs",
                    &e.span,
                ))
            }
            Err(err) => return Err(EngineError::invalid(err.to_string(), Some(&e.span))),
        };
        let scalar = scalar_type(&e.ty).is_some() || matches!(e.ty, MType::Pointer(_));
        let undefined = match &v {
            Value::Undefined => scalar,
            Value::Data(x) => scalar && is_undefined_data(self.f, *x),
            _ => false,
        };
        if undefined {
            let text = tass_model::api::render_expr(env.model(), e);
            self.report(
                env,
                Property::InvalidPointer,
                format!("read of uninitialised `{text}`"),
                &e.span,
            );
            return Ok(self.fresh_of(&e.ty));
        }
        if !path.is_empty() {
            self.assume_input_element_in_range(env, root, &v, &e.ty);
        }
        Ok(v)
    }

    /// An element of an input array is a symbolic value of its C type: assume
    /// it lies in the type's range when it is read (scalar inputs get theirs in
    /// the initial path condition). Only the unsigned and the sub-`int` types are
    /// bounded this way: the bounds of `int` and wider signed elements would only
    /// lengthen the path conditions of common programs (3x the time of fevs'
    /// coll-pivot-ok) for the rare claim that needs them; unbounded, such an
    /// element can at worst give a false alarm, never a wrong "holds". A `char`
    /// element is bounded through its code as an integer (plain `char` is signed).
    fn assume_input_element_in_range(
        &mut self,
        env: &dyn Environment,
        root: Root,
        value: &Value,
        ty: &MType,
    ) {
        let (Root::Shared(var), Value::Data(x)) = (root, value) else {
            return;
        };
        let bounded = match ty {
            MType::Int(kind) => kind.is_unsigned() || kind.bits() < 32,
            MType::Char => true,
            _ => false,
        };
        let f = self.f;
        if !bounded
            || env.model().var(var).scope != VarScope::Input
            || !matches!(f.type_of(*x), Type::Int | Type::Char)
            || f.concrete_int_ref(*x).is_some()
            || f.as_concrete_char(*x).is_some()
        {
            return;
        }
        let Some((lo, hi)) = ty.int_range() else {
            return;
        };
        let x = int_of(f, *x);
        let in_range = f.and(f.le(f.int(lo), x), f.le(x, f.int(hi)));
        if !self.assumed.contains(&in_range) {
            self.assumed.push(in_range);
        }
    }

    // ----- values of types ------------------------------------------------------------

    /// The symbolic type of a data model type, evaluating array extents now.
    #[allow(clippy::only_used_in_recursion)]
    pub fn data_type(
        &mut self,
        env: &dyn Environment,
        ty: &MType,
        span: &Span,
    ) -> Result<Option<Type>, EngineError> {
        Ok(match ty {
            MType::Array(elem, ext) => {
                let Some(et) = self.data_type(env, elem, span)? else {
                    return Ok(None);
                };
                let ext = match ext {
                    Some(x) => Some(self.eval_int(env, x)?),
                    None => None,
                };
                Some(Type::array(et, ext))
            }
            t => scalar_type(t),
        })
    }

    /// The rank `e` of `PROC[e]`, a number in `0..NPROCS` under the path
    /// condition (a rank the inputs leave open is refused: the snapshot to read
    /// would depend on them).
    fn remote_rank(&mut self, env: &dyn Environment, rank: &MExpr) -> Result<usize, EngineError> {
        let f = self.f;
        let r = self.eval_int(env, rank)?;
        let value = match f.as_concrete_int(r).and_then(|v| i128::try_from(v).ok()) {
            Some(v) => Some(v),
            None => {
                let pc = self.current_pc(env);
                self.oracle
                    .candidate_value(f, pc, r)
                    .and_then(|v| i128::try_from(v).ok())
                    .filter(|&v| {
                        let claim = f.eq(r, f.int(v));
                        matches!(self.oracle.valid(f, pc, claim), Decision::Holds)
                    })
            }
        };
        // Under `PID == 0 || PROC[PID - 1].x == ...` the right operand is
        // evaluated for rank 0 too, in a context that cannot hold: any rank
        // does there.
        let in_range = value.is_some_and(|v| (0..env.nprocs() as i128).contains(&v));
        if !in_range {
            let assumption = self.assumption(env);
            if self.oracle.is_unsat(f, assumption) {
                return Ok(0);
            }
        }
        let Some(v) = value else {
            return Err(EngineError::unsupported(
                format!(
                    "the rank `{}` in PROC[...] is not one number on this path: write a rank the \
                     path condition fixes",
                    f.pretty(r)
                ),
                &rank.span,
            ));
        };
        usize::try_from(v)
            .ok()
            .filter(|&p| p < env.nprocs())
            .ok_or_else(|| {
                EngineError::invalid(
                    format!(
                        "PROC[{v}] names no process: ranks run from 0 to {} with {} processes",
                        env.nprocs().saturating_sub(1),
                        env.nprocs()
                    ),
                    Some(&rank.span),
                )
            })
    }

    fn concrete_extent(
        &mut self,
        env: &dyn Environment,
        ext: &Option<Box<MExpr>>,
        span: &Span,
    ) -> Result<usize, EngineError> {
        let Some(x) = ext else {
            return Err(EngineError::unsupported(
                "an array of pointers or structs without extent",
                span,
            ));
        };
        let n = self.eval_int(env, x)?;
        self.f
            .concrete_int_ref(n)
            .and_then(|n| usize::try_from(n).ok())
            .ok_or_else(|| {
                EngineError::unsupported(
                    "an array of pointers or structs with a symbolic extent",
                    span,
                )
            })
    }

    /// The value of a freshly declared variable of type `ty` (C's indeterminate value).
    pub fn undefined_value(
        &mut self,
        env: &dyn Environment,
        ty: &MType,
        span: &Span,
    ) -> Result<Value, EngineError> {
        Ok(match ty {
            MType::Array(elem, ext) => {
                if let Some(t) = self.data_type(env, ty, span)? {
                    Value::Data(undefined_data(self.f, t))
                } else {
                    let n = self.concrete_extent(env, ext, span)?;
                    let e = self.undefined_value(env, elem, span)?;
                    Value::Array(Arc::new(vec![e; n]))
                }
            }
            MType::Struct(id) => {
                let fields = env.model().struct_def(*id).fields.clone();
                let mut vs = Vec::with_capacity(fields.len());
                for fd in &fields {
                    vs.push(self.undefined_value(env, &fd.ty, span)?);
                }
                Value::Struct(Arc::new(vs))
            }
            _ => Value::Undefined,
        })
    }

    /// The zero value of type `ty` (C static initialisation, `calloc`).
    pub fn zero_value(
        &mut self,
        env: &dyn Environment,
        ty: &MType,
        span: &Span,
    ) -> Result<Value, EngineError> {
        use tass_model::api::MpiHandleType;
        Ok(match ty {
            MType::Pointer(_) => Value::Pointer(Pointer::Null),
            MType::Mpi(MpiHandleType::Comm) => {
                Value::Handle(Handle::Constant(LibraryConstant::MpiCommNull))
            }
            MType::Mpi(MpiHandleType::Request) => {
                Value::Handle(Handle::Constant(LibraryConstant::MpiRequestNull))
            }
            MType::Mpi(_) => Value::Undefined,
            MType::Array(elem, ext) => {
                if let Some(t) = self.data_type(env, ty, span)? {
                    Value::Data(self.f.default_value(&t))
                } else {
                    let n = self.concrete_extent(env, ext, span)?;
                    let e = self.zero_value(env, elem, span)?;
                    Value::Array(Arc::new(vec![e; n]))
                }
            }
            MType::Struct(id) => {
                let def = env.model().struct_def(*id);
                let fields = def.fields.clone();
                let union = def.is_union();
                let mut vs = Vec::with_capacity(fields.len());
                for (k, fd) in fields.iter().enumerate() {
                    // A union's zero value is its first member's (C11 6.7.9p10).
                    vs.push(if union && k > 0 {
                        self.undefined_value(env, &fd.ty, span)?
                    } else {
                        self.zero_value(env, &fd.ty, span)?
                    });
                }
                Value::Struct(Arc::new(vs))
            }
            MType::Void | MType::Unknown => Value::Undefined,
            t => match scalar_type(t) {
                Some(st) => Value::Data(self.f.default_value(&st)),
                None => Value::Undefined,
            },
        })
    }

    /// Writes `value` into `place`, materialising undefined structs/arrays on the
    /// way from the root variable's static type. A write into a union member
    /// makes the union's other members unwritten (see unions.rs).
    pub fn write_place(
        &mut self,
        env: &mut dyn Environment,
        place: &Place,
        value: Value,
        span: &Span,
    ) -> Result<(), EngineError> {
        self.store_place(env, place, value, span)?;
        self.forget_other_union_members(env, place, span)
    }

    fn store_place(
        &mut self,
        env: &mut dyn Environment,
        place: &Place,
        value: Value,
        span: &Span,
    ) -> Result<(), EngineError> {
        let (root, path) = place;
        if root.eq(&(Root::Heap {
            proc: u32::MAX,
            object: u32::MAX,
        })) {
            return Ok(()); // the placeholder of an invalid pointer: the path is dead
        }
        if let Root::Shared(v) = root {
            // Inputs are the one memory all processes share; they stay read-only
            // so that sharing them never carries data between processes. The
            // front end rejects assignments that name an input; this catches the
            // rest (through a pointer, as an MPI receive buffer, a library call).
            let var = env.model().var(*v);
            if var.scope == VarScope::Input {
                return Err(EngineError::invalid(
                    format!(
                        "this writes into input `{}` (through a pointer or a buffer \
                         argument): inputs are read-only; copy the input into a \
                         variable of your own and write that",
                        var.name
                    ),
                    Some(span),
                ));
            }
        }
        let f = self.f;
        let attempt = |env: &mut dyn Environment, value: Value| -> Result<(), AccessError> {
            match env.get_mut(*root) {
                Some(slot) => write_at(f, slot, path, value),
                None => Ok(()),
            }
        };
        match attempt(env, value.clone()) {
            Ok(()) => Ok(()),
            Err(AccessError::Undefined) => {
                let ty = match root {
                    Root::Shared(v) | Root::Global { var: v, .. } | Root::Local { var: v, .. } => {
                        env.model().var(*v).ty.clone()
                    }
                    Root::Heap { .. } => {
                        return Err(EngineError::unsupported(
                            "a write into an undefined heap value",
                            span,
                        ))
                    }
                };
                let fresh = self.undefined_value(env, &ty, span)?;
                if let Some(slot) = env.get_mut(*root) {
                    // Merge: only replace the undefined whole value.
                    if matches!(slot, Value::Undefined) {
                        *slot = fresh;
                    }
                }
                attempt(env, value)
                    .map_err(|e| EngineError::unsupported(format!("write: {e}"), span))
            }
            Err(AccessError::IndexOutOfRange) => Ok(()),
            Err(AccessError::SymbolicIndex) => Err(EngineError::unsupported(
                "a write at a symbolic index into an array of pointers or structs",
                span,
            )),
            Err(e) => Err(EngineError::invalid(format!("write: {e}"), Some(span))),
        }
    }

    /// Reads a place (no uninitialised check), for library functions.
    pub fn read_place(&self, env: &dyn Environment, place: &Place) -> Value {
        match env.get(place.0) {
            Some(v) => read_at(self.f, v, &place.1).unwrap_or(Value::Undefined),
            None => Value::Undefined,
        }
    }
}

/// The place returned for an invalid pointer once its violation is recorded (the
/// path is dead; [`Evaluator::write_place`] ignores it).
fn dead_place() -> Place {
    (
        Root::Heap {
            proc: u32::MAX,
            object: u32::MAX,
        },
        SmallVec::new(),
    )
}

/// Applies [`wrap_unsigned`] to a data value.
trait WrapUnsigned {
    fn wrapped_to(self, f: &ExprFactory, ty: &MType) -> Self;
}

impl WrapUnsigned for Value {
    fn wrapped_to(self, f: &ExprFactory, ty: &MType) -> Value {
        match self {
            Value::Data(x) => Value::Data(wrap_unsigned(f, x, ty)),
            other => other,
        }
    }
}

/// A floating value converted to an integer type of range `(lo, hi)`: its
/// truncation when that is in the range. Otherwise the behaviour is undefined
/// (C11 6.3.1.4; x86-64 gives `INT_MIN` for `(int)1e10`, and gcc's
/// `-fsanitize=undefined` does not report it): the result is then an unknown
/// integer, `fp_unrepresentable(x, lo, hi)`, so that no claim about it holds,
/// rather than the mathematical truncation, which no machine gives.
fn truncated_into(f: &ExprFactory, x: Expr, (lo, hi): (i128, i128)) -> Expr {
    let t = f.cast(x, &Type::Int);
    let (lo, hi) = (f.int(BigInt::from(lo)), f.int(BigInt::from(hi)));
    let in_range = f.and(f.le(lo, t), f.le(t, hi));
    let unknown = f.symbol(
        "fp_unrepresentable",
        Type::function(vec![Type::Real, Type::Int, Type::Int], Type::Int),
    );
    f.ite(in_range, t, f.apply(unknown, &[x, lo, hi]))
}

/// C's unsigned arithmetic is modulo 2^width: a value of an unsigned type is reduced
/// into `[0, 2^width)` (a no-op when it is already there). Signed types stay
/// mathematical integers, since signed overflow is undefined behaviour in C.
/// Widths follow the LP64 model (`unsigned char` 8, `unsigned short` 16, `unsigned` 32, `unsigned
/// long` and `unsigned long long` 64 bits).
fn wrap_unsigned(f: &ExprFactory, x: Expr, ty: &MType) -> Expr {
    use tass_model::api::IntKind;
    let bits = match ty {
        MType::Int(IntKind::UnsignedChar) => 8,
        MType::Int(IntKind::UnsignedShort) => 16,
        MType::Int(IntKind::Unsigned) => 32,
        MType::Int(IntKind::UnsignedLong | IntKind::UnsignedLongLong) => 64,
        _ => return x,
    };
    if f.type_of(x) != Type::Int {
        return x;
    }
    let modulus = BigInt::from(1) << bits;
    if let Some(k) = f.as_concrete_int(x) {
        let r = ((k % &modulus) + &modulus) % &modulus;
        return f.int(r);
    }
    let m = f.int(modulus);
    if is_wrapped(f, x, m) {
        return x;
    }
    // C's `%` truncates toward zero: x % m lies in (-m, m), so shift and reduce again.
    f.int_mod(f.add(f.int_mod(x, m), m), m)
}

/// True when every value of integer type `from` is a value of integer type `to`.
fn fits_in(from: &MType, to: &MType) -> bool {
    match (from.int_range(), to.int_range()) {
        (Some((a, b)), Some((c, d))) => c <= a && b <= d,
        _ => false,
    }
}

/// True when converting a value of integer type `from` to the signed type (or
/// `char`) `to` may leave `to`'s range, so that the conversion must wrap.
fn needs_signed_wrap(from: &MType, to: &MType) -> bool {
    let target = match to {
        MType::Char => tass_model::api::CHAR_RANGE,
        MType::Int(k) if !k.is_unsigned() => k.range(),
        _ => return false,
    };
    match from.int_range() {
        Some((lo, hi)) => lo < target.0 || hi > target.1,
        None => false,
    }
}

/// Converts integer `x` to the signed type (or `char`) `ty` whose range it may
/// leave: C11 6.3.1.3 leaves the result implementation-defined, and gcc and
/// clang reduce modulo 2^N into the two's-complement range, as tass does.
/// (Signed arithmetic is not wrapped: its overflow is undefined behaviour.)
fn wrap_signed(f: &ExprFactory, x: Expr, ty: &MType) -> Expr {
    let (lo, hi) = match ty {
        MType::Char => tass_model::api::CHAR_RANGE,
        MType::Int(k) => k.range(),
        _ => return x,
    };
    let (lo, hi) = (BigInt::from(lo), BigInt::from(hi));
    let modulus: BigInt = &hi - &lo + 1;
    let wrapped = if let Some(k) = f.as_concrete_int(x) {
        if k >= lo && k <= hi {
            f.int(k)
        } else {
            let r = (((&k - &lo) % &modulus) + &modulus) % &modulus + &lo;
            f.int(r)
        }
    } else {
        // ((x - lo) mod 2^N) + lo, with C's truncating `%` made non-negative
        let m = f.int(modulus);
        let shifted = f.sub(x, f.int(lo.clone()));
        f.add(f.int_mod(f.add(f.int_mod(shifted, m), m), m), f.int(lo))
    };
    match ty {
        MType::Char => f.cast(wrapped, &Type::Char),
        _ => wrapped,
    }
}

/// True for `((y % m) + m) % m`, which [`wrap_unsigned`] builds and which already
/// lies in `[0, m)`.
fn is_wrapped(f: &ExprFactory, x: Expr, m: Expr) -> bool {
    use tass_symbolic::api::ExprView;
    let ExprView::IntMod(sum, modulus) = f.view(x) else {
        return false;
    };
    let ExprView::Add(terms) = f.view(sum) else {
        return false;
    };
    modulus == m
        && terms.len() == 2
        && terms.contains(&m)
        && terms
            .iter()
            .any(|&t| matches!(f.view(t), ExprView::IntMod(_, k) if k == m))
}

/// The exact square root of a non-negative rational that is a perfect square.
fn exact_sqrt(q: &BigRational) -> Option<BigRational> {
    use num_traits::Signed;
    if q.is_negative() {
        return None;
    }
    let root = |n: &BigInt| -> Option<BigInt> {
        let r = n.sqrt();
        (&r * &r == *n).then_some(r)
    };
    Some(BigRational::new(root(q.numer())?, root(q.denom())?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn real_literals_are_exact() {
        let r = |s: &str| parse_real_literal(s).unwrap();
        assert_eq!(r("0.1"), BigRational::new(1.into(), 10.into()));
        assert_eq!(r("1e-3"), BigRational::new(1.into(), 1000.into()));
        assert_eq!(r("2.5E2"), BigRational::from_integer(250.into()));
        assert_eq!(r(".5"), BigRational::new(1.into(), 2.into()));
        assert_eq!(r("3."), BigRational::from_integer(3.into()));
        assert_eq!(r("0x1.8p1"), BigRational::from_integer(3.into()));
        assert_eq!(r("1.0f"), BigRational::from_integer(1.into()));
        assert_eq!(r("-2.5"), BigRational::new((-5).into(), 2.into()));
        assert!(parse_real_literal("1e-99999999").is_none());
        assert!(parse_real_literal("0x1p99999999").is_none());
        assert!(parse_real_literal("1e400").is_some());
        assert!(parse_real_literal("abc").is_none());
        assert!(parse_real_literal(".").is_none());
    }
}
