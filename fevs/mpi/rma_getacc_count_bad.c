/* fevs/mpi/rma_getacc_count_bad.c -- MPI_Get_accumulate whose result count
 * (1) differs from its target count (2): the counts and datatypes of origin,
 * result and target must describe the same elements.
 *
 * Expected verdict: tass verify -n 2 rma_getacc_count_bad.c: violated, mpi-count (line 26).
 * mpirun -np 2 (default; zero-buffer with osc ucx and pt2pt): exit 0 (Open MPI
 * does not compare the counts; MPI requires the signatures to match).
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
    int cells[2] = {0, 0};
    MPI_Win win;
    MPI_Win_create(cells, 2 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    int add[2] = {1, rank}, old[2];
    MPI_Win_fence(0, win);
    if (rank == 1) /* BUG: one result element for two target elements */
        MPI_Get_accumulate(add, 2, MPI_INT, old, 1, MPI_INT, 0, 0, 2, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    MPI_Win_free(&win);
    result = 1; /* reached the end */
    MPI_Finalize();
    return 0;
}
