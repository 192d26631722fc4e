/* fevs/mpi/mpi_p2p_persistent_restart_bad.c -- rank 0 sends R values to rank 1
 * through one persistent send request; rank 1 receives them through one
 * persistent receive request and checks each.
 *
 * BUG: in the second round rank 0 starts its request again before waiting
 * for it (MPI_Start on an active request is erroneous).  Under Open MPI the
 * second start sends the value twice, and rank 1 then sees the second round's
 * value in its third round: its assertion fails.
 *
 * Expected verdict: tass verify -n 2 mpi_p2p_persistent_restart_bad.c
 *   violated: invalid-pointer at the second MPI_Start
 * Fixed twin: mpi_p2p_persistent_ok.c (the ring form).
 */
#include <assert.h>
#include <mpi.h>

#pragma TASS input {-8 <= X && X <= 8} int
#define X 1
#define R 3

int main(int argc, char *argv[]) {
    int rank, round, x = 0, y = 0;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        MPI_Send_init(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &req);
        for (round = 0; round < R; round++) {
            x = X + round;
            MPI_Start(&req);
            if (round == 1)
                MPI_Start(&req); /* BUG: the request is still active */
            MPI_Wait(&req, MPI_STATUS_IGNORE);
        }
        MPI_Request_free(&req);
    } else if (rank == 1) {
        MPI_Recv_init(&y, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
        for (round = 0; round < R; round++) {
            MPI_Start(&req);
            MPI_Wait(&req, MPI_STATUS_IGNORE);
            assert(y == X + round);
        }
        MPI_Request_free(&req);
    }
    MPI_Finalize();
    return 0;
}
