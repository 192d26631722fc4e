//! The arguments significant at each member of a collective, and the checks
//! that they agree, fit and do not overlap.

use crate::mpi::buffer::{Elements, Reader};
use tass_dynamic::api::{Handle, Value};
use tass_model::api::{Expr as MExpr, LibraryConstant as LC, LibraryFunction as LF, Span};
use tass_semantics::api::{EngineError, Environment, Evaluator, Property, Violation};
use tass_symbolic::api::{Expr, Type};

use super::data::{op_name, DType, Op};
use super::kind::{positions, Kind, UNDEFINED};
use super::members::{check_gives_same, path_dead, CollectiveRun, Member, Significant};
use crate::mpi::buffer::{type_name, BufArg};
use crate::mpi::context::{Mpi, MpiCall};
use crate::state::State;

impl MpiCall<'_, '_, '_> {
    /// Evaluates the arguments of collective call `call` that are significant at
    /// its process (`rank` in the communicator; `is_root`: it is the root);
    /// `None` when the path died.
    pub(super) fn significant_args(
        &mut self,
        kind: Kind,
        n: usize,
        (rank, is_root): (usize, bool),
    ) -> Result<Option<Significant>, EngineError> {
        let Some(in_place) = self.in_place(kind, is_root)? else {
            return Ok(None);
        };
        let (ev, env, call) = self.parts();
        let env = &*env;
        let f = ev.factory();
        let (a, span, lf) = (call.args, call.span, call.lf);
        let pos = positions(kind);
        // MPI_IN_PLACE makes the send arguments of a gather, an all-to-all (and the
        // receive arguments of a scatter's root) insignificant: they are filled in
        // from the others below. Those of a reduction are the shared count and type.
        let ignored_by_in_place = in_place && pos.rtype.is_some();
        let scatter = matches!(kind, Kind::Scatter | Kind::Scatterv);
        let sends = (!scatter || is_root) && (scatter || !ignored_by_in_place);
        let receives = (!matches!(kind, Kind::Gather | Kind::Gatherv) || is_root)
            && !(ignored_by_in_place && scatter);
        let rbuf_significant = receives && (kind != Kind::Reduce || is_root);
        let mut out = Significant::default();
        let int = |ev: &mut Evaluator<'_>, k: Option<usize>| match k {
            Some(k) => ev.eval_int(env, &a[k]).map(Some),
            None => Ok(None),
        };
        let per_peer = lf == LF::MpiAlltoallw;
        let dt = |ev: &mut Evaluator<'_>, k: Option<usize>| match k {
            Some(k) if per_peer => Reader::new(ev, env, span)
                .one_datatype_per_peer(&a[k], n)
                .map(Some),
            Some(k) => Reader::new(ev, env, span).dtype_of(&a[k]).map(Some),
            None => Ok(None),
        };
        // An array of one int per member (`Err(())`: the path died).
        let ints = |ev: &mut Evaluator<'_>,
                    k: Option<usize>|
         -> Result<Result<Option<Vec<Expr>>, ()>, EngineError> {
            let Some(k) = k else { return Ok(Ok(None)) };
            let Some(array) = Reader::new(ev, env, span)
                .read_buffer(Elements::new(&a[k], f.int(n as i64), f.int(0)), &Type::Int)?
            else {
                return Ok(Err(()));
            };
            Ok(Ok(Some(
                (0..n as i64)
                    .map(|j| f.array_read(array, f.int(j)))
                    .collect(),
            )))
        };
        // One side of the call (send or receive): the datatype, count, counts
        // and displacements at argument positions `at` (`None`: the path died).
        let side = |ev: &mut Evaluator<'_>, at: [Option<usize>; 4]| {
            let [ty, count, counts, displs] = at;
            let (ty, count) = (dt(ev, ty)?, int(ev, count)?);
            let counts = ints(ev, counts)?;
            if let Ok(Some(xs)) = &counts {
                let what = NonNegative {
                    property: Property::MpiCount,
                    message: &|j, x| {
                        format!(
                            "negative count {x} (element {j} of the counts of {})",
                            lf.c_name()
                        )
                    },
                };
                what.check_each(ev, env, xs, span);
            }
            let (Ok(counts), Ok(displs)) = (counts, ints(ev, displs)?) else {
                return Ok(None);
            };
            let displs = match (per_peer, &ty) {
                (true, Some(t)) => Some(byte_displacements_in_elements(ev, displs, t, span)?),
                _ => displs,
            };
            Ok::<_, EngineError>(Some((ty, count, counts, displs)))
        };
        if sends {
            let Some(send) = side(ev, [pos.stype, pos.scount, pos.scounts, pos.sdispls])? else {
                return Ok(None);
            };
            (out.stype, out.scount, out.scounts, out.sdispls) = send;
        }
        if receives {
            let Some(receive) = side(ev, [pos.rtype, pos.rcount, pos.rcounts, pos.rdispls])? else {
                return Ok(None);
            };
            if let (_, _, Some(counts), Some(displs)) = &receive {
                check_disjoint_receives(ev, env, counts, displs, lf, span);
            }
            (out.rtype, out.rcount, out.rcounts, out.rdispls) = receive;
        }
        // The buffers' C types must be the datatype's.
        let rbuf_type = out.rtype.clone().or_else(|| out.stype.clone());
        let checks = [
            (pos.sbuf.filter(|_| sends), out.stype.clone()),
            (pos.rbuf.filter(|_| rbuf_significant), rbuf_type),
        ];
        for (k, t) in checks {
            if let (Some(k), Some(t)) = (k, t) {
                if !buffer_type_ok(ev, env, &a[k], &t, lf, span) {
                    return Ok(None);
                }
            }
        }
        if in_place {
            out.fill_in_place(kind, rank);
        }
        if kind == Kind::CommSplit {
            let color = ev.eval_int(env, &a[1])?;
            let key = ev.eval_int(env, &a[2])?;
            let concrete = |e: Expr, what: &str| {
                f.as_concrete_int(e)
                    .and_then(|k| i64::try_from(k).ok())
                    .ok_or_else(|| {
                        EngineError::unsupported(
                            format!("MPI_Comm_split with a {what} that depends on the inputs"),
                            span,
                        )
                    })
            };
            let (color, key) = (concrete(color, "color")?, concrete(key, "key")?);
            if color < 0 && color != UNDEFINED {
                ev.fail(
                    env,
                    Property::MpiCount,
                    format!(
                    "MPI_Comm_split with color {color}: a color is non-negative or MPI_UNDEFINED"
                ),
                    span,
                );
                return Ok(None);
            }
            out.split = Some((color, key));
        }
        if matches!(kind, Kind::CommCreate | Kind::CartCreate) {
            let Some(spec) = self.comm_spec()? else {
                return Ok(None);
            };
            out.made_from = Some(spec);
        }
        Ok(Some(out))
    }

    /// Whether the call passes `MPI_IN_PLACE` where its collective allows it (the
    /// send buffer; a scatter's receive buffer at the root); `None` when it passes
    /// it where MPI does not allow it (reported: the path dies).
    fn in_place(&mut self, kind: Kind, is_root: bool) -> Result<Option<bool>, EngineError> {
        let (ev, env, call) = self.parts();
        let env = &*env;
        let pos = positions(kind);
        let is_in_place = |ev: &mut Evaluator<'_>, k: Option<usize>| match k {
            Some(k) => ev
                .eval(env, &call.args[k])
                .map(|v| matches!(v, Value::Handle(Handle::Constant(LC::MpiInPlace)))),
            None => Ok(false),
        };
        let scatter = matches!(kind, Kind::Scatter | Kind::Scatterv);
        let (allowed, forbidden) = if scatter {
            (pos.rbuf, pos.sbuf)
        } else {
            (pos.sbuf, pos.rbuf)
        };
        let at_root_only = matches!(
            kind,
            Kind::Reduce | Kind::Gather | Kind::Gatherv | Kind::Scatter | Kind::Scatterv
        );
        let found = is_in_place(ev, allowed)?;
        let misplaced = is_in_place(ev, forbidden)?
            || (found && (kind == Kind::Bcast || at_root_only && !is_root));
        if misplaced {
            ev.fail(
                env,
                Property::InvalidPointer,
                format!(
                    "{}: MPI_IN_PLACE where MPI does not allow it (only as the send buffer, \
                 at the root of a rooted collective; as the receive buffer at the root of a \
                 scatter; never in MPI_Bcast)",
                    call.lf.c_name()
                ),
                call.span,
            );
            return Ok(None);
        }
        if found && matches!(super::kind::shape(call.lf), Some((_, true))) {
            return Err(EngineError::unsupported(
                format!("MPI_IN_PLACE in {}", call.lf.c_name()),
                call.span,
            ));
        }
        Ok(Some(found))
    }
}

