/* fevs/mpi/montecarlo_sym_par.c -- the Monte Carlo estimate of pi with a
 * random number server, written so that which worker gets which point leaves
 * no trace but the points themselves (the parallel implementation of the
 * "monte-carlo pi, symmetric" pair; the comparative paper's monte).
 * Needs at least 2 processes.
 *
 * Rank 0 serves the points one block of up to BLOCK points at a time, straight
 * from the input arrays (no copy of its own), to whichever worker asks first;
 * an empty reply means "no more".  Each worker adds delta(x*x + y*y, 1.0) (1
 * when the point lies inside the quarter disc) for its points; the counts are
 * added with MPI_Reduce.  Any assignment of points to workers is a permutation
 * of the inputs, under which the specification's result does not change: the
 * hypotheses of the symmetry reduction theorem (`tass compare --symmetry rx,ry`).
 *
 * Expected verdicts:
 *   tass compare --spec montecarlo_sym_seq.c --impl montecarlo_sym_par.c --impl-procs P  holds
 *   same with --arith ieee --symmetry rx,ry                                             holds
 */
#include <mpi.h>
#include <stdio.h>
#include <tass.h>

#define BLOCK 1
#define TAG_REQUEST 1
#define TAG_X 2
#define TAG_Y 3

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

int nprocs, myrank;

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

void server(void) {
    int next = 0, stopped = 0, k, request;
    MPI_Status status;

    while (stopped < nprocs - 1) {
        MPI_Recv(&request, 1, MPI_INT, MPI_ANY_SOURCE, TAG_REQUEST, MPI_COMM_WORLD, &status);
        k = NPTS - next < BLOCK ? NPTS - next : BLOCK;
        if (k == 0)
            stopped++;
        MPI_Send(&rx[next], k, MPI_DOUBLE, status.MPI_SOURCE, TAG_X, MPI_COMM_WORLD);
        MPI_Send(&ry[next], k, MPI_DOUBLE, status.MPI_SOURCE, TAG_Y, MPI_COMM_WORLD);
        next += k;
    }
}

int worker(void) {
    double bx[BLOCK], by[BLOCK];
    int in = 0, k, t, request = 0;
    MPI_Status status;

    while (1) {
        MPI_Send(&request, 1, MPI_INT, 0, TAG_REQUEST, MPI_COMM_WORLD);
        MPI_Recv(bx, BLOCK, MPI_DOUBLE, 0, TAG_X, MPI_COMM_WORLD, &status);
        MPI_Get_count(&status, MPI_DOUBLE, &k);
        MPI_Recv(by, BLOCK, MPI_DOUBLE, 0, TAG_Y, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        if (k == 0)
            break;
        for (t = 0; t < k; t++)
            in += delta(bx[t] * bx[t] + by[t] * by[t], 1.0);
    }
    return in;
}

int main(int argc, char *argv[]) {
    int local_in = 0, total_in = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
#ifdef FEVS_CONCRETE
    fill_random();
#endif
    if (myrank == 0)
        server();
    else
        local_in = worker();
    MPI_Reduce(&local_in, &total_in, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (myrank == 0) {
        inside = total_in;
        pi_est = 4.0 * total_in / NPTS;
#ifdef FEVS_CONCRETE
        printf("OUT inside = %d\n", inside);
        printf("OUT pi_est = %.17g\n", pi_est);
#endif
    }
    MPI_Finalize();
    return 0;
}
