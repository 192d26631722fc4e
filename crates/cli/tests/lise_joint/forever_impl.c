/* impl: the same sum in x */
#include <stdio.h>
#pragma TASS input {N >= 1} int
#define N 3
#ifndef CONCRETE
#pragma TASS input
#endif
double a[N];
#pragma TASS output
double total;
int main(void) {
    double x = 0;
    int i = 0;
#ifdef CONCRETE
    for (i = 0; i < N; i++)
        a[i] = 3 * i + 1;
    i = 0;
#endif
#pragma TASS joint invariant L i == spec.i && x == spec.s
    while (i < N) {
#ifdef CONCRETE
        printf("SNAP L i=%d x=%g\n", i, x);
#endif
        x = x + a[i];
        i++;
    }
#ifdef CONCRETE
    printf("SNAP L i=%d x=%g\n", i, x);
#endif
    total = x;
    while (N == 7) /* BUG: never ends for N = 7 */
        ;
#ifdef CONCRETE
    printf("OUT total=%g\n", total);
#endif
    return 0;
}
