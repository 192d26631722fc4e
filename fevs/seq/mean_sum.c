/* fevs/seq/mean_sum.c -- the mean of N numbers by the definition: add them all
 * up, then divide by N (the specification).
 *
 * Inputs: the bound B, 1 <= N <= B, the array a.  Output: m, the mean.
 *
 * Expected verdicts:
 *   tass verify mean_sum.c                                  holds
 *   tass compare --spec mean_sum.c --impl mean_running.c    holds (over the reals;
 *                                                          --arith herbrand would not prove it)
 */
#include <stdio.h>

#pragma TASS input int
#define B 10
#pragma TASS input {1 <= N && N <= B} int
#define N 10

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double a[N];
#pragma TASS output
double m;

int main(void) {
    double x = 0.0;
    int i;

#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        a[i] = 0.5 * i - 1.0;
#endif
    for (i = 0; i < N; i++)
        x = x + a[i];
    m = x / N;
#ifdef FEVS_CONCRETE
    printf("OUT m = %.17g\n", m);
#endif
    return 0;
}
