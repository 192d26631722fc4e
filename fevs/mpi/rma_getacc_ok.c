/* fevs/mpi/rma_getacc_ok.c -- MPI_Get_accumulate: every process adds
 * (1, rank) to rank 0's two-element array in one fence epoch and fetches the
 * old values; the fetched first elements are 0 .. n-1 in some order. Then an
 * atomic read of both elements with MPI_NO_OP (origin ignored).
 *
 * Expected verdict: tass verify -n 1, 2, 3 rma_getacc_ok.c: holds.
 * mpirun -np 2, 3, 4 (ASan+UBSan): exit 0 by default and with zero buffering
 * under osc ucx and osc pt2pt.
 */
#include <assert.h>
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
    int add[2] = {1, rank}, old[2] = {-1, -1};
    MPI_Win_fence(0, win);
    MPI_Get_accumulate(add, 2, MPI_INT, old, 2, MPI_INT, 0, 0, 2, MPI_INT, MPI_SUM, win);
    MPI_Win_fence(0, win);
    assert(0 <= old[0] && old[0] < size);
    int sum;
    MPI_Allreduce(&old[0], &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    assert(sum == size * (size - 1) / 2);
    int now[2];
    MPI_Win_fence(0, win);
    MPI_Get_accumulate(NULL, 0, MPI_INT, now, 2, MPI_INT, 0, 0, 2, MPI_INT, MPI_NO_OP, win);
    MPI_Win_fence(0, win);
    assert(now[0] == size && now[1] == size * (size - 1) / 2);
    MPI_Win_free(&win);
    result = 1; /* reached the end */
    MPI_Finalize();
    return 0;
}
