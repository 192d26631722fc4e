//! Where a collective's data goes: the transfers between members' buffers.

use crate::mpi::buffer::{Elements, Reader};
use tass_model::api::LibraryConstant as LC;
use tass_semantics::api::{Arith, EngineError};
use tass_symbolic::api::{Expr, ExprFactory, Type};

use super::data::{reduce, slice, undefined_like, DType, Data, Op};
use super::kind::{positions, Kind};
use super::members::{CollectiveRun, Member};
use crate::mpi::buffer::Window;
use crate::state::State;

/// The transfers of a collective, or `None` when some member has no send
/// data to read (the collective is not performed).
type Transfers = Result<Option<Vec<Transfer>>, EngineError>;

/// Reads `count` elements at `offset` of the send data of member `i`.
type Read<'r> = dyn FnMut(&mut State, usize, Expr, Expr) -> Result<Option<Data>, EngineError> + 'r;

/// The value of `$e` (a read), or the end of the computation when there is none.
macro_rules! get {
    ($e:expr) => {
        match $e? {
            Some(d) => d,
            None => return Ok(None),
        }
    };
}

/// What the transfers of one collective are computed from.
struct Plan<'a, 'm> {
    f: &'a ExprFactory,
    /// The arithmetic level, for floating reductions.
    arith: Arith,
    kind: Kind,
    members: &'a [Member<'m>],
    root: Option<usize>,
    /// The position of the send buffer (of the buffer, for `MPI_Bcast`).
    sbuf: usize,
    /// The position of the receive buffer.
    rbuf: usize,
}

impl Plan<'_, '_> {
    /// `n` elements of `data` into member `dest`'s receive buffer, at `window`.
    fn receive_transfer(&self, dest: usize, window: Window, n: Expr, data: Data) -> Transfer {
        Transfer {
            dest,
            arg: self.rbuf,
            capacity: window.capacity,
            offset: window.offset,
            n,
            data,
            optional: false,
            fold: None,
        }
    }

