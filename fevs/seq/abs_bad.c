/* fevs/seq/abs_bad.c -- distance |X - Y| with the branches swapped.
 *
 * BUG: the test is X > Y where X < Y was meant, so d = Y - X or d = X - Y is
 * the smaller difference: d <= 0 always, and d < 0 whenever X != Y.
 *
 * Expected verdict: tass verify abs_bad.c
 *   violated: assertion at the first assert (witness any X != Y)
 * Fixed twin: abs_ok.c.
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
    if (X > Y) /* BUG: should be X < Y */
        d = Y - X;
    else
        d = X - Y;
    assert(d >= 0); /* BUG caught here */
    assert(d == X - Y || d == Y - X);
#ifdef FEVS_CONCRETE
    printf("OUT d = %.17g\n", d);
#endif
    return 0;
}
