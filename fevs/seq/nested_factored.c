/* fevs/seq/nested_factored.c -- s = (sum of a[i]) * (sum of b[j]) (the
 * implementation of the "nested" pair): two single loops and one product
 * instead of N * M products.
 *
 * Same signature as nested_double.c.
 * Expected verdicts:
 *   tass verify nested_factored.c                                   holds
 *   tass compare --spec nested_double.c --impl nested_factored.c    holds
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
    double sa = 0.0, sb = 0.0;
    int i, j;

#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        a[i] = i + 1;
    for (j = 0; j < M; j++)
        b[j] = 2 - j;
#endif
    for (i = 0; i < N; i++)
        sa += a[i];
    for (j = 0; j < M; j++)
        sb += b[j];
    s = sa * sb;
#ifdef FEVS_CONCRETE
    printf("OUT s = %.17g\n", s);
#endif
    return 0;
}
