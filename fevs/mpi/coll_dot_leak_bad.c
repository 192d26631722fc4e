/* fevs/mpi/coll_dot_leak_bad.c -- the overlapped inner products of
 * coll_dot_par.c (two MPI_Iallreduce started, then completed) with one
 * completion forgotten.
 *
 * BUG: only the request of the u.v reduction is waited for; the request of the
 * u.u reduction (ruu) is never completed or freed: a request leak, reported as
 * memory-leak at its MPI_Iallreduce.  Its result guu is read without
 * completion (undefined in MPI).  Under OpenMPI (4 or 8 processes) it happens
 * to progress inside the first wait: runs print the right uu = 16.9375 and
 * nothing reports the leak; another MPI may return uu before it is reduced.
 * Inputs: bound B, 0 <= N <= B, the arrays u and v.  Outputs: uv and uu.
 *
 * Expected verdict: tass verify -n 3 coll_dot_leak_bad.c
 *   violated: memory-leak at the second MPI_Iallreduce
 * Fixed twin: coll_dot_par.c.
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
    double luv = 0.0, luu = 0.0, guv, guu = 0.0;
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
    MPI_Iallreduce(&luu, &guu, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &ruu); /* BUG: never completed */
    MPI_Wait(&ruv, MPI_STATUS_IGNORE);
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
