//! MPI collective operations on a communicator: one synchronous step of all
//! processes once each has reached a collective call; calls that do not agree
//! (kind, root, op, count, datatype) are a `collective-mismatch`.

use tass_dynamic::api::{Handle, Value};
use tass_model::api::{LibraryConstant as LC, LibraryFunction as LF, Span};
use tass_semantics::api::{
    Change, EngineError, Environment, Evaluator, Oracle, Property, Violation,
};
use tass_symbolic::api::{BitOp, Expr, ExprFactory, Type};

use super::buffer::{
    check_rank, datatype, flat_read, read_buffer, scalar_of, write_buffer, CONCRETE_LIMIT,
};
use super::{check_comm, current_call, write_success, Call, Ctx};
use crate::state::State;

pub(super) fn is_collective(lf: LF) -> bool {
    matches!(
        lf,
        LF::MpiBarrier
            | LF::MpiBcast
            | LF::MpiReduce
            | LF::MpiAllreduce
            | LF::MpiGather
            | LF::MpiScatter
            | LF::MpiAllgather
    )
}

/// Position of the communicator argument of collective call `lf`.
pub(super) fn comm_arg(lf: LF) -> usize {
    match lf {
        LF::MpiBarrier => 0,
        LF::MpiBcast => 4,
        LF::MpiReduce => 6,
        LF::MpiAllreduce => 5,
        LF::MpiGather | LF::MpiScatter => 7,
        LF::MpiAllgather => 6,
        _ => 0,
    }
}

/// The reduction operations.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Op {
    Sum,
    Prod,
    Min,
    Max,
    Land,
    Lor,
    Band,
    Bor,
}

fn op_of(v: &Value, span: &Span) -> Result<Op, EngineError> {
    Ok(match v {
        Value::Handle(Handle::Constant(c)) => match c {
            LC::MpiSum => Op::Sum,
            LC::MpiProd => Op::Prod,
            LC::MpiMin => Op::Min,
            LC::MpiMax => Op::Max,
            LC::MpiLand => Op::Land,
            LC::MpiLor => Op::Lor,
            LC::MpiBand => Op::Band,
            LC::MpiBor => Op::Bor,
            other => {
                return Err(EngineError::unsupported(
                    format!("reduction operation {}", other.c_name()),
                    span,
                ))
            }
        },
        other => {
            return Err(EngineError::unsupported(
                format!("reduction operation {other:?}"),
                span,
            ))
        }
    })
}

fn combine(f: &ExprFactory, op: Op, a: Expr, b: Expr) -> Expr {
    let ty = f.type_of(a);
    let truth = |x: Expr| match f.type_of(x) {
        Type::Bool => x,
        t => f.ne(x, f.zero(&t)),
    };
    let as_ty = |c: Expr| match &ty {
        Type::Bool => c,
        t => f.ite(c, f.one(t), f.zero(t)),
    };
    match op {
        Op::Sum => f.add(a, b),
        Op::Prod => f.mul(a, b),
        Op::Min => f.ite(f.le(a, b), a, b),
        Op::Max => f.ite(f.le(a, b), b, a),
        Op::Land => as_ty(f.and(truth(a), truth(b))),
        Op::Lor => as_ty(f.or(truth(a), truth(b))),
        Op::Band => f.bitwise(BitOp::And, a, b),
        Op::Bor => f.bitwise(BitOp::Or, a, b),
    }
}

