/* fevs/seq/mean_sum_joint.c -- mean_sum.c with the joint assertions of the
 * "Collective assertions" paper (Fig. 5): they mark the end of each iteration
 * (STEP) and the result (FINAL), where mean_running_joint.c relates its state
 * to this one's.
 *
 * Inputs: the bound B, 1 <= N <= B, the array a.  Output: m, the mean.
 *
 * Expected verdicts:
 *   tass compare --spec mean_sum_joint.c --impl mean_running_joint.c      holds
 *   tass compare --spec mean_sum_joint.c --impl mean_running_joint_bad.c  collective-assertion
 */
#include <stdio.h>

#pragma TASS input int
#define B 10
#pragma TASS input {1 <= N && N <= B} int
#define N 10

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double a[N];
#pragma TASS output
double m;

int main(void) {
    double x = 0.0;
    int i;

#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        a[i] = 0.5 * i - 1.0;
#endif
    for (i = 0; i < N; i++) {
        x = x + a[i];
#pragma TASS joint assert STEP true
    }
    m = x / N;
#pragma TASS joint assert FINAL true
#ifdef FEVS_CONCRETE
    printf("OUT m = %.17g\n", m);
#endif
    return 0;
}
