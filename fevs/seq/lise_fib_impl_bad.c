/* fevs/seq/lise_fib_impl_bad.c -- lise_fib_impl.c without the absolute
 * value of the change: when the ratio falls (every other step) err is
 * negative, the loop stops early, and the joint invariant (err == spec.err)
 * fails at the third arrival: err = -0.5 here, 0.5 in the specification.
 *
 * Input: TOL > 0.  Output: p.
 * Expected verdict:
 *   tass compare --spec lise_fib_spec.c --impl lise_fib_impl_bad.c   violated, invariant GOLD
 * (for TOL > 1 both programs stop after one step and agree; for
 * 0.5 < TOL <= 1 the outputs agree but the invariant fails; for TOL <= 0.5
 * the outputs differ too).
 * Confirmed concretely (gcc -fsanitize=address,undefined -DFEVS_CONCRETE,
 * fevs/lise_check.py, and an exact rational simulation): TOL = 0.5, 1e-3, 1e-6:
 * the third arrival has err -0.5 against 0.5, the outputs differ (1.5 against
 * 1.666..., 1.6181..., 1.6180338...); TOL = 0.75: the invariant fails at the
 * third arrival, the outputs agree; TOL = 2: no failure.
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
        last = err + last; /* BUG: err stays negative when the ratio falls */
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
