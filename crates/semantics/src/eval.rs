//! The evaluator: model expression + environment -> dynamic value, with checks.

use smallvec::SmallVec;
use tass_dynamic::api::{size_of, Handle, Pointer, Root, Step, Value};
use tass_model::api::{
    char_byte_value, BinaryOp, Expr as MExpr, ExprKind, FunctionId, LibraryConstant,
    LibraryFunction, QuantifierKind, Span, Type as MType, UnaryOp, VarId,
};
use tass_symbolic::api::{BigInt, BigRational, Expr, ExprFactory, Type};

use crate::env::Environment;
use crate::float::Exactness;
use crate::oracle::{Decision, Oracle};
use crate::report::{Certainty, EngineError, Property, Violation};

mod convert;
mod math;
mod operators;
mod places;
mod types;

pub(crate) use convert::char_of_byte;
use convert::{wrap_signed, WrapUnsigned};

/// `RAND_MAX` of the library model (glibc's value).
pub const RAND_MAX: i64 = 2_147_483_647;

/// A place in memory: a dynamic variable and a path inside it (a non-null pointer).
pub type Place = (Root, SmallVec<[Step; 2]>);

/// The short-circuit connectives of C.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Connective {
    And,
    Or,
}

/// A `PROC[e]` rank the path leaves open ([`Evaluator::undecided_rank`]).
#[derive(Clone, Copy, Debug)]
pub struct UndecidedRank {
    /// The rank `e`.
    pub rank: Expr,
    /// Where `e` was read: the path condition and the enclosing conditions.
    pub read_under: Expr,
}

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
    /// The rank of a `PROC[e]` that the path condition does not fix, when
    /// evaluation stopped on it, with the condition it was read under (the
    /// path condition and the enclosing `&&`, `||`, `?:` conditions): a caller
    /// that can split the path on its values (the collective-assertion check)
    /// does so.
    pub undecided_rank: Option<UndecidedRank>,
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
        if !(-MAX_BINARY_EXPONENT..=MAX_BINARY_EXPONENT).contains(&e2) {
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
    if !(-MAX_DECIMAL_EXPONENT..=MAX_DECIMAL_EXPONENT).contains(&e10) {
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
        Property::BufferOverflow => "the message fits the receive (or attached) buffer",
        Property::CollectiveMismatch => "all processes make the same collective call",
        Property::NotEquivalent => "the outputs of both programs are equal",
        Property::CollectiveAssertion => "the collective assertion holds",
        Property::Invariant => "the invariant holds",
        Property::ResourceLeak => "every MPI object made is freed",
        Property::LocalConcurrency => "no buffer is used while an MPI operation owns it",
        Property::MpiTag => "the tag lies in 0 .. MPI_TAG_UB (or is MPI_ANY_TAG on a receive)",
        Property::AssumptionVacuous => "the assumption is satisfiable",
        Property::Unsupported => "the construct is supported",
        Property::Epoch => "RMA calls are made inside an epoch, and every epoch is closed",
        Property::RmaRace => "no two RMA accesses of one epoch conflict",
        Property::Ltl => "every run satisfies the ltl formula",
    }
}

/// The integer value of an MPI library constant used as an `int`.
fn library_int(c: LibraryConstant) -> Option<i64> {
    c.int_value()
}

/// What a check asks: a claim, the property it protects, and where it is made.
struct Claim<'s> {
    formula: Expr,
    /// The claim in words when `formula` is simply `false` (default:
    /// [`claim_phrase`] of the property).
    phrase: Option<&'s str>,
    property: Property,
    span: &'s Span,
}

/// A check whose claim is simply `false` (a definite violation, if the path
/// is feasible), with its message: what [`Evaluator::record_false`] records.
/// By default the claim reads as [`claim_phrase`] of the property and the
/// path dies after it (see [`FalseClaim::claiming`], [`FalseClaim::keeping_path`]).
pub struct FalseClaim<'s> {
    property: Property,
    message: String,
    /// The claim in words (default: [`claim_phrase`] of the property).
    phrase: Option<&'s str>,
    span: &'s Span,
    on_failure: OnFailure,
}

