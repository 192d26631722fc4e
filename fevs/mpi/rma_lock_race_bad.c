/* fevs/mpi/rma_lock_race_bad.c -- processes 1 and 2 put into the same
 * location of process 0 under shared locks: the epochs overlap, a race.
 * Expected verdict: tass verify -n 3 mpi/rma_lock_race_bad.c: rma-race at the MPI_Put. */
#include <mpi.h>
#include <assert.h>
#include <stdio.h>
int x = 0;
MPI_Win win;
int main(int argc, char *argv[]) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win_create(&x, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank > 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        MPI_Put(&rank, 1, MPI_INT, 0, 0, 1, MPI_INT, win); /* BUG */
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("x = %d\n", x);
    #pragma TASS assert rank != 0 || x == 1 || x == 2
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
