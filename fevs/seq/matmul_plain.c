/* fevs/seq/matmul_plain.c -- C = A * B for N x N matrices, three plain loops
 * (the specification of the "tiling" pair of the paper's Sec. 6).
 *
 * Inputs: the bound BN, the size 1 <= N <= BN, and the matrices a, b.
 * Output: c = a * b.
 *
 * Expected verdicts:
 *   tass verify matmul_plain.c                                     holds
 *   tass compare --spec matmul_plain.c --impl matmul_tiled.c       holds
 *   tass compare --spec matmul_plain.c --impl matmul_tiled_bad.c   violated: not-equivalent
 * The paper's Fig. 10 row "tiling, n <= 20" is this pair with -i BN=20.
 */
#include <stdio.h>

#pragma TASS input int
#define BN 4
#pragma TASS input {1 <= N && N <= BN} int
#define N 4

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

int main(void) {
    int i, j, k;

#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            a[i][j] = i + 2 * j;
            b[i][j] = (i * j) % 3 - 1;
        }
#endif
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++) {
            double s = 0.0;
            for (k = 0; k < N; k++)
                s += a[i][k] * b[k][j];
            c[i][j] = s;
        }
#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        for (j = 0; j < N; j++)
            printf("OUT c[%d][%d] = %.17g\n", i, j, c[i][j]);
#endif
    return 0;
}
