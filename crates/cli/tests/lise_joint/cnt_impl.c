#include <stdio.h>
#pragma TASS input {N >= 0} int
#define N 3
#pragma TASS output
int total;
int main(void) {
    int i = 0;
#pragma TASS joint invariant L i == spec.i
    while (i < N) {
#ifdef CONCRETE
        printf("SNAP L i=%d\n", i);
#endif
        i++;
    }
#ifdef CONCRETE
    printf("SNAP L i=%d\n", i);
#endif
    total = 0;
#ifdef CONCRETE
    printf("OUT total=%d\n", total);
#endif
    return 0;
}
