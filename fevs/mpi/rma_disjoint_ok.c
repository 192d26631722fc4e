/* fevs/mpi/rma_disjoint_ok.c -- process 1 puts into element 1 of process 0's
 * window while process 0 reads and writes element 0 and the origin reads its
 * own buffer after the put: no access conflicts. Process 0 then has
 * {5, 1}.
 * Expected verdict: tass verify -n 2 mpi/rma_disjoint_ok.c: holds. */
#include <mpi.h>
#include <assert.h>
#include <stdio.h>

#pragma TASS output
int sum;

int main(int argc, char **argv) {
    int rank;
    int buf[2] = {0, 0};
    int src = 1;
    int copy = 0;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, 2 * sizeof(int), sizeof(int), MPI_INFO_NULL,
                   MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank == 1) {
        MPI_Put(&src, 1, MPI_INT, 0, 1, 1, MPI_INT, win);
        copy = src;
    }
    if (rank == 0)
        buf[0] = buf[0] + 5;
    MPI_Win_fence(0, win);
    if (rank == 0)
        assert(buf[0] == 5 && buf[1] == 1);
    if (rank == 0) {
        sum = buf[0] + buf[1];
#ifdef FEVS_CONCRETE
        printf("OUT sum = %d\n", sum);
#endif
    }
    if (rank == 1)
        assert(copy == 1);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
