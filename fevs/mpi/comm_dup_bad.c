/* fevs/mpi/comm_dup_bad.c -- the library routine of comm_dup_ok.c (a ring shift
 * that receives with MPI_ANY_TAG) called while a user message is in flight,
 * but without a communicator of its own.
 *
 * BUG: libcomm is MPI_COMM_WORLD itself instead of a duplicate made with
 * MPI_Comm_dup.  The library's receive from the left neighbour accepts any tag,
 * so by MPI's non-overtaking rule it takes the user's message (tag 7), sent
 * first.  The library's own message (tag 0) then has no receive: unbuffered,
 * every library send-receive waits for ever (mpirun without eager buffering
 * hangs); buffered, the library returns X + left instead of 100 + left and the
 * assertion after lib_shift fails (plain mpirun, 3 processes: signal 6).
 *
 * Expected verdict: tass verify -n 3 comm_dup_bad.c: violated, deadlock at the
 *   MPI_Sendrecv; with --deadlock absolute: violated, assertion at the check.
 * Fixed twin: comm_dup_ok.c.
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS input {-8 <= X && X <= 8} int
#define X 3

#pragma TASS output
int sum0;

MPI_Comm libcomm;

/* the library: send x to the right neighbour, return what the left one sent */
int lib_shift(int x) {
    int nprocs, myrank, y;

    MPI_Comm_size(libcomm, &nprocs);
    MPI_Comm_rank(libcomm, &myrank);
    MPI_Sendrecv(&x, 1, MPI_INT, (myrank + 1) % nprocs, 0, &y, 1, MPI_INT, /* BUG: tag 0 is never received */
                 (myrank + nprocs - 1) % nprocs, MPI_ANY_TAG, libcomm, MPI_STATUS_IGNORE);
    return y;
}

int main(int argc, char *argv[]) {
    int nprocs, myrank, left, right, mine, theirs, fromlib;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    libcomm = MPI_COMM_WORLD; /* BUG: shares the user's communicator */
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    left = (myrank + nprocs - 1) % nprocs;
    right = (myrank + 1) % nprocs;
    mine = X + myrank;
    MPI_Isend(&mine, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &req);
    fromlib = lib_shift(100 + myrank);
    assert(fromlib == 100 + left); /* BUG caught here */
    MPI_Recv(&theirs, 1, MPI_INT, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    assert(theirs == X + left);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    if (myrank == 0) {
        sum0 = theirs + fromlib;
#ifdef FEVS_CONCRETE
        printf("OUT sum0 = %d\n", sum0);
#endif
    }
    MPI_Finalize();
    return 0;
}
