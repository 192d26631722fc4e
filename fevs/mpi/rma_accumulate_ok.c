/* fevs/mpi/rma_accumulate_ok.c -- every process adds rank + 1 into process
 * 0's counter with MPI_Accumulate(MPI_SUM) in one epoch: accumulates with
 * the same operation do not conflict, and the sum is n(n+1)/2.
 * Expected verdict: tass verify -n 3 mpi/rma_accumulate_ok.c: holds. */
#include <mpi.h>
#include <assert.h>
#include <stdio.h>

#pragma TASS output
int total;

int main(int argc, char **argv) {
    int rank, size;
    int counter = 0;
    int mine;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    mine = rank + 1;
    MPI_Win_create(&counter, sizeof(int), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    MPI_Accumulate(&mine, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    if (rank == 0)
        assert(counter == size * (size + 1) / 2);
    if (rank == 0) {
        total = counter;
#ifdef FEVS_CONCRETE
        printf("OUT total = %d\n", total);
#endif
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
