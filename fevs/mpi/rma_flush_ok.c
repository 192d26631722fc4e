/* fevs/mpi/rma_flush_ok.c -- passive-target RMA on a window made by
 * MPI_Win_allocate: process 0 writes every other process's window twice in
 * one access epoch, with MPI_Win_flush / MPI_Win_flush_all between the two
 * writes, so the first write has completed at the target before the second.
 *
 * Expected verdict: tass verify -n 3 rma_flush_ok.c: holds (no epoch error,
 *   no RMA race, every window ends with the second values, window freed).
 * mpirun -np 3 (default and zero-buffer): exit 0.
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
        MPI_Win_flush_all(win);
        for (int target = 1; target < nprocs; target++)
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
