/* fevs/seq/lise_fib_impl.c -- the LISE paper's "fib" (its Fig. 4),
 * implementation: the same ratios computed differently, k = j + k; j = k - j
 * (the old k), the signed change first and its absolute value after.
 *
 * Joint invariant GOLD (k-th arrival here with the specification's k-th):
 * the same j, k, last ratio and error, and j, k > 0 (so k / j is defined).
 *
 * Input: TOL > 0.  Output: p.
 * Expected verdict: tass compare --spec lise_fib_spec.c --impl lise_fib_impl.c   holds
 * Confirmed concretely (gcc -fsanitize=address,undefined -DFEVS_CONCRETE,
 * fevs/lise_check.py, and an exact rational simulation of both programs in the
 * same script): TOL = 0.5, 0.1, 1e-3, 1e-6, 1e-12: the same number of
 * arrivals, the invariant's equalities hold at each (exactly over the
 * rationals; up to rounding in doubles) and the outputs p agree.
 */
#include <stdio.h>

#pragma TASS input {TOL > 0} double
#define TOL 0.000001

#pragma TASS output
double p;

int main(void) {
    double j = 1, k = 1, last = 1, err = 1;

#pragma TASS joint invariant GOLD err == spec.err && last == spec.last && j > 0 && j == spec.j && \
    k == spec.k && k > 0
    while (err >= TOL) {
#ifdef FEVS_CONCRETE
        printf("SNAP GOLD 0 j=%.17g k=%.17g p=%.17g err=%.17g\n", j, k, last, err);
#endif
        k = j + k;
        j = k - j;
        err = k / j - last;
        last = err + last;
        if (err < 0)
            err = -err;
    }
#ifdef FEVS_CONCRETE
    printf("SNAP GOLD 0 j=%.17g k=%.17g p=%.17g err=%.17g\n", j, k, last, err);
#endif
    p = last;
#ifdef FEVS_CONCRETE
    printf("OUT p = %.17g\n", p);
#endif
    return 0;
}
