/* fevs/mpi/rank_ok.c -- a cyclic shift: every process passes its value to its
 * right neighbour (rank + 1 modulo P) with MPI_Sendrecv.
 *
 * Input: VALUE.  Output: shifted = VALUE + P - 1 (what rank 0 gets from the
 * last rank, whose value is VALUE + P - 1).
 * Expected verdict: tass verify -n 3 rank_ok.c   holds
 * Buggy twin: rank_bad.c (mpi-rank).
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS input int
#define VALUE 100
#pragma TASS output
int shifted;

int main(int argc, char *argv[]) {
    int nprocs, myrank, left, right, mine, theirs;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    mine = VALUE + myrank;
    right = (myrank + 1) % nprocs;
    left = (myrank + nprocs - 1) % nprocs;
    MPI_Sendrecv(&mine, 1, MPI_INT, right, 0, &theirs, 1, MPI_INT, left, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    if (myrank == 0) {
        shifted = theirs;
        assert(shifted == VALUE + nprocs - 1);
#ifdef FEVS_CONCRETE
        printf("OUT shifted = %d\n", shifted);
#endif
    }
    MPI_Finalize();
    return 0;
}
