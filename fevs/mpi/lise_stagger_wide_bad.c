/* fevs/mpi/lise_stagger_wide_bad.c -- lise_stagger_wide.c (K = 6: rank 1
 * runs iterations ahead of rank 0) with an off-by-one: rank 1 sends
 * x = i instead of i + 1.  The collective invariant W holds on entry but is
 * not preserved: at rank 0's second arrival (i == 1) x == 5, not 6.
 *
 * Input: N >= 0, no upper bound.  Run with exactly 2 processes.
 * Expected verdict:
 *   tass verify -n 2 --max-lag 10 lise_stagger_wide_bad.c   violated, invariant W
 *   (not preserved; for N == 0 the program is fine, for every N >= 1 it is not)
 * Confirmed concretely (-DFEVS_CONCRETE, fevs/lise_check.py wide): mpirun -np 2,
 * N = 1, 2, 3, eager and zero-buffer modes: the invariant fails at the second
 * composed arrival (rank 0: i = 1, x = 5) and the final assertion fails on
 * rank 0 (x = 6N - 1); N = 0: no failure.
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS input {N >= 0} int
#define N 3
#define K 6

int main(int argc, char *argv[]) {
    int myrank, i = 0, x = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    /* BUG: not preserved, because rank 1 below sends i instead of i + 1 */
#pragma TASS collective invariant W 0 <= i && i <= K * N && i == PROC[1 - PID]@main.i && x == K * ((i + (K - 1) * (1 - PID)) / K)
    while (i < K * N) {
#ifdef FEVS_CONCRETE
        printf("SNAP W %d i=%d x=%d\n", myrank, i, x);
#endif
        if (myrank == 0 && i % K == 0) {
            MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (myrank == 1 && i % K == K - 1) {
            x = i; /* BUG: should be i + 1 */
            MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        }
        i++;
    }
#ifdef FEVS_CONCRETE
    printf("SNAP W %d i=%d x=%d\n", myrank, i, x);
    printf("OUT x%d = %d\n", myrank, x);
#endif
    assert(x == K * N);
    MPI_Finalize();
    return 0;
}
