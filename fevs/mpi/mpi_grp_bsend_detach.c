/* fevs/mpi/mpi_grp_bsend_detach.c -- MPI_Buffer_detach waits until the
 * buffered messages are transmitted, but their receiver first waits for a
 * message the detaching process sends only after the detach.
 *
 * BUG: process 1 receives tag 2 (sent after the detach) before tag 1 (the
 * buffered message); with no eager buffering the detach never returns.
 *
 * Expected verdict: tass verify -n 2 mpi_grp_bsend_detach.c: violated, deadlock
 *   (potential: under zero buffering); with --deadlock absolute: holds (the
 *   system buffers the message when it is detached).
 * mpirun -np 2: exit 0 (Open MPI sends the 400-byte message eagerly);
 * zero-buffer (eager limit 56 bytes): hangs (timeout 20 s).
 */
#include <mpi.h>
#include <stdlib.h>

#define N 100

int main(int argc, char *argv[]) {
    int rank, a[N] = {0}, x[N], token = 7;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        int size = N * (int)sizeof(int) + MPI_BSEND_OVERHEAD;
        char *buffer = malloc(size);
        MPI_Buffer_attach(buffer, size);
        MPI_Bsend(a, N, MPI_INT, 1, 1, MPI_COMM_WORLD);
        char *back;
        int back_size;
        MPI_Buffer_detach(&back, &back_size); /* BUG: waits for the receive of tag 1 */
        free(back);
        MPI_Send(&token, 1, MPI_INT, 1, 2, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&token, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Recv(x, N, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
