/* fevs/mpi/coll_allgatherv_ok.c -- every process learns every process's
 * variable-length list: MPI_Allgather of the lengths, displacements by a prefix
 * sum, then MPI_Allgatherv of the items (as particles that left their cell are
 * shared with all neighbours).
 *
 * Process r has r + K items, the j-th being X + 10*r + j.  After the two
 * collectives every process holds all sum_r (r + K) items in rank order and
 * checks each one.  The receive buffer is malloc'ed from the gathered counts.
 * Inputs: bound BK, 0 <= K <= BK, -8 <= X <= 8.
 * Output: count (the total number of items) and check (their sum), from rank 0.
 *
 * Expected verdict: tass verify -n 3 coll_allgatherv_ok.c   holds
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#pragma TASS input int
#define BK 2
#pragma TASS input {0 <= K && K <= BK} int
#define K 1
#pragma TASS input {-8 <= X && X <= 8} int
#define X 2

#pragma TASS output
int count;
#pragma TASS output
int check;

int main(int argc, char *argv[]) {
    int nprocs, myrank, n, r, j, total, sum = 0;
    int *mine, *counts, *displs, *all;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    n = myrank + K;
    mine = malloc((n + 1) * sizeof(int));
    for (j = 0; j < n; j++)
        mine[j] = X + 10 * myrank + j;
    counts = malloc(nprocs * sizeof(int));
    displs = malloc(nprocs * sizeof(int));
    MPI_Allgather(&n, 1, MPI_INT, counts, 1, MPI_INT, MPI_COMM_WORLD);
    total = 0;
    for (r = 0; r < nprocs; r++) {
        assert(counts[r] == r + K);
        displs[r] = total;
        total += counts[r];
    }
    all = malloc((total + 1) * sizeof(int));
    MPI_Allgatherv(mine, n, MPI_INT, all, counts, displs, MPI_INT, MPI_COMM_WORLD);
    for (r = 0; r < nprocs; r++)
        for (j = 0; j < counts[r]; j++) {
            assert(all[displs[r] + j] == X + 10 * r + j);
            sum += all[displs[r] + j];
        }
    if (myrank == 0) {
        count = total;
        check = sum;
#ifdef FEVS_CONCRETE
        printf("OUT count = %d\n", count);
        printf("OUT check = %d\n", check);
#endif
    }
    free(mine);
    free(all);
    free(counts);
    free(displs);
    MPI_Finalize();
    return 0;
}
