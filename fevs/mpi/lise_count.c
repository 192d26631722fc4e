/* fevs/mpi/lise_count.c -- the LISE paper's "count": every process counts i
 * from 0 up to N, and afterwards asserts i == N.
 *
 * Collective invariant COUNT: 0 <= i <= N on every process, and all processes'
 * k-th arrivals are at the same i (i == PROC[0].i).  With the exit guard
 * i >= N that proves i == N after the loop, for every N.
 *
 * Input: N >= 0, no upper bound.
 * Expected verdict (paper: 10 processes, 138 transitions, 55 proofs, 37 s):
 *   tass verify -n 10 lise_count.c      holds
 * Buggy twin: lise_count_bad.c.
 * Confirmed concretely (-DFEVS_CONCRETE, fevs/lise_check.py): mpirun -np 10,
 * N = 0, 1, 4, 9: the invariant holds at every composed arrival, no assertion fails.
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS input {N >= 0} int
#define N 4

int main(int argc, char *argv[]) {
    int myrank, i = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
#pragma TASS collective invariant COUNT 0 <= i && i <= N && i == PROC[0]@main.i
    while (i < N) {
#ifdef FEVS_CONCRETE
        printf("SNAP COUNT %d i=%d\n", myrank, i);
#endif
        i++;
    }
#ifdef FEVS_CONCRETE
    printf("SNAP COUNT %d i=%d\n", myrank, i);
#endif
    assert(i == N);
    MPI_Finalize();
    return 0;
}
