//! The data of collectives: reduction operations and datatypes, combining
//! contributions, slicing and reading and writing whole buffers.

use crate::mpi::buffer::{Elements, Reader};
use tass_dynamic::api::{undefined_data, Handle, Value};
use tass_model::api::{Expr as MExpr, LibraryConstant as LC, Span};
use tass_semantics::api::{
    float_less, float_reduction, Arith, EngineError, Environment, Evaluator,
};
use tass_symbolic::api::{BitOp, Expr, ExprFactory, Type};

use crate::mpi::buffer::{
    flat_read, scalar_of, write_buffer, write_pairs, BufArg, Window, CONCRETE_LIMIT,
};

/// The reduction operations.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(super) enum Op {
    Sum,
    Prod,
    Min,
    Max,
    Land,
    Lor,
    Band,
    Bor,
    Maxloc,
    Minloc,
    /// A user operator (`MPI_Op_create`): the function pointer value
    /// (`FunctionId + 1`) of its function, which the reduction runs as
    /// program code (`user_reduce.rs`).
    User(u32),
}

pub(super) fn op_of(v: &Value, span: &Span) -> Result<Op, EngineError> {
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
            LC::MpiMaxloc => Op::Maxloc,
            LC::MpiMinloc => Op::Minloc,
            other => {
                return Err(EngineError::unsupported(
                    format!("reduction operation {}", other.c_name()),
                    span,
                ))
            }
        },
        Value::Handle(Handle::Op(_)) => {
            return Err(EngineError::unsupported(
                "a reduction with a user operator (made by MPI_Op_create): not yet supported",
                span,
            ))
        }
        other => {
            return Err(EngineError::unsupported(
                format!("reduction operation {other:?}"),
                span,
            ))
        }
    })
}

pub(super) fn op_name(op: Op) -> &'static str {
    match op {
        Op::Sum => "MPI_SUM",
        Op::Prod => "MPI_PROD",
        Op::Min => "MPI_MIN",
        Op::Max => "MPI_MAX",
        Op::Land => "MPI_LAND",
        Op::Lor => "MPI_LOR",
        Op::Band => "MPI_BAND",
        Op::Bor => "MPI_BOR",
        Op::Maxloc => "MPI_MAXLOC",
        Op::Minloc => "MPI_MINLOC",
        Op::User(_) => "a user operator",
    }
}

/// An MPI datatype of a collective: a basic one, or a (value, index) pair type.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(super) enum DType {
    Scalar(LC, Type),
    /// `MPI_DOUBLE_INT` or `MPI_2INT`.
    Pair(LC),
}

impl DType {
    pub(super) fn constant(&self) -> LC {
        match self {
            DType::Scalar(c, _) | DType::Pair(c) => *c,
        }
    }
}

/// Data moved by a collective: `count` scalars (an array expression), or pairs.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub(super) enum Data {
    Flat(Expr),
    Pairs(Vec<(Expr, Expr)>),
}

pub(super) fn combine(f: &ExprFactory, arith: Arith, op: Op, a: Expr, b: Expr) -> Expr {
    let ty = f.type_of(a);
    if arith != Arith::Real && ty == Type::Real {
        // At herbrand/ieee level a floating reduction is an uninterpreted
        // operator applied in rank order (see tass_semantics' float_reduction).
        if let Some(e) = float_reduction(f, op_name(op), a, b) {
            return e;
        }
    }
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
        // MAXLOC/MINLOC on scalars is rejected before (mpi-type); as MAX/MIN here.
        Op::Max | Op::Maxloc => f.ite(f.le(a, b), b, a),
        Op::Minloc => f.ite(f.le(a, b), a, b),
        Op::Land => as_ty(f.and(truth(a), truth(b))),
        Op::Lor => as_ty(f.or(truth(a), truth(b))),
        Op::Band => f.bitwise(BitOp::And, a, b),
        Op::Bor => f.bitwise(BitOp::Or, a, b),
        // Never combined here: the reduction runs the user function
        // (`user_reduce.rs`); every caller checks for it first.
        Op::User(_) => unreachable!("a user operator is not combined symbolically"),
    }
}

/// `MPI_MAXLOC` / `MPI_MINLOC` of two (value, index) pairs: the better value;
/// on a tie, the smaller index (MPI's rule).
pub(super) fn combine_loc(
    f: &ExprFactory,
    arith: Arith,
    op: Op,
    (a, i): (Expr, Expr),
    (b, j): (Expr, Expr),
) -> (Expr, Expr) {
    let lt = |x: Expr, y: Expr| match arith {
        Arith::Ieee | Arith::Herbrand if f.type_of(x) == Type::Real => float_less(f, x, y),
        _ => f.lt(x, y),
    };
    let (a_better, b_better) = if op == Op::Minloc {
        (lt(a, b), lt(b, a))
    } else {
        (lt(b, a), lt(a, b))
    };
    let value = f.ite(a_better, a, b);
    let index = f.ite(a_better, i, f.ite(b_better, j, f.ite(f.le(i, j), i, j)));
    (value, index)
}

