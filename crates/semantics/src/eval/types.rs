//! Values of types: data types, undefined and zero values, remote ranks.

use std::sync::Arc;
use tass_dynamic::api::{undefined_data, Handle, Pointer, Value};
use tass_model::api::{Expr as MExpr, LibraryConstant, Span, Type as MType};
use tass_symbolic::api::Type;

use super::{scalar_type, Evaluator};
use crate::env::Environment;
use crate::oracle::Decision;
use crate::report::EngineError;

/// Which initial value a fresh object gets.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Initial {
    /// C's indeterminate value (a declared local, `malloc`).
    Undefined,
    /// Zero (static storage, `calloc`).
    Zero,
}

impl<'a> Evaluator<'a> {
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
    pub(super) fn remote_rank(
        &mut self,
        env: &dyn Environment,
        rank: &MExpr,
    ) -> Result<usize, EngineError> {
        let f = self.f;
        let r = self.eval_int(env, rank)?;
        let value = match f.as_concrete_int(r).and_then(|v| i128::try_from(v).ok()) {
            Some(v) => Some(v),
            None => {
                // Under the enclosing `&&`, `||`, `?:` conditions too: the
                // value read matters only where they hold.
                let pc = self.assumption(env);
                let candidate = self
                    .oracle
                    .candidate_value(f, pc, r)
                    .and_then(|v| i128::try_from(v).ok());
                let oracle = &mut *self.oracle;
                let mut fixed = |v: i128| {
                    let claim = f.eq(r, f.int(v));
                    matches!(oracle.valid(f, pc, claim), Decision::Holds)
                };
                // The prover may give no model value (a rank such as `c ? 0 :
                // 1` under `c`); then each rank in turn.
                match candidate {
                    Some(v) => Some(v).filter(|&v| fixed(v)),
                    None => (0..env.nprocs() as i128).find(|&v| fixed(v)),
                }
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
            let read_under = self.assumption(env);
            self.undecided_rank = Some(super::UndecidedRank {
                rank: r,
                read_under,
            });
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
        self.initial_value(env, ty, Initial::Undefined, span)
    }

    /// The zero value of type `ty` (C static initialisation, `calloc`).
    pub fn zero_value(
        &mut self,
        env: &dyn Environment,
        ty: &MType,
        span: &Span,
    ) -> Result<Value, EngineError> {
        self.initial_value(env, ty, Initial::Zero, span)
    }

    /// What a fresh object of type `ty` holds: one walk over arrays and
    /// structs for both kinds of initial value.
    fn initial_value(
        &mut self,
        env: &dyn Environment,
        ty: &MType,
        initial: Initial,
        span: &Span,
    ) -> Result<Value, EngineError> {
        use tass_model::api::MpiHandleType;
        Ok(match ty {
            MType::Array(elem, ext) => {
                if let Some(t) = self.data_type(env, ty, span)? {
                    Value::Data(match initial {
                        Initial::Undefined => undefined_data(self.f, t),
                        Initial::Zero => self.f.default_value(&t),
                    })
                } else {
                    let n = self.concrete_extent(env, ext, span)?;
                    let e = self.initial_value(env, elem, initial, span)?;
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
                    let member = if union && k > 0 {
                        Initial::Undefined
                    } else {
                        initial
                    };
                    vs.push(self.initial_value(env, &fd.ty, member, span)?);
                }
                Value::Struct(Arc::new(vs))
            }
            _ if initial == Initial::Undefined => Value::Undefined,
            MType::Pointer(_) => Value::Pointer(Pointer::Null),
            MType::Mpi(MpiHandleType::Comm) => {
                Value::Handle(Handle::Constant(LibraryConstant::MpiCommNull))
            }
            MType::Mpi(MpiHandleType::Request) => {
                Value::Handle(Handle::Constant(LibraryConstant::MpiRequestNull))
            }
            MType::Mpi(MpiHandleType::Group) => {
                Value::Handle(Handle::Constant(LibraryConstant::MpiGroupNull))
            }
            MType::Mpi(MpiHandleType::Win) => {
                Value::Handle(Handle::Constant(LibraryConstant::MpiWinNull))
            }
            MType::Mpi(_) => Value::Undefined,
            MType::Void | MType::Unknown => Value::Undefined,
            t => match scalar_type(t) {
                Some(st) => Value::Data(self.f.default_value(&st)),
                None => Value::Undefined,
            },
        })
    }
}
