/* fevs/mpi/rma_lock_target_read_bad.c -- process 1 puts into process 0's
 * window under a lock while process 0 reads that location with no
 * synchronisation between them: it may print 0 or 1.
 * Expected verdict: tass verify -n 2 mpi/rma_lock_target_read_bad.c: local-concurrency at the
 * read. */
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
    if (rank == 1) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Put(&rank, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
        MPI_Win_unlock(0, win);
    }
    if (rank == 0)
        printf("x = %d\n", x); /* BUG */
    MPI_Barrier(MPI_COMM_WORLD);
    #pragma TASS assert rank != 0 || x == 1
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
