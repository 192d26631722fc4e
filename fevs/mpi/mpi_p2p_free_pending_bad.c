/* fevs/mpi/mpi_p2p_free_pending_bad.c -- rank 1 posts a receive for a
 * message from rank 0 and releases its request at once with
 * MPI_Request_free (allowed: the receive goes on).  Rank 0 sends only when
 * X is positive.
 *
 * BUG: for X <= 0 nothing is ever sent, so the freed receive never completes
 * before the program ends (MPI requires every communication to complete
 * before MPI_Finalize).  Open MPI lets the program end without a sign.
 *
 * Expected verdict: tass verify -n 2 mpi_p2p_free_pending_bad.c
 *   violated: memory-leak at the MPI_Irecv line
 */
#include <mpi.h>

#pragma TASS input {-8 <= X && X <= 8} int
#define X 0

int main(int argc, char *argv[]) {
    int rank, y = 0;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        if (X > 0)
            MPI_Send(&rank, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Irecv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req); /* BUG: may never complete */
        MPI_Request_free(&req);
    }
    MPI_Finalize();
    return 0;
}
