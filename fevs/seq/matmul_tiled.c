/* fevs/seq/matmul_tiled.c -- C = A * B for N x N matrices with the three loops
 * tiled by TILE (the implementation of the "tiling" pair).
 *
 * The i, j and k loops each run over blocks of TILE indices; the last block of
 * each dimension may be shorter when TILE does not divide N.  The k blocks are
 * visited in increasing order, so each c[i][j] is even summed in the same
 * order as in matmul_plain.c.
 *
 * Same signature as matmul_plain.c (TILE is not an input).
 * Expected verdicts:
 *   tass verify matmul_tiled.c                                     holds
 *   tass compare --spec matmul_plain.c --impl matmul_tiled.c       holds
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
            for (kk = 0; kk < N; kk += TILE)
                for (i = ii; i < min(ii + TILE, N); i++)
                    for (j = jj; j < min(jj + TILE, N); j++)
                        for (k = kk; k < min(kk + TILE, N); k++)
                            c[i][j] += a[i][k] * b[k][j];
#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            printf("OUT c[%d][%d] = %.17g\n", i, j, c[i][j]);
#endif
    return 0;
}
