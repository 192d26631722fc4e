/* fevs/mpi/rma_win_test_early_bad.c -- generalized active target with MPI_Win_test:
 * each process exposes its slot to its left neighbour and puts its rank into
 * its right neighbour's slot; instead of MPI_Win_wait it polls with
 * MPI_Win_test, but reads its slot after the first test whatever its flag:
 * while the exposure epoch is open the slot belongs to the origin's put.
 *
 * Expected verdict: tass verify -n 3 rma_win_test_early_bad.c: violated,
 * local-concurrency (line 32). mpirun -np 2, 3 --mca osc ucx and pt2pt: exit 0
 * in the runs tried (the put had landed; MPI does not promise it).
 */
#include <mpi.h>
#include <assert.h>

int main(int argc, char *argv[]) {
    int rank, size, slot = -1, flag = 0, polls = 0;
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
    MPI_Win_test(win, &flag);
    /* BUG: the slot is read even when the test returned flag 0 */
    polls = slot;
    while (!flag)
        MPI_Win_test(win, &flag);
    assert(slot == l && (polls == l || polls == -1));
    MPI_Win_free(&win);
    MPI_Group_free(&left);
    MPI_Group_free(&right);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
