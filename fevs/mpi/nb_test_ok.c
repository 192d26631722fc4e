/* fevs/mpi/nb_test_ok.c -- overlapping a neighbour exchange with local work:
 * poll the receive with MPI_Test between bounded work steps, block only if it has
 * not arrived when the work is done.
 *
 * Every process sends its value v = X + r to its right neighbour on a ring
 * (MPI_Isend) and posts a receive from its left neighbour (MPI_Irecv).  It then
 * does NW steps of local work (acc += k * v), calling MPI_Test on the receive
 * after each step until it reports completion.  Afterwards one MPI_Testall on
 * both requests says whether everything is complete (the receive request is
 * MPI_REQUEST_NULL by then if MPI_Test completed it); if not, MPI_Waitall
 * blocks.  The received value must be the left neighbour's.
 * Inputs: bound BW, 1 <= NW <= BW, -8 <= X <= 8.
 * Output: result = rank 0's ghost value + its accumulated work.
 *
 * Expected verdict: tass verify -n 3 nb_test_ok.c   holds
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS input int
#define BW 4
#pragma TASS input {1 <= NW && NW <= BW} int
#define NW 4
#pragma TASS input {-8 <= X && X <= 8} int
#define X 5

#pragma TASS output
int result;

int main(int argc, char *argv[]) {
    int nprocs, myrank, left, right, v, ghost = 0, k, acc = 0, got = 0, done = 0;
    MPI_Request reqs[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    left = (myrank + nprocs - 1) % nprocs;
    right = (myrank + 1) % nprocs;
    v = X + myrank;
    MPI_Irecv(&ghost, 1, MPI_INT, left, 0, MPI_COMM_WORLD, &reqs[0]);
    MPI_Isend(&v, 1, MPI_INT, right, 0, MPI_COMM_WORLD, &reqs[1]);
    for (k = 1; k <= NW; k++) {
        acc += k * v;
        if (!got)
            MPI_Test(&reqs[0], &got, MPI_STATUS_IGNORE);
    }
    MPI_Testall(2, reqs, &done, MPI_STATUSES_IGNORE);
    if (!done)
        MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    assert(ghost == X + left);
    assert(acc == v * NW * (NW + 1) / 2);
    if (myrank == 0) {
        result = ghost + acc;
#ifdef FEVS_CONCRETE
        printf("OUT result = %d\n", result);
#endif
    }
    MPI_Finalize();
    return 0;
}
