/* fevs/mpi/nb_chain_uninit_bad.c -- the forward differences of nb_chain_ok.c
 * (nonblocking exchange along a non-periodic chain of processes) with request
 * variables that are not initialised.
 *
 * BUG: rreq and sreq are declared without "= MPI_REQUEST_NULL".  Rank 0 posts
 * no receive (it has no left neighbour) and the last rank posts no send, yet
 * every process waits on both requests: rank 0's MPI_Wait(&rreq, ...) reads a
 * request that no nonblocking call ever set (invalid-pointer).  This is
 * undefined behaviour that MPI does not detect: with OpenMPI the garbage value
 * makes MPI_Wait crash (segmentation fault) or, when the stack happens to hold
 * something harmless, pass silently, so it is left out of the mpirun cross-check.
 * Inputs: -8 <= X <= 8, -8 <= Y <= 8.  Output: span.
 *
 * Expected verdict: tass verify -n 3 nb_chain_uninit_bad.c
 *   violated: invalid-pointer at the MPI_Wait on rreq
 * Fixed twin: nb_chain_ok.c.
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS input {-8 <= X && X <= 8} int
#define X 3
#pragma TASS input {-8 <= Y && Y <= 8} int
#define Y -1

#pragma TASS output
int span;

int main(int argc, char *argv[]) {
    int nprocs, myrank, i, v, ghost = 0, d = 0, sum = 0;
    MPI_Request rreq, sreq; /* not initialised */

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    v = Y + X * myrank;
    if (myrank > 0)
        MPI_Irecv(&ghost, 1, MPI_INT, myrank - 1, 0, MPI_COMM_WORLD, &rreq);
    if (myrank < nprocs - 1)
        MPI_Isend(&v, 1, MPI_INT, myrank + 1, 0, MPI_COMM_WORLD, &sreq);
    MPI_Wait(&rreq, MPI_STATUS_IGNORE); /* BUG: rank 0 never set rreq */
    MPI_Wait(&sreq, MPI_STATUS_IGNORE);
    if (myrank > 0) {
        d = v - ghost;
        assert(d == X);
        MPI_Send(&d, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    } else {
        for (i = 1; i < nprocs; i++) {
            MPI_Recv(&d, 1, MPI_INT, i, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            sum += d;
        }
        span = sum;
        assert(span == X * (nprocs - 1));
#ifdef FEVS_CONCRETE
        printf("OUT span = %d\n", span);
#endif
    }
    MPI_Finalize();
    return 0;
}
