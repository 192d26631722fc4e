/* fevs/mpi/count_bad.c -- rank 0 sends its array a[0..n-1] without the last
 * entry (a sentinel) to rank 1, forgetting that the array may be empty.
 *
 * BUG: for n = 0 the send count n - 1 is -1, a negative count (property 8).
 * (The receive posts the full capacity n, which is always legal.)
 *
 * Expected verdict: tass verify -n 2 count_bad.c
 *   violated: mpi-count at the MPI_Send line (witness n = 0)
 * Fixed twin: count_ok.c.
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
    int nprocs, myrank, i, got;
    MPI_Status status;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
#ifdef FEVS_CONCRETE
    for (i = 0; i < n; i++)
        a[i] = i + 0.5;
#endif
    if (nprocs >= 2 && myrank == 0) {
        MPI_Send(a, n - 1, MPI_DOUBLE, 1, 0, MPI_COMM_WORLD); /* BUG: -1 when n = 0 */
    } else if (nprocs >= 2 && myrank == 1) {
        MPI_Recv(buf, n, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, &status);
        MPI_Get_count(&status, MPI_DOUBLE, &got);
        head_sum = 0.0;
        for (i = 0; i < got; i++)
            head_sum += buf[i];
#ifdef FEVS_CONCRETE
        printf("OUT head_sum = %.17g\n", head_sum);
#endif
    }
    MPI_Finalize();
    return 0;
}
