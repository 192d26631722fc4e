/* fevs/seq/fib_shift.c -- the golden ratio from consecutive Fibonacci numbers,
 * written with a shift through a temporary (the implementation of the "fib" pair).
 *
 * Same signature and same stopping rule as fib_inplace.c.
 * Expected verdicts:
 *   tass verify fib_shift.c                                    holds
 *   tass compare --spec fib_inplace.c --impl fib_shift.c       holds
 */
#include <stdio.h>

#define MAXIT 8

#pragma TASS input {TOL > 0} double
#define TOL 0.01
#pragma TASS output
double p;

int main(void) {
    double i, j = 1.0, k = 1.0, err = 1.0, tmp, ratio = 1.0;
    int it;

    for (it = 0; it < MAXIT && err >= TOL; it++) {
        i = j;
        j = k;
        k = i + j;
        tmp = k / j;
        if (tmp >= ratio)
            err = tmp - ratio;
        else
            err = ratio - tmp;
        ratio = tmp;
    }
    p = ratio;
#ifdef FEVS_CONCRETE
    printf("OUT p = %.17g\n", p);
#endif
    return 0;
}
