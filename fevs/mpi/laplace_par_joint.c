/* fevs/mpi/laplace_par_joint.c -- laplace_par.c with the joint assertion ERR:
 * after each sweep, every process's global error (the MPI_Allreduce sum of
 * the local ones) equals the error of the same sweep of laplace_seq_joint.c.
 *
 * laplace_par.c: the 2-d Laplace Jacobi iteration with the interior
 * rows block-distributed over the processes (the parallel implementation of
 * the "laplace" pair).
 *
 * Every process keeps a full-size grid v but updates only its own rows; the
 * first min(P, NY - 2) processes own rows.  Before each sweep, neighbours
 * exchange their edge rows with MPI_Sendrecv (MPI_PROC_NULL at the ends); the
 * squared change of the sweep is summed over all processes with MPI_Allreduce,
 * so every process takes the same decision to stop.  At the end rank 0
 * gathers the rows into the output g.
 *
 * Same signature as laplace_seq.c.
 * Expected verdicts:
 *   tass verify -n P laplace_par.c                                        holds
 *   tass compare --spec laplace_seq.c --impl laplace_par.c --impl-procs P holds
 */
#include <mpi.h>
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

double v[NY][NX];
double nw[NY][NX];
int nprocs, myrank, active, first, nloc;

/* First interior row owned by rank r (r <= active). */
int block_first(int r) { return 1 + (NY - 2) * r / active; }

void exchange_rows(void) {
    int up = myrank > 0 ? myrank - 1 : MPI_PROC_NULL;
    int down = myrank < active - 1 ? myrank + 1 : MPI_PROC_NULL;

    MPI_Sendrecv(&v[first][0], NX, MPI_DOUBLE, up, 0, &v[first + nloc][0], NX, MPI_DOUBLE, down,
                 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Sendrecv(&v[first + nloc - 1][0], NX, MPI_DOUBLE, down, 1, &v[first - 1][0], NX,
                 MPI_DOUBLE, up, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
}

double sweep(void) {
    int i, j;
    double d, err = 0.0;

    for (i = first; i < first + nloc; i++)
        for (j = 1; j < NX - 1; j++) {
            nw[i][j] = (v[i - 1][j] + v[i + 1][j] + v[i][j - 1] + v[i][j + 1]) / 4;
            d = nw[i][j] - v[i][j];
            err += d * d;
        }
    for (i = first; i < first + nloc; i++)
        for (j = 1; j < NX - 1; j++)
            v[i][j] = nw[i][j];
    return err;
}

void collect(void) {
    int i, j, r;

    if (myrank == 0) {
        for (i = 0; i < NY; i++)
            for (j = 0; j < NX; j++)
                g[i][j] = v[i][j];
        for (r = 1; r < active; r++)
            for (i = block_first(r); i < block_first(r + 1); i++)
                MPI_Recv(&g[i][0], NX, MPI_DOUBLE, r, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (myrank < active) {
        for (i = first; i < first + nloc; i++)
            MPI_Send(&v[i][0], NX, MPI_DOUBLE, 0, 2, MPI_COMM_WORLD);
    }
}

int main(int argc, char *argv[]) {
    int i, j, it;
    double err, local_err;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
#ifdef FEVS_CONCRETE
    for (i = 0; i < NY; i++)
        for (j = 0; j < NX; j++)
            g0[i][j] = (i == 0 || j == 0) ? 10.0 * (i + j) : 0.0;
#endif
    for (i = 0; i < NY; i++)
        for (j = 0; j < NX; j++)
            v[i][j] = g0[i][j];
    active = NY - 2 < nprocs ? NY - 2 : nprocs;
    if (active < 0)
        active = 0;
    if (myrank < active) {
        first = block_first(myrank);
        nloc = block_first(myrank + 1) - first;
    }
    for (it = 0; it < NT;) {
        local_err = 0.0;
        if (myrank < active) {
            exchange_rows();
            local_err = sweep();
        }
        MPI_Allreduce(&local_err, &err, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
        it++;
#pragma TASS joint assert ERR err == spec.err
        if (err < EPS)
            break;
    }
    collect();
    if (myrank == 0) {
        iters = it;
#ifdef FEVS_CONCRETE
        printf("OUT iters = %d\n", iters);
        for (i = 0; i < NY; i++)
            for (j = 0; j < NX; j++)
                printf("OUT g[%d][%d] = %.17g\n", i, j, g[i][j]);
#endif
    }
    MPI_Finalize();
    return 0;
}
