/* fevs/mpi/rma_lock_ok.c -- passive target: every process but 0 locks
 * process 0's window exclusively, puts its rank into its slot and unlocks;
 * after a barrier process 0 finds every slot set. Correct.
 * Expected verdict: tass verify -n 3 mpi/rma_lock_ok.c: holds. */
#include <mpi.h>
#include <assert.h>
#include <stdio.h>

#pragma TASS output
int filled;
int slots[4] = {0, 0, 0, 0};
MPI_Win win;
int main(int argc, char *argv[]) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win_create(slots, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank > 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Put(&rank, 1, MPI_INT, 0, rank, 1, MPI_INT, win);
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        for (int i = 1; i < size && i < 4; i++)
            assert(slots[i] == i);
    if (rank == 0) {
        filled = slots[1] + slots[2] + slots[3];
#ifdef FEVS_CONCRETE
        printf("OUT filled = %d\n", filled);
#endif
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
