/* fevs/mpi/gausselim_bcast.c -- Gauss-Jordan elimination with the elimination
 * work spread over the processes, rows redistributed by broadcasts (a second
 * parallel implementation of the "gausselim" pair, for the arithmetic levels).
 *
 * Every process keeps the whole matrix.  The pivot search, the row swap and
 * the scaling of the pivot row are done by every process alike; then process
 * q eliminates column c from the rows i != p with i % P == q, and each
 * eliminated row is broadcast by its owner.  No arithmetic happens in the
 * communication, so every entry is computed by the same operations as in the
 * sequential program: the pair is Herbrand equivalent (comparative symbolic
 * execution paper, Table I), unlike gausselim_par.c, whose MPI_SUM of a row and
 * zeros is only real equivalent (x + 0 is +0 for x = -0).
 *
 * Same signature as gausselim_seq.c.
 * Expected verdicts:
 *   tass verify -n P gausselim_bcast.c                                          holds
 *   tass compare --arith herbrand --spec gausselim_seq.c --impl gausselim_bcast.c --impl-procs P holds
 */
#include <mpi.h>
#include <stdio.h>

#pragma TASS input int
#define BN 3
#pragma TASS input int
#define BM 3
#pragma TASS input {1 <= N && N <= BN} int
#define N 3
#pragma TASS input {1 <= M && M <= BM} int
#define M 3

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double a0[N][M];
#pragma TASS output
double r[N][M];

double a[N][M];
int nprocs, myrank;

int main(int argc, char *argv[]) {
    int i, j, c, p = 0, piv;
    double t, f;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            a0[i][j] = (i == 0) ? 0.0 : (double)((i * 3 + j * 5) % 7) - 2.0;
#endif
    for (i = 0; i < N; i++)
        for (j = 0; j < M; j++)
            a[i][j] = a0[i][j];
    for (c = 0; c < M && p < N; c++) {
        piv = -1;
        for (i = p; i < N; i++)
            if (a[i][c] != 0) {
                piv = i;
                break;
            }
        if (piv < 0)
            continue;
        for (j = 0; j < M; j++) {
            t = a[p][j];
            a[p][j] = a[piv][j];
            a[piv][j] = t;
        }
        t = a[p][c];
        for (j = c; j < M; j++)
            a[p][j] = a[p][j] / t;
        for (i = 0; i < N; i++)
            if (i != p && i % nprocs == myrank) {
                f = a[i][c];
                for (j = c; j < M; j++)
                    a[i][j] = a[i][j] - f * a[p][j];
            }
        for (i = 0; i < N; i++)
            if (i != p)
                MPI_Bcast(a[i], M, MPI_DOUBLE, i % nprocs, MPI_COMM_WORLD);
        p++;
    }
    if (myrank == 0) {
        for (i = 0; i < N; i++)
            for (j = 0; j < M; j++)
                r[i][j] = a[i][j];
#ifdef FEVS_CONCRETE
        for (i = 0; i < N; i++)
            for (j = 0; j < M; j++)
                printf("OUT r[%d][%d] = %.17g\n", i, j, r[i][j]);
#endif
    }
    MPI_Finalize();
    return 0;
}
