/* fevs/seq/nested_double.c -- s = sum over i < N, j < M of a[i] * b[j], as a
 * doubly nested loop (the specification of the "nested" pair).
 *
 * Inputs: the bound B, 0 <= N <= B, 0 <= M <= B, arrays a[N] and b[M].
 * Output: s.
 *
 * Expected verdicts:
 *   tass verify nested_double.c                                     holds
 *   tass compare --spec nested_double.c --impl nested_factored.c    holds (real arithmetic:
 *                                                                   needs distributivity)
 */
#include <stdio.h>

#pragma TASS input int
#define B 4
#pragma TASS input {0 <= N && N <= B} int
#define N 4
#pragma TASS input {0 <= M && M <= B} int
#define M 3

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double a[N];
#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double b[M];
#pragma TASS output
double s;

int main(void) {
    double acc = 0.0;
    int i, j;

#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        a[i] = i + 1;
    for (j = 0; j < M; j++)
        b[j] = 2 - j;
#endif
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            acc += a[i] * b[j];
    s = acc;
#ifdef FEVS_CONCRETE
    printf("OUT s = %.17g\n", s);
#endif
    return 0;
}
