#include <stdio.h>
#pragma TASS input {N >= 0} int
#define N 3
#pragma TASS output
int total;
int main(void) {
    int i = 0, x = 0;
#pragma TASS joint invariant L 0 <= i && i <= N && x == 2 * i
    while (i < N) {
#ifdef CONCRETE
        printf("SNAP L i=%d x=%d\n", i, x);
#endif
        x += 2;
        i++;
    }
#ifdef CONCRETE
    printf("SNAP L i=%d x=%d\n", i, x);
#endif
    total = x;
#ifdef CONCRETE
    printf("OUT total=%d\n", total);
#endif
    return 0;
}
