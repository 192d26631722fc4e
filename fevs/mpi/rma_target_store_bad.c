/* fevs/mpi/rma_target_store_bad.c -- process 1 puts into element 1 of
 * process 0's window while process 0 stores into the same element in the
 * same epoch: the outcome depends on timing (process 0 prints 7 or 1).
 * Expected verdict: tass verify -n 2 mpi/rma_target_store_bad.c: local-concurrency. */
#include <mpi.h>
#include <stdio.h>

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
        MPI_Put(&rank, 1, MPI_INT, 0, 1, 1, MPI_INT, win); /* BUG */
    if (rank == 0)
        buf[1] = 7; /* BUG */
    MPI_Win_fence(0, win);
    if (rank == 0)
        printf("buf[1] = %d\n", buf[1]);
    #pragma TASS assert rank != 0 || buf[1] == 1 || buf[1] == 7
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
