/* fevs/mpi/diffusion1d_seq_joint.c -- diffusion1d_seq.c with a joint assertion
 * mark STEP after every time step: the specification side of the "Collective
 * assertions" paper's Fig. 4 experiment (step-wise comparison of the parallel
 * program with this one, diffusion1d_par_joint.c).
 *
 * Each step replaces every interior u[i] by u[i] + K (u[i-1] - 2 u[i] + u[i+1]).
 * Inputs: bounds NXB and NTB, 1 <= NX <= NXB points, 0 <= NT <= NTB steps, the
 * coefficient K, the initial values u0.  Output: u after NT steps.
 *
 * Expected verdict:
 *   tass compare --spec diffusion1d_seq_joint.c --impl diffusion1d_par_joint.c
 *     --impl-procs P                                          holds
 *   ... --impl diffusion1d_par_joint_bad.c                    collective-assertion
 */
#include <stdio.h>

#pragma TASS input int
#define NXB 8
#pragma TASS input {1 <= NX && NX <= NXB} int
#define NX 8
#pragma TASS input int
#define NTB 3
#pragma TASS input {0 <= NT && NT <= NTB} int
#define NT 3
#pragma TASS input double
#define K 0.25

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double u0[NX];
#pragma TASS output
double u[NX];

double next[NX];

int main(void) {
    int i, t;

#ifdef FEVS_CONCRETE
    for (i = 0; i < NX; i++)
        u0[i] = i * (NX - 1 - i);
#endif
    for (i = 0; i < NX; i++)
        u[i] = u0[i];
    for (t = 0; t < NT; t++) {
        for (i = 1; i < NX - 1; i++)
            next[i] = u[i] + K * (u[i - 1] - 2 * u[i] + u[i + 1]);
        for (i = 1; i < NX - 1; i++)
            u[i] = next[i];
#pragma TASS joint assert STEP true
    }
#ifdef FEVS_CONCRETE
    for (i = 0; i < NX; i++)
        printf("OUT u[%d] = %.17g\n", i, u[i]);
#endif
    return 0;
}
