/* fevs/mpi/coll_reduce_scatter_ok.c -- summing per-process contributions to a
 * distributed vector with MPI_Reduce_scatter (as in assembling a distributed
 * right-hand side: every process adds into every entry, each process keeps the
 * sums of its own block).
 *
 * The vector has N entries, block-distributed (process r keeps entries
 * N*r/P .. N*(r+1)/P - 1; recvcounts are the block lengths).  Process q
 * contributes X*i + q to entry i.  After MPI_Reduce_scatter with MPI_SUM,
 * process r's k-th entry (global index i = N*r/P + k) must be
 * P*X*i + P(P-1)/2.
 * Inputs: bound B, 1 <= N <= B, -8 <= X <= 8.
 * Output: mine = the sum of rank 0's block.
 *
 * Expected verdict: tass verify -n 3 coll_reduce_scatter_ok.c   holds
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#pragma TASS input int
#define B 6
#pragma TASS input {1 <= N && N <= B} int
#define N 6
#pragma TASS input {-8 <= X && X <= 8} int
#define X 2

#pragma TASS output
int mine;

int contrib[N], part[N];

int main(int argc, char *argv[]) {
    int nprocs, myrank, r, i, k, first, sum = 0;
    int *counts;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    counts = malloc(nprocs * sizeof(int));
    for (r = 0; r < nprocs; r++)
        counts[r] = N * (r + 1) / nprocs - N * r / nprocs;
    for (i = 0; i < N; i++)
        contrib[i] = X * i + myrank;
    MPI_Reduce_scatter(contrib, part, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    first = N * myrank / nprocs;
    for (k = 0; k < counts[myrank]; k++) {
        i = first + k;
        assert(part[k] == nprocs * X * i + nprocs * (nprocs - 1) / 2);
        sum += part[k];
    }
    if (myrank == 0) {
        mine = sum;
#ifdef FEVS_CONCRETE
        printf("OUT mine = %d\n", mine);
#endif
    }
    free(counts);
    MPI_Finalize();
    return 0;
}
