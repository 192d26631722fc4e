/* fevs/mpi/collective_bad.c -- the broadcast of the scale factor was moved
 * into rank 0's set-up block.
 *
 * BUG: only rank 0 calls MPI_Bcast; the other processes go straight to
 * MPI_Reduce, so the processes issue different sequences of collective
 * operations (property 13).  Real MPI may hang or match the wrong calls.
 *
 * Expected verdict: tass verify -n 3 collective_bad.c
 *   violated: collective-mismatch
 * Fixed twin: collective_ok.c.
 */
#include <mpi.h>
#include <stdio.h>

#pragma TASS input int
#define SCALE 3
#pragma TASS output
int total;

int main(int argc, char *argv[]) {
    int nprocs, myrank, factor = 0, mine, sum = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    if (myrank == 0) {
        factor = SCALE;
        MPI_Bcast(&factor, 1, MPI_INT, 0, MPI_COMM_WORLD); /* BUG: only rank 0 broadcasts */
    }
    mine = factor * myrank;
    MPI_Reduce(&mine, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (myrank == 0)
        total = sum;
    MPI_Finalize();
    return 0;
}
