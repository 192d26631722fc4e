/* fevs/mpi/rma_rget_accumulate_order_ok.c -- the moment MPI applies an
 * MPI_Rget_accumulate (MPI 4.1 sec. 12.3.5, 12.7): any time between its
 * issue and the wait of its request. Under lock_all, rank 2 adds 10 to rank
 * 0's counter with MPI_Accumulate and, without flushing, tells rank 1; rank 1
 * then fetches the counter and adds 1 with MPI_Rget_accumulate (same
 * operation: no race) and waits for its request. Rank 2's update is still
 * pending, so MPI may apply it before or after rank 1's: `old` is 0 or 10.
 *
 * Rank 1 asserts either value; rank 0 the total.
 *
 * Expected verdict: tass verify -n 3 rma_rget_accumulate_order_ok.c: holds.
 * mpirun -np 3 (Open MPI 4.1, ASan+UBSan), osc default and --mca osc pt2pt,
 * default and zero-buffer sends: exit 0.
 */
#include <mpi.h>
#include <assert.h>
int main(int argc, char *argv[]) {
    int rank, buf = 0, one = 1, ten = 10, old = -1, tok = 0;
    MPI_Request req;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(&buf, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_lock_all(0, win);
    if (rank == 2) {
        MPI_Accumulate(&ten, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
        MPI_Send(&tok, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(&tok, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
        MPI_Recv(&tok, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Rget_accumulate(&one, 1, MPI_INT, &old, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM,
                            win, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        MPI_Send(&tok, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
    }
    MPI_Win_unlock_all(win);
    if (rank == 1)
        assert(old == 0 || old == 10); /* either order */
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        assert(buf == 11);
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
