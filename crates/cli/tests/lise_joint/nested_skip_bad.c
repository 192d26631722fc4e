/* nested_skip_bad.c -- fevs/seq/lise_nested_impl.c with the inner loop skipped on even i
 * the same sum as sum over i of i * (1 + ... + i), the inner loop adding up
 * t = 1 + ... + i and the outer one adding i * t.
 *
 * Joint invariants (k-th arrivals paired with the specification's):
 *   OUTER  the same i and the same sum;
 *   INNER  the same i and j, and the specification's sum is ours plus i * t.
 *
 * Input: N >= 0, no upper bound.  Output: s.
 * Expected verdict: tass compare --spec lise_nested_spec.c --impl lise_nested_impl.c   holds
 * Confirmed concretely (gcc -fsanitize=address,undefined -DFEVS_CONCRETE,
 * fevs/lise_check.py): N = 0, 1, 2, 6, 30: the same arrivals of OUTER and INNER,
 * both invariants hold at each, the outputs agree (N = 6: s = 266).
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
        if (i % 2 == 0)
            j = i + 1; /* BUG: skips the inner loop on even i */
#pragma TASS joint invariant INNER i == spec.i && j == spec.j && spec.sum == sum + i * t
        while (j <= i) {
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
