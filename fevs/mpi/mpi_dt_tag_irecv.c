/* fevs/mpi/mpi_dt_tag_irecv.c: MPI_ANY_TAG is -1; any other negative tag on a receive is an error, even
 * with a matching send (mpi-tag, line 14). mpirun -np 2 (default and
 * zero-buffer): OpenMPI aborts in MPI_Irecv with MPI_ERR_TAG: invalid tag. Expected verdict: violated (mpi-tag). */
#include <mpi.h>
int main(int argc, char **argv) {
  int rank, buf = 0;
  MPI_Request req;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    buf = 7;
    MPI_Send(&buf, 1, MPI_INT, 1, 3, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Irecv(&buf, 1, MPI_INT, 0, -5, MPI_COMM_WORLD, &req); /* BUG: tag -5 */
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
