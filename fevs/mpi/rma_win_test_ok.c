/* fevs/mpi/rma_win_test_ok.c -- generalized active target with MPI_Win_test:
 * each process exposes its slot to its left neighbour and puts its rank into
 * its right neighbour's slot; instead of MPI_Win_wait it polls with
 * MPI_Win_test and reads its slot only once the test
 * has returned a true flag, which ends the exposure epoch.
 *
 * Expected verdict: tass verify -n 1, 2, 3 rma_win_test_ok.c: holds.
 * mpirun -np 1, 2, 3 --mca osc ucx and pt2pt (default and zero-buffer,
 * ASan+UBSan): exit 0.
 */
#include <mpi.h>
#include <assert.h>

int main(int argc, char *argv[]) {
    int rank, size, slot = -1, flag = 0;
    MPI_Group world, left, right;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int l = (rank + size - 1) % size, r = (rank + 1) % size;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &l, &left);
    MPI_Group_incl(world, 1, &r, &right);
    MPI_Win_create(&slot, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_post(left, 0, win);
    MPI_Win_start(right, 0, win);
    MPI_Put(&rank, 1, MPI_INT, r, 0, 1, MPI_INT, win);
    MPI_Win_complete(win);
    while (!flag)
        MPI_Win_test(win, &flag);
    assert(slot == l);
    MPI_Win_free(&win);
    MPI_Group_free(&left);
    MPI_Group_free(&right);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
