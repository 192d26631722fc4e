/* fevs/mpi/adder_par_bad.c -- parallel array sum whose blocks are all n/P long.
 *
 * BUG: afterLast = first + n / P drops the last n % P entries when P does not
 * divide n (e.g. n = 10, P = 3: a[9] is never added).  With P = 1 or P | n the
 * answer is right, so a test on 2 processes and n = 10 passes.
 *
 * Same signature as adder_seq.c.
 * Expected verdicts:
 *   tass verify -n 3 adder_par_bad.c                                     holds (no run-time error)
 *   tass compare --spec adder_seq.c --impl adder_par_bad.c --impl-procs 3
 *                                                                        violated: not-equivalent
 */
#include <mpi.h>
#include <stdio.h>

#pragma TASS input int
#define B 10
#pragma TASS input {0 <= n && n <= B} int
#define n 10

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double a[n];
#pragma TASS output
double sum;

int myrank, nprocs;
double localSum = 0.0;

int main(int argc, char *argv[]) {
    int first, afterLast, i;
    double buffer;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
#ifdef FEVS_CONCRETE
    for (i = 0; i < n; i++)
        a[i] = i * 1.5 - 2.0;
#endif
    first = myrank * (n / nprocs);
    afterLast = first + n / nprocs; /* BUG: the remainder n % nprocs is lost */
    for (i = first; i < afterLast; i++)
        localSum += a[i];
    if (myrank == 0) {
        sum = localSum;
        for (i = 1; i < nprocs; i++) {
            MPI_Recv(&buffer, 1, MPI_DOUBLE, i, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            sum += buffer;
        }
#ifdef FEVS_CONCRETE
        printf("OUT sum = %.17g\n", sum);
#endif
    } else {
        MPI_Send(&localSum, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
