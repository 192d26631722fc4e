/* fevs/mpi/rma_lock_open_bad.c -- process 0 opens a passive-target epoch on
 * process 1's window and frees the window without closing it.
 *
 * BUG: MPI_Win_free with an epoch still open (MPI: erroneous; every
 * MPI_Win_lock needs its MPI_Win_unlock before the window is freed).
 *
 * Expected verdict: tass verify -n 2 rma_lock_open_bad.c: violated, epoch at
 *   the MPI_Win_free.
 * mpirun -np 2: exit 0 -- Open MPI 4.1.4 does not check it (MPI makes it
 *   erroneous all the same). With btl self,tcp (the zero-buffer setting) this
 *   Open MPI has no one-sided transport: MPI_Win_create fails (MPI_ERR_WIN).
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
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 1, 0, win);
        MPI_Put(&value, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
    }
    /* BUG: process 0's epoch to process 1 is never closed */
    MPI_Win_free(&win);
    MPI_Finalize();
    return 0;
}
