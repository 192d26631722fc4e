/* fevs/mpi/mpi_grp_cart_border.c -- a halo exchange along a non-periodic
 * dimension that forgets the border: the first process of the line receives
 * from MPI_PROC_NULL, which leaves its buffer as it was.
 *
 * BUG: the check assumes every process got its upper neighbour's rank; the
 * process at coordinate 0 has none (MPI_Cart_shift gives MPI_PROC_NULL).
 *
 * Expected verdict: tass verify -n 3 mpi_grp_cart_border.c: violated, assertion
 *   at the check (process 0).
 * mpirun -np 3 (also zero-buffer): the assertion fails on rank 0 (signal 6).
 */
#include <assert.h>
#include <mpi.h>

int main(int argc, char *argv[]) {
    int size;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int dims[1] = {size}, periods[1] = {0};
    MPI_Comm line;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &line);
    int me, up, down, from_up = 100;
    MPI_Comm_rank(line, &me);
    MPI_Cart_shift(line, 0, 1, &up, &down);
    MPI_Sendrecv(&me, 1, MPI_INT, down, 0, &from_up, 1, MPI_INT, up, 0, line, MPI_STATUS_IGNORE);
    assert(from_up == me - 1); /* BUG: fails at the border (from_up stays 100) */
    MPI_Comm_free(&line);
    MPI_Finalize();
    return 0;
}
