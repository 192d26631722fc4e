/* fevs/mpi/rma_get_read_bad.c -- process 1 gets process 0's window into
 * `got` and reads `got` before the closing fence: the get may not have
 * happened yet (it may print 0 or 42).
 * Expected verdict: tass verify -n 2 mpi/rma_get_read_bad.c: local-concurrency at the read. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank;
    int x = 42;
    int got = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(&x, sizeof(int), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 1) {
        MPI_Get(&got, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
        printf("got = %d\n", got); /* BUG */
    }
    MPI_Win_fence(0, win);
    #pragma TASS assert x == 42
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
