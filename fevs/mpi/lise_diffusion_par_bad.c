/* fevs/mpi/lise_diffusion_par_bad.c -- lise_diffusion_par.c with a wrong
 * boundary test: the last point (g == NX - 1) is updated too, reading the
 * right ghost cell, which nobody sends at the right end (MPI_PROC_NULL).
 * The joint invariant holds on entry but is not preserved: after one step the
 * last point is K * u[8] on the last rank, still u0[9] in the specification.
 *
 * Inputs: NT >= 0 time steps, no upper bound; K; u0.  Output: u.
 * Expected verdict:
 *   tass compare --spec lise_diffusion_spec.c --impl lise_diffusion_par_bad.c --impl-procs 10
 *   violated, invariant TIME (not preserved)
 * Confirmed concretely (mpicc -DFEVS_CONCRETE, mpirun -np 10, fevs/lise_check.py):
 * NT = 1, 4: the second composed arrival has v[1] = 2 on rank 9 against the
 * specification's u[9] = 0, and the outputs differ at u[9]; NT = 0: they agree.
 */
#include <mpi.h>
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

/* v[0] and v[nlocal + 1] are the ghost cells; v[1..nlocal] are owned. */
double v[NX + 2];
double w[NX + 2];
int nprocs, myrank, active, first, nlocal;

int block_first(int r) { return NX * r / active; }

void exchange_ghosts(void) {
    int left = myrank > 0 ? myrank - 1 : MPI_PROC_NULL;
    int right = myrank < active - 1 ? myrank + 1 : MPI_PROC_NULL;

    MPI_Sendrecv(&v[nlocal], 1, MPI_DOUBLE, right, 0, &v[0], 1, MPI_DOUBLE, left, 0,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&v[1], 1, MPI_DOUBLE, left, 1, &v[nlocal + 1], 1, MPI_DOUBLE, right, 1,
                 MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

void step(void) {
    int j, g;

    for (j = 1; j <= nlocal; j++) {
        g = first + j - 1;
        if (g > 0 && g < NX) /* BUG: updates the fixed last point */
            w[j] = v[j] + K * (v[j - 1] - 2 * v[j] + v[j + 1]);
        else
            w[j] = v[j];
    }
    for (j = 1; j <= nlocal; j++)
        v[j] = w[j];
}

void collect(void) {
    int r, j;

    if (myrank == 0) {
        for (j = 1; j <= nlocal; j++)
            u[first + j - 1] = v[j];
        for (r = 1; r < active; r++)
            MPI_Recv(&u[block_first(r)], block_first(r + 1) - block_first(r), MPI_DOUBLE, r, 2,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Send(&v[1], nlocal, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
    }
}

#ifdef FEVS_CONCRETE
/* One printf per line, so the ranks' lines do not interleave under mpirun. */
static void snap(int t) {
    char line[64 + 32 * (NX + 2)];
    int j, n;
    n = sprintf(line, "SNAP TIME %d t=%d first=%d v=", myrank, t, first);
    for (j = 1; j <= nlocal; j++)
        n += sprintf(line + n, "%s%.17g", j > 1 ? "," : "", v[j]);
    printf("%s\n", line);
}
#endif

int main(int argc, char *argv[]) {
    int j, t = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
#ifdef FEVS_CONCRETE
    for (j = 0; j < NX; j++)
        u0[j] = j * (NX - 1 - j);
#endif
    active = nprocs < NX ? nprocs : NX;
    first = block_first(myrank);
    nlocal = block_first(myrank + 1) - first;
    for (j = 1; j <= nlocal; j++)
        v[j] = u0[first + j - 1];
#pragma TASS joint invariant TIME t == spec.t && \
    forall {int q | 1 <= q && q <= nlocal} v[q] == spec.u[first + q - 1]
    while (t < NT) {
#ifdef FEVS_CONCRETE
        snap(t);
#endif
        exchange_ghosts();
        step();
        t++;
    }
#ifdef FEVS_CONCRETE
    snap(t);
#endif
    collect();
#ifdef FEVS_CONCRETE
    if (myrank == 0)
        for (j = 0; j < NX; j++)
            printf("OUT u[%d] = %.17g\n", j, u[j]);
#endif
    MPI_Finalize();
    return 0;
}
