/* Each process passes a value to its right-hand neighbour in a ring. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char *argv[]) {
  int rank, size, out, in;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  out = 10 * rank;
  int right = (rank + 1) % size;
  int left = (rank + size - 1) % size;
  MPI_Send(&out, 1, MPI_INT, right, 0, MPI_COMM_WORLD);
  MPI_Recv(&in, 1, MPI_INT, left, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  printf("process %d received %d\n", rank, in);
  MPI_Finalize();
  return 0;
}
