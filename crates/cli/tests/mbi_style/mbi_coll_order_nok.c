/* An MBI-style program written for tass's tests (not from MBI): the header below follows
   the MPI Bugs Initiative format that `cargo xtask mbi` reads.

  Description: even ranks call MPI_Barrier then MPI_Bcast, odd ranks the other order.

BEGIN_MBI_TESTS
  $ mpirun -np 2 ${EXE}
  | ERROR: CallMatching
  | The collectives do not match: MPI_Barrier meets MPI_Bcast.
END_MBI_TESTS
*/

#include <mpi.h>

int main(int argc, char **argv) {
  int rank, value = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank % 2 == 0) {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
  } else {
    MPI_Bcast(&value, 1, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
