/* fevs/mpi/mpi_dt_sig_ok.c: Matching type signatures: MPI_FLOAT to MPI_FLOAT, MPI_LONG to MPI_LONG,
 * two MPI_INT received as one MPI_2INT (both are {int, int}). mpirun -np 2
 * (default and zero-buffer): runs clean, exit 0. Expected verdict: holds. */
#include <mpi.h>
#include <assert.h>
int main(int argc, char **argv) {
  int rank;
  float x = 0.0f;
  long l = 0;
  int two[2] = {0, 0};
  struct { int value; int index; } pair = {0, 0};
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    x = 1.5f;
    l = 40;
    two[0] = 3;
    two[1] = 4;
    MPI_Send(&x, 1, MPI_FLOAT, 1, 0, MPI_COMM_WORLD);
    MPI_Send(&l, 1, MPI_LONG, 1, 1, MPI_COMM_WORLD);
    MPI_Send(two, 2, MPI_INT, 1, 2, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(&x, 1, MPI_FLOAT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&l, 1, MPI_LONG, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&pair, 1, MPI_2INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    assert(x == 1.5f && l == 40 && pair.value == 3 && pair.index == 4);
  }
  MPI_Finalize();
  return 0;
}
