/* fevs/mpi/mpi_dt_contig_mismatch.c: A contiguous type of 2 MPI_INT sent, received as 2 MPI_FLOAT: the type
 * signatures {int, int} and {float, float} differ (mpi-type, line 20).
 * mpirun -np 2 (default and zero-buffer): rank 1 receives the bits of the
 * ints 1 and 2 as floats (tiny denormals), and its assertion fails. Expected verdict: violated (mpi-type). */
#include <mpi.h>
#include <assert.h>
int main(int argc, char **argv) {
  int rank;
  int a[2] = {1, 2};
  float x[2] = {0.0f, 0.0f};
  MPI_Datatype twice;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Type_contiguous(2, MPI_INT, &twice);
  MPI_Type_commit(&twice);
  if (rank == 0) {
    MPI_Send(a, 1, twice, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    /* the receiver expects floats */
    MPI_Recv(x, 2, MPI_FLOAT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* BUG: 2 x MPI_INT was sent */
    assert(x[0] == 1.0f);
  }
  MPI_Type_free(&twice);
  MPI_Finalize();
  return 0;
}
