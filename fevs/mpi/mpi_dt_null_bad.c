/* fevs/mpi/mpi_dt_null_bad.c -- a send whose datatype is MPI_DATATYPE_NULL.
 *
 * BUG: MPI_DATATYPE_NULL is no datatype (MPI: erroneous; a derived type left
 * null, e.g. after MPI_Type_free, is the usual way to get here).
 *
 * Expected verdict: tass verify -n 2 mpi_dt_null_bad.c: violated, mpi-type at
 *   process 0's MPI_Send.
 * mpirun -np 2 (default and zero-buffer): Open MPI 4.1.4 fails the send with
 *   MPI_ERR_TYPE, the job aborts (exit 3).
 */
#include <mpi.h>

int main(int argc, char **argv) {
    int rank, value = 7, got = 0;
    MPI_Datatype type = MPI_DATATYPE_NULL;
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    if (rank == 0) {
        /* BUG: the type was never made */
        MPI_Send(&value, 1, type, 1, 0, MPI_COMM_WORLD);
    } else if (rank == 1) {
        MPI_Recv(&got, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Finalize();
    return 0;
}
