/* fevs/mpi/coll_axpy_seq.c -- y = ALPHA*x + yin on vectors of length N (the
 * sequential specification of the "coll_axpy" pair).
 *
 * Inputs: bound B, 1 <= N <= B, the real ALPHA, the arrays x and yin.
 * Outputs: y and its checksum ysum.
 * Expected verdicts:
 *   tass verify coll_axpy_seq.c                                                  holds
 *   tass compare --spec coll_axpy_seq.c --impl coll_axpy_par.c --impl-procs 3    holds
 */
#include <stdio.h>

#pragma TASS input int
#define B 6
#pragma TASS input {1 <= N && N <= B} int
#define N 6
#pragma TASS input double
#define ALPHA 2.5

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double x[N];
#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double yin[N];
#pragma TASS output
double y[N];
#pragma TASS output
double ysum;

int main(void) {
    int i;

#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++) {
        x[i] = 0.5 * i - 1.0;
        yin[i] = 10.0 - i;
    }
#endif
    ysum = 0.0;
    for (i = 0; i < N; i++) {
        y[i] = ALPHA * x[i] + yin[i];
        ysum += y[i];
    }
#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        printf("OUT y[%d] = %.17g\n", i, y[i]);
    printf("OUT ysum = %.17g\n", ysum);
#endif
    return 0;
}
