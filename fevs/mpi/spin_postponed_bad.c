/* fevs/mpi/spin_postponed_bad.c -- rank 0 spins for ever in a local loop while rank 1,
 * the only process that can reach the check, waits to be scheduled: a
 * partial-order reduction that lets rank 0's loop close on itself without
 * letting rank 1 move would never reach the check (the "ignoring problem").
 * Written for the parallel search (--jobs N, docs/architecture.md, "Parallel
 * search"): ranks 2..P-1 send to rank 0, which receives first come, first served
 * (MPI_ANY_SOURCE: the search branches there and the parts of --jobs split
 * there), and the sum it computes is the same in every order, so all parts
 * reach the same loop states and meet each other's states open.
 *
 * Rank 0 sums the values X + w of ranks w = 2..P-1, sends the sum to rank 1 and
 * then loops for ever (t cycles 0, 2, 0, ...).  Rank 1 receives the sum and
 * checks it.  A real run never ends (rank 0 spins); rank 1's check fails
 * before that for X == 3 (mpirun then ends the job).
 * Inputs: -8 <= X <= 8.
 *
 * Expected verdict: tass verify -n 4 spin_postponed_bad.c   violated (assertion at the BUG line)
 * Correct twin: spin_postponed_ok.c.  BUG: rank 1 wants X != 3.
 */
#include <assert.h>
#include <mpi.h>

#pragma TASS input {-8 <= X && X <= 8} int
#define X 3

int main(int argc, char *argv[]) {
    int nprocs, rank, i, v, total = 0, t = 0;

    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        for (i = 2; i < nprocs; i++) {
            MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            total += v;
        }
        v = 0;
        MPI_Send(&total, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
        while (t != 5)
            t = (t + 2) % 4;
    } else if (rank == 1) {
        MPI_Recv(&total, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        assert(total - (nprocs - 2) * X >= 0);
        assert(X != 3); /* BUG: fails for X == 3 */
    } else {
        v = X + rank;
        MPI_Send(&v, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
    MPI_Finalize();
    return 0;
}
