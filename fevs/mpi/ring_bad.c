/* fevs/mpi/ring_bad.c -- every process sends its value to the right neighbour,
 * then receives from the left one, ROUNDS times (a ring shift).
 *
 * BUG: all processes call MPI_Send before anyone calls MPI_Recv.  That works
 * only while MPI buffers the messages (small messages usually are, which is
 * why tests pass); an MPI that delivers a standard send synchronously - as
 * the standard allows - deadlocks with every process stuck in MPI_Send.
 * (MPI_Sendrecv, or odd/even ordering, is the fix; see ring_ok.c for a ring
 * that cannot deadlock.)
 * Inputs: bound BR, 1 <= ROUNDS <= BR.  Output: token, the value at rank 0.
 *
 * Expected verdicts:
 *   tass verify -n 3 ring_bad.c                       violated: deadlock (potential deadlock,
 *                                                     the default --deadlock potential)
 *   tass verify -n 3 --deadlock absolute ring_bad.c   holds
 */
#include <mpi.h>
#include <stdio.h>

#pragma TASS input int
#define BR 3
#pragma TASS input {1 <= ROUNDS && ROUNDS <= BR} int
#define ROUNDS 3

#pragma TASS output
int token;

int main(int argc, char *argv[]) {
    int nprocs, myrank, left, right, round, mine, theirs;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    right = (myrank + 1) % nprocs;
    left = (myrank + nprocs - 1) % nprocs;
    mine = myrank;
    for (round = 0; round < ROUNDS; round++) {
        MPI_Send(&mine, 1, MPI_INT, right, 0, MPI_COMM_WORLD); /* BUG: every process sends first */
        MPI_Recv(&theirs, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        mine = theirs;
    }
    if (myrank == 0) {
        token = mine;
#ifdef FEVS_CONCRETE
        printf("OUT token = %d\n", token);
#endif
    }
    MPI_Finalize();
    return 0;
}
