/* fevs/seq/leak_bad.c -- moving average of width W with an early exit that
 * leaks the scratch buffer.
 *
 * BUG: the buffer is allocated before the "all inputs equal, nothing to do"
 * shortcut, and that return path never frees it.  The shortcut is taken only
 * when every input equals a[0], so ordinary tests with varied data pass.
 *
 * Expected verdict: tass verify leak_bad.c
 *   violated: memory-leak (the object allocated at the malloc line; witness
 *   e.g. N = 1)
 * Fixed twin: leak_ok.c.
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
    int i, j, lo, constant;

    if (N == 0)
        return;
    window = (double *)malloc(N * sizeof(double)); /* BUG: leaked below */
    constant = 1;
    for (i = 0; i < N; i++) {
        window[i] = a[i];
        if (a[i] != a[0])
            constant = 0;
    }
    if (constant) {
        for (i = 0; i < N; i++)
            avg[i] = a[0];
        return; /* BUG: window is not freed on this path */
    }
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
