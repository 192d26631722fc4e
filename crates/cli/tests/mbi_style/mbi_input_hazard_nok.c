/* An MBI-style program written for tass's tests (not from MBI): the header below follows
   the MPI Bugs Initiative format that `cargo xtask mbi` reads.

  Description: rank 0 skips the barrier when the command-line argument is even.

BEGIN_MBI_TESTS
  $ mpirun -np 2 ${EXE} 1
  | OK
  $ mpirun -np 2 ${EXE} 2
  | ERROR: IHCallMatching
  | With an even argument rank 0 never calls MPI_Barrier: a deadlock.
END_MBI_TESTS
*/

#include <mpi.h>
#include <stdlib.h>

int main(int argc, char **argv) {
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int n = argc > 1 ? atoi(argv[1]) : 1;
  if (rank != 0 || n % 2 != 0)
    MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
