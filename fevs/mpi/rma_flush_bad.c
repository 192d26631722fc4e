/* fevs/mpi/rma_flush_bad.c -- rma_flush_ok.c without the MPI_Win_flush_all
 * between process 0's two rounds of puts under MPI_Win_lock_all.
 *
 * BUG: MPI does not order two puts of one origin to the same target location
 * inside one access epoch (only accumulates are ordered); without a flush the
 * outcome at the target is undefined.
 *
 * Expected verdict: tass verify -n 3 rma_flush_bad.c: violated, rma-race at
 *   the second round's MPI_Put (line 47).
 * mpirun -np 3 (default and zero-buffer): exit 0 -- Open MPI happens to apply
 *   one origin's puts in order; the standard does not promise it.
 */
#include <assert.h>
#include <mpi.h>

#define N 3

int main(int argc, char **argv) {
    int rank, nprocs;
    int *window_memory;
    MPI_Win win;
    int first[N], second[N];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Win_allocate(N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD,
                     &window_memory, &win);
    for (int i = 0; i < N; i++) {
        window_memory[i] = -1;
        first[i] = i;
        second[i] = 10 + i;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 && nprocs > 1) {
        /* One target, exclusive lock: put, flush, put again. */
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Put(first, N, MPI_INT, 1, 0, N, MPI_INT, win);
        MPI_Win_flush(1, win);
        MPI_Put(second, N, MPI_INT, 1, 0, N, MPI_INT, win);
        MPI_Win_unlock(1, win);
        /* Every target: put, flush_all, put again. */
        MPI_Win_lock_all(0, win);
        for (int target = 1; target < nprocs; target++)
            MPI_Put(first, N, MPI_INT, target, 0, N, MPI_INT, win);
        for (int target = 1; target < nprocs; target++) /* BUG: no flush before */
            MPI_Put(second, N, MPI_INT, target, 0, N, MPI_INT, win);
        MPI_Win_unlock_all(win);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank > 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, rank, 0, win);
        for (int i = 0; i < N; i++)
            assert(window_memory[i] == 10 + i);
        MPI_Win_unlock(rank, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
