/* fevs/mpi/integrate_mw.c -- adaptive trapezoid integration with the pieces
 * handed out by a manager (rank 0) to workers (the parallel implementation of
 * the "integrate" pair).  Needs at least 2 processes.
 *
 * The manager sends piece numbers (tag 1) and a stop message (tag 0) when no
 * piece is left; workers answer with the piece's integral, tagged piece + 1.
 * Results are received with MPI_ANY_SOURCE, stored by piece, and added up in
 * piece order at the end.  Two sources of nondeterminism for tass: the order
 * of the results and, inside each piece, the refinement choices.
 *
 * Same signature as integrate_seq.c.
 * Expected verdicts:
 *   tass verify -n P integrate_mw.c                                          holds (P >= 2)
 *   tass compare --spec integrate_seq.c --impl integrate_mw.c --impl-procs P holds
 */
#include <mpi.h>
#include <stdio.h>

#ifndef MAXDEPTH
#define MAXDEPTH 2 /* the Fig. 10 row uses -D MAXDEPTH=1, the paper's one level */
#endif

#pragma TASS input {1 <= INTERVALS} int
#define INTERVALS 2
#pragma TASS input double
#define LO 0.0
#pragma TASS input {LO < HI} double
#define HI 2.0
#pragma TASS input {TOL > 0} double
#define TOL 0.01

#pragma TASS output
double integral;

#ifdef FEVS_CONCRETE
double f(double x) { return x * x * x - 2 * x + 1; }
#else
#pragma TASS abstract
double f(double x);
#endif

int nprocs, myrank;
double results[INTERVALS];

double adaptive(double a, double b, double fa, double fb, int depth) {
    double m = (a + b) / 2, fm = f(m);
    double whole = (b - a) * (fa + fb) / 2;
    double halves = (m - a) * (fa + fm) / 2 + (b - m) * (fm + fb) / 2;
    double diff = whole - halves;

    /* |diff| <= TOL, written without a sign test: one choice per refinement. */
    if (depth >= MAXDEPTH || diff * diff <= TOL * TOL)
        return halves;
    return adaptive(a, m, fa, fm, depth + 1) + adaptive(m, b, fm, fb, depth + 1);
}

double piece(int i) {
    double h = (HI - LO) / INTERVALS;
    double x0 = LO + i * h, x1 = LO + (i + 1) * h;

    return adaptive(x0, x1, f(x0), f(x1), 0);
}

void manager(void) {
    int next = 0, received, w, stop = -1;
    double value;
    double total = 0.0;
    MPI_Status status;

    for (w = 1; w < nprocs; w++) {
        if (next < INTERVALS) {
            MPI_Send(&next, 1, MPI_INT, w, 1, MPI_COMM_WORLD);
            next++;
        } else {
            MPI_Send(&stop, 1, MPI_INT, w, 0, MPI_COMM_WORLD);
        }
    }
    for (received = 0; received < INTERVALS; received++) {
        MPI_Recv(&value, 1, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
        results[status.MPI_TAG - 1] = value;
        if (next < INTERVALS) {
            MPI_Send(&next, 1, MPI_INT, status.MPI_SOURCE, 1, MPI_COMM_WORLD);
            next++;
        } else {
            MPI_Send(&stop, 1, MPI_INT, status.MPI_SOURCE, 0, MPI_COMM_WORLD);
        }
    }
    for (w = 0; w < INTERVALS; w++)
        total += results[w];
    integral = total;
}

void worker(void) {
    int task;
    double value;
    MPI_Status status;

    while (1) {
        MPI_Recv(&task, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
        if (status.MPI_TAG == 0)
            break;
        value = piece(task);
        MPI_Send(&value, 1, MPI_DOUBLE, 0, task + 1, MPI_COMM_WORLD);
    }
}

int main(int argc, char *argv[]) {
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    if (myrank == 0) {
        manager();
#ifdef FEVS_CONCRETE
        printf("OUT integral = %.17g\n", integral);
#endif
    } else {
        worker();
    }
    MPI_Finalize();
    return 0;
}
