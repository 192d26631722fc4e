/* fevs/mpi/mpi_dt_vector_column.c: A matrix column sent with MPI_Type_vector (3 blocks of 1 double, stride 4)
 * and received as 3 contiguous MPI_DOUBLE: the elements the layout selects,
 * in order. mpirun -np 2 (default and zero-buffer): runs clean, exit 0. Expected verdict: holds. */
#include <mpi.h>
#include <assert.h>
int main(int argc, char **argv) {
  int rank, i, j;
  double m[3][4], column[3];
  MPI_Datatype col;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Type_vector(3, 1, 4, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  for (i = 0; i < 3; i++)
    for (j = 0; j < 4; j++)
      m[i][j] = 10 * i + j;
  if (rank == 0) {
    MPI_Send(&m[0][2], 1, col, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(column, 3, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    for (i = 0; i < 3; i++)
      assert(column[i] == 10 * i + 2);
  }
  MPI_Type_free(&col);
  MPI_Finalize();
  return 0;
}
