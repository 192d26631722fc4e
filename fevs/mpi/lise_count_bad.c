/* fevs/mpi/lise_count_bad.c -- lise_count.c counting in steps of two: for odd
 * N the counter jumps from N - 1 to N + 1, so the invariant i <= N is not
 * preserved and the final i == N fails.
 *
 * Input: N >= 0, no upper bound.
 * Expected verdict: tass verify -n 10 lise_count_bad.c    violated, invariant COUNT
 * (not preserved; the program is fine for even N only).
 * Confirmed concretely (-DFEVS_CONCRETE, fevs/lise_check.py): mpirun -np 10,
 * N = 1, 3, 5: i = N + 1 at the last arrival (invariant false) and the
 * assertion fails; N = 0, 2, 4: no failure.
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS input {N >= 0} int
#define N 3

int main(int argc, char *argv[]) {
    int myrank, i = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    /* BUG: not preserved for odd N: the body adds 2 */
#pragma TASS collective invariant COUNT 0 <= i && i <= N && i == PROC[0]@main.i
    while (i < N) {
#ifdef FEVS_CONCRETE
        printf("SNAP COUNT %d i=%d\n", myrank, i);
#endif
        i += 2;
    }
#ifdef FEVS_CONCRETE
    printf("SNAP COUNT %d i=%d\n", myrank, i);
    fflush(stdout);
#endif
    assert(i == N);
    MPI_Finalize();
    return 0;
}
