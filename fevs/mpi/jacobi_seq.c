/* fevs/mpi/jacobi_seq.c -- Jacobi iteration for A x = b (the sequential
 * specification of the "jacobi" pair).
 *
 * Starting from x = (1, ..., 1), each step computes
 *   x'[i] = (b[i] - sum_{j != i} A[i][j] x[j]) / A[i][i];
 * the error term is the squared distance |x' - x|^2 of two successive
 * iterates; the loop stops when it falls below EPS, or after MAXITS steps.
 * Inputs: bound BN, 1 <= N <= BN, A (assumed to have a non-zero diagonal), b,
 * EPS > 0.  Output: x.
 *
 * Expected verdicts:
 *   tass verify jacobi_seq.c                                          holds
 *   tass compare --spec jacobi_seq.c --impl jacobi_par.c --impl-procs P
 *                                                                     holds (over the reals)
 * jacobi_seq_bad.c has the error-term bug of the comparative paper (Sec. 4.2.3).
 */
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

double xnew[N];

int main(void) {
    int i, j, it;
    double s, err, d;

#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++) {
        for (j = 0; j < N; j++)
            A[i][j] = (i == j) ? 4.0 : (i - j == 1 || j - i == 1) ? -1.0 : 0.0;
        b[i] = i + 1.0;
    }
#endif
#pragma TASS assume forall {int k | 0 <= k && k < N} A[k][k] != 0
    for (i = 0; i < N; i++)
        x[i] = 1.0;
    for (it = 0; it < MAXITS; it++) {
        for (i = 0; i < N; i++) {
            s = b[i];
            for (j = 0; j < N; j++)
                if (j != i)
                    s -= A[i][j] * x[j];
            xnew[i] = s / A[i][i];
        }
        err = 0.0;
        for (i = 0; i < N; i++) {
            d = xnew[i] - x[i];
            err += d * d;
        }
        for (i = 0; i < N; i++)
            x[i] = xnew[i];
        if (err < EPS)
            break;
    }
#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        printf("OUT x[%d] = %.17g\n", i, x[i]);
#endif
    return 0;
}
