//! Reductions with a user operator (`MPI_Op_create`): the user function runs
//! as program code, on the process that receives the result.
//!
//! MPI defines the result as `x0 op x1 op ... op x(n-1)` in rank order, and
//! a call `f(invec, inoutvec, &len, &type)` computes `inoutvec[i] = invec[i] op
//! inoutvec[i]`. So the receive buffer first gets the last member's
//! contribution, and the user function is then called once for each other
//! member, from rank n-2 down to rank 0, with `invec` pointing to a copy of
//! that member's contribution: the result is `x0 op (x1 op (... op x(n-1)))`,
//! which is the rank-order result for every associative operator, commutative
//! or not. The calls are frames pushed on the receiving process's stack above
//! the collective call (which has returned): the first to run on top. Their
//! steps are ordinary steps of that process, with every check. The copies and
//! the `len` and `type` cells are heap blocks of the process, freed when the
//! last of these frames returns ([`ScratchBlocks`]), so a pointer the user
//! function keeps to them dangles afterwards, as in MPI.
//!
//! In a nonblocking reduction (`MPI_Ireduce`, ...) the receive buffer gets
//! the last contribution at the wait (`MPI_Wait`, `MPI_Test`, ...), which then
//! runs the function's calls in the same way ([`DueFold`]): MPI lets the
//! library call it at any time before the wait returns, and the buffer is
//! the program's only after the wait, so nothing of the program can observe
//! the difference.
//!
//! Not modelled: another bracketing (MPI allows any for an associative
//! operator, and any order for one declared commutative); a user function
//! that is not associative, or not commutative although declared so, is
//! checked in this order only.

use std::sync::Arc;

use tass_dynamic::api::{ElemType, Handle, Pointer, Root, Step, Value};
use tass_model::api::{
    FunctionId, IntKind, LibraryConstant as LC, LibraryFunction as LF, MpiHandleType, RealKind,
    Span, Type as MType,
};
use tass_semantics::api::{EngineError, Environment, Evaluator, Property};
use tass_symbolic::api::{Expr, Type};

use super::data::{DType, Data};
use crate::env::ProcEnv;

/// Heap blocks a process allocated for the calls of a user function, freed
/// when its stack is back to `depth` frames.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct ScratchBlocks {
    pub depth: usize,
    pub objects: Vec<u32>,
}

/// The `invec`s of the calls of a fold.
pub(super) enum Inputs<'a> {
    /// Copies of these contributions (rank order), one call each.
    Copies(&'a [Data]),
    /// One call on this buffer of the program (`MPI_Reduce_local`).
    Buffer(Value),
}

/// What one member's fold needs: the function (`FunctionId + 1`), the
/// inputs to fold in, their datatype and count, and the receive buffer (a
/// pointer value).
pub(super) struct Fold<'a> {
    pub function: u32,
    pub ins: Inputs<'a>,
    pub dtype: &'a DType,
    pub count: Expr,
    pub inout: Value,
}

/// The fold a nonblocking reduction's wait still has to run: kept in the
/// request from the time every member has posted the operation.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct DueFold {
    pub(super) function: u32,
    pub(super) copies: Vec<Data>,
    pub(super) dtype: DType,
    pub(super) count: Expr,
    /// The receive buffer (a pointer, followed by heap canonicalization).
    pub(crate) inout: Value,
}

/// Pushes the frames of the user function's calls `due` names on the
/// executing process, whose wait call has returned.
pub(crate) fn push_due_fold(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    due: &DueFold,
    span: &Span,
) -> Result<(), EngineError> {
    let fold = Fold {
        function: due.function,
        ins: Inputs::Copies(&due.copies),
        dtype: &due.dtype,
        count: due.count,
        inout: due.inout.clone(),
    };
    push_fold(ev, env, fold, span)
}

