//! The initial state of a run: inputs as symbolic constants (or the values
//! `-i` fixes), their constraints as the path condition, every process at
//! the entry of `main` with its globals zero.

use std::sync::Arc;

use tass_dynamic::api::Value;
use tass_model::api::Model;
use tass_semantics::api::{EngineError, Environment, Evaluator};
use tass_symbolic::api::{BigInt, BigRational, Expr, ExprFactory, Type};

use super::Engine;
use crate::state::{ProcState, State, Status, SystemState};

/// A concrete value for an input fixed with `-i NAME=VALUE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FixedValue {
    /// An integer.
    Int(BigInt),
    /// A real number (exact).
    Real(BigRational),
    /// A boolean.
    Bool(bool),
    /// A zero written with a minus sign (`-0`, `-0.0`): IEEE's negative zero for
    /// a floating input at herbrand/ieee level, zero otherwise (an integer `-0`
    /// is 0, and the reals of `--arith real` have one zero).
    NegativeZero,
}

impl std::fmt::Display for FixedValue {
    /// As `-i` accepts it back: `42`, `-3`, `5/2`, `true`.
    fn fmt(&self, out: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FixedValue::Int(i) => write!(out, "{i}"),
            FixedValue::Real(r) => write!(out, "{r}"),
            FixedValue::Bool(b) => write!(out, "{b}"),
            FixedValue::NegativeZero => write!(out, "-0.0"),
        }
    }
}

impl FixedValue {
    /// Parses `42`, `-3`, `2.5`, `1e-3`, `true`, `false`, and `-0`, `-0.0`
    /// (a negative zero).
    pub fn parse(text: &str) -> Result<FixedValue, String> {
        let t = text.trim();
        match t {
            "true" => return Ok(FixedValue::Bool(true)),
            "false" => return Ok(FixedValue::Bool(false)),
            _ => {}
        }
        let (neg, body) = match t.strip_prefix('-') {
            Some(b) => (true, b),
            None => (false, t),
        };
        if let Ok(i) = t.parse::<BigInt>() {
            return Ok(if neg && i == BigInt::from(0) {
                FixedValue::NegativeZero
            } else {
                FixedValue::Int(i)
            });
        }
        match tass_semantics::api::parse_real_literal(body) {
            Some(r) if neg && r == BigRational::from_integer(BigInt::from(0)) => {
                Ok(FixedValue::NegativeZero)
            }
            Some(r) => Ok(FixedValue::Real(if neg { -r } else { r })),
            None => Err(format!(
                "`{text}` is not a number (expected e.g. 10, -3, 2.5 or true)"
            )),
        }
    }
}

