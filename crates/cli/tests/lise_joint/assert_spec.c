/* spec: sums a[] through a pointer to s */
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
    double s = 0;
    double *p = &s;
    int i = 0;
#ifdef CONCRETE
    for (i = 0; i < N; i++)
        a[i] = 3 * i + 1;
    i = 0;
#endif
#pragma TASS joint invariant L 0 <= i && i <= N
    while (i < N) {
#ifdef CONCRETE
        printf("SNAP L i=%d s=%g\n", i, s);
#endif
        *p = *p + a[i];
        i++;
    }
#ifdef CONCRETE
    printf("SNAP L i=%d s=%g\n", i, s);
#endif
#pragma TASS joint assert A 1
    total = s;
#ifdef CONCRETE
    printf("OUT total=%g\n", total);
#endif
    return 0;
}