/// Pushes the frames of the user function's calls for `fold` on the
/// executing process (whose collective call has returned).
pub(super) fn push_fold(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    fold: Fold<'_>,
    span: &Span,
) -> Result<(), EngineError> {
    if matches!(fold.ins, Inputs::Copies(xs) if xs.is_empty()) {
        return Ok(());
    }
    let model = env.model;
    let g = FunctionId(fold.function - 1);
    let callee = model
        .functions
        .get(g.0 as usize)
        .filter(|c| c.body.is_some())
        .ok_or_else(|| {
            EngineError::unsupported("a user operator whose function has no body", span)
        })?;
    let pointer_params = callee.params.len() == 4
        && callee
            .params
            .iter()
            .all(|&p| matches!(model.var(p).ty, MType::Pointer(_)));
    if !pointer_params {
        return Err(EngineError::unsupported(
            format!(
                "the user operator `{}` does not take four pointers (MPI_User_function: \
                 void f(void *invec, void *inoutvec, int *len, MPI_Datatype *datatype))",
                callee.name
            ),
            span,
        ));
    }
    let (constant, elem) = match fold.dtype {
        DType::Scalar(c, _) => (*c, elem_of(*c, span)?),
        DType::Pair(c) => {
            return Err(EngineError::unsupported(
                format!(
                    "a reduction of the pair datatype {} with a user operator",
                    c.c_name()
                ),
                span,
            ))
        }
    };
    let f = ev.factory();
    let depth = env.stack_depth();
    let mut objects = Vec::new();
    let mut block = |env: &mut ProcEnv<'_>, value: Value, extent: Expr, elem: ElemType| {
        let root = env.allocate(value, extent, elem);
        if let Root::Heap { object, .. } = root {
            objects.push(object);
        }
        Value::Pointer(Pointer::to(root, [Step::Index(f.int(0))]))
    };
    let len = f.array_literal(Type::array(Type::Int, Some(f.int(1))), &[fold.count]);
    let len = block(env, Value::Data(len), f.int(1), ElemType::Int(IntKind::Int));
    let handle = Value::Handle(Handle::Constant(constant));
    let datatype = block(
        env,
        Value::Array(Arc::new(vec![handle])),
        f.int(1),
        ElemType::Mpi(MpiHandleType::Datatype),
    );
    let mut ins = Vec::new();
    match fold.ins {
        Inputs::Buffer(p) => ins.push(p),
        Inputs::Copies(xs) => {
            for d in xs {
                let Data::Flat(x) = d else {
                    return Err(EngineError::unsupported(
                        "a reduction of pairs with a user operator",
                        span,
                    ));
                };
                ins.push(block(env, Value::Data(*x), fold.count, elem));
            }
        }
    }
    // Frames run top first: rank 0's call is pushed first, so it runs last.
    for invec in ins {
        let args = [invec, fold.inout.clone(), len.clone(), datatype.clone()];
        let mut locals: Vec<_> = callee.params.iter().copied().zip(args).collect();
        for &l in &callee.locals {
            let ty = &model.var(l).ty;
            let v = if literal_extents(ty) {
                ev.undefined_value(&*env, ty, span)?
            } else {
                Value::Undefined
            };
            locals.push((l, v));
        }
        env.push_frame(g, None, locals);
    }
    crate::env::set_mpi(env, |m| m.scratch.push(ScratchBlocks { depth, objects }));
    Ok(())
}

/// The heap element type of a block holding elements of basic datatype `c`.
fn elem_of(c: LC, span: &Span) -> Result<ElemType, EngineError> {
    Ok(match c {
        LC::MpiInt => ElemType::Int(IntKind::Int),
        LC::MpiUnsigned => ElemType::Int(IntKind::Unsigned),
        LC::MpiLong => ElemType::Int(IntKind::Long),
        LC::MpiLongLong => ElemType::Int(IntKind::LongLong),
        LC::MpiFloat => ElemType::Real(RealKind::Float),
        LC::MpiDouble => ElemType::Real(RealKind::Double),
        LC::MpiLongDouble => ElemType::Real(RealKind::LongDouble),
        LC::MpiChar | LC::MpiByte => ElemType::Char,
        other => {
            return Err(EngineError::unsupported(
                format!("a reduction of {} with a user operator", other.c_name()),
                span,
            ))
        }
    })
}

/// A local whose type has only literal array extents gets its undefined
/// value at the call (as a call of the program does).
fn literal_extents(ty: &MType) -> bool {
    match ty {
        MType::Array(e, Some(x)) => {
            matches!(x.kind, tass_model::api::ExprKind::IntLit(_)) && literal_extents(e)
        }
        MType::Array(_, None) => false,
        _ => true,
    }
}

/// The function (`FunctionId + 1`) of the calling process's user operator
/// `Handle::Op(k)`, given to `lf`; `None` after reporting a freed operator.
pub(super) fn user_function(
    ev: &mut Evaluator<'_>,
    env: &ProcEnv<'_>,
    k: u32,
    lf: LF,
    span: &Span,
) -> Result<Option<u32>, EngineError> {
    let made = env.state.inner.procs[env.proc]
        .mpi
        .ops
        .get(k.wrapping_sub(1) as usize)
        .cloned()
        .flatten();
    let Some(made) = made else {
        let message = format!(
            "{} with a user operator freed already (MPI_Op_free)",
            lf.c_name()
        );
        ev.fail(env, Property::InvalidPointer, message, span);
        return Ok(None);
    };
    made.function
        .as_data()
        .and_then(|e| ev.factory().as_concrete_int(e))
        .and_then(|x| u32::try_from(x).ok())
        .filter(|&x| x > 0)
        .map(Some)
        .ok_or_else(|| {
            EngineError::unsupported(
                "a reduction with a user operator whose function is not known",
                span,
            )
        })
}
