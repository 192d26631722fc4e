/* fevs/seq/spin_branches_ok.c -- branches on an input, then, for one input value,
 * a loop that never ends: its states repeat (a cycle of the state graph, closed
 * by state matching), while the other paths go on to a check.  Written for the
 * parallel search (--jobs N): the parts split at the branches and share the
 * states they save, and the verdict and the cycle must come out as with one
 * thread.
 *
 * s counts 1 per input A, B, C that is 1 and 2 per input that is 0; when all
 * are 0 (s == 6) t cycles 0, 2, 0, ... and never reaches 5.  Otherwise the
 * result is checked: 3 <= s <= 6, and s == 3 only when all are 1.
 * Inputs: A, B, C in {0, 1}.  Output: result = s.
 * A concrete run with A = B = C = 0 does not end; the others end normally.
 *
 * Expected verdict: tass verify spin_branches_ok.c   holds (also with --jobs 2)
 * Buggy twin: spin_branches_bad.c (its check fails when two inputs are 1).
 */
#include <assert.h>
#include <stdio.h>

#pragma TASS input {0 <= A && A <= 1} int
#define A 1
#pragma TASS input {0 <= B && B <= 1} int
#define B 0
#pragma TASS input {0 <= C && C <= 1} int
#define C 1

#pragma TASS output
int result;

int main(void) {
    int t = 0, s = 0;
    s += A ? 1 : 2;
    s += B ? 1 : 2;
    s += C ? 1 : 2;
    if (s == 6) {
        while (t != 5)
            t = (t + 2) % 4;
    }
    assert(3 <= s && s <= 6 && (s != 3 || (A && B && C)));
    result = s;
#ifdef FEVS_CONCRETE
    printf("OUT result = %d\n", result);
#endif
    return 0;
}