impl Engine {
    /// The initial state: inputs are symbolic constants named after the inputs
    /// (or the values fixed by `-i`), their constraints form the path condition;
    /// every process's copies of the outputs and globals are zero; every process is at the entry of
    /// `main`.
    pub fn initial_state(&mut self) -> Result<State, EngineError> {
        let model = Arc::clone(&self.model);
        let f = Arc::clone(&self.factory);
        let nshared = model.inputs.len();
        let main = model.function(model.main);
        let entry = main.body.as_ref().map(|b| b.entry).unwrap_or_default();
        let proc = ProcState {
            status: Status::Running,
            globals: Arc::new(vec![
                Value::Undefined;
                model.globals.len() + model.outputs.len()
            ]),
            stack: vec![Arc::new(crate::state::Frame {
                function: model.main,
                location: entry,
                call_site: None,
                locals: vec![Value::Undefined; main.params.len() + main.locals.len()],
            })],
            heap: Arc::new(Vec::new()),
            mpi: Default::default(),
            program_args: Vec::new(),
        };
        let mut state = State::new(SystemState {
            pc: f.tt(),
            shared: Arc::new(vec![Value::Undefined; nshared]),
            procs: (0..self.config.nprocs)
                .map(|_| Arc::new(proc.clone()))
                .collect(),
            messages: Arc::new(Vec::new()),
            // MPI_COMM_SELF of process p is communicator p + 1.
            comms: Arc::new(if self.model.uses_mpi {
                (0..self.config.nprocs as u32)
                    .map(|p| Some(crate::mpi::Communicator::self_of(p)))
                    .collect()
            } else {
                Vec::new()
            }),
            windows: Arc::new(Vec::new()),
            snapshots: Default::default(),
        });
        // Inputs, in order (constraints and extents may mention earlier inputs).
        let layout = self.layout.clone();
        let ctx = crate::mpi::Ctx {
            model: &model,
            f: &f,
            layout: &layout,
        };
        let mut pc = f.tt();
        for &v in &model.inputs {
            let var = model.var(v);
            let mut env = ctx.env(&mut state, 0);
            let mut ev = Evaluator::without_checks(&f, &mut self.oracle, 0);
            let ty = ev.data_type(&env, &var.ty, &var.span)?.ok_or_else(|| {
                EngineError::unsupported(
                    format!("input `{}` of a type that is not numeric data", var.name),
                    &var.span,
                )
            })?;
            let given = (self.config.fixed_inputs.iter()).find(|(n, _)| *n == var.name);
            let value = match given {
                Some((_, fixed)) => self.given_input(&model, var, fixed, &ty)?,
                None => {
                    let (value, in_range) = typed_input_symbol(&f, &var.name, &var.ty, ty);
                    if let Some(in_range) = in_range {
                        pc = f.and(pc, in_range);
                        env.set_path_condition(pc);
                    }
                    value
                }
            };
            if let Some(slot) = env.get_mut(tass_dynamic::api::Root::Shared(v)) {
                *slot = Value::Data(value);
            }
            if let Some(c) = &var.constraint {
                let mut ev = Evaluator::without_checks(&f, &mut self.oracle, 0);
                let c = ev.eval_bool(&env, c)?;
                pc = f.and(pc, c);
                env.set_path_condition(pc);
                // A constraint no input can meet (often a `-i` value outside it) would
                // make every run vacuous and every property "hold": refuse it instead.
                if self.oracle.is_unsat(&f, pc) {
                    return Err(self.vacuous_constraint(var));
                }
            }
        }
        for p in 0..self.config.nprocs {
            let mut env = ctx.env(&mut state, p);
            // Each process's own copy of every global and output, zero as in C.
            for &v in model.globals.iter().chain(&model.outputs) {
                let var = model.var(v);
                let mut ev = Evaluator::without_checks(&f, &mut self.oracle, p);
                let z = ev.zero_value(&env, &var.ty, &var.span)?;
                let root = env.root_of(v);
                if let Some(slot) = env.get_mut(root) {
                    *slot = z;
                }
            }
            let command_line = match &self.config.program_args {
                Some(argv) => super::program_args::command_line(&f, &mut env, argv),
                None => None,
            };
            for &v in main.params.iter().chain(&main.locals) {
                let var = model.var(v);
                let value = if let Some(value) =
                    command_line.as_ref().and_then(|c| c.value_of(&model, v))
                {
                    value
                } else if main.params.first() == Some(&v) && var.ty.is_integer() {
                    // argc: at least 1
                    let argc = f.symbol(&var.name, Type::Int);
                    pc = f.and(pc, f.le(f.int(1), argc));
                    env.set_path_condition(pc);
                    Value::Data(argc)
                } else {
                    let mut ev = Evaluator::without_checks(&f, &mut self.oracle, p);
                    match ev.undefined_value(&env, &var.ty, &var.span) {
                        Ok(v) => v,
                        Err(_) => Value::Undefined, // VLA: its Declare sets it
                    }
                };
                let root = env.root_of(v);
                if let Some(slot) = env.get_mut(root) {
                    *slot = value;
                }
            }
        }
        Ok(state.seal())
    }

    /// The value `-i` gives input `var` of data type `ty`, as a C variable of
    /// its type holds it at this engine's arithmetic level: a floating one the
    /// floating value nearest to the number given, `-0.0` IEEE's negative zero
    /// where the level has one.
    fn given_input(
        &self,
        model: &Model,
        var: &tass_model::api::Variable,
        fixed: &FixedValue,
        ty: &Type,
    ) -> Result<Expr, EngineError> {
        let f = &*self.factory;
        let arith = self.config.arith;
        if matches!(fixed, FixedValue::NegativeZero) && *ty == Type::Real {
            let zero = || f.real(BigRational::from_integer(BigInt::from(0)));
            return Ok(match &var.ty {
                tass_model::api::Type::Real(kind) => {
                    tass_semantics::api::fixed_negative_zero(f, arith, *kind).unwrap_or_else(zero)
                }
                _ => zero(),
            });
        }
        let exact = fixed_input_value(f, model, var, fixed, ty)?;
        Ok(match (&var.ty, f.as_concrete_rational(exact)) {
            (tass_model::api::Type::Real(kind), Some(r)) => {
                tass_semantics::api::fixed_floating_value(f, arith, *kind, &r).unwrap_or(exact)
            }
            _ => exact,
        })
    }

