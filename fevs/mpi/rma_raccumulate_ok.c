/* fevs/mpi/rma_raccumulate_ok.c -- request-based accumulates (MPI 4.1 sec.
 * 12.3.5) under shared locks: every rank but 0 adds its rank to rank 0's
 * counter with MPI_Raccumulate, reuses its origin buffer after the wait of
 * the request, then fetches the counter and adds 1 with
 * MPI_Rget_accumulate (same operation, MPI_SUM: concurrent accumulates do
 * not race). MPI orders the two accumulates of one origin, so the fetched
 * value already holds the caller's own addition. After the unlocks and a
 * barrier, rank 0 reads the total under a lock of its own window.
 *
 * Expected verdict: tass verify -n 1, 2, 3 rma_raccumulate_ok.c: holds.
 * mpirun -np 1, 2, 3 --mca osc ucx and pt2pt (ASan+UBSan): exit 0.
 */
#include <mpi.h>
#include <assert.h>
int main(int argc, char *argv[]) {
    int rank, size, x = 0, add, one = 1, old = -1;
    MPI_Request req;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Win_create(&x, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank != 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
        add = rank;
        MPI_Raccumulate(&add, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        add = 100; /* the origin buffer is free after the wait */
        MPI_Rget_accumulate(&one, 1, MPI_INT, &old, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM,
                            win, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        assert(old >= rank);
        MPI_Win_unlock(0, win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        assert(x == (size - 1) * size / 2 + size - 1);
        MPI_Win_unlock(0, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
