/* fevs/mpi/type_bad.c -- rank 0 sends N integers to rank 1, which receives
 * them with the wrong datatype.
 *
 * BUG: the receive says MPI_FLOAT while the message holds MPI_INT data
 * (property 10).  On most machines both are 4 bytes, so MPI copies the bits
 * and the program "runs", producing garbage.
 *
 * Expected verdict: tass verify -n 2 type_bad.c
 *   violated: mpi-type at the MPI_Recv line
 * Fixed twin: type_ok.c.
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
float total;

float buf[N];

int main(int argc, char *argv[]) {
    int nprocs, myrank, i;
    float t = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    if (nprocs >= 2 && myrank == 0) {
        MPI_Send(hist, N, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (nprocs >= 2 && myrank == 1) {
        MPI_Recv(buf, N, MPI_FLOAT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* BUG */
        for (i = 0; i < N; i++)
            t += buf[i];
        total = t;
    }
    MPI_Finalize();
    return 0;
}
