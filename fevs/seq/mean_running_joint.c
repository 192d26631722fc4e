/* fevs/seq/mean_running_joint.c -- mean_running.c with the joint assertions of
 * the "Collective assertions" paper (Fig. 5): after step i, x * i is the sum
 * the specification (mean_sum_joint.c) has after its i-th step, and the
 * results agree.
 *
 * x_i = ((i - 1) * x_{i-1} + a[i-1]) / i equals (a[0] + ... + a[i-1]) / i over
 * the real numbers, though not bit for bit in floating point.
 *
 * Same signature as mean_sum.c.
 * Expected verdict:
 *   tass compare --spec mean_sum_joint.c --impl mean_running_joint.c   holds
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
    for (i = 1; i <= N; i++) {
        x = ((i - 1) * x + a[i - 1]) / i;
#pragma TASS joint assert STEP x * i == spec.x
    }
    m = x;
#pragma TASS joint assert FINAL m == spec.m
#ifdef FEVS_CONCRETE
    printf("OUT m = %.17g\n", m);
#endif
    return 0;
}
