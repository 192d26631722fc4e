/* fevs/mpi/rma_fetch_mixed_bad.c -- rank 0 adds to the counter with
 * MPI_Fetch_and_op(MPI_SUM) while the last rank multiplies it with
 * MPI_Fetch_and_op(MPI_PROD) in the same fence epoch: accumulates to one
 * location with different operations conflict (MPI 4.0 sec. 12.7.1).
 *
 * Expected verdict: tass verify -n 2 rma_fetch_mixed_bad.c: violated, rma-race (line 29).
 * mpirun -np 2 (default, and zero-buffer with osc pt2pt): exit 0 (no symptom;
 * the result is undefined by MPI).
 */
#include <mpi.h>

/* What the run computed on rank 0 (a TASS output: `tass compare` compares it). */
#pragma TASS output
int result;

int main(int argc, char *argv[]) {
    int rank, size;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int counter = 1;
    MPI_Win win;
    MPI_Win_create(&counter, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    int two = 2, old;
    MPI_Win_fence(0, win);
    if (rank == 0)
        MPI_Fetch_and_op(&two, &old, MPI_INT, 0, 0, MPI_SUM, win);
    if (rank == size - 1 && rank != 0)
        MPI_Fetch_and_op(&two, &old, MPI_INT, 0, 0, MPI_PROD, win); /* BUG */
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    result = 1; /* reached the end */
    MPI_Finalize();
    return 0;
}
