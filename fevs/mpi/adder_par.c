/* fevs/mpi/adder_par.c -- sum of the n entries of an array with MPI (the
 * parallel implementation of the "adder" pair).
 *
 * Process r sums the block a[n*r/P .. n*(r+1)/P - 1] (P = number of processes;
 * blocks may be empty when n < P); every process of positive rank sends its
 * partial sum to rank 0, which receives them in rank order and adds them up.
 *
 * Same signature as adder_seq.c.
 * Expected verdicts:
 *   tass verify -n P adder_par.c                                         holds
 *   tass compare --spec adder_seq.c --impl adder_par.c --impl-procs P    holds
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

double global_sum(void) {
    double result = localSum, buffer;
    int i;

    for (i = 1; i < nprocs; i++) {
        MPI_Recv(&buffer, 1, MPI_DOUBLE, i, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        result += buffer;
    }
    return result;
}

int main(int argc, char *argv[]) {
    int first, afterLast, i;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
#ifdef FEVS_CONCRETE
    for (i = 0; i < n; i++)
        a[i] = i * 1.5 - 2.0;
#endif
    first = n * myrank / nprocs;
    afterLast = n * (myrank + 1) / nprocs;
    for (i = first; i < afterLast; i++)
        localSum += a[i];
    if (myrank == 0) {
        sum = global_sum();
#ifdef FEVS_CONCRETE
        printf("OUT sum = %.17g\n", sum);
#endif
    } else {
        MPI_Send(&localSum, 1, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
