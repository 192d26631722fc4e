/* fevs/mpi/jacobi_par.c -- Jacobi iteration for A x = b with the rows
 * block-distributed over the processes (the parallel implementation of the
 * "jacobi" pair).
 *
 * Every process keeps the whole iterate x.  The first min(P, N) processes each
 * compute x' for their block of rows; the new iterate is assembled with
 * MPI_Allreduce(MPI_SUM) over vectors that are zero outside each block, and
 * the error term |x' - x|^2 is summed with a second MPI_Allreduce.  The sum
 * order differs from the sequential code, so the two agree over the reals
 * (--arith real, the default), not bit for bit.
 *
 * Same signature as jacobi_seq.c.
 * Expected verdicts:
 *   tass verify -n P jacobi_par.c                                       holds
 *   tass compare --spec jacobi_seq.c --impl jacobi_par.c --impl-procs P holds
 *   tass compare --spec jacobi_seq_bad.c --impl jacobi_par.c --impl-procs 2
 *                                                                       violated: not-equivalent
 */
#include <mpi.h>
#include <stdio.h>

#define MAXITS 3

#pragma TASS input int
#define BN 4
#pragma TASS input {1 <= N && N <= BN} int
#define N 4
#pragma TASS input {EPS > 0} double
#define EPS 0.000001

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double A[N][N];
#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double b[N];
#pragma TASS output
double x[N];

double xloc[N];
double xnew[N];
int nprocs, myrank, active, first, last;

int main(int argc, char *argv[]) {
    int i, j, it;
    double s, err, local_err, d;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++) {
        for (j = 0; j < N; j++)
            A[i][j] = (i == j) ? 4.0 : (i - j == 1 || j - i == 1) ? -1.0 : 0.0;
        b[i] = i + 1.0;
    }
#endif
#pragma TASS assume forall {int k | 0 <= k && k < N} A[k][k] != 0
    active = nprocs < N ? nprocs : N;
    first = last = 0;
    if (myrank < active) {
        first = N * myrank / active;
        last = N * (myrank + 1) / active;
    }
    for (i = 0; i < N; i++)
        xloc[i] = 1.0;
    for (it = 0; it < MAXITS; it++) {
        for (i = 0; i < N; i++)
            xnew[i] = 0.0;
        local_err = 0.0;
        for (i = first; i < last; i++) {
            s = b[i];
            for (j = 0; j < N; j++)
                if (j != i)
                    s -= A[i][j] * xloc[j];
            xnew[i] = s / A[i][i];
            d = xnew[i] - xloc[i];
            local_err += d * d;
        }
        MPI_Allreduce(xnew, xloc, N, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(&local_err, &err, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        if (err < EPS)
            break;
    }
    if (myrank == 0) {
        for (i = 0; i < N; i++)
            x[i] = xloc[i];
#ifdef FEVS_CONCRETE
        for (i = 0; i < N; i++)
            printf("OUT x[%d] = %.17g\n", i, x[i]);
#endif
    }
    MPI_Finalize();
    return 0;
}
