/* fevs/mpi/rma_lock_twice_bad.c -- process 0 locks process 1's window and,
 * inside that passive-target epoch, locks the same target again.
 *
 * BUG: an access epoch to a target opened twice (MPI: erroneous; the second
 * MPI_Win_lock on the same window and target needs an MPI_Win_unlock first).
 *
 * Expected verdict: tass verify -n 2 rma_lock_twice_bad.c: violated, epoch at
 *   the second MPI_Win_lock.
 * mpirun -np 2: exit 0 -- Open MPI 4.1.4's one-sided component does not
 *   check it (MPI makes it erroneous all the same). With btl self,tcp (the
 *   zero-buffer setting) this Open MPI has no one-sided transport:
 *   MPI_Win_create fails with MPI_ERR_WIN.
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, value = 7;
    int buf[2] = {0, 0};
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Win_create(buf, 2 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    if (rank == 0) {
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Put(&value, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
        /* BUG: the epoch to process 1 is still open */
        MPI_Win_lock(MPI_LOCK_SHARED, 1, 0, win);
        MPI_Win_unlock(1, win);
    }
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
