/* fevs/mpi/mpi_grp_comm_leak.c -- a communicator made by MPI_Comm_create and
 * never freed.
 *
 * BUG: `pair` is not freed with MPI_Comm_free.
 *
 * Expected verdict: tass verify -n 3 mpi_grp_comm_leak.c: violated,
 *   resource-leak at the MPI_Comm_create call.
 * mpirun -np 3 (also zero-buffer): exit 0 -- a leak has no symptom in a run.
 */
#include <mpi.h>

int main(int argc, char *argv[]) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Group world, two;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int ranks[2] = {1, 0};
    MPI_Group_incl(world, 2, ranks, &two);
    MPI_Comm pair;
    MPI_Comm_create(MPI_COMM_WORLD, two, &pair); /* BUG: never freed */
    if (pair != MPI_COMM_NULL)
        MPI_Barrier(pair);
    MPI_Group_free(&two);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
