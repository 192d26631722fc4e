/* fevs/seq/sort_bubble.c -- bubble sort of N reals, checked by a quantified
 * assertion that the result is sorted.
 *
 * Inputs: the bound B, 0 <= N <= B, the array a.  Output: s, a sorted copy of a.
 * Every comparison of two symbolic inputs splits the path condition, so the
 * number of paths grows like N!; keep B small.
 *
 * Expected verdict: tass verify sort_bubble.c   holds
 * Buggy twin: sort_bubble_bad.c.
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
    for (i = 0; i < N - 1; i++)
        for (j = 0; j < N - 1 - i; j++)
            if (s[j] > s[j + 1]) {
                t = s[j];
                s[j] = s[j + 1];
                s[j + 1] = t;
            }
#pragma TASS assert forall {int k | 0 <= k && k < N - 1} s[k] <= s[k + 1]
#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        printf("OUT s[%d] = %.17g\n", i, s[i]);
#endif
    return 0;
}