impl<'s> FalseClaim<'s> {
    pub fn new(property: Property, message: String, span: &'s Span) -> Self {
        FalseClaim {
            property,
            message,
            phrase: None,
            span,
            on_failure: OnFailure::AssumeClaim,
        }
    }

    /// The claim that fails said in words (e.g. "MPI_Abort is not called"),
    /// for a check no expression of the program states.
    pub fn claiming(self, phrase: &'s str) -> Self {
        FalseClaim {
            phrase: Some(phrase),
            ..self
        }
    }

    /// The path goes on unconstrained: a violation such as an uninitialised
    /// read, after which execution continues with an arbitrary value.
    pub fn keeping_path(self) -> Self {
        FalseClaim {
            on_failure: OnFailure::KeepPath,
            ..self
        }
    }
}

/// What a check does after recording a violation of its claim.
#[derive(Clone, Copy, PartialEq, Eq)]
enum OnFailure {
    /// Assume the claim (under the current context), so one bug does not hide the next.
    AssumeClaim,
    /// Leave the path unconstrained (an uninitialised read continues with any value).
    KeepPath,
}

impl<'a> Evaluator<'a> {
    /// An evaluator for the step of process `process` that makes its checks.
    pub fn checking(f: &'a ExprFactory, oracle: &'a mut Oracle, process: usize) -> Self {
        Self::new(f, oracle, process, true)
    }

    /// An evaluator for process `process` that makes no check (for guards when
    /// computing the enabled transitions: their checks are made when the
    /// transition executes).
    pub fn without_checks(f: &'a ExprFactory, oracle: &'a mut Oracle, process: usize) -> Self {
        Self::new(f, oracle, process, false)
    }

