/* fevs/seq/abs_ok.c -- distance |X - Y| of two reals, checked with C assert.
 *
 * Inputs: X, Y.  Output: d = |X - Y|.
 * Expected verdict: tass verify abs_ok.c   holds
 * Buggy twin: abs_bad.c.
 */
#include <assert.h>
#include <stdio.h>

#pragma TASS input double
#define X 1.5
#pragma TASS input double
#define Y 4.0
#pragma TASS output
double d;

int main(void) {
    if (X < Y)
        d = Y - X;
    else
        d = X - Y;
    assert(d >= 0);
    assert(d == X - Y || d == Y - X);
#ifdef FEVS_CONCRETE
    printf("OUT d = %.17g\n", d);
#endif
    return 0;
}
