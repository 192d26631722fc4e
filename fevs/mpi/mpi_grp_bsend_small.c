/* fevs/mpi/mpi_grp_bsend_small.c -- the attached buffer holds one message,
 * but the process sends two before the first is received.
 *
 * BUG: the buffer is sized for one message (data + MPI_BSEND_OVERHEAD).
 *
 * Expected verdict: tass verify -n 2 mpi_grp_bsend_small.c: violated,
 *   buffer-overflow at the second MPI_Bsend.
 * mpirun -np 2 (also zero-buffer): MPI_ERR_BUFFER at the second MPI_Bsend, the
 *   job aborts (exit non-zero). (With a message below Open MPI's eager limit,
 *   N = 4, the first message leaves the buffer at once and the run passes: MPI
 *   does not promise that, so the verdict is the same.)
 */
#include <mpi.h>
#include <stdlib.h>

#define N 4000

int main(int argc, char *argv[]) {
    int rank, a[N] = {1, 2, 3, 4}, x[N];
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        int size = N * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
        char *buffer = malloc(size);
        MPI_Buffer_attach(buffer, size);
        MPI_Bsend(a, N, MPI_INT, 1, 1, MPI_COMM_WORLD);
        MPI_Bsend(a, N, MPI_INT, 1, 2, MPI_COMM_WORLD); /* BUG: no room left */
        char *back;
        int back_size;
        MPI_Buffer_detach(&back, &back_size);
        free(back);
    } else if (rank == 1) {
        MPI_Recv(x, N, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(x, N, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
