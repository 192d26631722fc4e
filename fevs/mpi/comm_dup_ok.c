/* fevs/mpi/comm_dup_ok.c -- a library routine that communicates on its own
 * duplicate of the user's communicator (MPI_Comm_dup), so its wildcard
 * receive can never take a message meant for the user.
 *
 * The user code on every process starts sending a value X + r to its right
 * neighbour (MPI_Isend, tag 7) and, before receiving it, calls lib_shift, a
 * library routine that passes its own argument 100 + r to the right and
 * receives from the left with MPI_ANY_TAG (it does not know which tags the user
 * uses).  lib_shift works on libcomm, a duplicate of MPI_COMM_WORLD made at
 * start-up, so it can only receive the library's message.  Afterwards the user
 * receives its own message.  Both values are checked; libcomm is freed.
 * Inputs: -8 <= X <= 8.  Output: user0 + lib0 as sum0 (rank 0's two values).
 *
 * Expected verdict: tass verify -n 3 comm_dup_ok.c   holds
 * Buggy twin: comm_dup_bad.c (assertion: the library shares the user's communicator).
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
    MPI_Sendrecv(&x, 1, MPI_INT, (myrank + 1) % nprocs, 0, &y, 1, MPI_INT,
                 (myrank + nprocs - 1) % nprocs, MPI_ANY_TAG, libcomm, MPI_STATUS_IGNORE);
    return y;
}

int main(int argc, char *argv[]) {
    int nprocs, myrank, left, right, mine, theirs, fromlib;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &libcomm);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    left = (myrank + nprocs - 1) % nprocs;
    right = (myrank + 1) % nprocs;
    mine = X + myrank;
    MPI_Isend(&mine, 1, MPI_INT, right, 7, MPI_COMM_WORLD, &req);
    fromlib = lib_shift(100 + myrank);
    assert(fromlib == 100 + left);
    MPI_Recv(&theirs, 1, MPI_INT, left, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    assert(theirs == X + left);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    MPI_Comm_free(&libcomm);
    if (myrank == 0) {
        sum0 = theirs + fromlib;
#ifdef FEVS_CONCRETE
        printf("OUT sum0 = %d\n", sum0);
#endif
    }
    MPI_Finalize();
    return 0;
}
