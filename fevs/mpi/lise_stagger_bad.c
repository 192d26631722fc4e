/* fevs/mpi/lise_stagger_bad.c -- lise_stagger.c with an off-by-one: rank 1
 * sends x = i instead of i + 1.  The collective invariant still holds on
 * entry (x == 0 on both ranks) but is not preserved: at rank 0's second
 * arrival (i == 1) x == 1, not 2.  After the loop rank 0 has x == 2N - 1.
 *
 * Input: N >= 0, no upper bound.  Run with exactly 2 processes.
 * Expected verdict: tass verify -n 2 lise_stagger_bad.c   violated, invariant I
 * (not preserved; for N == 0 the program is fine, for every N >= 1 it is not).
 * Confirmed concretely (-DFEVS_CONCRETE, fevs/lise_check.py): mpirun -np 2,
 * N = 1, 2, 3: the invariant fails at the second composed arrival (rank 0:
 * i = 1, x = 1) and the final assertion fails on rank 0 (x = 2N - 1);
 * N = 0: no failure.
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS input {N >= 0} int
#define N 3

int main(int argc, char *argv[]) {
    int myrank, i = 0, x = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    /* BUG: not preserved, because rank 1 below sends i instead of i + 1 */
#pragma TASS collective invariant I 0 <= i && i <= 2 * N && i == PROC[1 - PID]@main.i && x == 2 * ((i + 1 - PID) / 2)
    while (i < 2 * N) {
#ifdef FEVS_CONCRETE
        printf("SNAP I %d i=%d x=%d\n", myrank, i, x);
#endif
        if (myrank == 0 && i % 2 == 0) {
            MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (myrank == 1 && i % 2 == 1) {
            x = i;
            MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        }
        i++;
    }
#ifdef FEVS_CONCRETE
    printf("SNAP I %d i=%d x=%d\n", myrank, i, x);
    printf("OUT x%d = %d\n", myrank, x);
    fflush(stdout);
#endif
    assert(x == 2 * N);
    MPI_Finalize();
    return 0;
}