impl Significant {
    /// The arguments `MPI_IN_PLACE` stands for at the member of rank `rank`:
    /// its own block of the receive buffer (of the send buffer, for a
    /// scatter's root), with the receive datatype.
    fn fill_in_place(&mut self, kind: Kind, rank: usize) {
        self.in_place = true;
        match kind {
            Kind::Gather | Kind::Allgather | Kind::Alltoall => {
                self.stype = self.rtype.clone();
                self.scount = self.rcount;
            }
            Kind::Gatherv | Kind::Allgatherv => {
                self.stype = self.rtype.clone();
                self.scount = self.rcounts.as_ref().and_then(|c| c.get(rank).copied());
            }
            Kind::Alltoallv => {
                self.stype = self.rtype.clone();
                self.scounts = self.rcounts.clone();
                self.sdispls = self.rdispls.clone();
            }
            Kind::Scatter => {
                self.rtype = self.stype.clone();
                self.rcount = self.scount;
            }
            Kind::Scatterv => {
                self.rtype = self.stype.clone();
                self.rcount = self.scounts.as_ref().and_then(|c| c.get(rank).copied());
            }
            _ => {}
        }
    }
}

/// MPI makes a call erroneous when its receive counts and displacements would
/// write a location of the receive buffer twice (`MPI_Gatherv`,
/// `MPI_Allgatherv`, `MPI_Alltoallv`): every two non-empty regions
/// `[displs[i], displs[i] + counts[i])` must be disjoint (`mpi-count`).
pub(super) fn check_disjoint_receives(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    counts: &[Expr],
    displs: &[Expr],
    lf: LF,
    span: &Span,
) {
    let f = ev.factory();
    for i in 0..counts.len() {
        for k in i + 1..counts.len() {
            let (ci, ck, di, dk) = (counts[i], counts[k], displs[i], displs[k]);
            let empty = f.or(f.le(ci, f.int(0)), f.le(ck, f.int(0)));
            let apart = f.or(f.le(f.add(di, ci), dk), f.le(f.add(dk, ck), di));
            let claim = f.or(empty, apart);
            ev.check(
                env,
                claim,
                Property::MpiCount,
                || {
                    format!(
                        "{}: the receive regions of ranks {i} and {k} overlap (displacements {} \
                         and {}, counts {} and {})",
                        lf.c_name(),
                        f.pretty(di),
                        f.pretty(dk),
                        f.pretty(ci),
                        f.pretty(ck)
                    )
                },
                span,
            );
        }
    }
}

