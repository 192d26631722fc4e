/* fevs/seq/prefix_sum_bad.c -- inclusive prefix sums with the first element's
 * special case "simplified" away.
 *
 * BUG: the loop starts at i = 0 and reads s[i - 1] = s[-1].
 *
 * Expected verdict: tass verify prefix_sum_bad.c
 *   violated: out-of-bounds at the loop body (index -1, for every N)
 * Fixed twin: prefix_sum_ok.c.
 */
#include <stdio.h>

#pragma TASS input int
#define B 6
#pragma TASS input {1 <= N && N <= B} int
#define N 6

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double a[N];
#pragma TASS output
double s[N];

int main(void) {
    int i;

#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        a[i] = i * i - 3;
#endif
    for (i = 0; i < N; i++)
        s[i] = s[i - 1] + a[i]; /* BUG: s[-1] when i = 0 */
    return 0;
}
