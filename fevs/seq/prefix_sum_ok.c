/* fevs/seq/prefix_sum_ok.c -- inclusive prefix sums s[i] = a[0] + ... + a[i].
 *
 * Inputs: the bound B, 1 <= N <= B, the array a.  Output: s.
 * Expected verdict: tass verify prefix_sum_ok.c   holds
 * Buggy twin: prefix_sum_bad.c.
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
    s[0] = a[0];
    for (i = 1; i < N; i++)
        s[i] = s[i - 1] + a[i];
#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        printf("OUT s[%d] = %.17g\n", i, s[i]);
#endif
    return 0;
}
