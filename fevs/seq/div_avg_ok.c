/* fevs/seq/div_avg_ok.c -- the mean of the positive entries of an array, with
 * the "no positive entry" case handled.
 *
 * Inputs: the bound B, 0 <= N <= B, the array a.  Output: mean_pos (0 when no
 * entry is positive) and count.
 * Expected verdict: tass verify div_avg_ok.c   holds
 * Buggy twin: div_avg_bad.c.
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
    if (count > 0)
        mean_pos = sum / count;
    else
        mean_pos = 0.0;
#ifdef FEVS_CONCRETE
    printf("OUT mean_pos = %.17g\n", mean_pos);
    printf("OUT count = %d\n", count);
#endif
    return 0;
}
