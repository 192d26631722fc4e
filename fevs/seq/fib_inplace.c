/* fevs/seq/fib_inplace.c -- the golden ratio as the limit of k/j for
 * consecutive Fibonacci numbers j, k, iterated until two successive ratios
 * differ by less than TOL, or MAXIT steps (the specification of the "fib" pair).
 *
 * The pair (j, k) advances in place: k = j + k; j = k - j.
 * Inputs: TOL > 0.  Output: p, the last ratio.  MAXIT bounds the loop, so for
 * every TOL the loop stops and tass explores at most MAXIT + 1 paths.
 *
 * Expected verdicts:
 *   tass verify fib_inplace.c                                  holds
 *   tass compare --spec fib_inplace.c --impl fib_shift.c       holds
 */
#include <stdio.h>

#define MAXIT 8

#pragma TASS input {TOL > 0} double
#define TOL 0.01
#pragma TASS output
double p;

int main(void) {
    double j = 1.0, k = 1.0, err = 1.0, ratio = 1.0;
    int it = 0;

    while (err >= TOL && it < MAXIT) {
        k = j + k;
        j = k - j;
        err = k / j - ratio;
        ratio = ratio + err;
        if (err < 0)
            err = -err;
        it++;
    }
    p = ratio;
#ifdef FEVS_CONCRETE
    printf("OUT p = %.17g\n", p);
#endif
    return 0;
}
