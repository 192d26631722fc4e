/* fevs/seq/factorial_rec.c -- n! by recursion (the implementation).
 *
 * Same signature as factorial_iter.c: inputs B and 0 <= n <= B, output result.
 * The recursion depth is n, so tass's call stack grows with the input bound.
 *
 * Expected verdicts:
 *   tass verify factorial_rec.c                                    holds
 *   tass compare --spec factorial_iter.c --impl factorial_rec.c    holds
 */
#include <stdio.h>

#pragma TASS input int
#define B 12
#pragma TASS input {0 <= n && n <= B} int
#define n 12

#pragma TASS output
long result;

long fact(int k) {
    if (k <= 1)
        return 1;
    return k * fact(k - 1);
}

int main(void) {
    result = fact(n);
#ifdef FEVS_CONCRETE
    printf("OUT result = %ld\n", result);
#endif
    return 0;
}
