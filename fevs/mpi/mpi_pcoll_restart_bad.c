/* fevs/mpi/mpi_pcoll_restart_bad.c -- rank 0 broadcasts R values through
 * one persistent broadcast (MPI_Bcast_init, MPI-4), started and waited for
 * once per round; every process checks each value.
 *
 * BUG: in the second round rank 0 starts the broadcast again before waiting
 * for it (MPI_Start on an active request is erroneous).
 *
 * Open MPI 4.1 provides MPI_Bcast_init as MPIX_Bcast_init in <mpi-ext.h>.
 * Expected verdict: tass verify -n 2 mpi_pcoll_restart_bad.c
 *   violated: invalid-pointer at the second MPI_Start
 * Confirmed: mpicc -fsanitize=address,undefined, mpirun -np 2 (default and
 * zero-buffer): the run aborts (ASan: SEGV in Open MPI's libnbc progress).
 * Fixed twin: mpi_pcoll_ok.c.
 */
#include <assert.h>
#include <mpi.h>
#if defined(OPEN_MPI) && MPI_VERSION < 4
#include <mpi-ext.h>
#define MPI_Bcast_init MPIX_Bcast_init
#endif

#pragma TASS input {-8 <= X && X <= 8} int
#define X 1
#define R 3

int main(int argc, char *argv[]) {
    int rank, round, v = 0;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Bcast_init(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    for (round = 0; round < R; round++) {
        if (rank == 0)
            v = X + round;
        MPI_Start(&req);
        if (rank == 0 && round == 1)
            MPI_Start(&req); /* BUG: the request is still active */
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        assert(v == X + round);
    }
    MPI_Request_free(&req);
    MPI_Finalize();
    return 0;
}
