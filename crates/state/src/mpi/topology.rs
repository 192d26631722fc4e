//! Cartesian topologies: the grid `MPI_Cart_create` gives a communicator
//! (made in `collective/blocking.rs` with the other communicators), and the
//! local questions it answers (`MPI_Cart_coords`, `MPI_Cart_rank`,
//! `MPI_Cart_shift`, `MPI_Cart_get`, `MPI_Cartdim_get`), plus
//! `MPI_Dims_create`. Ranks are laid out in row-major order (the last
//! dimension varies fastest), as MPI says; `reorder` is taken as false, which
//! MPI allows.

use tass_model::api::mpi::{ArgRole, MPI_PROC_NULL};
use tass_model::api::LibraryFunction as LF;
use tass_semantics::api::{EngineError, Property};

use super::comm;
use super::context::MpiCall;
use super::group::Done;

/// The grid of a Cartesian communicator.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Cartesian {
    /// The extent of each dimension.
    pub dims: Vec<i64>,
    /// Whether each dimension wraps around.
    pub periods: Vec<bool>,
}

impl Cartesian {
    /// The coordinates of rank `rank`.
    pub(crate) fn coords(&self, mut rank: i64) -> Vec<i64> {
        let mut out = vec![0; self.dims.len()];
        for (d, &extent) in self.dims.iter().enumerate().rev() {
            out[d] = rank % extent;
            rank /= extent;
        }
        out
    }

    /// The rank at `coords`, wrapped along periodic dimensions; `Err(d)`
    /// when coordinate `d` lies outside a non-periodic dimension.
    pub(crate) fn rank(&self, coords: &[i64]) -> Result<i64, usize> {
        let mut rank = 0;
        for (d, (&c, &extent)) in coords.iter().zip(&self.dims).enumerate() {
            let c = if self.periods[d] {
                c.rem_euclid(extent)
            } else if (0..extent).contains(&c) {
                c
            } else {
                return Err(d);
            };
            rank = rank * extent + c;
        }
        Ok(rank)
    }

    /// The number of processes of the grid.
    pub(crate) fn size(&self) -> i64 {
        self.dims.iter().product()
    }
}

