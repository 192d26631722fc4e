/* fevs/mpi/rma_oob_bad.c -- process 1 puts at displacement 2 of a window of
 * 2 ints (Open MPI: MPI_ERR_RMA_RANGE).
 * Expected verdict: tass verify -n 2 mpi/rma_oob_bad.c: out-of-bounds at the MPI_Put. */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank;
    int buf[2] = {0, 0};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, 2 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 1)
        MPI_Put(&rank, 1, MPI_INT, 0, 2, 1, MPI_INT, win); /* BUG */
    MPI_Win_fence(0, win);
    #pragma TASS assert buf[0] == 0 || rank != 0
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
