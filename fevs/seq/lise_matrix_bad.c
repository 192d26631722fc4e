/* fevs/seq/lise_matrix_bad.c -- lise_matrix.c whose column loop stops one
 * column early: the last column of c keeps its initial 0 instead of a + b.
 * The invariant COLS still holds, but ROWS is not preserved (row i lacks its
 * last column when i is incremented), and the final check fails for N >= 1.
 *
 * Input: N >= 0, no upper bound; a, b symbolic.
 * Expected verdict: tass verify lise_matrix_bad.c    violated, invariant ROWS
 * (not preserved).
 * Confirmed concretely (gcc -fsanitize=address,undefined -DFEVS_CONCRETE,
 * fevs/lise_check.py): N = 1, 2, 5: ROWS false at the second arrival, the
 * assertion fails (c[0][N-1] = 0, a + b = 1 - 2.5 (N - 1) + ... != 0); N = 0: passes.
 */
#include <assert.h>
#include <stdio.h>

#pragma TASS input {N >= 0} int
#define N 5

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

#ifdef FEVS_CONCRETE
/* The invariants evaluated concretely; printed at every arrival. */
static int rows_done(int upto) {
    int k, l;
    for (k = 0; k < upto; k++)
        for (l = 0; l < N; l++)
            if (c[k][l] != a[k][l] + b[k][l])
                return 0;
    return 1;
}
static int cols_done(int row, int upto) {
    int l;
    for (l = 0; l < upto; l++)
        if (c[row][l] != a[row][l] + b[row][l])
            return 0;
    return 1;
}
#endif

int main(void) {
    int i = 0, j = 0;

#ifdef FEVS_CONCRETE
    int k, l;

    for (k = 0; k < N; k++)
        for (l = 0; l < N; l++) {
            a[k][l] = k - 2.5 * l;
            b[k][l] = 1.0 + k * l;
        }
#endif
    /* BUG: ROWS is not preserved (the column loop below stops early) */
#pragma TASS collective invariant ROWS 0 <= i && i <= N && \
    forall {int k | 0 <= k && k < i} forall {int l | 0 <= l && l < N} c[k][l] == a[k][l] + b[k][l]
    while (i < N) {
#ifdef FEVS_CONCRETE
        printf("SNAP ROWS 0 ok=%d\n", 0 <= i && i <= N && rows_done(i));
#endif
        j = 0;
#pragma TASS collective invariant COLS 0 <= i && i < N && 0 <= j && j <= N && \
    forall {int k | 0 <= k && k <= i} forall {int l | 0 <= l && l < N && (k < i || l < j)} \
    c[k][l] == a[k][l] + b[k][l]
        while (j < N - 1) { /* BUG: stops at N - 1, so ROWS is not preserved */
#ifdef FEVS_CONCRETE
            printf("SNAP COLS 0 ok=%d\n", 0 <= j && j <= N && cols_done(i, j) && rows_done(i));
#endif
            c[i][j] = a[i][j] + b[i][j];
            j++;
        }
#ifdef FEVS_CONCRETE
        printf("SNAP COLS 0 ok=%d\n", 0 <= j && j <= N && cols_done(i, j) && rows_done(i));
#endif
        i++;
    }
#ifdef FEVS_CONCRETE
    printf("SNAP ROWS 0 ok=%d\n", 0 <= i && i <= N && rows_done(i));
#endif
#pragma TASS assert forall {int k | 0 <= k && k < N} forall {int l | 0 <= l && l < N} c[k][l] == a[k][l] + b[k][l]
#ifdef FEVS_CONCRETE
    /* the same check as the pragma above, for the concrete run */
    for (k = 0; k < N; k++)
        for (l = 0; l < N; l++)
            assert(c[k][l] == a[k][l] + b[k][l]);
    printf("OUT done = %d\n", N);
#endif
    return 0;
}
