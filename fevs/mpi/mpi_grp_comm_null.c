/* fevs/mpi/mpi_grp_comm_null.c -- every process calls a collective on the
 * communicator MPI_Comm_create made, but the processes outside its group got
 * MPI_COMM_NULL.
 *
 * BUG: the barrier on `firsts` is not guarded by `firsts != MPI_COMM_NULL`.
 *
 * Expected verdict: tass verify -n 3 mpi_grp_comm_null.c: violated,
 *   invalid-pointer at the MPI_Barrier (process 2 passes MPI_COMM_NULL).
 * mpirun -np 3 (also zero-buffer): MPI_ERR_COMM, the job aborts (exit non-zero).
 */
#include <mpi.h>

int main(int argc, char *argv[]) {
    MPI_Init(&argc, &argv);
    MPI_Group world, two;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int ranks[2] = {0, 1};
    MPI_Group_incl(world, 2, ranks, &two);
    MPI_Comm firsts;
    MPI_Comm_create(MPI_COMM_WORLD, two, &firsts);
    MPI_Barrier(firsts); /* BUG: MPI_COMM_NULL on process 2 */
    if (firsts != MPI_COMM_NULL)
        MPI_Comm_free(&firsts);
    MPI_Group_free(&two);
    MPI_Group_free(&world);
    MPI_Finalize();
    return 0;
}