    /// What every member contributes to a reduction: the `length(member)`
    /// leading elements of its send data (`None`: one cannot be read).
    fn contributions(
        &self,
        state: &mut State,
        read: &mut Read<'_>,
        length: impl Fn(&Member<'_>) -> Expr,
    ) -> Result<Option<Vec<Data>>, EngineError> {
        let mut xs = Vec::with_capacity(self.members.len());
        for (i, m) in self.members.iter().enumerate() {
            xs.push(get!(read(state, i, self.zero(), length(m))));
        }
        Ok(Some(xs))
    }

    /// The leading `capacity` elements of a buffer.
    fn leading(&self, capacity: Expr) -> Window {
        Window {
            capacity,
            offset: self.zero(),
        }
    }

    fn zero(&self) -> Expr {
        self.f.int(0)
    }

    fn size(&self) -> Expr {
        self.f.int(self.members.len() as i64)
    }

    /// A count argument, 0 where it is not significant.
    fn count(&self, x: &Option<Expr>) -> Expr {
        x.unwrap_or(self.zero())
    }

    /// Element `k` of a counts or displacements argument, 0 where it is not
    /// significant.
    fn at(&self, xs: &Option<Vec<Expr>>, k: usize) -> Expr {
        xs.as_ref()
            .and_then(|v| v.get(k).copied())
            .unwrap_or(self.zero())
    }

    /// The sum of the first `k` elements of a counts argument.
    fn sum(&self, xs: &Option<Vec<Expr>>, k: usize) -> Expr {
        (0..k).fold(self.zero(), |acc, i| self.f.add(acc, self.at(xs, i)))
    }

    /// `MPI_Bcast`: the root's data to every other member.
    fn bcast(&self, state: &mut State, read: &mut Read<'_>) -> Transfers {
        let mut out = Vec::new();
        let Some(r) = self.root else {
            return Ok(Some(Vec::new()));
        };
        let c = self.count(&self.members[r].args.scount);
        let d = get!(read(state, r, self.zero(), c));
        for (j, m) in self.members.iter().enumerate() {
            if j != r {
                out.push(Transfer {
                    dest: j,
                    arg: self.sbuf,
                    capacity: self.count(&m.args.scount),
                    offset: self.zero(),
                    n: c,
                    data: d.clone(),
                    optional: false,
                    fold: None,
                });
            }
        }
        Ok(Some(out))
    }

    /// `MPI_Reduce`, `MPI_Allreduce`, `MPI_Scan`, `MPI_Exscan`.
    fn reductions(&self, state: &mut State, read: &mut Read<'_>) -> Transfers {
        let mut out = Vec::new();
        let c = self.count(&self.members[0].args.scount);
        let op = self.members[0].op.unwrap_or(Op::Sum);
        let xs = get!(self.contributions(state, read, |m| self.count(&m.args.scount)));
        for j in 0..self.members.len() {
            let upto = match self.kind {
                Kind::Reduce if self.root != Some(j) => continue,
                Kind::Scan => j + 1,
                Kind::Exscan if j == 0 => {
                    // MPI: rank 0's result is undefined (and its buffer not
                    // significant): a later read of it is reported.
                    out.push(Transfer {
                        dest: 0,
                        arg: self.rbuf,
                        capacity: c,
                        offset: self.zero(),
                        n: c,
                        data: undefined_like(self.f, &xs[0]),
                        optional: true,
                        fold: None,
                    });
                    continue;
                }
                Kind::Exscan => j,
                _ => self.members.len(),
            };
            let (data, fold) = match op {
                // The receive buffer starts with the last contribution; the
                // user function then folds the others into it.
                Op::User(_) => (xs[upto - 1].clone(), Some(xs[..upto - 1].to_vec())),
                _ => {
                    let part: Vec<&Data> = xs[..upto].iter().collect();
                    (reduce(self.f, (self.arith, op), &part, c), None)
                }
            };
            let mut transfer = self.receive_transfer(j, self.leading(c), c, data);
            transfer.fold = fold;
            out.push(transfer);
        }
        Ok(Some(out))
    }

    /// `MPI_Reduce_scatter`: the reduction, in blocks.
    fn reduce_scatter(&self, state: &mut State, read: &mut Read<'_>) -> Transfers {
        let mut out = Vec::new();
        let counts = &self.members[0].args.rcounts;
        let total = self.sum(counts, self.members.len());
        let op = self.members[0].op.unwrap_or(Op::Sum);
        let xs = get!(self.contributions(state, read, |m| self
            .sum(&m.args.rcounts, self.members.len())));
        if let Op::User(_) = op {
            // Each member's block of every contribution: its receive buffer
            // starts with the last one's, the user function folds the
            // others into it (as for MPI_Reduce).
            for (j, m) in self.members.iter().enumerate() {
                let (off, c) = (self.sum(counts, j), self.at(counts, j));
                let mut blocks = Vec::with_capacity(xs.len());
                for x in &xs {
                    blocks.push(slice(self.f, x, off, c, m.span)?);
                }
                let last = blocks.pop().expect("a communicator has a member");
                let mut transfer = self.receive_transfer(j, self.leading(c), c, last);
                transfer.fold = Some(blocks);
                out.push(transfer);
            }
            return Ok(Some(out));
        }
        let part: Vec<&Data> = xs.iter().collect();
        let all = reduce(self.f, (self.arith, op), &part, total);
        for (j, m) in self.members.iter().enumerate() {
            let c = self.at(counts, j);
            let d = slice(self.f, &all, self.sum(counts, j), c, m.span)?;
            out.push(self.receive_transfer(j, self.leading(c), c, d));
        }
        Ok(Some(out))
    }

    /// `MPI_Gather(v)`, `MPI_Allgather(v)`: every member's data to the root (or to all).
    fn gathers(&self, state: &mut State, read: &mut Read<'_>) -> Transfers {
        let mut out = Vec::new();
        let mut xs = Vec::with_capacity(self.members.len());
        for (i, m) in self.members.iter().enumerate() {
            // In place, a member's contribution is its block of its receive buffer.
            let offset = match (m.args.in_place, self.kind) {
                (false, _) => self.zero(),
                (true, Kind::Gather | Kind::Allgather) => {
                    self.f.mul(self.count(&m.args.rcount), self.f.int(i as i64))
                }
                (true, _) => self.at(&m.args.rdispls, i),
            };
            xs.push(get!(read(state, i, offset, self.count(&m.args.scount))));
        }
        for (j, m) in self.members.iter().enumerate() {
            if matches!(self.kind, Kind::Gather | Kind::Gatherv) && self.root != Some(j) {
                continue;
            }
            for (i, d) in xs.iter().enumerate() {
                if i == j && m.args.in_place {
                    continue; // already in place
                }
                let (offset, capacity) = if matches!(self.kind, Kind::Gather | Kind::Allgather) {
                    let rc = self.count(&m.args.rcount);
                    (
                        self.f.mul(rc, self.f.int(i as i64)),
                        self.f.mul(rc, self.size()),
                    )
                } else {
                    let off = self.at(&m.args.rdispls, i);
                    (off, self.f.add(off, self.at(&m.args.rcounts, i)))
                };
                out.push(self.receive_transfer(
                    j,
                    Window { capacity, offset },
                    self.count(&self.members[i].args.scount),
                    d.clone(),
                ));
            }
        }
        Ok(Some(out))
    }

    /// `MPI_Scatter(v)`: blocks of the root's data to every member.
    fn scatters(&self, state: &mut State, read: &mut Read<'_>) -> Transfers {
        let mut out = Vec::new();
        let Some(r) = self.root else {
            return Ok(Some(Vec::new()));
        };
        let rm = &self.members[r];
        for (j, m) in self.members.iter().enumerate() {
            let (offset, c) = if self.kind == Kind::Scatter {
                let sc = self.count(&rm.args.scount);
                (self.f.mul(sc, self.f.int(j as i64)), sc)
            } else {
                (self.at(&rm.args.sdispls, j), self.at(&rm.args.scounts, j))
            };
            if j == r && rm.args.in_place {
                continue; // the root keeps its block where it is
            }
            let d = get!(read(state, r, offset, c));
            out.push(self.receive_transfer(j, self.leading(self.count(&m.args.rcount)), c, d));
        }
        Ok(Some(out))
    }

    /// `MPI_Alltoall(v)`: block `j` of member `i` to block `i` of member `j`.
    fn all_to_all(&self, state: &mut State, read: &mut Read<'_>) -> Transfers {
        let mut out = Vec::new();
        for (i, s) in self.members.iter().enumerate() {
            for (j, m) in self.members.iter().enumerate() {
                let (soff, c, roff, capacity) = if self.kind == Kind::Alltoall {
                    let (sc, rc) = (self.count(&s.args.scount), self.count(&m.args.rcount));
                    (
                        self.f.mul(sc, self.f.int(j as i64)),
                        sc,
                        self.f.mul(rc, self.f.int(i as i64)),
                        self.f.mul(rc, self.size()),
                    )
                } else {
                    let roff = self.at(&m.args.rdispls, i);
                    (
                        self.at(&s.args.sdispls, j),
                        self.at(&s.args.scounts, j),
                        roff,
                        self.f.add(roff, self.at(&m.args.rcounts, i)),
                    )
                };
                if i == j && s.args.in_place {
                    continue; // already in place
                }
                let d = get!(read(state, i, soff, c));
                out.push(self.receive_transfer(
                    j,
                    Window {
                        capacity,
                        offset: roff,
                    },
                    c,
                    d,
                ));
            }
        }
        Ok(Some(out))
    }
}

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
    /// A reduction with a user operator: `data` is the last member's
    /// contribution, and the user function is then applied to these
    /// contributions of the members before it, last first
    /// (`user_reduce.rs`).
    pub(super) fold: Option<Vec<Data>>,
}

