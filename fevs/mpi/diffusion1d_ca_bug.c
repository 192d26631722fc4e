/* fevs/mpi/diffusion1d_ca_bug.c -- the buggy twin of diffusion1d_ca.c: exchange_ghosts
 * sends v[1] instead of the last owned cell v[nlocal] to the right (not v[nlocal - 1]:
 * for one cell that is v[0], also the receive buffer), so GHOSTS fails.
 *
 * diffusion1d_ca.c is diffusion1d_par.c with the ghost-cell collective
 * assertion of the "Collective assertions" paper (Fig. 1 and Fig. 3): after the
 * exchange of time step t, my first owned cell equals my left neighbour's right
 * ghost cell at ITS time step t, and my last owned cell equals my right
 * neighbour's left ghost cell at its time step t -- whatever the interleaving,
 * without any synchronisation at the assertion.
 *
 * Every process takes part in the assertion once per time step (those that own
 * no point assert nothing), so the snapshot queues stay matched.  -D NO_ASSERT
 * removes the pragma (the deadlock-only baseline of the paper's Fig. 4).
 * Expected verdicts:
 *   tass verify -n P diffusion1d_ca.c           holds (also with --cqmin)
 *   tass verify -n P diffusion1d_ca_bug.c       collective-assertion at the pragma
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
/* Neighbours for the assertion: a rank that exists (my own at the ends). */
int has_left, has_right, lnb, rnb;

int block_first(int r) { return NX * r / active; }

void exchange_ghosts(void) {
    int left = myrank > 0 ? myrank - 1 : MPI_PROC_NULL;
    int right = myrank < active - 1 ? myrank + 1 : MPI_PROC_NULL;

    /* the bug: v[1] is not the last owned cell */
    MPI_Sendrecv(&v[1], 1, MPI_DOUBLE, right, 0, &v[0], 1, MPI_DOUBLE, left, 0,
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
    }
    has_left = myrank > 0 && myrank < active;
    has_right = myrank < active - 1;
    lnb = has_left ? myrank - 1 : myrank;
    rnb = has_right ? myrank + 1 : myrank;
    for (t = 0; t < NT; t++) {
        if (myrank < active)
            exchange_ghosts();
#ifndef NO_ASSERT /* BUG: fails, the right neighbour got v[1] */
#pragma TASS collective assert GHOSTS myrank >= active || \
    ((!has_right || v[nlocal] == PROC[rnb].v[0]) && \
     (!has_left || v[1] == PROC[lnb].v[PROC[lnb].nlocal + 1]))
#endif
        if (myrank < active)
            step();
    }
    if (myrank < active) {
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
