/* fevs/mpi/coll_axpy_par.c -- y = ALPHA*x + yin block-distributed with
 * MPI_Scatterv and MPI_Gatherv (the parallel implementation of the "coll_axpy"
 * pair; same inputs and outputs as coll_axpy_seq.c).
 *
 * Rank 0 holds x and yin.  Process r gets the block N*r/P .. N*(r+1)/P - 1 of
 * both (the counts and displacements of the block distribution; blocks are
 * empty when N < P), computes its part of y and rank 0 gathers the parts into
 * y with MPI_Gatherv on the same counts and displacements; an MPI_Reduce adds
 * up the checksum ysum of the parts.
 *
 * Expected verdicts:
 *   tass verify -n 3 coll_axpy_par.c                                             holds
 *   tass compare --spec coll_axpy_seq.c --impl coll_axpy_par.c --impl-procs 3    holds
 * Buggy twin: coll_axpy_bad.c (collective-mismatch: empty blocks skip MPI_Gatherv).
 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#pragma TASS input int
#define B 6
#pragma TASS input {1 <= N && N <= B} int
#define N 6
#pragma TASS input double
#define ALPHA 2.5

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double x[N];
#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double yin[N];
#pragma TASS output
double y[N];
#pragma TASS output
double ysum;

double xl[N], yl[N];

int main(int argc, char *argv[]) {
    int nprocs, myrank, r, i, n;
    int *counts, *displs;
    double part = 0.0;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++) {
        x[i] = 0.5 * i - 1.0;
        yin[i] = 10.0 - i;
    }
#endif
    counts = malloc(nprocs * sizeof(int));
    displs = malloc(nprocs * sizeof(int));
    for (r = 0; r < nprocs; r++) {
        displs[r] = N * r / nprocs;
        counts[r] = N * (r + 1) / nprocs - displs[r];
    }
    n = counts[myrank];
    MPI_Scatterv(x, counts, displs, MPI_DOUBLE, xl, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Scatterv(yin, counts, displs, MPI_DOUBLE, yl, n, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    for (i = 0; i < n; i++) {
        yl[i] = ALPHA * xl[i] + yl[i];
        part += yl[i];
    }
    MPI_Gatherv(yl, n, MPI_DOUBLE, y, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Reduce(&part, &ysum, 1, MPI_DOUBLE, MPI_SUM, 0, MPI_COMM_WORLD);
#ifdef FEVS_CONCRETE
    if (myrank == 0) {
        for (i = 0; i < N; i++)
            printf("OUT y[%d] = %.17g\n", i, y[i]);
        printf("OUT ysum = %.17g\n", ysum);
    }
#endif
    free(counts);
    free(displs);
    MPI_Finalize();
    return 0;
}