/// The elementwise reduction of arrays of one type (nested arrays element by
/// element; arrays of different shapes through their flat elements).
pub(super) fn reduce_arrays(
    f: &ExprFactory,
    (arith, op): (Arith, Op),
    xs: &[Expr],
    count: Expr,
    depth: u32,
) -> Expr {
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
            .fold(xs[0], |acc, &x| combine(f, arith, op, acc, x));
    };
    let at = |i: Expr| -> Vec<Expr> { xs.iter().map(|&x| f.array_read(x, i)).collect() };
    let fold = |els: Vec<Expr>| -> Expr {
        if matches!(&**elem, Type::Array(..)) {
            reduce_arrays(f, (arith, op), &els, count, depth + 1)
        } else {
            els.iter()
                .skip(1)
                .fold(els[0], |acc, &x| combine(f, arith, op, acc, x))
        }
    };
    if let Some(k) = concrete_small(f, ext.unwrap_or_else(|| f.int(-1))) {
        let els: Vec<Expr> = (0..k).map(|i| fold(at(f.int(i)))).collect();
        return f.array_literal(t.clone(), &els);
    }
    let i = f.symbol(&format!("__tass_mpi_r{depth}"), Type::Int);
    let body = fold(at(i));
    f.array_lambda(t.clone(), i, body)
}

/// The reduction of contributions `xs` (at least one) of `count` elements.
pub(super) fn reduce(f: &ExprFactory, (arith, op): (Arith, Op), xs: &[&Data], count: Expr) -> Data {
    let flats: Vec<Expr> = xs
        .iter()
        .filter_map(|d| match d {
            Data::Flat(x) => Some(*x),
            Data::Pairs(_) => None,
        })
        .collect();
    if flats.len() == xs.len() {
        return Data::Flat(reduce_arrays(f, (arith, op), &flats, count, 0));
    }
    let mut acc: Vec<(Expr, Expr)> = Vec::new();
    for (k, d) in xs.iter().enumerate() {
        let Data::Pairs(ps) = d else { continue };
        if k == 0 || acc.is_empty() {
            acc = ps.clone();
        } else {
            for (a, &b) in acc.iter_mut().zip(ps) {
                *a = combine_loc(f, arith, op, *a, b);
            }
        }
    }
    Data::Pairs(acc)
}

/// Data of the shape of `d` whose every element is undefined.
pub(super) fn undefined_like(f: &ExprFactory, d: &Data) -> Data {
    match d {
        Data::Flat(x) => Data::Flat(undefined_data(f, f.type_of(*x))),
        Data::Pairs(ps) => Data::Pairs(
            ps.iter()
                .map(|&(v, i)| {
                    (
                        undefined_data(f, f.type_of(v)),
                        undefined_data(f, f.type_of(i)),
                    )
                })
                .collect(),
        ),
    }
}

/// `k` if `e` is a concrete integer in `0..=CONCRETE_LIMIT`.
pub(super) fn concrete_small(f: &ExprFactory, e: Expr) -> Option<i64> {
    f.as_concrete_int(e)
        .and_then(|k| i64::try_from(k).ok())
        .filter(|&k| (0..=CONCRETE_LIMIT).contains(&k))
}

/// Elements `off .. off+n` of `data`.
pub(super) fn slice(
    f: &ExprFactory,
    data: &Data,
    off: Expr,
    n: Expr,
    span: &Span,
) -> Result<Data, EngineError> {
    match data {
        Data::Flat(a) => {
            let t = Type::array(scalar_of(&f.type_of(*a)), Some(n));
            if let Some(k) = concrete_small(f, n) {
                let els: Vec<Expr> = (0..k)
                    .map(|j| flat_read(f, *a, f.add(off, f.int(j))))
                    .collect();
                return Ok(Data::Flat(f.array_literal(t, &els)));
            }
            let j = f.symbol("__tass_mpi_s", Type::Int);
            Ok(Data::Flat(f.array_lambda(
                t,
                j,
                flat_read(f, *a, f.add(off, j)),
            )))
        }
        Data::Pairs(ps) => {
            let (Some(o), Some(k)) = (concrete_small(f, off), concrete_small(f, n)) else {
                return Err(EngineError::unsupported(
                    "MPI_Reduce_scatter of pair elements with symbolic counts",
                    span,
                ));
            };
            let (o, k) = (o as usize, k as usize);
            Ok(Data::Pairs(
                ps.get(o..o + k).map(<[_]>::to_vec).unwrap_or_default(),
            ))
        }
    }
}

