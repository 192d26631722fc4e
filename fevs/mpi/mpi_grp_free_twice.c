/* fevs/mpi/mpi_grp_free_twice.c -- a group freed twice.
 *
 * BUG: the second MPI_Group_free gets MPI_GROUP_NULL (the first set it so).
 *
 * Expected verdict: tass verify -n 2 mpi_grp_free_twice.c: violated,
 *   invalid-pointer at the second MPI_Group_free.
 * mpirun -np 2 (also zero-buffer): MPI_ERR_GROUP, the job aborts (exit non-zero).
 */
#include <mpi.h>

int main(int argc, char *argv[]) {
    MPI_Init(&argc, &argv);
    MPI_Group world;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    MPI_Group_free(&world);
    MPI_Group_free(&world); /* BUG: freed already */
    MPI_Finalize();
    return 0;
}