/// The elementwise reduction of arrays of one type (nested arrays element by
/// element; arrays of different shapes through their flat elements).
fn reduce_arrays(f: &ExprFactory, op: Op, xs: &[Expr], count: Expr, depth: u32) -> Expr {
    let t = f.type_of(xs[0]);
    let same = xs.iter().all(|&x| f.type_of(x) == t);
    let (t, xs): (Type, Vec<Expr>) = if same {
        (t, xs.to_vec())
    } else {
        let scalar = scalar_of(&t);
        let j = f.symbol("__tass_mpi_f", Type::Int);
        let ft = Type::array(scalar, Some(count));
        let flat = xs
            .iter()
            .map(|&x| f.array_lambda(ft.clone(), j, flat_read(f, x, j)))
            .collect();
        (ft, flat)
    };
    let Type::Array(elem, ext) = &t else {
        return xs
            .iter()
            .skip(1)
            .fold(xs[0], |acc, &x| combine(f, op, acc, x));
    };
    let at = |i: Expr| -> Vec<Expr> { xs.iter().map(|&x| f.array_read(x, i)).collect() };
    let fold = |els: Vec<Expr>| -> Expr {
        if matches!(&**elem, Type::Array(..)) {
            reduce_arrays(f, op, &els, count, depth + 1)
        } else {
            els.iter()
                .skip(1)
                .fold(els[0], |acc, &x| combine(f, op, acc, x))
        }
    };
    if let Some(k) = ext
        .and_then(|e| f.as_concrete_int(e))
        .and_then(|k| i64::try_from(k).ok())
        .filter(|&k| (0..=CONCRETE_LIMIT).contains(&k))
    {
        let els: Vec<Expr> = (0..k).map(|i| fold(at(f.int(i)))).collect();
        return f.array_literal(t.clone(), &els);
    }
    let i = f.symbol(&format!("__tass_mpi_r{depth}"), Type::Int);
    let body = fold(at(i));
    f.array_lambda(t.clone(), i, body)
}

/// One process's part of a collective: its call and evaluated arguments.
struct Part<'m> {
    call: Call<'m>,
    count: Expr,
    ty: Type,
    dtype: LC,
    root: Option<Expr>,
    op: Option<Op>,
}

