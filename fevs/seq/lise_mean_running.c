/* fevs/seq/lise_mean_running.c -- the LISE paper's "mean", implementation: a
 * running mean, x_{i+1} = (i x_i + a[i]) / (i + 1), which equals
 * (a[0] + ... + a[i]) / (i + 1) over the real numbers (not bit for bit in
 * floating point; tass's doubles are reals).
 *
 * Joint invariant STEP (k-th arrival here with the specification's k-th):
 * the same i, and x * i is the specification's partial sum s.  After the loop
 * (i == N >= 1) that gives x == s / N, the specification's output.
 *
 * Input: N >= 1, no upper bound; a symbolic.  Output: m.
 * Expected verdict: tass compare --spec lise_mean_spec.c --impl lise_mean_running.c   holds
 * Confirmed concretely (gcc -fsanitize=address,undefined -DFEVS_CONCRETE,
 * fevs/lise_check.py): N = 1, 2, 5, 17: at every k-th arrival i agrees and
 * x * i equals the specification's s up to rounding (relative 1e-12), and the
 * outputs m agree up to rounding.
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
        x = (i * x + a[i]) / (i + 1);
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
