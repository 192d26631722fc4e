/* fevs/mpi/mpi_dt_sig_long_int.c: A long sent as MPI_LONG and received as MPI_INT (both integers to C):
 * the type signatures differ (mpi-type, line 17). mpirun -np 2 (default and
 * zero-buffer): the 8-byte message does not fit the 4-byte receive, OpenMPI
 * aborts with MPI_ERR_TRUNCATE. Expected verdict: violated (mpi-type). */
#include <mpi.h>
int main(int argc, char **argv) {
  int rank;
  long l = 0;
  int n = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    l = 5;
    MPI_Send(&l, 1, MPI_LONG, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    /* an int is not a long */
    MPI_Recv(&n, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* BUG: MPI_LONG was sent */
  }
  MPI_Finalize();
  return 0;
}
