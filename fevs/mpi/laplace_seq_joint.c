/* fevs/mpi/laplace_seq_joint.c -- laplace_seq.c with the joint assertion ERR
 * after each sweep (it only marks the point; laplace_par_joint.c states that
 * its global error equals this one's there, as in the "Collective assertions"
 * paper, Sec. 4.4).
 *
 * laplace_seq.c: Jacobi iteration for the 2-d Laplace equation on
 * an NY x NX grid with fixed boundary values, iterated until the squared
 * change of one sweep falls below EPS, or NT sweeps (the sequential
 * specification of the "laplace" pair).
 *
 * Each sweep replaces every interior cell by the mean of its four neighbours.
 * Inputs: bounds BX, BY, BT; 1 <= NX <= BX, 1 <= NY <= BY, 0 <= NT <= BT;
 * EPS > 0; the initial grid g0.  Outputs: the final grid g and the number of
 * sweeps done, iters.
 *
 * Expected verdicts:
 *   tass verify laplace_seq.c                                            holds
 *   tass compare --spec laplace_seq.c --impl laplace_par.c --impl-procs P holds
 * The paper's Fig. 10 rows "laplace, nx <= 4, ny <= 12, nt <= 30, nprocs 5" and
 * "nx <= 4, ny <= 30, nt <= 3, nprocs 20" are this compare with the bounds
 * BX, BY, BT fixed accordingly.
 */
#include <stdio.h>

#pragma TASS input int
#define BX 4
#pragma TASS input int
#define BY 5
#pragma TASS input int
#define BT 3
#pragma TASS input {1 <= NX && NX <= BX} int
#define NX 4
#pragma TASS input {1 <= NY && NY <= BY} int
#define NY 5
#pragma TASS input {0 <= NT && NT <= BT} int
#define NT 3
#pragma TASS input {EPS > 0} double
#define EPS 0.0001

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double g0[NY][NX];
#pragma TASS output
double g[NY][NX];
#pragma TASS output
int iters;

double nw[NY][NX];

int main(void) {
    int i, j, it;
    double err, d;

#ifdef FEVS_CONCRETE
    for (i = 0; i < NY; i++)
        for (j = 0; j < NX; j++)
            g0[i][j] = (i == 0 || j == 0) ? 10.0 * (i + j) : 0.0;
#endif
    for (i = 0; i < NY; i++)
        for (j = 0; j < NX; j++)
            g[i][j] = g0[i][j];
    for (it = 0; it < NT;) {
        err = 0.0;
        for (i = 1; i < NY - 1; i++)
            for (j = 1; j < NX - 1; j++) {
                nw[i][j] = (g[i - 1][j] + g[i + 1][j] + g[i][j - 1] + g[i][j + 1]) / 4;
                d = nw[i][j] - g[i][j];
                err += d * d;
            }
        for (i = 1; i < NY - 1; i++)
            for (j = 1; j < NX - 1; j++)
                g[i][j] = nw[i][j];
        it++;
#pragma TASS joint assert ERR true
        if (err < EPS)
            break;
    }
    iters = it;
#ifdef FEVS_CONCRETE
    printf("OUT iters = %d\n", iters);
    for (i = 0; i < NY; i++)
        for (j = 0; j < NX; j++)
            printf("OUT g[%d][%d] = %.17g\n", i, j, g[i][j]);
#endif
    return 0;
}
