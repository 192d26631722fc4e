/* fevs/mpi/lise_stagger.c -- the LISE paper's "stagger" (its Fig. 2), two
 * processes counting i from 0 to 2N - 1 together.  On odd i rank 1 sends
 * x = i + 1 to rank 0; on even i rank 0 receives it.  So rank 0 receives in
 * round i the message rank 1 sends in round i + 1: rank 1 must stay one round
 * ahead, and synchronising the two at the loop head would deadlock.
 *
 * Collective invariant I (the k-th arrivals of both ranks, composed): 0 <= i <= 2N,
 * both are
 * at the same i, and x == 2 * ((i + 1 - PID) / 2) on each, which gives
 * x == 2N after the loop.
 *
 * Input: N >= 0, no upper bound.  Run with exactly 2 processes.
 * Expected verdict (for all N; paper: 201 transitions, 51 proofs, 2.1 s):
 *   tass verify -n 2 lise_stagger.c    holds
 * Buggy twin: lise_stagger_bad.c.
 * Confirmed concretely (-DFEVS_CONCRETE, fevs/lise_check.py): mpirun -np 2,
 * N = 0, 1, 2, 3, 7, eager and zero-buffer modes: the invariant holds at every
 * composed arrival and x == 2N on both ranks at the end.
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
#pragma TASS collective invariant I 0 <= i && i <= 2 * N && i == PROC[1 - PID]@main.i && x == 2 * ((i + 1 - PID) / 2)
    while (i < 2 * N) {
#ifdef FEVS_CONCRETE
        printf("SNAP I %d i=%d x=%d\n", myrank, i, x);
#endif
        if (myrank == 0 && i % 2 == 0) {
            MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (myrank == 1 && i % 2 == 1) {
            x = i + 1;
            MPI_Send(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        }
        i++;
    }
#ifdef FEVS_CONCRETE
    printf("SNAP I %d i=%d x=%d\n", myrank, i, x);
    printf("OUT x%d = %d\n", myrank, x);
#endif
    assert(x == 2 * N);
    MPI_Finalize();
    return 0;
}
