/* fevs/seq/div_avg_bad.c -- the mean of the positive entries of an array,
 * forgetting the case where there is none.
 *
 * BUG: sum / count with count = 0 when no entry is positive (or N = 0).
 *
 * Expected verdict: tass verify div_avg_bad.c
 *   violated: division-by-zero at the "sum / count" line (witness N = 0, or all a[i] <= 0)
 * Fixed twin: div_avg_ok.c.
 */
#include <stdio.h>

#pragma TASS input int
#define B 3
#pragma TASS input {0 <= N && N <= B} int
#define N 3

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double a[N];
#pragma TASS output
double mean_pos;
#pragma TASS output
int count;

int main(void) {
    double sum = 0.0;
    int i;

#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        a[i] = 2 * i - 1;
#endif
    count = 0;
    for (i = 0; i < N; i++)
        if (a[i] > 0) {
            sum += a[i];
            count++;
        }
    mean_pos = sum / count; /* BUG: count may be 0 */
#ifdef FEVS_CONCRETE
    printf("OUT mean_pos = %.17g\n", mean_pos);
    printf("OUT count = %d\n", count);
#endif
    return 0;
}
