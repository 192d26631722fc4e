/* fevs/mpi/mpi_grp_cart_rank_bad.c -- MPI_Cart_rank of a coordinate outside a
 * non-periodic dimension.
 *
 * BUG: coordinate `size` along a non-periodic dimension of extent `size`
 * (only a periodic dimension wraps).
 *
 * Expected verdict: tass verify -n 2 mpi_grp_cart_rank_bad.c: violated,
 *   mpi-rank at the MPI_Cart_rank call.
 * mpirun -np 2 (also zero-buffer): MPI_ERR_ARG, the job aborts (exit non-zero).
 */
#include <mpi.h>

int main(int argc, char *argv[]) {
    int size;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int dims[1] = {size}, periods[1] = {0};
    MPI_Comm line;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &line);
    int past[1] = {size}, r;
    MPI_Cart_rank(line, past, &r); /* BUG: outside the line */
    MPI_Comm_free(&line);
    MPI_Finalize();
    return 0;
}
