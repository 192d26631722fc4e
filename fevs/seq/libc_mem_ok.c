/* fevs/seq/libc_mem_ok.c -- the C library calls numerical codes use for
 * buffers and magnitudes: memset, memcpy, memmove (overlapping), memcmp, abs,
 * labs and fabs, with their headers included (C requires the declarations).
 *
 * Inputs: K (an int in -1000..1000), X (a double).
 * Expected verdict: tass verify libc_mem_ok.c   holds
 * Buggy twin: libc_mem_bad.c. gcc -fsanitize=address,undefined, K = -1000,
 *   -1, 0, 7, 1000 and X = -2.5, 0, 3: every run exits 0.
 */
#include <assert.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define N 6

#pragma TASS input {-1000 <= K && K <= 1000} int
#define K 7
#pragma TASS input double
#define X (-2.5)

int main(void) {
    int a[N], b[N], c[N];
    memset(a, 0, sizeof a);
    for (int i = 0; i < N; i++)
        assert(a[i] == 0);
    for (int i = 0; i < N; i++)
        a[i] = K + i;
    memcpy(b, a, sizeof a);
    memcpy(c, a, sizeof a);
    /* Shift the first N - 1 elements up by one, in place: the ranges overlap,
     * which memmove allows. */
    memmove(&b[1], &b[0], (N - 1) * sizeof b[0]);
    assert(b[0] == K && b[1] == K);
    for (int i = 2; i < N; i++)
        assert(b[i] == a[i - 1]);
    assert(memcmp(a, c, sizeof a) == 0);
    c[0] = K - 1;
    assert(memcmp(a, c, sizeof a) != 0);
    assert(abs(K) >= 0 && (abs(K) == K || abs(K) == -K));
    assert(labs((long)K - 2000) == 2000 - (long)K);
    assert(fabs(X) >= 0.0 && (fabs(X) == X || fabs(X) == -X));
    return 0;
}
