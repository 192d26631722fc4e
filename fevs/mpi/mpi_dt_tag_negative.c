/* fevs/mpi/mpi_dt_tag_negative.c: A negative tag on a send, matched by the same tag on the receive: still an
 * error (mpi-tag, line 11). mpirun -np 2 (default and zero-buffer): OpenMPI
 * aborts in MPI_Send with MPI_ERR_TAG: invalid tag. Expected verdict: violated (mpi-tag). */
#include <mpi.h>
int main(int argc, char **argv) {
  int rank, buf = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    buf = 7;
    MPI_Send(&buf, 1, MPI_INT, 1, -2, MPI_COMM_WORLD); /* BUG: tag -2 */
  } else if (rank == 1) {
    MPI_Recv(&buf, 1, MPI_INT, 0, -2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
