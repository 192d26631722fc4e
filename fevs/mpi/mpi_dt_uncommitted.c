/* fevs/mpi/mpi_dt_uncommitted.c: A derived datatype used before MPI_Type_commit (mpi-type, line 14).
 * mpirun -np 2 (default and zero-buffer): OpenMPI aborts in MPI_Send with
 * MPI_ERR_TYPE: invalid datatype. Expected verdict: violated (mpi-type). */
#include <mpi.h>
int main(int argc, char **argv) {
  int rank;
  int a[4] = {1, 2, 3, 4};
  MPI_Datatype quad;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Type_contiguous(4, MPI_INT, &quad);
  if (rank == 0) {
    /* MPI_Type_commit(&quad) is missing */
    MPI_Send(a, 1, quad, 1, 0, MPI_COMM_WORLD); /* BUG: quad was never committed */
  } else if (rank == 1) {
    MPI_Recv(a, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Type_free(&quad);
  MPI_Finalize();
  return 0;
}
