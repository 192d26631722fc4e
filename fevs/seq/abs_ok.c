/* fevs/seq/abs_ok.c -- distance |x - y| of two reals, checked with C assert.
 *
 * Inputs: x, y.  Output: d = |x - y|.
 * Expected verdict: tass verify abs_ok.c   holds
 * Buggy twin: abs_bad.c.
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
    if (x < y)
        d = y - x;
    else
        d = x - y;
    assert(d >= 0);
    assert(d == x - y || d == y - x);
#ifdef FEVS_CONCRETE
    printf("OUT d = %.17g\n", d);
#endif
    return 0;
}
