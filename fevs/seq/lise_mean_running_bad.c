/* fevs/seq/lise_mean_running_bad.c -- lise_mean_running.c with a wrong
 * update: x = (x + a[i]) / 2, an exponentially weighted average, not the mean.
 * The joint invariant holds on entry (0 == 0) but is not preserved: after one
 * step x * 1 == a[0] / 2, while the specification's s == a[0].
 *
 * Input: N >= 1, no upper bound; a symbolic.  Output: m.
 * Expected verdict:
 *   tass compare --spec lise_mean_spec.c --impl lise_mean_running_bad.c   violated, invariant STEP
 * Confirmed concretely (gcc -fsanitize=address,undefined -DFEVS_CONCRETE,
 * fevs/lise_check.py): N = 1, 2, 5: at the second arrival x * i = -0.5 against
 * s = -1, and the outputs differ (N = 1: -0.5 against -1; N = 5: 0.5625
 * against 0).
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
    double x = 0.0;
    int i = 0;

#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        a[i] = 0.5 * i - 1.0;
    i = 0;
#endif
#pragma TASS joint invariant STEP i == spec.i && x * i == spec.s
    while (i < N) {
#ifdef FEVS_CONCRETE
        printf("SNAP STEP 0 i=%d x=%.17g\n", i, x);
#endif
        x = (x + a[i]) / 2; /* BUG: not the running mean */
        i++;
    }
#ifdef FEVS_CONCRETE
    printf("SNAP STEP 0 i=%d x=%.17g\n", i, x);
#endif
    m = x;
#ifdef FEVS_CONCRETE
    printf("OUT m = %.17g\n", m);
#endif
    return 0;
}
