/* fevs/mpi/rma_rput_ok.c -- rank 1 writes rank 0's window with MPI_Rput
 * under an exclusive lock, reuses its origin buffer after the MPI_Wait of
 * the request, then reads the value back with MPI_Rget under a shared lock
 * and uses it after that request's MPI_Wait (request-based RMA, MPI 4.1
 * sec. 12.3.5: the wait completes the operation at the origin).
 *
 * Expected verdict: tass verify -n 2 rma_rput_ok.c: holds.
 * mpirun -np 2 --mca osc ucx and pt2pt: exit 0.
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
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        assert(got == 7);
        MPI_Win_unlock(0, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
