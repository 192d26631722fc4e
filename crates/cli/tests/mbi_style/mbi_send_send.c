/* An MBI-style program written for tass's tests (not from MBI): the header below follows
   the MPI Bugs Initiative format that `cargo xtask mbi` reads.

  Description: both ranks send first, then receive: a deadlock when standard sends are not buffered, correct when they are.

BEGIN_MBI_TESTS
  $ zero_buffer mpirun -np 2 ${EXE}
  | ERROR: BufferingHazard
  | Both MPI_Send wait for a receive that is posted only after them.
  $ infty_buffer mpirun -np 2 ${EXE}
  | OK
END_MBI_TESTS
*/

#include <mpi.h>

int main(int argc, char **argv) {
  int rank, in = 0, out = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int peer = 1 - rank;
  MPI_Send(&out, 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
  MPI_Recv(&in, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
