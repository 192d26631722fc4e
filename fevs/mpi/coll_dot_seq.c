/* fevs/mpi/coll_dot_seq.c -- the inner products u.v and u.u of two vectors of
 * length N (the sequential specification of the "coll_dot" pair).
 *
 * Inputs: bound B, 0 <= N <= B, the arrays u and v.  Outputs: uv and uu.
 * Expected verdicts:
 *   tass verify coll_dot_seq.c                                                 holds
 *   tass compare --spec coll_dot_seq.c --impl coll_dot_par.c --impl-procs 3    holds
 */
#include <stdio.h>

#pragma TASS input int
#define B 6
#pragma TASS input {0 <= N && N <= B} int
#define N 6

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double u[N];
#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double v[N];
#pragma TASS output
double uv;
#pragma TASS output
double uu;

int main(void) {
    int i;
    double s = 0.0, t = 0.0;

#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++) {
        u[i] = 1.0 + 0.25 * i;
        v[i] = 3.0 - i;
    }
#endif
    for (i = 0; i < N; i++) {
        s += u[i] * v[i];
        t += u[i] * u[i];
    }
    uv = s;
    uu = t;
#ifdef FEVS_CONCRETE
    printf("OUT uv = %.17g\n", uv);
    printf("OUT uu = %.17g\n", uu);
#endif
    return 0;
}
