/* fevs/mpi/mpi_grp_bsend_ok.c -- buffered sends with a buffer big enough for
 * both messages in flight at once (each needs its data and
 * MPI_BSEND_OVERHEAD bytes), received in the opposite order, then detached.
 *
 * Expected verdict: tass verify -n 2 mpi_grp_bsend_ok.c: holds.
 * mpirun -np 2 (also zero-buffer): exit 0.
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS output
int detached;
#include <stdlib.h>

#define N 4

int main(int argc, char *argv[]) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        int a[N], b[N];
        for (int i = 0; i < N; i++) {
            a[i] = i;
            b[i] = 10 + i;
        }
        int size = 2 * (N * (int)sizeof(int) + MPI_BSEND_OVERHEAD);
        char *buffer = malloc(size);
        MPI_Buffer_attach(buffer, size);
        MPI_Bsend(a, N, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Bsend(b, N, MPI_INT, 1, 2, MPI_COMM_WORLD);
        char *back;
        int back_size;
        MPI_Buffer_detach(&back, &back_size);
        assert(back == buffer && back_size == size);
        detached = back_size;
#ifdef FEVS_CONCRETE
        printf("OUT detached = %d\n", detached);
#endif
        free(back);
    } else if (rank == 1) {
        int x[N], y[N];
        MPI_Recv(y, N, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(x, N, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(x[3] == 3 && y[0] == 10);
    }
    MPI_Finalize();
    return 0;
}
