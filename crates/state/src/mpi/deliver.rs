//! Delivering a message into a receive buffer: the element type and count
//! checked against the receive (`mpi-type`, `buffer-overflow`), pairs
//! (`MPI_DOUBLE_INT`, `MPI_2INT`) and their `int` halves converted, then the
//! data written.

use tass_dynamic::api::{Message, Value};
use tass_model::api::{LibraryConstant as LC, Span};
use tass_semantics::api::{EngineError, Environment, Evaluator, Property};
use tass_symbolic::api::{Expr, ExprFactory, Type};

use super::buffer::{scalar_of, type_name, write_buffer, BufArg, Window};
use crate::env::ProcEnv;

/// Where a receive of basic elements puts a message.
pub(super) struct Receive<'a> {
    pub buffer: BufArg<'a>,
    /// How many elements the receive takes at most.
    pub capacity: Expr,
    /// The symbolic type of one element.
    pub ty: &'a Type,
    /// The basic MPI datatype of the receive, when known.
    pub datatype: Option<LC>,
}

/// Puts the data of `msg` into a receive buffer, checking its type and length.
pub(super) fn deliver(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    msg: &Message,
    into: Receive<'_>,
    span: &Span,
) -> Result<(), EngineError> {
    let f = ev.factory();
    let Receive {
        buffer,
        capacity,
        ty,
        datatype,
    } = into;
    if let Some(refusal) = super::struct_type::mixed_message_mismatch(ev, env, msg, datatype, span)
    {
        return refusal;
    }
    if let Some(flat) = pairs_as_ints(f, msg, ty) {
        // `MPI_2INT` pairs received as twice as many `MPI_INT`s: the same
        // type signature, which is all MPI asks to match.
        let into = Receive {
            buffer,
            capacity,
            ty,
            datatype,
        };
        return deliver(ev, env, &flat, into, span);
    }
    if let Some(mismatch) = super::signature::mismatch(msg.signature, datatype) {
        ev.fail(&*env, Property::MpiType, mismatch, span);
        return Ok(());
    }
    if let Some(sent) = super::buffer::message_pair_type(f, &msg.data) {
        ev.fail(
            &*env,
            Property::MpiType,
            format!(
                "message of {} pairs received as {} elements (datatype of the receive)",
                sent.c_name(),
                type_name(ty)
            ),
            span,
        );
        return Ok(());
    }
    let Value::Data(data) = msg.data else {
        return Err(EngineError::invalid("message without data", Some(span)));
    };
    let sent_ty = scalar_of(&f.type_of(data));
    if sent_ty != *ty {
        ev.fail(
            &*env,
            Property::MpiType,
            format!(
                "message of {} elements received as {} (datatype of the receive)",
                type_name(&sent_ty),
                type_name(ty)
            ),
            span,
        );
    }
    check_fits(ev, &*env, msg.count, capacity, "elements", span);
    let window = Window {
        capacity,
        offset: f.int(0),
    };
    write_buffer(ev, env, buffer, window, data, msg.count, span)
}

/// Writes a message into the receive buffer `buf` of `capacity` pairs of type
/// `dtype` (`MPI_DOUBLE_INT`, `MPI_2INT`): the message must hold pairs of the
/// same type (`mpi-type`) and fit (`buffer-overflow`).
pub(super) fn deliver_pairs(
    ev: &mut Evaluator<'_>,
    env: &mut ProcEnv<'_>,
    msg: &Message,
    buf: BufArg<'_>,
    capacity: Expr,
    dtype: LC,
    span: &Span,
) -> Result<(), EngineError> {
    let f = ev.factory();
    if let Some(refusal) =
        super::struct_type::mixed_message_mismatch(ev, env, msg, Some(dtype), span)
    {
        return refusal;
    }
    let ints = ints_as_pairs(f, msg, dtype);
    let msg = ints.as_ref().unwrap_or(msg);
    let sent = super::buffer::message_pair_type(f, &msg.data);
    let pairs = super::buffer::message_pairs(f, &msg.data, msg.count);
    let (Some(pairs), true) = (pairs, sent == Some(dtype)) else {
        let what = match sent {
            Some(c) => format!("{} pairs", c.c_name()),
            None => "basic elements".to_string(),
        };
        ev.fail(
            &*env,
            Property::MpiType,
            format!("message of {what} received as {} pairs", dtype.c_name()),
            span,
        );
        return Ok(());
    };
    let unit = format!("{} pairs", dtype.c_name());
    let fits = check_fits(ev, &*env, msg.count, capacity, &unit, span);
    if !super::buffer::holds(ev, &*env, fits) {
        return Ok(()); // reported; the pairs that fit are not written
    }
    let window = Window {
        capacity,
        offset: f.int(0),
    };
    super::buffer::write_pairs(ev, env, buf, window, &pairs, dtype, span)
}

/// A message of `MPI_2INT` pairs as the message of their `int`s, when it is
/// received as integers (`ty`) and its count is known.
fn pairs_as_ints(f: &ExprFactory, msg: &Message, ty: &Type) -> Option<Message> {
    if *ty != Type::Int || super::buffer::message_pair_type(f, &msg.data) != Some(LC::Mpi2Int) {
        return None;
    }
    let pairs = super::buffer::message_pairs(f, &msg.data, msg.count)?;
    let ints: Vec<Expr> = pairs.iter().flat_map(|&(v, i)| [v, i]).collect();
    let n = f.int(ints.len() as i64);
    Some(Message {
        data: Value::Data(f.array_literal(Type::array(Type::Int, Some(n)), &ints)),
        count: n,
        signature: Some(LC::MpiInt),
        ..msg.clone()
    })
}

/// A message of an even, known number of `int`s as the message of their
/// `MPI_2INT` pairs, when it is received as `MPI_2INT` (`dtype`): the same
/// type signature.
fn ints_as_pairs(f: &ExprFactory, msg: &Message, dtype: LC) -> Option<Message> {
    let Value::Data(data) = msg.data else {
        return None;
    };
    let sent_as_ints = msg.signature.is_none_or(|c| c == LC::MpiInt);
    if dtype != LC::Mpi2Int || !sent_as_ints || scalar_of(&f.type_of(data)) != Type::Int {
        return None;
    }
    let n = i64::try_from(f.as_concrete_int(msg.count)?).ok()?;
    if n % 2 != 0 {
        return None;
    }
    let pairs: Vec<(Expr, Expr)> = (0..n / 2)
        .map(|j| {
            (
                super::buffer::flat_read(f, data, f.int(2 * j)),
                super::buffer::flat_read(f, data, f.int(2 * j + 1)),
            )
        })
        .collect();
    Some(Message {
        data: super::buffer::pair_message(f, LC::Mpi2Int, &pairs),
        count: f.int(n / 2),
        signature: None,
        ..msg.clone()
    })
}

/// Checks that a message of `count` units fits a receive of `capacity`
/// (`buffer-overflow`); returns the condition.
pub(super) fn check_fits(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    count: Expr,
    capacity: Expr,
    unit: &str,
    span: &Span,
) -> Expr {
    let f = ev.factory();
    let fits = f.le(count, capacity);
    ev.check(
        env,
        fits,
        Property::BufferOverflow,
        || {
            format!(
                "message of {} {unit} overflows the receive buffer of {} {unit}",
                f.pretty(count),
                f.pretty(capacity)
            )
        },
        span,
    );
    fits
}
