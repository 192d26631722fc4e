/* fevs/mpi/mpi_grp_leak.c -- mpi_grp_create_ok.c's pattern, but the group
 * of MPI_COMM_WORLD is never freed.
 *
 * BUG: `world` (MPI_Comm_group) is not freed with MPI_Group_free.
 *
 * Expected verdict: tass verify -n 3 mpi_grp_leak.c: violated, resource-leak at
 *   the MPI_Comm_group call.
 * mpirun -np 3 (also zero-buffer): exit 0 -- a leak has no symptom in a run.
 */
#include <assert.h>
#include <mpi.h>

int main(int argc, char *argv[]) {
    int rank;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Group world, first;
    MPI_Comm_group(MPI_COMM_WORLD, &world); /* BUG: never freed */
    int zero = 0;
    MPI_Group_incl(world, 1, &zero, &first);
    MPI_Comm solo;
    MPI_Comm_create(MPI_COMM_WORLD, first, &solo);
    if (rank == 0)
        MPI_Comm_free(&solo);
    else
        assert(solo == MPI_COMM_NULL);
    MPI_Group_free(&first);
    MPI_Finalize();
    return 0;
}
