/* fevs/mpi/wildcard_race_bad.c -- a gather done twice in a row with wildcard
 * receives, where messages of the two rounds can be confused.
 *
 * Each worker (rank > 0) sends round number r to rank 0 in rounds r = 0, 1.
 * Rank 0 receives P - 1 messages per round with MPI_ANY_SOURCE and asserts
 * each carries the current round number.
 * BUG: both rounds use the same tag.  A fast worker can send its round-1
 * message before a slow worker's round-0 message arrives, and the root's
 * round-0 wildcard receive may then pick up the round-1 message.
 * Needs P >= 3 (two workers) to go wrong.
 *
 * Expected verdict: tass verify -n 3 wildcard_race_bad.c
 *   violated: assertion at the assert in the root's loop
 * Fixed twin: wildcard_race_ok.c.
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#define ROUNDS 2

#pragma TASS output
int total;

int main(int argc, char *argv[]) {
    int nprocs, myrank, round, i, value, sum = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    for (round = 0; round < ROUNDS; round++) {
        if (myrank == 0) {
            for (i = 1; i < nprocs; i++) {
                /* BUG: tag 0 in every round */
                MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
                assert(value == round); /* BUG caught here */
                sum += value;
            }
        } else {
            MPI_Send(&round, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        }
    }
    if (myrank == 0) {
        total = sum;
#ifdef FEVS_CONCRETE
        printf("OUT total = %d\n", total);
#endif
    }
    MPI_Finalize();
    return 0;
}
