/* fevs/mpi/collective_ok.c -- rank 0 chooses a scale factor, broadcasts it,
 * and the scaled ranks are added up with MPI_Reduce.
 *
 * Input: SCALE.  Output: total = SCALE * P (P - 1) / 2.
 * Expected verdict: tass verify -n 3 collective_ok.c   holds
 * Buggy twin: collective_bad.c (collective-mismatch).
 */
#include <assert.h>
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
    if (myrank == 0)
        factor = SCALE;
    MPI_Bcast(&factor, 1, MPI_INT, 0, MPI_COMM_WORLD);
    mine = factor * myrank;
    MPI_Reduce(&mine, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (myrank == 0) {
        total = sum;
        assert(total == SCALE * nprocs * (nprocs - 1) / 2);
#ifdef FEVS_CONCRETE
        printf("OUT total = %d\n", total);
#endif
    }
    MPI_Finalize();
    return 0;
}
