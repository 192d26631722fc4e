/* fevs/mpi/gausselim_seq.c -- reduce an N x M matrix to reduced row echelon
 * form by Gauss-Jordan elimination with "first non-zero" pivoting (the
 * sequential specification of the "gausselim" pair).
 *
 * Every test "a[i][c] != 0" on a symbolic entry splits the path condition, so
 * tass explores one path per pattern of zero pivots.
 * Inputs: bounds BN, BM; 1 <= N <= BN, 1 <= M <= BM; the matrix a0.
 * Output: r, the reduced row echelon form of a0.
 *
 * Expected verdicts:
 *   tass verify gausselim_seq.c                                              holds
 *   tass compare --spec gausselim_seq.c --impl gausselim_par.c --impl-procs P holds
 */
#include <stdio.h>

#pragma TASS input int
#define BN 3
#pragma TASS input int
#define BM 3
#pragma TASS input {1 <= N && N <= BN} int
#define N 3
#pragma TASS input {1 <= M && M <= BM} int
#define M 3

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double a0[N][M];
#pragma TASS output
double r[N][M];

double a[N][M];

int main(void) {
    int i, j, c, p = 0, piv;
    double t, f;

#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            a0[i][j] = (i == 0) ? 0.0 : (double)((i * 3 + j * 5) % 7) - 2.0;
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
        p++;
    }
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            r[i][j] = a[i][j];
#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            printf("OUT r[%d][%d] = %.17g\n", i, j, r[i][j]);
#endif
    return 0;
}
