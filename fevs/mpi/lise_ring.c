/* fevs/mpi/lise_ring.c -- the LISE paper's "ring": N times, every process
 * sends a value to its right neighbour and receives one from its left.  Rank 0
 * sends first and then receives; every other rank receives first and then
 * sends, so even with synchronous (unbuffered) sends the token goes round and
 * nothing deadlocks.  The property checked is deadlock freedom, for all N.
 *
 * Collective invariant ROUND: 0 <= r <= N, every rank in the same round as rank 0
 * (r == PROC[0]@main.r: all ranks leave the loop together).
 *
 * Input: N >= 0, no upper bound.  Any number of processes >= 2.
 * Expected verdict (paper: 10 processes, 1,521 transitions, 70 proofs, 43 s):
 *   tass verify -n 10 lise_ring.c     holds
 * Buggy twin: lise_ring_bad.c (deadlock).
 * Confirmed concretely (-DFEVS_CONCRETE, fevs/lise_check.py): mpirun -np 10,
 * N = 0, 1, 3, 8, eager and zero-buffer (btl_tcp_eager_limit 56) modes: every
 * run ends, the invariant holds at every arrival, token = N * 45 on rank 0.
 */
#include <mpi.h>
#include <stdio.h>

#pragma TASS input {N >= 0} int
#define N 3

int main(int argc, char *argv[]) {
    int nprocs, myrank, left, right, r = 0, token = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &myrank);
    right = (myrank + 1) % nprocs;
    left = (myrank + nprocs - 1) % nprocs;
#pragma TASS collective invariant ROUND 0 <= r && r <= N && r == PROC[0]@main.r
    while (r < N) {
#ifdef FEVS_CONCRETE
        printf("SNAP ROUND %d r=%d\n", myrank, r);
#endif
        if (myrank == 0) {
            MPI_Send(&token, 1, MPI_INT, right, 0, MPI_COMM_WORLD);
            MPI_Recv(&token, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(&token, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            token += myrank;
            MPI_Send(&token, 1, MPI_INT, right, 0, MPI_COMM_WORLD);
        }
        r++;
    }
#ifdef FEVS_CONCRETE
    printf("SNAP ROUND %d r=%d\n", myrank, r);
    if (myrank == 0)
        printf("OUT token = %d\n", token);
#endif
    MPI_Finalize();
    return 0;
}
