/* fevs/mpi/mpi_grp_bsend_none.c -- a buffered send with no buffer attached.
 *
 * BUG: MPI_Bsend without MPI_Buffer_attach.
 *
 * Expected verdict: tass verify -n 2 mpi_grp_bsend_none.c: violated,
 *   buffer-overflow at the MPI_Bsend.
 * mpirun -np 2 (also zero-buffer): MPI_ERR_BUFFER, the job aborts (exit non-zero).
 *   (A message below Open MPI's eager limit goes out without the buffer and
 *   the run passes; MPI does not promise that.)
 */
#include <mpi.h>

#define N 4000

int main(int argc, char *argv[]) {
    int rank, v[N] = {42};
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0)
        MPI_Bsend(v, N, MPI_INT, 1, 0, MPI_COMM_WORLD); /* BUG: nothing attached */
    else if (rank == 1)
        MPI_Recv(v, N, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
