/* fevs/mpi/rma_fence_ok.c -- one-sided communication with fence epochs:
 * every process but 0 puts its rank into slot `rank` of process 0's window,
 * every process accumulates 1 into slot 1 of the last process, and after the
 * next fence every process gets process 0's slot 0. Correct.
 * Expected verdict: tass verify -n 3 mpi/rma_fence_ok.c: holds. */
#include <mpi.h>
#include <assert.h>
#include <stdio.h>

#pragma TASS output
int result;

int main(int argc, char **argv) {
    int rank, size;
    int win_buf[4] = {0, 0, 0, 0};
    int got = -1;
    int one = 1;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    win_buf[0] = 100;
    MPI_Win_create(win_buf, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank > 0)
        MPI_Put(&rank, 1, MPI_INT, 0, rank, 1, MPI_INT, win);
    MPI_Accumulate(&one, 1, MPI_INT, size - 1, 1, 1, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    MPI_Get(&got, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    assert(got == 100);
    if (rank == 0) {
        for (int i = 1; i < size && i < 4; i++)
            assert(win_buf[i] == i);
        result = win_buf[1] + win_buf[2] + win_buf[3];
#ifdef FEVS_CONCRETE
        printf("OUT result = %d\n", result);
#endif
    }
    if (rank == size - 1 && rank != 0)
        assert(win_buf[1] == size);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
