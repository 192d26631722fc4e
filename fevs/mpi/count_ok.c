/* fevs/mpi/count_ok.c -- rank 0 sends its array a[0..n-1] without the last
 * entry (a sentinel) to rank 1, which adds it up; the empty array is handled.
 *
 * Inputs: bound B, 0 <= n <= B, a.  Output: head_sum, the sum of a[0..n-2].
 * Expected verdict: tass verify -n 2 count_ok.c   holds
 * Buggy twin: count_bad.c (mpi-count).
 */
#include <mpi.h>
#include <stdio.h>

#pragma TASS input int
#define B 4
#pragma TASS input {0 <= n && n <= B} int
#define n 4

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double a[n];
#pragma TASS output
double head_sum;

double buf[n];

int main(int argc, char *argv[]) {
    int nprocs, myrank, i, len;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
#ifdef FEVS_CONCRETE
    for (i = 0; i < n; i++)
        a[i] = i + 0.5;
#endif
    len = n > 0 ? n - 1 : 0;
    if (nprocs >= 2 && myrank == 0) {
        MPI_Send(a, len, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD);
    } else if (nprocs >= 2 && myrank == 1) {
        MPI_Recv(buf, len, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        head_sum = 0.0;
        for (i = 0; i < len; i++)
            head_sum += buf[i];
        /* Outputs are per process, as every global is, and the program's output
         * is rank 0's copy: hand the result to rank 0. */
        MPI_Send(&head_sum, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
    }
    if (nprocs >= 2 && myrank == 0) {
        MPI_Recv(&head_sum, 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#ifdef FEVS_CONCRETE
        printf("OUT head_sum = %.17g\n", head_sum);
#endif
    }
    MPI_Finalize();
    return 0;
}
