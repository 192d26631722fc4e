/* fevs/mpi/deadlock_recv_bad.c -- two processes swap a value, both receiving
 * first.
 *
 * BUG: rank 0 and rank 1 both call MPI_Recv before MPI_Send, so neither send
 * is ever reached: an absolute deadlock, whatever MPI does with buffering.
 * Run with exactly 2 processes (other ranks do nothing).
 *
 * Expected verdicts:
 *   tass verify -n 2 deadlock_recv_bad.c                       violated: deadlock
 *   tass verify -n 2 --deadlock absolute deadlock_recv_bad.c   violated: deadlock
 * Fixed twin: deadlock_recv_ok.c.
 */
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
        MPI_Recv(&theirs, 1, MPI_INT, other, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* BUG */
        MPI_Send(&mine, 1, MPI_INT, other, 0, MPI_COMM_WORLD);
        if (myrank == 0)
            swapped = theirs;
    }
    MPI_Finalize();
    return 0;
}
