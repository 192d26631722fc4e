/* fevs/mpi/nb_waitany_ok.c -- a manager collects partial sums from its workers
 * in whatever order they finish, with one MPI_Irecv per worker and MPI_Waitany.
 *
 * The N entries of the integer array a are split in blocks over the P - 1
 * workers (ranks 1..P-1); each worker sums its block and sends the sum to rank 0.
 * Rank 0 posts a receive for every worker into res[w-1], then calls MPI_Waitany
 * P - 1 times; each completion tells it which worker finished (index and
 * status.MPI_SOURCE must agree), and it checks that worker's sum against the
 * block.  With one process there are no workers and the manager sums alone.
 * Inputs: bound B, 0 <= N <= B, the array a[N].  Output: total = sum of a.
 *
 * Expected verdict: tass verify -n 3 nb_waitany_ok.c   holds
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#pragma TASS input int
#define B 7
#pragma TASS input {0 <= N && N <= B} int
#define N 7

#ifndef FEVS_CONCRETE
#pragma TASS input
#endif
int a[N];
#pragma TASS output
int total;

/* sum of a over the block of worker w (1 <= w <= nw) */
int block_sum(int w, int nw) {
    int i, s = 0;

    for (i = N * (w - 1) / nw; i < N * w / nw; i++)
        s += a[i];
    return s;
}

int main(int argc, char *argv[]) {
    int nprocs, myrank, nw, w, k, idx, s, sum = 0;
    int *res;
    MPI_Request *reqs;
    MPI_Status status;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
#ifdef FEVS_CONCRETE
    for (k = 0; k < N; k++)
        a[k] = 3 * k - 5;
#endif
    nw = nprocs - 1;
    if (myrank == 0) {
        if (nw == 0) {
            sum = block_sum(1, 1);
        } else {
            res = malloc(nw * sizeof(int));
            reqs = malloc(nw * sizeof(MPI_Request));
            for (w = 1; w <= nw; w++)
                MPI_Irecv(&res[w - 1], 1, MPI_INT, w, 0, MPI_COMM_WORLD, &reqs[w - 1]);
            for (k = 0; k < nw; k++) {
                MPI_Waitany(nw, reqs, &idx, &status);
                assert(status.MPI_SOURCE == idx + 1);
                assert(res[idx] == block_sum(idx + 1, nw));
                sum += res[idx];
            }
            free(reqs);
            free(res);
        }
        total = sum;
        assert(total == block_sum(1, 1));
#ifdef FEVS_CONCRETE
        printf("OUT total = %d\n", total);
#endif
    } else {
        s = block_sum(myrank, nw);
        MPI_Send(&s, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
