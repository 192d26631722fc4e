/* fevs/seq/factorial_rec_bad.c -- n! by recursion with a wrong base case and no
 * assertion to catch it.
 *
 * BUG: the base case returns k instead of 1, so fact(0) = 0 while 0! = 1.
 * Same signature as factorial_iter.c.
 *
 * Expected verdicts:
 *   tass verify factorial_rec_bad.c                                  holds (nothing to check)
 *   tass compare --spec factorial_iter.c --impl factorial_rec_bad.c  violated: not-equivalent
 *                                                                    (witness n = 0)
 * Fixed twin: factorial_rec.c.
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
        return k; /* BUG: should be 1 */
    return k * fact(k - 1);
}

int main(void) {
    result = fact(n);
#ifdef FEVS_CONCRETE
    printf("OUT result = %ld\n", result);
#endif
    return 0;
}
