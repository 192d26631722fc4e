//! `MPI_Reduce_local(inbuf, inoutbuf, count, datatype, op)`: a reduction of
//! the calling process alone, `inoutbuf[i] = inbuf[i] op inoutbuf[i]`.

use crate::mpi::buffer::{Elements, Reader};
use tass_model::api::mpi::ArgRole;
use tass_semantics::api::EngineError;

use super::data::{op_of, reduce, write_data};
use super::user_reduce::{push_fold, user_function, Fold, Inputs};
use crate::mpi::buffer::{BufArg, Window};
use crate::mpi::context::MpiCall;
use tass_dynamic::api::{Handle, Value};

impl MpiCall<'_, '_, '_> {
    /// True when the call has returned already: a user operator's function runs
    /// in a frame above it (`user_reduce.rs`).
    pub(in crate::mpi) fn reduce_local(&mut self) -> Result<bool, EngineError> {
        let (ev, env, call) = self.parts();
        let f = ev.factory();
        let span = call.span;
        let count = ev.eval_int(&*env, call.arg(ArgRole::Count))?;
        let dt = Reader::new(ev, &*env, span).dtype_of(call.arg(ArgRole::Datatype))?;
        let op_value = ev.eval(&*env, call.arg(ArgRole::Op))?;
        if let Value::Handle(Handle::Op(k)) = op_value {
            let Some(function) = user_function(ev, &*env, k, call.lf, span)? else {
                return Ok(false); // reported; the path is dead
            };
            let input = ev.eval(&*env, call.arg(ArgRole::SendBuffer))?;
            let inout = ev.eval(&*env, call.arg(ArgRole::RecvBuffer))?;
            MpiCall::new(ev, env, call).return_success()?;
            let fold = Fold {
                function,
                ins: Inputs::Buffer(input),
                dtype: &dt,
                count,
                inout,
            };
            push_fold(ev, env, fold, span)?;
            return Ok(true);
        }
        let op = op_of(&op_value, span)?;
        let (input, inout) = (call.arg(ArgRole::SendBuffer), call.arg(ArgRole::RecvBuffer));
        let Some(a) =
            Reader::new(ev, &*env, span).read_data(Elements::new(input, count, f.int(0)), &dt)?
        else {
            return Ok(false);
        };
        let Some(b) =
            Reader::new(ev, &*env, span).read_data(Elements::new(inout, count, f.int(0)), &dt)?
        else {
            return Ok(false);
        };
        let arith = ev.oracle().arith();
        let result = reduce(f, (arith, op), &[&a, &b], count);
        let window = Window {
            capacity: count,
            offset: f.int(0),
        };
        write_data(
            ev,
            env,
            BufArg::Expr(inout),
            window,
            (&result, count),
            &dt,
            span,
        )?;
        Ok(false)
    }
}
