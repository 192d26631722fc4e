/* fevs/mpi/montecarlo_par.c -- the Monte Carlo estimate of pi with a random
 * number server (the parallel implementation of the "monte-carlo pi" pair).
 * Needs at least 2 processes.
 *
 * Rank 0 owns the random numbers and serves them in blocks of up to BLOCK
 * points to whichever worker asks first (requests arrive by MPI_ANY_SOURCE);
 * the reply's length, read with MPI_Get_count, tells the worker how many
 * points it got, and an empty reply means "no more".  The workers' counts are
 * added with MPI_Reduce.  Which worker gets which block is up to MPI; the
 * total does not depend on it.
 *
 * Same signature as montecarlo_seq.c.
 * Expected verdicts:
 *   tass verify -n P montecarlo_par.c                                            holds (P >= 2)
 *   tass compare --spec montecarlo_seq.c --impl montecarlo_par.c --impl-procs P  holds
 */
#include <mpi.h>
#include <stdio.h>

#define BLOCK 2
#define TAG_REQUEST 1
#define TAG_POINTS 2

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

int nprocs, myrank;
double buf[2 * BLOCK];

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
    int next = 0, stopped = 0, k, t, request;
    MPI_Status status;

    while (stopped < nprocs - 1) {
        MPI_Recv(&request, 1, MPI_INT, MPI_ANY_SOURCE, TAG_REQUEST, MPI_COMM_WORLD, &status);
        k = NPTS - next < BLOCK ? NPTS - next : BLOCK;
        for (t = 0; t < k; t++) {
            buf[2 * t] = rx[next + t];
            buf[2 * t + 1] = ry[next + t];
        }
        next += k;
        if (k == 0)
            stopped++;
        MPI_Send(buf, 2 * k, MPI_DOUBLE, status.MPI_SOURCE, TAG_POINTS, MPI_COMM_WORLD);
    }
}

int worker(void) {
    int in = 0, k, t, count, request = 0;
    MPI_Status status;

    while (1) {
        MPI_Send(&request, 1, MPI_INT, 0, TAG_REQUEST, MPI_COMM_WORLD);
        MPI_Recv(buf, 2 * BLOCK, MPI_DOUBLE, 0, TAG_POINTS, MPI_COMM_WORLD, &status);
        MPI_Get_count(&status, MPI_DOUBLE, &count);
        k = count / 2;
        if (k == 0)
            break;
        for (t = 0; t < k; t++)
            if (buf[2 * t] * buf[2 * t] + buf[2 * t + 1] * buf[2 * t + 1] < 1.0)
                in++;
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
