/* fevs/mpi/mpi_p2p_sendrecv_overlap_bad.c -- a ring shift of a block of an
 * array with MPI_Sendrecv: each process sends K elements to its right
 * neighbour and receives K from its left one into the same array.
 *
 * BUG: the send block starts at element 2 and the receive block at element
 * 4, so for K > 2 they share elements (MPI requires the send and receive
 * buffers of MPI_Sendrecv to be disjoint; MPI_Sendrecv_replace is the call
 * for one buffer).  Open MPI happens to copy the send data out first, so the
 * program runs to its end.
 *
 * Expected verdict: tass verify -n 2 mpi_p2p_sendrecv_overlap_bad.c
 *   violated: local-concurrency at the MPI_Sendrecv line
 */
#include <mpi.h>

#pragma TASS input {1 <= K && K <= 4} int
#define K 3

int main(int argc, char *argv[]) {
    int rank, size, i, a[8];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (i = 0; i < 8; i++)
        a[i] = 10 * rank + i;
    MPI_Sendrecv(&a[2], K, MPI_INT, (rank + 1) % size, 0, /* BUG: overlaps a[4..] */
                 &a[4], K, MPI_INT, (rank + size - 1) % size, 0, MPI_COMM_WORLD,
                 MPI_STATUS_IGNORE);
    MPI_Finalize();
    return 0;
}
