/* fevs/seq/sort_bubble_bad.c -- bubble sort that stops one pass too early.
 *
 * BUG: the outer loop runs N - 2 passes instead of N - 1.  For N = 2 it makes
 * no pass at all, so an input with a[0] > a[1] comes out unsorted.
 *
 * Expected verdict: tass verify sort_bubble_bad.c
 *   violated: assertion at the "#pragma TASS assert" line (witness N = 2, a[0] > a[1])
 * Fixed twin: sort_bubble.c.
 */
#include <stdio.h>

#pragma TASS input int
#define B 4
#pragma TASS input {0 <= N && N <= B} int
#define N 4

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double a[N];
#pragma TASS output
double s[N];

int main(void) {
    int i, j;
    double t;

#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        a[i] = (i * 7) % 5;
#endif
    for (i = 0; i < N; i++)
        s[i] = a[i];
    for (i = 0; i < N - 2; i++) /* BUG: should be i < N - 1 */
        for (j = 0; j < N - 1 - i; j++)
            if (s[j] > s[j + 1]) {
                t = s[j];
                s[j] = s[j + 1];
                s[j + 1] = t;
            }
    /* BUG caught by the next line */
#pragma TASS assert forall {int k | 0 <= k && k < N - 1} s[k] <= s[k + 1]
#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        printf("OUT s[%d] = %.17g\n", i, s[i]);
#endif
    return 0;
}