impl Reader<'_, '_> {
    /// The datatype a collective's datatype argument `e` names.
    pub(super) fn dtype_of(&mut self, e: &MExpr) -> Result<DType, EngineError> {
        let (ev, env, span) = (&mut *self.ev, self.env, self.span);
        Ok(match crate::mpi::buffer::p2p_datatype(ev, env, e, span)? {
            crate::mpi::buffer::P2pType::Basic(c, ty) => DType::Scalar(c, ty),
            crate::mpi::buffer::P2pType::Pair(c) => DType::Pair(c),
        })
    }

    /// Reads `at` as elements of datatype `dt`; `None` when the path died.
    pub(super) fn read_data(
        &mut self,
        at: Elements<'_>,
        dt: &DType,
    ) -> Result<Option<Data>, EngineError> {
        Ok(match dt {
            DType::Scalar(_, ty) => self.read_buffer(at, ty)?.map(Data::Flat),
            DType::Pair(c) => self.read_pairs(at, *c)?.map(Data::Pairs),
        })
    }
}

/// Writes `n` elements of `data` (of datatype `dt`) into buffer `arg` at `window`.
pub(super) fn write_data(
    ev: &mut Evaluator<'_>,
    env: &mut dyn Environment,
    arg: BufArg<'_>,
    window: Window,
    (data, n): (&Data, Expr),
    dt: &DType,
    span: &Span,
) -> Result<(), EngineError> {
    match data {
        Data::Flat(d) => write_buffer(ev, env, arg, window, *d, n, span),
        Data::Pairs(ps) => {
            let c = match dt {
                DType::Pair(c) => *c,
                DType::Scalar(c, _) => *c,
            };
            write_pairs(ev, env, arg, window, ps, c, span)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tass_model::api::Span;

    #[test]
    fn reductions_combine_elementwise() {
        let f = ExprFactory::new();
        let ty = Type::array(Type::Int, Some(f.int(2)));
        let a = f.array_literal(ty.clone(), &[f.int(1), f.int(5)]);
        let b = f.array_literal(ty, &[f.int(4), f.int(2)]);
        let sum = reduce_arrays(&f, (Arith::Real, Op::Sum), &[a, b], f.int(2), 0);
        assert_eq!(f.array_read(sum, f.int(0)), f.int(5));
        assert_eq!(f.array_read(sum, f.int(1)), f.int(7));
        let max = reduce_arrays(&f, (Arith::Real, Op::Max), &[a, b], f.int(2), 0);
        assert_eq!(f.array_read(max, f.int(0)), f.int(4));
        assert_eq!(f.array_read(max, f.int(1)), f.int(5));
        assert_eq!(
            combine(&f, Arith::Real, Op::Land, f.int(3), f.int(0)),
            f.int(0)
        );
        assert_eq!(
            combine(&f, Arith::Real, Op::Lor, f.int(3), f.int(0)),
            f.int(1)
        );
    }

    #[test]
    fn maxloc_and_minloc_break_ties_by_the_smaller_index() {
        let f = ExprFactory::new();
        let p = |v: i64, i: i64| (f.int(v), f.int(i));
        assert_eq!(
            combine_loc(&f, Arith::Real, Op::Maxloc, p(3, 2), p(5, 0)),
            p(5, 0)
        );
        assert_eq!(
            combine_loc(&f, Arith::Real, Op::Maxloc, p(5, 2), p(5, 1)),
            p(5, 1)
        );
        assert_eq!(
            combine_loc(&f, Arith::Real, Op::Maxloc, p(5, 1), p(5, 2)),
            p(5, 1)
        );
        assert_eq!(
            combine_loc(&f, Arith::Real, Op::Minloc, p(3, 2), p(5, 0)),
            p(3, 2)
        );
        assert_eq!(
            combine_loc(&f, Arith::Real, Op::Minloc, p(3, 4), p(3, 0)),
            p(3, 0)
        );
        let xs = [
            Data::Pairs(vec![p(1, 0), p(9, 0)]),
            Data::Pairs(vec![p(4, 1), p(2, 1)]),
            Data::Pairs(vec![p(4, 2), p(9, 2)]),
        ];
        let refs: Vec<&Data> = xs.iter().collect();
        let Data::Pairs(r) = reduce(&f, (Arith::Real, Op::Maxloc), &refs, f.int(2)) else {
            panic!("pairs reduce to pairs")
        };
        assert_eq!(r, vec![p(4, 1), p(9, 0)]);
    }

    #[test]
    fn slices_of_reduced_arrays() {
        let f = ExprFactory::new();
        let ty = Type::array(Type::Int, Some(f.int(4)));
        let a = f.array_literal(ty, &[f.int(1), f.int(2), f.int(3), f.int(4)]);
        let span = Span::synthetic();
        let Ok(Data::Flat(s)) = slice(&f, &Data::Flat(a), f.int(1), f.int(2), &span) else {
            panic!("a flat slice")
        };
        assert_eq!(f.array_read(s, f.int(0)), f.int(2));
        assert_eq!(f.array_read(s, f.int(1)), f.int(3));
    }
}
