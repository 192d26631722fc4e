/* fevs/mpi/comm_ring_shift_bad.c -- the systolic ring of comm_ring_shift_ok.c
 * (blocks travel around the ring with MPI_Sendrecv_replace, every process sums
 * all of them) on a block distribution of N cells that need not divide evenly.
 *
 * Process r owns the cells N*r/P .. N*(r+1)/P - 1 (value X + global index),
 * stored in a buffer of BN entries (room enough for any block).
 * BUG: each process passes its own block length as the count of
 * MPI_Sendrecv_replace, which is also the receive count.  When the incoming
 * block is longer than the process's own (e.g. N = 4 on 3 processes: lengths
 * 1, 1, 2, and rank 0 receives rank 2's two cells with count 1) the message
 * does not fit: buffer-overflow.  Real MPI aborts with MPI_ERR_TRUNCATE (run
 * with N = 4 on 3 processes, or the default N = 7 on 4 processes).  The fix
 * sends the longest block length or the length in a first message.
 * Inputs: bound BN, 1 <= N <= BN, -8 <= X <= 8.  Output: total (at rank 0).
 *
 * Expected verdict: tass verify -n 3 comm_ring_shift_bad.c
 *   violated: buffer-overflow at the MPI_Sendrecv_replace
 * Fixed twin: comm_ring_shift_ok.c (equal blocks).
 */
#include <mpi.h>
#include <stdio.h>

#pragma TASS input int
#define BN 7
#pragma TASS input {1 <= N && N <= BN} int
#define N 7
#pragma TASS input {-8 <= X && X <= 8} int
#define X 1

#pragma TASS output
int total;

int blk[BN];

int main(int argc, char *argv[]) {
    int nprocs, myrank, left, right, step, i, first, len, sum = 0;
    MPI_Status status;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    left = (myrank + nprocs - 1) % nprocs;
    right = (myrank + 1) % nprocs;
    first = N * myrank / nprocs;
    len = N * (myrank + 1) / nprocs - first;
    for (i = 0; i < len; i++)
        blk[i] = X + first + i;
    for (step = 0; step < nprocs; step++) {
        for (i = 0; i < len; i++)
            sum += blk[i];
        /* BUG: own length as the receive count; the left block may be longer */
        MPI_Sendrecv_replace(blk, len, MPI_INT, right, 0, left, 0, MPI_COMM_WORLD, &status);
    }
    if (myrank == 0) {
        total = sum;
#ifdef FEVS_CONCRETE
        printf("OUT total = %d\n", total);
#endif
    }
    MPI_Finalize();
    return 0;
}
