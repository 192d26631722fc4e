/* fevs/mpi/rma_fetch_ok.c -- a ticket counter: every process takes a ticket
 * with MPI_Fetch_and_op(MPI_SUM) on rank 0's counter in one fence epoch
 * (concurrent accumulates with the same operation are allowed), then reads
 * the counter atomically with MPI_NO_OP under a shared lock. The tickets are
 * 0 .. n-1 in some order and the counter ends at n.
 *
 * Expected verdict: tass verify -n 1, 2, 3 rma_fetch_ok.c: holds.
 * mpirun -np 2, 3, 4 (ASan+UBSan): exit 0 by default and with zero buffering
 * (btl self,tcp, eager limits 56) under osc ucx; osc sm cannot make the window
 * there (MPI_ERR_WIN).
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
    int counter = 0;
    MPI_Win win;
    MPI_Win_create(&counter, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    int one = 1, ticket = -1;
    MPI_Win_fence(0, win);
    MPI_Fetch_and_op(&one, &ticket, MPI_INT, 0, 0, MPI_SUM, win);
    MPI_Win_fence(0, win);
    assert(0 <= ticket && ticket < size);
    int sum;
    MPI_Allreduce(&ticket, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    assert(sum == size * (size - 1) / 2);
    int seen = -1;
    MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
    MPI_Fetch_and_op(NULL, &seen, MPI_INT, 0, 0, MPI_NO_OP, win);
    MPI_Win_unlock(0, win);
    assert(seen == size);
    MPI_Win_free(&win);
    result = 1; /* reached the end */
    MPI_Finalize();
    return 0;
}
