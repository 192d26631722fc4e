/* fevs/mpi/montecarlo_seq.c -- estimate pi from NPTS points of the unit square:
 * pi ~ 4 * (points inside the quarter disc) / NPTS (the sequential
 * specification of the "monte-carlo pi" pair).
 *
 * The random numbers are the program's inputs (arrays rx, ry), as in the
 * comparative-symbolic-execution paper: equivalence then means "given the
 * same random numbers, both programs give the same estimate".  The concrete
 * build fills them from a fixed linear congruential generator.
 * Inputs: bound BP, 1 <= NPTS <= BP, rx, ry.  Outputs: inside, pi_est.
 *
 * Expected verdicts:
 *   tass verify montecarlo_seq.c                                                 holds
 *   tass compare --spec montecarlo_seq.c --impl montecarlo_par.c --impl-procs P  holds (P >= 2)
 */
#include <stdio.h>

#pragma TASS input int
#define BP 3
#pragma TASS input {1 <= NPTS && NPTS <= BP} int
#define NPTS 3

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
        if (rx[i] * rx[i] + ry[i] * ry[i] < 1.0)
            in++;
    inside = in;
    pi_est = 4.0 * in / NPTS;
#ifdef FEVS_CONCRETE
    printf("OUT inside = %d\n", inside);
    printf("OUT pi_est = %.17g\n", pi_est);
#endif
    return 0;
}
