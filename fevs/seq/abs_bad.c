/* fevs/seq/abs_bad.c -- distance |x - y| with the branches swapped.
 *
 * BUG: the test is x > y where x < y was meant, so d = y - x or d = x - y is
 * the smaller difference: d <= 0 always, and d < 0 whenever x != y.
 *
 * Expected verdict: tass verify abs_bad.c
 *   violated: assertion at the first assert (witness any x != y)
 * Fixed twin: abs_ok.c.
 */
#include <assert.h>
#include <stdio.h>

#pragma TASS input
double x;
#pragma TASS input
double y;
#pragma TASS output
double d;

int main(void) {
#ifdef FEVS_CONCRETE
    x = 1.5;
    y = 4.0;
#endif
    if (x > y) /* BUG: should be x < y */
        d = y - x;
    else
        d = x - y;
    assert(d >= 0); /* BUG caught here */
    assert(d == x - y || d == y - x);
#ifdef FEVS_CONCRETE
    printf("OUT d = %.17g\n", d);
#endif
    return 0;
}
