/* fevs/mpi/lise_stagger_wide.c -- lise_stagger.c with a wider stride: two
 * processes count i from 0 to K*N - 1 together (K = 6).  Rank 1 sends
 * x = i + 1 when i % K == K - 1; rank 0 receives when i % K == 0.  So rank 0
 * receives at i == 0 what rank 1 sends at i == 5: rank 1 runs ahead, and the
 * second run with lagged loop records (whose reduced search lets rank 1, its
 * sends buffered, run up to about 2K arrivals ahead) must follow 10 incomplete
 * loop records, more than its default limit, max(8, 2n + 4) = 8.
 *
 * Collective invariant W (the k-th arrivals of both ranks, composed):
 * 0 <= i <= K*N, both at the same i, and x == K * ((i + (K - 1) * (1 - PID)) / K)
 * on each (rank 1: the last value it sent; rank 0: the last it received),
 * which gives x == K*N after the loop.
 *
 * Input: N >= 0, no upper bound.  Run with exactly 2 processes.
 * Expected verdict (for all N):
 *   tass verify -n 2 lise_stagger_wide.c                 error (exit 2): the
 *     lagged run stops at its lag limit, no verdict
 *   tass verify -n 2 --max-lag 10 lise_stagger_wide.c    holds
 *   (--max-lag 9: error too)
 * Buggy twin: lise_stagger_wide_bad.c.
 * Confirmed concretely (-DFEVS_CONCRETE, fevs/lise_check.py wide): mpirun -np 2,
 * N = 0, 1, 2, 3, eager and zero-buffer modes: the invariant holds at every
 * composed arrival and x == K*N on both ranks at the end.
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
#pragma TASS collective invariant W 0 <= i && i <= K * N && i == PROC[1 - PID]@main.i && x == K * ((i + (K - 1) * (1 - PID)) / K)
    while (i < K * N) {
#ifdef FEVS_CONCRETE
        printf("SNAP W %d i=%d x=%d\n", myrank, i, x);
#endif
        if (myrank == 0 && i % K == 0) {
            MPI_Recv(&x, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else if (myrank == 1 && i % K == K - 1) {
            x = i + 1;
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
