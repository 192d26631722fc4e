//! User operators: `MPI_Op_create` records the function and whether it
//! commutes, `MPI_Op_free` frees it; one never freed is a `resource-leak`.
//! A reduction with a user operator is refused for now (a clear exit-2
//! error naming it, from `collective/data.rs`): running the user function
//! as program code inside the collective step is not done yet.

use tass_dynamic::api::{Handle, Value};
use tass_model::api::mpi::ArgRole;
use tass_model::api::{FunctionId, LibraryConstant as LC, LibraryFunction as LF, TransitionId};
use tass_semantics::api::{EngineError, Property};

use super::context::write_through;
use super::context::MpiCall;
use super::group::{read_through, Done, OUTPUT};
use crate::env::set_mpi;

/// A user operator of a process.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct UserOp {
    /// The user function (a function pointer value).
    pub function: Value,
    /// Whether the program said the operator commutes.
    pub commutes: bool,
    /// The call that made it (for the `resource-leak` report).
    pub origin: (FunctionId, TransitionId),
}

impl MpiCall<'_, '_, '_> {
    /// `MPI_Op_create(function, commute, &op)`, `MPI_Op_free(&op)`.
    pub(super) fn op_create_or_free(
        &mut self,
        origin: (FunctionId, TransitionId),
    ) -> Result<Done, EngineError> {
        let call = self.call;
        let span = call.span;
        if call.lf == LF::MpiOpCreate {
            let function = self.ev.eval(&*self.env, call.arg(ArgRole::UserFunction))?;
            if matches!(function, Value::Pointer(ref p) if p.is_null()) {
                let message = "MPI_Op_create with a NULL user function".to_string();
                self.ev
                    .fail(&*self.env, Property::InvalidPointer, message, span);
                return Ok(Done::Failed);
            }
            let commute = self.int_arg(ArgRole::Commute, "commute flag")?;
            let mut k = 0;
            set_mpi(self.env, |m| {
                m.ops.push(Some(UserOp {
                    function,
                    commutes: commute != 0,
                    origin,
                }));
                k = m.ops.len() as u32;
            });
            let op = Value::Handle(Handle::Op(k));
            write_through(
                self.ev,
                self.env,
                call.arg(ArgRole::OpOut),
                op,
                OUTPUT,
                span,
            )?;
            return Ok(Done::Returns);
        }
        let (place, v) = read_through(self.ev, &*self.env, call.arg(ArgRole::OpOut), span)?;
        let live = |k: u32| {
            self.env.state.inner.procs[self.env.proc]
                .mpi
                .ops
                .get(k.wrapping_sub(1) as usize)
                .is_some_and(Option::is_some)
        };
        match v {
            Value::Handle(Handle::Op(k)) if live(k) => {
                set_mpi(self.env, |m| m.ops[k as usize - 1] = None);
            }
            other => {
                let what = match other {
                    Value::Handle(Handle::Constant(LC::MpiOpNull)) => "MPI_OP_NULL".to_string(),
                    Value::Handle(Handle::Constant(c)) => {
                        format!("the predefined operator {}", c.c_name())
                    }
                    Value::Handle(Handle::Op(_)) => "an operator freed already".to_string(),
                    Value::Undefined => "an uninitialised operator".to_string(),
                    _ => "a value that is no operator".to_string(),
                };
                let message = format!("MPI_Op_free on {what}");
                self.ev
                    .fail(&*self.env, Property::InvalidPointer, message, span);
                return Ok(Done::Failed);
            }
        }
        let null = Value::Handle(Handle::Constant(LC::MpiOpNull));
        self.ev.write_place(self.env, &place, null, span)?;
        Ok(Done::Returns)
    }
}

/// The operators of a process never freed: the calls that made them.
pub(super) fn leaked_ops(ps: &super::process::MpiProc) -> Vec<(FunctionId, TransitionId)> {
    ps.ops.iter().flatten().map(|o| o.origin).collect()
}
