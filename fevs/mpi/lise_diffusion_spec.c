/* fevs/mpi/lise_diffusion_spec.c -- the LISE paper's "diffusion",
 * specification: NT explicit time steps of the 1-d diffusion equation
 * u_j <- u_j + K (u_{j-1} - 2 u_j + u_{j+1}) on NX = 10 points, the two end
 * points held fixed.
 *
 * The joint invariant TIME only marks the time loop for the implementation's
 * invariant (lise_diffusion_par.c).
 *
 * Inputs: NT >= 0 time steps, no upper bound; K; the initial values u0.
 * Output: u.
 * Expected verdict (paper: 1 + 10 processes, 3,580 transitions, 82 proofs, 34.4 s):
 *   tass compare --spec lise_diffusion_spec.c --impl lise_diffusion_par.c --impl-procs 10       holds
 *   tass compare --spec lise_diffusion_spec.c --impl lise_diffusion_par_bad.c --impl-procs 10   violated
 * Confirmed concretely: see lise_diffusion_par.c.
 */
#include <stdio.h>

#define NX 10
#pragma TASS input {NT >= 0} int
#define NT 4
#pragma TASS input double
#define K 0.25

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double u0[NX];
#pragma TASS output
double u[NX];
double w[NX];

#ifdef FEVS_CONCRETE
static void snap(int t) {
    int j;
    printf("SNAP TIME 0 t=%d u=", t);
    for (j = 0; j < NX; j++)
        printf("%s%.17g", j ? "," : "", u[j]);
    printf("\n");
}
#endif

int main(void) {
    int j, t = 0;

#ifdef FEVS_CONCRETE
    for (j = 0; j < NX; j++)
        u0[j] = j * (NX - 1 - j);
#endif
    for (j = 0; j < NX; j++)
        u[j] = u0[j];
#pragma TASS joint invariant TIME true
    while (t < NT) {
#ifdef FEVS_CONCRETE
        snap(t);
#endif
        for (j = 1; j < NX - 1; j++)
            w[j] = u[j] + K * (u[j - 1] - 2 * u[j] + u[j + 1]);
        for (j = 1; j < NX - 1; j++)
            u[j] = w[j];
        t++;
    }
#ifdef FEVS_CONCRETE
    snap(t);
    for (j = 0; j < NX; j++)
        printf("OUT u[%d] = %.17g\n", j, u[j]);
#endif
    return 0;
}
