/* fevs/mpi/nbc_overlap_bad.c -- nbc_overlap_ok.c with rank 0 completing its
 * MPI_Iallreduce before it sends into the ring.
 *
 * BUG: the other ranks reach the MPI_Iallreduce only after receiving from their
 * left neighbour, and rank 1's left neighbour is rank 0, which now waits for
 * the reduction first: no process can move, in every MPI (also with
 * unlimited buffering).
 * Inputs: -8 <= X <= 8.
 *
 * Expected verdict: tass verify -n 3 nbc_overlap_bad.c   violated (deadlock)
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS input {-8 <= X && X <= 8} int
#define X 3

#pragma TASS output
int total;

int main(int argc, char *argv[]) {
    int nprocs, myrank, v, sum = 0, got = 0, carry;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    v = X + myrank;
    if (myrank == 0) {
        MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE); /* BUG: waits before sending into the ring */
        MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(&got, 1, MPI_INT, nprocs - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&got, 1, MPI_INT, myrank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
        carry = got + v;
        MPI_Send(&carry, 1, MPI_INT, (myrank + 1) % nprocs, 0, MPI_COMM_WORLD);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
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
