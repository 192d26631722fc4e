/* fevs/mpi/wildcard_race_ok.c -- a gather done twice in a row with wildcard
 * receives; each round uses its own tag, so a receive of round r can only
 * match a message of round r, whatever the arrival order.
 *
 * Output: total = (P - 1) * (0 + 1) = P - 1.
 * Expected verdict: tass verify -n 3 wildcard_race_ok.c   holds (any P)
 * Buggy twin: wildcard_race_bad.c.
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
                MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, round, MPI_COMM_WORLD,
                         MPI_STATUS_IGNORE);
                assert(value == round);
                sum += value;
            }
        } else {
            MPI_Send(&round, 1, MPI_INT, 0, round, MPI_COMM_WORLD);
        }
    }
    if (myrank == 0) {
        total = sum;
        assert(total == nprocs - 1);
#ifdef FEVS_CONCRETE
        printf("OUT total = %d\n", total);
#endif
    }
    MPI_Finalize();
    return 0;
}
