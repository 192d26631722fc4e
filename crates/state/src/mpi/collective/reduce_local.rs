//! `MPI_Reduce_local(inbuf, inoutbuf, count, datatype, op)`: a reduction of
//! the calling process alone, `inoutbuf[i] = inbuf[i] op inoutbuf[i]`.

use tass_model::api::mpi::ArgRole;
use tass_semantics::api::{EngineError, Evaluator};

use super::data::{dtype_of, op_of, read_data, reduce, write_data};
use crate::env::ProcEnv;
use crate::mpi::buffer::{BufArg, Window};
use crate::mpi::context::Call;

pub(in crate::mpi) fn reduce_local(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    call: &Call<'_>,
) -> Result<(), EngineError> {
    let f = ev.factory();
    let span = call.span;
    let count = ev.eval_int(&*env, call.arg(ArgRole::Count))?;
    let dt = dtype_of(ev, &*env, call.arg(ArgRole::Datatype), span)?;
    let op_value = ev.eval(&*env, call.arg(ArgRole::Op))?;
    let op = op_of(&op_value, span)?;
    let (input, inout) = (call.arg(ArgRole::SendBuffer), call.arg(ArgRole::RecvBuffer));
    let Some(a) = read_data(ev, &*env, input, count, f.int(0), &dt, span)? else {
        return Ok(());
    };
    let Some(b) = read_data(ev, &*env, inout, count, f.int(0), &dt, span)? else {
        return Ok(());
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
    )
}
