/* fevs/mpi/rank_bad.c -- a cyclic shift that forgets to wrap around.
 *
 * BUG: the right neighbour is myrank + 1 without "% nprocs", so the last
 * process sends to rank P, which does not exist (property 9).
 *
 * Expected verdict: tass verify -n 3 rank_bad.c
 *   violated: mpi-rank at the MPI_Sendrecv line (process P - 1)
 * Fixed twin: rank_ok.c.
 */
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
    right = myrank + 1; /* BUG: should be (myrank + 1) % nprocs */
    left = (myrank + nprocs - 1) % nprocs;
    /* BUG shows here: */
    MPI_Sendrecv(&mine, 1, MPI_INT, right, 0, &theirs, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (myrank == 0)
        shifted = theirs;
    MPI_Finalize();
    return 0;
}
