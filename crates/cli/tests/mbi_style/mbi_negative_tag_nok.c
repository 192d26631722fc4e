/* An MBI-style program written for tass's tests (not from MBI): the header below follows
   the MPI Bugs Initiative format that `cargo xtask mbi` reads.

  Description: a message sent and received with the negative tag -2.

BEGIN_MBI_TESTS
  $ mpirun -np 2 ${EXE}
  | ERROR: InvalidTag
  | A tag is never negative.
END_MBI_TESTS
*/

#include <mpi.h>

int main(int argc, char **argv) {
  int rank, value = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    MPI_Send(&value, 1, MPI_INT, 1, -2, MPI_COMM_WORLD);
  else if (rank == 1)
    MPI_Recv(&value, 1, MPI_INT, 0, -2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
