/* fevs/mpi/overflow_ok.c -- rank 0 sends a vector of N values followed by its
 * checksum (N + 1 values in one message); rank 1 receives it into a buffer of
 * N + 1 entries and checks the checksum.
 *
 * Inputs: bound B, 1 <= N <= B, v.  Output: ok (1 when the checksum matches).
 * Expected verdict: tass verify -n 2 overflow_ok.c   holds
 * Buggy twin: overflow_bad.c (buffer-overflow).
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
double v[N];
#pragma TASS output
int ok;

double msg[N + 1];

int main(int argc, char *argv[]) {
    int nprocs, myrank, i;
    double s = 0.0;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        v[i] = 0.25 * i;
#endif
    if (nprocs >= 2 && myrank == 0) {
        for (i = 0; i < N; i++) {
            msg[i] = v[i];
            s += v[i];
        }
        msg[N] = s;
        MPI_Send(msg, N + 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
    } else if (nprocs >= 2 && myrank == 1) {
        MPI_Recv(msg, N + 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        for (i = 0; i < N; i++)
            s += msg[i];
        ok = (s == msg[N]);
        /* Outputs are per process, as every global is, and the program's output
         * is rank 0's copy: hand the result to rank 0. */
        MPI_Send(&ok, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    }
    if (nprocs >= 2 && myrank == 0) {
        MPI_Recv(&ok, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#ifdef FEVS_CONCRETE
        printf("OUT ok = %d\n", ok);
#endif
    }
    MPI_Finalize();
    return 0;
}
