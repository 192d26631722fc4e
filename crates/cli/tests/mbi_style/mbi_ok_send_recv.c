/* An MBI-style program written for tass's tests (not from MBI): the header below follows
   the MPI Bugs Initiative format that `cargo xtask mbi` reads.

  Description: rank 0 sends one int to rank 1, which receives it: correct.

BEGIN_MBI_TESTS
  $ mpirun -np 2 ${EXE}
  | OK
END_MBI_TESTS
*/

#include <mpi.h>

int main(int argc, char **argv) {
  int rank, value = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    value = 42;
    MPI_Send(&value, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Recv(&value, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
