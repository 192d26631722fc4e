/* fevs/mpi/mpi_grp_cart_big.c -- a Cartesian grid with more places than the
 * communicator has processes.
 *
 * BUG: a 2 x size grid on `size` processes.
 *
 * Expected verdict: tass verify -n 2 mpi_grp_cart_big.c: violated, mpi-count at
 *   the MPI_Cart_create call.
 * mpirun -np 2 (also zero-buffer): MPI_ERR_ARG, the job aborts (exit non-zero).
 */
#include <mpi.h>

int main(int argc, char *argv[]) {
    int size;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int dims[2] = {2, size}, periods[2] = {1, 1};
    MPI_Comm grid;
    MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &grid); /* BUG: 2 * size places */
    if (grid != MPI_COMM_NULL)
        MPI_Comm_free(&grid);
    MPI_Finalize();
    return 0;
}
