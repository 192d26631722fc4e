/* An MBI-style program written for tass's tests (not from MBI): the header below follows
   the MPI Bugs Initiative format that `cargo xtask mbi` reads.

  Description: rank 0 receives from MPI_ANY_SOURCE then from rank 2: if rank 2's message is taken first, the second receive never matches.

BEGIN_MBI_TESTS
  $ mpirun -np 3 ${EXE}
  | ERROR: MessageRace
  | The wildcard receive may take the message of rank 2.
END_MBI_TESTS
*/

#include <mpi.h>

int main(int argc, char **argv) {
  int rank, value = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Recv(&value, 1, MPI_INT, 2, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    value = rank;
    MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
