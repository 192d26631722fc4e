/* fevs/mpi/rma_fetch_early_bad.c -- the result of MPI_Fetch_and_op read
 * before the epoch's closing fence completes the operation.
 *
 * Expected verdict: tass verify -n 2 rma_fetch_early_bad.c: violated, local-concurrency (line 25).
 * mpirun -np 2 (default, and zero-buffer with osc pt2pt): exit 0 (no symptom).
 */
#include <mpi.h>
#include <stdio.h>

/* What the run computed on rank 0 (a TASS output: `tass compare` compares it). */
#pragma TASS output
int result;

int main(int argc, char *argv[]) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int counter = 0;
    MPI_Win win;
    MPI_Win_create(&counter, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    int one = 1, ticket = 0;
    MPI_Win_fence(0, win);
    MPI_Fetch_and_op(&one, &ticket, MPI_INT, 0, 0, MPI_SUM, win);
    printf("ticket %d\n", ticket); /* BUG: not yet completed */
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    result = 1; /* reached the end */
    MPI_Finalize();
    return 0;
}
