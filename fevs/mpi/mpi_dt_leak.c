/* fevs/mpi/mpi_dt_leak.c: A derived datatype never freed (resource-leak, reported at MPI_Finalize,
 * line 21). mpirun -np 2 (default and zero-buffer): runs clean, exit 0
 * (OpenMPI does not report leaked datatypes; the standard asks every
 * derived datatype to be freed). Expected verdict: violated (resource-leak). */
#include <mpi.h>
#include <assert.h>
int main(int argc, char **argv) {
  int rank;
  int a[2] = {0, 0};
  MPI_Datatype twice;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Type_contiguous(2, MPI_INT, &twice);
  MPI_Type_commit(&twice);
  if (rank == 0) {
    a[0] = 5;
    MPI_Send(a, 1, twice, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(a, 1, twice, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize(); /* BUG: twice is never freed */
  return 0;
}
