/* fevs/mpi/rma_no_epoch_bad.c -- MPI_Put before any MPI_Win_fence: outside
 * an access epoch (Open MPI: MPI_ERR_RMA_SYNC).
 * Expected verdict: tass verify -n 2 mpi/rma_no_epoch_bad.c: epoch at the MPI_Put. */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    int buf[2] = {0, 0};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, 2 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    if (rank == 1)
        MPI_Put(&rank, 1, MPI_INT, 0, 1, 1, MPI_INT, win); /* BUG */
    MPI_Win_fence(0, win);
    MPI_Win_fence(0, win);
    #pragma TASS assert buf[0] == 0
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
