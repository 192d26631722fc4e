/* fevs/mpi/poll_cycle_ok.c -- a manager busy-waits: the search's state graph has a
 * cycle that a partial-order reduction must not close without letting the other
 * processes move (written to break a parallel search whose workers share their
 * saved states naively: see docs/architecture.md, "Parallel search").
 *
 * Workers (ranks 1..P-1) each send one value X + w to rank 0 (tag 0).  Rank 1
 * then checks its value and sends a "done" message (tag 1).  Rank 0 receives
 * the P-1 values first come, first served (MPI_ANY_SOURCE: the interleavings
 * branch), then polls MPI_Iprobe for the "done" message until it is there:
 * while rank 1 has not sent it, every failed probe returns rank 0 to the state
 * it was in (a cycle of rank 0's steps alone), then receives it.
 * Inputs: -8 <= X <= 8.  Output: total = the sum of the values.
 *
 * Expected verdict: tass verify -n 3 poll_cycle_ok.c   holds (also with --jobs 2)
 * Buggy twin: poll_cycle_bad.c (rank 1's check fails for X == 3).
 */
#include <assert.h>
#include <mpi.h>
#include <stdio.h>

#pragma TASS input {-8 <= X && X <= 8} int
#define X 3

#pragma TASS output
int total;

int main(int argc, char *argv[]) {
    int nprocs, rank, i, v, flag = 0, done = 0;
    MPI_Status status;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        total = 0;
        for (i = 1; i < nprocs; i++) {
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &status);
            total += v;
        }
        while (!flag)
            MPI_Iprobe(1, 1, MPI_COMM_WORLD, &flag, &status);
        MPI_Recv(&done, 1, MPI_INT, 1, 1, MPI_COMM_WORLD, &status);
        assert(done == 1);
#ifdef FEVS_CONCRETE
        printf("OUT total = %d\n", total);
#endif
    } else {
        v = X + rank;
        MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
        if (rank == 1) {
            assert(v - rank == X);
            done = 1;
            MPI_Send(&done, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
        }
    }
    MPI_Finalize();
    return 0;
}
