/* An MBI-style program written for tass's tests (not from MBI): the header below follows
   the MPI Bugs Initiative format that `cargo xtask mbi` reads.

  Description: MPI_Bcast with a root equal to the number of processes.

BEGIN_MBI_TESTS
  $ mpirun -np 2 ${EXE}
  | ERROR: InvalidRoot
  | The root of MPI_Bcast is not a rank of MPI_COMM_WORLD.
END_MBI_TESTS
*/

#include <mpi.h>

int main(int argc, char **argv) {
  int size, value = 3;
  MPI_Init(&argc, &argv);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Bcast(&value, 1, MPI_INT, size, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