    /// The error for input `var`'s constraint, which no input (with the `-i`
    /// values given) satisfies.
    fn vacuous_constraint(&self, var: &tass_model::api::Variable) -> EngineError {
        let fixed: Vec<String> = (self.config.fixed_inputs.iter())
            .map(|(n, v)| format!("-i {n}={v}"))
            .collect();
        let because = if fixed.is_empty() {
            String::new()
        } else {
            format!(" with {}", fixed.join(" "))
        };
        EngineError::invalid(
            format!(
                "no input satisfies the constraint of input `{}`{because}: \
                 every run would be vacuous; fix the constraint or the fixed values",
                var.name
            ),
            Some(&var.span),
        )
    }
}

/// The value `-i` gives input `var` of data type `ty`, or why it does not fit.
fn fixed_input_value(
    f: &ExprFactory,
    model: &Model,
    var: &tass_model::api::Variable,
    fixed: &FixedValue,
    ty: &Type,
) -> Result<Expr, EngineError> {
    Ok(match (fixed, ty) {
        (FixedValue::Int(i), Type::Int | Type::Char) => {
            check_fixed_in_range(model, var, i)?;
            let value = f.int(i.clone());
            match ty {
                Type::Char => f.cast(value, &Type::Char),
                _ => value,
            }
        }
        (FixedValue::Int(i), Type::Real) => f.real(BigRational::from_integer(i.clone())),
        (FixedValue::Real(r), Type::Real) => f.real(r.clone()),
        (FixedValue::Bool(b), Type::Bool) => f.bool(*b),
        (FixedValue::NegativeZero, Type::Int | Type::Char) => {
            fixed_input_value(f, model, var, &FixedValue::Int(BigInt::from(0)), ty)?
        }
        (FixedValue::NegativeZero, Type::Real) => {
            f.real(BigRational::from_integer(BigInt::from(0)))
        }
        (fv, _) => {
            let given = match fv {
                FixedValue::Int(_) => format!("the integer {fv}"),
                FixedValue::Real(_) | FixedValue::NegativeZero => {
                    format!("the real number {fv}")
                }
                FixedValue::Bool(_) => format!("the boolean {fv}"),
            };
            return Err(EngineError::invalid(
                format!(
                    "-i {}: {given} does not fit the input's type `{}`; \
                     give a value of that type (only scalar inputs can be fixed)",
                    var.name,
                    tass_model::api::render_type(model, &var.ty)
                ),
                Some(&var.span),
            ));
        }
    })
}

/// The symbolic constant of an input of model type `model_ty` (symbolic type
/// `ty`) and, for an integer scalar, the claim that it lies in its C type's range
/// (so that every witness fits the type). A `char` input is an integer symbol in
/// `char`'s range seen as a character, since character codes cannot be negative
/// and plain `char` is signed.
fn typed_input_symbol(
    f: &ExprFactory,
    name: &str,
    model_ty: &tass_model::api::Type,
    ty: Type,
) -> (Expr, Option<Expr>) {
    let Some((lo, hi)) = model_ty.int_range() else {
        return (f.symbol(name, ty), None);
    };
    if matches!(model_ty, tass_model::api::Type::Bool) {
        return (f.symbol(name, ty), None);
    }
    let symbol = f.symbol(name, Type::Int);
    let in_range = f.and(f.le(f.int(lo), symbol), f.le(symbol, f.int(hi)));
    let value = match ty {
        Type::Char => f.cast(symbol, &Type::Char),
        _ => symbol,
    };
    (value, Some(in_range))
}

/// Refuses a `-i` integer value outside the input's C type.
fn check_fixed_in_range(
    model: &Model,
    var: &tass_model::api::Variable,
    value: &BigInt,
) -> Result<(), EngineError> {
    let Some((lo, hi)) = var.ty.int_range() else {
        return Ok(());
    };
    if *value >= BigInt::from(lo) && *value <= BigInt::from(hi) {
        return Ok(());
    }
    Err(EngineError::invalid(
        format!(
            "-i {}={value}: the value does not fit the input's type `{}` \
             (its values are {lo} to {hi}); give a value in that range",
            var.name,
            tass_model::api::render_type(model, &var.ty)
        ),
        Some(&var.span),
    ))
}
