/* An MBI-style program written for tass's tests (not from MBI): the header below follows
   the MPI Bugs Initiative format that `cargo xtask mbi` reads.

  Description: the root writes the buffer of an MPI_Ibcast before waiting for it.

BEGIN_MBI_TESTS
  $ mpirun -np 2 ${EXE}
  | ERROR: LocalConcurrency
  | The buffer of MPI_Ibcast is written before MPI_Wait.
END_MBI_TESTS
*/

#include <mpi.h>

int main(int argc, char **argv) {
  int rank, value = 5;
  MPI_Request request;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Ibcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD, &request);
  if (rank == 0)
    value = 6;
  MPI_Wait(&request, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
