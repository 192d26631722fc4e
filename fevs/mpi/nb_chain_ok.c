/* fevs/mpi/nb_chain_ok.c -- forward differences of a block-distributed linear
 * profile across process boundaries, with nonblocking receives and sends whose
 * requests start out as MPI_REQUEST_NULL.
 *
 * Process r holds the sample v = Y + X*r of a line.  Every process except the
 * last sends v to its right neighbour, every process except the first receives
 * its left neighbour's sample, both nonblocking; the end processes have nothing
 * to post, and their request stays MPI_REQUEST_NULL, on which MPI_Wait returns
 * at once.  Process r > 0 checks that the difference v - ghost is the slope X
 * and sends it to rank 0, which adds them up: the total is X*(P-1).
 * Inputs: -8 <= X <= 8, -8 <= Y <= 8.  Output: span.
 *
 * Expected verdict: tass verify -n 3 nb_chain_ok.c   holds
 * Buggy twin: nb_chain_uninit_bad.c (invalid-pointer: MPI_Wait on a request never set).
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
    MPI_Request rreq = MPI_REQUEST_NULL, sreq = MPI_REQUEST_NULL;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    v = Y + X * myrank;
    if (myrank > 0)
        MPI_Irecv(&ghost, 1, MPI_INT, myrank - 1, 0, MPI_COMM_WORLD, &rreq);
    if (myrank < nprocs - 1)
        MPI_Isend(&v, 1, MPI_INT, myrank + 1, 0, MPI_COMM_WORLD, &sreq);
    MPI_Wait(&rreq, MPI_STATUS_IGNORE);
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
