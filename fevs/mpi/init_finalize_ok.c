/* fevs/mpi/init_finalize_ok.c -- n units of work are block-distributed over
 * the processes; the processes report their shares with MPI_Reduce, and those
 * with an empty share skip the work but still reach MPI_Finalize.
 *
 * Inputs: bound B, 0 <= n <= B.  Output: total = n.
 * Expected verdict: tass verify -n 3 init_finalize_ok.c   holds
 * Buggy twin: init_finalize_bad.c (mpi-init-finalize).
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS input int
#define B 4
#pragma TASS input {0 <= n && n <= B} int
#define n 2

#pragma TASS output
int total;

int main(int argc, char *argv[]) {
    int nprocs, myrank, share, sum = 0, done = 0, i;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    share = n * (myrank + 1) / nprocs - n * myrank / nprocs;
    MPI_Reduce(&share, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (myrank == 0) {
        total = sum;
        assert(total == n);
#ifdef FEVS_CONCRETE
        printf("OUT total = %d\n", total);
#endif
    }
    if (share > 0) {
        for (i = 0; i < share; i++)
            done++;
        assert(done == share);
    }
    MPI_Finalize();
    return 0;
}
