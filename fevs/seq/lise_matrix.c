/* fevs/seq/lise_matrix.c -- the LISE paper's "matrix": c = a + b for two
 * N x N input matrices, then assert that every entry is right, for every N.
 *
 * Loop invariants (one process: classic sequential LISE):
 *   ROWS  rows 0 .. i-1 of c are done;
 *   COLS  rows 0 .. i-1 and columns 0 .. j-1 of row i are done.
 * The column loop writes c, so its invariant carries the rows before i too.
 * COLS is one quantified claim over the done entries (k < i or l < j): written
 * as two quantified conjuncts (row i's columns, the rows before i) the prover
 * does not prove its preservation (a possible violation; adversarial_lise.rs,
 * matrix_invariant_as_two_quantified_conjuncts).
 *
 * Input: N >= 0, no upper bound; a, b symbolic.
 * Expected verdict (paper: 30 transitions, 103 proofs, 5.2 s):
 *   tass verify lise_matrix.c     holds
 * Buggy twin: lise_matrix_bad.c.
 * Confirmed concretely (gcc -fsanitize=address,undefined -DFEVS_CONCRETE,
 * fevs/lise_check.py): N = 0, 1, 2, 5, 9: both invariants hold at every arrival,
 * the final check passes, no sanitizer report.
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
        while (j < N) {
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
