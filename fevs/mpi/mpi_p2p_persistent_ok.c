/* fevs/mpi/mpi_p2p_persistent_ok.c -- a ring shift repeated R times with
 * persistent requests: each process binds one MPI_Send_init to its right
 * neighbour and one MPI_Recv_init from its left neighbour, then starts both
 * (MPI_Startall) and waits for both (MPI_Waitall) in every round, and frees
 * them at the end.  Each round passes the value on, so after R rounds every
 * process holds the value its R-th left neighbour started with.
 * Inputs: -8 <= X <= 8, 1 <= R <= BR.  Output: last (rank 0's final value).
 *
 * Expected verdict: tass verify -n 3 mpi_p2p_persistent_ok.c   holds
 * (also with --deadlock potential: the receives are posted before the sends
 * are waited for).
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS input {-8 <= X && X <= 8} int
#define X 2
#pragma TASS input int
#define BR 3
#pragma TASS input {1 <= R && R <= BR} int
#define R 3

#pragma TASS output
int last;

int main(int argc, char *argv[]) {
    int rank, size, round, out, in = 0;
    MPI_Request reqs[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    out = X + rank;
    MPI_Recv_init(&in, 1, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD, &reqs[0]);
    MPI_Send_init(&out, 1, MPI_INT, (rank + 1) % size, 0, MPI_COMM_WORLD, &reqs[1]);
    for (round = 0; round < R; round++) {
        MPI_Startall(2, reqs);
        MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
        out = in;
    }
    assert(out == X + (rank + size * R - R) % size);
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);
    if (rank == 0) {
        last = out;
        printf("OUT last = %d\n", last);
    }
    MPI_Finalize();
    return 0;
}
