/* fevs/mpi/lise_diffusion_par.c -- the LISE paper's "diffusion",
 * implementation: the NX = 10 points block-distributed over the processes
 * (run it on 1 to 10 of them), one ghost cell on each side, the ghosts
 * exchanged with MPI_Sendrecv before each step (MPI_PROC_NULL at the ends),
 * and rank 0 collecting the blocks into the output at the end.
 *
 * Joint invariant TIME (the k-th arrival of every process with the
 * specification's k-th): the same time step, and each owned point equals the
 * specification's point at the same global index.  The ghost cells need no
 * claim: the exchange overwrites them before the step reads them.
 *
 * Inputs: NT >= 0 time steps, no upper bound; K; u0.  Output: u.
 * Expected verdict:
 *   tass compare --spec lise_diffusion_spec.c --impl lise_diffusion_par.c --impl-procs 10   holds
 * Confirmed concretely (mpicc -DFEVS_CONCRETE, mpirun -np 10 and -np 3, eager
 * and zero-buffer modes; the specification with gcc -fsanitize=address,undefined;
 * fevs/lise_check.py): NT = 0, 1, 4, 12: every composed arrival satisfies the
 * invariant (bit for bit: both sides evaluate the same expression on the same
 * doubles) and the outputs agree.
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
        if (g > 0 && g < NX - 1)
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
