/* fevs/mpi/montecarlo_sym_seq.c -- estimate pi from NPTS points of the unit
 * square with delta(x*x + y*y, 1.0) (1 inside the quarter disc, else 0), as
 * in the comparative paper's monte (the sequential specification of the
 * "monte-carlo pi, symmetric" pair).  Its path condition and outputs do not
 * change when the points are permuted.
 *
 * Expected verdicts:
 *   tass verify montecarlo_sym_seq.c                                                   holds
 *   tass compare --spec montecarlo_sym_seq.c --impl montecarlo_sym_par.c --impl-procs P  holds
 */
#include <stdio.h>
#include <tass.h>

#pragma TASS input {1 <= NPTS && NPTS <= 8} int
#define NPTS 4

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double rx[NPTS];
#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double ry[NPTS];
#pragma TASS output
int inside;
#pragma TASS output
double pi_est;

#ifdef FEVS_CONCRETE
void fill_random(void) {
    unsigned long s = 99;
    int i;
    for (i = 0; i < NPTS; i++) {
        s = (s * 1103515245UL + 12345UL) % 2147483648UL;
        rx[i] = s / 2147483648.0;
        s = (s * 1103515245UL + 12345UL) % 2147483648UL;
        ry[i] = s / 2147483648.0;
    }
}
#endif

int main(void) {
    int i, in = 0;

#ifdef FEVS_CONCRETE
    fill_random();
#endif
    for (i = 0; i < NPTS; i++)
        in += delta(rx[i] * rx[i] + ry[i] * ry[i], 1.0);
    inside = in;
    pi_est = 4.0 * in / NPTS;
#ifdef FEVS_CONCRETE
    printf("OUT inside = %d\n", inside);
    printf("OUT pi_est = %.17g\n", pi_est);
#endif
    return 0;
}
