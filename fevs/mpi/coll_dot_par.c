/* fevs/mpi/coll_dot_par.c -- the inner products u.v and u.u of block-distributed
 * vectors, with the reductions overlapped with computation through the
 * nonblocking MPI_Iallreduce (as in pipelined conjugate gradients); the
 * parallel implementation of the "coll_dot" pair, same inputs and outputs as
 * coll_dot_seq.c.
 *
 * Process r computes the partial u.v over its block N*r/P .. N*(r+1)/P - 1 and
 * starts its sum over all processes (MPI_Iallreduce); while that is in flight it
 * computes the partial u.u and starts a second MPI_Iallreduce; it then completes
 * both with MPI_Wait.  Every process has the full results; rank 0 writes them
 * to the outputs.  Equal to the specification over the reals (the order of the
 * additions differs, so the floating-point results may differ in the last bits).
 *
 * Expected verdicts:
 *   tass verify -n 3 coll_dot_par.c                                            holds
 *   tass compare --spec coll_dot_seq.c --impl coll_dot_par.c --impl-procs 3    holds
 */
#include <mpi.h>
#include <stdio.h>

#pragma TASS input int
#define B 6
#pragma TASS input {0 <= N && N <= B} int
#define N 6

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double u[N];
#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double v[N];
#pragma TASS output
double uv;
#pragma TASS output
double uu;

int main(int argc, char *argv[]) {
    int nprocs, myrank, i, first, last;
    double luv = 0.0, luu = 0.0, guv, guu;
    MPI_Request ruv, ruu;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++) {
        u[i] = 1.0 + 0.25 * i;
        v[i] = 3.0 - i;
    }
#endif
    first = N * myrank / nprocs;
    last = N * (myrank + 1) / nprocs;
    for (i = first; i < last; i++)
        luv += u[i] * v[i];
    MPI_Iallreduce(&luv, &guv, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &ruv);
    for (i = first; i < last; i++)
        luu += u[i] * u[i];
    MPI_Iallreduce(&luu, &guu, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &ruu);
    MPI_Wait(&ruv, MPI_STATUS_IGNORE);
    MPI_Wait(&ruu, MPI_STATUS_IGNORE);
    if (myrank == 0) {
        uv = guv;
        uu = guu;
#ifdef FEVS_CONCRETE
        printf("OUT uv = %.17g\n", uv);
        printf("OUT uu = %.17g\n", uu);
#endif
    }
    MPI_Finalize();
    return 0;
}
