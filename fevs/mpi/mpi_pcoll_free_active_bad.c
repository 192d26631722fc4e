/* fevs/mpi/mpi_pcoll_free_active_bad.c -- every process binds a persistent
 * sum (MPI_Allreduce_init, MPI-4) and starts it once.
 *
 * BUG: rank 1 frees the request while the operation is active, instead of
 * waiting for it first (MPI makes MPI_Request_free on an active persistent
 * collective request erroneous); it never learns when its buffers are free.
 *
 * Open MPI 4.1 provides MPI_Allreduce_init as MPIX_Allreduce_init in <mpi-ext.h>.
 * Expected verdict: tass verify -n 2 mpi_pcoll_free_active_bad.c
 *   violated: invalid-pointer at rank 1's MPI_Request_free
 * Confirmed: mpicc -fsanitize=address,undefined, mpirun -np 2 (default and
 * zero-buffer): rank 1's free fails with MPI_ERR_REQUEST, exit 7.
 * Fixed twin: mpi_pcoll_ok.c (waits, then frees).
 */
#include <assert.h>
#include <mpi.h>
#if defined(OPEN_MPI) && MPI_VERSION < 4
#include <mpi-ext.h>
#define MPI_Allreduce_init MPIX_Allreduce_init
#endif

int main(int argc, char *argv[]) {
    int rank, mine, sum = 0;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    mine = rank + 1;
    MPI_Allreduce_init(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                       &req);
    MPI_Start(&req);
    if (rank == 1) {
        MPI_Request_free(&req); /* BUG: freed while active */
    } else {
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Request_free(&req);
    }
    MPI_Finalize();
    return 0;
}
