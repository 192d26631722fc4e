/* fevs/mpi/coll_axpy_bad.c -- the block-distributed y = ALPHA*x + yin of
 * coll_axpy_par.c (MPI_Scatterv, local update, MPI_Gatherv, checksum with
 * MPI_Reduce) with an "optimisation" for processes that own nothing.
 *
 * BUG: a process whose block is empty (N < P) skips the update and the
 * MPI_Gatherv.  Collectives must be called by every process of the
 * communicator, in the same order: the skipping process's next collective is
 * the MPI_Reduce while the others are in MPI_Gatherv (collective-mismatch).
 * With N >= P every block is non-empty and all is well, which is why tests with
 * the default N = 6 on 4 processes pass; with N = 2 on 4 processes the run
 * under OpenMPI completes but prints y = 0, 0 instead of 7.5, 7.75: no process
 * gathered anything into rank 0's y.
 *
 * Expected verdict: tass verify -n 3 coll_axpy_bad.c
 *   violated: collective-mismatch (N = 1 or 2)
 * Fixed twin: coll_axpy_par.c.
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
    if (n > 0) { /* BUG: a process with an empty block skips the MPI_Gatherv */
        for (i = 0; i < n; i++) {
            yl[i] = ALPHA * xl[i] + yl[i];
            part += yl[i];
        }
        MPI_Gatherv(yl, n, MPI_DOUBLE, y, counts, displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    }
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
