/* fevs/mpi/mpi_dt_vector_overrun.c: The last column sent with 2 items of a vector type: the first item takes
 * m[0][3], m[1][3], m[2][3]; the second starts one extent (9 doubles: the
 * extent of a vector ends at its last block) later, at flat element 12, one
 * past the matrix (out-of-bounds, line 21). mpirun -np 2 (default and
 * zero-buffer) shows nothing (it reads past a stack array); the same reads
 * as a loop, base[9 * i + 4 * j] for 2 items of 3 blocks from &m[0][3],
 * compiled with gcc -fsanitize=address,undefined: stack-buffer-overflow. Expected verdict: violated (out-of-bounds). */
#include <mpi.h>
int main(int argc, char **argv) {
  int rank, i, j;
  double m[3][4], column[6];
  MPI_Datatype col;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Type_vector(3, 1, 4, MPI_DOUBLE, &col);
  MPI_Type_commit(&col);
  for (i = 0; i < 3; i++)
    for (j = 0; j < 4; j++)
      m[i][j] = 10 * i + j;
  if (rank == 0) {
    MPI_Send(&m[0][3], 2, col, 1, 0, MPI_COMM_WORLD); /* BUG: the second column starts past the matrix */
  } else if (rank == 1) {
    MPI_Recv(column, 6, MPI_DOUBLE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Type_free(&col);
  MPI_Finalize();
  return 0;
}
