/* fevs/mpi/rma_rget_early_bad.c -- as rma_rput_ok.c, but rank 1 reads the
 * result of its MPI_Rget before the MPI_Wait that completes it: the data
 * need not have arrived (local-concurrency).
 *
 * Expected verdict: tass verify -n 2 rma_rget_early_bad.c: violated,
 * local-concurrency (line 27).
 * mpirun -np 2 --mca osc ucx and pt2pt: Assertion `got == 7' failed (the data had not
 * arrived).
 */
#include <mpi.h>
#include <assert.h>
int main(int argc, char *argv[]) {
    int rank, x = 0, one = 7, got = -1;
    MPI_Request req;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(&x, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 1) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        MPI_Rput(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, win, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        one = 9; /* free after the wait */
        MPI_Win_unlock(0, win);
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        MPI_Rget(&got, 1, MPI_INT, 0, 0, 1, MPI_INT, win, &req);
        assert(got == 7); /* BUG: before the wait */
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Win_unlock(0, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
