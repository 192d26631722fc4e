//! Where a collective's data goes: the transfers between members' buffers.

use tass_model::api::LibraryConstant as LC;
use tass_semantics::api::{EngineError, Violation};
use tass_symbolic::api::{Expr, Type};

use super::data::{read_data, reduce, slice, undefined_like, DType, Data, Op};
use super::kind::{positions, Kind};
use super::members::Member;
use crate::mpi::context::Mpi;
use crate::state::State;

/// Data for the receive buffer of member `dest` (argument `arg`).
pub(super) struct Transfer {
    pub(super) dest: usize,
    pub(super) arg: usize,
    pub(super) capacity: Expr,
    pub(super) offset: Expr,
    pub(super) n: Expr,
    pub(super) data: Data,
    /// The buffer is not significant: nothing is written when it is NULL.
    pub(super) optional: bool,
}

impl Mpi<'_> {
    /// Phase 4: reads every contribution and computes what each member receives.
    pub(super) fn read_transfers(
        &mut self,
        state: &mut State,
        members: &[Member<'_>],
        root: Option<usize>,
        violations: &mut Vec<Violation>,
    ) -> Result<Option<Vec<Transfer>>, EngineError> {
        let f = self.ctx.f;
        let n = members.len();
        let kind = members[0].kind;
        let pos = positions(kind);
        let zero = f.int(0);
        let count = |x: &Option<Expr>| x.unwrap_or(zero);
        let at = |xs: &Option<Vec<Expr>>, k: usize| {
            xs.as_ref().and_then(|v| v.get(k).copied()).unwrap_or(zero)
        };
        let sum =
            |xs: &Option<Vec<Expr>>, k: usize| (0..k).fold(zero, |acc, i| f.add(acc, at(xs, i)));
        let nn = f.int(n as i64);
        let (Some(sbuf), rbuf) = (pos.sbuf, pos.rbuf.unwrap_or(0)) else {
            return Ok(Some(Vec::new()));
        };
        // read(i, offset, count): a contribution of member i.
        let mut read = |state: &mut State,
                        i: usize,
                        offset: Expr,
                        cnt: Expr|
         -> Result<Option<Data>, EngineError> {
            let m = &members[i];
            if let Some(pieces) = &m.pieces {
                return match pieces.iter().find(|(o, c, _)| *o == offset && *c == cnt) {
                    Some((_, _, d)) => Ok(Some(d.clone())),
                    None => Err(EngineError::invalid(
                        "collective: a piece of send data not read at the post",
                        Some(m.span),
                    )),
                };
            }
            let Some(call) = &m.call else {
                return Ok(None);
            };
            let dt = m
                .args
                .stype
                .clone()
                .unwrap_or(DType::Scalar(LC::MpiInt, Type::Int));
            self.as_process(state, m.world, violations, |ev, env| {
                read_data(ev, &*env, &call.args[sbuf], cnt, offset, &dt, m.span)
            })
        };
        let mut out = Vec::new();
        macro_rules! get {
            ($e:expr) => {
                match $e? {
                    Some(d) => d,
                    None => return Ok(None),
                }
            };
        }
        match kind {
            Kind::Bcast => {
                let Some(r) = root else { return Ok(Some(out)) };
                let c = count(&members[r].args.scount);
                let d = get!(read(state, r, zero, c));
                for (j, m) in members.iter().enumerate() {
                    if j != r {
                        out.push(Transfer {
                            dest: j,
                            arg: sbuf,
                            capacity: count(&m.args.scount),
                            offset: zero,
                            n: c,
                            data: d.clone(),
                            optional: false,
                        });
                    }
                }
            }
            Kind::Reduce | Kind::Allreduce | Kind::Scan | Kind::Exscan => {
                let c = count(&members[0].args.scount);
                let op = members[0].op.unwrap_or(Op::Sum);
                let mut xs = Vec::with_capacity(n);
                for (i, m) in members.iter().enumerate() {
                    xs.push(get!(read(state, i, zero, count(&m.args.scount))));
                }
                for j in 0..n {
                    let upto = match kind {
                        Kind::Reduce if root != Some(j) => continue,
                        Kind::Scan => j + 1,
                        Kind::Exscan if j == 0 => {
                            // MPI: rank 0's result is undefined (and its buffer not
                            // significant): a later read of it is reported.
                            out.push(Transfer {
                                dest: 0,
                                arg: rbuf,
                                capacity: c,
                                offset: zero,
                                n: c,
                                data: undefined_like(f, &xs[0]),
                                optional: true,
                            });
                            continue;
                        }
                        Kind::Exscan => j,
                        _ => n,
                    };
                    let part: Vec<&Data> = xs[..upto].iter().collect();
                    out.push(Transfer {
                        dest: j,
                        arg: rbuf,
                        capacity: c,
                        offset: zero,
                        n: c,
                        data: reduce(f, op, &part, c),
                        optional: false,
                    });
                }
            }
            Kind::ReduceScatter => {
                let counts = &members[0].args.rcounts;
                let total = sum(counts, n);
                let op = members[0].op.unwrap_or(Op::Sum);
                let mut xs = Vec::with_capacity(n);
                for (i, m) in members.iter().enumerate() {
                    xs.push(get!(read(state, i, zero, sum(&m.args.rcounts, n))));
                }
                let part: Vec<&Data> = xs.iter().collect();
                let all = reduce(f, op, &part, total);
                for (j, m) in members.iter().enumerate() {
                    let c = at(counts, j);
                    let d = slice(f, &all, sum(counts, j), c, m.span)?;
                    out.push(Transfer {
                        dest: j,
                        arg: rbuf,
                        capacity: c,
                        offset: zero,
                        n: c,
                        data: d,
                        optional: false,
                    });
                }
            }
            Kind::Gather | Kind::Gatherv | Kind::Allgather | Kind::Allgatherv => {
                let mut xs = Vec::with_capacity(n);
                for (i, m) in members.iter().enumerate() {
                    xs.push(get!(read(state, i, zero, count(&m.args.scount))));
                }
                for (j, m) in members.iter().enumerate() {
                    if matches!(kind, Kind::Gather | Kind::Gatherv) && root != Some(j) {
                        continue;
                    }
                    for (i, d) in xs.iter().enumerate() {
                        let (offset, capacity) = if matches!(kind, Kind::Gather | Kind::Allgather) {
                            let rc = count(&m.args.rcount);
                            (f.mul(rc, f.int(i as i64)), f.mul(rc, nn))
                        } else {
                            let off = at(&m.args.rdispls, i);
                            (off, f.add(off, at(&m.args.rcounts, i)))
                        };
                        out.push(Transfer {
                            dest: j,
                            arg: rbuf,
                            capacity,
                            offset,
                            n: count(&members[i].args.scount),
                            data: d.clone(),
                            optional: false,
                        });
                    }
                }
            }
            Kind::Scatter | Kind::Scatterv => {
                let Some(r) = root else { return Ok(Some(out)) };
                let rm = &members[r];
                for (j, m) in members.iter().enumerate() {
                    let (offset, c) = if kind == Kind::Scatter {
                        let sc = count(&rm.args.scount);
                        (f.mul(sc, f.int(j as i64)), sc)
                    } else {
                        (at(&rm.args.sdispls, j), at(&rm.args.scounts, j))
                    };
                    let d = get!(read(state, r, offset, c));
                    out.push(Transfer {
                        dest: j,
                        arg: rbuf,
                        capacity: count(&m.args.rcount),
                        offset: zero,
                        n: c,
                        data: d,
                        optional: false,
                    });
                }
            }
            Kind::Alltoall | Kind::Alltoallv => {
                for (i, s) in members.iter().enumerate() {
                    for (j, m) in members.iter().enumerate() {
                        let (soff, c, roff, capacity) = if kind == Kind::Alltoall {
                            let (sc, rc) = (count(&s.args.scount), count(&m.args.rcount));
                            (
                                f.mul(sc, f.int(j as i64)),
                                sc,
                                f.mul(rc, f.int(i as i64)),
                                f.mul(rc, nn),
                            )
                        } else {
                            let roff = at(&m.args.rdispls, i);
                            (
                                at(&s.args.sdispls, j),
                                at(&s.args.scounts, j),
                                roff,
                                f.add(roff, at(&m.args.rcounts, i)),
                            )
                        };
                        let d = get!(read(state, i, soff, c));
                        out.push(Transfer {
                            dest: j,
                            arg: rbuf,
                            capacity,
                            offset: roff,
                            n: c,
                            data: d,
                            optional: false,
                        });
                    }
                }
            }
            Kind::Barrier | Kind::CommDup | Kind::CommSplit | Kind::CommFree => {}
        }
        Ok(Some(out))
    }
}
