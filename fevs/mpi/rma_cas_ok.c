/* fevs/mpi/rma_cas_ok.c -- every process tries to claim rank 0's flag with
 * MPI_Compare_and_swap(compare 0, new rank + 1) in one fence epoch: exactly
 * one of them finds 0 and wins, and the flag then names the winner.
 *
 * Expected verdict: tass verify -n 1, 2, 3 rma_cas_ok.c: holds.
 * mpirun -np 2, 3, 4 (ASan+UBSan): exit 0 by default and with zero buffering
 * (btl self,tcp, eager limits 56) under osc ucx; osc sm cannot make the window
 * there (MPI_ERR_WIN), and osc pt2pt hangs at -np 3 and 4 in its own
 * control traffic, also without ASan.
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
    int flag = 0;
    MPI_Win win;
    MPI_Win_create(&flag, sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    int mine = rank + 1, zero = 0, old = -1;
    MPI_Win_fence(0, win);
    MPI_Compare_and_swap(&mine, &zero, &old, MPI_INT, 0, 0, win);
    MPI_Win_fence(0, win);
    int won = old == 0, winners;
    MPI_Allreduce(&won, &winners, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    assert(winners == 1);
    if (won)
        assert(old == 0);
    else
        assert(old >= 1 && old <= size);
    int who = won ? rank + 1 : 0, claimed;
    MPI_Allreduce(&who, &claimed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (rank == 0)
        assert(flag == claimed);
    MPI_Win_free(&win);
    result = 1; /* reached the end */
    MPI_Finalize();
    return 0;
}
