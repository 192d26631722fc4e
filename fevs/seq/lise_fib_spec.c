/* fevs/seq/lise_fib_spec.c -- the LISE paper's "fib" (its Fig. 4),
 * specification: the ratio of consecutive Fibonacci numbers, k / j, until two
 * successive ratios differ by less than TOL (it tends to the golden ratio).
 *
 * The joint invariant GOLD is the specification's own part of the composed
 * invariant (inductive by itself: j, k > 0 keeps k / j defined); the
 * implementation's GOLD (lise_fib_impl.c) relates the two programs.
 *
 * Input: TOL > 0, any real.  Output: p, the last ratio.
 * Expected verdict (paper: 1 + 1 processes, 60 transitions, 29 proofs, 1.4 s):
 *   tass compare --spec lise_fib_spec.c --impl lise_fib_impl.c       holds
 *   tass compare --spec lise_fib_spec.c --impl lise_fib_impl_bad.c   violated
 * Confirmed concretely: see lise_fib_impl.c.
 */
#include <stdio.h>

#pragma TASS input {TOL > 0} double
#define TOL 0.000001

#pragma TASS output
double p;

int main(void) {
    double i, j = 1, k = 1, ratio, err = 1, last = 1;

#pragma TASS joint invariant GOLD j > 0 && k > 0
    while (err >= TOL) {
#ifdef FEVS_CONCRETE
        printf("SNAP GOLD 0 j=%.17g k=%.17g p=%.17g err=%.17g\n", j, k, last, err);
#endif
        i = j;
        j = k;
        k = i + j;
        ratio = k / j;
        if (ratio >= last)
            err = ratio - last;
        else
            err = last - ratio;
        last = ratio;
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