impl MpiCall<'_, '_, '_> {
    /// Executes a Cartesian question or `MPI_Dims_create`.
    pub(super) fn cartesian_call(&mut self) -> Result<Done, EngineError> {
        let call = self.call;
        if call.lf == LF::MpiDimsCreate {
            return self.dims_create();
        }
        let Some(c) = self.checked_comm()? else {
            return Ok(Done::Failed);
        };
        let Some(grid) = comm::communicator(self.env.state, c).and_then(|c| c.topology.clone())
        else {
            let message = format!(
                "{} on a communicator without a Cartesian topology",
                call.lf.c_name()
            );
            self.ev
                .fail(&*self.env, Property::InvalidPointer, message, call.span);
            return Ok(Done::Failed);
        };
        let my_rank = comm::rank_in(self.env.state, c, self.env.proc as u32).unwrap_or(0) as i64;
        let (lf, span) = (call.lf, call.span);
        match lf {
            LF::MpiCartdimGet => self.write_int(ArgRole::SizeOut, grid.dims.len() as i64)?,
            LF::MpiCartCoords => {
                let rank = self.int_arg(ArgRole::RankIn, "rank")?;
                if !(0..grid.size()).contains(&rank) {
                    let message = format!(
                        "MPI_Cart_coords: rank {rank} is not a rank of the communicator (0..{})",
                        grid.size() - 1
                    );
                    self.ev.fail(&*self.env, Property::MpiRank, message, span);
                    return Ok(Done::Failed);
                }
                if !self.max_dims_ok(grid.dims.len())? {
                    return Ok(Done::Failed);
                }
                self.write_ints(ArgRole::Coords, &grid.coords(rank))?;
            }
            LF::MpiCartGet => {
                if !self.max_dims_ok(grid.dims.len())? {
                    return Ok(Done::Failed);
                }
                let periods: Vec<i64> = grid.periods.iter().map(|&p| i64::from(p)).collect();
                self.write_ints(ArgRole::Dims, &grid.dims)?;
                self.write_ints(ArgRole::Periods, &periods)?;
                self.write_ints(ArgRole::Coords, &grid.coords(my_rank))?;
            }
            LF::MpiCartRank => {
                let n = grid.dims.len();
                let got = self.read_ints(ArgRole::Coords, n, "coordinates")?;
                let Some(coords) = got else {
                    return Ok(Done::Failed);
                };
                match grid.rank(&coords) {
                    Ok(r) => self.write_int(ArgRole::RankOut, r)?,
                    Err(d) => {
                        let message = format!(
                            "MPI_Cart_rank: coordinate {} of dimension {d} lies outside 0..{} \
                         and the dimension is not periodic",
                            coords[d],
                            grid.dims[d] - 1
                        );
                        self.ev.fail(&*self.env, Property::MpiRank, message, span);
                        return Ok(Done::Failed);
                    }
                }
            }
            LF::MpiCartShift => {
                let d = self.int_arg(ArgRole::Direction, "direction")?;
                let disp = self.int_arg(ArgRole::Displacement, "displacement")?;
                if !(0..grid.dims.len() as i64).contains(&d) {
                    let message = format!(
                        "MPI_Cart_shift: direction {d} is not a dimension of the grid (0..{})",
                        grid.dims.len() as i64 - 1
                    );
                    self.ev.fail(&*self.env, Property::MpiCount, message, span);
                    return Ok(Done::Failed);
                }
                let mine = grid.coords(my_rank);
                let neighbour = |by: i64| {
                    let mut c = mine.clone();
                    c[d as usize] += by;
                    grid.rank(&c).unwrap_or(MPI_PROC_NULL)
                };
                let (source, dest) = (neighbour(-disp), neighbour(disp));
                self.write_int(ArgRole::SourceOut, source)?;
                self.write_int(ArgRole::DestOut, dest)?;
            }
            other => {
                return Err(EngineError::unsupported(
                    format!("not yet supported: {}", other.c_name()),
                    span,
                ))
            }
        }
        Ok(Done::Returns)
    }

    /// MPI requires `maxdims` to be at least the grid's number of dimensions
    /// (the arrays written have that many elements): `mpi-count`.
    fn max_dims_ok(&mut self, ndims: usize) -> Result<bool, EngineError> {
        let call = self.call;
        let maxdims = self.int_arg(ArgRole::Length, "maxdims")?;
        if maxdims >= ndims as i64 {
            return Ok(true);
        }
        let message = format!(
            "{}: maxdims {maxdims} is less than the {ndims} dimensions of the grid",
            call.lf.c_name()
        );
        self.ev
            .fail(self.env, Property::MpiCount, message, call.span);
        Ok(false)
    }

    /// `MPI_Dims_create(nnodes, ndims, dims)`: fills the zero entries of `dims`
    /// so that the product is `nnodes`, as balanced as possible and in
    /// non-increasing order; the non-zero entries stay.
    fn dims_create(&mut self) -> Result<Done, EngineError> {
        let call = self.call;
        let span = call.span;
        let nnodes = self.int_arg(ArgRole::Nodes, "nnodes")?;
        let ndims = self.int_arg(ArgRole::Length, "ndims")?;
        if nnodes <= 0 || ndims < 0 {
            let message = format!("MPI_Dims_create with nnodes {nnodes} and ndims {ndims}");
            self.ev.fail(&*self.env, Property::MpiCount, message, span);
            return Ok(Done::Failed);
        }
        let got = self.read_ints(ArgRole::Dims, ndims as usize, "dims")?;
        let Some(mut dims) = got else {
            return Ok(Done::Failed);
        };
        let fixed: i64 = dims.iter().filter(|&&d| d > 0).product();
        let bad = dims.iter().any(|&d| d < 0) || nnodes % fixed != 0;
        let free: Vec<usize> = (0..dims.len()).filter(|&d| dims[d] == 0).collect();
        if bad || (free.is_empty() && fixed != nnodes) {
            let message = format!(
                "MPI_Dims_create: the given dims {dims:?} cannot multiply to {nnodes} processes"
            );
            self.ev.fail(&*self.env, Property::MpiCount, message, span);
            return Ok(Done::Failed);
        }
        if !free.is_empty() {
            for (slot, v) in free.iter().zip(balanced(nnodes / fixed, free.len())) {
                dims[*slot] = v;
            }
        }
        self.write_ints(ArgRole::Dims, &dims)?;
        Ok(Done::Returns)
    }
}

/// `k` factors of `n`, as close to each other as possible, largest first:
/// each prime factor, largest first, goes to the smallest factor so far.
fn balanced(mut n: i64, k: usize) -> Vec<i64> {
    let mut primes = Vec::new();
    let mut p = 2;
    while p * p <= n {
        while n % p == 0 {
            primes.push(p);
            n /= p;
        }
        p += 1;
    }
    if n > 1 {
        primes.push(n);
    }
    let mut out = vec![1; k];
    for &p in primes.iter().rev() {
        let smallest = (0..k).min_by_key(|&j| out[j]).unwrap_or(0);
        out[smallest] *= p;
    }
    out.sort_by(|a, b| b.cmp(a));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_row_major_and_wrap_only_periodic_dimensions() {
        let g = Cartesian {
            dims: vec![2, 3],
            periods: vec![false, true],
        };
        assert_eq!(g.coords(4), vec![1, 1]);
        assert_eq!(g.rank(&[1, 1]), Ok(4));
        assert_eq!(g.rank(&[0, 3]), Ok(0));
        assert_eq!(g.rank(&[0, -1]), Ok(2));
        assert_eq!(g.rank(&[2, 0]), Err(0));
        for r in 0..6 {
            assert_eq!(g.rank(&g.coords(r)), Ok(r));
        }
    }

    #[test]
    fn dims_are_balanced_largest_first() {
        assert_eq!(balanced(12, 2), vec![4, 3]);
        assert_eq!(balanced(6, 2), vec![3, 2]);
        assert_eq!(balanced(8, 3), vec![2, 2, 2]);
        assert_eq!(balanced(7, 2), vec![7, 1]);
        assert_eq!(balanced(1, 2), vec![1, 1]);
    }
}
