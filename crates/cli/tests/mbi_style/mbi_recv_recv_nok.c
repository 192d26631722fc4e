/* An MBI-style program written for tass's tests (not from MBI): the header below follows
   the MPI Bugs Initiative format that `cargo xtask mbi` reads.

  Description: both ranks receive first: neither receive can ever match.

BEGIN_MBI_TESTS
  $ mpirun -np 2 ${EXE}
  | ERROR: CallMatching
  | Deadlock: both processes wait in MPI_Recv.
END_MBI_TESTS
*/

#include <mpi.h>

int main(int argc, char **argv) {
  int rank, in = 0, out = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int peer = 1 - rank;
  MPI_Recv(&in, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Send(&out, 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
