/* fevs/mpi/type_ok.c -- rank 0 sends N integers (a histogram) to rank 1, which
 * receives them as integers and adds them up.
 *
 * Inputs: bound B, 1 <= N <= B, hist.  Output: total.
 * Expected verdict: tass verify -n 2 type_ok.c   holds
 * Buggy twin: type_bad.c (mpi-type).
 */
#include <mpi.h>
#include <stdio.h>

#pragma TASS input int
#define B 3
#pragma TASS input {1 <= N && N <= B} int
#define N 3

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
int hist[N];
#pragma TASS output
int total;

int buf[N];

int main(int argc, char *argv[]) {
    int nprocs, myrank, i, t = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        hist[i] = 5 * i + 1;
#endif
    if (nprocs >= 2 && myrank == 0) {
        MPI_Send(hist, N, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (nprocs >= 2 && myrank == 1) {
        MPI_Recv(buf, N, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (i = 0; i < N; i++)
            t += buf[i];
        total = t;
        /* Outputs are per process, as every global is, and the program's output
         * is rank 0's copy: hand the result to rank 0. */
        MPI_Send(&total, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    if (nprocs >= 2 && myrank == 0) {
        MPI_Recv(&total, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#ifdef FEVS_CONCRETE
        printf("OUT total = %d\n", total);
#endif
    }
    MPI_Finalize();
    return 0;
}
