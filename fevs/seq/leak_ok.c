/* fevs/seq/leak_ok.c -- moving average of width W over N inputs, computed in a
 * heap-allocated scratch buffer that is freed on every path.
 *
 * Inputs: the bound B, 0 <= N <= B, the array a.  Output: avg[N] (avg[i] is the
 * mean of a[i-W+1..i], with fewer terms at the start).
 * Expected verdict: tass verify leak_ok.c   holds
 * Buggy twin: leak_bad.c.
 */
#include <stdio.h>
#include <stdlib.h>

#define W 2

#pragma TASS input int
#define B 5
#pragma TASS input {0 <= N && N <= B} int
#define N 5

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double a[N];
#pragma TASS output
double avg[N];

void moving_average(void) {
    double *window;
    int i, j, lo;

    if (N == 0)
        return;
    window = (double *)malloc(N * sizeof(double));
    for (i = 0; i < N; i++)
        window[i] = a[i];
    for (i = 0; i < N; i++) {
        double sum = 0.0;
        lo = i - W + 1;
        if (lo < 0)
            lo = 0;
        for (j = lo; j <= i; j++)
            sum += window[j];
        avg[i] = sum / (i - lo + 1);
    }
    free(window);
}

int main(void) {
#ifdef FEVS_CONCRETE
    int i;
    for (i = 0; i < N; i++)
        a[i] = 3 * i % 4;
#endif
    moving_average();
#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        printf("OUT avg[%d] = %.17g\n", i, avg[i]);
#endif
    return 0;
}
