/* fevs/mpi/mpi_grp_incl_bad.c -- MPI_Group_incl with a rank the group does
 * not have.
 *
 * BUG: ranks {0, size} -- `size` is one past the last rank.
 *
 * Expected verdict: tass verify -n 3 mpi_grp_incl_bad.c: violated, mpi-rank at
 *   the MPI_Group_incl call.
 * mpirun -np 3 (also zero-buffer): MPI_ERR_RANK, the job aborts (exit non-zero).
 */
#include <mpi.h>

int main(int argc, char *argv[]) {
    int size;
    MPI_Init(&argc, &argv);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    MPI_Group world, ends;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int ranks[2] = {0, size};
    MPI_Group_incl(world, 2, ranks, &ends); /* BUG: rank `size` does not exist */
    MPI_Group_free(&ends);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
