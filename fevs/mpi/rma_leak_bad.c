/* fevs/mpi/rma_leak_bad.c -- the window is never freed.
 * Expected verdict: tass verify -n 2 mpi/rma_leak_bad.c: resource-leak at the MPI_Win_create. */
#include <mpi.h>

int main(int argc, char **argv) {
    int buf[2] = {0, 0};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Win_create(buf, 2 * sizeof(int), sizeof(int), MPI_INFO_NULL, /* BUG */
                   MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    MPI_Win_fence(0, win);
    #pragma TASS assert buf[0] == 0 && buf[1] == 0
    MPI_Finalize();
    return 0;
}
