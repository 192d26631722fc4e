/* fevs/mpi/comm_ring_shift_ok.c -- a systolic ring: every process's block
 * travels once around the ring with MPI_Sendrecv_replace, so each process sees
 * every block and accumulates the global sum without a collective.
 *
 * Process r owns NL integers X + r*NL + i.  In each of P steps it adds the
 * block it holds to its sum and passes the block to its right neighbour while
 * receiving the left neighbour's block into the same buffer
 * (MPI_Sendrecv_replace).  After s steps it holds the block of rank r - s
 * (mod P), which it checks by the first entry and by status.MPI_SOURCE.  All
 * blocks have the same length NL, so the count used for sending and receiving
 * is the same everywhere.
 * Inputs: bound BL, 1 <= NL <= BL, -8 <= X <= 8.  Output: total (at rank 0).
 *
 * Expected verdict: tass verify -n 3 comm_ring_shift_ok.c   holds
 * Buggy twin: comm_ring_shift_bad.c (buffer-overflow: blocks of different lengths).
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS input int
#define BL 2
#pragma TASS input {1 <= NL && NL <= BL} int
#define NL 2
#pragma TASS input {-8 <= X && X <= 8} int
#define X 1

#pragma TASS output
int total;

int blk[NL];

int main(int argc, char *argv[]) {
    int nprocs, myrank, left, right, step, i, owner, cells, sum = 0;
    MPI_Status status;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    left = (myrank + nprocs - 1) % nprocs;
    right = (myrank + 1) % nprocs;
    for (i = 0; i < NL; i++)
        blk[i] = X + myrank * NL + i;
    for (step = 0; step < nprocs; step++) {
        owner = (myrank + nprocs - step) % nprocs;
        assert(blk[0] == X + owner * NL);
        for (i = 0; i < NL; i++)
            sum += blk[i];
        MPI_Sendrecv_replace(blk, NL, MPI_INT, right, 0, left, 0, MPI_COMM_WORLD, &status);
        assert(status.MPI_SOURCE == left);
    }
    cells = nprocs * NL;
    assert(sum == cells * X + cells * (cells - 1) / 2);
    if (myrank == 0) {
        total = sum;
#ifdef FEVS_CONCRETE
        printf("OUT total = %d\n", total);
#endif
    }
    MPI_Finalize();
    return 0;
}
