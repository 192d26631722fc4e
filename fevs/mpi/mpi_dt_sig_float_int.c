/* fevs/mpi/mpi_dt_sig_float_int.c: A float sent as MPI_FLOAT and received as MPI_INT: the type signatures
 * differ (mpi-type, line 18), although both sides move 4 bytes. mpirun -np 2
 * (default and zero-buffer): rank 1 receives the bits of 1.0f, 1065353216,
 * and its assertion fails. Expected verdict: violated (mpi-type). */
#include <mpi.h>
#include <assert.h>
int main(int argc, char **argv) {
  int rank;
  float x = 0.0f;
  int n = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    x = 1.0f;
    MPI_Send(&x, 1, MPI_FLOAT, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    /* the receiver expects an int */
    MPI_Recv(&n, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE); /* BUG: MPI_FLOAT was sent */
    assert(n == 1);
  }
  MPI_Finalize();
  return 0;
}
