/* fevs/seq/gauss_rref.c -- Gauss-Jordan elimination ("first non-zero"
 * pivoting, as mpi/gausselim_seq.c) followed by a check that the result is in
 * reduced row echelon form: every leading entry is 1 and the rest of its column 0.
 *
 * The comparative symbolic execution paper remarks that this check needs its IEEE
 * level: the leading entry is the pivot divided by itself, x0/x0, which is 1 by
 * its level-1 identity x/x = 1 and an unknown term under Herbrand arithmetic.
 * tass's ieee level does not use x/x = 1: it is false for infinities and NaN
 * (inf/inf and NaN/NaN are NaN), and a pivot is any non-zero value, so an
 * infinite input entry breaks the check on real machines. gcc 12 (x86-64, SSE),
 * -fsanitize=address,undefined: N = M = 1 and a0 = {{INFINITY}} make the leading
 * entry inf/inf = -nan and the first assertion fails; N = M = 2 and
 * a0 = {{1, 1}, {INFINITY, 2}} make a[1][0] = inf - inf * 1 = nan and the second
 * fails; a0 = {{1e308, 1}, {1e308, 2}} and the -DFEVS_CONCRETE entries pass.
 *
 * Expected verdicts:
 *   tass verify --arith real     gauss_rref.c   holds (x/x = 1 for x != 0)
 *   tass verify --arith ieee     gauss_rref.c   violated (possible: an assertion)
 *   tass verify --arith herbrand gauss_rref.c   violated (possible: an assertion)
 */
#include <assert.h>
#include <stdio.h>

#pragma TASS input int
#define BN 2
#pragma TASS input int
#define BM 2
#pragma TASS input {1 <= N && N <= BN} int
#define N 2
#pragma TASS input {1 <= M && M <= BM} int
#define M 2

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double a0[N][M];

double a[N][M];
int lead[N];

int main(void) {
    int i, j, c, p = 0, piv;
    double t, f;

#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            a0[i][j] = (double)((i * 3 + j * 5) % 7) - 2.0;
#endif
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            a[i][j] = a0[i][j];
    for (c = 0; c < M && p < N; c++) {
        piv = -1;
        for (i = p; i < N; i++)
            if (a[i][c] != 0) {
                piv = i;
                break;
            }
        if (piv < 0)
            continue;
        for (j = 0; j < M; j++) {
            t = a[p][j];
            a[p][j] = a[piv][j];
            a[piv][j] = t;
        }
        t = a[p][c];
        for (j = c; j < M; j++)
            a[p][j] = a[p][j] / t;
        for (i = 0; i < N; i++)
            if (i != p) {
                f = a[i][c];
                for (j = c; j < M; j++)
                    a[i][j] = a[i][j] - f * a[p][j];
            }
        lead[p] = c;
        p++;
    }
    /* Reduced row echelon form: leading 1s, zeros above and below them. */
    for (i = 0; i < p; i++) {
        assert(a[i][lead[i]] == 1.0);
        for (j = 0; j < N; j++)
            if (j != i)
                assert(a[j][lead[i]] == 0.0);
    }
#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            printf("OUT a[%d][%d] = %.17g\n", i, j, a[i][j]);
#endif
    return 0;
}
