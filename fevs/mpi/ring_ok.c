/* fevs/mpi/ring_ok.c -- pass a token around a ring of processes ROUNDS times;
 * each process adds its rank to the token as it passes.
 *
 * Rank 0 starts each round by sending and then waits for the token to come
 * back; every other rank first receives from its left neighbour and then
 * sends to its right one.  Only one message is in flight at a time, so this
 * works even if MPI delivers every send synchronously.
 * Inputs: bound BR, 1 <= ROUNDS <= BR.  Output: token = ROUNDS * P (P - 1) / 2.
 *
 * Expected verdict: tass verify -n P ring_ok.c   holds (any P >= 1)
 * Buggy twin: ring_bad.c (deadlock).
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS input int
#define BR 3
#pragma TASS input {1 <= ROUNDS && ROUNDS <= BR} int
#define ROUNDS 3

#pragma TASS output
int token;

int main(int argc, char *argv[]) {
    int nprocs, myrank, left, right, round, t = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    right = (myrank + 1) % nprocs;
    left = (myrank + nprocs - 1) % nprocs;
    for (round = 0; round < ROUNDS; round++) {
        if (nprocs == 1)
            break;
        if (myrank == 0) {
            MPI_Send(&t, 1, MPI_INT, right, 0, MPI_COMM_WORLD);
            MPI_Recv(&t, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&t, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            t += myrank;
            MPI_Send(&t, 1, MPI_INT, right, 0, MPI_COMM_WORLD);
        }
    }
    if (myrank == 0) {
        token = t;
        assert(token == ROUNDS * nprocs * (nprocs - 1) / 2);
#ifdef FEVS_CONCRETE
        printf("OUT token = %d\n", token);
#endif
    }
    MPI_Finalize();
    return 0;
}
