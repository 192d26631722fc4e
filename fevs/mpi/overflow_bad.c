/* fevs/mpi/overflow_bad.c -- rank 0 sends N values plus a checksum; rank 1
 * posts a receive for N values only.
 *
 * BUG: the receive count N is smaller than the N + 1 values sent, so the
 * message does not fit the receive buffer (property 12; real MPI reports
 * MPI_ERR_TRUNCATE).
 *
 * Expected verdict: tass verify -n 2 overflow_bad.c
 *   violated: buffer-overflow at the MPI_Recv line
 * Fixed twin: overflow_ok.c.
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
    if (nprocs >= 2 && myrank == 0) {
        for (i = 0; i < N; i++) {
            msg[i] = v[i];
            s += v[i];
        }
        msg[N] = s;
        MPI_Send(msg, N + 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
    } else if (nprocs >= 2 && myrank == 1) {
        MPI_Recv(msg, N, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* BUG: N + 1 sent */
        for (i = 0; i < N; i++)
            s += msg[i];
        ok = (s == msg[N]);
    }
    MPI_Finalize();
    return 0;
}
