/* fevs/mpi/mpi_dt_tag_ok.c: Valid tags: 0, the largest portable one (32767) and MPI_ANY_TAG on a
 * receive. mpirun -np 2 (default and zero-buffer): runs clean, exit 0. Expected verdict: holds. */
#include <mpi.h>
#include <assert.h>
int main(int argc, char **argv) {
  int rank, a = 0, b = 0;
  MPI_Status status;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    a = 1;
    b = 2;
    MPI_Send(&a, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Send(&b, 1, MPI_INT, 1, 32767, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(&a, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&b, 1, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
    assert(a == 1 && b == 2 && status.MPI_TAG == 32767);
  }
  MPI_Finalize();
  return 0;
}