/// Checks that the buffer `arg` points to holds elements of datatype `dt` (when
/// its C type is known); reports an `mpi-type` violation otherwise.
pub(super) fn buffer_type_ok(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    arg: &MExpr,
    dt: &DType,
    lf: LF,
    span: &Span,
) -> bool {
    let DType::Scalar(c, want) = dt else {
        return true; // pair buffers are checked field by field
    };
    let Some(got) = BufArg::Expr(arg).scalar_pointee() else {
        return true;
    };
    // Integers and characters mix freely (`MPI_BYTE` on `unsigned char`, ...);
    // floating data under an integer datatype (or the reverse) is the error.
    if (got == Type::Real) == (*want == Type::Real) {
        return true;
    }
    let text = tass_model::api::render_expr(env.model(), arg);
    ev.fail(
        env,
        Property::MpiType,
        format!(
            "{}: buffer `{text}` holds {} elements but the datatype is {}",
            lf.c_name(),
            type_name(&got),
            c.c_name()
        ),
        span,
    );
    false
}

/// Checks that sent count `sent` fits the count `posted` for it: more is a
/// `buffer-overflow`, fewer a `collective-mismatch`.
pub(super) fn check_fit(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    sent: Expr,
    posted: Expr,
    what: &dyn Fn() -> String,
    span: &Span,
) {
    let f = ev.factory();
    // one message for both: the figures say which way they differ
    let message = || {
        format!(
            "{}: {} elements sent, {} posted to receive them",
            what(),
            f.pretty(sent),
            f.pretty(posted)
        )
    };
    let fits = f.le(sent, posted);
    ev.check(env, fits, Property::BufferOverflow, message, span);
    let same = f.eq(sent, posted);
    ev.check(env, same, Property::CollectiveMismatch, message, span);
}

