/* fevs/mpi/matmat_seq.c -- C = A * B for an N x L matrix A and an L x M matrix
 * B (the sequential specification of the "manager-worker" pair).
 *
 * Inputs: bounds BN, BL, BM; sizes 1 <= N <= BN, 1 <= L <= BL, 1 <= M <= BM;
 * the matrices a and b.  Output: c.
 * Expected verdicts:
 *   tass verify matmat_seq.c                                             holds
 *   tass compare --spec matmat_seq.c --impl matmat_mw.c --impl-procs P   holds (P >= 2)
 * The paper's Fig. 10 rows "manager-worker, l <= 2, m <= 2, n <= 10" are this
 * compare with -i BL=2 -i BM=2 -i BN=10 and --impl-procs 7 and 11.
 */
#include <stdio.h>

#pragma TASS input int
#define BN 3
#pragma TASS input int
#define BL 2
#pragma TASS input int
#define BM 2
#pragma TASS input {1 <= N && N <= BN} int
#define N 3
#pragma TASS input {1 <= L && L <= BL} int
#define L 2
#pragma TASS input {1 <= M && M <= BM} int
#define M 2

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double a[N][L];
#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double b[L][M];
#pragma TASS output
double c[N][M];

int main(void) {
    int i, j, k;

#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        for (k = 0; k < L; k++)
            a[i][k] = i - k + 0.5;
    for (k = 0; k < L; k++)
        for (j = 0; j < M; j++)
            b[k][j] = 2 * k + j;
#endif
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++) {
            c[i][j] = 0.0;
            for (k = 0; k < L; k++)
                c[i][j] += a[i][k] * b[k][j];
        }
#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            printf("OUT c[%d][%d] = %.17g\n", i, j, c[i][j]);
#endif
    return 0;
}
