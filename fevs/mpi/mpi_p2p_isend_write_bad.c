/* fevs/mpi/mpi_p2p_isend_write_bad.c -- rank 0 sends N values to rank 1 with
 * MPI_Isend and overlaps the transfer with work of its own.
 *
 * BUG: that work writes the send buffer before MPI_Wait (MPI forbids it until
 * the send completes).  Under Open MPI's TCP transport with a small eager
 * limit (the zero-buffer cross-check) rank 1 receives the changed value and
 * its assertion fails; with the default transport it passes.
 *
 * Expected verdict: tass verify -n 2 mpi_p2p_isend_write_bad.c
 *   violated: local-concurrency at the MPI_Wait line
 */
#include <assert.h>
#include <mpi.h>

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
        MPI_Isend(x, N, MPI_INT, 1, 0, MPI_COMM_WORLD, &req);
        x[N - 1] = 0; /* the send buffer is written while the send owns it */
        MPI_Wait(&req, MPI_STATUS_IGNORE); /* BUG (reported here) */
    } else if (rank == 1) {
        MPI_Recv(y, N, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(y[N - 1] == X + N - 1);
    }
    MPI_Finalize();
    return 0;
}
