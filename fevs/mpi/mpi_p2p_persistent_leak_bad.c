/* fevs/mpi/mpi_p2p_persistent_leak_bad.c -- rank 0 sends R values to rank 1
 * through a persistent send request, which rank 1 receives with MPI_Recv.
 * Waiting on the request before its first start is allowed (MPI: a wait on
 * an inactive persistent request returns at once with an empty status).
 *
 * BUG: rank 0 never frees its persistent request (MPI_Request_free), a
 * resource leak.  Nothing shows it at run time: the program runs to its end
 * under mpirun.
 *
 * Expected verdict: tass verify -n 2 mpi_p2p_persistent_leak_bad.c
 *   violated: resource-leak at the MPI_Send_init line
 */
#include <assert.h>
#include <mpi.h>

#pragma TASS input {-8 <= X && X <= 8} int
#define X 1
#define R 2

int main(int argc, char *argv[]) {
    int rank, round, x = 0, y = 0;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send_init(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &req); /* BUG: never freed */
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        for (round = 0; round < R; round++) {
            x = X * round;
            MPI_Start(&req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        }
    } else if (rank == 1) {
        for (round = 0; round < R; round++) {
            MPI_Recv(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            assert(y == X * round);
        }
    }
    MPI_Finalize();
    return 0;
}
