/* fevs/seq/factorial_bad.c -- n! by recursion, with a wrong base case.
 *
 * BUG: the base case returns k instead of 1, so fact(0) = 0 while 0! = 1.
 * Every n >= 1 still gives the right answer (fact(1) = 1), which is why a few
 * tests with n >= 1 would not notice.
 *
 * Expected verdicts:
 *   tass verify factorial_bad.c      violated: assertion at the assert line (witness n = 0)
 *   tass compare --spec factorial_iter.c --impl factorial_bad.c
 *                                    violated: assertion (compare checks the implementation's
 *                                    own assertions too, and this one fails before the
 *                                    outputs are compared)
 * factorial_rec_bad.c has the same bug without the assert: compare finds not-equivalent.
 */
#include <assert.h>
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
    assert(result >= 1); /* BUG shows here: n! >= 1 for every n >= 0 */
#ifdef FEVS_CONCRETE
    printf("OUT result = %ld\n", result);
#endif
    return 0;
}
