/* fevs/seq/factorial_iter.c -- n! by a counting loop (the specification).
 *
 * Inputs: the bound B and 0 <= n <= B.  Output: result = n!.
 * Integers are mathematical in tass, so there is no overflow to worry about
 * in the model; the concrete default n = 12 fits in a 32-bit int as well.
 *
 * Expected verdicts:
 *   tass verify factorial_iter.c                                   holds
 *   tass compare --spec factorial_iter.c --impl factorial_rec.c    holds
 *   tass compare --spec factorial_iter.c --impl factorial_bad.c    violated: not-equivalent (n = 0)
 * The paper's Fig. 10 row "factorial, n <= 200" is this pair with -i B=200.
 */
#include <stdio.h>

#pragma TASS input int
#define B 12
#pragma TASS input {0 <= n && n <= B} int
#define n 12

#pragma TASS output
long result;

int main(void) {
    long acc = 1;
    int i;

    for (i = 2; i <= n; i++)
        acc = acc * i;
    result = acc;
#ifdef FEVS_CONCRETE
    printf("OUT result = %ld\n", result);
#endif
    return 0;
}