    fn new(f: &'a ExprFactory, oracle: &'a mut Oracle, process: usize, checking: bool) -> Self {
        Evaluator {
            f,
            oracle,
            violations: Vec::new(),
            assumed: Vec::new(),
            undecided_rank: None,
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
        let claim = Claim {
            formula: claim,
            phrase: None,
            property,
            span,
        };
        self.check_and_assume(env, claim, message, OnFailure::AssumeClaim)
    }

    /// Checks `claim` under the current assumption and records a violation if
    /// it may fail (then acts as `on_failure` says).
    fn check_and_assume(
        &mut self,
        env: &dyn Environment,
        Claim {
            formula: claim,
            phrase,
            property,
            span,
        }: Claim<'_>,
        message: impl FnOnce() -> String,
        on_failure: OnFailure,
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
        let certainty = match certainty {
            Certainty::Provable
                if crate::exec::leans_on_loop_values(self.f, &[assumption, claim]) =>
            {
                Certainty::Possible
            }
            other => other,
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
            snapshots: None,
        });
        if on_failure == OnFailure::AssumeClaim {
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
        self.record_false(env, FalseClaim::new(property, message, span))
    }

    /// Records a violation of the claim `false` (if the path is feasible),
    /// read and followed as `c` says; [`Evaluator::fail`] is the common case.
    pub fn record_false(&mut self, env: &dyn Environment, c: FalseClaim<'_>) {
        let claim = Claim {
            formula: self.f.ff(),
            phrase: c.phrase,
            property: c.property,
            span: c.span,
        };
        self.check_and_assume(env, claim, || c.message, c.on_failure)
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
            ExprKind::IntLit(i) => self.int_literal(*i, &e.ty),
            ExprKind::RealLit(text) => self.real_literal(text, e)?,
            // `char` is signed (x86-64): a byte 128..255 (`'\xff'`) is the
            // negative value a C compiler gives it (C11 6.4.4.4p10).
            ExprKind::CharLit(c) if *c >= 0x80 => self.int_literal(char_byte_value(*c), &e.ty),
            ExprKind::CharLit(c) => match scalar_type(&e.ty) {
                Some(Type::Int) => Value::Data(f.int(*c)),
                _ => Value::Data(f.char(*c as u32)),
            },
            ExprKind::BoolLit(b) => Value::Data(f.bool(*b)),
            ExprKind::StringLit(bytes) => {
                let mut els: Vec<Expr> = bytes.iter().map(|&b| char_of_byte(f, b)).collect();
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
            ExprKind::Unary(op, a) => self.eval_unary(env, e, *op, a)?,
            ExprKind::Binary(op, a, b) => {
                let value = self.eval_binary(env, e, *op, a, b)?.wrapped_to(f, &e.ty);
                use BinaryOp::{Add, Div, Mul, Shl, Sub};
                if matches!(op, Add | Sub | Mul | Div | Shl) {
                    self.check_signed_overflow(env, &value, e);
                }
                value
            }
            ExprKind::LogicalAnd(a, b) => self.eval_short_circuit(env, (a, b), Connective::And)?,
            ExprKind::LogicalOr(a, b) => self.eval_short_circuit(env, (a, b), Connective::Or)?,
            ExprKind::Conditional(c, a, b) => self.eval_conditional(env, e, c, (a, b))?,
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
            ExprKind::Cast(a) => self.eval_cast(env, e, a)?,
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
                let value = Value::Data(self.math(*func, &xs, &e.ty, &e.span)?);
                // `abs(INT_MIN)`, `labs(LONG_MIN)`: undefined (C11 7.22.6.1)
                if matches!(func, LibraryFunction::Abs | LibraryFunction::Labs) {
                    self.check_signed_overflow(env, &value, e);
                }
                value
            }
            ExprKind::AbstractCall(fid, args) => self.eval_abstract_call(env, e, *fid, args)?,
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
            } => self.eval_quantifier(env, e, (*kind, *var), constraint.as_deref(), body)?,
            ExprKind::Pid => Value::Data(f.int(env.process())),
            ExprKind::NProcs => Value::Data(f.int(env.nprocs())),
        })
    }

    /// An integer constant of model type `ty`.
    fn int_literal(&self, i: i128, ty: &MType) -> Value {
        let f = self.f;
        match scalar_type(ty) {
            Some(Type::Real) if self.floats(ty).is_some() => {
                let fl = self.floats(ty).expect("a floating type");
                Value::Data(fl.of_int(f.int(BigInt::from(i)), Exactness::MayRound))
            }
            Some(Type::Real) => Value::Data(f.real(BigRational::from_integer(BigInt::from(i)))),
            Some(Type::Bool) => Value::Data(f.bool(i != 0)),
            Some(Type::Char) => Value::Data(wrap_signed(f, f.int(BigInt::from(i)), &MType::Char)),
            _ => Value::Data(f.int(BigInt::from(i))).wrapped_to(f, ty),
        }
    }

    /// A floating constant (`e` of model type int when it stands for an integer).
    fn real_literal(&self, text: &str, e: &MExpr) -> Result<Value, EngineError> {
        let f = self.f;
        let r = parse_real_literal(text).ok_or_else(|| {
            EngineError::invalid(
                format!("malformed or out-of-range floating constant `{text}`"),
                Some(&e.span),
            )
        })?;
        Ok(if matches!(e.ty, MType::Int(_)) {
            Value::Data(f.int(r.to_integer()))
        } else if let Some(fl) = self.floats(&e.ty) {
            Value::Data(fl.literal(&r, Some(text)))
        } else {
            Value::Data(f.real(r))
        })
    }

    /// `op a` (`e` the whole expression).
    fn eval_unary(
        &mut self,
        env: &dyn Environment,
        e: &MExpr,
        op: UnaryOp,
        a: &MExpr,
    ) -> Result<Value, EngineError> {
        let f = self.f;
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
        if op == UnaryOp::Neg {
            self.check_signed_overflow(env, &value, e);
        }
        Ok(value)
    }

    /// `a && b` and `a || b`: `b` evaluated (and checked) only where `a` does
    /// not decide the result (where it holds for `&&`, fails for `||`).
    fn eval_short_circuit(
        &mut self,
        env: &dyn Environment,
        (a, b): (&MExpr, &MExpr),
        connective: Connective,
    ) -> Result<Value, EngineError> {
        let f = self.f;
        let x = self.eval_bool(env, a)?;
        let deciding = connective == Connective::Or;
        if f.as_bool(x) == Some(deciding) {
            return Ok(Value::Data(x));
        }
        let b_matters = match connective {
            Connective::And => x,
            Connective::Or => f.not(x),
        };
        self.context.push(b_matters);
        let y = self.eval_bool(env, b);
        self.context.pop();
        Ok(Value::Data(match connective {
            Connective::And => f.and(x, y?),
            Connective::Or => f.or(x, y?),
        }))
    }

    /// `c ? a : b` (`e` the whole expression): each branch evaluated (and
    /// checked) under its side of the condition.
    fn eval_conditional(
        &mut self,
        env: &dyn Environment,
        e: &MExpr,
        c: &MExpr,
        (a, b): (&MExpr, &MExpr),
    ) -> Result<Value, EngineError> {
        let f = self.f;
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
            (Value::Data(p), Value::Data(q)) => Ok(Value::Data(f.ite(x, p, q))),
            (p, q) if p == q => Ok(p),
            _ => Err(EngineError::unsupported(
                "a conditional choosing between non-numeric values (pointers, structs) on a symbolic condition",
                &e.span,
            )),
        }
    }

    /// The cast `e` of `a`.
    fn eval_cast(
        &mut self,
        env: &dyn Environment,
        e: &MExpr,
        a: &MExpr,
    ) -> Result<Value, EngineError> {
        let v = self.eval(env, a)?;
        match (v, &a.ty, &e.ty) {
            // Between pointers to different types: the object must hold a
            // `T` there (byte views are resolved, see bytes.rs).
            (Value::Pointer(p), MType::Pointer(from), MType::Pointer(to))
                if from != to && !crate::bytes::is_byte_type(to) =>
            {
                Ok(Value::Pointer(self.typed_pointer(env, p, to, &e.span)?))
            }
            (v, _, _) => self.convert(v, &a.ty, &e.ty, &e.span),
        }
    }

    /// A call `e` of the abstract function `fid`: an uninterpreted function
    /// applied to the arguments.
    fn eval_abstract_call(
        &mut self,
        env: &dyn Environment,
        e: &MExpr,
        fid: FunctionId,
        args: &[MExpr],
    ) -> Result<Value, EngineError> {
        let f = self.f;
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
        let name = &env.model().function(fid).name;
        let sym = f.symbol(name, Type::function(tys, rt));
        Ok(Value::Data(f.apply(sym, &xs)))
    }

    /// A quantified formula `e`: `body` (and `constraint`) over a fresh symbol
    /// for the bound variable, evaluated without checks.
    fn eval_quantifier(
        &mut self,
        env: &dyn Environment,
        e: &MExpr,
        (kind, var): (QuantifierKind, VarId),
        constraint: Option<&MExpr>,
        body: &MExpr,
    ) -> Result<Value, EngineError> {
        let f = self.f;
        let model = env.model();
        let bv = model.var(var);
        let ty = scalar_type(&bv.ty)
            .filter(|t| t.is_numeric())
            .ok_or_else(|| {
                EngineError::unsupported("a quantifier over a non-numeric variable", &e.span)
            })?;
        let sym = f.symbol(&format!("{}'", bv.name), ty);
        self.bound.push((var, sym));
        let was = std::mem::replace(&mut self.checking, false);
        let c = match constraint {
            Some(c) => self.eval_bool(env, c),
            None => Ok(f.tt()),
        };
        let b = self.eval_bool(env, body);
        self.checking = was;
        self.bound.pop();
        let (c, b) = (c?, b?);
        Ok(Value::Data(match kind {
            QuantifierKind::Forall => f.forall(sym, f.implies(c, b)),
            QuantifierKind::Exists => f.exists(sym, f.and(c, b)),
        }))
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
