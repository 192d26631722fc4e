/* An MBI-style program written for tass's tests (not from MBI): the header below follows
   the MPI Bugs Initiative format that `cargo xtask mbi` reads.

  Description: rank 0 sends its int buffer as MPI_FLOAT, rank 1 receives into an int as MPI_INT: the type signatures differ (the MBI pattern).

BEGIN_MBI_TESTS
  $ mpirun -np 2 ${EXE}
  | ERROR: DatatypeMatching
  | MPI_FLOAT is sent and MPI_INT received.
END_MBI_TESTS
*/

#include <mpi.h>

int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    int sent = 3;
    MPI_Send(&sent, 1, MPI_FLOAT, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    int received = 0;
    MPI_Recv(&received, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
