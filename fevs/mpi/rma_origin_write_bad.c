/* fevs/mpi/rma_origin_write_bad.c -- process 1 puts buf[0] into process 0's
 * window and then overwrites buf[0] before the closing fence: MPI may read the
 * origin buffer at any time up to the fence, so process 0 may get 1 or 2.
 * Expected verdict: tass verify -n 2 mpi/rma_origin_write_bad.c: local-concurrency at the store. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank;
    int x = 0;
    int buf[1] = {1};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(&x, sizeof(int), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 1) {
        MPI_Put(buf, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
        buf[0] = 2; /* BUG */
    }
    MPI_Win_fence(0, win);
    if (rank == 0)
        printf("x = %d\n", x);
    #pragma TASS assert rank != 0 || x == 1 || x == 2
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
