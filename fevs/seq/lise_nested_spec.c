/* fevs/seq/lise_nested_spec.c -- the LISE paper's "nested", specification:
 * s = sum over 1 <= i <= N of sum over 1 <= j <= i of i * j, by two nested loops.
 *
 * The joint invariants OUTER and INNER only mark the loops for the
 * implementation's invariants (lise_nested_impl.c).
 *
 * Input: N >= 0, no upper bound.  Output: s.
 * Expected verdict (paper: 1 + 1 processes, 79 transitions, 44 proofs, 1.1 s):
 *   tass compare --spec lise_nested_spec.c --impl lise_nested_impl.c       holds
 *   tass compare --spec lise_nested_spec.c --impl lise_nested_impl_bad.c   violated
 * Confirmed concretely: see lise_nested_impl.c.
 */
#include <stdio.h>

#pragma TASS input {N >= 0} int
#define N 6

#pragma TASS output
int s;

int main(void) {
    int i = 1, j = 1, sum = 0;

#pragma TASS joint invariant OUTER true
    while (i <= N) {
#ifdef FEVS_CONCRETE
        printf("SNAP OUTER 0 i=%d sum=%d\n", i, sum);
#endif
        j = 1;
#pragma TASS joint invariant INNER true
        while (j <= i) {
#ifdef FEVS_CONCRETE
            printf("SNAP INNER 0 i=%d j=%d sum=%d\n", i, j, sum);
#endif
            sum += i * j;
            j++;
        }
#ifdef FEVS_CONCRETE
        printf("SNAP INNER 0 i=%d j=%d sum=%d\n", i, j, sum);
#endif
        i++;
    }
#ifdef FEVS_CONCRETE
    printf("SNAP OUTER 0 i=%d sum=%d\n", i, sum);
#endif
    s = sum;
#ifdef FEVS_CONCRETE
    printf("OUT s = %d\n", s);
#endif
    return 0;
}
