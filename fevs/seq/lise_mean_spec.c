/* fevs/seq/lise_mean_spec.c -- the LISE paper's "mean", specification: the
 * mean of N doubles as (a[0] + ... + a[N-1]) / N.
 *
 * The joint invariant STEP is the specification's own part of the composed
 * invariant (tass needs it inductive by itself: 0 <= i keeps a[i] in
 * bounds); the implementation's STEP (lise_mean_running.c) relates its state
 * to s and i here.
 *
 * Input: N >= 1, no upper bound; a symbolic.  Output: m.
 * Expected verdict (paper: 1 + 1 processes, 28 transitions, 18 proofs, 0.5 s):
 *   tass compare --spec lise_mean_spec.c --impl lise_mean_running.c       holds
 *   tass compare --spec lise_mean_spec.c --impl lise_mean_running_bad.c   violated
 * Confirmed concretely: see lise_mean_running.c.
 */
#include <stdio.h>

#pragma TASS input {N >= 1} int
#define N 5

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double a[N];
#pragma TASS output
double m;

int main(void) {
    double s = 0.0;
    int i = 0;

#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        a[i] = 0.5 * i - 1.0;
    i = 0;
#endif
#pragma TASS joint invariant STEP 0 <= i && i <= N
    while (i < N) {
#ifdef FEVS_CONCRETE
        printf("SNAP STEP 0 i=%d s=%.17g\n", i, s);
#endif
        s += a[i];
        i++;
    }
#ifdef FEVS_CONCRETE
    printf("SNAP STEP 0 i=%d s=%.17g\n", i, s);
#endif
    m = s / N;
#ifdef FEVS_CONCRETE
    printf("OUT m = %.17g\n", m);
#endif
    return 0;
}
