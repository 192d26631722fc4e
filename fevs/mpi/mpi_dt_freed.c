/* fevs/mpi/mpi_dt_freed.c: A datatype used after MPI_Type_free, which set the handle to
 * MPI_DATATYPE_NULL (mpi-type, line 16). mpirun -np 2 (default and
 * zero-buffer): OpenMPI aborts in MPI_Send with MPI_ERR_TYPE: invalid
 * datatype. Expected verdict: violated (mpi-type). */
#include <mpi.h>
int main(int argc, char **argv) {
  int rank;
  int a[2] = {1, 2};
  MPI_Datatype twice;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Type_contiguous(2, MPI_INT, &twice);
  MPI_Type_commit(&twice);
  MPI_Type_free(&twice);
  if (rank == 0) {
    MPI_Send(a, 1, twice, 1, 0, MPI_COMM_WORLD); /* BUG: twice was freed */
  } else if (rank == 1) {
    MPI_Recv(a, 2, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
