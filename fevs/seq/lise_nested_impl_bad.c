/* fevs/seq/lise_nested_impl_bad.c -- lise_nested_impl.c whose inner loop
 * stops one step early (j < i): t misses the term i, so the implementation
 * leaves its inner loop while the specification enters its last iteration.
 *
 * Input: N >= 0, no upper bound.  Output: s.
 * Expected verdict:
 *   tass compare --spec lise_nested_spec.c --impl lise_nested_impl_bad.c   violated, invariant INNER
 * (for N == 0 the programs agree; for every N >= 1 they do not).
 * Confirmed concretely (gcc -fsanitize=address,undefined -DFEVS_CONCRETE,
 * fevs/lise_check.py): N = 1, 2, 6: the first INNER exit arrival of the
 * implementation is paired with an entry of the specification (j = 1 = i,
 * the specification enters with j = 1), and the outputs differ (N = 6: 175
 * against 266).
 */
#include <stdio.h>

#pragma TASS input {N >= 0} int
#define N 6

#pragma TASS output
int s;

int main(void) {
    int i = 1, j = 1, t = 0, sum = 0;

#pragma TASS joint invariant OUTER i == spec.i && sum == spec.sum
    while (i <= N) {
#ifdef FEVS_CONCRETE
        printf("SNAP OUTER 0 i=%d sum=%d\n", i, sum);
#endif
        t = 0;
        j = 1;
#pragma TASS joint invariant INNER i == spec.i && j == spec.j && spec.sum == sum + i * t
        while (j < i) { /* BUG: misses j == i */
#ifdef FEVS_CONCRETE
            printf("SNAP INNER 0 i=%d j=%d sum=%d t=%d\n", i, j, sum, t);
#endif
            t += j;
            j++;
        }
#ifdef FEVS_CONCRETE
        printf("SNAP INNER 0 i=%d j=%d sum=%d t=%d\n", i, j, sum, t);
#endif
        sum += i * t;
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
