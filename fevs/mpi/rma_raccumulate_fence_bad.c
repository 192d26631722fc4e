/* fevs/mpi/rma_raccumulate_fence_bad.c -- MPI_Raccumulate inside a fence
 * epoch. MPI 4.1 sec. 12.3.5 allows request-based RMA operations only in
 * passive-target epochs (MPI_Win_lock, MPI_Win_lock_all).
 *
 * Expected verdict: tass verify -n 2 rma_raccumulate_fence_bad.c: violated,
 * epoch (line 24). mpirun -np 2 --mca osc ucx (default and zero-buffer):
 * MPI_ERR_RMA_SYNC in MPI_Raccumulate, the job aborts (osc pt2pt does not
 * check it: exit 0).
 */
#include <mpi.h>
#include <assert.h>
int main(int argc, char *argv[]) {
    int rank, size, x = 0, add;
    MPI_Request req;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win_create(&x, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_fence(0, win);
    if (rank != 0) {
        add = rank;
        /* BUG: request-based, in a fence (active-target) epoch */
        MPI_Raccumulate(&add, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    MPI_Win_fence(0, win);
    if (rank == 0)
        assert(x == (size - 1) * size / 2);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
