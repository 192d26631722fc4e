/* fevs/mpi/jacobi_seq_bad.c -- Jacobi iteration for A x = b whose error term
 * is wrong (the bug the comparative-symbolic-execution paper found in a
 * textbook's sequential code, Sec. 4.2.3; this is our own code with the same
 * kind of mistake).
 *
 * BUG: the error term is the inner product x' . x of two successive iterates
 * instead of |x' - x|^2, so the loop stops after a different number of steps
 * than the parallel version (and than the correct jacobi_seq.c) for some A, b
 * and EPS.  Real arithmetic cannot hide it: the outputs really differ.
 *
 * Starting from x = (1, ..., 1), each step computes
 *   x'[i] = (b[i] - sum_{j != i} A[i][j] x[j]) / A[i][i];
 * the loop stops when the error term falls below EPS, or after MAXITS steps.
 * Inputs: bound BN, 1 <= N <= BN, A (assumed to have a non-zero diagonal), b,
 * EPS > 0.  Output: x.
 *
 * Expected verdicts:
 *   tass verify jacobi_seq_bad.c                                          holds (no run-time error)
 *   tass compare --spec jacobi_seq_bad.c --impl jacobi_par.c --impl-procs 2
 *                                                                         violated: not-equivalent
 * Fixed twin: jacobi_seq.c.
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
            d = xnew[i] * x[i]; /* BUG: should be xnew[i] - x[i] ... */
            err += d;           /* ... and err += d * d */
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
