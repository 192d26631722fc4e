/* fevs/mpi/nbc_overlap_ok.c -- a nonblocking collective overlapped with a
 * ring of point-to-point messages that crosses it.
 *
 * Rank 0 starts an MPI_Iallreduce of its value, then sends its value to rank 1
 * and receives from the last rank. Every other rank first receives from its
 * left neighbour, only then starts the MPI_Iallreduce, and passes on the sum
 * of what it received and its own value. Rank 0's MPI_Iallreduce must not wait
 * for the others (it does not in MPI): were it synchronising, rank 0 would
 * never send and the ring would deadlock.
 * Values: v = X + r.  Outputs (rank 0): total = sum of all v (from the
 * reduction), chain = the same sum carried around the ring.
 * Inputs: -8 <= X <= 8.
 *
 * Expected verdict: tass verify -n 3 nbc_overlap_ok.c   holds
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS input {-8 <= X && X <= 8} int
#define X 3

#pragma TASS output
int total;
#pragma TASS output
int chain;

int main(int argc, char *argv[]) {
    int nprocs, myrank, v, sum = 0, got = 0, carry;
    MPI_Request req;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    v = X + myrank;
    if (myrank == 0) {
        MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
        MPI_Send(&v, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
        MPI_Recv(&got, 1, MPI_INT, nprocs - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else {
        MPI_Recv(&got, 1, MPI_INT, myrank - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Iallreduce(&v, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &req);
        carry = got + v;
        MPI_Send(&carry, 1, MPI_INT, (myrank + 1) % nprocs, 0, MPI_COMM_WORLD);
    }
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    assert(sum == nprocs * X + nprocs * (nprocs - 1) / 2);
    if (myrank == 0) {
        total = sum;
        chain = got;
        assert(chain == total);
#ifdef FEVS_CONCRETE
        printf("OUT total = %d\n", total);
        printf("OUT chain = %d\n", chain);
#endif
    }
    MPI_Finalize();
    return 0;
}
