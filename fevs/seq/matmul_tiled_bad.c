/* fevs/seq/matmul_tiled_bad.c -- tiled C = A * B that forgets partial tiles.
 *
 * BUG: the k-block loop only visits whole tiles (kk + TILE <= N), so when TILE
 * does not divide N the last N % TILE terms of every dot product are dropped.
 * With TILE = 3 the result is right for N = 3 and wrong for N = 1, 2, 4, ...
 *
 * Same signature as matmul_plain.c.
 * Expected verdicts:
 *   tass verify matmul_tiled_bad.c                                   holds (no run-time error)
 *   tass compare --spec matmul_plain.c --impl matmul_tiled_bad.c     violated: not-equivalent
 */
#include <stdio.h>

#pragma TASS input int
#define BN 4
#pragma TASS input {1 <= N && N <= BN} int
#define N 4

#define TILE 3

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double a[N][N];
#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double b[N][N];
#pragma TASS output
double c[N][N];

int min(int x, int y) { return x < y ? x : y; }

int main(void) {
    int i, j, k, ii, jj, kk;

#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            a[i][j] = i + 2 * j;
            b[i][j] = (i * j) % 3 - 1;
        }
#endif
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            c[i][j] = 0.0;
    for (ii = 0; ii < N; ii += TILE)
        for (jj = 0; jj < N; jj += TILE)
            for (kk = 0; kk + TILE <= N; kk += TILE) /* BUG: skips the partial tile */
                for (i = ii; i < min(ii + TILE, N); i++)
                    for (j = jj; j < min(jj + TILE, N); j++)
                        for (k = kk; k < kk + TILE; k++)
                            c[i][j] += a[i][k] * b[k][j];
#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            printf("OUT c[%d][%d] = %.17g\n", i, j, c[i][j]);
#endif
    return 0;
}
