/* fevs/mpi/coll_transpose_ok.c -- block transpose of a distributed matrix with
 * MPI_Alltoall (the communication step of a distributed FFT or of switching a
 * matrix from row to column distribution).
 *
 * The matrix has P block rows and P block columns, each block K integers;
 * process r owns block row r, and entry k of block (r, j) is
 * X + 100*r + 10*j + k.  One MPI_Alltoall with K elements per destination
 * sends block (r, j) to process j, so afterwards process r holds block column
 * r: entry k of the j-th received block must be X + 100*j + 10*r + k.
 * Inputs: bound BK, 1 <= K <= BK, -8 <= X <= 8.
 * Output: check = the sum of everything rank 0 received.
 *
 * Expected verdict: tass verify -n 3 coll_transpose_ok.c   holds
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#pragma TASS input int
#define BK 2
#pragma TASS input {1 <= K && K <= BK} int
#define K 2
#pragma TASS input {-8 <= X && X <= 8} int
#define X 1

#pragma TASS output
int check;

int main(int argc, char *argv[]) {
    int nprocs, myrank, j, k, sum = 0;
    int *rowblk, *colblk;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    rowblk = malloc(nprocs * K * sizeof(int));
    colblk = malloc(nprocs * K * sizeof(int));
    for (j = 0; j < nprocs; j++)
        for (k = 0; k < K; k++)
            rowblk[j * K + k] = X + 100 * myrank + 10 * j + k;
    MPI_Alltoall(rowblk, K, MPI_INT, colblk, K, MPI_INT, MPI_COMM_WORLD);
    for (j = 0; j < nprocs; j++)
        for (k = 0; k < K; k++) {
            assert(colblk[j * K + k] == X + 100 * j + 10 * myrank + k);
            sum += colblk[j * K + k];
        }
    if (myrank == 0) {
        check = sum;
#ifdef FEVS_CONCRETE
        printf("OUT check = %d\n", check);
#endif
    }
    free(rowblk);
    free(colblk);
    MPI_Finalize();
    return 0;
}