/// A collective call: every process is at one (checked by [`push_steps`]).
pub(super) fn collective(
    ctx: &Ctx<'_>,
    oracle: &mut Oracle,
    state: &mut State,
) -> Result<(Vec<Violation>, Vec<Change>), EngineError> {
    let f = ctx.f;
    let n = state.inner.procs.len();
    let mut violations = Vec::new();
    let mut parts: Vec<Part<'_>> = Vec::with_capacity(n);
    // Evaluate every process's arguments and check that the calls agree.
    let mut dead = false;
    for p in 0..n {
        let call = current_call(ctx.model, state, p)
            .ok_or_else(|| EngineError::invalid("collective step without a call", None))?;
        let mut env = ctx.env(state, p);
        let mut ev = Evaluator::new(f, oracle, p, true);
        let a = call.args;
        let (count, dt, root, op, comm) = match call.lf {
            LF::MpiBarrier => (None, None, None, None, 0),
            LF::MpiBcast => (Some(1), Some(2), Some(3), None, 4),
            LF::MpiReduce => (Some(2), Some(3), Some(5), Some(4), 6),
            LF::MpiAllreduce => (Some(2), Some(3), None, Some(4), 5),
            LF::MpiGather | LF::MpiScatter => (Some(1), Some(2), Some(6), None, 7),
            LF::MpiAllgather => (Some(1), Some(2), None, None, 6),
            other => {
                return Err(EngineError::unsupported(
                    format!("not yet supported: {}", other.c_name()),
                    call.span,
                ))
            }
        };
        match check_comm(&mut ev, &env, &a[comm], call.span)? {
            Some(0) => {}
            Some(_) => {
                return Err(EngineError::unsupported(
                    format!(
                        "{} on a communicator other than MPI_COMM_WORLD",
                        call.lf.c_name()
                    ),
                    call.span,
                ))
            }
            None => dead = true,
        }
        let count = match count {
            Some(k) => ev.eval_int(&env, &a[k])?,
            None => f.int(0),
        };
        let (dtype, ty) = match dt {
            Some(k) => datatype(&mut ev, &env, &a[k], call.span)?,
            None => (LC::MpiInt, Type::Int),
        };
        let root = match root {
            Some(k) => {
                let r = ev.eval_int(&env, &a[k])?;
                check_rank(&mut ev, &env, r, false, "root", call.span, n);
                Some(r)
            }
            None => None,
        };
        let op = match op {
            Some(k) => Some(op_of(&ev.eval(&env, &a[k])?, call.span)?),
            None => None,
        };
        if let Some(first) = parts.first() {
            let mut problem = None;
            if first.call.lf != call.lf {
                problem = Some(format!(
                    "process {p} calls {} while process 0 calls {}",
                    call.lf.c_name(),
                    first.call.lf.c_name()
                ));
            } else if first.dtype != dtype {
                problem = Some(format!(
                    "process {p} uses datatype {} while process 0 uses {}",
                    dtype.c_name(),
                    first.dtype.c_name()
                ));
            } else if first.op != op {
                problem = Some(format!(
                    "process {p} uses a different reduction operation than process 0 ({op:?} vs {:?})",
                    first.op
                ));
            }
            if let Some(msg) = problem {
                ev.fail(&env, Property::CollectiveMismatch, msg, call.span);
                dead = true;
            } else {
                if let (Some(r0), Some(r)) = (first.root, root) {
                    let same = f.eq(r0, r);
                    ev.check(
                        &env,
                        same,
                        Property::CollectiveMismatch,
                        || {
                            format!(
                                "process {p} gives root {} to {} while process 0 gives {}",
                                f.pretty(r),
                                call.lf.c_name(),
                                f.pretty(r0)
                            )
                        },
                        call.span,
                    );
                }
                let c0 = first.count;
                if !matches!(call.lf, LF::MpiBarrier) {
                    let same = f.eq(c0, count);
                    ev.check(
                        &env,
                        same,
                        Property::CollectiveMismatch,
                        || {
                            format!(
                                "process {p} gives count {} to {} while process 0 gives {}",
                                f.pretty(count),
                                call.lf.c_name(),
                                f.pretty(c0)
                            )
                        },
                        call.span,
                    );
                }
            }
        }
        let pc = ev.current_pc(&env);
        env.set_path_condition(pc);
        violations.extend(ev.violations);
        parts.push(Part {
            call,
            count,
            ty,
            dtype,
            root,
            op,
        });
    }
    if dead {
        return Ok((violations, Vec::new()));
    }
    let lf = parts[0].call.lf;
    let root = match parts[0].root {
        Some(r) => {
            let Some(r) = f.as_concrete_int(r).and_then(|r| usize::try_from(r).ok()) else {
                return Err(EngineError::unsupported(
                    format!("{} with a symbolic root", lf.c_name()),
                    parts[0].call.span,
                ));
            };
            if r >= n {
                return Ok((violations, Vec::new())); // reported; the path is dead
            }
            Some(r)
        }
        None => None,
    };
    // Read the contributions.
    let mut data: Vec<Option<Expr>> = vec![None; n];
    for (p, part) in parts.iter().enumerate() {
        let read = match lf {
            LF::MpiBcast => root == Some(p),
            LF::MpiScatter => false,
            LF::MpiBarrier => false,
            _ => true,
        };
        if !read {
            continue;
        }
        let env = ctx.env(state, p);
        let mut ev = Evaluator::new(f, oracle, p, true);
        data[p] = read_buffer(
            &mut ev,
            &env,
            &part.call.args[0],
            part.count,
            f.int(0),
            &part.ty,
            part.call.span,
        )?;
        let pc = ev.current_pc(&env);
        let mut env = env;
        env.set_path_condition(pc);
        violations.extend(ev.violations);
    }
    if let (LF::MpiScatter, Some(r)) = (lf, root) {
        let rp = &parts[r];
        for (p, slot) in data.iter_mut().enumerate() {
            let env = ctx.env(state, r);
            let mut ev = Evaluator::new(f, oracle, r, true);
            let off = f.mul(rp.count, f.int(p as i64));
            *slot = read_buffer(
                &mut ev,
                &env,
                &rp.call.args[0],
                rp.count,
                off,
                &rp.ty,
                rp.call.span,
            )?;
            let pc = ev.current_pc(&env);
            let mut env = env;
            env.set_path_condition(pc);
            violations.extend(ev.violations);
        }
    }
    // Deliver.
    for p in 0..n {
        let part = &parts[p];
        let a = part.call.args;
        let span = part.call.span;
        let mut env = ctx.env(state, p);
        let mut ev = Evaluator::new(f, oracle, p, true);
        match lf {
            LF::MpiBarrier => {}
            LF::MpiBcast if root != Some(p) => {
                if let Some(d) = root.and_then(|r| data[r]) {
                    write_buffer(
                        &mut ev,
                        &mut env,
                        &a[0],
                        part.count,
                        f.int(0),
                        d,
                        part.count,
                        span,
                    )?;
                }
            }
            LF::MpiReduce | LF::MpiAllreduce if lf == LF::MpiAllreduce || root == Some(p) => {
                let xs: Vec<Expr> = data.iter().flatten().copied().collect();
                if xs.len() == n {
                    let op = part.op.unwrap_or(Op::Sum);
                    let r = reduce_arrays(f, op, &xs, part.count, 0);
                    write_buffer(
                        &mut ev,
                        &mut env,
                        &a[1],
                        part.count,
                        f.int(0),
                        r,
                        part.count,
                        span,
                    )?;
                }
            }
            LF::MpiGather | LF::MpiAllgather if lf == LF::MpiAllgather || root == Some(p) => {
                let rcount = ev.eval_int(&env, &a[4])?;
                let total = f.mul(rcount, f.int(n as i64));
                for (q, d) in data.iter().enumerate() {
                    if let Some(d) = d {
                        let off = f.mul(rcount, f.int(q as i64));
                        let fits = f.le(parts[q].count, rcount);
                        ev.check(&env, fits, Property::BufferOverflow, || format!("process {q} contributes {} elements, more than the {} received from each process", f.pretty(parts[q].count), f.pretty(rcount)), span);
                        write_buffer(
                            &mut ev,
                            &mut env,
                            &a[3],
                            total,
                            off,
                            *d,
                            parts[q].count,
                            span,
                        )?;
                    }
                }
            }
            LF::MpiScatter => {
                if let (Some(d), Some(r)) = (data[p], root) {
                    let rcount = ev.eval_int(&env, &a[4])?;
                    write_buffer(
                        &mut ev,
                        &mut env,
                        &a[3],
                        rcount,
                        f.int(0),
                        d,
                        parts[r].count,
                        span,
                    )?;
                }
            }
            _ => {}
        }
        write_success(&mut ev, &mut env, &part.call)?;
        env.set_location(part.call.target);
        let pc = ev.current_pc(&env);
        env.set_path_condition(pc);
        violations.extend(ev.violations);
    }
    Ok((violations, Vec::new()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_combine_elementwise() {
        let f = ExprFactory::new();
        let ty = Type::array(Type::Int, Some(f.int(2)));
        let a = f.array_literal(ty.clone(), &[f.int(1), f.int(5)]);
        let b = f.array_literal(ty, &[f.int(4), f.int(2)]);
        let sum = reduce_arrays(&f, Op::Sum, &[a, b], f.int(2), 0);
        assert_eq!(f.array_read(sum, f.int(0)), f.int(5));
        assert_eq!(f.array_read(sum, f.int(1)), f.int(7));
        let max = reduce_arrays(&f, Op::Max, &[a, b], f.int(2), 0);
        assert_eq!(f.array_read(max, f.int(0)), f.int(4));
        assert_eq!(f.array_read(max, f.int(1)), f.int(5));
        assert_eq!(combine(&f, Op::Land, f.int(3), f.int(0)), f.int(0));
        assert_eq!(combine(&f, Op::Lor, f.int(3), f.int(0)), f.int(1));
    }
}
