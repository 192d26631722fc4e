/* fevs/mpi/mpi_grp_cart_leak.c -- a Cartesian communicator never freed (the
 * pattern real codes have most: the grid lives until MPI_Finalize).
 *
 * BUG: `ring` is not freed with MPI_Comm_free.
 *
 * Expected verdict: tass verify -n 3 mpi_grp_cart_leak.c: violated,
 *   resource-leak at the MPI_Cart_create call.
 * mpirun -np 3 (also zero-buffer): exit 0 -- a leak has no symptom in a run.
 */
#include <assert.h>
#include <mpi.h>

int main(int argc, char *argv[]) {
    int size;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int dims[1] = {size}, periods[1] = {1};
    MPI_Comm ring;
    MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring); /* BUG: never freed */
    int me, left, right, from_left;
    MPI_Comm_rank(ring, &me);
    MPI_Cart_shift(ring, 0, 1, &left, &right);
    MPI_Sendrecv(&me, 1, MPI_INT, right, 0, &from_left, 1, MPI_INT, left, 0, ring,
                 MPI_STATUS_IGNORE);
    assert(from_left == (me + size - 1) % size);
    MPI_Finalize();
    return 0;
}
