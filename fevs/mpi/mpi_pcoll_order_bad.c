/* fevs/mpi/mpi_pcoll_order_bad.c -- every process binds a persistent
 * broadcast and a persistent sum (MPI-4), then starts both and waits for
 * both.
 *
 * BUG: rank 1 initialises the sum before the broadcast, the others the
 * broadcast first.  The inits are collective calls: MPI matches the k-th
 * persistent collective init of every member with the others' k-th, so
 * rank 1's sum meets the others' broadcast (collective-mismatch).  (The
 * order of the *starts* does not matter: a persistent collective was
 * matched at its init.)
 *
 * Open MPI 4.1 provides the calls as MPIX_..._init in <mpi-ext.h>.
 * Expected verdict: tass verify -n 2 mpi_pcoll_order_bad.c
 *   violated: collective-mismatch (MPI_Allreduce_init against MPI_Bcast_init),
 *   reported at rank 1's second init
 * Confirmed: mpicc -fsanitize=address,undefined, mpirun -np 2 (default and
 * zero-buffer): the run hangs (killed after 40 s).
 * Fixed twin: mpi_pcoll_ok.c.
 */
#include <assert.h>
#include <mpi.h>
#if defined(OPEN_MPI) && MPI_VERSION < 4
#include <mpi-ext.h>
#define MPI_Bcast_init MPIX_Bcast_init
#define MPI_Allreduce_init MPIX_Allreduce_init
#endif

#pragma TASS input {-8 <= X && X <= 8} int
#define X 3

int main(int argc, char *argv[]) {
    int rank, size, v = 0, mine, sum = 0;
    MPI_Request reqs[2];

    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (rank == 0)
        v = X;
    mine = rank;
    if (rank == 1) {
        /* BUG: the others initialise the broadcast first */
        MPI_Allreduce_init(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                           &reqs[1]);
        MPI_Bcast_init(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[0]); /* BUG */
    } else {
        MPI_Bcast_init(&v, 1, MPI_INT, 0, MPI_COMM_WORLD, MPI_INFO_NULL, &reqs[0]);
        MPI_Allreduce_init(&mine, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL,
                           &reqs[1]);
    }
    MPI_Startall(2, reqs);
    MPI_Waitall(2, reqs, MPI_STATUSES_IGNORE);
    assert(v == X && sum == size * (size - 1) / 2);
    MPI_Request_free(&reqs[0]);
    MPI_Request_free(&reqs[1]);
    MPI_Finalize();
    return 0;
}