impl CollectiveRun<'_, '_> {
    /// Phase 3: datatypes, operations and counts agree. `false` if the path died.
    pub(super) fn check_agreement(&mut self) -> Result<bool, EngineError> {
        let (mpi, state, violations) = (&mut *self.mpi, &mut *self.state, &mut *self.violations);
        let (members, root) = (self.members, self.root);
        if !mpi.check_datatypes(state, members, violations)? {
            return Ok(false);
        }
        for j in 0..members.len() {
            let w = members[j].world;
            mpi.as_process(state, w, violations, |ev, env| {
                check_counts(ev, &*env, members, root, j);
                Ok(())
            })?;
            if path_dead(&mpi.ctx, state) {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

impl Mpi<'_> {
    /// Datatypes: every significant one is the same, and the operation suits
    /// it. False if a violation was reported.
    fn check_datatypes(
        &mut self,
        state: &mut State,
        members: &[Member<'_>],
        violations: &mut Vec<Violation>,
    ) -> Result<bool, EngineError> {
        let name = members[0].lf.c_name();
        let reference = members.iter().find_map(|m| {
            m.args
                .stype
                .clone()
                .or_else(|| m.args.rtype.clone())
                .map(|t| (m.world, t))
        });
        if let Some((w0, t0)) = reference {
            for m in members {
                for t in [&m.args.stype, &m.args.rtype].into_iter().flatten() {
                    if *t != t0 {
                        let msg = format!(
                            "process {} uses datatype {} in {name} while process {w0} uses {}",
                            m.world,
                            t.constant().c_name(),
                            t0.constant().c_name()
                        );
                        self.as_process(state, m.world, violations, |ev, env| {
                            ev.fail(&*env, Property::CollectiveMismatch, msg, m.span);
                            Ok(())
                        })?;
                        return Ok(false);
                    }
                }
            }
            // The operation must suit the datatype.
            if let Some(op) = members[0].op {
                let problem = op_datatype_problem(op, &t0);
                if let Some(msg) = problem {
                    let m = &members[0];
                    self.as_process(state, m.world, violations, |ev, env| {
                        ev.fail(&*env, Property::MpiType, format!("{name}: {msg}"), m.span);
                        Ok(())
                    })?;
                    return Ok(false);
                }
            }
        }
        Ok(true)
    }
}

/// Why reduction `op` does not suit datatype `t`, if it does not.
fn op_datatype_problem(op: Op, t: &DType) -> Option<String> {
    if let Op::User(_) = op {
        return None; // the user function decides what it takes
    }
    let loc = matches!(op, Op::Maxloc | Op::Minloc);
    match t {
        DType::Pair(c) if !loc => Some(format!(
            "{} is a pair datatype, only for MPI_MAXLOC and MPI_MINLOC, not {}",
            c.c_name(),
            op_name(op)
        )),
        DType::Scalar(c, _) if loc => Some(format!(
            "{} needs a pair datatype (MPI_DOUBLE_INT, MPI_2INT), not {}",
            op_name(op),
            c.c_name()
        )),
        // MPI defines no reduction on MPI_CHAR (text), only bitwise
        // ones on MPI_BYTE.
        DType::Scalar(LC::MpiChar, _) => Some(format!(
            "MPI defines no reduction on MPI_CHAR, a datatype for text (reduce \
         the values as MPI_INT), so not {}",
            op_name(op)
        )),
        DType::Scalar(LC::MpiByte, _) if !matches!(op, Op::Band | Op::Bor) => Some(format!(
            "MPI_BYTE takes only the bitwise operations MPI_BAND and MPI_BOR, not {}",
            op_name(op)
        )),
        DType::Scalar(c, Type::Real) if matches!(op, Op::Land | Op::Lor | Op::Band | Op::Bor) => {
            Some(format!(
                "{} is not defined on the floating datatype {}",
                op_name(op),
                c.c_name()
            ))
        }
        _ => None,
    }
}

/// The counts of member `j` agree with the others' (equal where MPI asks for
/// equal counts, fitting where one member's data goes to another's buffer),
/// and its displacements are not negative. Checked as member `j`'s process.
fn check_counts(
    ev: &mut Evaluator<'_>,
    env: &dyn Environment,
    members: &[Member<'_>],
    root: Option<usize>,
    j: usize,
) {
    let f = ev.factory();
    let n = members.len();
    let kind = members[0].kind;
    let name = members[0].lf.c_name();
    let zero = f.int(0);
    let at = |xs: &Option<Vec<Expr>>, k: usize| {
        xs.as_ref().and_then(|v| v.get(k).copied()).unwrap_or(zero)
    };
    let count = |x: &Option<Expr>| x.unwrap_or(zero);
    let m = &members[j];
    let (w, span) = (m.world, m.span);
    // `sent` units fit the `posted` receive (`what`: who sends to whom).
    let fit = |ev: &mut Evaluator<'_>, (sent, posted), what: &dyn Fn() -> String| {
        check_fit(ev, env, sent, posted, what, span)
    };
    match kind {
        Kind::Bcast | Kind::Reduce | Kind::Allreduce | Kind::Scan | Kind::Exscan => {
            let (c0, c) = (count(&members[0].args.scount), count(&m.args.scount));
            let w0 = members[0].world;
            check_gives_same(ev, env, (name, "count"), (w0, c0), (w, c), span);
        }
        Kind::ReduceScatter => {
            let w0 = members[0].world;
            for k in 0..n {
                let (c0, c) = (at(&members[0].args.rcounts, k), at(&m.args.rcounts, k));
                let what = format!("recvcounts[{k}] =");
                check_gives_same(ev, env, (name, &what), (w0, c0), (w, c), span);
            }
        }
        // The gathering process (the root, or every process for
        // Allgather) checks each contribution against what it posted.
        Kind::Gather | Kind::Gatherv | Kind::Allgather | Kind::Allgatherv
            if root.is_none() || root == Some(j) =>
        {
            for (i, s) in members.iter().enumerate() {
                let posted = if matches!(kind, Kind::Gather | Kind::Allgather) {
                    count(&m.args.rcount)
                } else {
                    at(&m.args.rcounts, i)
                };
                fit(ev, (count(&s.args.scount), posted), &|| {
                    format!("{name}: process {} sends to process {w}", s.world)
                });
            }
        }
        Kind::Scatter | Kind::Scatterv => {
            if let Some(r) = root {
                let rm = &members[r];
                let sent = if kind == Kind::Scatter {
                    count(&rm.args.scount)
                } else {
                    at(&rm.args.scounts, j)
                };
                fit(ev, (sent, count(&m.args.rcount)), &|| {
                    format!("{name}: root {} sends to process {w}", rm.world)
                });
            }
        }
        Kind::Alltoall | Kind::Alltoallv => {
            for (i, s) in members.iter().enumerate() {
                let (sent, posted) = if kind == Kind::Alltoall {
                    (count(&s.args.scount), count(&m.args.rcount))
                } else {
                    (at(&s.args.scounts, j), at(&m.args.rcounts, i))
                };
                fit(ev, (sent, posted), &|| {
                    format!("{name}: process {} sends to process {w}", s.world)
                });
            }
        }
        _ => {}
    }
    // Displacements are offsets into the buffer: never negative.
    let what = NonNegative {
        property: Property::OutOfBounds,
        message: &|k, d| format!("negative displacement {d} (element {k}) in {name}"),
    };
    for xs in [&m.args.sdispls, &m.args.rdispls].into_iter().flatten() {
        what.check_each(ev, env, xs, span);
    }
}

/// The claim that every element of an array argument (counts, displacements)
/// is not negative: the property a negative element violates, and its message
/// from the element's index and printed value.
struct NonNegative<'m> {
    property: Property,
    message: &'m dyn Fn(usize, String) -> String,
}

impl NonNegative<'_> {
    fn check_each(&self, ev: &mut Evaluator<'_>, env: &dyn Environment, xs: &[Expr], span: &Span) {
        let f = ev.factory();
        for (k, &x) in xs.iter().enumerate() {
            let non_negative = f.le(f.int(0), x);
            ev.check(
                env,
                non_negative,
                self.property,
                || (self.message)(k, f.pretty(x)),
                span,
            );
        }
    }
}

impl Reader<'_, '_> {
    /// The datatype of every peer in `MPI_Alltoallw`'s array of `n`
    /// datatypes `e`, which tass accepts when all are the same basic
    /// datatype (each entry checked as a datatype argument:
    /// `MPI_DATATYPE_NULL` is `mpi-type`).
    fn one_datatype_per_peer(&mut self, e: &MExpr, n: usize) -> Result<DType, EngineError> {
        let (ev, env, span) = (&mut *self.ev, self.env, self.span);
        use tass_model::api::{BinaryOp, ExprKind, Type as MType};
        let elem = match &e.ty {
            MType::Pointer(t) => (**t).clone(),
            other => other.clone(),
        };
        if n > 0
            && matches!(
                ev.eval(env, e)?,
                Value::Pointer(tass_dynamic::api::Pointer::Null)
            )
        {
            let message = "MPI_Alltoallw with a NULL array of datatypes".to_string();
            ev.fail(env, Property::InvalidPointer, message, span);
            return Ok(DType::Scalar(LC::MpiInt, Type::Int)); // the path is dead
        }
        let mut first: Option<DType> = None;
        for j in 0..n {
            let index = MExpr::new(ExprKind::IntLit(j as i128), MType::INT, e.span.clone());
            let at = MExpr::new(
                ExprKind::Binary(BinaryOp::PointerAdd, Box::new(e.clone()), Box::new(index)),
                e.ty.clone(),
                e.span.clone(),
            );
            let entry = MExpr::new(ExprKind::Deref(Box::new(at)), elem.clone(), e.span.clone());
            let t = Reader::new(ev, env, span).dtype_of(&entry)?;
            match &first {
                None => first = Some(t),
                Some(f) if *f == t => {}
                Some(_) => {
                    return Err(EngineError::unsupported(
                        "MPI_Alltoallw with different datatypes for different processes (tass \
                         runs it when each side names one basic datatype)",
                        span,
                    ))
                }
            }
        }
        Ok(first.unwrap_or(DType::Scalar(LC::MpiInt, Type::Int)))
    }
}

/// `MPI_Alltoallw`'s displacements, in bytes, as element offsets of basic
/// datatype `t`: each must be a concrete multiple of the element size.
fn byte_displacements_in_elements(
    ev: &mut Evaluator<'_>,
    displs: Option<Vec<Expr>>,
    t: &DType,
    span: &Span,
) -> Result<Vec<Expr>, EngineError> {
    let f = ev.factory();
    let size = match t {
        DType::Scalar(c, _) => crate::mpi::rma::datatype_size(*c),
        DType::Pair(_) => None,
    };
    let refuse = |what: &str| {
        EngineError::unsupported(
            format!("MPI_Alltoallw with {what} (tass needs concrete byte displacements that are multiples of a basic datatype's size)"),
            span,
        )
    };
    let size = size.ok_or_else(|| refuse("this datatype"))?;
    let mut out = Vec::new();
    for d in displs.unwrap_or_default() {
        let bytes = f
            .as_concrete_int(d)
            .and_then(|b| i64::try_from(b).ok())
            .ok_or_else(|| refuse("a displacement that depends on the inputs"))?;
        if bytes % size != 0 {
            return Err(refuse(&format!("the displacement {bytes}")));
        }
        out.push(f.int(bytes / size));
    }
    Ok(out)
}
