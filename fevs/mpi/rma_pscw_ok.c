/* fevs/mpi/rma_pscw_ok.c -- generalized active target: every process exposes
 * its slot to its left neighbour (MPI_Win_post), opens an access epoch to its
 * right neighbour (MPI_Win_start), puts its rank into the right neighbour's
 * slot and gets the right neighbour's `mine`, completes, and waits for its
 * own exposure epoch to end. Correct.
 * Expected verdict: tass verify -n 3 mpi/rma_pscw_ok.c: holds. */
#include <mpi.h>
#include <assert.h>
#include <stdio.h>

#pragma TASS output
int sum;
int main(int argc, char *argv[]) {
    int rank, size, slot[2] = {-1, 0}, got = -1;
    MPI_Group world, left, right;
    MPI_Win win;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int l = (rank + size - 1) % size, r = (rank + 1) % size;
    slot[1] = 10 * rank;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_incl(world, 1, &l, &left);
    MPI_Group_incl(world, 1, &r, &right);
    MPI_Win_create(slot, 2 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_post(left, 0, win);
    MPI_Win_start(right, 0, win);
    MPI_Put(&rank, 1, MPI_INT, r, 0, 1, MPI_INT, win);
    MPI_Get(&got, 1, MPI_INT, r, 1, 1, MPI_INT, win);
    MPI_Win_complete(win);
    assert(got == 10 * r);
    MPI_Win_wait(win);
    assert(slot[0] == l);
    MPI_Reduce(&slot[0], &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        assert(sum == size * (size - 1) / 2);
#ifdef FEVS_CONCRETE
        printf("OUT sum = %d\n", sum);
#endif
    }
    MPI_Win_free(&win);
    MPI_Group_free(&left);
    MPI_Group_free(&right);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
