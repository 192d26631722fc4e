/* fevs/mpi/init_finalize_bad.c -- n units of work are block-distributed over
 * the processes; processes with nothing to do leave early.
 *
 * BUG: a process whose share is empty returns from main without calling
 * MPI_Finalize (property 6).  That happens whenever n < P, e.g. n = 2 on 3
 * processes.
 *
 * Expected verdict: tass verify -n 3 init_finalize_bad.c
 *   violated: mpi-init-finalize (a process with an empty share)
 * Fixed twin: init_finalize_ok.c.
 */
#include <mpi.h>
#include <stdio.h>

#pragma TASS input int
#define B 4
#pragma TASS input {0 <= n && n <= B} int
#define n 2

#pragma TASS output
int total;

int main(int argc, char *argv[]) {
    int nprocs, myrank, share, sum = 0, done = 0, i;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    share = n * (myrank + 1) / nprocs - n * myrank / nprocs;
    MPI_Reduce(&share, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (myrank == 0)
        total = sum;
    if (share == 0)
        return 0; /* BUG: leaves without MPI_Finalize */
    for (i = 0; i < share; i++)
        done++;
    MPI_Finalize();
    return 0;
}
