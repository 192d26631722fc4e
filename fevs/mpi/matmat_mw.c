/* fevs/mpi/matmat_mw.c -- C = A * B by the manager-worker pattern (the parallel
 * implementation of the "manager-worker" pair).  Needs at least 2 processes.
 *
 * Rank 0 (the manager) broadcasts B, hands out one row of A per task (tag =
 * row + 1) and receives result rows with MPI_ANY_SOURCE / MPI_ANY_TAG, giving
 * the sender the next row, or tag 0 ("stop") when none is left.  The order in
 * which results arrive is up to MPI, so tass explores every order.
 *
 * Same signature as matmat_seq.c.
 * Expected verdicts:
 *   tass verify -n P matmat_mw.c                                         holds (P >= 2)
 *   tass compare --spec matmat_seq.c --impl matmat_mw.c --impl-procs P   holds
 */
#include <mpi.h>
#include <stdio.h>

#pragma TASS input int
#define BN 3
#pragma TASS input int
#define BL 2
#pragma TASS input int
#define BM 2
#pragma TASS input {1 <= N && N <= BN} int
#define N 3
#pragma TASS input {1 <= L && L <= BL} int
#define L 2
#pragma TASS input {1 <= M && M <= BM} int
#define M 2

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double a[N][L];
#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
double b[L][M];
#pragma TASS output
double c[N][M];

int nprocs, myrank;
double bloc[L][M];
double arow[L];
double crow[M];

void manager(void) {
    int nsent = 0, done, w, j, row;
    MPI_Status status;

    for (w = 1; w < nprocs; w++) {
        if (nsent < N) {
            MPI_Send(&a[nsent][0], L, MPI_DOUBLE, w, nsent + 1, MPI_COMM_WORLD);
            nsent++;
        } else {
            MPI_Send(arow, 0, MPI_DOUBLE, w, 0, MPI_COMM_WORLD);
        }
    }
    for (done = 0; done < N; done++) {
        MPI_Recv(crow, M, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
        row = status.MPI_TAG - 1;
        for (j = 0; j < M; j++)
            c[row][j] = crow[j];
        if (nsent < N) {
            MPI_Send(&a[nsent][0], L, MPI_DOUBLE, status.MPI_SOURCE, nsent + 1, MPI_COMM_WORLD);
            nsent++;
        } else {
            MPI_Send(arow, 0, MPI_DOUBLE, status.MPI_SOURCE, 0, MPI_COMM_WORLD);
        }
    }
}

void worker(void) {
    MPI_Status status;
    int j, k;

    while (1) {
        MPI_Recv(arow, L, MPI_DOUBLE, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
        if (status.MPI_TAG == 0)
            break;
        for (j = 0; j < M; j++) {
            crow[j] = 0.0;
            for (k = 0; k < L; k++)
                crow[j] += arow[k] * bloc[k][j];
        }
        MPI_Send(crow, M, MPI_DOUBLE, 0, status.MPI_TAG, MPI_COMM_WORLD);
    }
}

int main(int argc, char *argv[]) {
    int i, j;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
#ifdef FEVS_CONCRETE
    for (i = 0; i < N; i++)
        for (j = 0; j < L; j++)
            a[i][j] = i - j + 0.5;
    for (i = 0; i < L; i++)
        for (j = 0; j < M; j++)
            b[i][j] = 2 * i + j;
#endif
    if (myrank == 0)
        for (i = 0; i < L; i++)
            for (j = 0; j < M; j++)
                bloc[i][j] = b[i][j];
    MPI_Bcast(bloc, L * M, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (myrank == 0) {
        manager();
#ifdef FEVS_CONCRETE
        for (i = 0; i < N; i++)
            for (j = 0; j < M; j++)
                printf("OUT c[%d][%d] = %.17g\n", i, j, c[i][j]);
#endif
    } else {
        worker();
    }
    MPI_Finalize();
    return 0;
}
