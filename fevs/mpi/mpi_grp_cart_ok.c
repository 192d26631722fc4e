/* fevs/mpi/mpi_grp_cart_ok.c -- a 2-D process grid: MPI_Dims_create chooses
 * its shape, MPI_Cart_create makes it periodic along the rows' direction
 * (dimension 1) and not along dimension 0; each process checks its
 * coordinates against MPI_Cart_rank and MPI_Cart_get, and exchanges its rank
 * with its neighbours found by MPI_Cart_shift: along dimension 1 every
 * process has both (wrapping), along dimension 0 the border processes get
 * MPI_PROC_NULL and their receive buffer keeps its value.
 *
 * Expected verdict: tass verify -n 4 / -n 6 mpi_grp_cart_ok.c: holds.
 * mpirun -np 4 and -np 6 (also zero-buffer): exit 0.
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS output
int from_left0;

int main(int argc, char *argv[]) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    int dims[2] = {0, 0}, periods[2] = {0, 1};
    MPI_Dims_create(size, 2, dims);
    assert(dims[0] * dims[1] == size && dims[0] >= dims[1]);

    MPI_Comm grid;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid);
    int me, coords[2], back, ndims;
    MPI_Comm_rank(grid, &me);
    MPI_Cartdim_get(grid, &ndims);
    assert(ndims == 2);
    MPI_Cart_coords(grid, me, 2, coords);
    assert(me == coords[0] * dims[1] + coords[1]);
    MPI_Cart_rank(grid, coords, &back);
    assert(back == me);

    int gdims[2], gperiods[2], gcoords[2];
    MPI_Cart_get(grid, 2, gdims, gperiods, gcoords);
    assert(gdims[0] == dims[0] && gperiods[0] == 0 && gperiods[1] == 1);
    assert(gcoords[0] == coords[0] && gcoords[1] == coords[1]);

    /* periodic dimension: both neighbours exist */
    int left, right, from_left = -1;
    MPI_Cart_shift(grid, 1, 1, &left, &right);
    MPI_Sendrecv(&me, 1, MPI_INT, right, 0, &from_left, 1, MPI_INT, left, 0, grid,
                 MPI_STATUS_IGNORE);
    assert(from_left == coords[0] * dims[1] + (coords[1] + dims[1] - 1) % dims[1]);

    /* non-periodic dimension: MPI_PROC_NULL at the borders */
    int up, down, from_up = -1;
    MPI_Cart_shift(grid, 0, 1, &up, &down);
    if (coords[0] == 0)
        assert(up == MPI_PROC_NULL);
    if (coords[0] == dims[0] - 1)
        assert(down == MPI_PROC_NULL);
    MPI_Sendrecv(&me, 1, MPI_INT, down, 1, &from_up, 1, MPI_INT, up, 1, grid, MPI_STATUS_IGNORE);
    if (coords[0] == 0)
        assert(from_up == -1);
    else
        assert(from_up == me - dims[1]);

    MPI_Comm_free(&grid);
    if (rank == 0) {
        from_left0 = from_left;
#ifdef FEVS_CONCRETE
        printf("OUT from_left0 = %d\n", from_left0);
#endif
    }
    MPI_Finalize();
    return 0;
}
