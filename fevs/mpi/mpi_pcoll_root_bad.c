/* fevs/mpi/mpi_pcoll_root_bad.c -- every process binds a persistent
 * broadcast (MPI_Bcast_init, MPI-4) from rank 0 and starts it once.
 *
 * BUG: the last process names rank 1 as the root (the roots of one
 * collective must agree: collective-mismatch).
 *
 * Open MPI 4.1 provides MPI_Bcast_init as MPIX_Bcast_init in <mpi-ext.h>.
 * Expected verdict: tass verify -n 3 mpi_pcoll_root_bad.c
 *   violated: collective-mismatch (reported at the MPI_Bcast_init)
 * Confirmed: mpicc -fsanitize=address,undefined, mpirun -np 3 (default and
 * zero-buffer): the run hangs (killed after 30 s).
 * Fixed twin: mpi_pcoll_ok.c.
 */
#include <assert.h>
#include <mpi.h>
#if defined(OPEN_MPI) && MPI_VERSION < 4
#include <mpi-ext.h>
#define MPI_Bcast_init MPIX_Bcast_init
#endif

#pragma TASS input {-8 <= X && X <= 8} int
#define X 5

int main(int argc, char *argv[]) {
    int rank, size, root, v = 0;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0)
        v = X;
    root = rank == size - 1 ? 1 : 0;
    MPI_Bcast_init(&v, 1, MPI_INT, root, MPI_COMM_WORLD, MPI_INFO_NULL, &req); /* BUG */
    MPI_Start(&req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    assert(v == X);
    MPI_Request_free(&req);
    MPI_Finalize();
    return 0;
}
