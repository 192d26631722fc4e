/* fevs/mpi/mpi_p2p_irecv_write_bad.c -- rank 1 receives N values from rank 0
 * with MPI_Irecv and, while the receive is pending, clears its buffer so that
 * elements the message does not fill read as 0.
 *
 * BUG: the buffer of a pending receive is written before MPI_Wait (MPI 4.1
 * 3.7.2 forbids accessing it until the receive completes).  What rank 1 ends
 * up with depends on when the message lands: if it was already there at the
 * post, the clearing overwrites it.  Open MPI runs it to completion either way
 * (it does not check buffer ownership).
 *
 * Expected verdict: tass verify -n 2 mpi_p2p_irecv_write_bad.c
 *   violated: local-concurrency at the line that clears the buffer
 */
#include <mpi.h>
#include <stdio.h>

#pragma TASS input {-8 <= X && X <= 8} int
#define X 1
#define N 4

int main(int argc, char *argv[]) {
    int rank, i, x[N], y[N];
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        for (i = 0; i < N; i++)
            x[i] = X + i;
        MPI_Send(x, N, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Irecv(y, N, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
        for (i = 0; i < N; i++)
            y[i] = 0; /* BUG: the pending receive owns y */
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        printf("%d\n", y[N - 1]);
    }
    MPI_Finalize();
    return 0;
}
