/* fevs/mpi/diffusion1d_par.c -- 1-d diffusion with the points block-distributed
 * over the processes and one ghost cell on each side (the parallel
 * implementation of the "diffusion" pair).
 *
 * Only the first min(P, NX) processes own points, so every block is non-empty;
 * the others just call MPI_Init and MPI_Finalize.  Before each step, neighbours
 * exchange their edge values with MPI_Sendrecv (MPI_PROC_NULL at the two ends);
 * at the end rank 0 collects the blocks into the output u.
 *
 * Same signature as diffusion1d_seq.c.
 * Expected verdicts:
 *   tass verify -n P diffusion1d_par.c                                           holds
 *   tass compare --spec diffusion1d_seq.c --impl diffusion1d_par.c --impl-procs P holds
 */
#include <mpi.h>
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

int main(int argc, char *argv[]) {
    int j, t;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
#ifdef FEVS_CONCRETE
    for (j = 0; j < NX; j++)
        u0[j] = j * (NX - 1 - j);
#endif
    active = nprocs < NX ? nprocs : NX;
    if (myrank < active) {
        first = block_first(myrank);
        nlocal = block_first(myrank + 1) - first;
        for (j = 1; j <= nlocal; j++)
            v[j] = u0[first + j - 1];
        for (t = 0; t < NT; t++) {
            exchange_ghosts();
            step();
        }
        collect();
#ifdef FEVS_CONCRETE
        if (myrank == 0)
            for (j = 0; j < NX; j++)
                printf("OUT u[%d] = %.17g\n", j, u[j]);
#endif
    }
    MPI_Finalize();
    return 0;
}