impl Transfer {
    /// Where the transfer writes in its buffer.
    pub(super) fn window(&self) -> Window {
        Window {
            capacity: self.capacity,
            offset: self.offset,
        }
    }
}

impl CollectiveRun<'_, '_> {
    /// Phase 4: reads every contribution and computes what each member receives.
    pub(super) fn read_transfers(&mut self) -> Transfers {
        let (mpi, state, violations) = (&mut *self.mpi, &mut *self.state, &mut *self.violations);
        let (members, root) = (self.members, self.root);
        let kind = members[0].kind;
        let pos = positions(kind);
        let (Some(sbuf), rbuf) = (pos.sbuf, pos.rbuf.unwrap_or(0)) else {
            return Ok(Some(Vec::new()));
        };
        let plan = Plan {
            f: mpi.ctx.f,
            arith: mpi.oracle.arith(),
            kind,
            members,
            root,
            sbuf,
            rbuf,
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
            // MPI_IN_PLACE: the data is in the receive buffer (a scatter's
            // root passes it for its receive buffer and sends as usual).
            let scatter = matches!(kind, Kind::Scatter | Kind::Scatterv);
            let from = if m.args.in_place && !scatter {
                rbuf
            } else {
                sbuf
            };
            mpi.as_process(state, m.world, violations, |ev, env| {
                Reader::new(ev, &*env, m.span)
                    .read_data(Elements::new(&call.args[from], cnt, offset), &dt)
            })
        };
        match kind {
            Kind::Bcast => plan.bcast(state, &mut read),
            Kind::Reduce | Kind::Allreduce | Kind::Scan | Kind::Exscan => {
                plan.reductions(state, &mut read)
            }
            Kind::ReduceScatter => plan.reduce_scatter(state, &mut read),
            Kind::Gather | Kind::Gatherv | Kind::Allgather | Kind::Allgatherv => {
                plan.gathers(state, &mut read)
            }
            Kind::Scatter | Kind::Scatterv => plan.scatters(state, &mut read),
            Kind::Alltoall | Kind::Alltoallv => plan.all_to_all(state, &mut read),
            Kind::Barrier
            | Kind::CommDup
            | Kind::CommSplit
            | Kind::CommFree
            | Kind::CommCreate
            | Kind::CartCreate => Ok(Some(Vec::new())),
        }
    }
}
