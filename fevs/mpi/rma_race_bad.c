/* fevs/mpi/rma_race_bad.c -- processes 1 and 2 put different values into
 * the same location of process 0's window in one fence epoch: a data race;
 * what process 0 prints after the fence depends on which put lands last.
 * Expected verdict: tass verify -n 3 mpi/rma_race_bad.c: rma-race at the MPI_Put. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
    int rank;
    int x = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(&x, sizeof(int), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank > 0)
        MPI_Put(&rank, 1, MPI_INT, 0, 0, 1, MPI_INT, win); /* BUG */
    MPI_Win_fence(0, win);
    if (rank == 0)
        printf("x = %d\n", x);
    #pragma TASS assert rank != 0 || x == 1 || x == 2
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
