/* fevs/mpi/lise_ring_bad.c -- lise_ring.c where every rank sends first and
 * receives afterwards.  If MPI delivers the sends synchronously (the standard
 * allows MPI_Send to wait for the matching receive), every process waits in
 * MPI_Send and nothing moves: a deadlock in the first round, for every N >= 1.
 *
 * Input: N >= 0, no upper bound.
 * Expected verdict: tass verify -n 10 lise_ring_bad.c    violated, deadlock
 * Confirmed concretely (-DFEVS_CONCRETE, fevs/lise_check.py): mpirun -np 10 in
 * zero-buffer mode (btl self,tcp, btl_tcp_eager_limit 56): N = 1, 3 hang until
 * `timeout 20` kills them; N = 0 ends.  In the default (eager) mode the runs end.
 */
#include <mpi.h>
#include <stdio.h>

#pragma TASS input {N >= 0} int
#define N 3

int main(int argc, char *argv[]) {
    int nprocs, myrank, left, right, r = 0, out = 0, in = 0;
    double pad[16] = {0};

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
        pad[0] = out;
        /* BUG: every rank sends before it receives */
        MPI_Send(pad, 16, MPI_DOUBLE, right, 0, MPI_COMM_WORLD);
        MPI_Recv(pad, 16, MPI_DOUBLE, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        in = (int)pad[0];
        out = in + myrank;
        r++;
    }
#ifdef FEVS_CONCRETE
    printf("SNAP ROUND %d r=%d\n", myrank, r);
#endif
    MPI_Finalize();
    return 0;
}
