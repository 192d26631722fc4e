/* fevs/mpi/deadlock_recv_ok.c -- two processes swap a value: rank 0 sends
 * first, rank 1 receives first, so the exchange completes even when every
 * send is synchronous.  Run with 2 or more processes (others do nothing).
 *
 * Input: VALUE.  Output: swapped = VALUE + 1 (what rank 0 gets from rank 1).
 * Expected verdict: tass verify -n 2 deadlock_recv_ok.c   holds
 * Buggy twin: deadlock_recv_bad.c.
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS input int
#define VALUE 41
#pragma TASS output
int swapped;

int main(int argc, char *argv[]) {
    int nprocs, myrank, other, mine, theirs = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    if (myrank < 2 && nprocs >= 2) {
        other = 1 - myrank;
        mine = VALUE + myrank;
        if (myrank == 0) {
            MPI_Send(&mine, 1, MPI_INT, other, 0, MPI_COMM_WORLD);
            MPI_Recv(&theirs, 1, MPI_INT, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            swapped = theirs;
            assert(swapped == VALUE + 1);
#ifdef FEVS_CONCRETE
            printf("OUT swapped = %d\n", swapped);
#endif
        } else {
            MPI_Recv(&theirs, 1, MPI_INT, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(&mine, 1, MPI_INT, other, 0, MPI_COMM_WORLD);
        }
    }
    MPI_Finalize();
    return 0;
}
